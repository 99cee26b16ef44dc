// The transfer journal as the runner writes it: moves in the activity and Move lists, moves journaled
// side by side, a journal kept per chains, and a failed move whose export was kept in the way.
import { describe, expect, it } from 'vitest';
import { memoryStores } from '../../src/background/storage.js';
import { openJournal, SPENDS_KEPT, TransferJournal, type TransferRecord, transferActivity } from '../../src/background/transfer-journal.js';
import { TransferRunner } from '../../src/background/transfer-runner.js';
import { chainsKey, entryJournalKey, journalKey, perChainsKeys } from '../../src/background/account-cache.js';
import { TransfersService } from '../../src/background/services/transfers.js';
import { movingExports } from '../../src/background/waiting-imports.js';
import { NodeUnreachableError } from '../../src/core/errors.js';
import { Crash, ScriptedChains } from './transfers-fixtures.js';

describe('a move in the activity list', () => {
  const AVAX_ID = 'avax-asset-id';
  const activityOf = async (chains: ScriptedChains, stop?: string) => {
    const journal = new TransferJournal(memoryStores().local, 'transfers:test');
    const runner = new TransferRunner(chains.engine(), journal, {
      checkpoint(point) {
        if (point === stop) throw new Crash(point);
      },
    });
    await runner.start('X', 'P', 5_000n).catch((e: unknown) => {
      if (!(e instanceof Crash)) throw e;
    });
    return transferActivity((await journal.list())[0]!, AVAX_ID);
  };

  it('a completed move is its export (with the amount) and its import (with what arrived: the amount less its fee), both accepted, the import newer', async () => {
    const [exported, imported, ...rest] = await activityOf(new ScriptedChains());
    expect(rest).toEqual([]);
    expect(exported).toMatchObject({ kind: 'export', chain: 'X', otherChain: 'P', status: 'accepted', amount: '5000', fee: '1000', assetID: AVAX_ID });
    expect(imported).toMatchObject({ kind: 'import', chain: 'P', otherChain: 'X', status: 'accepted', amount: '4990', fee: '10', assetID: AVAX_ID });
    expect(imported!.createdAt).toBeGreaterThan(exported!.createdAt);
  });

  it('a move stopped after its export was signed shows the export pending and no import', async () => {
    const items = await activityOf(new ScriptedChains(), 'export-signed');
    expect(items).toEqual([expect.objectContaining({ kind: 'export', status: 'pending' })]);
  });

  it('an export the node refused shows as failed', async () => {
    const chains = new ScriptedChains();
    chains.stateOnSend = 'failed';
    const items = await activityOf(chains);
    expect(items).toEqual([expect.objectContaining({ kind: 'export', status: 'failed' })]);
  });

  it('a move not journaled past pending (nothing signed) has no activity', async () => {
    expect(await activityOf(new ScriptedChains(), 'journaled')).toEqual([]);
  });
});

describe('moves running side by side', () => {
  it('two moves journaled at once both keep every step: writes to one journal wait for each other', async () => {
    const chains = new ScriptedChains();
    const journal = new TransferJournal(memoryStores().local, 'transfers:side-by-side');
    const runner = new TransferRunner(chains.engine(), journal);
    const [a, b] = await Promise.all([runner.start('X', 'P', 1_000n), runner.start('P', 'C', 2_000n)]);
    expect(a.state).toBe('completed');
    expect(b.state).toBe('completed');
    // As stored: both completed, neither put back to an earlier step by the other's write.
    expect((await journal.list()).map((r) => r.state).sort()).toEqual(['completed', 'completed']);
    expect(await journal.unfinished()).toEqual([]);
  });

  it('an ended move is stored without its signed bytes (in every later write too), one under way with them', async () => {
    const chains = new ScriptedChains();
    const journal = new TransferJournal(memoryStores().local, 'transfers:bytes');
    const runner = new TransferRunner(chains.engine(), journal, {
      checkpoint(point) {
        if (point === 'export-signed') throw new Crash(point);
      },
    });
    await runner.start('X', 'P', 1_000n).catch((e: unknown) => {
      if (!(e instanceof Crash)) throw e;
    });
    const done = await new TransferRunner(chains.engine(), journal).start('P', 'C', 2_000n);
    expect(done.state).toBe('completed');
    const stored = await journal.list();
    const bytesOf = (r: TransferRecord) => [r.export?.signedHex, ...r.imports.map((tx) => tx.signedHex)];
    expect(bytesOf(stored.find((r) => r.id === done.id)!)).toEqual(['', '']);
    // Still under way: its export's bytes are what a resume sends.
    expect(bytesOf(stored.find((r) => r.id !== done.id)!)).toEqual([expect.stringMatching(/^[0-9a-f]+$/)]);
    expect(transferActivity(stored.find((r) => r.id === done.id)!, 'avax').map((i) => i.status)).toEqual(['accepted', 'accepted']);
  });

  it('a resume runs a move as stored when its turn comes, not as listed at the start: one finished meanwhile is not signed again', async () => {
    const chains = new ScriptedChains();
    const journal = new TransferJournal(memoryStores().local, 'transfers:stale');
    const other = new TransferRunner(chains.engine(), journal);
    const a = await other.begin('X', 'P', 1_000n);
    const b = await other.begin('X', 'C', 2_000n);
    // While the resume works on A, another run (the move's own, started by the user) finishes B.
    let finishedB = false;
    const resuming = new TransferRunner(chains.engine(), journal, {
      async checkpoint(point, record) {
        if (record.id === a.id && point === 'completed' && !finishedB) {
          finishedB = true;
          await other.run((await journal.get(b.id))!);
        }
      },
    });
    const held = new Set<string>();
    await resuming.resumeAll(
      (id) => !held.has(id) && held.add(id) !== undefined,
      (id) => held.delete(id),
    );
    expect(finishedB).toBe(true);
    const stored = (await journal.get(b.id))!;
    expect(stored.state).toBe('completed');
    // B's export was signed and sent once: the resume did not run the stale "pending" B it had listed.
    expect(chains.sent.filter((id) => id === stored.export!.txID)).toHaveLength(1);
    expect(chains.sent).toHaveLength(4);
    // A move claimed by another run is not touched at all.
    const c = await other.begin('P', 'X', 3_000n);
    expect(await resuming.resumeAll(() => false, () => undefined)).toEqual([]);
    expect((await journal.get(c.id))!.state).toBe('pending');
  });
});

describe('the Move list', () => {
  it('is read from the journal alone: it does not need the node (a restarted worker has not read its identity)', async () => {
    const { local } = memoryStores();
    const journal = new TransferJournal(local, journalKey('net', 'A'));
    const record = await new TransferRunner(new ScriptedChains().engine(), journal).begin('X', 'P', 5_000n);
    const engines = {
      open: async () => {
        throw new NodeUnreachableError('http://127.0.0.1:9650', 'fetch failed');
      },
      selected: async () => ({ account: { id: 'A' }, preset: { id: 'net' } }),
      journal: async (preset: { id: string }, accountId: string, storageOnly?: boolean) => (storageOnly ? new TransferJournal(local, journalKey(preset.id, accountId)) : expect.unreachable('the node asked')),
    };
    const service = new TransfersService(engines as never, { isUnlocked: () => true } as never, local);
    expect((await service.transfersList()).transfers).toMatchObject([{ id: record.id, state: 'pending' }]);
    const locked = new TransfersService(engines as never, { isUnlocked: () => false } as never, local);
    await expect(locked.transfersList()).rejects.toMatchObject({ code: 'vault-locked' });
  });

  it('lists the newest move first, however recently an older one moved on (a step rewrites its record)', async () => {
    const { local } = memoryStores();
    const journal = new TransferJournal(local, journalKey('net', 'A'));
    const chains = new ScriptedChains();
    const older = await new TransferRunner(chains.engine(), journal).begin('X', 'P', 5_000n);
    older.createdAt -= 1_000;
    await journal.put(older);
    const newer = await new TransferRunner(chains.engine(), journal).begin('P', 'X', 6_000n);
    // The older move takes its steps after the newer one was journaled.
    await new TransferRunner(chains.engine(), journal).run(older);
    const engines = { selected: async () => ({ account: { id: 'A' }, preset: { id: 'net' } }), journal: async () => journal };
    const service = new TransfersService(engines as never, { isUnlocked: () => true } as never, local);
    expect((await service.transfersList()).transfers.map((t) => [t.id, t.state])).toEqual([
      [newer.id, 'pending'],
      [older.id, 'completed'],
    ]);
  });
});

describe('a journal kept per chains (openJournal)', () => {
  const move = (id: string, state: TransferRecord['state'], updatedAt = 1): TransferRecord => ({ id, from: 'X', to: 'P', amount: '1', state, imports: [], importAttempts: 0, createdAt: 1, updatedAt });

  it("takes in those an older version kept with each network entry, each move once (the chains' own winning), and registers the chains for a new vault's clean-up", async () => {
    const { local } = memoryStores();
    const chains = chainsKey(5, 'X5');
    await local.set({
      [entryJournalKey('custom-1', 'acc')]: [move('old', 'export-accepted'), move('both', 'export-signed')],
      [entryJournalKey('custom-2', 'acc')]: [move('other-entry', 'pending')],
      [journalKey(chains, 'acc')]: [move('both', 'completed', 2)],
    });
    const journal = await openJournal(local, chains, 'acc', [entryJournalKey('custom-1', 'acc'), entryJournalKey('custom-2', 'acc')]);
    expect((await journal.list()).map((r) => [r.id, r.state])).toEqual([['both', 'completed'], ['old', 'export-accepted'], ['other-entry', 'pending']]);
    expect(local.keys()).not.toContain(entryJournalKey('custom-1', 'acc'));
    expect(local.keys()).not.toContain(entryJournalKey('custom-2', 'acc'));
    // Opened again after a lost remove: nothing is taken in twice.
    await local.set({ [entryJournalKey('custom-1', 'acc')]: [move('old', 'export-accepted')] });
    expect((await (await openJournal(local, chains, 'acc', [entryJournalKey('custom-1', 'acc')])).list()).map((r) => r.id)).toEqual(['both', 'old', 'other-entry']);
    expect((await perChainsKeys(local, ['acc'])).journals).toEqual([journal.key]);
  });

  it('an older one that is not a list stops the opening (storage-corrupt): what it held is unknown, and it stays as it was', async () => {
    const { local } = memoryStores();
    await local.set({ [entryJournalKey('custom-1', 'acc')]: { not: 'a list' } });
    await expect(openJournal(local, chainsKey(5, 'X5'), 'acc', [entryJournalKey('custom-1', 'acc')])).rejects.toMatchObject({ code: 'storage-corrupt' });
    expect((await local.get([entryJournalKey('custom-1', 'acc')]))[entryJournalKey('custom-1', 'acc')]).toEqual({ not: 'a list' });
    expect(local.keys()).not.toContain(journalKey(chainsKey(5, 'X5'), 'acc'));
  });
});

describe('a failed move whose export was kept in the way (TransferJournal.keptExportSeen)', () => {
  const failedMove = (txID: string) => ({
    id: `move-${txID}`,
    from: 'X' as const,
    to: 'P' as const,
    amount: '5000',
    state: 'failed' as const,
    export: { chain: 'X' as const, txID, signedHex: '00', fee: '1000', accepted: false, kept: true },
    imports: [],
    importAttempts: 0,
    error: 'Rejected',
    createdAt: 1,
    updatedAt: 1,
  });

  it('goes in the write that journals a retry with the same export; a failed move with another export, or none, and a failed retry, never', async () => {
    const { local } = memoryStores();
    const journal = new TransferJournal(local, 'transfers:test');
    const { export: _none, ...refused } = { ...failedMove('none'), id: 'refused' };
    await journal.put(failedMove('exp-1'));
    await journal.put(failedMove('exp-2'));
    await journal.put(refused);
    // A new move, no export yet; then a failed one holding exp-2 itself: nothing goes.
    await journal.put({ ...failedMove('x'), id: 'new', state: 'pending', export: undefined } as unknown as TransferRecord);
    await journal.put({ ...failedMove('exp-2'), id: 'failed-retry' });
    expect((await journal.list()).map((r) => r.id).sort()).toEqual(['failed-retry', 'move-exp-1', 'move-exp-2', 'new', 'refused']);
    // The retry journals exp-1 as its own export: the failed move holding it goes in that write.
    await journal.put({ ...failedMove('exp-1'), id: 'retry', state: 'export-signed', export: { ...failedMove('exp-1').export, kept: false } } as TransferRecord);
    expect((await journal.list()).map((r) => r.id).sort()).toEqual(['failed-retry', 'move-exp-2', 'new', 'refused', 'retry']);
  });

  it('may have gone through: listed as pending and checking, not failed; then it ran: the move goes on from its accepted export', async () => {
    const { local } = memoryStores();
    const journal = new TransferJournal(local, 'transfers:test');
    await journal.put(failedMove('exp-1'));
    await journal.keptExportSeen('exp-1', 'unclear');
    expect(transferActivity((await journal.list())[0]!, 'avax')).toEqual([expect.objectContaining({ kind: 'export', status: 'pending', checking: true })]);
    await journal.keptExportSeen('exp-1', 'accepted');
    const [revived] = await journal.list();
    expect(revived).toMatchObject({ state: 'export-accepted', export: { accepted: true } });
    expect(revived!.error).toBeUndefined();
    expect(revived!.export!.unclear).toBeUndefined();
    expect(await journal.unfinished()).toHaveLength(1);
  });

  it('may have gone through, then a tx that took its place was accepted: no longer "may have", failed as it was', async () => {
    const { local } = memoryStores();
    const journal = new TransferJournal(local, 'transfers:test');
    await journal.put(failedMove('exp-6'));
    await journal.keptExportSeen('exp-6', 'unclear');
    await journal.keptExportSeen('exp-6', 'replaced');
    const [move] = await journal.list();
    expect(move).toMatchObject({ state: 'failed', export: { accepted: false, kept: true } });
    expect(move!.export!.unclear).toBeUndefined();
    expect(transferActivity(move!, 'avax')).toEqual([expect.objectContaining({ kind: 'export', status: 'failed' })]);
  });

  it('a damaged record beside it is skipped (and goes with the write), not an error that would hold up every refresh and send', async () => {
    const { local } = memoryStores();
    await local.set({ 'transfers:test': [null, 7, failedMove('exp-2')] });
    const journal = new TransferJournal(local, 'transfers:test');
    await journal.keptExportSeen('exp-2', 'accepted');
    expect((await local.get(['transfers:test']))['transfers:test']).toEqual([expect.objectContaining({ state: 'export-accepted' })]);
  });

  it('a record with any field the wallet reads damaged is skipped: its funds are not held as moving, and Activity and the Move list still read', async () => {
    const { local } = memoryStores();
    const importing: TransferRecord = {
      ...failedMove('exp-7'),
      id: 'importing',
      state: 'import-signed',
      export: { chain: 'X', txID: 'exp-7', signedHex: '00', fee: '1000', accepted: true, spends: ['utxo-7'] },
      imports: [{ chain: 'P', txID: 'imp-7', signedHex: 'abcd', fee: '1000', accepted: false }],
    };
    const withImport = (damage: Record<string, unknown>) => ({ ...importing, imports: [{ ...importing.imports[0]!, ...damage }] });
    const damaged = [
      withImport({ signedHex: 'zz' }),
      withImport({ fee: 'oops' }),
      withImport({ accepted: 'yes' }),
      { ...importing, imports: [null] },
      { ...importing, amount: '-5' },
      { ...importing, amount: 5000 },
      { ...importing, maxFee: '1e9' },
      { ...importing, from: 'Q' },
      { ...importing, createdAt: 'today' },
      { ...importing, export: { ...importing.export!, fee: undefined } },
      { ...importing, replaced: [{ ...importing.imports[0]!, signedHex: 'x' }] },
    ].map((r, i) => ({ ...r, id: `damaged-${i}` }));
    await local.set({ 'transfers:test': [...damaged, importing] });
    const journal = new TransferJournal(local, 'transfers:test');
    const listed = await journal.list();
    expect(listed.map((r) => r.id)).toEqual(['importing']);
    expect(movingExports(listed)).toEqual(new Set(['exp-7']));
    expect(transferActivity(listed[0]!, 'avax').map((i) => i.kind)).toEqual(['export', 'import']);
    // The next write keeps only the well-formed one.
    await journal.put({ ...importing, updatedAt: 2 });
    expect((await local.get(['transfers:test']))['transfers:test']).toEqual([expect.objectContaining({ id: 'importing', updatedAt: 2 })]);
  });

  it("a damaged list of an export's inputs is dropped, not the move with it; ended moves keep those lists only up to SPENDS_KEPT IDs in all, the newest first", async () => {
    const { local } = memoryStores();
    const imported = [{ chain: 'P' as const, txID: 'imp', signedHex: '', fee: '1000', accepted: true }];
    const ended = (n: number, spends: unknown): TransferRecord => ({ ...failedMove(`exp-${n}`), id: `m-${n}`, state: 'completed', createdAt: 1, updatedAt: n, imports: imported, export: { ...failedMove(`exp-${n}`).export, accepted: true, spends } as TransferRecord['export'] });
    await local.set({ 'transfers:test': [ended(1, 'abc'), ended(2, [7]), ended(3, ['u3'])] });
    const journal = new TransferJournal(local, 'transfers:test');
    expect((await journal.list()).map((r) => [r.id, r.export!.spends])).toEqual([['m-1', undefined], ['m-2', undefined], ['m-3', ['u3']]]);

    // A completed move that moved on less lately, whose list no longer fits, loses it (and so does
    // every older one); a move under way, or failed with its export kept in the way (it may run yet), never;
    // another failed one keeps none (its export never ran, or another imported it), and counts for none.
    const ids = (n: number, count: number) => Array.from({ length: count }, (_, i) => `u${n}-${i}`);
    const under = { ...ended(4, ids(4, 10)), state: 'export-signed' as const, updatedAt: 0 };
    const keptInTheWay = { ...failedMove('exp-9'), id: 'm-9', updatedAt: 0, export: { ...failedMove('exp-9').export, spends: ids(9, 3) } };
    const refused = { ...failedMove('exp-10'), id: 'm-10', updatedAt: 20, export: { ...failedMove('exp-10').export, kept: false, spends: ids(10, 3) } };
    // Completed with no import of its own (another took the funds): its list protects nothing.
    const importedElsewhere = { ...ended(11, ids(11, 4)), imports: [] };
    await local.set({ 'transfers:test': [under, keptInTheWay, refused, importedElsewhere, ended(5, ids(5, 5)), ended(6, ids(6, 10)), ended(7, ids(7, 2))] });
    await journal.put(ended(8, ids(8, SPENDS_KEPT - 10)));
    const kept = Object.fromEntries((await journal.list()).map((r) => [r.id, r.export!.spends?.length]));
    expect(kept).toEqual({ 'm-4': 10, 'm-9': 3, 'm-10': undefined, 'm-11': undefined, 'm-5': undefined, 'm-6': undefined, 'm-7': 2, 'm-8': SPENDS_KEPT - 10 });
    // A kept export whose place another tx took can never run: its list goes.
    await journal.keptExportSeen('exp-9', 'replaced');
    expect((await journal.get('m-9'))!.export!.spends).toBeUndefined();
  });

  it('only the failed move with that export is told: another export ID, or a move not failed, is left as it is', async () => {
    const { local } = memoryStores();
    const journal = new TransferJournal(local, 'transfers:test');
    const going = { ...failedMove('exp-3'), id: 'going', state: 'export-signed' as const };
    await journal.put(failedMove('exp-4'));
    await journal.put(going);
    await journal.keptExportSeen('exp-3', 'accepted');
    await journal.keptExportSeen('exp-5', 'accepted');
    expect((await journal.list()).map((r) => r.state)).toEqual(['failed', 'export-signed']);
  });
});

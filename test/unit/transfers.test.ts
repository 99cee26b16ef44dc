// The transfer runner's decisions when the node's answers are ambiguous. The runner is driven
// against a scripted stand-in for the engine, because the case here needs a node that keeps a
// tx "Processing" longer than the runner's grace period, which a local node does not do on cue.
// The flows against the real node are in test/integration/transfers.test.ts.
import { describe, expect, it, vi } from 'vitest';
import { memoryStores } from '../../src/background/storage.js';
import { TransferJournal, transferActivity, type TransferRecord, withImportsRebuilt } from '../../src/background/transfer-journal.js';
import { TransferRunner } from '../../src/background/transfer-runner.js';
import type { TxState } from '../../src/core/engine.js';
import { journalReviewedImport } from '../../src/background/waiting-imports.js';
import { journalKey } from '../../src/background/account-cache.js';
import { TransfersService } from '../../src/background/services/transfers.js';
import { InsufficientFundsError, TimeoutError, WalletError } from '../../src/core/errors.js';
import type { ChainAlias } from '../../src/core/node.js';
import { cb58Encode } from '../../src/core/encoding.js';
import { Crash, ScriptedChains } from './transfers-fixtures.js';
import { FUNDS_NO_LONGER_SHOWN, IMPORTED_ELSEWHERE } from '../../src/shared/messages-transfers.js';

describe('an export the node refuses while it still processes the first send', () => {
  it('stays journaled as signed (not failed) and completes once the node accepts it', async () => {
    const chains = new ScriptedChains();
    chains.stateOnSend = 'processing';
    const journal = new TransferJournal(memoryStores().local, 'transfers:test');
    // The first send reaches the node; the worker dies before it hears the outcome.
    const dying = new TransferRunner(chains.engine(), journal, {
      checkpoint(point) {
        if (point === 'export-sent') throw new Crash(point);
      },
    });
    await expect(dying.start('X', 'P', 5_000n)).rejects.toBeInstanceOf(Crash);
    const exportID = (await journal.list())[0]!.export!.txID;
    expect(chains.states.get(exportID)).toBe('processing');

    // A new worker re-sends the same bytes: refused as a duplicate, still processing after the
    // grace period. Before, this marked the move "failed: nothing moved" while the export went on
    // to be accepted.
    const [paused] = await new TransferRunner(chains.engine(), journal).resumeAll();
    expect(paused).toMatchObject({ state: 'export-signed', error: `the X-Chain is still processing ${exportID}` });
    expect(chains.sent).toEqual([exportID, exportID]);

    chains.states.set(exportID, 'accepted');
    chains.stateOnSend = 'accepted';
    const [done] = await new TransferRunner(chains.engine(), journal).resumeAll();
    expect(done).toMatchObject({ state: 'completed', export: { txID: exportID, accepted: true } });
    expect(done!.error).toBeUndefined();
    // One export, sent twice as the same bytes; one import.
    expect(new Set(chains.sent.filter((id) => id === exportID)).size).toBe(1);
    expect(done!.imports).toHaveLength(1);
  });

  it('a refused export the node does not have is a failed move, with the refusal as the reason', async () => {
    const chains = new ScriptedChains();
    const journal = new TransferJournal(memoryStores().local, 'transfers:test');
    const engine = chains.engine();
    // The node refuses the export outright (e.g. its inputs were spent elsewhere) and never has it.
    (engine as unknown as { submit: () => Promise<void> }).submit = async () => {
      throw new WalletError('rpc', 'missing UTXO');
    };
    const record = await new TransferRunner(engine, journal).start('X', 'C', 5_000n);
    expect(record).toMatchObject({ state: 'failed', error: '[node: missing UTXO]' });
  });

  it('an export the node calls failed while what it created is there is accepted, not a failed move', async () => {
    const chains = new ScriptedChains();
    chains.stateOnSend = 'failed';
    const engine = chains.engine();
    // What the export spends is gone and its exported UTXOs wait in atomic memory: it went through.
    (engine as unknown as { txFate: () => Promise<string> }).txFate = async () => 'accepted';
    const record = await new TransferRunner(engine, new TransferJournal(memoryStores().local, 'transfers:test')).start('X', 'P', 5_000n);
    expect(record).toMatchObject({ state: 'completed', export: { accepted: true } });
  });

  it('a C-Chain export whose nonce is taken while the node does not show it waits ten minutes (a lagging node), and goes on once it shows', async () => {
    const chains = new ScriptedChains();
    chains.stateOnSend = 'processing';
    const journal = new TransferJournal(memoryStores().local, 'transfers:test');
    const engine = chains.engine();
    // The node says the nonce is passed, but neither the tx nor its exported funds show (yet).
    let exportShows = false;
    (engine as unknown as { txFate: (c: ChainAlias, txID: string) => Promise<string> }).txFate = async (_c, txID) => (txID === 'tx-1' && !exportShows ? 'inputs-spent' : (chains.states.get(txID) ?? 'not-seen'));
    const rerun = async () => new TransferRunner(engine, journal).run((await journal.list())[0]!);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      await expect(new TransferRunner(engine, journal).start('C', 'X', 5_000n)).rejects.toMatchObject({ code: 'tx-processing' });
      expect((await journal.list())[0]).toMatchObject({ state: 'export-signed', error: 'the C-Chain does not show tx-1 yet: it may still go through' });
      vi.advanceTimersByTime(9 * 60_000);
      await expect(rerun()).rejects.toMatchObject({ code: 'tx-processing' });
      // It shows: the move goes on from its export, the same tx, never a second one.
      exportShows = true;
      chains.states.set('tx-1', 'accepted');
      chains.stateOnSend = 'accepted';
      const done = await rerun();
      expect(done).toMatchObject({ state: 'completed', export: { txID: 'tx-1', accepted: true } });
      expect(done.missingSince).toBeUndefined();
      expect(new Set(chains.sent)).toEqual(new Set(['tx-1', 'tx-2']));
    } finally {
      vi.useRealTimers();
    }
  });

  it('a C-Chain export whose nonce another tx took, unseen for ten minutes, is a failed move', async () => {
    const chains = new ScriptedChains();
    chains.stateOnSend = 'processing';
    const journal = new TransferJournal(memoryStores().local, 'transfers:test');
    const engine = chains.engine();
    (engine as unknown as { txFate: () => Promise<string> }).txFate = async () => 'inputs-spent';
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      await expect(new TransferRunner(engine, journal).start('C', 'X', 5_000n)).rejects.toMatchObject({ code: 'tx-processing' });
      vi.advanceTimersByTime(10 * 60_000);
      const failed = await new TransferRunner(engine, journal).run((await journal.list())[0]!);
      expect(failed).toMatchObject({ state: 'failed', error: 'tx-1 can never be accepted: what it spends was spent by another transaction' });
      // Its wait is over: nothing of it is left for an import stage, should the move be taken up again.
      expect(failed.missingSince).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });

  it('an import refused while the node still processes it is sent again, not rebuilt', async () => {
    const chains = new ScriptedChains();
    chains.stateOnSend = 'processing';
    const journal = new TransferJournal(memoryStores().local, 'transfers:test');
    const dying = new TransferRunner(chains.engine(), journal, {
      checkpoint(point, record) {
        if (point === 'export-sent') chains.states.set(record.export!.txID, 'accepted');
        if (point === 'import-sent') throw new Crash(point);
      },
    });
    await expect(dying.start('P', 'X', 5_000n)).rejects.toBeInstanceOf(Crash);
    const importID = (await journal.list())[0]!.imports[0]!.txID;

    const [paused] = await new TransferRunner(chains.engine(), journal).resumeAll();
    expect(paused).toMatchObject({ state: 'import-signed', importAttempts: 1 });
    chains.states.set(importID, 'accepted');
    const [done] = await new TransferRunner(chains.engine(), journal).resumeAll();
    // The same import, never a second one built over the same atomic UTXOs.
    expect(done).toMatchObject({ state: 'completed', importAttempts: 1 });
    expect(done!.imports.map((i) => i.txID)).toEqual([importID]);
  });
});

describe('a move whose export cannot be built', () => {
  it('for a reason the user must change (not enough funds) fails at once with nothing sent, instead of being retried for ever', async () => {
    const chains = new ScriptedChains();
    const engine = chains.engine();
    // Max was chosen and the fee rose, or another move took the same balance first.
    (engine as unknown as { buildExport: () => Promise<never> }).buildExport = async () => {
      throw new InsufficientFundsError('AVAX', 5_100n, 5_000n);
    };
    const journal = new TransferJournal(memoryStores().local, 'transfers:unbuildable');
    const record = await new TransferRunner(engine, journal).start('X', 'P', 5_000n);
    expect(record).toMatchObject({ state: 'failed', error: 'insufficient funds of AVAX: need 5100, spendable 5000' });
    expect(record.export).toBeUndefined();
    expect(chains.sent).toEqual([]);
    expect(await journal.unfinished()).toEqual([]);
    expect(transferActivity(record, 'avax')).toEqual([]);
  });
});

describe('the fees a move may pay', () => {
  it('an export costlier than the export fee the user reviewed is not signed, even when the total would allow it', async () => {
    const chains = new ScriptedChains();
    const journal = new TransferJournal(memoryStores().local, 'transfers:export-fee');
    // The scripted export costs 1,000 nAVAX; 999 were reviewed for it, 10,000 for both txs.
    const done = await new TransferRunner(chains.engine(), journal).start('X', 'P', 5_000n, 10_000n, 999n);
    expect(done).toMatchObject({ state: 'failed', error: "the export's fee of 1000 nAVAX is above the approved maximum of 999 nAVAX" });
    expect(done.export).toBeUndefined();
    expect(chains.sent).toEqual([]);
  });
});

/**
 * A P→C move reviewed at an export fee of 1,000 and an import fee of 10, whose export is signed at
 * 600 and whose import would cost 400: it stops at 'export-accepted', its import unsigned.
 */
async function importAboveReview(key: string) {
  const chains = new ScriptedChains();
  chains.exportFee = 600n;
  chains.importFee = 400n;
  const journal = new TransferJournal(memoryStores().local, key);
  const refusal = await new TransferRunner(chains.engine(), journal).start('P', 'C', 5_000n, 1_010n, 1_000n).catch((e: unknown) => e);
  return { chains, journal, refusal };
}

describe('the import fee a move may pay', () => {
  it('is the import fee reviewed, even when the export came out cheaper than reviewed: a costlier import waits unsigned', async () => {
    const { chains, journal, refusal } = await importAboveReview('transfers:import-fee');
    expect(refusal).toMatchObject({ code: 'fee-above-approved' });
    const [record] = await journal.list();
    expect(record).toMatchObject({ state: 'export-accepted', imports: [] });
    // Reviewed again with "Import now" at 400: its rebuilds (a drop) may cost as much, no more.
    const engine = chains.engine();
    // One that replaces an import found underpaying is bounded by the fee reviewed, not by that one's.
    const reviewed = journalReviewedImport(engine, { ...record!, underpaid: true }, await engine.buildImports('C', 'P'));
    expect(reviewed.underpaid).toBeUndefined();
    // The import it replaces (underpaid, or judged failed) may still be the one the chain runs: kept with the record.
    const earlier = { chain: 'C' as const, txID: 'earlier', signedHex: '00', fee: '10', accepted: false };
    expect(journalReviewedImport(engine, { ...record!, underpaid: true, imports: [earlier] }, await engine.buildImports('C', 'P')).replaced).toEqual([earlier]);
    expect(journalReviewedImport(engine, { ...record!, imports: [earlier] }, await engine.buildImports('C', 'P')).replaced).toEqual([earlier]);
    expect(journalReviewedImport(engine, record!, await engine.buildImports('C', 'P')).replaced).toBeUndefined();
    await journal.put(reviewed);
    chains.states.set(reviewed.imports[0]!.txID, 'failed');
    expect(await new TransferRunner(engine, journal).resumeAll()).toMatchObject([{ state: 'completed', importAttempts: 2, imports: [{ fee: '400', accepted: true }] }]);
  });

  it('of a move journaled without the export fee reviewed is what the total leaves after the export, as before', async () => {
    const chains = new ScriptedChains();
    chains.exportFee = 600n;
    chains.importFee = 410n;
    const done = await new TransferRunner(chains.engine(), new TransferJournal(memoryStores().local, 'transfers:old')).start('P', 'C', 5_000n, 1_010n);
    expect(done).toMatchObject({ state: 'completed', imports: [{ fee: '410' }] });
  });
});

describe('an import the node keeps refusing', () => {
  it('after the fifth failed import the move waits at "export accepted", where Import now can take it, and says it is stuck', async () => {
    const chains = new ScriptedChains();
    const journal = new TransferJournal(memoryStores().local, 'transfers:test');
    const runner = new TransferRunner(chains.engine(), journal, {
      checkpoint(point) {
        // The export goes through; every import after it is failed by the node (its fee too low, …).
        if (point === 'export-accepted') chains.stateOnSend = 'failed';
      },
    });
    await expect(runner.start('X', 'P', 5_000n)).rejects.toMatchObject({ code: 'import-stuck' });
    const [record] = await journal.list();
    expect(record).toMatchObject({ state: 'export-accepted', importAttempts: 5 });
    // What it spends is still in atomic memory: nothing was imported, nothing is lost.
    expect(record!.imports.every((i) => !i.accepted)).toBe(true);
  });
});

describe('a move whose exported funds are gone from atomic memory after its import was journaled', () => {
  /** A move whose import the node refused five times (journaled, judged failed): parked at "export accepted". */
  const parked = async (chains: ScriptedChains) => {
    const journal = new TransferJournal(memoryStores().local, 'transfers:gone');
    const runner = new TransferRunner(chains.engine(), journal, {
      checkpoint(point) {
        if (point === 'export-accepted') chains.stateOnSend = 'failed';
      },
    });
    await expect(runner.start('X', 'P', 5_000n)).rejects.toMatchObject({ code: 'import-stuck' });
    chains.atomicThere = false;
    return { journal, importID: (await journal.list())[0]!.imports[0]!.txID };
  };

  it('completes when its own journaled import went through after all', async () => {
    const chains = new ScriptedChains();
    const { journal, importID } = await parked(chains);
    chains.states.set(importID, 'accepted');
    const [done] = await new TransferRunner(chains.engine(), journal).resumeAll();
    expect(done).toMatchObject({ state: 'completed', imports: [{ txID: importID, accepted: true }] });
    expect(done!.error).toBeUndefined();
    expect(await journal.unfinished()).toEqual([]);
  });

  it('completes as its own when an earlier import it judged failed and built again went through after all, not as "another import brought its funds"', async () => {
    const chains = new ScriptedChains();
    const { journal, importID: last } = await parked(chains);
    const first = 'tx-2';
    expect(last).not.toBe(first);
    chains.states.set(first, 'accepted');
    chains.states.set(last, 'inputs-spent' as TxState);
    const [done] = await new TransferRunner(chains.engine(), journal).resumeAll();
    expect(done).toMatchObject({ state: 'completed', imports: [{ txID: first, accepted: true }] });
    expect(done!.error).toBeUndefined();
    expect(transferActivity(done!, 'AVAX').filter((i) => i.kind === 'import')).toMatchObject([{ txID: first, status: 'accepted' }]);
  });

  it('ends, not waiting for ever, when another import took the funds: completed, saying so, once they stayed gone (one read can hide them)', async () => {
    const chains = new ScriptedChains();
    const { journal, importID } = await parked(chains);
    // What the journaled imports (the last and those it replaced) spend was spent by another tx, and what they create is not there.
    for (const tx of [...(await journal.list())[0]!.imports, ...((await journal.list())[0]!.replaced ?? [])]) chains.states.set(tx.txID, 'inputs-spent' as TxState);
    const runner = new TransferRunner(chains.engine(), journal);
    const [waiting] = await runner.resumeAll();
    expect(waiting).toMatchObject({ state: 'export-accepted', missingSince: expect.any(Number) });
    expect(waiting!.error).toMatch(/do not show/);
    // Nine minutes on: still the node's listing only.
    const now = Date.now();
    const clock = vi.spyOn(Date, 'now').mockReturnValue(now + 9 * 60_000);
    try {
      expect(await runner.resumeAll()).toMatchObject([{ state: 'export-accepted' }]);
      clock.mockReturnValue(now + 10 * 60_000 + 1);
      const [done] = await runner.resumeAll();
      expect(done).toMatchObject({ state: 'completed', error: IMPORTED_ELSEWHERE, imports: [{ txID: importID, accepted: false }] });
      expect(done!.missingSince).toBeUndefined();
    } finally {
      clock.mockRestore();
    }
    expect(await journal.unfinished()).toEqual([]);
  });

  it('a failed move whose kept export ran after all, its funds imported by "Import now" meanwhile: completed once they stayed gone, not under way for good', async () => {
    const { local } = memoryStores();
    const journal = new TransferJournal(local, 'transfers:test');
    const revived: TransferRecord = {
      id: 'revived', from: 'X', to: 'P', amount: '5000', state: 'export-accepted', imports: [], importAttempts: 0, createdAt: 1, updatedAt: 1,
      export: { chain: 'X', txID: 'exp-kept', signedHex: '', fee: '1000', accepted: true, kept: true },
    };
    await journal.put(revived);
    const engine = { buildImports: async () => [], txFate: async () => 'not-seen', ctx: { avaxAssetID: new Uint8Array(32) } };
    const runner = new TransferRunner(engine as never, journal);
    expect(await runner.resumeAll()).toMatchObject([{ state: 'export-accepted', missingSince: expect.any(Number) }]);
    const clock = vi.spyOn(Date, 'now').mockReturnValue(Date.now() + 10 * 60_000 + 1);
    try {
      // Not proven taken by another import (none of its own was journaled): said as no longer shown.
      expect(await runner.resumeAll()).toMatchObject([{ state: 'completed', error: FUNDS_NO_LONGER_SHOWN }]);
    } finally {
      clock.mockRestore();
    }
    // A move never failed, with no import of its own, is never completed on an empty read: it waits, said as such.
    await journal.put({ ...revived, id: 'plain', export: { ...revived.export!, txID: 'exp-plain', kept: undefined } as never, missingSince: Date.now() - 11 * 60_000 });
    await expect(runner.resumeAll()).resolves.toMatchObject([{ id: 'plain', state: 'export-accepted' }]);
  });

  it('whose funds one read hid, then showed its import accepted: completed as its own, never as imported elsewhere', async () => {
    const chains = new ScriptedChains();
    const { journal, importID } = await parked(chains);
    chains.states.set(importID, 'inputs-spent' as TxState);
    const runner = new TransferRunner(chains.engine(), journal);
    expect(await runner.resumeAll()).toMatchObject([{ state: 'export-accepted' }]);
    chains.states.set(importID, 'accepted');
    const [done] = await runner.resumeAll();
    expect(done).toMatchObject({ state: 'completed', imports: [{ txID: importID, accepted: true }] });
    expect(done!.error).toBeUndefined();
  });

  it('still waits while it has no journaled import, or its import may yet go through', async () => {
    const chains = new ScriptedChains();
    const { journal } = await parked(chains);
    // 'failed' by the node's word with its inputs unspent: not a reason to end the move.
    await expect(new TransferRunner(chains.engine(), journal).resumeAll()).resolves.toMatchObject([{ state: 'export-accepted' }]);
    expect((await journal.list())[0]!.error).toMatch(/do not show/);
  });

  it('funds that showed again end the wait for them, even when their import then waits for a fee approval: a later empty read waits its ten minutes anew', async () => {
    const chains = new ScriptedChains();
    const journal = new TransferJournal(memoryStores().local, 'transfers:shown');
    const runner = new TransferRunner(chains.engine(), journal, {
      checkpoint(point) {
        if (point === 'export-accepted') chains.atomicThere = false;
      },
    });
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      await expect(runner.start('X', 'P', 5_000n, 1_010n, 1_000n)).rejects.toMatchObject({ code: 'tx-processing' });
      expect((await journal.list())[0]!.missingSince).toEqual(expect.any(Number));
      const rerun = async () => new TransferRunner(chains.engine(), journal).run((await journal.list())[0]!);
      // They show, but their import now costs more than was approved: it waits for "Import now".
      vi.advanceTimersByTime(5 * 60_000);
      chains.atomicThere = true;
      chains.importFee = 1_000_000n;
      await expect(rerun()).rejects.toMatchObject({ code: 'fee-above-approved' });
      expect((await journal.list())[0]!.missingSince).toBeUndefined();
      // Hidden again six minutes on: eleven minutes after the first empty read, but a new wait.
      vi.advanceTimersByTime(6 * 60_000);
      chains.atomicThere = false;
      await expect(rerun()).rejects.toMatchObject({ code: 'tx-processing' });
      // An import of the user's reviewing ends a wait too.
      const reviewed = journalReviewedImport(chains.engine(), (await journal.list())[0]!, [{ chain: 'P', fee: 10n, id: 'tx-reviewed' } as never]);
      expect(reviewed.missingSince).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });

  it('with no import of its own journaled, still waits when its funds stay missing (a node can hide them), but after ten minutes no longer as "the chain brings them"', async () => {
    const chains = new ScriptedChains();
    const journal = new TransferJournal(memoryStores().local, 'transfers:elsewhere');
    // Its export accepted; before its own import is built, something else takes the funds.
    const runner = new TransferRunner(chains.engine(), journal, {
      checkpoint(point) {
        if (point === 'export-accepted') chains.atomicThere = false;
      },
    });
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      await expect(runner.start('X', 'P', 5_000n)).rejects.toMatchObject({ code: 'tx-processing' });
      const rerun = async () => new TransferRunner(chains.engine(), journal).run((await journal.list())[0]!);
      vi.advanceTimersByTime(9 * 60_000);
      await expect(rerun()).rejects.toMatchObject({ code: 'tx-processing' });
      vi.advanceTimersByTime(60_000);
      await expect(rerun()).rejects.toMatchObject({ code: 'funds-not-shown' });
      // Never done on an empty read: it stays unfinished, and a resume counts it as waiting, not as stuck.
      await expect(new TransferRunner(chains.engine(), journal).resumeAll()).resolves.toMatchObject([{ state: 'export-accepted' }]);
      // Its funds show again: its own import brings them in.
      chains.atomicThere = true;
      const [done] = await new TransferRunner(chains.engine(), journal).resumeAll();
      expect(done).toMatchObject({ state: 'completed', imports: [{ accepted: true }] });
      expect(done!.missingSince).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('Import now of a parked move whose import the chain has not decided yet', () => {
  it('says it was sent and is not confirmed yet, not that it could not be made', async () => {
    const { local } = memoryStores();
    const journal = new TransferJournal(local, journalKey('net', 'A'));
    const exportBytes = new Uint8Array(32).fill(7);
    const exportID = cb58Encode(exportBytes);
    const avaxAssetID = new Uint8Array(32).fill(1);
    // Parked at "export accepted": its import cost more than was approved.
    await journal.put({ id: 'm', from: 'X', to: 'P', amount: '5000', state: 'export-accepted', imports: [], importAttempts: 1, maxFee: '1', maxExportFee: '1',
      export: { chain: 'X', txID: exportID, signedHex: '00', fee: '1', accepted: true }, createdAt: 1, updatedAt: 1 });
    const sent: string[] = [];
    const engine = {
      ctx: { avaxAssetID },
      atomicSpendable: async () => [],
      buildImports: async (to: ChainAlias) => [{ chain: to, fee: 10n, spent: [{ txID: exportBytes, assetID: avaxAssetID }] }],
      sign: (b: { chain: ChainAlias; fee: bigint }) => ({ chain: b.chain, txID: 'imp', signedBytes: new Uint8Array([1]), fee: b.fee }),
      txState: async () => 'unknown',
      submit: async (_chain: ChainAlias, _bytes: Uint8Array, txID: string) => void sent.push(txID),
      // The chain still processes it when the wait is over.
      node: { waitForTx: async () => Promise.reject(new TimeoutError('imp not final')) },
      txFate: async () => 'processing',
      waitOptions: {},
    };
    const engines = { open: async () => ({ engine, preset: { id: 'net' }, account: { id: 'A' } }), journal: async () => journal };
    const service = new TransfersService(engines as never, { isUnlocked: () => true } as never, local);
    const plan = await service.transfersEstimateImportWaiting();
    expect(plan.imports).toMatchObject([{ moveID: 'm', fee: '10' }]);
    const done = await service.transfersImportWaiting({ planID: plan.planID, maxFee: plan.fee });
    expect(sent).toEqual(['imp']);
    expect(done).toEqual({ txIDs: [], failed: 0, unconfirmed: 1 });
    expect(await journal.get('m')).toMatchObject({ state: 'import-signed' });
  });
});

describe('a move whose replaced imports include the same tx twice', () => {
  it('lists the import the chain ran once: Import now at an unchanged fee of now signs the same bytes again', async () => {
    const { chains, journal } = await importAboveReview('transfers:replaced-twice');
    const engine = chains.engine();
    // A node that holds every import back, and a base fee of now above what each pays: each is found underpaying.
    const holding = Object.assign(chains.engine(), { submit: async () => undefined, atomicUnderpays: async () => true });
    const at400 = { chain: 'C' as const, fee: 400n, id: 'import-at-400' };
    const reviewNow = async (b: typeof at400) => {
      await journal.put(journalReviewedImport(engine, (await journal.list())[0]!, [b] as never));
      await new TransferRunner(holding, journal).resumeAll();
    };
    await reviewNow(at400);
    await reviewNow(at400);
    expect((await journal.list())[0]).toMatchObject({ state: 'export-accepted', underpaid: true, replaced: [{ txID: 'import-at-400' }] });
    await journal.put(journalReviewedImport(engine, (await journal.list())[0]!, [{ chain: 'C', fee: 500n, id: 'import-at-500' }] as never));
    // The chain runs the one at 400 after all: the one at 500 can never go through, and atomic memory is empty.
    chains.states.set('import-at-400', 'accepted');
    chains.states.set('import-at-500', 'inputs-spent' as TxState);
    chains.atomicThere = false;
    const [done] = await new TransferRunner(engine, journal).resumeAll();
    expect(done).toMatchObject({ state: 'completed', imports: [{ txID: 'import-at-400', fee: '400', accepted: true }] });
    expect(done!.imports).toHaveLength(1);
    expect(transferActivity(done!, 'AVAX').filter((i) => i.kind === 'import')).toHaveLength(1);
  });
});

describe("a move's imports built again", () => {
  const tx = (txID: string, accepted = false) => ({ chain: 'P' as const, txID, signedHex: '00', fee: '10', accepted });
  const record = (imports: ReturnType<typeof tx>[], replaced?: ReturnType<typeof tx>[]) => ({ imports, ...(replaced ? { replaced } : {}) }) as TransferRecord;

  it('keeps an accepted import as the move\'s, and each replaced one once: an X/P import rebuilt every minute with the same bytes does not grow the record', () => {
    let r = record([tx('a', true), tx('b')]);
    for (let i = 0; i < 20; i++) r = { ...r, ...withImportsRebuilt(r, [tx('b')]) };
    expect(r.imports.map((t) => t.txID)).toEqual(['a', 'b']);
    expect(r.replaced!.map((t) => t.txID)).toEqual(['b']);
  });

  it('keeps only the latest few a C-Chain import re-priced every minute replaced (new IDs each time)', () => {
    let r = record([tx('c0')]);
    for (let i = 1; i <= 20; i++) r = { ...r, ...withImportsRebuilt(r, [tx(`c${i}`)]) };
    expect(r.imports.map((t) => t.txID)).toEqual(['c20']);
    expect(r.replaced!.map((t) => t.txID)).toEqual(['c12', 'c13', 'c14', 'c15', 'c16', 'c17', 'c18', 'c19']);
  });
});

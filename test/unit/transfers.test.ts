// The transfer runner's decisions when the node's answers are ambiguous. The runner is driven
// against a scripted stand-in for the engine, because the case here needs a node that keeps a
// tx "Processing" longer than the runner's grace period, which a local node does not do on cue.
// The flows against the real node are in test/integration/transfers.test.ts.
import { describe, expect, it, vi } from 'vitest';
import { memoryStores, type StorageArea } from '../../src/background/storage.js';
import { IMPORTED_ELSEWHERE, openJournal, TransferJournal, type TransferRecord, transferActivity } from '../../src/background/transfer-journal.js';
import { TransferRunner } from '../../src/background/transfer-runner.js';
import type { TxState, WalletEngine } from '../../src/core/engine.js';
import { journalReviewedImport } from '../../src/background/waiting-imports.js';
import { chainsKey, entryJournalKey, journalKey, perChainsKeys } from '../../src/background/account-cache.js';
import { TransfersService } from '../../src/background/services/transfers.js';
import { InsufficientFundsError, NodeUnreachableError, TimeoutError, WalletError } from '../../src/core/errors.js';
import type { ChainAlias } from '../../src/core/node.js';
import { cb58Encode } from '../../src/core/encoding.js';

class Crash extends Error {}

/**
 * A node as the runner sees it: each tx ID has a state; a send of a tx the node already has is
 * refused, as avalanchego refuses a duplicate; waiting times out unless the tx is final (the
 * engine's own wait would poll on: here the runner's patience is simply over).
 */
class ScriptedChains {
  readonly states = new Map<string, TxState>();
  readonly sent: string[] = [];
  /** What a tx the node did not have becomes when it is sent. */
  stateOnSend: TxState = 'accepted';
  /** False once something else imported the export's funds: atomic memory holds none of them. */
  atomicThere = true;
  exportFee = 1_000n;
  importFee = 10n;
  private next = 0;

  engine(): WalletEngine {
    const built = (chain: ChainAlias, fee: bigint) => ({ chain, fee, id: `tx-${++this.next}` });
    const engine = {
      buildExport: async (from: ChainAlias) => built(from, this.exportFee),
      buildImports: async (to: ChainAlias) => (this.atomicThere ? [built(to, this.importFee)] : []),
      sign: (b: { chain: ChainAlias; fee: bigint; id: string }) => ({ chain: b.chain, txID: b.id, signedBytes: new TextEncoder().encode(b.id), fee: b.fee }),
      txState: async (_chain: ChainAlias, txID: string) => this.states.get(txID) ?? 'unknown',
      // What its inputs say is not scripted here: a tx the node does not know is one it never got.
      txFate: async (_chain: ChainAlias, txID: string) => this.states.get(txID) ?? 'not-seen',
      submit: async (_chain: ChainAlias, _bytes: Uint8Array, txID: string) => {
        this.sent.push(txID);
        if (this.states.has(txID)) throw new WalletError('rpc', `tx ${txID} is already known`);
        this.states.set(txID, this.stateOnSend);
      },
      node: {
        waitForTx: async (chain: ChainAlias, txID: string) => {
          const state = this.states.get(txID);
          if (state === 'accepted' || state === 'failed') return { chain, txID, accepted: state === 'accepted', status: state };
          throw new TimeoutError(`${txID} not final`);
        },
      },
    };
    return engine as unknown as WalletEngine;
  }
}

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
    expect(record).toMatchObject({ state: 'failed', error: 'missing UTXO' });
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

describe('resuming several transfers', () => {
  it('one that is stuck does not hold up the others: all run, then the first error is thrown', async () => {
    const chains = new ScriptedChains();
    const journal = new TransferJournal(memoryStores().local, 'transfers:test');
    const runner = new TransferRunner(chains.engine(), journal);
    const stuck = await runner.begin('P', 'X', 5_000n);
    const fine = await runner.begin('X', 'P', 7_000n);
    const engine = chains.engine();
    const build = engine.buildExport.bind(engine);
    // The node errors on every attempt to build the first move's export (its chain is P).
    (engine as unknown as { buildExport: WalletEngine['buildExport'] }).buildExport = async (from, to, amount) => {
      if (from === 'P') throw new WalletError('node-response', 'the node answered nonsense');
      return build(from, to, amount);
    };
    await expect(new TransferRunner(engine, journal).resumeAll()).rejects.toThrow('the node answered nonsense');
    const after = await journal.list();
    expect(after.find((r) => r.id === fine.id)).toMatchObject({ state: 'completed' });
    expect(after.find((r) => r.id === stuck.id)).toMatchObject({ state: 'pending' });
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
    // The underpaid import it replaces may still be the one the chain runs: kept with the record (only then).
    const earlier = { chain: 'C' as const, txID: 'earlier', signedHex: '00', fee: '10', accepted: false };
    expect(journalReviewedImport(engine, { ...record!, underpaid: true, imports: [earlier] }, await engine.buildImports('C', 'P')).replaced).toEqual([earlier]);
    expect(journalReviewedImport(engine, { ...record!, imports: [earlier] }, await engine.buildImports('C', 'P')).replaced).toBeUndefined();
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

  it('ends, not waiting for ever, when another import took the funds: completed, saying so', async () => {
    const chains = new ScriptedChains();
    const { journal, importID } = await parked(chains);
    // What the journaled import spends was spent by another tx, and what it creates is not there.
    chains.states.set(importID, 'inputs-spent' as TxState);
    const [done] = await new TransferRunner(chains.engine(), journal).resumeAll();
    expect(done).toMatchObject({ state: 'completed', error: IMPORTED_ELSEWHERE, imports: [{ txID: importID, accepted: false }] });
    expect(await journal.unfinished()).toEqual([]);
  });

  it('still waits while it has no journaled import, or its import may yet go through', async () => {
    const chains = new ScriptedChains();
    const { journal } = await parked(chains);
    // 'failed' by the node's word with its inputs unspent: not a reason to end the move.
    await expect(new TransferRunner(chains.engine(), journal).resumeAll()).resolves.toMatchObject([{ state: 'export-accepted' }]);
    expect((await journal.list())[0]!.error).toMatch(/do not show/);
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

describe('resuming moves (worker start, the minute alarm)', () => {
  const settings = (selected: string) => ({ accounts: [{ id: 'A' }, { id: 'B' }], selectedAccountId: selected, selectedNetworkId: 'net', customNetworks: [{ id: 'net' }, { id: 'other' }] });
  /** Engines over entries 'net' and 'other', each on chains of its own unless `chainsOf` names them; `down`: an entry whose node does not answer. */
  const enginesOver = (local: StorageArea, chains: ScriptedChains, s: ReturnType<typeof settings>, options: { chainsOf?: Record<string, string>; down?: string; opened?: string[] } = {}) => ({
    selected: async (accountId?: string, networkId?: string) => ({ s, preset: { id: networkId ?? s.selectedNetworkId }, account: { id: accountId ?? s.selectedAccountId } }),
    journal: async (preset: { id: string }, accountId: string) => new TransferJournal(local, journalKey(options.chainsOf?.[preset.id] ?? preset.id, accountId)),
    open: async (accountId?: string, networkId?: string) => {
      options.opened?.push(`${accountId}@${networkId}`);
      if (networkId === options.down) throw new NodeUnreachableError('http://127.0.0.1:9650', 'fetch failed');
      return { engine: chains.engine(), preset: { id: networkId }, account: { id: accountId } };
    },
  });

  it("runs every account's moves on every network, each with its own account's engine on its network, not only the selected one's", async () => {
    const chains = new ScriptedChains();
    const { local } = memoryStores();
    const a = await new TransferRunner(chains.engine(), new TransferJournal(local, journalKey('other', 'A'))).begin('X', 'P', 5_000n);
    const b = await new TransferRunner(chains.engine(), new TransferJournal(local, journalKey('net', 'B'))).begin('P', 'X', 6_000n);
    const opened: string[] = [];
    const service = new TransfersService(enginesOver(local, chains, settings('B'), { opened }) as never, { isUnlocked: () => true } as never, local);
    await service.resumeTransfers();
    expect(await new TransferJournal(local, journalKey('other', 'A')).get(a.id)).toMatchObject({ state: 'completed' });
    expect(await new TransferJournal(local, journalKey('net', 'B')).get(b.id)).toMatchObject({ state: 'completed' });
    // Only journals with unfinished moves open an engine (and ask their network's node).
    expect(opened.sort()).toEqual(['A@other', 'B@net']);
    await service.resumeTransfers();
    expect(opened).toHaveLength(2);
  });

  it('runs the moves of two entries for the same chains once, through the selected one; with its node down, through the other, and nothing is said stuck', async () => {
    const chains = new ScriptedChains();
    const { local } = memoryStores();
    const chainsOf = { net: 'same', other: 'same' };
    const move = async () => new TransferRunner(chains.engine(), new TransferJournal(local, journalKey('same', 'A'))).begin('X', 'P', 5_000n);
    const first = await move();
    const opened: string[] = [];
    await new TransfersService(enginesOver(local, chains, settings('A'), { chainsOf, opened }) as never, { isUnlocked: () => true } as never, local).resumeTransfers();
    expect(opened).toEqual(['A@net']);
    expect(await new TransferJournal(local, journalKey('same', 'A')).get(first.id)).toMatchObject({ state: 'completed' });

    const second = await move();
    opened.length = 0;
    await new TransfersService(enginesOver(local, chains, settings('A'), { chainsOf, opened, down: 'net' }) as never, { isUnlocked: () => true } as never, local).resumeTransfers();
    expect(opened).toEqual(['A@net', 'A@other']);
    expect(await new TransferJournal(local, journalKey('same', 'A')).get(second.id)).toMatchObject({ state: 'completed' });
  });

  it('an entry removed during the pass is skipped: the moves of the others still run, and nothing is said stuck', async () => {
    const chains = new ScriptedChains();
    const { local } = memoryStores();
    const b = await new TransferRunner(chains.engine(), new TransferJournal(local, journalKey('other', 'B'))).begin('P', 'X', 6_000n);
    const engines = enginesOver(local, chains, settings('A'));
    const gone = { ...engines, selected: async (accountId?: string, networkId?: string) => (networkId === 'net' ? Promise.reject(new Error('no network net')) : engines.selected(accountId, networkId)) };
    await new TransfersService(gone as never, { isUnlocked: () => true } as never, local).resumeTransfers();
    expect(await new TransferJournal(local, journalKey('other', 'B')).get(b.id)).toMatchObject({ state: 'completed' });
  });

  it('a journal that cannot be opened (damaged storage) holds up no other, and is said at the end', async () => {
    const chains = new ScriptedChains();
    const { local } = memoryStores();
    const b = await new TransferRunner(chains.engine(), new TransferJournal(local, journalKey('other', 'B'))).begin('P', 'X', 6_000n);
    const engines = enginesOver(local, chains, settings('A'));
    const damaged = { ...engines, journal: async (preset: { id: string }, accountId: string) => (preset.id === 'net' ? Promise.reject(new WalletError('storage-corrupt', 'the transfer journal is not a list')) : engines.journal(preset, accountId)) };
    await expect(new TransfersService(damaged as never, { isUnlocked: () => true } as never, local).resumeTransfers()).rejects.toMatchObject({ code: 'storage-corrupt' });
    expect(await new TransferJournal(local, journalKey('other', 'B')).get(b.id)).toMatchObject({ state: 'completed' });
  });

  it("signs a resumed C-Chain export in the nonce line of the move's own network, not the selected one's", async () => {
    const chains = new ScriptedChains();
    const { local } = memoryStores();
    const move = await new TransferRunner(chains.engine(), new TransferJournal(local, journalKey('other', 'A'))).begin('C', 'P', 5_000n);
    const lines: string[] = [];
    const delivery = {
      inNonceLine: <T>(accountId: string, run: () => Promise<T>, networkId?: string) => (lines.push(`${accountId}@${networkId}`), run()),
      beforeExport: async () => undefined,
      exportJournaled: async () => undefined,
    };
    await new TransfersService(enginesOver(local, chains, settings('A')) as never, { isUnlocked: () => true } as never, local, undefined, delivery as never).resumeTransfers();
    expect(await new TransferJournal(local, journalKey('other', 'A')).get(move.id)).toMatchObject({ state: 'completed' });
    expect(lines).toEqual(['A@other']);
  });

  it('one network whose node is down does not hold up the others; a locked wallet runs none', async () => {
    const chains = new ScriptedChains();
    const { local } = memoryStores();
    await new TransferRunner(chains.engine(), new TransferJournal(local, journalKey('net', 'A'))).begin('X', 'P', 5_000n);
    const b = await new TransferRunner(chains.engine(), new TransferJournal(local, journalKey('other', 'B'))).begin('P', 'X', 6_000n);
    let unlocked = false;
    const service = new TransfersService(enginesOver(local, chains, settings('A'), { down: 'net' }) as never, { isUnlocked: () => unlocked } as never, local);
    await service.resumeTransfers();
    expect(chains.sent).toEqual([]);
    unlocked = true;
    await expect(service.resumeTransfers()).rejects.toMatchObject({ code: 'node-unreachable' });
    expect(await new TransferJournal(local, journalKey('other', 'B')).get(b.id)).toMatchObject({ state: 'completed' });
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

// Which moves "Import now" takes (src/background/waiting-imports.ts): only those parked at
// 'export-accepted' that no run holds; a move whose export or import is signed, or that a run is
// advancing, keeps its funds for its own import. The journal is read after atomic memory. The
// engine is a stand-in that records the order of reads; the flow on the real node is in
// test/integration/import-waiting.test.ts.
import { describe, expect, it, vi } from 'vitest';
import { memoryStores } from '../../src/background/storage.js';
import { TransferJournal, type TransferRecord } from '../../src/background/transfer-journal.js';
import { importPlan, movingExports, planFee } from '../../src/background/waiting-imports.js';
import type { WalletEngine } from '../../src/core/engine.js';
import { InsufficientFundsError } from '../../src/core/errors.js';

function move(id: string, state: TransferRecord['state'], exported = true): TransferRecord {
  return {
    id,
    from: 'X',
    to: 'P',
    amount: '2000000000',
    state,
    imports: [],
    importAttempts: 0,
    createdAt: 1,
    updatedAt: 1,
    ...(exported ? { export: { chain: 'X', txID: `export-${id}`, signedHex: '00', fee: '1000000', accepted: state !== 'export-signed' } } : {}),
  };
}

type StandIn = { events: string[]; afterJournalRead?: () => Promise<void> };

// The planner of funds no move exported (core/waiting-funds.ts) as the stand-in engine plays it.
vi.mock('../../src/core/waiting-funds.js', () => ({
  buildWaitingImports: async (engine: StandIn, leaveOf: () => Promise<ReadonlySet<string>>) => {
    engine.events.push('atomic memory read');
    const leave = await leaveOf();
    engine.events.push(`left: ${[...leave].sort().join(',')}`);
    await engine.afterJournalRead?.();
    return { imports: [{ to: 'P', from: 'X', built: { fee: 5n, spent: [] }, avax: 100n }], tooSmall: [] };
  },
}));

/** Atomic memory read, then `leaveOf` asked; each parked move's import built from its own export. */
function engine(events: string[], tooSmall = new Set<string>(), afterJournalRead?: () => Promise<void>): WalletEngine {
  return {
    events,
    ...(afterJournalRead ? { afterJournalRead } : {}),
    buildImports: async (_to: string, _from: string, exportTxID: string) => {
      events.push(`built ${exportTxID}`);
      if (tooSmall.has(exportTxID)) throw new InsufficientFundsError('AVAX', 2n, 1n, 'AVAX waiting');
      return [{ fee: 7n, spent: [] }];
    },
  } as unknown as WalletEngine;
}

describe('Import now’s plan', () => {
  it('takes only the parked moves no run holds; the rest keep their funds; the journal is read after atomic memory', async () => {
    const journal = new TransferJournal(memoryStores().local, 'xpc.transfers.n.a');
    for (const r of [move('pending', 'pending', false), move('signed', 'export-signed'), move('parked', 'export-accepted'), move('held', 'export-accepted'), move('importing', 'import-signed'), move('done', 'completed')]) await journal.put(r);
    const events: string[] = [];
    const asked: string[] = [];
    const plan = await importPlan(engine(events), journal, (id) => (asked.push(id), id !== 'held'));
    // Every unfinished move's export is left out of the plain imports; of them, only 'parked' is taken.
    expect(events).toEqual(['atomic memory read', 'left: export-held,export-importing,export-parked,export-signed', 'built export-parked']);
    expect(asked).toEqual(['parked', 'held']);
    expect(plan.moves.map((m) => m.record.id)).toEqual(['parked']);
    expect(planFee(plan)).toBe(12n);
    // A refresh lists a parked move's funds as waiting, not those of a move under way.
    expect([...movingExports(await journal.list())].sort()).toEqual(['export-importing', 'export-signed']);
  });

  it('a move a run moved on between the read and the taking is left to that run; funds below their import fee are named, not built', async () => {
    const journal = new TransferJournal(memoryStores().local, 'xpc.transfers.n.a');
    await journal.put(move('raced', 'export-accepted'));
    await journal.put(move('dust', 'export-accepted'));
    // Its run signs the import after Import now read the journal, before Import now takes it.
    const raced = () => journal.put(move('raced', 'import-signed'));
    const plan = await importPlan(engine([], new Set(['export-dust']), raced), journal, () => true);
    expect(plan.moves).toEqual([]);
    expect(plan.tooSmall).toEqual([{ to: 'P', from: 'X', utxoCount: 1, amount: 2_000_000_000n }]);
  });
});

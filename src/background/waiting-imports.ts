// "Import now": what it imports and what that costs. Funds waiting in atomic memory that no
// unfinished move exported are imported in as few txs as it takes; a move left waiting at
// 'export-accepted' by no run (its import cost more than was approved, failed too often, or it
// waits for its next run) is imported by its own run, with the import the user reviews. A move a
// run is advancing, or whose import is signed, is left alone: two imports of one UTXO would race.
// What is signed is what was reviewed (TransfersService keeps the plan). docs/architecture.md.
import { equalBytes, toHex } from '../core/bytes.js';
import { cb58Encode } from '../core/encoding.js';
import type { WalletEngine } from '../core/engine.js';
import { buildWaitingImports, type WaitingFunds, type WaitingImport } from '../core/waiting-funds.js';
import { InsufficientFundsError } from '../core/errors.js';
import type { BuiltTx } from '../core/tx/built.js';
import type { ChainName, WaitingFundsView, WaitingImportView } from '../shared/messages.js';
import { type TransferJournal, type TransferRecord, withImportsRebuilt } from './transfer-journal.js';

export interface ParkedMove {
  /** As read once the move was taken for this plan. */
  record: TransferRecord;
  built: BuiltTx[];
}

export interface ImportPlan {
  plain: WaitingImport[];
  moves: ParkedMove[];
  tooSmall: WaitingFunds[];
}

/**
 * Builds (signs nothing) what "Import now" would import. `take(id)`: whether a parked move may be
 * imported by this plan (importWaiting takes it from the runs for its duration; the estimate only
 * asks whether a run holds it). The journal is read after atomic memory: a move journals its export
 * before sending it, so every export seen there is known to be a move's.
 */
export async function importPlan(engine: WalletEngine, journal: TransferJournal, take: (id: string) => boolean): Promise<ImportPlan> {
  let unfinished: TransferRecord[] = [];
  const { imports, tooSmall } = await buildWaitingImports(engine, async () => {
    unfinished = await journal.unfinished();
    return new Set(unfinished.flatMap((r) => (r.export ? [r.export.txID] : [])));
  });
  const moves: ParkedMove[] = [];
  for (const r of unfinished) {
    if (r.state !== 'export-accepted' || !r.export || !take(r.id)) continue;
    // Read again once taken: a run may have moved it on meanwhile.
    const record = await journal.get(r.id);
    if (record?.state !== 'export-accepted' || !record.export) continue;
    const exportID = record.export.txID;
    const built = await engine.buildImports(record.to, record.from, exportID).catch((e: unknown) => {
      if (e instanceof InsufficientFundsError) return undefined;
      throw e;
    });
    if (built?.length === 0) continue;
    // Paid only from what it brings in: one that would need the wallet's own funds (its fee rose
    // above the amount) waits.
    if (built && built.every((b) => b.spent.every((u) => cb58Encode(u.txID) === exportID))) moves.push({ record, built });
    else tooSmall.push({ to: record.to, from: record.from, utxoCount: 1, amount: BigInt(record.amount) });
  }
  return { plain: imports, moves, tooSmall };
}

const feeOf = (built: readonly BuiltTx[]): bigint => built.reduce((t, b) => t + b.fee, 0n);

/** Every fee the plan would pay, in nAVAX. */
export function planFee(plan: ImportPlan): bigint {
  return feeOf(plan.plain.map((i) => i.built)) + plan.moves.reduce((t, m) => t + feeOf(m.built), 0n);
}

/** The plan as the review shows it: each import, what it takes out of atomic memory and its fee. */
export function planView(engine: WalletEngine, plan: ImportPlan): { imports: WaitingImportView[]; fee: string; tooSmall: WaitingFundsView[] } {
  const otherAssets = (b: BuiltTx) => b.spent.some((u) => !equalBytes(u.assetID, engine.ctx.avaxAssetID));
  const view = (from: string, to: string, amount: bigint, built: readonly BuiltTx[], moveID?: string): WaitingImportView => ({
    from: from as ChainName,
    to: to as ChainName,
    amount: amount.toString(),
    fee: feeOf(built).toString(),
    otherAssets: built.some(otherAssets),
    ...(moveID !== undefined ? { moveID } : {}),
  });
  return {
    // A move's import takes exactly what its export put there.
    imports: [...plan.plain.map((i) => view(i.from, i.to, i.avax, [i.built])), ...plan.moves.map((m) => view(m.record.from, m.record.to, BigInt(m.record.amount), m.built, m.record.id))],
    fee: planFee(plan).toString(),
    tooSmall: plan.tooSmall.map((f) => ({ from: f.from as ChainName, to: f.to as ChainName, amount: f.amount.toString(), utxoCount: f.utxoCount })),
  };
}

/** A move's import, reviewed: signed and journaled before anything is sent, so its own run (and its crash recovery) sends it. */
export function journalReviewedImport(engine: WalletEngine, record: TransferRecord, built: readonly BuiltTx[]): TransferRecord {
  const signed = built.map((b) => engine.sign(b));
  // Never lowered: the reviewed import is within what the user approved now (over the reviewed export fee, which the import's cap is taken from).
  const reviewedMax = BigInt(record.maxExportFee ?? record.export!.fee) + feeOf(built);
  // A new import of the user's reviewing: the one it replaces no longer bounds it (TransferRecord.underpaid),
  // and the funds it takes show, so a wait for them to show is over.
  const { underpaid: _replacedNow, missingSince: _shownNow, ...rest } = record;
  return {
    ...rest,
    ...withImportsRebuilt(record, signed.map((x) => ({ chain: x.chain, txID: x.txID, signedHex: toHex(x.signedBytes), fee: x.fee.toString(), accepted: false }))),
    importAttempts: record.importAttempts + 1,
    ...(record.maxFee === undefined || BigInt(record.maxFee) < reviewedMax ? { maxFee: reviewedMax.toString() } : {}),
    state: 'import-signed',
    updatedAt: Date.now(),
  };
}

/** The exports whose funds a refresh does not list as waiting: those of moves under way, whose own imports bring them in. */
export function movingExports(records: readonly TransferRecord[]): Set<string> {
  return new Set(records.filter((r) => r.state === 'export-signed' || r.state === 'import-signed').flatMap((r) => (r.export ? [r.export.txID] : [])));
}

// The journal of cross-chain moves: one record per move, per account and chains, in
// storage.local. The runner (transfer-runner.ts) writes every step here BEFORE the step's effect
// can happen (signed bytes are stored before they are sent), so a worker killed at any point
// resumes from what is written. Also: a move's txs as activity items.
import type { ChainAlias } from '../core/node.js';
import type { ActivityItem } from '../shared/messages.js';
import { journalKey, registerChains } from './account-cache.js';
import { oneAtATime, type StorageArea, storedList, takeInLists } from './storage.js';

export type TransferState =
  /** Journaled; the export is not signed yet. */
  | 'pending'
  /** The export's signed bytes are journaled; it may or may not have reached the node. */
  | 'export-signed'
  /** The export is accepted: the funds wait in the destination chain's atomic memory. */
  | 'export-accepted'
  /** The imports' signed bytes are journaled. */
  | 'import-signed'
  | 'completed'
  /**
   * The export never happened (not built, above its approved fee, or refused by the node): nothing
   * moved. An X/P export the node called failed is only its word: kept in the way of the next send
   * (RunnerHooks.exportFailed); if it runs after all, the move comes back at 'export-accepted'.
   */
  | 'failed';

export interface JournaledTx {
  chain: ChainAlias;
  txID: string;
  /** '' once the move is completed or failed: nothing sends or reads it again (a kept export's are in the outbox). */
  signedHex: string;
  /** nAVAX, decimal: the estimate before acceptance is the exact amount this tx burns. */
  fee: string;
  accepted: boolean;
  /** A failed move's X/P export kept in the way of the next send (RunnerHooks.exportFailed). */
  kept?: boolean;
  /** Kept, and what it spends is gone unexplained: it may have gone through (TransferJournal.keptExportSeen). */
  unclear?: boolean;
  /**
   * An X/P export's inputs, by UTXO ID (kept once its bytes are gone, within SPENDS_KEPT): once its import ran, a read
   * listing one again is not believed, through any network entry of these chains (ranElsewhere in
   * src/core/engine-types.ts). Absent in older records: the account's spent book alone then.
   */
  spends?: string[];
}

export interface TransferRecord {
  id: string;
  from: ChainAlias;
  to: ChainAlias;
  /** nAVAX, decimal (storage is JSON). */
  amount: string;
  state: TransferState;
  export?: JournaledTx;
  imports: JournaledTx[];
  /** How many times the import was rebuilt after being dropped (C-Chain base fee rose, …). */
  importAttempts: number;
  /**
   * nAVAX, decimal: the most the user approved paying for the export and the imports together;
   * less `maxExportFee`, the most the imports alone may cost. Records journaled before this bound
   * existed have none and run unbounded, as they did.
   */
  maxFee?: string;
  /** nAVAX, decimal: the most the export alone may cost (what the user reviewed); absent in older records. */
  maxExportFee?: string;
  error?: string;
  /** Its C-Chain import pays less than the base fee of now (the chain holds it): only one paying more replaces it. */
  underpaid?: boolean;
  /** Imports it signed before and replaced (judged failed, or underpaid): the chain may still run one of them instead, and it is then the move's own. */
  replaced?: JournaledTx[];
  /**
   * When its accepted export's funds were first missing from atomic memory, no import of its own
   * journaled; before that, when its C-Chain export's nonce was first seen passed with nothing of it found.
   */
  missingSince?: number;
  createdAt: number;
  updatedAt: number;
}

/**
 * A move's imports once `next` is signed in place of those not accepted: an accepted one stays the
 * move's; the others are kept as replaced (judged failed or underpaid, another node may still run
 * one, which is then the move's own), each once and only the latest few (a move rebuilt every
 * minute must not grow its record without end).
 */
export function withImportsRebuilt(record: TransferRecord, next: JournaledTx[]): Pick<TransferRecord, 'imports' | 'replaced'> {
  const replaced = [...(record.replaced ?? []), ...record.imports.filter((t) => !t.accepted)].filter((t, i, all) => all.findIndex((u) => u.txID === t.txID) === i).slice(-8);
  return { imports: [...record.imports.filter((t) => t.accepted), ...next], ...(replaced.length ? { replaced } : {}) };
}

const DECIMAL = /^\d{1,30}$/;
const HEX = /^([\da-f]{2})*$/i;
const CHAIN = /^[XPC]$/;
const STATE = /^(pending|export-signed|export-accepted|import-signed|completed|failed)$/;

function wellFormedTx(t: JournaledTx | undefined): boolean {
  return typeof t === 'object' && t !== null && CHAIN.test(t.chain) && typeof t.txID === 'string' && typeof t.signedHex === 'string' && HEX.test(t.signedHex) && typeof t.fee === 'string' && DECIMAL.test(t.fee) && typeof t.accepted === 'boolean';
}

/** A damaged `spends` (it only adds protection: JournaledTx.spends) is dropped, not the move with it. */
function withSpendsReadable(r: TransferRecord): TransferRecord {
  const spends = r.export?.spends;
  if (spends === undefined || (Array.isArray(spends) && spends.every((id) => typeof id === 'string'))) return r;
  const { spends: _damaged, ...rest } = r.export!;
  return { ...r, export: rest };
}

/** How many input IDs completed moves keep in all (JournaledTx.spends), the newest first: as many as the spent book keeps. */
export const SPENDS_KEPT = 2_048;

/**
 * Which moves keep their export's `spends` (a list every step of every move writes whole): one under
 * way, or failed with its export kept in the way (it may run yet, and come back); the completed
 * ones whose own import ran, newest first (by when they last moved on), within SPENDS_KEPT IDs in
 * all: a lagging node lists again what was spent lately. Any other (an export that never ran, was
 * replaced, or was imported by another) is read by no ranElsewhere: it keeps none.
 */
function withSpendsCapped(records: TransferRecord[]): TransferRecord[] {
  let room = SPENDS_KEPT;
  const kept = new Set<TransferRecord>();
  for (const r of records) if (r.state !== 'completed' && (r.state !== 'failed' || (r.export?.kept === true && !r.export.accepted))) kept.add(r);
  for (const r of records.filter((x) => x.state === 'completed' && x.export?.spends && x.imports.some((t) => t.accepted)).sort((a, b) => b.updatedAt - a.updatedAt)) {
    const count = r.export!.spends!.length;
    // Once one does not fit, no older one keeps them.
    if (count > room) break;
    kept.add(r);
    room -= count;
  }
  return records.map((r) => {
    if (r.export?.spends === undefined || kept.has(r)) return r;
    const { spends: _gone, ...rest } = r.export;
    return { ...r, export: rest };
  });
}

/** Every field of a record the wallet reads as a number, hex or list is one: a damaged one would throw wherever it is read. */
function wellFormed(r: TransferRecord | undefined): r is TransferRecord {
  if (typeof r !== 'object' || r === null) return false;
  const decimal = (v: unknown, optional = false): boolean => (optional && v === undefined) || (typeof v === 'string' && DECIMAL.test(v));
  const txs = (v: unknown): boolean => Array.isArray(v) && v.every((t) => wellFormedTx(t as JournaledTx));
  return (
    typeof r.id === 'string' &&
    typeof r.state === 'string' &&
    STATE.test(r.state) &&
    CHAIN.test(r.from) &&
    CHAIN.test(r.to) &&
    decimal(r.amount) &&
    decimal(r.maxFee, true) &&
    decimal(r.maxExportFee, true) &&
    Number.isFinite(r.createdAt) &&
    Number.isFinite(r.updatedAt) &&
    (r.export === undefined || wellFormedTx(r.export)) &&
    txs(r.imports) &&
    (r.replaced === undefined || txs(r.replaced))
  );
}


/** The transfers of one account on one network's chains, in one storage key. */
export class TransferJournal {
  constructor(
    private readonly area: StorageArea,
    readonly key: string,
  ) {}

  /**
   * A record damaged in storage (any field the wallet reads not of its kind: see wellFormed) is
   * skipped, and goes with the next write: one must not stop every move, refresh and C-Chain send
   * of the account, nor hold its funds as "moving" for good. What its export may have left in
   * atomic memory is listed for "Import now".
   */
  async list(): Promise<TransferRecord[]> {
    return (await storedList<TransferRecord>(this.area, this.key, 'the transfer journal')).filter(wellFormed).map(withSpendsReadable);
  }

  async get(id: string): Promise<TransferRecord | undefined> {
    return (await this.list()).find((r) => r.id === id);
  }

  /**
   * Writes one record (replacing the one with its ID) in a single storage write, one write at a
   * time: two moves running at once each rewrite the whole list, and must not put back the other's old state.
   * A failed move whose export is the same tx as this unfailed one's (a retry built on the same
   * funds, to the same amount and change) goes in the same write: one tx is never two moves, not
   * even for a crash's while.
   */
  put(record: TransferRecord, allowed?: () => void): Promise<void> {
    return oneAtATime(this.key, async () => {
      const txID = record.state === 'failed' ? undefined : record.export?.txID;
      const others = (await this.list()).filter((r) => r.id !== record.id && !(txID && r.state === 'failed' && r.export?.txID === txID));
      // Throws to write nothing, in the tick the write is issued (as Outbox.put's).
      allowed?.();
      await this.area.set({ [this.key]: withSpendsCapped([...others, record].map(withoutEndedBytes)) });
    });
  }

  /**
   * What became of a failed move's export kept in the way (RunnerHooks.exportFailed): 'accepted',
   * it ran after all, and the move goes on from 'export-accepted' (its next run imports the funds);
   * 'unclear', what it spends is gone unexplained, and it may have; 'replaced', a later tx that took
   * its place was accepted, so it never can. Damaged records are skipped.
   */
  keptExportSeen(txID: string, fate: 'accepted' | 'unclear' | 'replaced'): Promise<void> {
    return oneAtATime(this.key, async () => {
      const all = await this.list();
      const r = all.find((x) => x.state === 'failed' && x.export?.txID === txID && !x.export.accepted);
      if (!r) return;
      if (fate === 'unclear') r.export!.unclear = true;
      else if (fate === 'replaced') {
        // It can never run now: nothing it spent can come back as its.
        delete r.export!.unclear;
        delete r.export!.spends;
      } else {
        r.export!.accepted = true;
        delete r.export!.unclear;
        r.state = 'export-accepted';
        delete r.error;
      }
      r.updatedAt = Date.now();
      await this.area.set({ [this.key]: all });
    });
  }

  async unfinished(): Promise<TransferRecord[]> {
    return (await this.list()).filter((r) => r.state !== 'completed' && r.state !== 'failed');
  }
}

/**
 * The account's journal on the chains `chains` names (journalKey), after those an older version
 * kept under the network entries serving them (`entryKeys`) are taken in (takeInLists: each move
 * once). The chains are registered (registerChains) for perChainsKeys.
 */
export async function openJournal(area: StorageArea, chains: string, accountId: string, entryKeys: readonly string[]): Promise<TransferJournal> {
  await registerChains(area, chains);
  const journal = new TransferJournal(area, journalKey(chains, accountId));
  await oneAtATime(journal.key, () => takeInLists<TransferRecord>(area, journal.key, entryKeys, (a, b) => a?.id === b?.id, 'the transfer journal'));
  return journal;
}

/**
 * TransferJournal.keptExportSeen in `journal` once it opens: a journal that cannot be opened or
 * written holds up nothing (a refresh, a settling of refused sends), only said to `log`.
 */
export function tellKeptExport(journal: Promise<TransferJournal>, txID: string, fate: 'accepted' | 'unclear' | 'replaced', log?: (line: string) => void): Promise<void> {
  return journal
    .then((j) => j.keptExportSeen(txID, fate))
    .catch((e: unknown) => log?.(`the move of export ${txID} could not be told what became of it (${fate}): ${(e as Error).message}`));
}

/**
 * The record as stored: an ended move (completed or failed) without its signed bytes (a few KB a
 * move, in a list every step of every move writes whole, for as long as Activity lists it).
 */
function withoutEndedBytes(r: TransferRecord): TransferRecord {
  if (typeof r !== 'object' || r === null || (r.state !== 'completed' && r.state !== 'failed')) return r;
  const bare = (tx: JournaledTx): JournaledTx => (tx.signedHex === '' ? tx : { ...tx, signedHex: '' });
  if ((r.export === undefined || r.export.signedHex === '') && (r.imports ?? []).every((tx) => tx.signedHex === '') && !r.replaced) return r;
  const { replaced: _gone, ...kept } = r;
  return { ...kept, ...(r.export ? { export: bare(r.export) } : {}), imports: (r.imports ?? []).map(bare) };
}

/**
 * A journaled move's txs as activity items: its export (carrying the amount) and its imports (the
 * one import of the export's funds carrying what arrives: the amount less its fee). An import
 * that never landed on a completed move, or that a move back at 'export-accepted' judged failed
 * (parked for Import now), shows as failed.
 */
export function transferActivity(r: TransferRecord, avaxAssetID: string): ActivityItem[] {
  const items: ActivityItem[] = [];
  if (r.export) {
    // A failed move's kept export whose funds are gone unexplained may have gone through: not "failed".
    const unclear = !r.export.accepted && r.state === 'failed' && r.export.unclear === true;
    const status = r.export.accepted ? 'accepted' : r.state === 'failed' && !unclear ? 'failed' : 'pending';
    items.push({ txID: r.export.txID, chain: r.from, otherChain: r.to, kind: 'export', status, ...(unclear ? { checking: true } : {}), assetID: avaxAssetID, amount: r.amount, fee: r.export.fee, createdAt: r.createdAt });
  }
  for (const tx of r.imports) {
    // Back at 'export-accepted' and not underpaid (which may still run): judged failed, to be built again or imported with Import now.
    const status = tx.accepted ? 'accepted' : r.state === 'completed' || (r.state === 'export-accepted' && !r.underpaid) ? 'failed' : 'pending';
    // After the export: a move's import is newer than its export even when both are journaled at once.
    const arrives = r.imports.length === 1 && status !== 'failed' ? { amount: (BigInt(r.amount) - BigInt(tx.fee)).toString() } : {};
    items.push({ txID: tx.txID, chain: r.to, otherChain: r.from, kind: 'import', status, assetID: avaxAssetID, ...arrives, fee: tx.fee, createdAt: Math.max(r.updatedAt, r.createdAt + 1) });
  }
  return items;
}

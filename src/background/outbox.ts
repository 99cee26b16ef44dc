// Signed sends the node has not yet decided on. A send's signed bytes (and the activity item it
// shows as) are kept here from before they are sent until the node accepts or rejects them, so an
// answer lost on the way (an error from a load balancer that forwarded the tx anyway, a timeout, a
// node that swallowed it) never turns into a second payment: the wallet asks about the tx ID it
// signed, and what it sends again is the same bytes — the same tx, accepted at most once. Sent
// once: outbox-send.ts; settled by each refresh: outbox-settle.ts.
import { fromHex, toHex } from '../core/bytes.js';
import { utxoId } from '../core/codec/ids.js';
import { ownInputs } from '../core/codec/rules.js';
import type { UnsignedTx } from '../core/codec/types.js';
import { isEvmHash } from '../core/engine.js';
import { WalletError } from '../core/errors.js';
import type { ChainAlias } from '../core/node.js';
import { evmTxNonce } from '../core/tx/c.js';
import type { SelectableInput } from '../core/external-tx.js';
import { decodeChainTx } from '../core/tx-fate.js';
import type { ActivityItem } from '../shared/messages.js';
import { outboxKey, registerChains } from './account-cache.js';
import { oneAtATime, type StorageArea, storedList, takeInLists } from './storage.js';

export interface OutboxEntry {
  chain: ChainAlias;
  txID: string;
  signedHex: string;
  /** What the send shows as in Activity (recreated from here if the worker died before writing it). */
  item: ActivityItem;
  createdAt: number;
  /** How often the same bytes were sent again after the node did not know them. */
  resends: number;
  /**
   * A C-Chain EVM tx the node refused. Kept, never sent again, so that its nonce is the one the
   * next C-Chain send takes (WalletEngine.evmNonce): a node that held it can then let at most one
   * of the two run (a refused speed-up or cancel: its original holds that nonce, see
   * settleRefused). Listed in Activity only if it runs after all.
   */
  voided?: boolean;
  /**
   * A voided tx's successor: the later send, or move's export, that spends one of its inputs (takes
   * its nonce). Of an undecided one: a later tx that spends one of its inputs too (racedBy in
   * src/background/refused.ts), or its speed-up or cancel.
   */
  replacedBy?: string;
  /** A voided tx listed again as "may have gone through" (its funds gone unexplained): still never sent. */
  surfaced?: boolean;
  /** A voided tx a refresh found accepted: the next send on its chain is stopped once with the news. */
  ran?: boolean;
  /**
   * Voided as taken back, not refused: the node had shown it accepted, then listed its funds again
   * (Outbox.holdTakenBack). Activity lists it as being checked; once it ran it is listed accepted
   * and goes, no send stopped (the user never took it for refused).
   */
  takenBack?: boolean;
  /**
   * A site's X/P tx: which of its inputs a send of the wallet could select too, and when their
   * locks end (selectableInputs in src/core/external-tx.ts, at signing). Absent for the wallet's
   * own txs, which spend only such, unlocked.
   */
  selectable?: readonly SelectableInput[];
}

/** At most this many resends of a tx the node keeps forgetting. */
const MAX_RESENDS = 20;

/** The undecided sends of one account on one network, in one storage key. */
export class Outbox {
  constructor(
    private readonly area: StorageArea,
    readonly key: string,
  ) {}

  list(): Promise<OutboxEntry[]> {
    return storedList<OutboxEntry>(this.area, this.key, 'the outbox').then((all) => all.filter(stillKept));
  }

  /**
   * Writes `entry`, and in the same write marks the entries it `replaces` (those still here).
   * `allowed` throws to write nothing; it runs in the tick the write is issued, so a reader after
   * it sees the entry (storage keeps the order).
   */
  put(entry: OutboxEntry, replaces: readonly string[] = [], allowed?: () => void): Promise<void> {
    return this.change((all) => (allowed?.(), [...markReplaced(all.filter((e) => e.txID !== entry.txID), replaces, entry.txID), entry]));
  }

  /** Marks the entries `replaced` (those still here, but `by`) as replaced by `by`: a tx kept elsewhere (a move's export), or one a site sends itself. */
  markReplaced(replaced: readonly string[], by: string): Promise<void> {
    return this.change((all) => markReplaced(all, replaced, by));
  }

  /** Marks `entry` refused (voided) as stored now (marks made meanwhile kept), or writes it so if it is gone. */
  voidEntry(entry: OutboxEntry): Promise<void> {
    return this.change((all) => (all.some((e) => e.txID === entry.txID) ? all.map((e) => (e.txID === entry.txID ? { ...e, voided: true } : e)) : [...all, { ...entry, voided: true }]));
  }

  /**
   * Holds a tx taken as accepted and then taken back (its funds listed again: reopenContradicted in
   * settle-activity.ts) as a refused one (voided), with no word of its running kept (`ran`): its
   * fate is asked anew before it is listed as run again. Listed already (surfaced), as being checked.
   * One refused before is held as taken back too: Activity had listed it as run, so once it runs
   * again no send is told of it, and a send of the wallet's that took its place outweighs the node.
   */
  holdTakenBack(entry: OutboxEntry): Promise<void> {
    return this.change((all) => {
      const { ran: _ran, ...held } = all.find((e) => e.txID === entry.txID) ?? entry;
      return [...all.filter((e) => e.txID !== entry.txID), { ...held, voided: true, takenBack: true, surfaced: true }];
    });
  }

  /** Changes the entry `txID` as stored now, if it is still here (never brings one back). */
  update(txID: string, f: (e: OutboxEntry) => OutboxEntry): Promise<void> {
    return this.change((all) => all.map((e) => (e.txID === txID ? f(e) : e)));
  }

  remove(txID: string): Promise<void> {
    return this.change((all) => all.filter((e) => e.txID !== txID));
  }

  /** Counts a resend of the entry if it is still here and may be sent again; false otherwise. */
  async countResend(txID: string, uncapped = false): Promise<boolean> {
    let counted = false;
    await this.change((all) =>
      all.map((e) => {
        // A refused (voided) tx is never sent again: the next send takes its place.
        if (e.txID !== txID || (e.resends >= MAX_RESENDS && !uncapped) || e.voided) return e;
        counted = true;
        return { ...e, resends: e.resends + 1 };
      }),
    );
    return counted;
  }

  /** One change at a time per outbox: a refresh settling entries and a send giving one up must not write over each other. */
  private change(f: (all: OutboxEntry[]) => OutboxEntry[]): Promise<void> {
    return oneAtATime(this.key, async () => {
      const all = await this.list();
      const next = f(all);
      if (next.length !== all.length || next.some((e, i) => e !== all[i])) await this.area.set({ [this.key]: next });
    });
  }
}

/**
 * The account's outbox on the chains `chains` names (outboxKey), after those an older version kept
 * under the network entries serving them (`entryKeys`) are taken in (takeInLists: each tx once).
 * The chains are registered (registerChains) for perChainsKeys.
 */
export async function openOutbox(area: StorageArea, chains: string, accountId: string, entryKeys: readonly string[]): Promise<Outbox> {
  await registerChains(area, chains);
  const outbox = new Outbox(area, outboxKey(chains, accountId));
  await oneAtATime(outbox.key, () => takeInLists<OutboxEntry>(area, outbox.key, entryKeys, (a, b) => a.txID === b.txID, 'the outbox'));
  return outbox;
}

/**
 * The entries of these outboxes that a later send must still conflict with: undecided, or refused
 * (not one only watched: watchedNow), and not yet replaced by one (a pair of which only one can run
 * counts once; one whose successor was accepted, never; one that ran, kept until the next send is
 * told, never), by tx ID. An outbox that cannot be read is one, by its key: what it held is unknown.
 */
export async function sendsInTheWay(area: StorageArea, keys: readonly string[]): Promise<string[]> {
  return sendsInTheWayOf(await area.get([...keys]));
}

/** sendsInTheWay of outboxes already read (`stored`: by key). */
export function sendsInTheWayOf(stored: Record<string, unknown>): string[] {
  return Object.entries(stored).flatMap(([key, v]) => (Array.isArray(v) ? (v as Partial<OutboxEntry>[]).filter((e) => !e?.replacedBy && !e?.ran && !watchedNow(e)).map((e) => (typeof e?.txID === 'string' ? e.txID : key)) : [key]));
}

/**
 * Whether the stored `e` is a refused tx kept only to be watched (watchedOnly), not one taken back:
 * it keeps no send from paying twice, and only its run is news. One that cannot be read (damaged)
 * is judged as any refused tx.
 */
export function watchedNow(e: Partial<OutboxEntry> | undefined): boolean {
  try {
    return e?.voided === true && !e.takenBack && watchedOnly(e as OutboxEntry);
  } catch {
    return false;
  }
}

/**
 * `all` with the entries `replaced` marked replaced by `by`; never `by` itself (the same bytes
 * signed or sent again share every input with themselves, and are not their own successor).
 */
function markReplaced(all: OutboxEntry[], replaced: readonly string[], by: string): OutboxEntry[] {
  return all.map((e) => (e.txID !== by && replaced.includes(e.txID) ? { ...e, replacedBy: by } : e));
}

export function outboxEntry(chain: ChainAlias, txID: string, signedBytes: Uint8Array, item: ActivityItem, selectable?: readonly SelectableInput[]): OutboxEntry {
  return { chain, txID, signedHex: toHex(signedBytes), item, createdAt: Date.now(), resends: 0, ...(selectable ? { selectable } : {}) };
}

type Kept = Pick<OutboxEntry, 'chain' | 'signedHex' | 'selectable'>;

/**
 * Whether an X/P tx the node took and then calls failed ("Rejected", "Aborted", "Dropped"), or one
 * given up, is kept voided like a refused one: the node's word is its word only (another node may
 * still hold it), so the next send must take its place by spending one of its inputs (selection takes
 * them first). Decided from the tx alone, never from a node's read (one could hide the inputs to get
 * it forgotten): kept when it spends funds of its own chain, which the wallet signed; an import
 * paid from what it imports (atomic inputs only) is not, as no send could take its place. Nor a
 * site's tx none of whose inputs a send could select, even once their locks end (`selectable`,
 * recorded at signing: a UTXO shared with a stranger, say): kept in the way, it would stop every
 * later send (it is only watched: watchedOnly). A C-Chain atomic tx is never called failed, and a
 * failed EVM tx has used its nonce.
 */
export const keptInTheWay = (e: Kept): boolean => keptAs(e) === 'in-the-way';

/**
 * Whether a refused (or failed) X/P site tx that is in no send's way is kept all the same, voided,
 * only to be watched: it spends funds of its chain, but none a send could select (a UTXO shared 2
 * of 2 with the site, say: its `selectable` recorded empty), so nothing can take its place, while
 * the node, or the site holding its bytes, could still let it run. Kept, it stops no send
 * (inTheWayOf in src/background/refused.ts); if it runs, Activity lists it and the next send on
 * its chain is told once (never listed as "may have gone through": only a run is news); a later
 * tx the wallet signs spending the same shared UTXO takes its place as for any refused tx. Let go a
 * week after it was signed unless it ran (settleOutbox). Not one taken back (Outbox.holdTakenBack),
 * which is never held unless in the way (reopenContradicted).
 */
export const watchedOnly = (e: Kept): boolean => keptAs(e) === 'watched';

/**
 * Whether kept entry `e` is a failed move's export (Delivery.keepFailedExport): an export without a
 * site's record (`selectable`). Its move is told what became of it (TransferJournal.keptExportSeen).
 */
export const isMovesExport = (e: Pick<OutboxEntry, 'item' | 'selectable'>): boolean => e.item.kind === 'export' && e.selectable === undefined;

/** Whether a refused (or failed) X/P tx stays in the outbox, voided: in the way of later sends, or only watched. */
export const keptWhenRefused = (e: Kept): boolean => keptAs(e) !== undefined;

function keptAs(e: Kept): 'in-the-way' | 'watched' | undefined {
  if (e.chain !== 'X' && e.chain !== 'P') return undefined;
  const tx = decodeChainTx(e.chain, fromHex(e.signedHex));
  const selectable = recordedSelectable(e, tx);
  if (selectable ? selectable.length > 0 : spendsOwnFunds(tx)) return 'in-the-way';
  return selectable && spendsOwnFunds(tx) ? 'watched' : undefined;
}

/**
 * OutboxEntry.selectable as recorded for `tx` (its decoded bytes); none when absent, or damaged in
 * storage (not a list of inputs of `tx`, with lock ends): every input counts then, the careful side.
 */
export function recordedSelectable(e: Pick<OutboxEntry, 'selectable'>, tx: UnsignedTx): readonly SelectableInput[] | undefined {
  const s: unknown = e.selectable;
  if (!Array.isArray(s)) return undefined;
  const inputs = new Set(ownInputs(tx).map(utxoId));
  const valid = s.every((i: unknown) => typeof i === 'object' && i !== null && inputs.has((i as SelectableInput).id) && ['undefined', 'number'].includes(typeof (i as SelectableInput).from));
  return valid ? (s as SelectableInput[]) : undefined;
}

/**
 * Whether the tx of Activity item `a`, pending when a refresh read it from the outbox, was refused
 * since, `entries` being the outbox now: kept voided, or gone if an import (keptInTheWay) or a
 * C-Chain atomic tx; any other gone was decided, and Activity holds its outcome.
 */
export function refusedMeanwhile(entries: readonly OutboxEntry[], a: Pick<ActivityItem, 'txID' | 'chain' | 'kind'>): boolean {
  const entry = entries.find((e) => e.txID === a.txID);
  return entry ? entry.voided === true : a.kind === 'import' || (a.chain === 'C' && !isEvmHash(a.txID));
}

/** A refused import (or tx without fee inputs) an older version kept voided is neither in a send's way nor watched (keptWhenRefused): it is let go. One that cannot be read stays. */
function stillKept(e: OutboxEntry): boolean {
  try {
    return !e.voided || isEvmHash(e.txID) || keptWhenRefused(e);
  } catch {
    return true;
  }
}

/**
 * Whether an X/P tx spends funds of its own chain (an import paid from what it imports spends
 * none). Not what an X-Chain operation consumes: a send never selects an NFT or a mint right, so a
 * refused operation without fee inputs (a network without fees), kept, would stop every X-Chain
 * send but a repeat of itself.
 */
export const spendsOwnFunds = (tx: UnsignedTx): boolean => ownInputs(tx).length > 0;

/** The entry of EVM tx `hash` (any case) among `entries`, which must still wait to run: else 'not-pending'. */
export function waitingEntry(entries: readonly OutboxEntry[], hash: string): OutboxEntry {
  const entry = entries.find((e) => e.txID.toLowerCase() === hash.toLowerCase());
  if (!entry) throw new WalletError('not-pending', 'that transaction is no longer waiting: it went through, was replaced, or the node refused it');
  return entry;
}

/** An EVM entry's nonce; none for another, or one that cannot be read (damaged storage). */
export function evmNonceOf(o: OutboxEntry): bigint | undefined {
  try {
    return isEvmHash(o.txID) ? evmTxNonce(fromHex(o.signedHex)) : undefined;
  } catch {
    return undefined;
  }
}

/** The nonces a signed C-Chain export spends of `address`'s line (0x hex); none for another tx, or damaged bytes. */
export function exportNonces(signedHex: string, address: string): bigint[] {
  try {
    const tx = decodeChainTx('C', fromHex(signedHex));
    return tx.vm === 'evm' && tx.kind === 'ExportTx' ? tx.ins.filter((i) => `0x${toHex(i.address)}` === address.toLowerCase()).map((i) => i.nonce) : [];
  } catch {
    return []; // damaged bytes hold no nonce, as a damaged EVM entry
  }
}

/** evmNonceOf, each entry's read once (rivalsOf is asked of every entry against every other). */
export function nonceReader(): (o: OutboxEntry) => bigint | undefined {
  const nonces = new Map<OutboxEntry, bigint | undefined>();
  return (o) => {
    if (!nonces.has(o)) nonces.set(o, evmNonceOf(o));
    return nonces.get(o);
  };
}

/**
 * The wallet's txs of which any one accepted proves `e` can never run: its successor, the tx it
 * replaces or races, those that replace or race it, and its others at `e`'s EVM nonce.
 */
export function rivalsOf(e: OutboxEntry, entries: readonly OutboxEntry[], nonceOf = evmNonceOf): string[] {
  const nonce = nonceOf(e);
  const others = entries.filter((o) => o.replacedBy === e.txID || o.item.replaces === e.txID || (o.txID !== e.txID && nonce !== undefined && nonceOf(o) === nonce));
  return [e.replacedBy, e.item.replaces, ...others.map((o) => o.txID)].filter((r): r is string => r !== undefined);
}

/** What the wallet knows of a refused tx's successor (successors in src/background/refused.ts): accepted, a move's export still under way, or nothing. */
export type Successor = 'accepted' | 'moving' | undefined;

/** What becomes of a refused tx kept in the way (refused.ts), in words. */
export const nextTakesItsPlace = (chain: string): string => `your next ${chain}-Chain send takes its place, so the two can never both go through`;

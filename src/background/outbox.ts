// Signed sends the node has not yet decided on. A send's signed bytes (and the activity item it
// shows as) are kept here from before they are sent until the node accepts or rejects them, so an
// answer lost on the way (an error from a load balancer that forwarded the tx anyway, a timeout, a
// node that swallowed it) never turns into a second payment: the wallet asks about the tx ID it
// signed, and what it sends again is the same bytes — the same tx, accepted at most once.
import { fromHex, toHex } from '../core/bytes.js';
import type { UnsignedTx } from '../core/codec/types.js';
import { isEvmHash, pClock, type TxFate, type WalletEngine } from '../core/engine.js';
import { nodeWords, WalletError } from '../core/errors.js';
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
/**
 * An undecided entry is given up after a week: its activity item stays (an X/P entry stays too,
 * voided). Never an EVM one whose nonce is unused: the node may hold it, and only it (or its
 * speed-up or cancel) can take that nonce.
 */
const EXPIRY_MS = 7 * 24 * 3600_000;
/** After an error from issueTx, how long the node gets to show it has the tx after all. */
export const ISSUE_ERROR_GRACE_MS = 10_000;

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

  /** Marks the entries `replaced` (those still here) as replaced by `by`, a tx kept elsewhere (a move's export). */
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
 * The entries of these outboxes that a later send must still conflict with: undecided, or refused,
 * and not yet replaced by one (a pair of which only one can run counts once; one whose successor
 * was accepted, never; one that ran, kept until the next send is told, never), by tx ID. An outbox
 * that cannot be read is one, by its key: what it held is unknown.
 */
export async function sendsInTheWay(area: StorageArea, keys: readonly string[]): Promise<string[]> {
  const stored = await area.get([...keys]);
  return Object.entries(stored).flatMap(([key, v]) => (Array.isArray(v) ? (v as Partial<OutboxEntry>[]).filter((e) => !e?.replacedBy && !e?.ran).map((e) => (typeof e?.txID === 'string' ? e.txID : key)) : [key]));
}

function markReplaced(all: OutboxEntry[], replaced: readonly string[], by: string): OutboxEntry[] {
  return all.map((e) => (replaced.includes(e.txID) ? { ...e, replacedBy: by } : e));
}

export function outboxEntry(chain: ChainAlias, txID: string, signedBytes: Uint8Array, item: ActivityItem, selectable?: readonly SelectableInput[]): OutboxEntry {
  return { chain, txID, signedHex: toHex(signedBytes), item, createdAt: Date.now(), resends: 0, ...(selectable ? { selectable } : {}) };
}

/**
 * Sends an outbox entry. An error from the node is not taken at its word: the tx's fate is asked
 * for `graceMs`. 'sent': the node has it, or what it spends is gone (it may have gone through, so
 * it is followed, never replaced). 'checking': no clear answer (the node unreachable, or answers
 * that do not hold up); the entry stays and a later refresh looks again. Only a tx the node does
 * not know, or calls failed, while everything it spends is still unspent is a refusal: WalletError
 * 'tx-refused' (nothing was paid). The entry is then kept, voided, so that the next send takes its
 * place (X, P, EVM: src/background/refused.ts); a refused import (keptInTheWay) is removed.
 */
export async function sendOnce(engine: WalletEngine, outbox: Outbox, entry: OutboxEntry, graceMs = ISSUE_ERROR_GRACE_MS): Promise<'sent' | 'checking'> {
  const bytes = fromHex(entry.signedHex);
  let refusal: unknown;
  try {
    await engine.submit(entry.chain, bytes, entry.txID);
    return 'sent';
  } catch (e) {
    refusal = e;
  }
  const deadline = Date.now() + graceMs;
  let fate: TxFate | undefined;
  for (;;) {
    fate = await engine.txFate(entry.chain, entry.txID, bytes).catch(() => undefined);
    if (fate === 'failed') break;
    if (fate !== undefined && fate !== 'not-seen') return 'sent';
    // A C-Chain atomic tx is "not found" until executed, and the node takes a resend of one it
    // already holds without error: a resend that goes through is the proof it was not refused.
    if (fate === 'not-seen' && entry.chain === 'C' && (await engine.submit(entry.chain, bytes, entry.txID).then(() => true, () => false))) return 'sent';
    if (Date.now() >= deadline) break;
    await new Promise((r) => setTimeout(r, Math.min(500, Math.max(1, deadline - Date.now()))));
  }
  if (fate === undefined) return 'checking';
  const why = nodeWords(refusal instanceof Error ? refusal.message : String(refusal));
  if (isEvmHash(entry.txID) || keptInTheWay(entry)) {
    // Kept (src/background/refused.ts): the next send on this chain conflicts with it. A speed-up
    // or cancel (item.replaces) keeps its original's nonce: that one still waits, nothing takes its place.
    // An import (C-Chain atomic, or paid from what it imports) is not, nor a tx without fee
    // inputs (a network without fees): no send could take its place.
    await outbox.voidEntry(entry);
    const next = isEvmHash(entry.txID) && entry.item.replaces ? 'the transaction it was to replace still waits' : nextTakesItsPlace(entry.chain);
    throw new WalletError('tx-refused', `the ${entry.chain}-Chain node refused the transaction ${why}; nothing was paid, and ${next}`);
  }
  await outbox.remove(entry.txID);
  throw new WalletError('tx-refused', `the ${entry.chain}-Chain node refused the transaction ${why}, and nothing it spends was spent`);
}

/**
 * Whether an X/P tx the node took and then calls failed ("Rejected", "Aborted", "Dropped"), or one
 * given up, is kept voided like a refused one: the node's word is its word only (another node may
 * still hold it), so the next send must take its place by spending one of its inputs (selection takes
 * them first). Decided from the tx alone, never from a node's read (one could hide the inputs to get
 * it forgotten): kept when it spends funds of its own chain, which the wallet signed; an import
 * paid from what it imports (atomic inputs only) is not, as no send could take its place. Nor a
 * site's tx none of whose inputs a send could select, even once their locks end (`selectable`,
 * recorded at signing: a UTXO shared with a stranger, say): kept, it would stop every later send. A C-Chain atomic tx
 * is never called failed, and a failed EVM tx has used its nonce.
 */
export function keptInTheWay(e: Pick<OutboxEntry, 'chain' | 'signedHex' | 'selectable'>): boolean {
  if (e.chain !== 'X' && e.chain !== 'P') return false;
  const selectable = recordedSelectable(e);
  return selectable ? selectable.length > 0 : spendsOwnFunds(decodeChainTx(e.chain, fromHex(e.signedHex)));
}

/** OutboxEntry.selectable as recorded; none when absent or damaged in storage (then every input counts: the careful side). */
export function recordedSelectable(e: Pick<OutboxEntry, 'selectable'>): readonly SelectableInput[] | undefined {
  const s: unknown = e.selectable;
  const valid = Array.isArray(s) && s.every((i: unknown) => typeof i === 'object' && i !== null && typeof (i as SelectableInput).id === 'string' && ['undefined', 'number'].includes(typeof (i as SelectableInput).from));
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

/** A refused import (or tx without fee inputs) an older version kept voided is in no send's way (keptInTheWay): it is let go. One that cannot be read stays. */
function stillKept(e: OutboxEntry): boolean {
  try {
    return !e.voided || isEvmHash(e.txID) || keptInTheWay(e);
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
export const spendsOwnFunds = (tx: UnsignedTx): boolean => 'inputs' in tx && tx.inputs.length > 0;

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

/**
 * accepted / failed: decided, out of the outbox (a refused tx that ran stays, marked, until the
 * next send is told); unclear: what it spends is gone, but not proven how (a refused one is listed
 * as such); replaced: a refused tx whose inputs (nonce) its successor spent, that successor
 * accepted: out of the outbox, never listed; or an undecided one whose rival (an accepted tx of
 * the wallet spending one of its inputs, or its nonce) proves it can never run: listed failed.
 */
export type Settled = 'accepted' | 'failed' | 'unclear' | 'replaced';

/**
 * Asks the node about every undecided send: decided ones leave the outbox; a tx the node does not
 * know while what it spends is still unspent (a swallowed send) is sent again, as the same bytes;
 * one whose inputs are gone without proof of acceptance is 'unclear' (never "failed": it may have
 * gone through). Each entry is looked at on its own: one the node cannot answer for does not hold
 * up the others. `record` saves the decisions before decided entries leave the outbox. Entries
 * older than a week are given up (their activity items stay), but an EVM one whose nonce is
 * unused. Refused ones (voided, see src/background/refused.ts), and X/P ones that failed or are
 * given up (voided then), stay until they ran or an accepted rival (rivalsOf: a `successor`, the
 * tx it replaces, one at its nonce) spent what they spend (while it is a move still under way, one
 * whose funds are gone is not listed yet).
 */
export async function settleOutbox(
  engine: WalletEngine,
  outbox: Outbox,
  record: (settled: ReadonlyMap<string, Settled>) => Promise<void>,
  successor: (txID: string) => Successor,
): Promise<void> {
  const settled = new Map<string, Settled>();
  const expired: string[] = [];
  const ran: string[] = [];
  const surfaced: string[] = [];
  /** Entries that failed or are given up and stay, voided (keptInTheWay); and those voided already. */
  const voidable = new Set<string>();
  const kept = new Set<string>();
  /** Refused ones that ran and stay: until the next send is told, or (a move's export) for this refresh. */
  const ranKept = new Set<string>();
  /** Refused ones the node holds (what they spend unspent, their nonce unused): no rival can have run. */
  const held = new Set<string>();
  for (const entry of await outbox.list()) {
    if (entry.voided) kept.add(entry.txID);
    // A site's C-Chain export: later txs of the line wait behind its nonce, and nothing replaces it
    // (no speed-up or cancel), so it is sent again for as long as it takes.
    const exporting = !isEvmHash(entry.txID) && entry.chain === 'C' && exportNonces(entry.signedHex, engine.evmAddress).length > 0;
    let fate: TxFate | undefined;
    try {
      // A taken-back one is asked anew: another engine's spent book may still note it as run.
      fate = await engine.txFate(entry.chain, entry.txID, fromHex(entry.signedHex), entry.takenBack);
      // Past its sendBefore: never sent again, so one the node does not know did not run (failed).
      // By the chain's time too, read then: a computer's clock behind it would send a change after its cycle ended.
      const late = fate === 'not-seen' && entry.item.sendBefore !== undefined && Number((await pClock(engine)).now) >= entry.item.sendBefore;
      if (entry.voided) {
        // Kept until it ran or its successor did; never sent again, never given up by age. A
        // failure is recorded (its item, if listed, says so) and changes nothing here.
        if (fate === 'failed' || late) settled.set(entry.txID, 'failed');
        else if (fate === 'accepted' && !isEvmHash(entry.txID) && entry.replacedBy !== undefined && successor(entry.replacedBy) === 'accepted') {
          // An X/P one whose place an accepted tx of the wallet took never ran, though the node says so (see settleRefused).
          settled.set(entry.txID, 'replaced');
        } else if (fate === 'accepted') {
          // Asked about again below, against rivals decided in this pass.
          settled.set(entry.txID, 'accepted');
          if (entry.takenBack) continue;
          if (!entry.ran) ran.push(entry.txID);
          // A send stays until the next send is told (settleRefused); a move's export is told to its move (keptExportSeen).
          if (!entry.ran || entry.item.kind !== 'export') ranKept.add(entry.txID);
        } else if (fate === 'inputs-spent' && entry.replacedBy !== undefined && successor(entry.replacedBy) === 'accepted') {
          settled.set(entry.txID, 'replaced');
        } else if (fate === 'inputs-spent' && entry.replacedBy !== undefined && successor(entry.replacedBy) === 'moving') {
          // Spent by the move's export (accepted before its journal says so), or by something the
          // node does not show (then the export fails): decided once the move is.
        } else if (fate === 'inputs-spent' || fate === 'processing') {
          if (fate === 'processing') held.add(entry.txID);
          settled.set(entry.txID, 'unclear');
          if (!entry.surfaced) surfaced.push(entry.txID);
        }
        continue;
      }
      if (fate === 'accepted' || fate === 'failed') {
        settled.set(entry.txID, fate);
        if (fate === 'failed' && keptInTheWay(entry)) voidable.add(entry.txID);
        continue;
      }
      if (fate === 'inputs-spent') settled.set(entry.txID, 'unclear');
      if (late) {
        // Lost, and never sent again: it did not run. Failed, and kept voided (keptInTheWay) so that
        // the next send takes its place: anyone holding its bytes could still send them.
        if (keptInTheWay(entry)) voidable.add(entry.txID);
        settled.set(entry.txID, 'failed');
      }
      // Counted under the outbox's lock: an entry a send has just given up is not sent again.
      if (fate === 'not-seen' && !late && (await outbox.countResend(entry.txID, exporting))) {
        await engine.submit(entry.chain, fromHex(entry.signedHex), entry.txID).catch(() => undefined);
      }
    } catch {
      // The node could not answer for this one now: the next refresh asks again.
    }
    // An EVM tx or a C-Chain export only once its nonce is used (inputs-spent): until then it holds
    // that nonce, and the account's later C-Chain txs wait behind it (one whose nonce cannot be
    // read, damaged, holds none).
    const holdsNonce = isEvmHash(entry.txID) ? evmNonceOf(entry) !== undefined : exporting;
    if (!entry.voided && Date.now() - entry.createdAt > EXPIRY_MS && (fate === 'inputs-spent' || !holdsNonce)) {
      expired.push(entry.txID);
      try {
        if (keptInTheWay(entry)) voidable.add(entry.txID);
      } catch {
        // One that cannot be read (damaged) is given up as any other: it holds up no refresh.
      }
    }
  }
  // A speed-up or cancel and the tx it replaces share a nonce: once one of them ran, the other
  // (its nonce used, no receipt) is "replaced", never unclear. So is every other EVM tx of the
  // account at that nonce (a speed-up and a cancel both pressed on the original, or a refused
  // one: voided), and an X/P tx whose funds a later one spent too (racedBy in
  // src/background/refused.ts) once either ran.
  const entries = await outbox.list();
  const nonceOf = nonceReader();
  // So is a refused or taken-back X/P one the node calls accepted while a rival ran (see settleRefused).
  for (const e of entries) {
    const contested = e.voided && !isEvmHash(e.txID) && settled.get(e.txID) === 'accepted';
    if (!contested && (settled.get(e.txID) !== 'unclear' || held.has(e.txID))) continue;
    if (!rivalsOf(e, entries, nonceOf).some((r) => (r !== e.txID && settled.get(r) === 'accepted') || successor(r) === 'accepted')) continue;
    settled.set(e.txID, 'replaced');
    ranKept.delete(e.txID);
    if (ran.includes(e.txID)) ran.splice(ran.indexOf(e.txID), 1);
  }
  // Voided before Activity says failed: the next send conflicts with it from then on. What was
  // decided is recorded before the entries go: a worker that dies in between asks again.
  for (const txID of voidable) await outbox.update(txID, (e) => ({ ...e, voided: true }));
  await record(settled);
  for (const txID of ran) await outbox.update(txID, (e) => ({ ...e, ran: true }));
  for (const txID of surfaced) await outbox.update(txID, (e) => ({ ...e, surfaced: true }));
  for (const [txID, s] of settled) {
    // A failed one stays if voided (now or before); a refused one that ran stays (ranKept).
    if ((s === 'failed' && (voidable.has(txID) || kept.has(txID))) || ranKept.has(txID)) continue;
    if (s === 'accepted' || s === 'failed' || s === 'replaced') await outbox.remove(txID);
  }
  for (const txID of expired) if (!voidable.has(txID)) await outbox.remove(txID);
}

/** What becomes of a refused tx kept in the way (refused.ts), in words. */
export const nextTakesItsPlace = (chain: string): string => `your next ${chain}-Chain send takes its place, so the two can never both go through`;

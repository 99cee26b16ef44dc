// Sends the node refused. A refusal is only the node's word: a node that kept the signed tx can
// still let it go later. So a refused X, P or C-Chain EVM tx stays in the outbox, "voided": never
// sent again, and every later send on its chain conflicts with it while it could still run (an
// X/P send spends its inputs too; an EVM send takes its nonce), so at most one of the two ever
// runs. It leaves the outbox only once it ran (the next send is stopped once with that news; a
// move's export, its move is told) or a successor that spent what it spends was accepted. One
// whose funds are gone unexplained, or that the node now holds, is listed as "may have gone
// through" and stops the next send once. A site's tx that no send can take the place of (it spends
// only a UTXO shared with a stranger) is kept the same way but in nobody's way, only watched
// (watchedOnly in src/background/outbox.ts): only its run is news, and it goes after a week.
import { type Bytes, equalBytes, fromHex, toHex } from '../core/bytes.js';
import { utxoId } from '../core/codec/ids.js';
import { ownInputs } from '../core/codec/rules.js';
import type { TransferableInput, UnsignedTx } from '../core/codec/types.js';
import { isEvmHash, type WalletEngine } from '../core/engine.js';
import { WalletError } from '../core/errors.js';
import type { ChainAlias } from '../core/node.js';
import { evmTxNonce } from '../core/tx/c.js';
import { decodeChainTx, inputIds } from '../core/tx-fate.js';
import type { ActivityItem } from '../shared/messages.js';
import { nextTakesItsPlace, nonceReader, type Outbox, type OutboxEntry, recordedSelectable, rivalsOf, type Successor, watchedNow } from './outbox.js';
import type { TransferRecord } from './transfer-journal.js';

/**
 * The inputs of X/P txs as kept (signed bytes), each to the txs that spend it; one that cannot be read (damaged storage) is
 * skipped and reported through `skip`. Of the refused ones (voided): every selection takes them
 * (EngineOptions.spendFirst), so the next send shares an input with each. Of a move's export not
 * decided yet: no selection takes them (EngineOptions.spendNever).
 */
export function inputsOf<T extends Pick<OutboxEntry, 'chain' | 'txID' | 'signedHex'>>(txs: readonly T[], skip: (e: T, error: unknown) => void): Map<string, string[]> {
  const ids = new Map<string, string[]>();
  for (const e of txs) {
    if (isEvmHash(e.txID) || e.chain === 'C') continue;
    try {
      for (const id of inputIds(decodeChainTx(e.chain, fromHex(e.signedHex)))) ids.set(id, [...(ids.get(id) ?? []), e.txID]);
    } catch (error) {
      skip(e, error);
    }
  }
  return ids;
}

/** A refused (`voided`) or undecided entry of `chain`, EVM or not. */
const onChain = (e: OutboxEntry, chain: ChainAlias, evm: boolean, voided = true): boolean => (e.voided === true) === voided && e.chain === chain && isEvmHash(e.txID) === evm;

/**
 * Before a new send on `chain` (EVM ones when `evm`): what became of its refused txs. Lists what
 * it finds (`list`); stops the send ('earlier-send-went-through', 'earlier-send-unclear') when one
 * ran or may have; returns those that could still run (an EVM one the node holds too, once
 * listed; but an EVM one whose nonce an undecided EVM tx holds), for the new send to conflict
 * with. `successor`: what the wallet knows of a successor, or of another rival (rivalsOf in
 * src/background/outbox.ts; see {@link successors}). One whose funds are gone while its successor
 * is a move still under way stops the send once all the same: the conservative side, on an honest
 * node only until the move's next run (a minute at most).
 * `replaced`: told of each one an accepted rival took the place of, before it leaves the outbox.
 */
export async function settleRefused(
  engine: WalletEngine,
  outbox: Outbox,
  chain: ChainAlias,
  evm: boolean,
  list: (item: ActivityItem, e: OutboxEntry) => Promise<void>,
  successor: (txID: string) => Successor,
  replaced: (e: OutboxEntry) => Promise<void> = async () => undefined,
): Promise<OutboxEntry[]> {
  const ran: string[] = [];
  const unclear: string[] = [];
  const live: OutboxEntry[] = [];
  const all = await outbox.list();
  const nonceOf = nonceReader();
  for (const e of all) {
    if (!onChain(e, chain, evm)) continue;
    const fate = e.ran ? 'accepted' : await engine.txFate(e.chain, e.txID, fromHex(e.signedHex), e.takenBack);
    const rivals = rivalsOf(e, all, nonceOf);
    // A refused EVM tx whose nonce an undecided EVM one holds (the tx it was to speed up or cancel,
    // the send that took its place) is in no send's way: the pool keeps one tx per nonce, so that
    // nonce runs once, the next send takes another. Not one an atomic export holds (a site's or a
    // move's): the EVM pool can still run the refused tx, the export then failing on its nonce.
    const held = evm && all.some((o) => !o.voided && isEvmHash(o.txID) && rivals.includes(o.txID));
    const placeTaken = rivals.some((r) => successor(r) === 'accepted');
    // An X/P one whose place an accepted tx of the wallet took (spending one of its inputs) never
    // ran, though the node says so: both cannot have (a node that once listed its funds again after
    // calling it accepted, say: taken back).
    if (fate === 'accepted' && !(placeTaken && !evm)) {
      // One taken back (Outbox.holdTakenBack) was never taken for refused: listed as run, no send stopped.
      if (!e.takenBack) ran.push(e.txID);
      await list({ ...e.item, status: 'accepted' }, e);
      await outbox.remove(e.txID);
    } else if ((fate === 'inputs-spent' || fate === 'accepted') && placeTaken) {
      // (Its item, if Activity lists it, is failed: `replaced`.)
      // An accepted rival (its successor, or the tx it was to speed up or cancel) took its place.
      await replaced(e);
      await outbox.remove(e.txID);
    } else if ((fate === 'inputs-spent' || fate === 'processing') && watchedNow(e)) {
      // Only watched: only a run is news. What it spends gone without proof it ran, or held by the
      // node, it stops nothing and is not listed; it stays watched (settleOutbox).
    } else if (fate === 'inputs-spent' || fate === 'processing') {
      if (!e.surfaced) {
        unclear.push(e.txID);
        await list({ ...e.item, checking: true }, e);
        await outbox.update(e.txID, (x) => ({ ...x, surfaced: true }));
      }
      // Listed once, but an EVM one the node holds can still run: still in the way of a send at another nonce.
      if (fate === 'processing' && evm && !held) live.push(e);
    } else if (!held) {
      live.push(e);
    }
  }
  if (ran.length > 0) {
    throw new WalletError('earlier-send-went-through', `a ${chain}-Chain send the node had refused went through after all (${ran.join(', ')}): nothing new was sent; look at Activity, then send again if you still mean to`);
  }
  if (unclear.length > 0) {
    throw new WalletError('earlier-send-unclear', `a ${chain}-Chain send the node had refused may have gone through after all (${unclear.join(', ')}): nothing new was sent; wait until Activity shows it decided`);
  }
  return live;
}

/**
 * The refused txs that could still run (`live`, from settleRefused) that a new tx replaces: those
 * it conflicts with (shares an input; on the EVM, has the nonce of). Every one in its way
 * (inTheWayOf) must be among them, or nothing is signed. `now`: this computer's clock (ms).
 */
export function conflictsOf(live: readonly OutboxEntry[], chain: ChainAlias, tx: Spends, now = Date.now()): string[] {
  return live.flatMap((e) => {
    if (conflicts(e, chain, tx)) return [e.txID];
    if (inTheWayOf(e, chain, tx, now)) {
      throw new WalletError('refused-send-in-the-way', `a ${chain}-Chain send the node refused could still go through, and this one does not take its place (it spends none of the same funds): nothing was signed`);
    }
    return [];
  });
}

/**
 * Whether the refused `e` is in the way of `tx`, which must then take its place: an EVM one always
 * (the nonce line); an X/P one when it spends, of an asset `tx` spends, an input a send could
 * select now (selection takes it first): of a site's tx those recorded at signing whose locks have
 * ended by this computer's clock (OutboxEntry.selectable), of the wallet's own every input. A site's
 * tx spending only a UTXO no send can select (2 of 2 with a stranger, or still locked), or only a
 * token `tx` does not spend, stops nothing: no send could take its place, or this one could not pay twice for it.
 */
function inTheWayOf(e: OutboxEntry, chain: ChainAlias, tx: Spends, now: number): boolean {
  if ('nonce' in tx || isEvmHash(e.txID)) return true;
  return selectableFrom(e).some((s) => s.from <= now && tx.assets.includes(toHex(s.input.assetID)));
}

/**
 * The inputs of the kept X/P `e` a send could select, each with when it could (`from`, ms, this
 * computer's clock): see inTheWayOf.
 */
function selectableFrom(e: OutboxEntry): { input: TransferableInput; from: number }[] {
  const kept = decodeChainTx(e.chain, fromHex(e.signedHex));
  const recorded = recordedSelectable(e, kept);
  const from = recorded && new Map(recorded.map((s) => [s.id, (s.from ?? 0) * 1000]));
  return ownInputs(kept).flatMap((input) => {
    const at = from ? from.get(utxoId(input)) : 0;
    return at === undefined ? [] : [{ input, from: at }];
  });
}

/**
 * What takes the place of the refused X/P `e`, in words (the end of a sentence): the next send on
 * its chain, when `e` is in the way of every send (an input of AVAX a send could select now);
 * otherwise what will (the next send once AVAX it spends unlocks; else a send of the same token,
 * once it unlocks if it is locked), and that until then a payment made again another way could go
 * through beside it.
 */
export function whatTakesItsPlace(e: OutboxEntry, avaxAssetID: Bytes, now = Date.now()): string {
  const isAvax = (s: { input: TransferableInput }): boolean => equalBytes(s.input.assetID, avaxAssetID);
  const selectable = selectableFrom(e);
  const open = selectable.filter((s) => s.from <= now);
  if (open.some(isAvax)) return nextTakesItsPlace(e.chain);
  const unlock = 'once the funds it spends unlock, ';
  const taker = selectable.some(isAvax)
    ? `${unlock}your next ${e.chain}-Chain send takes its place`
    : `${open.length > 0 ? '' : unlock}your next ${e.chain}-Chain send of the same token takes its place`;
  return `${taker}; until then the node could still let it go through, so do not pay the same again another way`;
}

/**
 * What the wallet knows of its own txs as successors: accepted ones from Activity's cache and from
 * the move journal (a move's txs are only there); a move's export neither accepted nor failed is
 * 'moving' for {@link MOVING_AT_MOST} after the move began (an honest node decides it in seconds;
 * a node that keeps it "processing" must not keep a refused send out of Activity for good).
 * Journal records damaged in storage are skipped.
 */
export function successors(activity: readonly ActivityItem[], moves: readonly TransferRecord[], now = Date.now()): (txID: string) => Successor {
  const accepted = new Set(activity.filter((a) => a.status === 'accepted').map((a) => a.txID));
  const moving = new Set<string>();
  for (const r of moves as readonly unknown[]) {
    if (!isRecord(r)) continue;
    const txs: unknown[] = [r.export, ...(Array.isArray(r.imports) ? r.imports : [])];
    txs.forEach((t, i) => {
      if (!isRecord(t) || typeof t.txID !== 'string') return;
      if (t.accepted === true) accepted.add(t.txID);
      else if (i === 0 && r.state !== 'failed' && typeof r.createdAt === 'number' && now - r.createdAt < MOVING_AT_MOST) moving.add(t.txID);
    });
  }
  return (txID) => (accepted.has(txID) ? 'accepted' : moving.has(txID) ? 'moving' : undefined);
}

/**
 * `known` (successors), widened by what the node shows of each refused tx's rivals (rivalsOf) it
 * does not know: one sent through another network entry for the same chains is in that entry's
 * Activity, not here; one still in the outbox may have run since the last refresh. Asked for all
 * at once; one that cannot be read stays unknown.
 */
export async function withSuccessorsAsked(engine: WalletEngine, entries: readonly OutboxEntry[], known: (txID: string) => Successor): Promise<(txID: string) => Successor> {
  // Each once, on its chain (the rivals of refused txs at one nonce are each other's).
  const nonceOf = nonceReader();
  const unknown = new Map(entries.filter((e) => e.voided).flatMap((e) => rivalsOf(e, entries, nonceOf).filter((s) => known(s) === undefined).map((s) => [s, e.chain] as const)));
  const ran = new Set<string>();
  await Promise.all(
    [...unknown].map(async ([s, chain]) => {
      // An X/P one by what it spends (its bytes the node's, hash-checked), never on the node's word alone.
      const state = await (isEvmHash(s) ? engine.evmState(s) : chain === 'C' ? engine.txState(chain, s) : engine.txFateFromNode(chain, s)).catch(() => 'unknown');
      if (state === 'accepted') ran.add(s);
    }),
  );
  return (txID) => known(txID) ?? (ran.has(txID) ? 'accepted' : undefined);
}

/** How long after a move began its export may be 'moving' (see {@link successors}). */
export const MOVING_AT_MOST = 10 * 60_000;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/**
 * What a new tx spends that a refused one could share: its inputs (X, P), with the assets its
 * fungible inputs hold (hex; see spendsOf), or its EVM nonce.
 */
export type Spends = { inputs: readonly string[]; assets: readonly string[] } | { nonce: bigint };

/** What an X/P tx spends (Spends): every input it consumes, and the assets of its fungible ones. */
export function spendsOf(tx: UnsignedTx): { inputs: string[]; assets: string[] } {
  return { inputs: inputIds(tx), assets: [...new Set(ownInputs(tx).map((i) => toHex(i.assetID)))] };
}

/** Whether `tx` conflicts with the refused `e`: spends one of its inputs, or takes its nonce. */
function conflicts(e: OutboxEntry, chain: ChainAlias, tx: Spends): boolean {
  return 'nonce' in tx
    ? isEvmHash(e.txID) && evmTxNonce(fromHex(e.signedHex)) === tx.nonce
    : !isEvmHash(e.txID) && inputIds(decodeChainTx(chain, fromHex(e.signedHex))).some((id) => tx.inputs.includes(id));
}

/**
 * What a move's export spends that a refused send on its chain could share: its inputs on X and
 * P; from the C-Chain, the EVM nonce it takes (an atomic export spends one of the account's nonces).
 */
export function exportSpends(chain: ChainAlias, signedBytes: Uint8Array): Spends {
  const tx = decodeChainTx(chain, signedBytes);
  if (tx.vm !== 'evm') return spendsOf(tx);
  // The wallet's C-Chain export spends from the account's one EVM address: one input, one nonce.
  const nonce = tx.kind === 'ExportTx' ? tx.ins[0]?.nonce : undefined;
  return nonce === undefined ? { inputs: [], assets: [] } : { nonce };
}

/**
 * The refused (or taken-back) txs that `tx` on `chain` conflicts with (a send's or a move's export's
 * selection takes their inputs first; a C-Chain export takes the nonce they hold), and the
 * undecided X/P sends it races ({@link racedBy}). Unlike a send, a move is not stopped by a refused
 * one it does not conflict with: that one keeps waiting for the next send to take its place.
 */
export function replacedByTx(entries: readonly OutboxEntry[], chain: ChainAlias, tx: Spends): string[] {
  return [...sharing(entries, chain, tx, true), ...racedBy(entries, chain, tx)];
}

/**
 * The undecided X/P txs of the outbox (not refused) that `tx` spends an input of: it races them
 * for those funds, so once one of the two is accepted the other never can be ('replaced' in
 * settleOutbox, src/background/outbox-settle.ts).
 */
export function racedBy(entries: readonly OutboxEntry[], chain: ChainAlias, tx: Spends): string[] {
  return 'inputs' in tx ? sharing(entries, chain, tx, false) : [];
}

/** The entries on `chain`, refused or not (`voided`), that `tx` conflicts with; one that cannot be read (damaged storage) is left as it is. */
function sharing(entries: readonly OutboxEntry[], chain: ChainAlias, tx: Spends, voided: boolean): string[] {
  return entries
    .filter((e) => {
      try {
        return onChain(e, chain, 'nonce' in tx, voided) && conflicts(e, chain, tx);
      } catch {
        return false;
      }
    })
    .map((e) => e.txID);
}

/**
 * Refuses, before it is signed, a tx spending what a move's undecided export spends: that export
 * was journaled after the engine building `tx` read its funds (EngineOptions.spendNever keeps them
 * from any selection made later), so the two raced for them. Sent, one would fail and the other
 * read "may have gone through" with nothing linking the two; it waits for the move instead.
 */
export function checkNotMoving(moves: readonly TransferRecord[], tx: { inputs: readonly string[] }): void {
  const moving = inputsOf(moves.flatMap((r) => (r.state === 'export-signed' && r.export ? [r.export] : [])), () => undefined);
  if (tx.inputs.some((id) => moving.has(id))) {
    throw new WalletError('tx-processing', 'a move between chains is spending some of the same funds and is not decided yet. Nothing was sent; try again in a minute');
  }
}

// Settling what Activity shows as pending, at each refresh: the outbox's sends by their fate (a
// swallowed one sent again as the same bytes), the others by the node's state, and what another
// network entry for the same chains settled (by receipts, and by the node's word on successors).
import { isEvmHash, type WalletEngine } from '../core/engine.js';
import { getTx } from '../core/node.js';
import type { ActivityItem } from '../shared/messages.js';
import { type AccountCache, addActivity, decideItem } from './account-cache.js';
import { evmFeeCharged } from './evm-fee.js';
import { isMovesExport, keptInTheWay, type Outbox, outboxEntry } from './outbox.js';
import { settleOutbox } from './outbox-settle.js';
import { successors, withSuccessorsAsked } from './refused.js';
import type { StakeBook } from './stake-book.js';
import type { TransferRecord } from './transfer-journal.js';

/**
 * Settles the activity's pending items (the outbox's by their fate, so a swallowed send is sent
 * again as the same bytes; the others by the node's state) and saves them with `save` before any
 * decided entry leaves the outbox. A send whose worker died before it was listed is listed from
 * its outbox entry (its ID added to `fromOutbox`). `moves`: the account's move journal (a refused send's successor can be a
 * move's export); `keptExportSeen` tells a failed move its kept export ran, or may have.
 */
export async function settleActivity(
  engine: WalletEngine,
  cache: AccountCache,
  outbox: Outbox,
  save: () => Promise<void>,
  moves: readonly TransferRecord[],
  keptExportSeen: (txID: string, fate: 'accepted' | 'unclear' | 'replaced') => Promise<void>,
  fromOutbox = new Set<string>(),
): Promise<void> {
  const entries = await outbox.list();
  const listed = new Set(cache.activity.map((a) => a.txID));
  // A refused tx (voided: src/background/refused.ts) is listed only once it ran, or may have.
  for (const e of entries) {
    if (listed.has(e.txID) || e.voided) continue;
    addActivity(cache, { ...e.item, checking: true });
    fromOutbox.add(e.txID);
  }
  const undecided = new Set(entries.map((e) => e.txID));
  // An EVM tx out of the outbox (another entry for the same chains followed it to its end) is
  // settled by its receipt, read for all at once; one that cannot be read stays as it is.
  const unfollowed = cache.activity.filter((i) => i.status === 'pending' && isEvmHash(i.txID) && !undecided.has(i.txID));
  const receipts = new Map<string, 'accepted' | 'unclear' | 'unknown' | 'replaced'>(await Promise.all(unfollowed.map(async (i) => [i.txID, await engine.evmState(i.txID).catch(() => 'unknown' as const)] as const)));
  // Without a receipt, one of a speed-up or cancel pair whose other half ran never will: replaced.
  const ran = (txID: string | undefined) => txID !== undefined && (receipts.get(txID) ?? cache.activity.find((a) => a.txID === txID)?.status) === 'accepted';
  for (const i of unfollowed) {
    if (receipts.get(i.txID) === 'unknown' && (ran(i.replaces) || cache.activity.some((a) => a.replaces === i.txID && ran(a.txID)))) receipts.set(i.txID, 'replaced');
  }
  const successor = await withSuccessorsAsked(engine, entries, successors(cache.activity, moves));
  // An EVM tx that ran is listed with what its receipt charged, no longer the most it could cost.
  const charged = async (item: ActivityItem) => {
    if (isEvmHash(item.txID) && item.fee !== undefined) item.fee = (await evmFeeCharged(engine, item.txID, undefined, BigInt(item.fee))).toString();
  };
  await settleOutbox(engine, outbox, async (settled) => {
    for (const e of entries) {
      // A refused tx listed again: it ran after all, or may have (followed as unclear).
      const fate = e.voided ? settled.get(e.txID) : undefined;
      // A failed move's kept export that ran, may have, or can no longer: its move is told (TransferJournal.keptExportSeen).
      if (isMovesExport(e) && (fate === 'accepted' || fate === 'unclear' || fate === 'replaced')) await keptExportSeen(e.txID, fate);
      if (fate !== 'accepted' && fate !== 'unclear') continue;
      const known = cache.activity.find((a) => a.txID === e.txID);
      // One listed as failed (the node's word, kept: keptWhenRefused in src/background/outbox.ts) is corrected.
      if (known) decideItem(known, fate === 'accepted' ? 'accepted' : 'pending', true);
      else addActivity(cache, { ...e.item, ...(fate === 'accepted' ? { status: 'accepted' as const } : { checking: true }) });
      const listedNow = known ?? cache.activity.find((a) => a.txID === e.txID);
      if (fate === 'accepted' && listedNow) await charged(listedNow);
    }
    for (const item of cache.activity) {
      if (item.status !== 'pending') continue;
      // An X/P one out of the outbox whose rival ran (a tx of the wallet's spending one of its inputs:
      // `replaces`, either way) never can, whatever the node says: replaced.
      const rivalRan = item.chain !== 'C' && !undecided.has(item.txID) && (ran(item.replaces) || cache.activity.some((a) => a.replaces === item.txID && a.status === 'accepted'));
      // An EVM tx is followed through the outbox (txState knows X, P and atomic txs), or by its receipt (above).
      let state = rivalRan ? 'replaced' : undecided.has(item.txID) ? settled.get(item.txID) : isEvmHash(item.txID) ? receipts.get(item.txID) : await engine.txState(item.chain, item.txID);
      // Out of the outbox, the node's "accepted" of an X or P tx is checked against what the tx
      // spends, from the node's own bytes: it may hold bytes it never ran (or answer with others: a
      // failed read is no proof either, and holds up no other item).
      if (state === 'accepted' && !undecided.has(item.txID) && item.chain !== 'C' && (await engine.txFateFromNode(item.chain, item.txID).catch(() => 'not-seen')) !== 'accepted') state = 'unclear';
      // Without its signed bytes a failure cannot be checked against its inputs: unclear, never
      // "failed" — but for an import ("Import now"), whose atomic funds can only be taken once.
      if (state === 'failed' && !undecided.has(item.txID) && item.kind !== 'import') item.checking = true;
      else if (state === 'accepted' || state === 'failed') {
        decideItem(item, state);
        await charged(item);
      } else if (state === 'replaced') {
        // Its nonce went to the speed-up or cancel that replaced it (or it to this one): it never ran.
        decideItem(item, 'replaced');
      } else if (state === 'unclear') item.checking = true;
    }
    await save();
  }, successor);
}

/**
 * The txs taken as accepted whose inputs the node listed again (WalletEngine.contradicted): listed
 * as pending, being checked, taken back (ActivityItem.takenBack), with a stake of theirs pending
 * again, so their funds count once, as the UTXOs the node lists, until the tx is followed to its
 * end anew. Each X/P one that spends funds of its own chain is held again in the outbox as a
 * refused one is (voided, from the node's own hash-checked bytes: refused.ts): every next send on
 * its chain spends what it spends too, so at most one of the two runs, and once one does the other
 * is decided (ran: accepted; its place taken: failed). One taken back before that is still not
 * held (the node would not give its bytes then) is asked for again, if still pending as `stored`
 * (Activity as saved now: a send may have decided it meanwhile). The caller saves the cache,
 * then forgets what the txs were noted to spend (forgetTakenBack): a worker stopped in between
 * finds them contradicted again. `reopened`: the txs taken back now; the warning that says so, if any.
 */
export async function reopenContradicted(engine: WalletEngine, cache: AccountCache, stakes: StakeBook, outbox: Outbox, stored: () => Promise<readonly ActivityItem[]>): Promise<{ reopened: string[]; warning?: string }> {
  const txs = engine.contradicted;
  const reopened = cache.activity.filter((item) => txs.has(item.txID) && item.status === 'accepted');
  for (const item of reopened) Object.assign(item, { status: 'pending', checking: true, takenBack: true });
  // A book that cannot be read counts no stake anyway (BalancesService lists none).
  if (txs.size > 0) {
    await stakes
      .update((records) => {
        for (const s of records) if (txs.has(s.txID) && s.state === 'active') s.state = 'pending';
      })
      .catch(() => undefined);
  }
  const inOutbox = new Map((await outbox.list().catch(() => [])).map((e) => [e.txID, e]));
  const toHold = cache.activity.filter((item) => item.status === 'pending' && item.takenBack && item.chain !== 'C' && (reopened.includes(item) || !inOutbox.has(item.txID)));
  const retried = toHold.filter((item) => !reopened.includes(item));
  const pendingNow = retried.length === 0 ? new Set<string>() : new Set((await stored().catch(() => [])).filter((a) => a.status === 'pending').map((a) => a.txID));
  for (const item of toHold) {
    if (item.chain === 'C' || (retried.includes(item) && !pendingNow.has(item.txID))) continue;
    try {
      const { checking: _checking, takenBack: _takenBack, ...listed } = item;
      const entry = inOutbox.get(item.txID) ?? outboxEntry(item.chain, item.txID, await getTx(engine.node, item.chain, item.txID), listed);
      if (keptInTheWay(entry)) await outbox.holdTakenBack(entry);
    } catch {
      // Bytes the node will not give (or that do not hash to the ID, or cannot be read), or an
      // outbox that cannot be written: nothing held now, the item followed by the node's word,
      // checked; asked again at the next refresh.
    }
  }
  if (txs.size === 0) return { reopened: [] };
  const what = txs.size === 1 ? 'a transaction' : `${txs.size} transactions`;
  // A move's export or import is in its journal, not in Activity: not taken back (docs/architecture.md).
  const moved = [...txs].some((txID) => !cache.activity.some((item) => item.txID === txID));
  const warning = `The node lists again funds that ${what} of this account spent, though it had shown ${txs.size === 1 ? 'it' : 'them'} accepted (a node behind, or one not telling the truth): checked again, and counted as spendable until then, not as staked.${moved ? ` Funds moved between chains by ${txs.size === 1 ? 'it' : 'them'} may show on both chains until then.` : ''}`;
  return { reopened: reopened.map((item) => item.txID), warning };
}

/**
 * Once the cache listing them taken back is saved: what the contradicted txs Activity lists were
 * noted to spend is forgotten, so they are followed anew. A move's (its journal's, not taken back)
 * stays noted: once its import runs, a read listing its input again is not believed (ranElsewhere).
 */
export function forgetTakenBack(engine: WalletEngine, activity: readonly ActivityItem[]): void {
  for (const txID of engine.contradicted) if (activity.some((item) => item.txID === txID)) engine.spent?.forget(txID);
}

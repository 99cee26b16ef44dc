// Funds received on X and P, found as UTXOs a refresh had not seen before (the node has no list of
// a wallet's incoming txs). What the wallet has seen is kept in the account cache.
import { utxoId } from '../core/codec/ids.js';
import { ownersOf } from '../core/codec/rules.js';
import type { Utxo } from '../core/codec/types.js';
import { cb58Encode, parseAddress } from '../core/encoding.js';
import { othersCanSpend, ownedAddressSet, signingIndices } from '../core/tx/utxos.js';
import type { ActivityItem } from '../shared/messages.js';
import { type AccountCache, trimActivity } from './account-cache.js';

/** How many UTXOs missing from the node's answer stay known beyond those it holds now, at least. */
export const KEEP_MISSING_UTXOS = 256;
/**
 * Known UTXOs kept, at most, beyond those the node holds now (a few hundred KB of IDs per chain; the
 * list never shrinks below it, and storage.local is 10 MB for every account and network). A wallet
 * of more that a node answers in part forgets the rest, which then read as received.
 */
export const MAX_KNOWN_UTXOS = 5_000;

/**
 * Whether the keys of `addresses` alone meet a UTXO's owners: one they do not (2-of-2 with a
 * stranger's key) is in no balance, so it is not money received either.
 */
export function spendableBy(addresses: readonly string[]): (u: Utxo) => boolean {
  const owned = ownedAddressSet(addresses.map((a) => parseAddress(a).bytes));
  return (u) => signingIndices(ownersOf(u.output), owned) !== undefined;
}

/**
 * Whether keys not among `addresses` can also spend a UTXO alone (1-of-2 with a stranger): received,
 * but the account's only until that key moves it (AssetBalanceView.shared).
 */
export function sharedBeyond(addresses: readonly string[]): (u: Utxo) => boolean {
  const owned = ownedAddressSet(addresses.map((a) => parseAddress(a).bytes));
  return (u) => {
    const owners = ownersOf(u.output);
    const mine = signingIndices(owners, owned);
    return mine !== undefined && othersCanSpend(owners, owned, mine);
  };
}

/**
 * New UTXOs on `chain` from a tx the wallet did not issue (`moveTxIDs`: its moves' txs) are incoming
 * funds, listed once `proven` (a made-up UTXO is not history) when `ours` (spendableBy: others are
 * recorded, never listed). The first look at a chain only records what is there, proven or not: it
 * is the wallet's past, not news. Later, a new UTXO not proven yet is not recorded, so it is listed
 * once a refresh proves it. A receipt says how much of it `shared` outputs hold (sharedBeyond).
 */
export function noteIncoming(
  cache: AccountCache,
  utxos: readonly Utxo[],
  chain: 'X' | 'P',
  moveTxIDs: ReadonlySet<string>,
  proven: (u: Utxo) => boolean,
  ours: (u: Utxo) => boolean = () => true,
  shared: (u: Utxo) => boolean = () => false,
): ActivityItem[] {
  const before = chain === 'X' ? cache.knownUtxos : cache.knownPUtxos;
  const known = new Set(before ?? []);
  // The wallet's own txs; a tx only received from may still bring another asset in a later look.
  const ownTxs = new Set([...cache.activity.filter((a) => a.kind !== 'receive').map((a) => a.txID), ...moveTxIDs]);
  const listed = new Set(cache.activity.filter((a) => a.kind === 'receive').map((a) => `${a.txID} ${a.assetID}`));
  const firstRefresh = before === undefined || (before.length === 0 && cache.balances.updatedAt === 0);
  const received: ActivityItem[] = [];
  /** This look's receipts by tx and asset: a tx paying several of the wallet's addresses is one item per asset. */
  const receivedIn = new Map<string, ActivityItem>();
  const seen: string[] = [];
  for (const u of utxos) {
    const id = utxoId(u);
    const txID = cb58Encode(u.txID);
    if (known.has(id) || ownTxs.has(txID) || firstRefresh) {
      seen.push(id);
      continue;
    }
    // Proven first: owners a node made up (with no tx to check them against) must not get the
    // UTXO's ID recorded, or its real receipt, proven later, would never be listed.
    if (!proven(u)) continue;
    seen.push(id);
    if (!ours(u)) continue;
    const assetID = cb58Encode(u.assetID);
    const amount = u.output.kind === 'TransferOutput' ? u.output.amount : undefined;
    if (listed.has(`${txID} ${assetID}`)) continue;
    const others = amount !== undefined && shared(u);
    const same = receivedIn.get(`${txID} ${assetID}`);
    if (same) {
      // Its outputs of one asset add up (1 + 2 AVAX to two addresses is 3 AVAX received).
      if (amount !== undefined) same.amount = (BigInt(same.amount ?? 0) + amount).toString();
      if (others) same.shared = (BigInt(same.shared ?? 0) + amount).toString();
      continue;
    }
    const item: ActivityItem = { txID, chain, kind: 'receive', status: 'accepted', assetID, ...(amount !== undefined ? { amount: amount.toString() } : {}), ...(others ? { shared: amount.toString() } : {}), createdAt: Date.now() };
    cache.activity.unshift(item);
    received.push(item);
    receivedIn.set(`${txID} ${assetID}`, item);
  }
  // One missing from this answer stays known, newest first: a node answering in part, or lagging,
  // must not make the wallet's past news when it shows again. As many as were known stay, up to
  // MAX_KNOWN_UTXOS (KEEP_MISSING_UTXOS beyond those held now, at least): the list shrinks back
  // after a flood (spam dust, a lying node's made-up UTXOs) without forgetting an ordinary wallet's.
  const now = new Set(seen);
  const room = Math.max(seen.length + KEEP_MISSING_UTXOS, Math.min(before?.length ?? 0, MAX_KNOWN_UTXOS));
  const kept = [...seen, ...(before ?? []).filter((id) => !now.has(id))].slice(0, room);
  if (chain === 'X') cache.knownUtxos = kept;
  else cache.knownPUtxos = kept;
  trimActivity(cache);
  return received;
}

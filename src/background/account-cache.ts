// What the wallet remembers per network and account (storage.local), so the popup shows it at
// once: the balance snapshot, the activity list, the address indices handed out. Also the storage
// keys of everything else kept per network and account, named here once.
import { isEvmHash } from '../core/engine.js';
import { parseId } from '../core/encoding.js';
import { MAX_DENOMINATION } from '../core/amount.js';
import { GAP_LIMIT, LAST_CHANGE_INDEX, MAX_SCANNED_ADDRESSES } from '../core/scan.js';
import type { ActivityItem, ActivityTrimmed, AssetBalanceView, BalancesView } from '../shared/messages.js';
import { oneAtATime, type StorageArea, storedDigits, storedList } from './storage.js';

/**
 * Funds received are kept apart, the newest this many: anyone can send them (dust of a spam asset),
 * and they must never push out what the wallet signed.
 */
export const MAX_RECEIPTS = 500;
/** The wallet's own items (every kind but funds received), the newest this many: a few hundred bytes each. */
export const MAX_OWN_ACTIVITY = 5_000;
/** The activity list keeps at most this many items. */
export const MAX_ACTIVITY = MAX_RECEIPTS + MAX_OWN_ACTIVITY;

export interface AccountCache {
  /** The highest P-Chain height seen: one below it has the first blocks checked (network-restart.ts). */
  pHeight: string;
  /** IDs of the P-Chain's blocks at heights 0 and 1, as far as seen: they tell a restarted network. */
  pBlocks?: string[];
  receiveNext: number;
  changeNext: number;
  balances: BalancesView;
  activity: ActivityItem[];
  /** What the activity list no longer holds, or never did (absent in caches from before it was recorded). */
  trimmed?: ActivityTrimmed;
  /** X-Chain UTXO IDs refreshes have seen (the last one's, and the newest missing from it: noteIncoming), to tell incoming funds apart. */
  knownUtxos: string[];
  /** The same for the P-Chain (absent in caches from before P-Chain receipts were noted). */
  knownPUtxos?: string[];
  /**
   * The X and P heights read before the last refresh fetched the UTXOs: a UTXO first seen by the
   * next refresh was created above them (where its tx's time is looked for). `C`: the C-Chain
   * height up to which AVAX received was looked for, and `cWei` the C balance then (absent in
   * caches from before it was kept: the snapshot's C balance stands for it); `cMissed`: the last
   * look could not read the blocks, so the next one starts where it did (once).
   */
  heightsBefore?: { X: string; P: string; C?: string; cWei?: string; cMissed?: true };
  /** Since when the node has shown heights below these (network-restart.ts behindSince). */
  behindSince?: number;
}

// `knownUtxos` a parameter only so that the minifier keeps one copy of the literal, not one per caller.
export function emptyCache(knownUtxos: string[] = []): AccountCache {
  return {
    pHeight: '0',
    receiveNext: 1,
    changeNext: 0,
    balances: { updatedAt: 0, refreshing: false, balances: [], waiting: [] },
    activity: [],
    knownUtxos,
  };
}

// ---- storage keys per network and account ----

export const cacheKey = (networkId: string, accountId: string): string => `xpc.cache.${networkId}.${accountId}`;
/**
 * The chains a network entry serves, named by its network ID and X-Chain ID (fixed by its genesis):
 * two entries for one network (a preset and the user's own node for it, or one removed and added
 * again) name the same chains.
 */
export const chainsKey = (networkID: number, xChainID: string): string => `n${networkID}-${xChainID}`;
/**
 * Signed sends the node has not decided on (src/background/outbox.ts): kept per chains
 * (chainsKey), not per network entry, so every entry for a network sees what another sent.
 */
export const outboxKey = (chains: string, accountId: string): string => `xpc.outbox.${chains}.${accountId}`;
/** Where an older version kept an outbox: per network entry (taken in by openOutbox). */
export const entryOutboxKey = (networkId: string, accountId: string): string => `xpc.outbox.${networkId}.${accountId}`;
/**
 * The cross-chain moves' journal (src/background/transfer-journal.ts): per chains too, so a move
 * made through one entry finishes through another, and one node's word about it is every entry's.
 */
export const journalKey = (chains: string, accountId: string): string => `xpc.transfers.${chains}.${accountId}`;
/** Where an older version kept a journal: per network entry (taken in by openJournal). */
export const entryJournalKey = (networkId: string, accountId: string): string => `xpc.transfers.${networkId}.${accountId}`;
/** The chains an outbox or a journal was opened for (a new vault drops every account's on each). Named before journals were kept per chains. */
export const KEPT_CHAINS_KEY = 'xpc.outboxchains';
/** The account's stakes and the rewards found for them (src/background/stake-book.ts). */
export const stakesKey = (networkId: string, accountId: string): string => `xpc.stakes.${networkId}.${accountId}`;
/** What the account's txs taken as accepted spent (src/background/spent-book.ts). */
export const spentKey = (networkId: string, accountId: string): string => `xpc.spent.${networkId}.${accountId}`;
/** What the account's token logs said, as read so far (src/background/token-scan.ts). */
export const tokenScanKey = (networkId: string, accountId: string): string => `xpc.tokenscan.${networkId}.${accountId}`;
/** The tokens listed on a network (for every account; src/background/token-store.ts). */
export const tokensKey = (networkId: string): string => `xpc.tokens.${networkId}`;
/** Assets the user hid on a network (for every account). */
export const hiddenAssetsKey = (networkId: string): string => `xpc.hidden.${networkId}`;

/** Per storage area, the caches' changes in line: made by sends, a refresh (merging its own snapshot), a network's removal. */
const cacheTails = new WeakMap<StorageArea, Promise<unknown>>();

/**
 * How many receive and change keys a phrase's account lists, used or not: the first 20 of each
 * branch, as a scan sees them (the same phrase elsewhere fills them after this one's scan: this
 * wallet on another computer puts its change up to LAST_CHANGE_INDEX, the web wallet and Core's
 * accounts use later receive addresses), and every one handed out, even past those (as many as a
 * scan takes at most: a damaged index cannot ask for millions).
 */
export function listedKeyCounts(c: Pick<AccountCache, 'receiveNext' | 'changeNext'>): { receive: number; change: number } {
  return { receive: Math.min(Math.max(c.receiveNext, GAP_LIMIT), MAX_SCANNED_ADDRESSES), change: Math.min(Math.max(c.changeNext, LAST_CHANGE_INDEX) + 1, MAX_SCANNED_ADDRESSES) };
}

/**
 * Takes in the address indices `other` handed out, the cache of another entry for the same chains:
 * a move made through one finishes through another, its export's funds at the change address the first gave.
 */
export function takeIndices(c: AccountCache, other: AccountCache | undefined): void {
  for (const k of ['receiveNext', 'changeNext'] as const) if (Number.isSafeInteger(other?.[k])) c[k] = Math.max(c[k], other![k]);
}

export class AccountCaches {
  constructor(private readonly local: StorageArea) {}

  async get(networkId: string, accountId: string): Promise<AccountCache> {
    const key = cacheKey(networkId, accountId);
    const c = (await this.local.get([key]))[key] as AccountCache | undefined;
    if (c?.balances instanceof Object && [c.activity, c.knownUtxos].every(Array.isArray) && [c.receiveNext, c.changeNext].every(Number.isSafeInteger)) return repaired(c);
    // A damaged one would stop every refresh and send of the account: read as none, rebuilt by the
    // next refresh, keeping the address indices it still holds (the scan alone stops at 20 empty
    // addresses, short of change handed out after them).
    const none = emptyCache();
    takeIndices(none, c);
    return none;
  }

  /**
   * Applies `change` to the cache as stored right now and saves it: for a request that read the
   * cache before a long wait, so it adds only its own changes and keeps a refresh that ran meanwhile.
   */
  update(networkId: string, accountId: string, change: (c: AccountCache) => void): Promise<void> {
    const run = (cacheTails.get(this.local) ?? Promise.resolve()).then(async () => {
      const c = await this.get(networkId, accountId);
      change(c);
      await this.local.set({ [cacheKey(networkId, accountId)]: c });
    });
    cacheTails.set(this.local, run.catch(() => undefined));
    return run;
  }
}

/**
 * A cache of the right shape damaged inside: what is damaged is dropped (read as none, rebuilt or
 * read again by the next refresh), the rest kept: Activity is the only record of the wallet's sends.
 */
function repaired(c: AccountCache): AccountCache {
  // An item no node can be asked about is dropped; one whose status is damaged is asked about again
  // (never dropped: Sent before needs it); a damaged amount is dropped from it (none is shown).
  c.activity = c.activity.flatMap((i) => {
    if (!(i instanceof Object && ['X', 'P', 'C'].includes(i.chain) && txIdOk(i))) return [];
    for (const k of ['amount', 'fee', 'shared'] as const) if (i[k] !== undefined && !storedDigits(i[k])) delete i[k];
    if (i.takenBack !== undefined && i.takenBack !== true) i.takenBack = true; // damaged: the careful side
    return [['accepted', 'pending', 'failed'].includes(i.status) ? i : { ...i, status: 'pending' as const, checking: true as const }];
  });
  // The popup computes with a snapshot's amounts as it draws: a damaged one drops the snapshot, never the screen.
  const b = c.balances;
  const optionalDigits = (v: unknown) => v === undefined || storedDigits(v);
  const assetOk = (x: AssetBalanceView) =>
    x instanceof Object &&
    [x.chain, x.assetID].every((v) => typeof v === 'string') &&
    [x.spendable, x.locked, x.lockedStakeable].every(storedDigits) &&
    [x.unproven, x.shared, x.sharedLocked].every(optionalDigits) &&
    Number.isInteger(x.denomination) &&
    x.denomination >= 0 &&
    x.denomination <= MAX_DENOMINATION &&
    Array.isArray(x.staked ?? []) &&
    (x.staked ?? []).every((s) => storedDigits(s?.amount));
  if (!(Array.isArray(b.balances) && b.balances.every(assetOk) && Array.isArray(b.waiting) && b.waiting.every((w) => storedDigits(w?.amount)) && optionalDigits(b.moving))) c.balances = emptyCache().balances;
  if (!storedDigits(c.pHeight)) c.pHeight = '0';
  // Damaged, these are read again as none: the next look notes the UTXOs (lists none as received) and the blocks afresh.
  for (const k of ['knownPUtxos', 'pBlocks'] as const) if (c[k] !== undefined && !(Array.isArray(c[k]) && c[k].every((id) => typeof id === 'string'))) delete c[k];
  if (!(c.trimmed === undefined || c.trimmed instanceof Object)) delete c.trimmed;
  if (!(c.behindSince === undefined || Number.isFinite(c.behindSince))) delete c.behindSince;
  const h = c.heightsBefore;
  if (h && !(storedDigits(h.X) && storedDigits(h.P) && [h.C, h.cWei].every(optionalDigits))) delete c.heightsBefore;
  return c;
}

function txIdOk(i: ActivityItem): boolean {
  if (typeof i.txID !== 'string') return false;
  if (i.chain === 'C' && isEvmHash(i.txID)) return true;
  try {
    parseId(i.txID);
    return true;
  } catch {
    return false;
  }
}

/** Puts `item` first in the activity list. */
export function addActivity(c: AccountCache, item: ActivityItem): void {
  c.activity.unshift(item);
  trimActivity(c);
}

/**
 * Sets what is now known of a listed tx. Decided, it is no longer being checked nor taken back;
 * accepted, nothing replaced it; 'replaced' is failed because another tx took its place.
 * `checking`: still pending, it is being checked.
 */
export function decideItem(item: ActivityItem, outcome: ActivityItem['status'] | 'replaced', checking = false): void {
  item.status = outcome === 'replaced' ? 'failed' : outcome;
  if (outcome === 'replaced') item.replaced = true;
  if (item.status === 'pending' && checking) item.checking = true;
  else delete item.checking;
  if (item.status !== 'pending') delete item.takenBack;
  if (item.status === 'accepted') delete item.replaced;
}

/** Keeps the newest MAX_RECEIPTS funds received and MAX_OWN_ACTIVITY other items; notes what goes. */
export function trimActivity(c: AccountCache): void {
  if (c.activity.length <= MAX_RECEIPTS) return;
  const count = { received: 0, own: 0 };
  c.activity = c.activity.filter((a) => {
    const group = a.kind === 'receive' ? 'received' : 'own';
    if (++count[group] <= (group === 'received' ? MAX_RECEIPTS : MAX_OWN_ACTIVITY)) return true;
    noteTrimmed(c, group, a.createdAt);
    return false;
  });
}

export function noteTrimmed(c: AccountCache, group: keyof ActivityTrimmed, time: number | undefined): void {
  if (time !== undefined) c.trimmed = { ...c.trimmed, [group]: Math.max(c.trimmed?.[group] ?? time, time) };
}

/**
 * Saves a refresh over the cache as stored now: a send may have finished while the refresh waited
 * on the node. Items written meanwhile stay, and such a record of a tx wins over the "Received"
 * the refresh inferred from that tx's outputs; a status settled by either side is kept.
 * `startedWith`: the activity the refresh read, each tx's status then (or the "accepted" it saved
 * itself, of one it then took back: reopenContradicted). `takenBack`: an item of the
 * refresh's own that storage does not have is not brought back when it says so.
 */
export function mergeRefresh(stored: AccountCache, refreshed: AccountCache, startedWith: ReadonlyMap<string, ActivityItem['status']>, takenBack: (a: ActivityItem) => boolean = () => false): void {
  const storedById = new Map<string, ActivityItem[]>();
  for (const a of stored.activity) storedById.set(a.txID, [...(storedById.get(a.txID) ?? []), a]);
  // A tx has one receipt per asset; any other record of it is one item, and it wins over them all.
  const counterpart = (mine: ActivityItem) => storedById.get(mine.txID)?.find((a) => a.kind !== 'receive' || mine.kind !== 'receive' || a.assetID === mine.assetID);
  const writtenMeanwhile = (a: ActivityItem): boolean => !startedWith.has(a.txID);
  const matched = new Set<ActivityItem>();
  const activity: ActivityItem[] = [];
  for (const mine of refreshed.activity) {
    // An item the refresh read that is gone from storage was taken back meanwhile (a send refused).
    if (!storedById.has(mine.txID) && (startedWith.has(mine.txID) || takenBack(mine))) continue;
    const theirs = counterpart(mine);
    if (theirs && matched.has(theirs)) continue;
    if (theirs) matched.add(theirs);
    activity.push(theirs ? settledOf(mine, theirs, startedWith.get(theirs.txID)) : mine);
  }
  const added = stored.activity.filter((a) => writtenMeanwhile(a) && !matched.has(a));
  stored.activity = [...added, ...activity];
  noteTrimmed(stored, 'received', refreshed.trimmed?.received);
  noteTrimmed(stored, 'own', refreshed.trimmed?.own);
  noteTrimmed(stored, 'cReceived', refreshed.trimmed?.cReceived);
  trimActivity(stored);
  stored.pHeight = refreshed.pHeight;
  if (refreshed.pBlocks) stored.pBlocks = refreshed.pBlocks;
  stored.balances = refreshed.balances;
  stored.knownUtxos = refreshed.knownUtxos;
  if (refreshed.knownPUtxos) stored.knownPUtxos = refreshed.knownPUtxos;
  if (refreshed.heightsBefore) stored.heightsBefore = refreshed.heightsBefore;
  if (refreshed.behindSince === undefined) delete stored.behindSince;
  stored.receiveNext = Math.max(stored.receiveNext, refreshed.receiveNext);
  stored.changeNext = Math.max(stored.changeNext, refreshed.changeNext);
}

/**
 * One tx's item as the refresh saw it (`mine`) and as stored now (`theirs`, which read `startedAs`
 * when the refresh began, undefined if written since): the one that stays.
 */
function settledOf(mine: ActivityItem, theirs: ActivityItem, startedAs: ActivityItem['status'] | undefined): ActivityItem {
  // A decision wins over "pending", whichever side made it (a send written meanwhile may be one
  // this refresh has just seen decided).
  if (theirs.status === 'pending' && mine.status !== 'pending') {
    const { checking: _wasChecking, takenBack: _wasTakenBack, ...rest } = theirs;
    return { ...rest, status: mine.status, ...(mine.fee !== undefined ? { fee: mine.fee } : {}) };
  }
  if (startedAs === undefined) return theirs;
  // A failure or acceptance the refresh took back ("may have gone through", checked again:
  // settle-activity.ts) stays taken back, unless decided anew meanwhile.
  if (mine.checking && theirs.status !== 'pending' && startedAs === theirs.status) return mine;
  return mine.status === 'pending' && theirs.status !== 'pending' ? theirs : mine;
}

/**
 * Every key kept for one account on one network entry (a new or restored vault drops them all; so
 * does removing the entry). Its outbox and journal are kept per chains, outside these (perChainsKeys).
 */
export function accountStorageKeys(networkId: string, accountId: string): string[] {
  return [cacheKey(networkId, accountId), entryJournalKey(networkId, accountId), entryOutboxKey(networkId, accountId), stakesKey(networkId, accountId), tokenScanKey(networkId, accountId), spentKey(networkId, accountId)];
}

/** Per storage area, the chains already registered in this worker's life. */
const registered = new WeakMap<StorageArea, Set<string>>();

/** Notes `chains` in KEPT_CHAINS_KEY (once per worker life) before anything is kept for it. */
export async function registerChains(area: StorageArea, chains: string): Promise<void> {
  const known = registered.get(area) ?? new Set<string>();
  registered.set(area, known);
  if (known.has(chains)) return;
  await oneAtATime(KEPT_CHAINS_KEY, async () => {
    // Only for dropping them later: a damaged list is written anew rather than stopping sends.
    const list = await registeredChains(area);
    if (!list.includes(chains)) await area.set({ [KEPT_CHAINS_KEY]: [...list, chains] });
  });
  known.add(chains);
}

export const registeredChains = (area: StorageArea): Promise<string[]> =>
  storedList<string>(area, KEPT_CHAINS_KEY, 'the chains kept for').then((l) => l.filter((c) => typeof c === 'string'), () => []);

/** The outbox and journal keys of these accounts on every chains one was opened for. */
export async function perChainsKeys(area: StorageArea, accountIds: readonly string[]): Promise<{ outboxes: string[]; journals: string[] }> {
  const chains = await registeredChains(area);
  const each = (key: (c: string, a: string) => string) => chains.flatMap((c) => accountIds.map((a) => key(c, a)));
  return { outboxes: each(outboxKey), journals: each(journalKey) };
}

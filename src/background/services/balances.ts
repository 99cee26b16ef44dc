// Balances and activity (balances.*, activity.list, settings.*HiddenAssets): the snapshot the popup
// shows at once, a refresh from the node (one at a time per account and network; a failing node leaves the last snapshot
// with the reason), pending sends settled from the outbox, and funds received noted as activity.
import { type Utxo } from '../../core/codec/types.js';
import { cb58Encode, formatAddress } from '../../core/encoding.js';
import { signersOf } from '../../core/tx-senders.js';
import { incomingEvmTransfers } from '../../core/evm-incoming.js';
import { waitingFunds } from '../../core/waiting-funds.js';
import { type AssetBalance, type WalletEngine } from '../../core/engine.js';
import { lockClamp } from '../../core/engine-types.js';
import { isLockedError, WalletError } from '../../core/errors.js';
import type { ActivityItem, AssetBalanceView, BalancesView, ChainName, RequestParams as P } from '../../shared/messages.js';
import { type AccountCache, addActivity, hiddenAssetsKey, MAX_ACTIVITY, mergeRefresh, noteTrimmed, stakesKey, tokenScanKey } from '../account-cache.js';
import { noteIncoming, sharedBeyond, spendableBy } from '../incoming-utxos.js';
import { BEHIND_UNSAID_MS, behindSince, cacheAtHeight, restartable } from '../network-restart.js';
import { listedStates, StakeBook, stakedAmounts } from '../stake-book.js';
import { mapLimited } from '../map-limited.js';
import type { AccountContext, AccountEngines } from '../account-engines.js';
import { refusedMeanwhile } from '../outbox.js';
import { forgetTakenBack, reopenContradicted, settleActivity } from '../settle-activity.js';
import type { SettingsStore } from '../settings.js';
import type { StorageArea } from '../storage.js';
import { tellKeptExport, transferActivity } from '../transfer-journal.js';
import { movingExports } from '../waiting-imports.js';
import type { Preset, NetworksService } from './networks.js';

/** AVAX on the C-Chain counts in wei: 18 decimals. */
const AVAX_EVM_DENOMINATION = 18;

/** How long a refresh may spend finding the blocks of funds received, per chain. */
const DATING_DEADLINE_MS = 10_000;


/** One account's snapshot on one network, as refreshes are kept and BalancesView.of names it. */
const snapshotKey = (networkId: string, accountId: string): string => `${networkId}:${accountId}`;

export class BalancesService {
  /** The refresh running for each network and account (`networkId:accountId`): at most one each. */
  #refreshes = new Map<string, { promise: Promise<BalancesView>; startedAt: number }>();

  constructor(
    private readonly engines: AccountEngines,
    private readonly networks: NetworksService,
    private readonly settings: SettingsStore,
    private readonly local: StorageArea,
    private readonly log?: (line: string) => void,
    /** After each refresh: the account's stakes followed (rewards into Activity; src/background/services/staking.ts). */
    private readonly afterRefresh?: (ctx: AccountContext) => Promise<void>,
  ) {}

  private get caches() {
    return this.engines.caches;
  }

  /** The last known snapshot, at once; optionally starts a refresh without waiting for it. */
  async balancesGet(p: P<'balances.get'>): Promise<BalancesView> {
    const { account, preset } = await this.engines.selected();
    return this.snapshotOf(preset.id, account.id, p.refresh === true);
  }

  /**
   * For a popup opening: the snapshot of the account and network the status named, or null when
   * the selection is another one by now (switched in between). One read of the selection decides
   * both the check and the snapshot read. No refresh: the popup starts it once it has painted, so
   * the refresh's work does not compete with the page's loading.
   */
  async balancesFor(accountId: string, networkId: string): Promise<BalancesView | null> {
    const { account, preset } = await this.engines.selected();
    if (account.id !== accountId || preset.id !== networkId) return null;
    return this.snapshotOf(preset.id, account.id, false);
  }

  private async snapshotOf(networkId: string, accountId: string, refresh: boolean): Promise<BalancesView> {
    const cache = await this.caches.get(networkId, accountId);
    if (refresh) void this.refreshOf(networkId, accountId).catch(() => undefined);
    // Only this account and network's own refresh counts: another's says nothing of this snapshot.
    const of = snapshotKey(networkId, accountId);
    const running = this.#refreshes.get(of);
    if (!running) return { ...cache.balances, refreshing: false, of };
    return { ...cache.balances, refreshing: true, refreshStartedAt: running.startedAt, of };
  }

  /** Refreshes the selected account on the selected network from the node; on failure keeps the old snapshot with the error. */
  async balancesRefresh(): Promise<BalancesView> {
    const { account, preset } = await this.engines.selected();
    return this.refreshOf(preset.id, account.id);
  }

  /** One refresh at a time per network and account; one asked while it runs gets the same answer. */
  private refreshOf(networkId: string, accountId: string): Promise<BalancesView> {
    const key = snapshotKey(networkId, accountId);
    let running = this.#refreshes.get(key);
    if (!running) {
      const startedAt = Date.now();
      const promise = this.refreshNow(networkId, accountId, startedAt).finally(() => this.#refreshes.delete(key));
      running = { promise, startedAt };
      this.#refreshes.set(key, running);
    }
    return running.promise;
  }

  private async refreshNow(networkId: string, accountId: string, startedAt: number): Promise<BalancesView> {
    try {
      const ctx = await this.engines.open(accountId);
      // The network was switched since this refresh was asked for: that one's refresh is asked for anew.
      if (ctx.preset.id !== networkId) return { ...(await this.caches.get(networkId, accountId)).balances, refreshing: false };
      const view = await this.refreshFrom(ctx);
      if (this.afterRefresh) await this.afterRefresh(ctx);
      return view;
    } catch (e) {
      // Locked meanwhile (keys wiped under the scan too): not the node's failure; the popup shows the unlock screen. Removed: nothing to note it in.
      if (isLockedError(e) || (e instanceof WalletError && e.code === 'no-account')) throw e;
      // Whatever went wrong (the node unreachable, slow, lying): the last snapshot stays, with why.
      let failed: BalancesView | undefined;
      const errorCode = e instanceof WalletError ? e.code : 'internal';
      await this.caches.update(networkId, accountId, (c) => {
        const { refreshStartedAt: _started, ...last } = c.balances;
        // Failing since this refresh began (a hung node fails only once the wallet stops waiting).
        failed = c.balances = { ...last, refreshing: false, error: (e as Error).message, errorCode, failingSince: c.balances.failingSince ?? startedAt };
      });
      return failed!;
    }
  }

  private async refreshFrom(ctx: AccountContext): Promise<BalancesView> {
    const { engine, preset, account } = ctx;
    let { cache } = ctx;
    const startedWith = new Map(cache.activity.map((a) => [a.txID, a.status]));
    // Read before the UTXOs: anything new they show was accepted above these heights.
    const [height, xHeight, cHeight] = await Promise.all([engine.node.blocks.P.height(), engine.node.blocks.X.height(), engine.node.eth.blockNumber()]);
    // A local or custom network may be made anew (a restarted local node): told by its first blocks.
    const at = await cacheAtHeight(engine.node.blocks.P, cache, height, restartable(preset.kind, engine.ctx.networkID), (line) => this.log?.(`network ${preset.id}: ${line}`));
    // Restarted (a new cache): the stakes recorded on the old chain are not on this one, and the
    // token scan's blocks are the old chain's (kept, it would never read the new one's). The outbox
    // stays: a node can fake a restart, and a refused send dropped then would no longer keep the
    // next one from paying twice.
    // What its txs spent goes too: the new chain's UTXO IDs start over (its genesis's first).
    if (at !== cache) await Promise.all([this.local.remove([stakesKey(preset.id, account.id), tokenScanKey(preset.id, account.id)]), ctx.spent.clear()]);
    // A node behind what it showed before (a lagging backend, a replay): its older balances do not
    // replace newer ones for a while; the last snapshot stays, with its age, and after a minute with
    // why (a failed refresh).
    else {
      const since = behindSince(cache, height, xHeight);
      if (since !== undefined) {
        await this.caches.update(preset.id, account.id, (c) => void (c.behindSince = since));
        if (Date.now() - since < BEHIND_UNSAID_MS) return { ...cache.balances, refreshing: false };
        throw new WalletError('node-behind', `the node is behind: its P-Chain is at height ${height} and its X-Chain at ${xHeight}, below what it showed before`);
      }
    }
    cache = at;
    const settledCache = cache; // the same object this refresh goes on filling, saved twice
    const outbox = await this.engines.outbox(preset, account.id);
    // Sends this refresh listed from the outbox: one refused meanwhile, and so taken out of Activity, stays out.
    const fromOutbox = new Set<string>();
    const save = async () => {
      const now = await outbox.list();
      await this.caches.update(preset.id, account.id, (stored) => mergeRefresh(stored, settledCache, startedWith, (a) => fromOutbox.has(a.txID) && a.status === 'pending' && refusedMeanwhile(now, a)));
    };
    // A journal that cannot be read or written holds up no refresh: the funds show as waiting all the same.
    const journal = this.engines.journal(preset, account.id);
    const moves = await journal.then((j) => j.list()).catch(() => []);
    const keptExportSeen = (txID: string, fate: 'accepted' | 'unclear' | 'replaced') => tellKeptExport(journal, txID, fate, this.log);
    await settleActivity(engine, cache, outbox, save, moves, keptExportSeen, fromOutbox);

    const avax = cb58Encode(engine.ctx.avaxAssetID);
    // Each chain's UTXOs read once: its balances and the funds received come from the same read.
    // And the chain's time, which its balances read once its UTXOs are: on the P-Chain a stake locks
    // its funds until the chain passes its end, whatever this computer's clock says. A UTXO's lock is
    // judged by that time no further than an hour past the clock (lockClamp: a node far ahead would
    // make locked funds look spendable); a stake's end by the chain's own (its stake comes back as a
    // UTXO then: a clock behind must not count it twice). A node that cannot tell its time fails the
    // refresh (the last snapshot stays).
    const read = async (chain: 'X' | 'P') => {
      const utxos = await engine.utxos(chain);
      const time = await engine.now(chain);
      return [await engine.balances(chain, utxos, chain === 'P' ? lockClamp(time) : time), utxos, time] as const;
    };
    // A move under way imports its own export; a parked one's funds are listed (Import now takes them).
    const leave = movingExports(moves);
    const atomic = () => waitingFunds(engine, leave);
    // With a move under way, atomic memory is read before the balances and after: what it carries
    // counts if there both times, so an export or import run meanwhile (in a balance) never counts twice.
    const before = leave.size > 0 ? await atomic() : undefined;
    const [[x, xUtxos], [pBal, pUtxos, pTime], cWei, { waiting, moving: first }] = await Promise.all([read('X'), read('P'), engine.cBalanceWei(), before ?? atomic()]);
    let moving = 0n;
    if (first.size > 0) for (const [id, n] of (await atomic()).moving) if (first.has(id)) moving += n;
    // A few at a time: anyone can make the account hold assets, as many as they like.
    const balances = await mapLimited(x, 8, async (b): Promise<AssetBalanceView> => {
      const id = cb58Encode(b.assetID);
      // An asset whose CreateAssetTx the node will not show is listed, not allowed to stop the refresh.
      return { chain: 'X', assetID: id, ...(await this.networks.assetDescriptionOrUnknown(preset, id)), verified: id === avax, ...amountsOf(b) };
    });
    const avaxInfo = await this.networks.assetDescription(preset, avax);
    const pAvax = pBal.find((b) => cb58Encode(b.assetID) === avax);
    // Activity is settled above, before the UTXOs were read: a stake not run yet is counted among them, not as staked too;
    // nor one whose funds the node lists again (taken back: reopenContradicted).
    const stakeBook = new StakeBook(this.local, stakesKey(preset.id, account.id));
    const takenBack = await reopenContradicted(engine, cache, stakeBook, outbox, async () => (await this.caches.get(preset.id, account.id)).activity);
    // Its take-back stands over the "accepted" this refresh may have saved itself (settled and taken back in one refresh).
    for (const txID of takenBack.reopened) startedWith.set(txID, 'accepted');
    const stakes = await stakeBook.list().catch(() => []);
    const staked = stakedAmounts(stakes, Number(pTime), listedStates(cache.activity));
    balances.push({ chain: 'P', assetID: avax, ...avaxInfo, verified: true, ...amountsOf(pAvax), ...(staked.length > 0 ? { staked } : {}) });
    balances.push({ chain: 'C', assetID: avax, ...avaxInfo, denomination: AVAX_EVM_DENOMINATION, verified: true, spendable: cWei.toString(), locked: '0', lockedStakeable: '0', unproven: '0' });
    await this.engines.proofs.save().catch((e: unknown) => this.log?.(`UTXO proofs not saved: ${(e as Error).message}`));

    // Read after the UTXOs: a move's tx is journaled before it is sent, so its outputs (an export's
    // change, an import) are always found here and never taken for incoming funds.
    const moveTxIDs = new Set((await this.journalActivity(preset, account.id)).map((m) => m.txID));
    // Every UTXO read is the wallet's to know; only what a tx proves is listed as received.
    const proven = (u: Utxo) => !engine.isUnproven(u);
    const ours = spendableBy(engine.addresses('X'));
    const shared = sharedBeyond(engine.addresses('X'));
    const received = [...noteIncoming(cache, xUtxos, 'X', moveTxIDs, proven, ours, shared), ...noteIncoming(cache, pUtxos, 'P', moveTxIDs, proven, ours, shared)];
    await this.detailReceived(engine, received, cache.heightsBefore);
    const cLooked = await this.noteIncomingEvm(engine, cache, cWei, cHeight);
    cache.heightsBefore = { X: xHeight.toString(), P: height.toString(), ...cLooked };
    const warnings = [...droppedWarnings(engine.droppedUtxos), ...(takenBack.warning ? [takenBack.warning] : [])];
    cache.balances = {
      updatedAt: Date.now(),
      refreshing: false,
      balances,
      waiting: waiting.map((w) => ({ from: w.from as ChainName, to: w.to as ChainName, amount: w.amount.toString(), utxoCount: w.utxoCount })),
      ...(moving > 0n ? { moving: moving.toString() } : {}),
      ...(warnings.length > 0 ? { warnings } : {}),
    };
    await save();
    forgetTakenBack(engine, cache.activity);
    return cache.balances;
  }

  /**
   * Gives funds just received their block's time, searched above the heights read before the last
   * refresh (or in the newest blocks, on a first search), and their sender (the tx's signers: the
   * account's own keys alone mark them `ownKeys`). Those
   * not found keep the time the wallet saw them, said so; a node that cannot tell leaves them so too
   * (it costs no refresh).
   */
  private async detailReceived(engine: WalletEngine, received: ActivityItem[], after: AccountCache['heightsBefore']): Promise<void> {
    const seenAt = Date.now();
    for (const chain of ['X', 'P'] as const) {
      const items = received.filter((r) => r.chain === chain);
      if (items.length === 0) continue;
      // Signed by the account's keys alone: its own tx, made outside this list (ActivityItem.ownKeys).
      const own = new Set(engine.addresses(chain));
      const blocks = engine.node.blocks[chain];
      // One deadline for the whole search: a slow node must not hold the refresh for long.
      const opts = { signal: AbortSignal.timeout(DATING_DEADLINE_MS) };
      const times = await blocks
        .height(opts)
        .then((top) => blocks.acceptedTimes(items.map((i) => i.txID), after ? BigInt(after[chain]) : 0n, top, seenAt, opts))
        .catch((e: unknown) => {
          this.log?.(`${chain}-Chain blocks not read for received funds' times: ${(e as Error).message}`);
          return new Map<string, number>();
        });
      for (const item of items) {
        const at = times.get(item.txID);
        if (at !== undefined) item.createdAt = at;
        else item.timeIsDiscovery = true;
        const from = await signersOf(engine.node, chain, item.txID, opts).catch(() => undefined);
        if (from?.length) item.from = from.map((id) => formatAddress(chain, engine.ctx.hrp, id));
        if (item.from?.every((a) => own.has(a))) item.ownKeys = true;
      }
    }
  }

  /**
   * AVAX others sent to the account on the C-Chain since the last look, looked for only when the
   * balance changed since then (reading C-Chain blocks is heavy): a fall too, since the account's
   * own spends in the same blocks can hide a receipt. Listed at their block's time with their
   * sender. Answers where the next look starts: here, or where this one started when it could not
   * read the blocks (the next refresh tries once more: a node that never can must not slow every
   * refresh). Called before this refresh's snapshot replaces the last one, whose C balance stands
   * for the last look's in older caches.
   */
  private async noteIncomingEvm(engine: WalletEngine, cache: AccountCache, cWei: bigint, cHeightBefore: bigint): Promise<Omit<NonNullable<AccountCache['heightsBefore']>, 'X' | 'P'>> {
    const looked = { C: cHeightBefore.toString(), cWei: cWei.toString() };
    const after = cache.heightsBefore?.C;
    const before = cache.heightsBefore?.cWei ?? cache.balances.balances.find((b) => b.chain === 'C')?.spendable;
    // A look that failed last time is made again even if the balance came back to where it was.
    if (after === undefined || before === undefined || (cWei === BigInt(before) && !cache.heightsBefore?.cMissed)) return looked;
    const opts = { signal: AbortSignal.timeout(DATING_DEADLINE_MS) };
    let look;
    try {
      const top = await engine.node.eth.blockNumber(opts);
      look = await incomingEvmTransfers(engine.node.eth, engine.evmAddress, BigInt(after), top > cHeightBefore ? top : cHeightBefore, opts);
    } catch (e) {
      this.log?.(`C-Chain blocks not read for AVAX received: ${(e as Error).message}`);
      if (!cache.heightsBefore?.cMissed) return { C: after, cWei: before, cMissed: true };
      // Given up on: what came in meanwhile is not listed, and Activity says so.
      noteTrimmed(cache, 'cReceived', Date.now());
      return looked;
    }
    noteTrimmed(cache, 'cReceived', look.unreadBefore);
    const listed = new Set(cache.activity.map((a) => a.txID.toLowerCase()));
    for (const t of look.transfers) {
      if (listed.has(t.hash.toLowerCase())) continue;
      addActivity(cache, { txID: t.hash, chain: 'C', kind: 'receive', status: 'accepted', amount: t.value.toString(), from: [t.from], createdAt: t.timeMs, ...(t.timeIsDiscovery ? { timeIsDiscovery: true } : {}) });
    }
    return looked;
  }

  /**
   * The account's transactions, newest first: the cached list, with the export and imports of every
   * journaled move (the journal is their record; the cache never holds them), each asset named
   * (held or not), and up to when items were dropped to keep the list's size (`trimmed`).
   */
  async activityList() {
    const { account, preset } = await this.engines.selected();
    const cache = await this.caches.get(preset.id, account.id);
    const moves = await this.journalActivity(preset, account.id);
    const inJournal = new Set(moves.map((m) => m.txID));
    const items = [...moves, ...cache.activity.filter((a) => !inJournal.has(a.txID))];
    // Stable: items created in the same millisecond keep the cache's newest-first order.
    items.sort((a, b) => b.createdAt - a.createdAt);
    // The list stops at MAX_ACTIVITY (the cache's items and the moves' together): a cut is said too.
    const cut = items[MAX_ACTIVITY]?.createdAt;
    const trimmed = cut === undefined ? cache.trimmed : { ...cache.trimmed, own: Math.max(cache.trimmed?.own ?? cut, cut) };
    return { items: await this.networks.nameAssets(preset, items.slice(0, MAX_ACTIVITY)), ...(trimmed ? { trimmed } : {}) };
  }

  /** The move txs of the account's journal as activity items; none while the journal is unreadable (Move shows why). */
  private async journalActivity(preset: Preset, accountId: string): Promise<ActivityItem[]> {
    const records = await this.engines
      .journal(preset, accountId, true)
      .then((journal) => journal.list())
      .catch(() => []);
    if (records.length === 0) return [];
    // A known network's asset ID needs no node (a restarted worker has not read its identity yet);
    // the Local network's does: with its node down, the moves wait and the rest is listed.
    const avax = preset.known?.avaxAssetID ?? (await this.networks.identity(preset).catch(() => undefined))?.avaxAssetID;
    return avax ? records.flatMap((r) => transferActivity(r, avax)) : [];
  }

  /** Hidden asset IDs of a network (not per account: an asset is hidden wherever it shows). */
  async settingsGetHiddenAssets(p: P<'settings.getHiddenAssets'>) {
    const key = hiddenAssetsKey(p.networkId);
    const stored = (await this.local.get([key]))[key];
    const assetIDs = Array.isArray(stored) ? stored.filter((id): id is string => typeof id === 'string') : [];
    return { assetIDs };
  }

  async settingsSetHiddenAssets(p: P<'settings.setHiddenAssets'>) {
    // Written for the network the list was shown for only: one switched to in another window keeps its own.
    if ((await this.settings.read()).selectedNetworkId !== p.networkId) throw new WalletError('selection-changed', 'the network was switched in another window');
    await this.local.set({ [hiddenAssetsKey(p.networkId)]: p.assetIDs });
    return { ok: true as const };
  }
}

/**
 * The UTXOs a refresh left out, in words: per chain, how many, and why (a node's bad checksum is
 * not a zero balance: the user is told that something was not counted).
 */
const DROP_REASONS: readonly (readonly [string, string])[] = [
  ['bad hex', 'its checksum or encoding is wrong'],
  ['undecodable', 'it is not a valid UTXO'],
  ['owned by none', "it belongs to none of this account's addresses"],
  ['the node sent two different', 'two different ones came under one ID'],
  ['disproven', 'the transaction that would have created it says otherwise'],
  ['created by a transaction whose inputs', 'the node also lists as unspent what the transaction that created it spent'],
  ['spent by a move', 'a move between chains spent it, and its funds arrived on the other chain'],
];

function droppedWarnings(dropped: WalletEngine['droppedUtxos']): string[] {
  const byChain = new Map<string, Set<string>>();
  const reasons = new Map<string, Set<string>>();
  for (const d of dropped) {
    const where = d.sourceChain ? `${d.chain}-Chain's atomic memory (from the ${d.sourceChain}-Chain)` : `${d.chain}-Chain`;
    const ids = byChain.get(where) ?? new Set<string>();
    ids.add(d.id ?? d.reason);
    byChain.set(where, ids);
    const why = reasons.get(where) ?? new Set<string>();
    why.add(DROP_REASONS.find(([start]) => d.reason.startsWith(start))?.[1] ?? 'it does not hold up');
    reasons.set(where, why);
  }
  return [...byChain].map(([where, ids]) => `The node sent ${ids.size} ${ids.size === 1 ? 'entry' : 'entries'} for the ${where} that the wallet could not check (${[...reasons.get(where)!].join('; ')}): not counted in these balances.`);
}

/** A balance's amounts as the popup gets them (zero when the chain holds none of the asset). */
function amountsOf(b: AssetBalance | undefined): Pick<AssetBalanceView, 'spendable' | 'locked' | 'lockedStakeable' | 'unproven' | 'shared' | 'sharedLocked'> {
  const amounts = { spendable: (b?.spendable ?? 0n).toString(), locked: (b?.locked ?? 0n).toString(), lockedStakeable: (b?.lockedStakeable ?? 0n).toString(), unproven: (b?.unproven ?? 0n).toString() };
  return { ...amounts, ...(b?.shared ? { shared: b.shared.toString() } : {}), ...(b?.sharedLocked ? { sharedLocked: b.sharedLocked.toString() } : {}) };
}

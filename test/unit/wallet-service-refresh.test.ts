// Refreshes through the wallet service: one saved over what other requests wrote meanwhile, one the
// node cannot answer, two accounts' at once; and Activity read from what the wallet holds.
import { describe, expect, it } from 'vitest';
import type { ActivityItem } from '../../src/shared/messages.js';
import { Session } from '../../src/background/session.js';
import { memoryStores } from '../../src/background/storage.js';
import { Vault } from '../../src/background/vault.js';
import { type AccountCache, cacheKey, emptyCache, entryJournalKey, mergeRefresh } from '../../src/background/account-cache.js';
import { stakingCsv } from '../../src/background/staking-csv.js';
import { createWallet } from '../../src/background/services/index.js';
import { cb58Encode } from '../../src/core/encoding.js';
import { generateMnemonic } from '../../src/core/keys.js';
import { KeysWipedError } from '../../src/core/errors.js';
import type { AccountEngines } from '../../src/background/account-engines.js';
import { service } from './wallet-service-test-kit.js';

describe('a refresh saved over what other requests wrote meanwhile', () => {
  const item = (txID: string, kind: ActivityItem['kind'], status: ActivityItem['status']): ActivityItem => ({ txID, chain: 'X', kind, status, createdAt: 1 });
  const cacheWith = (activity: ActivityItem[], extra: Partial<AccountCache> = {}): AccountCache => ({
    pHeight: '10',
    receiveNext: 1,
    changeNext: 0,
    balances: { updatedAt: 1, refreshing: false, balances: [], waiting: [] },
    activity,
    knownUtxos: [],
    ...extra,
  });

  it('keeps a send written meanwhile over the "Received" the refresh inferred for its tx, and adds what it did not see', () => {
    const stored = cacheWith([item('late', 'send', 'pending'), item('sent', 'send', 'accepted'), item('old', 'send', 'pending')]);
    const refreshed = cacheWith([item('sent', 'receive', 'accepted'), item('old', 'send', 'pending')], { pHeight: '12', knownUtxos: ['u1'], receiveNext: 3 });
    mergeRefresh(stored, refreshed, new Map([['old', 'pending']]));
    expect(stored.activity.map((a) => `${a.txID}:${a.kind}`)).toEqual(['late:send', 'sent:send', 'old:send']);
    expect(stored).toMatchObject({ pHeight: '12', knownUtxos: ['u1'], receiveNext: 3 });
  });

  it('a status settled by either side wins over pending', () => {
    const stored = cacheWith([item('a', 'send', 'accepted'), item('b', 'mint', 'pending')]);
    const refreshed = cacheWith([item('a', 'send', 'pending'), item('b', 'mint', 'failed')]);
    mergeRefresh(stored, refreshed, new Map([['a', 'pending'], ['b', 'pending']]));
    expect(stored.activity.map((a) => `${a.txID}:${a.status}`)).toEqual(['a:accepted', 'b:failed']);
  });

  it('a failure the refresh took back ("may have gone through") stays taken back; one failed anew meanwhile stays failed', () => {
    const corrected = { ...item('held', 'send', 'pending'), checking: true };
    const stored = cacheWith([item('held', 'send', 'failed')]);
    mergeRefresh(stored, cacheWith([corrected]), new Map([['held', 'failed']]));
    expect(stored.activity).toEqual([corrected]);
    // Pending when the refresh began, failed since (the send's own wait decided it): that decision stays.
    const decided = cacheWith([item('held', 'send', 'failed')]);
    mergeRefresh(decided, cacheWith([corrected]), new Map([['held', 'pending']]));
    expect(decided.activity).toEqual([item('held', 'send', 'failed')]);
  });

  it('a decision the refresh made wins over a pending send written meanwhile (its outbox entry is gone: it would stay pending forever)', () => {
    const stored = cacheWith([{ ...item('late', 'send', 'pending'), checking: true, fee: '99' }]);
    const refreshed = cacheWith([{ ...item('late', 'send', 'accepted'), fee: '42' }]);
    mergeRefresh(stored, refreshed, new Map());
    expect(stored.activity).toEqual([{ ...item('late', 'send', 'accepted'), fee: '42' }]);
  });

  it('an item the refresh read that storage no longer has (a refused send taken back) does not come back', () => {
    const stored = cacheWith([item('kept', 'send', 'pending')]);
    const refreshed = cacheWith([item('refused', 'send', 'pending'), item('kept', 'send', 'pending'), item('new', 'receive', 'accepted')]);
    mergeRefresh(stored, refreshed, new Map([['refused', 'pending'], ['kept', 'pending']]));
    expect(stored.activity.map((a) => a.txID)).toEqual(['kept', 'new']);
  });

  it('items the refresh dropped (a restarted local network) stay dropped, with the new chain\'s first blocks; address indices never go back', () => {
    const stored = cacheWith([item('ghost', 'send', 'accepted')], { receiveNext: 5, changeNext: 4, pBlocks: ['old genesis'] });
    const refreshed = cacheWith([], { receiveNext: 2, changeNext: 1, pHeight: '3', pBlocks: ['new genesis'] });
    mergeRefresh(stored, refreshed, new Map([['ghost', 'accepted']]));
    expect(stored).toMatchObject({ activity: [], receiveNext: 5, changeNext: 4, pHeight: '3', pBlocks: ['new genesis'] });
  });
});

describe('a refresh the node cannot answer', () => {
  it('keeps the last snapshot and says why, with the error code and since when refreshes fail; a lock is not a node failure', async () => {
    const stores = memoryStores();
    const session = new Session(new Vault(stores, { kdfIterationsForTesting: 1_000 }), stores);
    const fetchFails: typeof fetch = () => Promise.reject(new TypeError('Failed to fetch'));
    const wallet = createWallet(session, stores.local, { fetch: fetchFails });
    await wallet.accounts.walletCreate({ password: 'long enough', mnemonic: generateMnemonic(12) });

    const first = await wallet.balances.balancesRefresh();
    expect(first).toMatchObject({ refreshing: false, updatedAt: 0, errorCode: 'node-unreachable', error: expect.stringContaining('unreachable') });
    const since = first.failingSince!;
    expect(since).toBeGreaterThan(0);
    // A second failure keeps the first one's time: "since when" does not move on each retry.
    await new Promise((r) => setTimeout(r, 5));
    const second = await wallet.balances.balancesRefresh();
    expect(second.failingSince).toBe(since);
    expect((await wallet.balances.balancesGet({})).failingSince).toBe(since);

    // Locked meanwhile: the refresh fails with the lock, and the snapshot records no node failure.
    await wallet.accounts.walletLock();
    await expect(wallet.balances.balancesRefresh()).rejects.toMatchObject({ code: 'vault-locked' });
  });

  it('a lock that wipes the keys while a refresh scans is the lock too: refused as locked, no node failure recorded', async () => {
    const stores = memoryStores();
    const session = new Session(new Vault(stores, { kdfIterationsForTesting: 1_000 }), stores);
    const wallet = createWallet(session, stores.local, { fetch: () => Promise.reject(new TypeError('Failed to fetch')) });
    await wallet.accounts.walletCreate({ password: 'long enough', mnemonic: generateMnemonic(12) });
    // The HD root wiped under the scan (the lock landed between two derivations).
    const engines = (wallet.balances as unknown as { engines: AccountEngines }).engines;
    engines.open = () => Promise.reject(new KeysWipedError());

    await expect(wallet.balances.balancesRefresh()).rejects.toBeInstanceOf(KeysWipedError);
    const kept = await wallet.balances.balancesGet({});
    expect(kept.errorCode).toBeUndefined();
    expect(kept.failingSince).toBeUndefined();
  });
});

describe('refreshes of two accounts', () => {
  it('each has its own: a slow one of the account switched away from neither stands for nor holds up the other\'s', async () => {
    const stores = memoryStores();
    const session = new Session(new Vault(stores, { kdfIterationsForTesting: 1_000 }), stores);
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    let hold = true;
    // The node hangs while `hold`, then cannot be reached.
    const fetchHangs: typeof fetch = async () => {
      if (hold) await held;
      throw new TypeError('Failed to fetch');
    };
    const wallet = createWallet(session, stores.local, { fetch: fetchHangs });
    await wallet.accounts.walletCreate({ password: 'long enough', mnemonic: generateMnemonic(12) });
    const a = await wallet.balances.balancesGet({ refresh: true });
    await new Promise((r) => setTimeout(r, 5));
    expect((await wallet.balances.balancesGet({})).refreshing).toBe(true);
    expect(a.refreshing).toBe(true);

    const b = await wallet.accounts.accountsAdd({ name: 'B' });
    await wallet.accounts.accountsSelect({ id: b.id });
    expect((await wallet.balances.balancesGet({})).refreshing).toBe(false);
    hold = false;
    // B's own refresh runs (and fails in words) while A's still hangs.
    const bRefreshed = await wallet.balances.balancesRefresh();
    expect(bRefreshed).toMatchObject({ refreshing: false, errorCode: 'node-unreachable' });
    release();
  });
});

describe('what Activity no longer holds', () => {
  it('activity.list says it (from the cache), and the CSV of everything passes it on for its screen to say', async () => {
    const { wallet, stores } = service();
    const status = await wallet.accounts.walletCreate({ password: 'long enough', mnemonic: generateMnemonic(12) });
    const item: ActivityItem = { txID: cb58Encode(new Uint8Array(32).fill(9)), chain: 'X', kind: 'send', status: 'accepted', createdAt: 9_000 };
    expect(await wallet.balances.activityList()).toEqual({ items: [] });
    await stores.local.set({ [cacheKey(status.network!.id, status.account!.id)]: { ...emptyCache(), activity: [item], trimmed: { received: 5_000 } } });
    const list = await wallet.balances.activityList();
    expect(list).toEqual({ items: [item], trimmed: { received: 5_000 } });
    expect(stakingCsv([], list, 'AVAX').trimmed).toEqual({ received: 5_000 });
    expect(stakingCsv([], { items: [item] }, 'AVAX')).not.toHaveProperty('trimmed');
  });
});

describe('Activity on the Local network with its node down', () => {
  it('lists what the wallet holds when a move is journaled and the node was never asked who it is (a restarted worker)', async () => {
    const stores = memoryStores();
    const down: typeof fetch = () => Promise.reject(new TypeError('fetch failed'));
    const wallet = createWallet(new Session(new Vault(stores, { kdfIterationsForTesting: 1_000 }), stores), stores.local, { fetch: down });
    const status = await wallet.accounts.walletCreate({ password: 'long enough', mnemonic: generateMnemonic(12) });
    expect(status.network!.id).toBe('local');
    const item: ActivityItem = { txID: cb58Encode(new Uint8Array(32).fill(9)), chain: 'X', kind: 'send', status: 'accepted', createdAt: 1 };
    const move = { id: 'm1', from: 'X', to: 'P', amount: '1000', state: 'completed', export: { chain: 'X', txID: 'exp1', signedHex: '', fee: '1', accepted: true }, imports: [], importAttempts: 0, createdAt: 2, updatedAt: 3 };
    await stores.local.set({ [cacheKey('local', status.account!.id)]: { ...emptyCache(), activity: [item] }, [entryJournalKey('local', status.account!.id)]: [move] });
    expect((await wallet.balances.activityList()).items).toEqual([item]);
  });
});

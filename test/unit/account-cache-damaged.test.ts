// A cached balance snapshot damaged in storage (src/background/account-cache.ts repaired()): the
// popup computes with its amounts as it draws, so a damaged entry drops the whole snapshot (read as
// none: "loading" until the next refresh rebuilds it) while the rest of the cache stays.
import { describe, expect, it } from 'vitest';
import { AccountCaches, cacheKey, emptyCache, type AccountCache } from '../../src/background/account-cache.js';
import { memoryStores } from '../../src/background/storage.js';
import { noteIncoming } from '../../src/background/incoming-utxos.js';
import { cb58Encode } from '../../src/core/encoding.js';
import type { AssetBalanceView, BalancesView } from '../../src/shared/messages.js';

const AVAX = 'FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z';
const pAvax: AssetBalanceView = {
  chain: 'P',
  assetID: AVAX,
  name: 'Avalanche',
  symbol: 'AVAX',
  denomination: 9,
  verified: true,
  spendable: '1000',
  locked: '0',
  lockedStakeable: '0',
  unproven: '0',
  staked: [{ amount: '25', unlocksAt: 1_900_000_000 }, { amount: '5', unlocksAt: null }],
};
const good: BalancesView = { updatedAt: 1234, refreshing: false, balances: [pAvax], waiting: [{ from: 'X', to: 'P', amount: '7', utxoCount: 1 }], moving: '3' };
const activity: AccountCache['activity'] = [{ txID: cb58Encode(new Uint8Array(32).fill(1)), chain: 'X', kind: 'send', status: 'accepted', createdAt: 1 }];

async function read(balances: unknown): Promise<AccountCache> {
  const { local } = memoryStores();
  await local.set({ [cacheKey('n', 'a')]: { ...emptyCache(), activity, receiveNext: 4, balances } });
  return new AccountCaches(local).get('n', 'a');
}

describe('a cached balance snapshot with a damaged entry', () => {
  it('a good snapshot is kept as is (an older one without unproven too)', async () => {
    expect((await read(good)).balances).toEqual(good);
    const { unproven: _u, ...older } = pAvax;
    const old = { ...good, balances: [older] };
    expect((await read(old)).balances).toEqual(old);
  });

  const damaged: [string, unknown][] = [
    ['spendable "garbage"', { ...good, balances: [{ ...pAvax, spendable: 'garbage' }] }],
    ['denomination 99', { ...good, balances: [{ ...pAvax, denomination: 99 }] }],
    ['denomination 1.5', { ...good, balances: [{ ...pAvax, denomination: 1.5 }] }],
    ['a negative locked', { ...good, balances: [{ ...pAvax, locked: '-1' }] }],
    ['an unproven of "1e3"', { ...good, balances: [{ ...pAvax, unproven: '1e3' }] }],
    ['a shared of 5 (a number)', { ...good, balances: [{ ...pAvax, shared: 5 }] }],
    ['no assetID', { ...good, balances: [{ ...pAvax, assetID: undefined }] }],
    ['a staked amount "x"', { ...good, balances: [{ ...pAvax, staked: [{ amount: 'x', unlocksAt: 1 }] }] }],
    ['staked not a list', { ...good, balances: [{ ...pAvax, staked: {} }] }],
    ['a waiting amount "?"', { ...good, waiting: [{ from: 'X', to: 'P', amount: '?', utxoCount: 1 }] }],
    ['moving "lots"', { ...good, moving: 'lots' }],
  ];
  it.each(damaged)('%s: the snapshot is dropped (none), the activity and address indices kept', async (_name, balances) => {
    const c = await read(balances);
    expect(c.balances).toEqual(emptyCache().balances);
    expect(c.activity).toEqual(activity);
    expect(c.receiveNext).toBe(4);
  });
});

describe("a cache's other records damaged in storage", () => {
  it('the P-Chain UTXOs and blocks noted, the trimmed times and the behind mark read as none, the rest kept: a refresh then notes them afresh (it failed on every one before)', async () => {
    for (const damage of [{ knownPUtxos: {} }, { knownPUtxos: 5 }, { knownPUtxos: 'x' }, { knownPUtxos: [1] }, { pBlocks: 'x' }, { trimmed: 7 }, { behindSince: 'soon' }]) {
      const { local } = memoryStores();
      await local.set({ [cacheKey('n', 'a')]: { ...emptyCache(), activity, balances: good, knownPUtxos: ['kept'], ...damage } });
      const cache = await new AccountCaches(local).get('n', 'a');
      expect(cache.activity, JSON.stringify(damage)).toEqual(activity);
      expect(cache.balances).toEqual(good);
      for (const k of Object.keys(damage)) expect(cache[k as keyof AccountCache], JSON.stringify(damage)).toBeUndefined();
      expect(() => noteIncoming(cache, [], 'P', new Set(), () => true)).not.toThrow();
    }
  });
});

// A refresh names the X-Chain assets the account holds a few at a time (src/background/services/balances.ts):
// anyone can send it assets, as many as they like, and one by one each would cost a round trip
// before the balances show. Their order is kept.
import { describe, expect, it } from 'vitest';
import { AccountCaches, emptyCache } from '../../src/background/account-cache.js';
import type { AccountEngines } from '../../src/background/account-engines.js';
import { BalancesService } from '../../src/background/services/balances.js';
import type { NetworksService } from '../../src/background/services/networks.js';
import type { SettingsStore } from '../../src/background/settings.js';
import { memoryStores } from '../../src/background/storage.js';
import { cb58Encode } from '../../src/core/encoding.js';

const AVAX = new Uint8Array(32);
const assets = Array.from({ length: 20 }, (_, i) => new Uint8Array(32).fill(i + 1));
const ids = assets.map((a) => cb58Encode(a));

describe('the X-Chain assets a refresh names', () => {
  it('are looked up 8 at a time, listed in the order held', async () => {
    const { local } = memoryStores();
    const preset = { id: 'n', kind: 'mainnet' };
    const account = { id: 'a' };
    const none = async () => [];
    const engine = {
      node: { blocks: { P: { height: async () => 10n }, X: { height: async () => 10n } }, eth: { blockNumber: async () => 10n } },
      ctx: { avaxAssetID: AVAX, networkID: 1, hrp: 'avax' },
      utxos: none,
      now: async () => 1000n,
      balances: async (chain: string) => (chain === 'X' ? assets.map((assetID) => ({ assetID, spendable: 1n })) : []),
      atomicSpendable: none,
      cBalanceWei: async () => 0n,
      isUnproven: () => false,
      addresses: () => [],
      droppedUtxos: [],
      contradicted: new Set(),
    };
    const caches = new AccountCaches(local);
    const list = { list: none };
    const engines = { caches, open: async () => ({ engine, preset, account, cache: emptyCache() }), selected: async () => ({ preset, account }), outbox: async () => list, journal: async () => list, proofs: { save: async () => undefined } };
    let now = 0;
    let most = 0;
    const networks = {
      assetDescription: async () => ({ name: 'Avalanche', symbol: 'AVAX', denomination: 9 }),
      assetDescriptionOrUnknown: async (_p: unknown, id: string) => {
        most = Math.max(most, ++now);
        // The first answered last: the list keeps the order held all the same.
        await new Promise((r) => setTimeout(r, 20 - ids.indexOf(id)));
        now--;
        return { name: id, symbol: 'T', denomination: 0 };
      },
    };
    const service = new BalancesService(engines as unknown as AccountEngines, networks as unknown as NetworksService, {} as SettingsStore, local);
    const view = await service.balancesRefresh();
    expect(view.error).toBeUndefined();
    expect(most).toBe(8);
    const x = view.balances.filter((b) => b.chain === 'X');
    expect(x.map((b) => b.assetID)).toEqual(ids);
    expect(x.map((b) => b.name)).toEqual(x.map((b) => b.assetID));
  });
});

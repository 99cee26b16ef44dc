// Removing a network entry whose older record of sends cannot be read (the advice the refusal gives,
// src/background/account-engines.ts takingIn): with another entry for the same chains selected, its
// sends are at risk at once, not only after adding the removed one again; the question says so.
import { describe, expect, it } from 'vitest';
import { AccountCaches } from '../../src/background/account-cache.js';
import { AccountEngines } from '../../src/background/account-engines.js';
import type { Keyring } from '../../src/background/keyring.js';
import { NetworksService } from '../../src/background/services/networks.js';
import { emptyState, SettingsStore } from '../../src/background/settings.js';
import { memoryStores } from '../../src/background/storage.js';
import { PRESETS } from '../../src/core/network.js';

describe('removing an entry whose older record of sends is damaged', () => {
  it('asks first, saying that a later send on the same network, under any entry, is not kept from paying twice', async () => {
    const { local } = memoryStores();
    const pinned = { networkID: 1, evmChainID: 43114, ...PRESETS.mainnet.known! };
    const state = { ...emptyState(), accounts: [{ id: 'acc', name: 'A', kind: 'hd' as const, index: 0 }], selectedAccountId: 'acc', nextHdIndex: 1, selectedNetworkId: 'mainnet' };
    const customNetworks = [{ id: 'custom-1', name: 'My mainnet node', url: 'http://127.0.0.1:1', atomicNamespace: 'avax', pinned }];
    await local.set({ 'xpc.state': { ...state, customNetworks }, 'xpc.outbox.custom-1.acc': { not: 'a list' } });
    const settings = new SettingsStore(local);
    const networks = new NetworksService(settings, local, { status: async () => Promise.reject(new Error('unused')) });
    const engines = new AccountEngines(settings, networks, {} as Keyring, new AccountCaches(local), local);
    const mainnet = () => settings.read().then((s) => networks.presetOf(s, 'mainnet'));
    await expect(engines.outbox(await mainnet(), 'acc')).rejects.toMatchObject({ code: 'storage-corrupt' });
    const asked = networks.networksRemove({ id: 'custom-1' });
    await expect(asked).rejects.toMatchObject({ code: 'network-has-sends' });
    await expect(asked).rejects.toThrow('removing it forgets them: a later send on the same network, under any entry, would not be kept from paying twice. Remove it anyway?');
    await networks.networksRemove({ id: 'custom-1', confirmLoss: true });
    // The selected Mainnet sends again, without what that record held: what the question warned of.
    expect(await (await engines.outbox(await mainnet(), 'acc')).list()).toEqual([]);
  });
});

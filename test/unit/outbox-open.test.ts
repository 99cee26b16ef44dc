// An outbox kept per chains (openOutbox): older outboxes kept with a network entry taken in, what
// could still run counted, and one that cannot be read named with how to clear it.
import { describe, expect, it } from 'vitest';
import { openOutbox, sendsInTheWay } from '../../src/background/outbox.js';
import { AccountCaches, chainsKey, entryOutboxKey, outboxKey, perChainsKeys } from '../../src/background/account-cache.js';
import { AccountEngines } from '../../src/background/account-engines.js';
import type { Keyring } from '../../src/background/keyring.js';
import { NetworksService } from '../../src/background/services/networks.js';
import { emptyState, SettingsStore } from '../../src/background/settings.js';
import { PRESETS } from '../../src/core/network.js';
import { memoryStores } from '../../src/background/storage.js';
import type { WalletError } from '../../src/core/errors.js';
import { plainError } from '../../src/popup/errors.js';
import type { ActivityItem } from '../../src/shared/messages.js';

describe('an outbox kept per chains (openOutbox)', () => {
  const entry = (txID: string) => ({ chain: 'X' as const, txID, signedHex: '00', item: {} as ActivityItem, createdAt: 1, resends: 0, voided: true });

  it("takes in the one an older version kept with the network entry, each tx once, and registers the chains for a new vault's clean-up", async () => {
    const { local } = memoryStores();
    await local.set({ 'xpc.outbox.custom-1.acc': [entry('old'), entry('both')], 'xpc.outboxchains': 'damaged' });
    const outbox = await openOutbox(local, chainsKey(5, 'X5'), 'acc', [entryOutboxKey('custom-1', 'acc')]);
    await outbox.put(entry('new'));
    const again = await openOutbox(local, chainsKey(5, 'X5'), 'acc', [entryOutboxKey('custom-2', 'acc')]);
    expect((await again.list()).map((e) => e.txID)).toEqual(['old', 'both', 'new']);
    expect(local.keys()).not.toContain('xpc.outbox.custom-1.acc');
    expect((await perChainsKeys(local, ['acc', 'other'])).outboxes).toEqual([outbox.key, outboxKey(chainsKey(5, 'X5'), 'other')]);
  });

  it('names what could still run (sendsInTheWay): a send and a later one racing it for its funds are one; one whose rival was accepted (gone) none; an unreadable outbox one, by its key', async () => {
    const { local } = memoryStores();
    const pair = [{ ...entry('a'), voided: false, replacedBy: 'b' }, { ...entry('b'), voided: false }];
    await local.set({ k1: pair, k2: [pair[0]], k3: 'damaged' });
    expect(await sendsInTheWay(local, ['k1'])).toEqual(['b']);
    expect(await sendsInTheWay(local, ['k2'])).toEqual([]);
    expect(await sendsInTheWay(local, ['k1', 'k2', 'k3', 'absent'])).toEqual(['b', 'k3']);
    // One that ran, kept until the next send is told, is decided: none.
    await local.set({ k4: [{ ...entry('ran'), ran: true }] });
    expect(await sendsInTheWay(local, ['k4'])).toEqual([]);
  });

  it('an older one that is not a list stops the opening (storage-corrupt): what it held is unknown, and it stays as it was', async () => {
    const { local } = memoryStores();
    await local.set({ 'xpc.outbox.custom-1.acc': { not: 'a list' } });
    await expect(openOutbox(local, chainsKey(5, 'X5'), 'acc', [entryOutboxKey('custom-1', 'acc')])).rejects.toMatchObject({ code: 'storage-corrupt' });
    expect(local.keys().sort()).toEqual(['xpc.outbox.custom-1.acc', 'xpc.outboxchains']);
  });

  it("opened through one entry, takes in the older outboxes of every entry known to serve the same chains (a refused tx there is in this entry's way at once)", async () => {
    const { local } = memoryStores();
    const mainnet = PRESETS.mainnet.known!;
    const pinned = { networkID: 1, evmChainID: 43114, ...mainnet };
    const state = { ...emptyState(), accounts: [{ id: 'acc', name: 'A', kind: 'hd' as const, index: 0 }], selectedAccountId: 'acc', nextHdIndex: 1, selectedNetworkId: 'mainnet' };
    const customNetworks = [
      { id: 'custom-1', name: 'My mainnet node', url: 'http://127.0.0.1:1', atomicNamespace: 'avax', pinned },
      { id: 'custom-2', name: 'Fuji node', url: 'http://127.0.0.1:1', atomicNamespace: 'avax', pinned: { ...pinned, networkID: 5, xChainID: PRESETS.fuji.known!.xChainID } },
    ];
    await local.set({ 'xpc.state': { ...state, customNetworks }, 'xpc.outbox.custom-1.acc': [entry('refused-there')], 'xpc.outbox.custom-2.acc': [entry('on-fuji')] });
    const settings = new SettingsStore(local);
    const networks = new NetworksService(settings, local, { status: async () => Promise.reject(new Error('unused')) });
    const engines = new AccountEngines(settings, networks, {} as Keyring, new AccountCaches(local), local);
    const outbox = await engines.outbox(networks.presetOf(await settings.read(), 'mainnet'), 'acc');
    expect((await outbox.list()).map((e) => e.txID)).toEqual(['refused-there']);
    expect(local.keys()).toContain('xpc.outbox.custom-2.acc');
  });

  it("an older one that cannot be read is named by its entry, with how to clear it (removing that entry, which does); the popup shows those words", async () => {
    const { local } = memoryStores();
    const pinned = { networkID: 1, evmChainID: 43114, ...PRESETS.mainnet.known! };
    const state = { ...emptyState(), accounts: [{ id: 'acc', name: 'A', kind: 'hd' as const, index: 0 }], selectedAccountId: 'acc', nextHdIndex: 1, selectedNetworkId: 'mainnet' };
    const customNetworks = [{ id: 'custom-1', name: 'My mainnet node', url: 'http://127.0.0.1:1', atomicNamespace: 'avax', pinned }];
    await local.set({ 'xpc.state': { ...state, customNetworks }, 'xpc.outbox.custom-1.acc': { not: 'a list' } });
    const settings = new SettingsStore(local);
    const networks = new NetworksService(settings, local, { status: async () => Promise.reject(new Error('unused')) });
    const engines = new AccountEngines(settings, networks, {} as Keyring, new AccountCaches(local), local);
    const mainnet = () => settings.read().then((s) => networks.presetOf(s, 'mainnet'));
    const error = await engines.outbox(await mainnet(), 'acc').catch((e: unknown) => e as WalletError);
    expect(error).toMatchObject({ code: 'storage-corrupt' });
    const words =
      'An older record of sends for "My mainnet node" cannot be read, so the wallet stops rather than risk paying twice. Removing "My mainnet node" in Settings clears it';
    expect(plainError('storage-corrupt', (error as WalletError).message)).toEqual({ text: words });
    // The moves' journal alike.
    await local.set({ 'xpc.transfers.custom-1.acc': 7 });
    await expect(engines.journal(await mainnet(), 'acc')).rejects.toThrow('an older record of moves for "My mainnet node" cannot be read');
    await local.remove(['xpc.transfers.custom-1.acc']);
    // A built-in entry cannot be removed: named, with no advice it could not follow.
    await local.set({ 'xpc.outbox.custom-1.acc': [], 'xpc.outbox.mainnet.acc': 'damaged' });
    const custom = (await settings.read()).customNetworks[0]!;
    const builtIn = await engines.outbox(networks.presetOf(await settings.read(), custom.id), 'acc').catch((e: unknown) => e as WalletError);
    expect((builtIn as WalletError).message).toBe('an older record of sends for "Mainnet" cannot be read, so the wallet stops rather than risk paying twice');
    // Its own older record, while it is selected: removing it needs another network selected first, and says so.
    await local.set({ 'xpc.outbox.mainnet.acc': [], 'xpc.outbox.custom-1.acc': { not: 'a list' } });
    const selected = await engines.outbox(networks.presetOf(await settings.read(), custom.id), 'acc').catch((e: unknown) => e as WalletError);
    expect(plainError('storage-corrupt', (selected as WalletError).message).text).toMatch(/paying twice\. Switching to another network, then removing "My mainnet node" in Settings clears it$/);
    // Removing the entry (asked, then confirmed) clears the custom one: the outbox opens again.
    await local.set({ 'xpc.outbox.mainnet.acc': [], 'xpc.outbox.custom-1.acc': { not: 'a list' } });
    // The question says what that risks: with Mainnet selected, its next send goes without what that record held.
    await expect(networks.networksRemove({ id: 'custom-1' })).rejects.toMatchObject({
      code: 'network-has-sends',
      message: expect.stringContaining('removing it forgets them: a later send on the same network, under any entry, would not be kept from paying twice. Remove it anyway?'),
    });
    await networks.networksRemove({ id: 'custom-1', confirmLoss: true });
    expect(await (await engines.outbox(await mainnet(), 'acc')).list()).toEqual([]);
  });
});

// Removing a custom network drops everything the wallet kept for it, for every account: nothing
// is left that no screen can reach again. Its outboxes and move journals are kept per chains, not
// with it: added again, it finds the sends a new one must conflict with, and its moves go on. A health check of a node
// that does not answer says why by code, so the popup can say it in words; one that answers names
// only its failing checks.
import { describe, expect, it } from 'vitest';
import { accountStorageKeys, chainsKey, entryJournalKey, entryOutboxKey, hiddenAssetsKey, journalKey, outboxKey, tokensKey } from '../../src/background/account-cache.js';
import { NetworksService } from '../../src/background/services/networks.js';
import { TransfersService } from '../../src/background/services/transfers.js';
import { networkIdsOf, SettingsStore } from '../../src/background/settings.js';
import { memoryStores } from '../../src/background/storage.js';

/** Stored settings: two accounts, the local network selected, one custom network ('custom-1'). */
const STATE = {
  version: 1,
  accounts: [{ id: 'acc1', name: 'A', kind: 'hd', index: 0 }, { id: 'acc2', name: 'B', kind: 'hd', index: 1 }],
  selectedAccountId: 'acc1',
  nextHdIndex: 2,
  customNetworks: [{ id: 'custom-1', name: 'Mine', url: 'http://127.0.0.1:1', atomicNamespace: 'avax' }],
  selectedNetworkId: 'local',
};

describe('a custom network', () => {
  it('when removed, drops its caches, move journals, stake books, token scans, tokens and hidden assets, and nothing else', async () => {
    const { local } = memoryStores();
    await local.set({ 'xpc.state': STATE });
    const kept = [...accountStorageKeys('local', 'acc1'), hiddenAssetsKey('local'), outboxKey(chainsKey(1337, 'X1'), 'acc1')];
    const dropped = [...accountStorageKeys('custom-1', 'acc1'), ...accountStorageKeys('custom-1', 'acc2'), hiddenAssetsKey('custom-1'), tokensKey('custom-1')];
    await local.set(Object.fromEntries([...kept, ...dropped].map((k) => [k, []])));
    const networks = new NetworksService(new SettingsStore(local), local, { status: async () => Promise.reject(new Error('unused')) });
    await networks.networksRemove({ id: 'custom-1' });
    expect(local.keys().sort()).toEqual(['xpc.state', ...kept].sort());
  });

  it('with an outbox an older version kept with it, its chains unknown without its node: not removed while a send there is undecided or refused but able to run, until the user confirms', async () => {
    const { local } = memoryStores();
    const entry = (txID: string, extra: Record<string, unknown> = {}) => ({ chain: 'X', txID, signedHex: '00', item: {}, createdAt: 1, resends: 0, ...extra });
    await local.set({
      'xpc.state': STATE,
      // acc1: one refused X send its successor already conflicts with (safe to forget); acc2: one refused, one undecided.
      [entryOutboxKey('custom-1', 'acc1')]: [entry('replaced', { voided: true, replacedBy: 'next' })],
      [entryOutboxKey('custom-1', 'acc2')]: [entry('refused', { voided: true }), entry('undecided')],
      // Another network's outbox is not this one's.
      [entryOutboxKey('local', 'acc1')]: [entry('elsewhere')],
    });
    const networks = new NetworksService(new SettingsStore(local), local, { status: async () => Promise.reject(new Error('unused')) });
    const refused = await networks.networksRemove({ id: 'custom-1' }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'network-has-sends', message: expect.stringMatching(/^2 transaction\(s\) on this network are not decided yet.*paying twice\. Remove it anyway\?$/) });
    expect((await new SettingsStore(local).read()).customNetworks).toHaveLength(1);
    expect(local.keys()).toContain(entryOutboxKey('custom-1', 'acc2'));
    // Moves and sends are asked about at once, so one "Remove anyway" never skips a warning unseen.
    const both = new NetworksService(new SettingsStore(local), local, { status: async () => Promise.reject(new Error('unused')), unfinishedMoves: async () => ['move-1'] });
    expect(await both.networksRemove({ id: 'custom-1' }).catch((e: unknown) => e)).toMatchObject({ code: 'network-has-moves', message: expect.stringMatching(/^1 move\(s\).*show as waiting to import if you add the network again\. 2 transaction\(s\)/) });
    await networks.networksRemove({ id: 'custom-1', confirmLoss: true });
    expect((await new SettingsStore(local).read()).customNetworks).toEqual([]);
    expect(local.keys().sort()).toEqual([entryOutboxKey('local', 'acc1'), 'xpc.state'].sort());
  });

  it('pinned to its chains: removed without asking about sends, its older outboxes moved to its chains first, where it finds them when added again', async () => {
    const { local } = memoryStores();
    const pinned = { networkID: 1337, evmChainID: 43112, xChainID: 'X1', cChainID: 'C1', avaxAssetID: 'A1' };
    const entry = (txID: string) => ({ chain: 'X', txID, signedHex: '00', item: {}, createdAt: 1, resends: 0, voided: true });
    const chains = outboxKey(chainsKey(1337, 'X1'), 'acc2');
    await local.set({
      'xpc.state': { ...STATE, customNetworks: [{ ...STATE.customNetworks[0], pinned }] },
      [entryOutboxKey('custom-1', 'acc2')]: [entry('refused'), entry('both')],
      // Sent through another entry for the same chains: kept once.
      [chains]: [entry('both'), entry('other-entry')],
    });
    const networks = new NetworksService(new SettingsStore(local), local, { status: async () => Promise.reject(new Error('unused')) });
    await networks.networksRemove({ id: 'custom-1' });
    expect((await new SettingsStore(local).read()).customNetworks).toEqual([]);
    expect(local.keys()).not.toContain(entryOutboxKey('custom-1', 'acc2'));
    expect(((await local.get([chains]))[chains] as { txID: string }[]).map((e) => e.txID)).toEqual(['both', 'other-entry', 'refused']);
  });

  it('pinned, with an older outbox that cannot be read: asked about, as what it held is unknown, and removed once confirmed', async () => {
    const { local } = memoryStores();
    const pinned = { networkID: 1337, evmChainID: 43112, xChainID: 'X1', cChainID: 'C1', avaxAssetID: 'A1' };
    await local.set({ 'xpc.state': { ...STATE, customNetworks: [{ ...STATE.customNetworks[0], pinned }] }, [entryOutboxKey('custom-1', 'acc1')]: { not: 'a list' } });
    const networks = new NetworksService(new SettingsStore(local), local, { status: async () => Promise.reject(new Error('unused')) });
    expect(await networks.networksRemove({ id: 'custom-1' }).catch((e: unknown) => e)).toMatchObject({ code: 'network-has-sends' });
    await networks.networksRemove({ id: 'custom-1', confirmLoss: true });
    expect((await new SettingsStore(local).read()).customNetworks).toEqual([]);
    expect(local.keys()).not.toContain(entryOutboxKey('custom-1', 'acc1'));
  });

  it('with an older move journal that cannot be read: asked about, as what it held is unknown, and removed once confirmed', async () => {
    const { local } = memoryStores();
    await local.set({ 'xpc.state': STATE, [entryJournalKey('custom-1', 'acc2')]: { not: 'a list' } });
    const transfers = new TransfersService({} as never, {} as never, local);
    const networks = new NetworksService(new SettingsStore(local), local, { status: async () => Promise.reject(new Error('unused')), unfinishedMoves: (keys) => transfers.unfinishedIn(keys) });
    expect(await networks.networksRemove({ id: 'custom-1' }).catch((e: unknown) => e)).toMatchObject({ code: 'network-has-moves' });
    await networks.networksRemove({ id: 'custom-1', confirmLoss: true });
    expect(local.keys()).not.toContain(entryJournalKey('custom-1', 'acc2'));
  });

  it("pinned: its move journals are kept with its chains (older ones moved there first); asked about unfinished moves only when no other entry for its chains runs them", async () => {
    const { local } = memoryStores();
    const pinned = { networkID: 1337, evmChainID: 43112, xChainID: 'X1', cChainID: 'C1', avaxAssetID: 'A1' };
    const move = { id: 'm', from: 'X', to: 'P', amount: '1', state: 'export-accepted', imports: [], importAttempts: 0, createdAt: 1, updatedAt: 1 };
    const chainsJournal = journalKey(chainsKey(1337, 'X1'), 'acc2');
    const custom = (id: string) => ({ ...STATE.customNetworks[0], id, pinned });
    await local.set({ 'xpc.state': { ...STATE, customNetworks: [custom('custom-1'), custom('custom-2')] }, [entryJournalKey('custom-1', 'acc2')]: [move] });
    const transfers = new TransfersService({} as never, {} as never, local);
    const networks = new NetworksService(new SettingsStore(local), local, { status: async () => Promise.reject(new Error('unused')), unfinishedMoves: (keys) => transfers.unfinishedIn(keys) });
    // custom-2 serves the same chains and runs the move: nothing to ask.
    await networks.networksRemove({ id: 'custom-1' });
    expect(local.keys()).not.toContain(entryJournalKey('custom-1', 'acc2'));
    expect(((await local.get([chainsJournal]))[chainsJournal] as { id: string }[]).map((r) => r.id)).toEqual(['m']);
    // The last entry for them: its move stops until the network is added again, so it is asked, and kept once confirmed.
    expect(await networks.networksRemove({ id: 'custom-2' }).catch((e: unknown) => e)).toMatchObject({ code: 'network-has-moves', message: expect.stringMatching(/^1 move\(s\) .*adding the network again picks them up\. Remove it anyway\?$/) });
    await networks.networksRemove({ id: 'custom-2', confirmLoss: true });
    expect((await new SettingsStore(local).read()).customNetworks).toEqual([]);
    expect(((await local.get([chainsJournal]))[chainsJournal] as { id: string }[]).map((r) => r.id)).toEqual(['m']);
  });

  it('added before networks were pinned, its node down: its hrp is the one saved with it, without asking the node (the popup still opens)', async () => {
    const { local } = memoryStores();
    const state = { ...STATE, customNetworks: [{ ...STATE.customNetworks[0], hrp: 'custom' }], selectedNetworkId: 'custom-1' };
    await local.set({ 'xpc.state': state });
    let asked = 0;
    const down = (async () => (asked++, Promise.reject(new TypeError('Failed to fetch')))) as unknown as typeof fetch;
    const settings = new SettingsStore(local);
    const networks = new NetworksService(settings, local, { status: async () => Promise.reject(new Error('unused')), fetch: down });
    expect(await networks.hrpNow(await settings.read())).toBe('custom');
    expect(asked).toBe(0);
  });

  it("serving a preset's chains (the user's own Mainnet node): a site's switch to that chain, and a move's resume, find it before the preset", async () => {
    const { local } = memoryStores();
    const pinned = { networkID: 1, evmChainID: 43114, xChainID: 'X1', cChainID: 'C1', avaxAssetID: 'A1' };
    const state = { ...STATE, customNetworks: [{ ...STATE.customNetworks[0], pinned }] };
    await local.set({ 'xpc.state': state });
    const networks = new NetworksService(new SettingsStore(local), local, { status: async () => Promise.reject(new Error('unused')) });
    expect((await networks.siteNetworks()).find((n) => n.evmChainId === 43114n)?.id).toBe('custom-1');
    expect(networkIdsOf(state as never, true)[0]).toBe('custom-1');
    // Settings lists the presets first, as before.
    expect((await networks.networksList()).networks.at(-1)?.id).toBe('custom-1');
  });

  it('a health check of a node that does not answer gives the failure code with the message', async () => {
    const { local } = memoryStores();
    await local.set({ 'xpc.state': STATE });
    const networks = new NetworksService(new SettingsStore(local), local, { status: async () => Promise.reject(new Error('unused')) });
    expect(await networks.networksHealth({ id: 'custom-1' })).toMatchObject({ healthy: false, checks: [], errorCode: 'node-unreachable', error: expect.stringContaining('127.0.0.1:1') });
  });

  it('a health check names only the checks that fail, and counts those that pass', async () => {
    const { local } = memoryStores();
    await local.set({ 'xpc.state': STATE });
    // As avalanchego answers: every check with its message, an `error` only on the failing ones.
    const report = {
      healthy: false,
      checks: {
        C: { message: { consensus: {} }, timestamp: '2026-01-01T00:00:00Z', contiguousFailures: 0, timeOfFirstFailure: null },
        P: { message: {}, timestamp: '2026-01-01T00:00:00Z', contiguousFailures: 0, timeOfFirstFailure: null },
        bootstrapped: { message: ['X'], error: 'subnets not bootstrapped', contiguousFailures: 3, timeOfFirstFailure: '2026-01-01T00:00:00Z' },
        // A name the popup would show as it is: not one that reads as a check's (a lying node's words), though still counted as failing.
        'your key leaked: move your funds to avax-rescue.net': { message: {}, error: 'x', contiguousFailures: 1, timeOfFirstFailure: null },
      },
    };
    const fetch = async () => new Response(JSON.stringify(report), { status: 503 });
    const networks = new NetworksService(new SettingsStore(local), local, { status: async () => Promise.reject(new Error('unused')), fetch });
    expect(await networks.networksHealth({ id: 'custom-1' })).toEqual({ healthy: false, checks: ['bootstrapped'], passed: 2 });
  });
});

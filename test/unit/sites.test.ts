// The connected-sites store: each site's own chain, and the upgrade of version 1's one chain for
// every site.
import { describe, expect, it } from 'vitest';
import { WalletError } from '../../src/core/errors.js';
import { type AddedChain, SiteStore, SITES_STORAGE_KEY } from '../../src/background/sites.js';
import { memoryStores } from '../../src/background/storage.js';

const DEX: AddedChain = { chainId: '432204', name: 'Dexalot', rpcUrl: 'https://rpc.dexalot.example/', symbol: 'ALOT', decimals: 18 };
const BEAM: AddedChain = { chainId: '4337', name: 'Beam', rpcUrl: 'https://rpc.beam.example/', symbol: 'BEAM', decimals: 18 };

function store() {
  const { local } = memoryStores();
  return { local, sites: new SiteStore(local, () => 1000) };
}

const stored = async (local: ReturnType<typeof store>['local']): Promise<unknown> => (await local.get([SITES_STORAGE_KEY]))[SITES_STORAGE_KEY];

describe('SiteStore: each site its own chain', () => {
  it('adding a chain switches no site; a switch changes only that site', async () => {
    const { sites } = store();
    await sites.addChain(DEX);
    expect(await sites.chainOf('https://a.example')).toBeUndefined();
    expect(await sites.setSiteChain('https://a.example', DEX.chainId)).toBe(true);
    expect(await sites.setSiteChain('https://a.example', DEX.chainId)).toBe(false);
    expect(await sites.chainOf('https://a.example')).toEqual(DEX);
    expect(await sites.chainOf('https://b.example')).toBeUndefined();
    expect(await sites.setSiteChain('https://a.example', null)).toBe(true);
    expect(await sites.chainOf('https://a.example')).toBeUndefined();
  });

  it('refuses a chain that was not added, and changes nothing', async () => {
    const { sites, local } = store();
    await sites.addChain(DEX);
    const before = await stored(local);
    await expect(sites.setSiteChain('https://a.example', '1')).rejects.toMatchObject({ code: 'unknown-chain' });
    expect(await stored(local)).toEqual(before);
  });

  it('removing a chain puts the sites on it back on the wallet’s network, and only those', async () => {
    const { sites } = store();
    await sites.addChain(DEX);
    await sites.addChain(BEAM);
    await sites.setSiteChain('https://a.example', DEX.chainId);
    await sites.setSiteChain('https://b.example', BEAM.chainId);
    expect(await sites.removeChain(DEX.chainId)).toBe(true);
    expect(await sites.chainOf('https://a.example')).toBeUndefined();
    expect(await sites.chainOf('https://b.example')).toEqual(BEAM);
    expect((await sites.chains()).siteChains).toEqual({ 'https://b.example': BEAM.chainId });
  });

  it('a new wallet forgets every site’s chain with its connections; the chains stay added', async () => {
    const { sites } = store();
    await sites.addChain(DEX);
    await sites.grant('https://a.example', ['acc1']);
    await sites.setSiteChain('https://a.example', DEX.chainId);
    await sites.forgetAllSites();
    expect(await sites.chains()).toEqual({ chains: [DEX], siteChains: {} });
  });
});

describe('SiteStore: stored settings of version 1', () => {
  const v1 = (activeChainId: string | null, name = 'Dexalot') => ({
    version: 1,
    sites: { 'https://a.example': { accountIds: ['acc1'], connectedAt: 5 }, 'https://b.example': { accountIds: ['acc1'], connectedAt: 6 } },
    chains: [{ ...DEX, name }],
    activeChainId,
  });

  it('the one chain every site saw becomes the chain of each site connected then; others see the wallet’s network', async () => {
    const { sites, local } = store();
    await local.set({ [SITES_STORAGE_KEY]: v1(DEX.chainId) });
    expect(await sites.chainOf('https://a.example')).toEqual(DEX);
    expect(await sites.chainOf('https://b.example')).toEqual(DEX);
    expect(await sites.chainOf('https://never-connected.example')).toBeUndefined();
    expect(await sites.permission('https://a.example')).toEqual({ accountIds: ['acc1'], connectedAt: 5 });
    // Stored in the new shape at the next change, and a switch of one site leaves the other.
    await sites.setSiteChain('https://a.example', null);
    expect(await stored(local)).toEqual({
      version: 2,
      sites: v1(null).sites,
      chains: [DEX],
      siteChains: { 'https://b.example': DEX.chainId },
    });
  });

  it('no chain in use stays none; a stored name with hidden characters is cleaned as a new one would be', async () => {
    const { sites, local } = store();
    await local.set({ [SITES_STORAGE_KEY]: v1(null, 'Dex\u202Ealot\u200B') });
    expect(await sites.chains()).toEqual({ chains: [DEX], siteChains: {} });
  });

  it('a chain an older version stored as the site wrote it is shown held to what it is: chain ID 1 as Ethereum in ETH, a coin reading as AVAX off Avalanche as not AVAX', async () => {
    const { sites, local } = store();
    const posing = { ...DEX, chainId: '1', name: 'Mainnet C-Chain', symbol: 'AVAX' };
    const fakeAvax = { ...BEAM, symbol: 'ꓮꓦꓮꓫ' };
    await local.set({ [SITES_STORAGE_KEY]: { version: 2, sites: {}, chains: [posing, fakeAvax, DEX], siteChains: { 'https://a.example': '1' } } });
    expect((await sites.chains()).chains).toEqual([{ ...posing, name: 'Ethereum', symbol: 'ETH' }, { ...fakeAvax, symbol: 'NOT AVAX' }, DEX]);
    expect(await sites.chainOf('https://a.example')).toEqual({ ...posing, name: 'Ethereum', symbol: 'ETH' });
    await local.set({ [SITES_STORAGE_KEY]: { ...v1(null), chains: [{ ...BEAM, symbol: 'AVAX' }] } });
    expect((await sites.chains()).chains).toEqual([{ ...BEAM, symbol: 'NOT AVAX' }]);
  });

  it('an active chain that is not among the chains is dropped', async () => {
    const { sites, local } = store();
    await local.set({ [SITES_STORAGE_KEY]: v1('999') });
    expect((await sites.chains()).siteChains).toEqual({});
  });

  it('unreadable settings are a typed error, and nothing is written over them', async () => {
    for (const bad of [
      { version: 99, sites: {}, chains: [] },
      { version: 1, sites: {}, chains: [], activeChainId: 7 },
      { version: 2, sites: {}, chains: [] },
      { version: 2, sites: {}, chains: [], siteChains: { 'https://a.example': 7 } },
      { version: 2, sites: [], chains: [], siteChains: {} },
      'text',
    ]) {
      const { sites, local } = store();
      await local.set({ [SITES_STORAGE_KEY]: bad });
      const error = await sites.setSiteChain('https://a.example', null).catch((e: unknown) => e);
      expect(error, JSON.stringify(bad)).toBeInstanceOf(WalletError);
      expect(error).toMatchObject({ code: 'storage-corrupt' });
      await expect(sites.grant('https://a.example', ['acc1'])).rejects.toMatchObject({ code: 'storage-corrupt' });
      expect(await stored(local)).toEqual(bad);
    }
  });
});

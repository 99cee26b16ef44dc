// Adding and switching chains from sites: adding never switches, the switch is its own question,
// and it changes only the site that asked (its chain ID, its reads, its events), without a node:
// the added chain's RPC is a stub that answers eth_chainId.
import { describe, expect, it } from 'vitest';
import { ApprovalQueue } from '../../src/background/approvals.js';
import { ProviderPages } from '../../src/background/pages.js';
import { ProviderService, type Site, type SiteWallet } from '../../src/background/provider.js';
import { SiteStore } from '../../src/background/sites.js';
import { memoryStores } from '../../src/background/storage.js';
import type { ApprovalSummary } from '../../src/shared/messages.js';
import { PROVIDER_CHANNEL, type ProviderResponse, STATE_METHOD } from '../../src/shared/provider-protocol.js';

const SHOP: Site = { origin: 'https://shop.example' };
const NEWS: Site = { origin: 'https://news.example' };
/** The chain the stub RPC serves: 42. */
const TEST_CHAIN = { chainId: '0x2a', chainName: 'Test chain', rpcUrls: ['https://rpc.test.example/v1'], nativeCurrency: { name: 'T', symbol: 'TST', decimals: 18 } };

/** The wallet on the user's own mainnet node (a custom network), with the public preset listed first. */
const OWN_MAINNET = {
  siteNetwork: async () => ({ network: { id: 'custom-own', name: 'My node', url: 'http://127.0.0.1:9650', hrp: 'avax' }, evmChainId: 43114n }),
  siteNetworks: async () => [{ id: 'mainnet', name: 'Mainnet', evmChainId: 43114n }, { id: 'custom-own', name: 'My node', evmChainId: 43114n }],
};

/** `servedChainId`: the chain ID the stub RPC answers; `stores`: another worker's, to stand in for a restart. */
function setup(network: Partial<Pick<SiteWallet, 'siteNetwork' | 'siteNetworks'>> = {}, servedChainId = '0x2a', stores = memoryStores()) {
  const approvals = new ApprovalQueue(stores.session);
  const sites = new SiteStore(stores.local);
  const rpcCalls: string[] = [];
  const selected: string[] = [];
  const fetchStub = (async (url: string, init: { body: string }) => {
    const { id, method } = JSON.parse(init.body) as { id: number; method: string };
    rpcCalls.push(`${url} ${method}`);
    const result = method === 'eth_chainId' ? servedChainId : '0x7';
    return new Response(JSON.stringify({ jsonrpc: '2.0', id, result }), { status: 200 });
  }) as unknown as typeof fetch;
  const wallet = {
    siteNetwork: async () => ({ network: { id: 'local', name: 'Local network', url: 'http://127.0.0.1:1', hrp: 'local' }, evmChainId: 43112n }),
    siteNetworks: async () => [{ id: 'local', name: 'Local network', evmChainId: 43112n }, { id: 'mainnet', name: 'Mainnet', evmChainId: 43114n }],
    accountsList: async () => ({ accounts: [], selectedId: null }),
    networksSelect: async ({ id }: { id: string }) => selected.push(id),
    ...network,
  } as unknown as SiteWallet;
  const told: string[] = [];
  let notified: Promise<void> = Promise.resolve();
  // The background's wiring (src/background/index.ts): a frame is told when its own view changed.
  const pages: ProviderPages = new ProviderPages({
    area: stores.session,
    viewOf: async (site) => JSON.stringify(await provider.siteState(site)),
    send: async (tabId) => told.push(tabId === 1 ? 'shop' : 'news'),
  });
  const provider: ProviderService = new ProviderService({
    wallet,
    session: { isUnlocked: () => true, idleMaybeDue: () => false, checkIdle: async () => false } as never,
    approvals,
    sites,
    sessionArea: stores.session,
    openApprovalWindow: async () => {},
    fetch: fetchStub,
    notifyPages: () => {
      notified = pages.notify();
    },
  });
  let n = 0;
  const call = (method: string, params: unknown, site: Site, requestId = `r${++n}`): Promise<ProviderResponse> =>
    provider.handle({ channel: PROVIDER_CHANNEL, requestId, method, params }, site);
  /** Waits for the next request in the approval window, answers it, and says what it showed. */
  const answerNext = async (approved: boolean): Promise<ApprovalSummary> => {
    for (let i = 0; i < 200; i++) {
      const [pending] = await approvals.list();
      if (pending) {
        await approvals.decide(pending.id, approved);
        return pending.summary as ApprovalSummary;
      }
      await new Promise((r) => setTimeout(r, 5));
    }
    throw new Error('no approval was asked for');
  };
  const chainOf = async (site: Site) => ((await call('eth_chainId', [], site)) as { result: string }).result;
  return { stores, approvals, sites, pages, call, answerNext, chainOf, rpcCalls, selected, told, notified: () => notified };
}

/** The shop adds the test chain, and the user approves both the add and the switch to it. */
async function shopAddsAndSwitches(t: ReturnType<typeof setup>): Promise<void> {
  const adding = t.call('wallet_addEthereumChain', [TEST_CHAIN], SHOP);
  await t.answerNext(true);
  await t.answerNext(true);
  await adding;
}

describe('wallet_addEthereumChain', () => {
  it('adds on the first approval and asks separately whether to switch; declined, the chain stays added and the site keeps its chain', async () => {
    const t = setup();
    const adding = t.call('wallet_addEthereumChain', [TEST_CHAIN], SHOP);
    const add = await t.answerNext(true);
    expect(add).toEqual({
      kind: 'add-chain',
      chainId: '42',
      rpcUrl: 'https://rpc.test.example/v1',
      rpcHost: 'rpc.test.example',
      chainName: 'Test chain',
      nameAltered: false,
      symbol: 'TST',
      decimals: 18,
    });
    const question = await t.answerNext(false);
    expect(question).toEqual({ kind: 'switch-chain', scope: 'site', fromName: 'Local network C-Chain (chain ID 43112)', toName: 'Test chain', chainId: '42', rpcHost: 'rpc.test.example', afterAdd: true });
    expect(await adding).toEqual({ ok: true, result: null });
    expect((await t.sites.chains()).chains.map((c) => c.chainId)).toEqual(['42']);
    expect(await t.chainOf(SHOP)).toBe('0xa868');
    expect(await t.approvals.list()).toEqual([]);
  });

  it('two sites adding one chain ID with different details, both approved: the first stays; the second is refused, nothing changed', async () => {
    const t = setup();
    const shop = t.call('wallet_addEthereumChain', [TEST_CHAIN], SHOP);
    const news = t.call('wallet_addEthereumChain', [{ ...TEST_CHAIN, rpcUrls: ['https://rpc.news.example/'] }], NEWS);
    // Both add questions are in the window before either is answered.
    for (let i = 0; i < 200 && (await t.approvals.list()).length < 2; i++) await new Promise((r) => setTimeout(r, 5));
    for (const pending of await t.approvals.list()) await t.approvals.decide(pending.id, true);
    await t.answerNext(true);
    expect(await shop).toEqual({ ok: true, result: null });
    expect(await news).toMatchObject({ ok: false, error: { code: -32603, message: expect.stringContaining('was added meanwhile with other details (its RPC address, name or currency); nothing was changed') } });
    expect((await t.sites.chains()).chains).toEqual([expect.objectContaining({ chainId: '42', rpcUrl: 'https://rpc.test.example/v1' })]);
    expect(await t.chainOf(SHOP)).toBe('0x2a');
  });

  it('two sites adding one chain with the same details, both approved: one chain, the first site\'s; the second is asked to switch to it, naming the first', async () => {
    const t = setup();
    const shop = t.call('wallet_addEthereumChain', [TEST_CHAIN], SHOP);
    const news = t.call('wallet_addEthereumChain', [TEST_CHAIN], NEWS);
    for (let i = 0; i < 200 && (await t.approvals.list()).length < 2; i++) await new Promise((r) => setTimeout(r, 5));
    for (const pending of await t.approvals.list()) await t.approvals.decide(pending.id, true);
    const questions = [await t.answerNext(false), await t.answerNext(false)];
    expect(await shop).toEqual({ ok: true, result: null });
    expect(await news).toEqual({ ok: true, result: null });
    expect((await t.sites.chains()).chains).toEqual([expect.objectContaining({ chainId: '42', addedBy: 'shop.example' })]);
    // The shop's own question says nothing of who added it; the news site's names the shop.
    expect(questions.map((q) => (q.kind === 'switch-chain' ? (q.addedBy ?? 'none') : q.kind)).sort()).toEqual(['none', 'shop.example']);
  });

  it('add, then switch: only the asking site is on the new chain; another site still sees its own, and is not told anything', async () => {
    const t = setup();
    await t.pages.remember(1, 0, SHOP);
    await t.pages.remember(2, 0, NEWS);
    const adding = t.call('wallet_addEthereumChain', [TEST_CHAIN], SHOP);
    await t.answerNext(true);
    await t.answerNext(true);
    expect(await adding).toEqual({ ok: true, result: null });
    await t.notified();
    expect(t.told).toEqual(['shop']);
    expect(await t.chainOf(SHOP)).toBe('0x2a');
    expect(await t.call('net_version', [], SHOP)).toEqual({ ok: true, result: '42' });
    expect(await t.chainOf(NEWS)).toBe('0xa868');
    expect(await t.call(STATE_METHOD, undefined, NEWS)).toMatchObject({ result: { chainId: '0xa868', networkVersion: '43112' } });
    // The shop's reads go to the added chain's RPC; the other site's do not.
    t.rpcCalls.length = 0;
    expect(await t.call('eth_blockNumber', [], SHOP)).toEqual({ ok: true, result: '0x7' });
    expect(t.rpcCalls).toEqual(['https://rpc.test.example/v1 eth_blockNumber']);
  });

  it('a frame of another origin inside the page keeps its own chain (keyed as its connection is)', async () => {
    const t = setup();
    const widget: Site = { origin: SHOP.origin, frameOrigin: 'https://widget.example' };
    const adding = t.call('wallet_addEthereumChain', [TEST_CHAIN], widget);
    await t.answerNext(true);
    await t.answerNext(true);
    await adding;
    expect(await t.chainOf(widget)).toBe('0x2a');
    expect(await t.chainOf(SHOP)).toBe('0xa868');
  });

  it('the add approval shows the site’s name cleaned and flags one that passes for Avalanche; the chain is stored under the cleaned name', async () => {
    const t = setup();
    const adding = t.call('wallet_addEthereumChain', [{ ...TEST_CHAIN, chainName: 'Avalanche\u200B C-Chain\u202E', nativeCurrency: { name: 'A', symbol: 'TST\u200D', decimals: 18 } }], SHOP);
    expect(await t.answerNext(true)).toMatchObject({
      chainName: 'Avalanche C-Chain',
      nameAltered: true,
      symbol: 'TST',
      looksLike: { name: 'Avalanche C-Chain', chainId: '43114' },
    });
    await t.answerNext(false);
    await adding;
    expect((await t.sites.chains()).chains[0]).toMatchObject({ name: 'Avalanche C-Chain', symbol: 'TST' });
  });

  it('refuses a coin that reads as AVAX, or is written in other scripts, on a chain that is none of the wallet’s Avalanche networks, asking nothing', async () => {
    const t = setup();
    for (const symbol of ['AVAX', 'Аvax', 'A V A X', 'WAVAX', 'ꓮꓦꓮꓫ', 'AѴAX']) {
      const answer = await t.call('wallet_addEthereumChain', [{ ...TEST_CHAIN, nativeCurrency: { name: 'A', symbol, decimals: 18 } }], SHOP);
      expect(answer, symbol).toMatchObject({ error: { code: -32602, message: expect.stringMatching(/^params\[0\]\.nativeCurrency\.symbol must be in Latin letters and, on chain 42, none of the wallet's Avalanche networks, not read as AVAX/) } });
    }
    expect(await t.approvals.list()).toEqual([]);
    expect((await t.sites.chains()).chains).toEqual([]);
  });

  it('a well-known chain ID keeps its own name and coin whatever the site calls them, and the approval says so: chain ID 1 as "Mainnet C-Chain" in AVAX is Ethereum, in ETH', async () => {
    const posing = setup({}, '0x1');
    const adding = posing.call('wallet_addEthereumChain', [{ ...TEST_CHAIN, chainId: '0x1', chainName: 'Mainnet C-Chain', nativeCurrency: { name: 'A', symbol: 'AVAX', decimals: 18 } }], SHOP);
    const shown = await posing.answerNext(true);
    expect(shown).toMatchObject({ chainId: '1', chainName: 'Mainnet C-Chain', symbol: 'ETH', knownAs: 'Ethereum (ETH)' });
    expect(shown).not.toHaveProperty('looksLike');
    await posing.answerNext(false);
    await adding;
    expect((await posing.sites.chains()).chains[0]).toMatchObject({ chainId: '1', name: 'Ethereum', symbol: 'ETH' });
    const honest = setup({}, '0x1');
    const addingEthereum = honest.call('wallet_addEthereumChain', [{ ...TEST_CHAIN, chainId: '0x1', chainName: 'Ethereum Mainnet', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 } }], SHOP);
    const ethereum = await honest.answerNext(false);
    expect(ethereum).toMatchObject({ chainName: 'Ethereum Mainnet', symbol: 'ETH' });
    expect(ethereum).not.toHaveProperty('knownAs');
    await addingEthereum;
  });

  it('adding a chain the wallet knows is only the switch question', async () => {
    const t = setup();
    const adding = t.call('wallet_addEthereumChain', [{ ...TEST_CHAIN, chainId: '0xa86a', chainName: 'Avalanche' }], SHOP);
    expect(await t.answerNext(false)).toMatchObject({ kind: 'switch-chain', scope: 'wallet', chainId: '43114' });
    expect((await adding).ok).toBe(false);
    expect((await t.sites.chains()).chains).toEqual([]);
  });

  it('adding a chain the wallet knows, re-sent after a worker restart: the switch the user approved is made', async () => {
    const stores = memoryStores();
    const before = setup({}, '0x2a', stores);
    const params = [{ ...TEST_CHAIN, chainId: '0xa86a', chainName: 'Avalanche' }];
    void before.call('wallet_addEthereumChain', params, SHOP, 'add-1');
    // The worker stops once the question is asked; the user's yes reaches the next one, and the page sends the request again.
    const after = setup({}, '0x2a', stores);
    expect(await after.answerNext(true)).toMatchObject({ kind: 'switch-chain', chainId: '43114' });
    expect(await after.call('wallet_addEthereumChain', params, SHOP, 'add-1')).toEqual({ ok: true, result: null });
    expect([before.selected, after.selected]).toEqual([[], ['mainnet']]);
  });
});

describe('wallet_switchEthereumChain', () => {
  it('switches only the requesting site to a chain another site added, and back to the wallet’s network', async () => {
    const t = setup();
    const adding = t.call('wallet_addEthereumChain', [TEST_CHAIN], SHOP);
    await t.answerNext(true);
    await t.answerNext(false);
    await adding;
    await t.pages.remember(1, 0, SHOP);
    await t.pages.remember(2, 0, NEWS);

    const switching = t.call('wallet_switchEthereumChain', [{ chainId: '0x2a' }], NEWS);
    expect(await t.answerNext(true)).toMatchObject({ kind: 'switch-chain', scope: 'site', chainId: '42', rpcHost: 'rpc.test.example' });
    expect(await switching).toEqual({ ok: true, result: null });
    await t.notified();
    expect(t.told).toEqual(['news']);
    expect(await t.chainOf(NEWS)).toBe('0x2a');
    expect(await t.chainOf(SHOP)).toBe('0xa868');

    const back = t.call('wallet_switchEthereumChain', [{ chainId: '0xa868' }], NEWS);
    expect(await t.answerNext(true)).toMatchObject({ kind: 'switch-chain', scope: 'site', fromName: '“Test chain” (chain ID 42)', toName: 'Local network C-Chain' });
    await back;
    expect(await t.chainOf(NEWS)).toBe('0xa868');
    expect(t.selected).toEqual([]);
  });

  it('to a chain another site added: the question names that site (it chose the RPC node), also when this site\'s own add of the chain ID became the switch; the site that added it is not told of itself', async () => {
    const t = setup();
    await shopAddsAndSwitches(t);
    expect((await t.sites.chains()).chains[0]).toMatchObject({ chainId: '42', addedBy: 'shop.example' });
    const switching = t.call('wallet_switchEthereumChain', [{ chainId: '0x2a' }], NEWS);
    expect(await t.answerNext(false)).toMatchObject({ kind: 'switch-chain', chainId: '42', rpcHost: 'rpc.test.example', addedBy: 'shop.example' });
    await switching;
    // The news site asks to add chain 42 with its own RPC: the chain ID is known, so it is the switch to the shop's.
    const adding = t.call('wallet_addEthereumChain', [{ ...TEST_CHAIN, rpcUrls: ['https://rpc.news.example/'] }], NEWS);
    expect(await t.answerNext(false)).toMatchObject({ kind: 'switch-chain', rpcHost: 'rpc.test.example', addedBy: 'shop.example' });
    await adding;
    // The shop, back on the wallet's network, switches to the chain it added itself: nothing more to say.
    const back = t.call('wallet_switchEthereumChain', [{ chainId: '0xa868' }], SHOP);
    await t.answerNext(true);
    await back;
    const own = t.call('wallet_switchEthereumChain', [{ chainId: '0x2a' }], SHOP);
    expect(await t.answerNext(false)).not.toHaveProperty('addedBy');
    await own;
  });

  it('back to the chain the wallet is on is the site following it again, never a move to a preset with the same chain ID', async () => {
    const t = setup(OWN_MAINNET as never);
    await shopAddsAndSwitches(t);
    const back = t.call('wallet_switchEthereumChain', [{ chainId: '0xa86a' }], SHOP);
    expect(await t.answerNext(true)).toMatchObject({ scope: 'site', toName: 'My node C-Chain' });
    await back;
    expect(t.selected).toEqual([]);
    expect(await t.sites.chainOf(SHOP.origin)).toBeUndefined();
  });

  it('back to the wallet’s network, approved after the wallet switched to another one: 4901, and the site stays on its chain', async () => {
    let on = { id: 'local', name: 'Local network', evmChainId: 43112n };
    const t = setup({ siteNetwork: async () => ({ network: { id: on.id, name: on.name, url: 'http://127.0.0.1:1', hrp: 'local' }, evmChainId: on.evmChainId }) } as never);
    await shopAddsAndSwitches(t);
    const back = t.call('wallet_switchEthereumChain', [{ chainId: '0xa868' }], SHOP);
    await expect.poll(async () => (await t.approvals.list()).map((p) => p.summary)).toMatchObject([{ scope: 'site', toName: 'Local network C-Chain' }]);
    // The wallet is switched to Mainnet (the popup, another site) while the approval waits.
    on = { id: 'mainnet', name: 'Mainnet', evmChainId: 43114n };
    await t.answerNext(true);
    expect(await back).toMatchObject({ ok: false, error: { code: 4901 } });
    expect(await t.chainOf(SHOP)).toBe('0x2a');
  });

  it('another Avalanche network is the wallet’s network: asked as such, selected, and the site follows the wallet again', async () => {
    const t = setup();
    await shopAddsAndSwitches(t);
    const switching = t.call('wallet_switchEthereumChain', [{ chainId: '0xa86a' }], SHOP);
    expect(await t.answerNext(true)).toMatchObject({ scope: 'wallet', toName: 'Mainnet C-Chain' });
    await switching;
    expect(t.selected).toEqual(['mainnet']);
    expect(await t.sites.chainOf(SHOP.origin)).toBeUndefined();
  });
});

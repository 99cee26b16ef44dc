// Routing, permissions and validation of site requests, without a node: the wallet service is a
// stand-in that knows one account and one network (the real-node flows are in
// test/integration/provider.test.ts).
import { describe, expect, it } from 'vitest';
import { ApprovalQueue } from '../../src/background/approvals.js';
import { NodeIdentityError } from '../../src/core/errors.js';
import {
  chainIdParam,
  evmAddressParam,
  hexDataParam,
  InvalidParamsError,
  messageParam,
  positional,
  quantityParam,
  txHexParam,
  txQuantityParam,
  typedDataParam,
  urlParam,
} from '../../src/background/provider-params.js';
import { ProviderService, type Site } from '../../src/background/provider.js';
import { siteOfSender } from '../../src/background/site-sender.js';
import { SiteStore, SITES_STORAGE_KEY } from '../../src/background/sites.js';
import { memoryStores } from '../../src/background/storage.js';
import type { SiteWallet } from '../../src/background/provider.js';
import { PROVIDER_CHANNEL, type ProviderResponse, STATE_METHOD } from '../../src/shared/provider-protocol.js';
import { errorOf } from './provider-answers.js';
import { MAX_C_GAS_LIMIT } from '../../src/core/fee-limits.js';
import { ACCOUNT } from './site-account.js';

const SITE: Site = { origin: 'https://dapp.example' };

function setup(options: { unlocked?: boolean; noWallet?: boolean; fetch?: typeof fetch; windowFails?: boolean | (() => boolean); siteNetwork?: () => Promise<never>; wallet?: Partial<SiteWallet>; now?: () => number } = {}) {
  const stores = memoryStores();
  const approvals = new ApprovalQueue(stores.session);
  const sites = new SiteStore(stores.local);
  let unlocked = options.unlocked ?? true;
  let windows = 0;
  let notified = 0;
  const wallet = {
    siteNetwork: options.siteNetwork ?? (async () => ({ network: { id: 'local', name: 'Local network', url: 'http://127.0.0.1:1', hrp: 'local' }, evmChainId: 43112n })),
    siteNetworks: async () => [{ id: 'local', name: 'Local network', evmChainId: 43112n }, { id: 'mainnet', name: 'Avalanche Mainnet', evmChainId: 43114n }],
    accountsList: async () => ({ accounts: [ACCOUNT], selectedId: ACCOUNT.id }),
    networksSelect: async () => ({}),
    ...options.wallet,
  } as unknown as SiteWallet;
  const provider = new ProviderService({
    wallet,
    session: { isUnlocked: () => unlocked } as never,
    approvals,
    sites,
    sessionArea: stores.session,
    ...(options.noWallet ? { walletExists: async () => false } : {}),
    openApprovalWindow: async () => {
      windows++;
      if (typeof options.windowFails === 'function' ? options.windowFails() : options.windowFails) throw new Error('no window');
    },
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.now ? { now: options.now } : {}),
    notifyPages: () => {
      notified++;
    },
  });
  let n = 0;
  const call = (method: string, params?: unknown, site: Site = SITE, requestId = `r${++n}`): Promise<ProviderResponse> =>
    provider.handle({ channel: PROVIDER_CHANNEL, requestId, method, params }, site);
  return {
    stores,
    approvals,
    sites,
    provider,
    call,
    lock: () => (unlocked = false),
    unlock: () => (unlocked = true),
    windows: () => windows,
    notified: () => notified,
  };
}

describe('provider routing', () => {
  it('answers chain methods without a connection, and hides accounts until connected', async () => {
    const t = setup();
    expect(await t.call('eth_chainId')).toEqual({ ok: true, result: '0xa868' });
    expect(await t.call('net_version', [])).toEqual({ ok: true, result: '43112' });
    expect(await t.call('eth_accounts')).toEqual({ ok: true, result: [] });
    // The lock state is told only to connected sites.
    expect(await t.call(STATE_METHOD)).toEqual({ ok: true, result: { chainId: '0xa868', networkVersion: '43112', accounts: [], isUnlocked: false } });
    await t.sites.grant(SITE.origin, [ACCOUNT.id]);
    expect(await t.call('eth_accounts')).toEqual({ ok: true, result: [ACCOUNT.cAddress] });
    expect(await t.call(STATE_METHOD)).toEqual({ ok: true, result: { chainId: '0xa868', networkVersion: '43112', accounts: [ACCOUNT.cAddress], isUnlocked: true } });
    // A frame of another origin inside the connected page is not connected.
    expect(await t.call('eth_accounts', [], { origin: SITE.origin, frameOrigin: 'https://ads.example' })).toEqual({ ok: true, result: [] });
  });

  it('refuses unknown and dangerous methods with 4200, and malformed messages with -32602', async () => {
    const t = setup();
    for (const method of ['eth_sign', 'eth_signTransaction', 'debug_traceTransaction', 'debug_traceCall', 'keystore.importKey']) {
      expect((await errorOf(t.call(method, []))).code).toBe(4200);
    }
    // wallet_watchAsset is answered (docs/tokens.md): a malformed one is refused before any approval.
    expect(await errorOf(t.call('wallet_watchAsset', []))).toMatchObject({ code: -32602 });
    expect(await errorOf(t.call('wallet_watchAsset', { type: 'ERC20', options: { address: 'nope' } }))).toMatchObject({ code: -32602, data: { field: 'params.options.address' } });
    const bad = [null, 'x', { channel: 'other' }, { channel: PROVIDER_CHANNEL, requestId: 7, method: 'eth_chainId' }, { channel: PROVIDER_CHANNEL, requestId: 'r', method: '' }];
    for (const raw of bad) {
      const r = await t.provider.handle(raw, SITE);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error.code).toBe(-32602);
    }
    expect((await errorOf(t.call('eth_chainId', ['extra']))).message).toMatch(/params/);
  });

  it('needs a connection before signing (4100), and validates before asking (-32602 names the field)', async () => {
    const t = setup();
    expect((await errorOf(t.call('personal_sign', ['0x00', ACCOUNT.cAddress]))).code).toBe(4100);
    expect((await errorOf(t.call('xpc_getAddresses', []))).code).toBe(4100);
    const e = await errorOf(t.call('personal_sign', ['0x00', 'not-an-address']));
    expect(e).toMatchObject({ code: -32602, data: { field: 'params[1]' } });
    const tx = await errorOf(t.call('eth_sendTransaction', [{ from: ACCOUNT.cAddress, to: ACCOUNT.cAddress, value: 'lots' }]));
    expect(tx).toMatchObject({ code: -32602, data: { field: 'params[0].value' } });
    const unknownField = await errorOf(t.call('eth_sendTransaction', [{ from: ACCOUNT.cAddress, to: ACCOUNT.cAddress, valu: '0x1' }]));
    expect(unknownField.message).toMatch(/params\[0\]\.valu is not a known field/);
    const site = await errorOf(t.call('xpc_sendTransaction', [{ transactionHex: '0xzz', chainAlias: 'X' }]));
    expect(site).toMatchObject({ code: -32602, data: { field: 'params[0].transactionHex' } });
    expect(await t.approvals.list()).toEqual([]);
    expect(t.windows()).toBe(0);
  });

  it('grants only eth_accounts, and revokes', async () => {
    const t = setup();
    expect((await errorOf(t.call('wallet_requestPermissions', [{ eth_accounts: {}, snap_dialog: {} }]))).code).toBe(-32602);
    expect((await errorOf(t.call('wallet_requestPermissions', []))).code).toBe(-32602);
    await t.sites.grant(SITE.origin, [ACCOUNT.id]);
    const perms = await t.call('wallet_getPermissions');
    expect(perms).toMatchObject({ ok: true, result: [{ invoker: SITE.origin, parentCapability: 'eth_accounts', caveats: [{ type: 'restrictReturnedAccounts', value: [ACCOUNT.cAddress] }] }] });
    expect(await t.call('wallet_revokePermissions', [{ eth_accounts: {} }])).toEqual({ ok: true, result: null });
    expect(t.notified()).toBe(1);
    expect(await t.call('eth_accounts')).toEqual({ ok: true, result: [] });
  });

  it('a connect request queues an approval for the selected account; a second one is refused with -32002', async () => {
    const t = setup();
    const first = t.call('eth_requestAccounts');
    await new Promise((r) => setTimeout(r, 20));
    const [pending] = await t.approvals.list();
    expect(pending).toMatchObject({ origin: SITE.origin, method: 'eth_requestAccounts', summary: { kind: 'connect', accountName: 'Account 1' } });
    expect(t.windows()).toBe(1);
    expect((await errorOf(t.call('eth_requestAccounts'))).code).toBe(-32002);
    await t.approvals.decide(pending!.id, true);
    expect(await first).toEqual({ ok: true, result: [ACCOUNT.cAddress] });
    expect(await t.sites.permission(SITE.origin)).toMatchObject({ accountIds: [ACCOUNT.id] });
  });

  it('the connect approval lists every address the site can read once connected', async () => {
    const t = setup();
    const connecting = t.call('eth_requestAccounts');
    await expect.poll(async () => (await t.approvals.list()).length).toBe(1);
    const [pending] = await t.approvals.list();
    await t.approvals.decide(pending!.id, true);
    await connecting;
    const shown = (pending!.summary as { accounts: string[] }).accounts;
    const read = (await t.call('xpc_getAddresses')) as { ok: true; result: Record<string, string> };
    const core = (await t.call('avalanche_getAccounts')) as { ok: true; result: Record<string, unknown>[] };
    const addresses = [...Object.values(read.result), ...Object.entries(core.result[0]!).filter(([k]) => k.startsWith('address')).map(([, v]) => v)];
    expect(addresses.length).toBeGreaterThan(0);
    for (const address of addresses) expect(shown).toContain(address);
  });

  it('a frame request shows the top-level origin and the frame origin; the frame holds the connection', async () => {
    const t = setup();
    const framed: Site = { origin: 'https://news.example', frameOrigin: 'https://widget.example' };
    const answer = t.call('eth_requestAccounts', [], framed);
    await new Promise((r) => setTimeout(r, 20));
    const [pending] = await t.approvals.list();
    expect(pending).toMatchObject({ origin: 'https://news.example', frameOrigin: 'https://widget.example' });
    await t.approvals.decide(pending!.id, true);
    await answer;
    expect(await t.sites.permission('https://widget.example')).toBeDefined();
    expect(await t.sites.permission('https://news.example')).toBeUndefined();
  });

  it('switches only to known chains (4902 otherwise), after approval', async () => {
    const t = setup();
    expect(await t.call('wallet_switchEthereumChain', [{ chainId: '0xa868' }])).toEqual({ ok: true, result: null });
    expect((await errorOf(t.call('wallet_switchEthereumChain', [{ chainId: '0x1' }]))).code).toBe(4902);
    expect((await errorOf(t.call('wallet_switchEthereumChain', [{ chainId: '0x01' }]))).code).toBe(-32602);
    const switching = t.call('wallet_switchEthereumChain', [{ chainId: '0xa86a' }]);
    await new Promise((r) => setTimeout(r, 20));
    const [pending] = await t.approvals.list();
    expect(pending?.summary).toEqual({ kind: 'switch-chain', scope: 'wallet', fromName: 'Local network C-Chain (chain ID 43112)', toName: 'Avalanche Mainnet C-Chain', chainId: '43114' });
    await t.approvals.decide(pending!.id, false);
    expect((await errorOf(switching)).code).toBe(4001);
  });

  it('a locked wallet answers eth_accounts with [] and opens the window to unlock before asking', async () => {
    const t = setup({ unlocked: false });
    await t.sites.grant(SITE.origin, [ACCOUNT.id]);
    expect(await t.call('eth_accounts')).toEqual({ ok: true, result: [] });
    const waiting = t.call('personal_sign', ['0x00', ACCOUNT.cAddress]);
    await new Promise((r) => setTimeout(r, 20));
    expect(t.windows()).toBe(1);
    expect(await t.approvals.list()).toEqual([]);
    t.provider.cancelWaits();
    expect((await errorOf(waiting)).code).toBe(4001);
  });

  it('with no wallet set up, a request that needs it is answered 4100 at once, in words, and opens no window', async () => {
    const t = setup({ unlocked: false, noWallet: true });
    for (const [method, params] of [['eth_requestAccounts', []], ['wallet_switchEthereumChain', [{ chainId: '0xa86a' }]]] as const) {
      const e = await errorOf(t.call(method, params));
      expect(e).toEqual({ code: 4100, message: expect.stringMatching(/^XPC Wallet is not set up yet/) });
    }
    expect(t.windows()).toBe(0);
    expect(t.provider.sitesWaitingForUnlock()).toEqual([]);
  });

  it('corrupt site settings are a typed error, not a crash, said to the page in fixed words', async () => {
    const t = setup();
    await t.stores.local.set({ [SITES_STORAGE_KEY]: { version: 99 } });
    expect(await errorOf(t.call('eth_accounts'))).toEqual({ code: -32603, message: "the wallet's storage is damaged, so it stopped: open the wallet", data: { reason: 'storage-corrupt' } });
  });
});

describe('what the review found', () => {
  it('a duplicate of a running request joins it: one approval, one answer', async () => {
    const t = setup();
    const first = t.call('eth_requestAccounts', [], SITE, 'same');
    const second = t.call('eth_requestAccounts', [], SITE, 'same');
    await new Promise((r) => setTimeout(r, 20));
    const pending = await t.approvals.list();
    expect(pending).toHaveLength(1);
    await t.approvals.decide(pending[0]!.id, true);
    expect(await first).toEqual({ ok: true, result: [ACCOUNT.cAddress] });
    expect(await second).toEqual(await first);
    // Re-sent after it finished: the accounts again, not an error.
    expect(await t.call('eth_requestAccounts', [], SITE, 'same')).toEqual({ ok: true, result: [ACCOUNT.cAddress] });
  });

  it('a requestId that arrives from another site is another request: it neither joins, replays nor rides the first', async () => {
    const t = setup();
    const other: Site = { origin: 'https://other.example' };
    const framed: Site = { origin: SITE.origin, frameOrigin: 'https://widget.example' };
    const first = t.call('eth_requestAccounts', [], SITE, 'same');
    await new Promise((r) => setTimeout(r, 20));
    const second = t.call('eth_requestAccounts', [], other, 'same');
    await new Promise((r) => setTimeout(r, 20));
    // Running at once: the second did not join the first, it waits for its own approval.
    const pending = await t.approvals.list();
    expect(pending.map((p) => p.origin)).toEqual([SITE.origin, other.origin]);
    await t.approvals.decide(pending[0]!.id, true);
    expect(await first).toEqual({ ok: true, result: [ACCOUNT.cAddress] });
    await t.approvals.decide(pending[1]!.id, false);
    expect((await errorOf(second)).code).toBe(4001);
    expect(await t.sites.permission(other.origin)).toBeUndefined();
    // After both finished (their answers logged, their approvals decided), the same ID from a frame
    // of another origin in the first site's page asks anew: it is given neither logged answer.
    const third = t.call('eth_requestAccounts', [], framed, 'same');
    await new Promise((r) => setTimeout(r, 20));
    const [asking] = await t.approvals.list();
    expect(asking).toMatchObject({ origin: SITE.origin, frameOrigin: framed.frameOrigin });
    await t.approvals.decide(asking!.id, false);
    expect((await errorOf(third)).code).toBe(4001);
    expect(await t.sites.permission(framed.frameOrigin!)).toBeUndefined();
  });

  it('after the user closed the window on a site, its new requests are refused for a while', async () => {
    const t = setup();
    t.provider.cancelWaits([SITE.origin]);
    expect((await errorOf(t.call('eth_requestAccounts'))).code).toBe(4001);
    expect(t.windows()).toBe(0);
    // Another site is not affected.
    const other = t.call('eth_requestAccounts', [], { origin: 'https://other.example' });
    await new Promise((r) => setTimeout(r, 20));
    expect(await t.approvals.list()).toHaveLength(1);
    await t.approvals.decide((await t.approvals.list())[0]!.id, false);
    expect((await errorOf(other)).code).toBe(4001);
  });

  it('a page that asks again right after each "no" is held off as after a close; a person asking again later is not', async () => {
    let clock = 1_000_000;
    const t = setup({ now: () => clock });
    const askAndReject = async (): Promise<void> => {
      const asking = t.call('eth_requestAccounts');
      await new Promise((r) => setTimeout(r, 10));
      const [pending] = await t.approvals.list();
      await t.approvals.decide(pending!.id, false);
      expect((await errorOf(asking)).code).toBe(4001);
    };
    // A person: each ask a few seconds after the last "no" gets its window.
    for (let i = 0; i < 4; i++) {
      await askAndReject();
      clock += 5_000;
    }
    expect(t.windows()).toBe(4);
    // A page in a loop: it asks again within a second of each "no"; the third such ask gets no window.
    await askAndReject();
    for (let i = 0; i < 2; i++) {
      clock += 500;
      await askAndReject();
    }
    clock += 500;
    const refused = await errorOf(t.call('eth_requestAccounts'));
    expect(refused).toMatchObject({ code: 4001, message: expect.stringMatching(/said no to this site several times in a row/) });
    expect(t.windows()).toBe(7);
    // Held off for the close's cool-down (said as it is), then heard again; another site never was.
    clock += 10_000;
    expect(await errorOf(t.call('personal_sign', ['0x00', ACCOUNT.cAddress]))).toMatchObject({ code: 4001, message: expect.stringMatching(/several times in a row/) });
    expect(t.windows()).toBe(7);
    const other = t.call('eth_requestAccounts', [], { origin: 'https://other.example' });
    await new Promise((r) => setTimeout(r, 10));
    expect(t.windows()).toBe(8);
    await t.approvals.decide((await t.approvals.list())[0]!.id, false);
    await other;
    clock += 30_000;
    await askAndReject();
    expect(t.windows()).toBe(9);
  });

  it('asking something else at once after each "no" is the same loop; re-clicks refused as already waiting are no "no"', async () => {
    const clock = 1_000_000;
    const t = setup({ now: () => clock });
    for (let i = 0; i < 3; i++) {
      const asking = t.call(i % 2 === 0 ? 'eth_requestAccounts' : 'wallet_requestPermissions', i % 2 === 0 ? [] : [{ eth_accounts: {} }]);
      await new Promise((r) => setTimeout(r, 10));
      await t.approvals.decide((await t.approvals.list())[0]!.id, false);
      expect((await errorOf(asking)).code).toBe(4001);
    }
    expect(await errorOf(t.call('wallet_requestPermissions', [{ eth_accounts: {} }]))).toMatchObject({ code: 4001, message: expect.stringMatching(/several times in a row/) });
    expect(t.windows()).toBe(3);

    // One "no", then a person clicking Connect again and again while its window waits: not a loop.
    const u = setup({ now: () => clock });
    const first = u.call('eth_requestAccounts');
    await new Promise((r) => setTimeout(r, 10));
    await u.approvals.decide((await u.approvals.list())[0]!.id, false);
    await first;
    const again = u.call('eth_requestAccounts');
    await new Promise((r) => setTimeout(r, 10));
    for (let i = 0; i < 3; i++) expect((await errorOf(u.call('eth_requestAccounts'))).code).toBe(-32002);
    await u.approvals.decide((await u.approvals.list())[0]!.id, true);
    expect(await again).toEqual({ ok: true, result: [ACCOUNT.cAddress] });
    const signing = u.call('personal_sign', ['0x00', ACCOUNT.cAddress]);
    await new Promise((r) => setTimeout(r, 10));
    expect(await u.approvals.list()).toHaveLength(1);
    await u.approvals.decide((await u.approvals.list())[0]!.id, false);
    await signing;
  });

  it('a "yes" ends a run of quick asks: no, ask, no, ask, yes, then no, ask, no, ask all get their windows', async () => {
    const clock = 1_000_000;
    const t = setup({ now: () => clock });
    for (const answer of [false, false, true, false, false]) {
      const asking = t.call('eth_requestAccounts');
      await new Promise((r) => setTimeout(r, 10));
      await t.approvals.decide((await t.approvals.list())[0]!.id, answer);
      await asking;
      if (answer) await t.sites.revoke(SITE.origin);
    }
    const last = t.call('eth_requestAccounts');
    await new Promise((r) => setTimeout(r, 10));
    expect(t.windows()).toBe(6);
    await t.approvals.decide((await t.approvals.list())[0]!.id, false);
    await last;
  });

  it('a site that is not connected cannot make a locked wallet ask for the password to sign for it', async () => {
    const t = setup({ unlocked: false });
    expect((await errorOf(t.call('personal_sign', ['0x00', ACCOUNT.cAddress]))).code).toBe(4100);
    expect((await errorOf(t.call('eth_sendTransaction', [{ from: ACCOUNT.cAddress, to: ACCOUNT.cAddress }]))).code).toBe(4100);
    expect(t.windows()).toBe(0);
    expect(t.provider.sitesWaitingForUnlock()).toEqual([]);
  });

  it('sites waiting for an unlock are named, and after the window closed on them they wait before asking again', async () => {
    const t = setup({ unlocked: false });
    const framed: Site = { origin: 'https://news.example', frameOrigin: 'https://widget.example' };
    const connecting = t.call('eth_requestAccounts', [], framed);
    await new Promise((r) => setTimeout(r, 20));
    expect(t.windows()).toBe(1);
    expect(t.provider.sitesWaitingForUnlock()).toEqual(['https://widget.example']);
    t.provider.cancelWaits();
    expect((await errorOf(connecting)).code).toBe(4001);
    expect(t.provider.sitesWaitingForUnlock()).toEqual([]);
    // The same frame again: refused without a window. The page around it is not held back.
    expect((await errorOf(t.call('eth_requestAccounts', [], framed))).code).toBe(4001);
    expect(t.windows()).toBe(1);
    t.unlock();
    const page = t.call('eth_requestAccounts', [], { origin: 'https://news.example' });
    await new Promise((r) => setTimeout(r, 20));
    expect(await t.approvals.list()).toHaveLength(1);
    await t.approvals.decide((await t.approvals.list())[0]!.id, true);
    expect(await page).toEqual({ ok: true, result: [ACCOUNT.cAddress] });
  });

  it('a connected site still gets its accounts from eth_requestAccounts during the cooldown (no window needed)', async () => {
    const t = setup();
    await t.sites.grant(SITE.origin, [ACCOUNT.id]);
    t.provider.cancelWaits([SITE.origin]);
    expect(await t.call('eth_requestAccounts')).toEqual({ ok: true, result: [ACCOUNT.cAddress] });
    expect((await errorOf(t.call('personal_sign', ['0x00', ACCOUNT.cAddress]))).code).toBe(4001);
    expect(t.windows()).toBe(0);
  });

  it("a frame's waiting request does not block the page's own request of the same kind", async () => {
    const t = setup();
    const fromFrame = t.call('eth_requestAccounts', [], { origin: 'https://news.example', frameOrigin: 'https://ads.example' });
    await new Promise((r) => setTimeout(r, 20));
    const fromPage = t.call('eth_requestAccounts', [], { origin: 'https://news.example' });
    await new Promise((r) => setTimeout(r, 20));
    const pending = await t.approvals.list();
    expect(pending.map((p) => p.frameOrigin ?? p.origin)).toEqual(['https://ads.example', 'https://news.example']);
    // A second request from the frame is the one refused.
    const again = await errorOf(t.call('eth_requestAccounts', [], { origin: 'https://news.example', frameOrigin: 'https://ads.example' }));
    expect(again).toMatchObject({ code: -32002, message: expect.stringContaining('ads.example already has') });
    for (const p of pending) await t.approvals.decide(p.id, false);
    expect((await errorOf(fromFrame)).code).toBe(4001);
    expect((await errorOf(fromPage)).code).toBe(4001);
  });

  it('a window that cannot open leaves no request pending', async () => {
    const t = setup({ windowFails: true });
    expect((await errorOf(t.call('eth_requestAccounts'))).code).toBe(-32603);
    expect(await t.approvals.list()).toEqual([]);
  });

  it('locked, one site (its subdomains together) holds at most 5 of the places waiting for the unlock; another site still gets one', async () => {
    const t = setup({ unlocked: false });
    const flood = Array.from({ length: 5 }, (_, i) => t.call('eth_requestAccounts', [], { origin: `https://x${i}.evil.example` }));
    await new Promise((r) => setTimeout(r, 20));
    expect(await errorOf(t.call('eth_requestAccounts', [], { origin: 'https://x9.evil.example' }))).toMatchObject({ code: -32002, message: expect.stringContaining('evil.example already has 5 requests waiting') });
    const shop = t.call('eth_requestAccounts', [], { origin: 'https://shop.example' });
    await new Promise((r) => setTimeout(r, 20));
    t.provider.cancelWaits();
    for (const r of [...flood, shop]) expect((await errorOf(r)).code).toBe(4001);
  });

  it('locked, a window that cannot open leaves no unlock wait behind: the next request opens one again', async () => {
    let fails = true;
    const t = setup({ unlocked: false, windowFails: () => fails });
    expect((await errorOf(t.call('eth_requestAccounts'))).code).toBe(-32603);
    fails = false;
    const next = t.call('eth_requestAccounts', [], { origin: 'https://news.example' });
    await new Promise((r) => setTimeout(r, 50));
    expect(t.windows()).toBe(2);
    t.provider.cancelWaits();
    expect((await errorOf(next)).code).toBe(4001);
  });

  it('wallet_addEthereumChain contacts the RPC only after the user approved it, and adds nothing it does not serve', async () => {
    const urls: string[] = [];
    const fetchStub = (async (url: string) => {
      urls.push(url);
      return new Response(JSON.stringify({ jsonrpc: '2.0', id: 1, result: '0x1' }), { status: 200 });
    }) as unknown as typeof fetch;
    const t = setup({ fetch: fetchStub });
    const adding = t.call('wallet_addEthereumChain', [{ chainId: '0x2a', chainName: 'Test chain', rpcUrls: ['https://rpc.test.example'], nativeCurrency: { name: 'T', symbol: 'TST', decimals: 18 } }]);
    await new Promise((r) => setTimeout(r, 20));
    expect(urls).toEqual([]);
    const [pending] = await t.approvals.list();
    expect(pending?.summary).toMatchObject({ kind: 'add-chain', chainId: '42', rpcUrl: 'https://rpc.test.example/' });
    await t.approvals.decide(pending!.id, true);
    const e = await errorOf(adding);
    expect(e.code).toBe(-32602);
    expect(e.message).toMatch(/does not serve chain 42/);
    expect(urls).toEqual(['https://rpc.test.example/']);
    expect((await t.sites.chains()).chains).toEqual([]);
  });

  it('an unreachable node is reported without its URL', async () => {
    const t = setup();
    const e = await errorOf(t.call('eth_blockNumber', []));
    expect(e).toEqual({ code: 4901, message: 'the wallet cannot reach its node' });
  });

  it('a node that is not the network the wallet is set to is reported without its URL', async () => {
    const t = setup({
      siteNetwork: async () => {
        throw new NodeIdentityError('the node at https://rpc.example/key-123 is not Avalanche Mainnet: its network ID is 5, expected 1');
      },
    });
    expect(await errorOf(t.call('eth_chainId'))).toEqual({ code: 4901, message: "the wallet's node is not the network the wallet is set to" });
  });

  it('a sandboxed frame (opaque origin) is not taken for the site that serves it', () => {
    expect(siteOfSender({ id: 'ext', url: 'https://victim.example/user-content', origin: 'null', frameId: 4, tab: { id: 1, url: 'https://victim.example/' } }, 'ext')).toBeUndefined();
  });

  it('text with direction overrides is shown as its bytes', () => {
    expect(messageParam('pay \u202e01', 'm', 100).encoding).toBe('hex');
  });

  it('unknown methods are worded as ethers recognises them; wallet_sendTransaction is "method not found" for viem', async () => {
    const t = setup();
    expect(await errorOf(t.call('eth_newPendingTransactionFilter', []))).toEqual({ code: 4200, message: 'The method "eth_newPendingTransactionFilter" does not exist / is not available in XPC Wallet' });
    expect((await errorOf(t.call('wallet_sendTransaction', [{}]))).code).toBe(-32601);
  });

  it('text that hides characters (a byte-order mark, tag or zero-width characters, separators) is shown as its bytes', () => {
    expect(messageParam('0xefbbbf48656c6c6f', 'm', 100)).toMatchObject({ encoding: 'hex', shown: '0xefbbbf48656c6c6f' });
    const tags = [...'evil'].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');
    for (const hidden of [`Login to good.example${tags}`, 'pay\u2060 10', 'a\u00adb', 'line\u2028break', '\ufeffHello']) {
      expect(messageParam(hidden, 'm', 200).encoding).toBe('hex');
    }
    // Fillers, variation selectors and the blank braille pattern render as nothing too.
    for (const hidden of ['a\u3164b', 'a\u115fb', 'x\ufe00', 'x\u{e0100}', 'a\u2800b', 'a\u034fb']) {
      expect(messageParam(hidden, 'm', 200).encoding, JSON.stringify(hidden)).toBe('hex');
    }
    expect(messageParam('Sign in\r\n\tnonce: 42 ✓', 'm', 100)).toMatchObject({ encoding: 'text', shown: 'Sign in\r\n\tnonce: 42 ✓' });
    // Ordinary text of any script, and emoji (joined, with skin tones, with VS16), stays text.
    for (const text of ['Grüße, José', '登录 确认', 'تسجيل الدخول', 'नमस्ते', 'ยืนยัน', 'I ❤️ it 👩‍💻 👍🏽 🏳️‍🌈']) {
      expect(messageParam(text, 'm', 200), text).toMatchObject({ encoding: 'text', shown: text });
    }
  });

  it("personal_sign of '0x' signs the empty message, not the two characters", () => {
    const empty = messageParam('0x', 'm', 10);
    expect(empty).toMatchObject({ encoding: 'hex', shown: '0x' });
    expect(empty.bytes).toHaveLength(0);
  });
});

describe('provider params', () => {
  const field = (run: () => unknown): string | undefined => {
    try {
      run();
    } catch (e) {
      if (e instanceof InvalidParamsError) return e.field;
      throw e;
    }
    return undefined;
  };

  it('transaction quantities with leading zeros are read as the number they write; "0x", non-hex, negatives and values past the bound are still refused', () => {
    expect(txQuantityParam('0x016345785d8a0000', 'v')).toBe(10n ** 17n);
    expect(txQuantityParam('0x00', 'v')).toBe(0n);
    expect(txQuantityParam('0x0000000000000000000000000000000000000000000000000000000000000001', 'v')).toBe(1n);
    for (const bad of ['0x', '0x0g', '16345785d8a0000', '-0x01', '0x-1', ' 0x01', 1, '0x1' + '0'.repeat(64)]) expect(field(() => txQuantityParam(bad, 'v')), String(bad)).toBe('v');
    expect(field(() => txQuantityParam('0x010000000000000000', 'n', (1n << 64n) - 1n))).toBe('n');
    // Chain IDs and other quantities keep JSON-RPC's rule.
    expect(field(() => quantityParam('0x01', 'q'))).toBe('q');
  });

  it('positional params', () => {
    expect(positional(undefined, 0, 1)).toEqual([]);
    expect(field(() => positional({}, 0, 1))).toBe('params');
    expect(field(() => positional([1, 2], 0, 1))).toBe('params');
  });

  it('addresses, quantities, data, chain IDs and URLs', () => {
    expect(evmAddressParam('0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc', 'a')).toBe('0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC');
    expect(field(() => evmAddressParam('0x8DB97c7cece249c2b98bdc0226cc4c2a57bf52fc', 'a'))).toBe('a'); // bad checksum
    expect(quantityParam('0x0', 'q')).toBe(0n);
    expect(quantityParam('0xde0b6b3a7640000', 'q')).toBe(10n ** 18n);
    for (const bad of ['0x', '0x00', '12', '-0x1', 1, '0x' + 'f'.repeat(65)]) expect(field(() => quantityParam(bad, 'q'))).toBe('q');
    expect(hexDataParam('0xABcd', 'd', 4)).toBe('0xabcd');
    for (const bad of ['0xabc', 'abcd', '0xgg', '0x' + '00'.repeat(5)]) expect(field(() => hexDataParam(bad, 'd', 4))).toBe('d');
    expect(chainIdParam('0xa86a', 'c')).toBe(43114n);
    expect(field(() => chainIdParam('0x0', 'c'))).toBe('c');
    expect(field(() => chainIdParam('0x' + 'f'.repeat(20), 'c'))).toBe('c');
    expect(urlParam('https://rpc.example/x', 'u')).toBe('https://rpc.example/x');
    expect(urlParam('http://127.0.0.1:9650/ext/bc/C/rpc', 'u')).toBe('http://127.0.0.1:9650/ext/bc/C/rpc');
    for (const bad of ['http://rpc.example', 'ftp://x', 'data:text/plain,x', 'https://user:pw@rpc.example']) expect(field(() => urlParam(bad, 'u'))).toBe('u');
  });

  it('messages: readable hex is shown as text, other bytes as hex, the bytes signed unchanged', () => {
    expect(messageParam('0x68690a', 'm', 10)).toMatchObject({ encoding: 'text', shown: 'hi\n' });
    const bin = messageParam('0x00ff', 'm', 10);
    expect(bin).toMatchObject({ encoding: 'hex', shown: '0x00ff' });
    expect([...bin.bytes]).toEqual([0, 255]);
    // A right-to-left override would hide what is signed: shown as hex.
    const rtl = new TextEncoder().encode('pay \u202e01');
    expect(messageParam('0x' + Buffer.from(rtl).toString('hex'), 'm', 100).encoding).toBe('hex');
    expect(messageParam('plain text', 'm', 100)).toMatchObject({ encoding: 'text', shown: 'plain text' });
    expect(field(() => messageParam('x'.repeat(11), 'm', 10))).toBe('m');
  });

  it('typed data: structure checked, JSON string or object', () => {
    const typed = { types: { Mail: [{ name: 'contents', type: 'string' }] }, primaryType: 'Mail', domain: { name: 'x' }, message: { contents: 'hi' } };
    expect(typedDataParam(JSON.stringify(typed), 't').primaryType).toBe('Mail');
    expect(typedDataParam(typed, 't').message).toEqual({ contents: 'hi' });
    expect(field(() => typedDataParam('{', 't'))).toBe('t');
    expect(field(() => typedDataParam({ ...typed, primaryType: 'Nope' }, 't'))).toBe('t.primaryType');
    expect(field(() => typedDataParam({ ...typed, types: { Mail: [{ name: 'a b', type: 'string' }] } }, 't'))).toBe('t.types.Mail[0].name');
    expect(field(() => typedDataParam({ ...typed, message: [] }, 't'))).toBe('t.message');
  });

  it('site tx hex, with or without 0x, bounded', () => {
    expect([...txHexParam('0x0001', 'h')]).toEqual([0, 1]);
    expect([...txHexParam('0001', 'h')]).toEqual([0, 1]);
    expect(field(() => txHexParam('0x0g', 'h'))).toBe('h');
    expect(field(() => txHexParam(42, 'h'))).toBe('h');
  });
});

describe('who is asking', () => {
  const tab = { id: 3, url: 'https://top.example/page' };
  it('takes the origin from the browser: top frame, sub frame, insecure and foreign senders', () => {
    expect(siteOfSender({ id: 'ext', url: 'https://top.example/page', frameId: 0, tab }, 'ext')).toEqual({ origin: 'https://top.example', tabId: 3, frameId: 0 });
    expect(siteOfSender({ id: 'ext', url: 'https://frame.example/x', origin: 'https://frame.example', frameId: 7, tab }, 'ext')).toEqual({
      origin: 'https://top.example',
      frameOrigin: 'https://frame.example',
      tabId: 3,
      frameId: 7,
    });
    expect(siteOfSender({ id: 'ext', url: 'http://localhost:5173/', frameId: 0, tab: { id: 1, url: 'http://localhost:5173/' } }, 'ext')?.origin).toBe('http://localhost:5173');
    expect(siteOfSender({ id: 'ext', url: 'http://shop.example/', frameId: 0, tab: { id: 1, url: 'http://shop.example/' } }, 'ext')).toBeUndefined();
    expect(siteOfSender({ id: 'other', url: 'https://top.example/', frameId: 0, tab }, 'ext')).toBeUndefined();
    expect(siteOfSender({ id: 'ext', url: 'https://top.example/', frameId: 0 }, 'ext')).toBeUndefined();
    // A sub frame whose top page the browser does not tell: refused rather than guessed.
    expect(siteOfSender({ id: 'ext', url: 'https://frame.example/', frameId: 2, tab: { id: 3 } }, 'ext')).toBeUndefined();
    // A prerendered page: not on screen, and its main frame's id is not 0; refused while it is not
    // active, and once active it speaks for itself, not for the tab's current page.
    const prerendered = { id: 'ext', url: 'https://next.example/', origin: 'https://next.example', frameId: 9, frameType: 'outermost_frame', tab };
    expect(siteOfSender({ ...prerendered, documentLifecycle: 'prerender' }, 'ext')).toBeUndefined();
    expect(siteOfSender({ ...prerendered, documentLifecycle: 'active' }, 'ext')).toEqual({ origin: 'https://next.example', tabId: 3, frameId: 9 });
    expect(siteOfSender({ id: 'ext', url: 'https://top.example/page', frameId: 0, tab, documentLifecycle: 'cached' }, 'ext')).toBeUndefined();
    expect(siteOfSender({ id: 'ext', url: 'https://ad.example/', origin: 'https://ad.example', frameId: 4, frameType: 'fenced_frame', documentLifecycle: 'active', tab }, 'ext')).toBeUndefined();
  });
});

describe('an approval acts only on the chain it was shown for', () => {
  it('typed data naming a chain, approved after the wallet switched networks, is refused with 4901 and nothing is signed', async () => {
    let network = { network: { id: 'local', name: 'Local network', url: 'http://127.0.0.1:1', hrp: 'local' }, evmChainId: 43112n };
    let signed = 0;
    const t = setup({
      wallet: {
        siteNetwork: async () => network as never,
        evmInsight: async () => ({}) as never,
        withEvmSecret: async () => {
          signed++;
          return '0x' as never;
        },
      },
    });
    await t.sites.grant(SITE.origin, [ACCOUNT.id]);
    const typed = {
      types: { EIP712Domain: [{ name: 'name', type: 'string' }, { name: 'chainId', type: 'uint256' }], Note: [{ name: 'text', type: 'string' }] },
      primaryType: 'Note',
      domain: { name: 'Notes', chainId: 43112 },
      message: { text: 'hello' },
    };
    const answer = t.call('eth_signTypedData_v4', [ACCOUNT.cAddress, JSON.stringify(typed)]);
    let pending = (await t.approvals.list())[0];
    for (let i = 0; !pending && i < 50; i++) {
      await new Promise((r) => setTimeout(r, 10));
      pending = (await t.approvals.list())[0];
    }
    // The wallet is switched to another network (in the popup, or by another site) before the user approves.
    network = { network: { id: 'mainnet', name: 'Avalanche Mainnet', url: 'https://api.avax.network', hrp: 'avax' }, evmChainId: 43114n };
    await t.approvals.decide(pending!.id, true);
    expect(await errorOf(answer)).toMatchObject({ code: 4901, message: expect.stringContaining('switched to Avalanche Mainnet') });
    expect(signed).toBe(0);
  });
});

describe('typed data shown for signing', () => {
  it('shows characters that hide or reorder text as \\u codes, with a warning, and signs the data itself', async () => {
    const t = setup({ wallet: { evmInsight: async () => ({}) as never } });
    await t.sites.grant(SITE.origin, [ACCOUNT.id]);
    const typed = {
      types: { EIP712Domain: [{ name: 'name', type: 'string' }], Note: [{ name: 'text', type: 'string' }, { name: 'tag', type: 'string' }] },
      primaryType: 'Note',
      domain: { name: 'Uni\u200bswap' },
      message: { text: 'send to \u202eecila\u202c only', tag: 'pay\u{e0041}1' },
    };
    void t.call('eth_signTypedData_v4', [ACCOUNT.cAddress, JSON.stringify(typed)]);
    let pending = (await t.approvals.list())[0];
    for (let i = 0; !pending && i < 50; i++) {
      await new Promise((r) => setTimeout(r, 10));
      pending = (await t.approvals.list())[0];
    }
    const summary = pending!.summary as { messageJson: string; domainJson: string; hiddenCharacters?: true };
    expect(summary.messageJson).toContain('send to \\u202eecila\\u202c only');
    expect(summary.messageJson).not.toMatch(/[\u202e\u202c]/);
    expect(summary.domainJson).toContain('Uni\\u200bswap');
    // Above U+FFFF in braces: never read as a shorter escape followed by a digit.
    expect(summary.messageJson).toContain('pay\\u{e0041}1');
    expect(summary.hiddenCharacters).toBe(true);
    const payload = (await t.approvals.findByRequest(pending!.requestId!))!.entry.params as { typed: { message: { text: string } } };
    expect(payload.typed.message.text).toBe('send to \u202eecila\u202c only');
  });
});

describe('a site disconnected while its request waited', () => {
  /** A connected site's personal_sign waiting for its approval, and how many times a key signed. */
  async function waitingSignature() {
    let signed = 0;
    const t = setup({
      wallet: {
        withEvmSecret: async () => {
          signed++;
          return '0x' as never;
        },
      },
    });
    await t.sites.grant(SITE.origin, [ACCOUNT.id]);
    const answer = t.call('personal_sign', ['0x68656c6c6f', ACCOUNT.cAddress]);
    await expect.poll(async () => (await t.approvals.list()).length).toBe(1);
    const [pending] = await t.approvals.list();
    return { t, answer, pending: pending!, signed: () => signed };
  }

  it('gets nothing done for it, even once the user approves (4100), and nothing is signed', async () => {
    const { t, answer, pending, signed } = await waitingSignature();
    await t.sites.revoke(SITE.origin);
    await t.approvals.decide(pending.id, true);
    expect((await errorOf(answer)).code).toBe(4100);
    expect(signed()).toBe(0);
  });

  it('disconnected and connected again to another account only: the request approved for the first account signs nothing (4100)', async () => {
    const { t, answer, pending, signed } = await waitingSignature();
    // The user disconnects the site, then approves its new connect request for another account.
    await t.sites.revoke(SITE.origin);
    await t.sites.grant(SITE.origin, ['acc2']);
    await t.approvals.decide(pending.id, true);
    expect(await errorOf(answer)).toMatchObject({ code: 4100, message: expect.stringContaining('no longer connected to the account') });
    expect(signed()).toBe(0);
  });
});

describe("a site's EVM tx and the gas limit", () => {
  it("a node's estimate above the wallet's gas ceiling is refused before any approval (under Helicon half of a limit is charged); so is a site's own", async () => {
    const node = (estimate: bigint) =>
      (async (_url: string, init?: RequestInit) => {
        const { id, method } = JSON.parse(String(init?.body)) as { id: number; method: string };
        const h = '0x' + '00'.repeat(32);
        const result = {
          eth_getBlockByNumber: { number: '0x1', hash: h, parentHash: h, timestamp: '0x1', baseFeePerGas: '0x5d21dba00', gasLimit: '0x4c4b400', gasUsed: '0x0', transactions: [] },
          eth_maxPriorityFeePerGas: '0x0',
          eth_estimateGas: '0x' + estimate.toString(16),
        }[method];
        return new Response(JSON.stringify({ jsonrpc: '2.0', id, result }), { status: 200 });
      }) as unknown as typeof fetch;
    const wallet = { evmNonceFor: async () => 0n, recipientOf: async () => ({ warnings: [] }) };
    const send = (gas?: bigint) => [{ from: ACCOUNT.cAddress, to: ACCOUNT.cAddress, data: '0xa9059cbb', ...(gas ? { gas: '0x' + gas.toString(16) } : {}) }];
    const t = setup({ fetch: node(MAX_C_GAS_LIMIT + 1n), wallet });
    await t.sites.grant(SITE.origin, [ACCOUNT.id]);
    expect(await errorOf(t.call('eth_sendTransaction', send()))).toMatchObject({ message: expect.stringMatching(/gas estimate of 30000001, above the wallet's limit of 30000000/) });
    expect((await errorOf(t.call('eth_sendTransaction', send(MAX_C_GAS_LIMIT + 1n)))).code).toBe(-32602);
    expect(await t.approvals.list()).toEqual([]);
  });

  it('on a chain a site added (not Avalanche\'s C-Chain), neither the estimate nor the site\'s own limit is held to that ceiling', async () => {
    const h = '0x' + '00'.repeat(32);
    const big = '0x' + (MAX_C_GAS_LIMIT + 1n).toString(16);
    const fetchStub = (async (_url: string, init?: RequestInit) => {
      const { id, method } = JSON.parse(String(init?.body)) as { id: number; method: string };
      const result = { eth_chainId: '0x2a', eth_getBlockByNumber: { number: '0x1', hash: h, parentHash: h, timestamp: '0x1', baseFeePerGas: '0x1', gasLimit: '0x2faf0800', gasUsed: '0x0', transactions: [] }, eth_estimateGas: big }[method] ?? '0x0';
      return new Response(JSON.stringify({ jsonrpc: '2.0', id, result }), { status: 200 });
    }) as unknown as typeof fetch;
    const wallet = { recipientOf: async () => ({ warnings: [] }), evmInsight: async () => ({ eth: {}, account: ACCOUNT.cAddress, listed: [], nativeSymbol: 'TST', recipientOf: async () => ({ warnings: [] }), siteCalls: async () => 0 }) as never };
    const t = setup({ fetch: fetchStub, wallet });
    await t.sites.grant(SITE.origin, [ACCOUNT.id]);
    const adding = t.call('wallet_addEthereumChain', [{ chainId: '0x2a', chainName: 'Big blocks', rpcUrls: ['https://rpc.test.example'], nativeCurrency: { name: 'T', symbol: 'TST', decimals: 18 } }]);
    for (let i = 0; i < 2; i++) {
      await expect.poll(async () => (await t.approvals.list()).length).toBe(1);
      await t.approvals.decide((await t.approvals.list())[0]!.id, true);
    }
    await adding;
    for (const gas of [undefined, big]) {
      const sending = t.call('eth_sendTransaction', [{ from: ACCOUNT.cAddress, to: ACCOUNT.cAddress, ...(gas ? { gas } : {}) }]);
      await expect.poll(async () => (await t.approvals.list()).length).toBe(1);
      const [pending] = await t.approvals.list();
      expect(pending!.summary).toMatchObject({ kind: 'evm-tx', chainId: '42', gasLimit: String(MAX_C_GAS_LIMIT + 1n) });
      await t.approvals.decide(pending!.id, false);
      expect((await errorOf(sending)).code).toBe(4001);
    }
    // A gas limit is 64-bit there too: past it is refused before any approval.
    expect(await errorOf(t.call('eth_sendTransaction', [{ from: ACCOUNT.cAddress, to: ACCOUNT.cAddress, gas: '0x10000000000000000' }]))).toMatchObject({ code: -32602, data: { field: 'params[0].gas' } });
    expect(await t.approvals.list()).toEqual([]);
  });
});

// Routing, permissions and validation of site requests, without a node: the wallet service is a
// stand-in that knows one account and one network (the real-node flows are in
// test/integration/provider.test.ts).
import { describe, expect, it } from 'vitest';
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
import type { Site } from '../../src/background/provider.js';
import { siteOfSender } from '../../src/background/site-sender.js';
import { SITES_STORAGE_KEY } from '../../src/background/sites.js';
import { PROVIDER_CHANNEL, STATE_METHOD } from '../../src/shared/provider-protocol.js';
import { errorOf } from './provider-answers.js';
import { ACCOUNT } from './site-account.js';
import { setup, SITE } from './provider-fixtures.js';

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

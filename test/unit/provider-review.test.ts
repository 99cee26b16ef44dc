// What the review of a site's request found, without a node: duplicate and looping requests,
// windows that cannot open, and text that hides characters (the unlock wait: provider-unlock-wait).
import { describe, expect, it } from 'vitest';
import { NodeIdentityError } from '../../src/core/errors.js';
import { messageParam } from '../../src/background/provider-params.js';
import type { Site } from '../../src/background/provider.js';
import { siteOfSender } from '../../src/background/site-sender.js';
import { errorOf } from './provider-answers.js';
import { ACCOUNT } from './site-account.js';
import { setup, SITE } from './provider-fixtures.js';

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
    t.provider.cancelWaits([{ origin: SITE.origin }]);
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

  it('frames of ever new sites in one page asking right after each "no" are one loop; the page itself is not held by it', async () => {
    let clock = 1_000_000;
    const t = setup({ now: () => clock });
    const inNews = (host: string): Site => ({ origin: 'https://news.example', frameOrigin: `https://${host}` });
    for (let i = 0; i < 3; i++) {
      const asking = t.call('eth_requestAccounts', [], inNews(`f${i}.github.io`));
      await new Promise((r) => setTimeout(r, 10));
      await t.approvals.decide((await t.approvals.list())[0]!.id, false);
      expect((await errorOf(asking)).code).toBe(4001);
      clock += 500;
    }
    expect(await errorOf(t.call('eth_requestAccounts', [], inNews('f9.github.io')))).toMatchObject({ code: 4001, message: expect.stringMatching(/several times in a row/) });
    expect(t.windows()).toBe(3);
    void t.call('eth_requestAccounts', [], { origin: 'https://news.example' });
    await new Promise((r) => setTimeout(r, 10));
    expect(t.windows()).toBe(4);
  });

  it('a page not connected cannot list the chains the wallet knows: with one switch waiting, or held off, a chain it does not know is answered alike', async () => {
    const t = setup();
    const unknown = [{ chainId: '0x1' }];
    expect((await errorOf(t.call('wallet_switchEthereumChain', unknown))).code).toBe(4902);
    const known = t.call('wallet_switchEthereumChain', [{ chainId: '0xa86a' }]);
    await new Promise((r) => setTimeout(r, 10));
    expect(t.windows()).toBe(1);
    expect(await errorOf(t.call('wallet_switchEthereumChain', unknown))).toMatchObject({ code: -32002 });
    // The user closes the window: its request is refused, and the site held off.
    await t.approvals.decide((await t.approvals.list())[0]!.id, false);
    t.provider.cancelWaits([{ origin: SITE.origin }]);
    expect((await errorOf(known)).code).toBe(4001);
    expect((await errorOf(t.call('wallet_switchEthereumChain', unknown))).code).toBe(4001);
    // Locked, one switch waiting for the unlock: the same.
    const u = setup({ unlocked: false });
    void u.call('wallet_switchEthereumChain', [{ chainId: '0xa86a' }]);
    await new Promise((r) => setTimeout(r, 10));
    expect(await errorOf(u.call('wallet_switchEthereumChain', unknown))).toMatchObject({ code: -32002 });
    expect(await errorOf(u.call('wallet_switchEthereumChain', [{ chainId: '0xa86a' }]))).toMatchObject({ code: -32002 });
    u.provider.cancelWaits();
  });

  it("a window closed on a page's own request holds off its frames of other sites too", async () => {
    const t = setup();
    t.provider.cancelWaits([{ origin: 'https://news.example' }]);
    expect((await errorOf(t.call('eth_requestAccounts', [], { origin: 'https://news.example', frameOrigin: 'https://ads.example' }))).code).toBe(4001);
    expect(t.windows()).toBe(0);
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

  it('a connected site still gets its accounts from eth_requestAccounts during the cooldown (no window needed)', async () => {
    const t = setup();
    await t.sites.grant(SITE.origin, [ACCOUNT.id]);
    t.provider.cancelWaits([{ origin: SITE.origin }]);
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

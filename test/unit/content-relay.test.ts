// @vitest-environment happy-dom
// The content script's relay (src/content/relay.ts) with a fake background, clock and sleep, on a
// fresh happy-dom window per test (content-relay-test-kit.ts): requests from the page, events from
// the background, and both with the page provider. Page messages are dispatched as MessageEvents
// with `source: window`, as the browser delivers a page's own postMessage (happy-dom's postMessage
// would also refuse BigInt params, which a browser's structured clone carries).
import { Window as HappyWindow } from 'happy-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_IN_FLIGHT } from '../../src/content/relay.js';
import { createXpcProvider } from '../../src/inpage/provider.js';
import {
  CONTENT_TARGET,
  INPAGE_TARGET,
  MAX_METHOD_LENGTH,
  MAX_PARAMS_DEPTH,
  MAX_PARAMS_JSON_BYTES,
  PROVIDER_CHANNEL,
  PROVIDER_EVENT_CHANNEL,
  STATE_METHOD,
} from '../../src/shared/provider-protocol.js';
import { ok, pageShow, setup, stopRelays, windows } from './content-relay-test-kit.js';

afterEach(stopRelays);

/** `levels` nested arrays (or one-key objects) around a number: `levels` counts them all. */
function nested(levels: number, kind: 'array' | 'object' = 'array'): unknown {
  let v: unknown = 1;
  for (let i = 0; i < levels; i++) v = kind === 'array' ? [v] : { k: v };
  return v;
}

describe('page → background', () => {
  it('forwards a valid request under its own requestId and posts the answer back', async () => {
    const t = setup(ok('0xa86a'));
    t.request('page-1', 'eth_chainId');
    t.request('page-2', 'eth_getBalance', ['0xabc', 'latest']);

    expect(await t.answerTo('page-1')).toEqual({ ok: true, result: '0xa86a' });
    expect(await t.answerTo('page-2')).toEqual({ ok: true, result: '0xa86a' });
    expect(t.sendMessage.mock.calls.map(([m]) => m)).toEqual([
      { channel: PROVIDER_CHANNEL, requestId: 'rid-1', method: 'eth_chainId' },
      { channel: PROVIDER_CHANNEL, requestId: 'rid-2', method: 'eth_getBalance', params: ['0xabc', 'latest'] },
    ]);
    expect(t.toPage.find((m) => m.id === 'page-1')).toEqual({ target: INPAGE_TARGET, id: 'page-1', response: { ok: true, result: '0xa86a' } });
  });

  it('passes wallet errors through with code, message and data', async () => {
    const error = { code: 4001, message: 'the user rejected the request', data: { reason: 'closed' } };
    const t = setup(async () => ({ ok: false, error }));
    t.request('p', 'personal_sign', ['0x00', '0xabc']);
    expect(await t.answerTo('p')).toEqual({ ok: false, error });
  });

  it('answers -32005 beyond MAX_IN_FLIGHT requests on their way, and takes requests again once answers come', async () => {
    const held: (() => void)[] = [];
    const t = setup(() => new Promise((resolve) => held.push(() => resolve({ ok: true, result: '0x1' }))));
    for (let i = 0; i < MAX_IN_FLIGHT; i++) t.request(`p${i}`, 'eth_blockNumber');
    await vi.waitFor(() => expect(held).toHaveLength(MAX_IN_FLIGHT));
    t.request('one-too-many', 'eth_blockNumber');
    expect(await t.answerTo('one-too-many')).toMatchObject({ ok: false, error: { code: -32005 } });
    expect(t.sendMessage).toHaveBeenCalledTimes(MAX_IN_FLIGHT);
    held.shift()!();
    expect(await t.answerTo('p0')).toEqual({ ok: true, result: '0x1' });
    t.request('after', 'eth_blockNumber');
    await vi.waitFor(() => expect(t.sendMessage).toHaveBeenCalledTimes(MAX_IN_FLIGHT + 1));
    for (const release of held) release();
    expect(await t.answerTo('after')).toEqual({ ok: true, result: '0x1' });
  });

  it('refuses a sandboxed frame (opaque origin "null") with 4100, without forwarding', async () => {
    const t = setup(ok(['0xabc']));
    t.fromPage({ target: CONTENT_TARGET, id: 'sb', method: 'eth_requestAccounts' }, t.win, 'null');
    expect((await t.answerTo('sb')).error?.code).toBe(4100);
    expect(t.sendMessage).not.toHaveBeenCalled();
  });

  it('drops messages from other windows, with other targets, or without a usable id', async () => {
    const t = setup(ok(null));
    const other = new HappyWindow({ url: 'https://evil.example/' });
    windows.push(other);
    const message = { target: CONTENT_TARGET, id: 'x', method: 'eth_chainId' };
    t.fromPage(message, null);
    t.fromPage(message, other);
    t.fromPage({ ...message, target: INPAGE_TARGET });
    t.fromPage({ ...message, target: 'some-other-wallet' });
    t.fromPage({ ...message, id: 7 });
    t.fromPage({ ...message, id: '' });
    t.fromPage({ ...message, id: 'i'.repeat(101) });
    t.fromPage('eth_chainId');
    t.fromPage(null);

    // A valid request afterwards: once it is answered, the earlier ones would have been too.
    t.request('last', 'eth_chainId');
    await t.answerTo('last');
    expect(t.sendMessage).toHaveBeenCalledTimes(1);
    // (The INPAGE_TARGET look-alike the test posted shows up here too; it has no response.)
    expect(t.toPage.filter((m) => m.response !== undefined).map((m) => m.id)).toEqual(['last']);
  });

  it('answers -32602 at once and forwards nothing for bad methods or params', async () => {
    const t = setup(ok(null));
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const cases: Array<[string, unknown, unknown]> = [
      ['no-method', undefined, undefined],
      ['empty-method', '', undefined],
      ['number-method', 7, undefined],
      ['long-method', 'm'.repeat(MAX_METHOD_LENGTH + 1), undefined],
      ['string-params', 'eth_call', 'nope'],
      ['bigint', 'eth_call', [1n]],
      ['cyclic', 'eth_call', cyclic],
      ['oversize', 'eth_call', ['a'.repeat(MAX_PARAMS_JSON_BYTES)]],
      // Fewer characters than the limit, but more UTF-8 bytes.
      ['oversize-utf8', 'eth_call', ['é'.repeat(MAX_PARAMS_JSON_BYTES / 2)]],
    ];
    for (const [id, method, params] of cases) {
      t.fromPage({ target: CONTENT_TARGET, id, method, ...(params !== undefined ? { params } : {}) });
    }
    for (const [id] of cases) {
      const response = await t.answerTo(id);
      expect(response.ok, id).toBe(false);
      expect(response.error?.code, id).toBe(-32602);
    }
    expect(t.sendMessage).not.toHaveBeenCalled();
  });

  it(`answers -32602 for params nested deeper than ${MAX_PARAMS_DEPTH} levels, however deep, and forwards the limit itself`, async () => {
    const t = setup(ok('0x'));
    // 100,000 levels: JSON.stringify would overflow the stack; the measure does not recurse.
    const cases: Array<[string, unknown]> = [['array', nested(MAX_PARAMS_DEPTH + 1)], ['object', nested(MAX_PARAMS_DEPTH + 1, 'object')], ['very-deep', nested(100_000, 'object')]];
    for (const [id, params] of cases) t.request(id, 'eth_call', params);
    for (const [id] of cases) {
      const response = await t.answerTo(id);
      expect(response.error?.code, id).toBe(-32602);
      expect(response.error?.message, id).toMatch(/levels deep/);
    }
    expect(t.sendMessage).not.toHaveBeenCalled();
    t.request('limit', 'eth_call', nested(MAX_PARAMS_DEPTH));
    expect((await t.answerTo('limit')).ok).toBe(true);
  });

  it('tells the page at once that it received each request it can answer, before the answer', async () => {
    const t = setup(() => new Promise(() => {})); // the background never answers (an approval left open)
    t.request('slow', 'eth_requestAccounts');
    t.request('bad', '');
    t.fromPage({ target: CONTENT_TARGET, id: 'i'.repeat(101), method: 'eth_chainId' });
    t.fromPage({ target: CONTENT_TARGET, id: 9, method: 'eth_chainId' });
    await t.answerTo('bad');
    expect(t.receipts).toEqual(['slow', 'bad']);
    expect(t.toPage.map((m) => m.id)).toEqual(['bad']);
  });

  it('forwards params as the JSON data Chrome would deliver', async () => {
    const t = setup(ok('0x'));
    t.request('p', 'eth_call', [{ when: new Date(0), skip: undefined }, undefined]);
    expect((await t.answerTo('p')).ok).toBe(true);
    expect(t.sendMessage.mock.calls[0]?.[0].params).toEqual([{ when: '1970-01-01T00:00:00.000Z' }, null]);
  });

  it('forwards params of exactly the size limit', async () => {
    const t = setup(ok('0x'));
    // ["…"] is the string plus 4 bytes of JSON.
    const big = 'a'.repeat(MAX_PARAMS_JSON_BYTES - 4);
    t.request('p', 'eth_sendRawTransaction', [big]);
    expect((await t.answerTo('p')).ok).toBe(true);
    expect(t.sendMessage.mock.calls[0]?.[0].params).toEqual([big]);
  });

  it('answers -32603 when the background answers something that is not a provider response', async () => {
    const answers: unknown[] = [{ ok: false, error: { code: 'unknown-message', message: 'x' } }, 'hello', { ok: 'yes' }];
    const t = setup(async () => answers.shift());
    for (const id of ['a', 'b', 'c']) {
      t.request(id, 'eth_chainId');
      const response = await t.answerTo(id);
      expect(response.error?.code, id).toBe(-32603);
    }
  });
});

describe('background → page', () => {
  it("forwards stateChanged events for this page's origin and leaves every other runtime message unanswered", async () => {
    const t = setup(ok(null));
    const origin = t.win.location.origin;
    for (const message of [
      null,
      'stateChanged',
      { channel: 'xpc-wallet', event: 'stateChanged', origin },
      // For the document this frame held before (a connected site's): this page must not learn when that one changes.
      { channel: PROVIDER_EVENT_CHANNEL, event: 'stateChanged', origin: 'https://victim.example' },
      { channel: PROVIDER_EVENT_CHANNEL, event: 'stateChanged' },
      { channel: PROVIDER_EVENT_CHANNEL, event: 'disconnect' },
      { channel: PROVIDER_EVENT_CHANNEL, event: 'accountsChanged', accounts: ['0xaaa'] },
    ]) {
      expect(t.relay.onRuntimeMessage(message)).toBe(false);
    }
    // Acknowledged, so the background's tabs.sendMessage resolves instead of reporting no answer.
    expect(t.relay.onRuntimeMessage({ channel: PROVIDER_EVENT_CHANNEL, event: 'stateChanged', origin })).toBe(true);

    await vi.waitFor(() => expect(t.toPage).toHaveLength(1));
    // A request round trip as a barrier: nothing else was posted before it.
    t.request('barrier', 'eth_chainId');
    await t.answerTo('barrier');
    expect(t.toPage.map((m) => m.event ?? m.id)).toEqual(['stateChanged', 'barrier']);
    expect(t.toPage[0]).toEqual({ target: INPAGE_TARGET, event: 'stateChanged' });
  });

  it("drops a stateChanged for its URL's origin in a sandboxed document (its own origin \"null\"): a page the site did not write, or not as itself", async () => {
    const t = setup(ok(null));
    Object.defineProperty(t.win, 'origin', { value: 'null' });
    expect(t.relay.onRuntimeMessage({ channel: PROVIDER_EVENT_CHANNEL, event: 'stateChanged', origin: t.win.location.origin })).toBe(false);
    t.request('barrier', 'eth_chainId');
    await t.answerTo('barrier');
    expect(t.toPage.map((m) => m.event ?? m.id)).toEqual(['barrier']);
  });

  it('a return from the back/forward cache, or a prerendered page shown, tells the page to read its state again (the browser\'s events only)', async () => {
    const t = setup(ok(null));
    const activated = (trusted: boolean) => {
      const event = new Event('prerenderingchange');
      if (trusted) Object.defineProperty(event, 'isTrusted', { value: true });
      return event;
    };
    t.win.dispatchEvent(pageShow({ persisted: false, trusted: true }));
    t.win.dispatchEvent(pageShow({ persisted: true, trusted: false }));
    t.win.document.dispatchEvent(activated(false));
    t.win.dispatchEvent(pageShow({ persisted: true, trusted: true }));
    t.win.document.dispatchEvent(activated(true));
    t.request('barrier', 'eth_chainId');
    await t.answerTo('barrier');
    expect(t.toPage.map((m) => m.event ?? m.id)).toEqual(['stateChanged', 'stateChanged', 'barrier']);
  });
});

describe('with the page provider', () => {
  it('carries a request, a state change and a disconnect between provider and background', async () => {
    const state = { chainId: '0xa86a', networkVersion: '43114', accounts: [] as string[], isUnlocked: true };
    let gone = false;
    const t = setup(async (m) => {
      if (gone) throw new Error('Extension context invalidated.');
      if (m.method === STATE_METHOD) return { ok: true, result: { ...state } };
      if (m.method === 'eth_requestAccounts') return { ok: true, result: ['0xaaa'] };
      return { ok: false, error: { code: 4200, message: 'unsupported' } };
    });
    const provider = createXpcProvider(t.win);
    await vi.waitFor(() => expect(provider.isConnected()).toBe(true));
    await expect(provider.request({ method: 'eth_requestAccounts' })).resolves.toEqual(['0xaaa']);

    const chainChanged = vi.fn();
    provider.on('chainChanged', chainChanged);
    state.chainId = '0xa869';
    t.relay.onRuntimeMessage({ channel: PROVIDER_EVENT_CHANNEL, event: 'stateChanged', origin: t.win.location.origin });
    await vi.waitFor(() => expect(chainChanged).toHaveBeenCalledWith('0xa869'));

    const disconnect = vi.fn();
    provider.on('disconnect', disconnect);
    gone = true;
    await expect(provider.request({ method: 'eth_chainId' })).rejects.toMatchObject({ code: 4900 });
    await vi.waitFor(() => expect(disconnect).toHaveBeenCalledTimes(1));
    expect(provider.isConnected()).toBe(false);
  });

  it('a page back from the back/forward cache hears what changed while it was away', async () => {
    const state = { chainId: '0xa86a', networkVersion: '43114', accounts: ['0xaaa'], isUnlocked: true };
    const t = setup(async (m) => (m.method === STATE_METHOD ? { ok: true, result: { ...state } } : { ok: false, error: { code: 4200, message: 'unsupported' } }));
    const provider = createXpcProvider(t.win);
    const accountsChanged = vi.fn();
    const chainChanged = vi.fn();
    provider.on('accountsChanged', accountsChanged);
    provider.on('chainChanged', chainChanged);
    await vi.waitFor(() => expect(accountsChanged).toHaveBeenCalledWith(['0xaaa']));
    // Away: the wallet locked and switched network; nobody could tell this page.
    Object.assign(state, { chainId: '0xa869', accounts: [], isUnlocked: false });
    t.win.dispatchEvent(pageShow({ persisted: true, trusted: true }));
    await vi.waitFor(() => expect(accountsChanged).toHaveBeenLastCalledWith([]));
    expect(chainChanged).toHaveBeenCalledWith('0xa869');
    expect(provider.chainId).toBe('0xa869');
  });
});

// @vitest-environment happy-dom
// The page's provider (src/inpage) against a fake content script on a fresh happy-dom window.
// A standalone happy-dom Window delivers its own postMessage with `event.source === window`, as a
// browser does (the environment's global window does not), so each test gets one.
import { describe, expect, it, vi } from 'vitest';
import { createXpcProvider, RECEIPT_TIMEOUT_MS } from '../../src/inpage/provider.js';
import { CONTENT_TARGET, INPAGE_TARGET, MAX_METHOD_LENGTH, MAX_PARAMS_DEPTH, STATE_METHOD } from '../../src/shared/provider-protocol.js';
import { connected, fakeRelay, makeWindow, rejection, settle, wallet } from './inpage-fixtures.js';

describe('request', () => {
  it('posts { target, id, method, params } to the content script and resolves with its answer', async () => {
    const { provider, relay, results } = await connected();
    results.set('eth_getBalance', '0x10');

    const params = ['0x' + '11'.repeat(20), 'latest'];
    const pending = provider.request({ method: 'eth_getBalance', params });
    params[1] = 'pending'; // the request carries a snapshot, not the page's live array
    await expect(pending).resolves.toBe('0x10');

    const sent = relay.sent.find((s) => s.method === 'eth_getBalance');
    expect(sent).toMatchObject({ target: CONTENT_TARGET, method: 'eth_getBalance', params: ['0x' + '11'.repeat(20), 'latest'] });
    expect(sent?.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(relay.sent.map((s) => s.id)).size).toBe(relay.sent.length);
  });

  it('omits params when the dApp gives none', async () => {
    const { provider, relay } = await connected();
    await provider.request({ method: 'eth_chainId' });
    expect('params' in relay.sent.at(-1)!).toBe(false);
  });

  it('rejects with a ProviderRpcError carrying the code, message and data of the error', async () => {
    const { provider } = await connected({}, (method) =>
      method === STATE_METHOD
        ? { ok: true, result: { chainId: '0x1', networkVersion: '1', accounts: [], isUnlocked: true } }
        : method === 'personal_sign'
          ? { ok: false, error: { code: 4001, message: 'the user rejected the request', data: { reason: 'closed' } } }
          : { ok: false, error: { code: 4200, message: 'unsupported' } },
    );

    const e = await rejection(provider.request({ method: 'personal_sign', params: ['0x00', '0x' + '22'.repeat(20)] }));
    expect(e).toBeInstanceOf(Error);
    expect(e).toMatchObject({ name: 'ProviderRpcError', code: 4001, message: 'the user rejected the request', data: { reason: 'closed' } });

    const bare = await rejection(provider.request({ method: 'eth_foo' }));
    expect(bare.code).toBe(4200);
    expect('data' in bare).toBe(false);
  });

  it('rejects invalid arguments with -32602 without sending anything', async () => {
    const { provider, relay } = await connected();
    const before = relay.sent.length;

    const bad: Array<[unknown, RegExp]> = [
      [undefined, /object/],
      [null, /object/],
      ['eth_chainId', /object/],
      [['eth_chainId'], /object/],
      [{}, /method/],
      [{ method: '' }, /method/],
      [{ method: 42 }, /method/],
      [{ method: 'x'.repeat(MAX_METHOD_LENGTH + 1) }, /at most/],
      [{ method: 'eth_call', params: 'nope' }, /params/],
      [{ method: 'eth_call', params: null }, /params/],
      [{ method: 'eth_call', params: [() => 1] }, /plain data/],
      [{ method: 'eth_call', params: [Symbol('s')] }, /plain data/],
    ];
    for (const [args, message] of bad) {
      const e = await rejection(provider.request(args as never));
      expect(e.code, JSON.stringify(String(args))).toBe(-32602);
      expect(e.message).toMatch(message);
    }
    expect(relay.sent.length).toBe(before);

    await settle(provider);
    expect(relay.methods().slice(before)).toEqual(['eth_chainId']);
  });

  it('enable() asks for accounts like eth_requestAccounts', async () => {
    const { provider, relay, results } = await connected();
    results.set('eth_requestAccounts', ['0xabc']);
    await expect(provider.enable()).resolves.toEqual(['0xabc']);
    expect(relay.methods().at(-1)).toBe('eth_requestAccounts');
  });

  it('ignores answers from other windows and to unknown ids', async () => {
    const win = makeWindow();
    const w = wallet();
    const relay = fakeRelay(win, (method, params) => (method === 'eth_blockNumber' ? 'hold' : w.handler(method, params)));
    const provider = createXpcProvider(win);
    const result = vi.fn();
    const failed = vi.fn();
    void provider.request({ method: 'eth_blockNumber' }).then(result, failed);
    await vi.waitFor(() => expect(relay.methods()).toContain('eth_blockNumber'));
    const id = relay.sent.find((s) => s.method === 'eth_blockNumber')!.id;

    const forged = { target: INPAGE_TARGET, id, response: { ok: true, result: '0xbad' } };
    win.dispatchEvent(new MessageEvent('message', { data: forged, source: null }));
    win.dispatchEvent(new MessageEvent('message', { data: forged, source: makeWindow() }));
    win.dispatchEvent(new MessageEvent('message', { data: { ...forged, target: 'another-wallet' }, source: win }));
    win.dispatchEvent(new MessageEvent('message', { data: { ...forged, id: 'unknown-id' }, source: win }));
    await settle(provider);
    expect(result).not.toHaveBeenCalled();
    expect(failed).not.toHaveBeenCalled();

    relay.answer(id, { ok: true, result: '0x5' });
    await vi.waitFor(() => expect(result).toHaveBeenCalledWith('0x5'));
  });
});

/** `levels` nested arrays (or one-key objects, or Maps) around a number: `levels` counts them all. */
function nested(levels: number, kind: 'array' | 'object' | 'map' = 'array'): unknown {
  let v: unknown = 1;
  for (let i = 0; i < levels; i++) v = kind === 'array' ? [v] : kind === 'object' ? { k: v } : new Map([['k', v]]);
  return v;
}

/**
 * The window's timers of `RECEIPT_TIMEOUT_MS` held for the test to fire (the provider takes the
 * timer functions at creation); others, happy-dom's postMessage among them, run as usual.
 */
function manualTimers(win: Window) {
  const timers = new Map<number, { run: () => void; ms: number }>();
  const realSet = win.setTimeout.bind(win);
  const realClear = win.clearTimeout.bind(win);
  let next = -1;
  (win as unknown as { setTimeout: unknown }).setTimeout = (run: () => void, ms: number) => {
    if (ms !== RECEIPT_TIMEOUT_MS) return realSet(run, ms);
    timers.set(next, { run, ms });
    return next--;
  };
  (win as unknown as { clearTimeout: unknown }).clearTimeout = (id: number) => (id < 0 ? timers.delete(id) : realClear(id));
  return {
    /** Runs every timer set so far that waits `ms`, as if that time had passed. */
    fire(ms: number) {
      for (const [id, t] of [...timers]) {
        if (t.ms !== ms) continue;
        timers.delete(id);
        t.run();
      }
    },
    count: () => timers.size,
  };
}

describe('every request ends', () => {
  it(`rejects params nested deeper than ${MAX_PARAMS_DEPTH} levels with -32602, without posting, and sends the limit itself`, async () => {
    const { provider, relay, results } = await connected();
    results.set('eth_call', '0x');
    const before = relay.sent.length;
    for (const kind of ['array', 'object', 'map'] as const) {
      // params [x]: x at the limit minus one, so the whole is exactly at the limit.
      const e = await rejection(provider.request({ method: 'eth_call', params: [nested(MAX_PARAMS_DEPTH, kind)] }));
      expect(e.code, kind).toBe(-32602);
      expect(e.message).toMatch(/levels deep/);
    }
    // Far deeper than the stack would allow a recursive walk.
    expect((await rejection(provider.request({ method: 'eth_call', params: [nested(100_000, 'object')] }))).code).toBe(-32602);
    expect(relay.sent.length).toBe(before);
    await expect(provider.request({ method: 'eth_call', params: [nested(MAX_PARAMS_DEPTH - 1)] })).resolves.toBe('0x');
  });

  it('reads method and params once, and answers a getter that throws with -32602 instead of throwing', async () => {
    const { provider, relay, results } = await connected();
    results.set('eth_call', '0x');
    const throwing = Object.defineProperty({}, 'method', {
      get() {
        throw new Error('boom');
      },
    });
    let call: Promise<unknown> | undefined;
    expect(() => (call = provider.request(throwing as never))).not.toThrow();
    expect((await rejection(call!)).code).toBe(-32602);

    // A getter that hands the check valid params and the wallet something else gets read once.
    let reads = 0;
    const changing = { method: 'eth_call', get params() { return ++reads === 1 ? ['ok'] : 'changed'; } };
    await expect(provider.request(changing as never)).resolves.toBe('0x');
    expect(reads).toBe(1);
    expect(relay.sent.at(-1)?.params).toEqual(['ok']);
  });

  it(`answers -32603 when nothing shows the request was received within ${RECEIPT_TIMEOUT_MS / 1000} s (the content script could not read it, or is not there)`, async () => {
    const win = makeWindow();
    const timers = manualTimers(win);
    const w = wallet();
    // A relay that never saw the request, as when Chromium hands the isolated world `data: null`.
    fakeRelay(win, (method, params) => (method === 'eth_blockNumber' ? 'drop' : w.handler(method, params)));
    const provider = createXpcProvider(win);
    await vi.waitFor(() => expect(provider.isConnected()).toBe(true));
    const lost = provider.request({ method: 'eth_blockNumber' });
    const failed = vi.fn();
    lost.catch(failed);
    await settle(provider);
    expect(failed).not.toHaveBeenCalled();
    timers.fire(RECEIPT_TIMEOUT_MS);
    const e = await rejection(lost);
    expect(e).toMatchObject({ code: -32603, message: expect.stringMatching(/did not receive/) });
    // Answered requests left no timer behind.
    expect(timers.count()).toBe(0);
  });

  it('keeps waiting, past the receipt timeout, for a request the content script received (an approval takes minutes)', async () => {
    const win = makeWindow();
    const timers = manualTimers(win);
    const w = wallet();
    const relay = fakeRelay(win, (method, params) => (method === 'eth_requestAccounts' ? 'receipt' : w.handler(method, params)));
    const provider = createXpcProvider(win);
    await vi.waitFor(() => expect(provider.isConnected()).toBe(true));
    const result = vi.fn();
    const failed = vi.fn();
    void provider.request({ method: 'eth_requestAccounts' }).then(result, failed);
    await settle(provider);
    timers.fire(RECEIPT_TIMEOUT_MS);
    await settle(provider);
    expect(failed).not.toHaveBeenCalled();
    relay.answer(relay.sent.find((s) => s.method === 'eth_requestAccounts')!.id, { ok: true, result: ['0xabc'] });
    await vi.waitFor(() => expect(result).toHaveBeenCalledWith(['0xabc']));
  });
});

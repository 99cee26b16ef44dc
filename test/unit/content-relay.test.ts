// @vitest-environment happy-dom
// The content script's relay (src/content/relay.ts) with a fake background, clock and sleep, on a
// fresh happy-dom window per test. Page messages are dispatched as MessageEvents with
// `source: window`, as the browser delivers a page's own postMessage (happy-dom's postMessage
// would also refuse BigInt params, which a browser's structured clone carries).
import { Window as HappyWindow } from 'happy-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_ATTEMPTS, MAX_IN_FLIGHT, MAX_QUICK_FAILURES, QUICK_FAILURE_MS, RESTORE_GRACE_MS, startRelay, type RelayDeps } from '../../src/content/relay.js';
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
  type ProviderRequestMessage,
} from '../../src/shared/provider-protocol.js';

const CHANNEL_CLOSED =
  'A listener indicated an asynchronous response by returning true, but the message channel closed before a response was received';
const NO_RECEIVER = 'Could not establish connection. Receiving end does not exist.';
/** Chrome (123 on) closes a page's message channels when the page goes into the back/forward cache. */
const BFCACHE = 'The page keeping the extension port is moved into back/forward cache, so the message channel is closed.';

const windows: HappyWindow[] = [];
const relays: Array<{ stop(): void }> = [];

afterEach(async () => {
  for (const r of relays.splice(0)) r.stop();
  for (const w of windows.splice(0)) await w.happyDOM.close();
});

interface ToPage {
  target: string;
  id?: string;
  event?: string;
  received?: boolean;
  response?: { ok: boolean; result?: unknown; error?: { code: number; message: string; data?: unknown } };
}

function setup(send: (message: ProviderRequestMessage) => Promise<unknown>) {
  const win = new HappyWindow({ url: 'https://dapp.example/' }) as unknown as Window;
  windows.push(win as unknown as HappyWindow);
  const toPage: ToPage[] = [];
  /** Ids the relay said it received ({ received: true }), apart from the answers and events. */
  const receipts: string[] = [];
  win.addEventListener('message', (e: MessageEvent<unknown>) => {
    const data = e.data as ToPage | null;
    if (e.source !== win || data?.target !== INPAGE_TARGET) return;
    if (data.received === true && data.id !== undefined) receipts.push(data.id);
    else toPage.push(data);
  });
  const clock = { now: 1_000 };
  let ids = 0;
  const sendMessage = vi.fn(send);
  const deps = {
    win,
    sendMessage,
    isContextValid: vi.fn(() => true),
    sleep: vi.fn(async (_ms: number) => {}),
    now: () => clock.now,
    randomId: () => `rid-${++ids}`,
  } satisfies RelayDeps;
  const relay = startRelay(deps);
  relays.push(relay);

  // A browser sets origin to the posting document's origin ("null" for a sandboxed frame).
  const fromPage = (data: unknown, source: unknown = win, origin: string = win.location.origin) =>
    win.dispatchEvent(new MessageEvent('message', { data, source: source as Window | null, origin }));
  const request = (id: string, method: unknown, params?: unknown) =>
    fromPage({ target: CONTENT_TARGET, id, method, ...(params !== undefined ? { params } : {}) });
  const answerTo = async (id: string) => {
    await vi.waitFor(() => expect(toPage.find((m) => m.id === id)).toBeDefined());
    return toPage.find((m) => m.id === id)!.response!;
  };
  return { win, deps, relay, clock, sendMessage, toPage, receipts, fromPage, request, answerTo };
}

const ok = (result: unknown) => async () => ({ ok: true, result });

/** A pageshow event; `trusted` stands for one the browser dispatched (a page's own is not). */
function pageShow({ persisted, trusted }: { persisted: boolean; trusted: boolean }): Event {
  const event = Object.assign(new Event('pageshow'), { persisted });
  if (trusted) Object.defineProperty(event, 'isTrusted', { value: true });
  return event;
}

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

describe('a stopped background', () => {
  it('takes no answer at all (a message no listener answered) as a stopped worker and sends again', async () => {
    let calls = 0;
    const t = setup(async () => (++calls === 1 ? undefined : { ok: true, result: '0xa868' }));
    t.request('u', 'eth_chainId');
    expect(await t.answerTo('u')).toEqual({ ok: true, result: '0xa868' });
    expect(t.sendMessage).toHaveBeenCalledTimes(2);
  });

  it.each([
    ['the worker stopped', CHANNEL_CLOSED],
    ['the page went into the back/forward cache', BFCACHE],
  ])('sends the same message again after the channel closed (%s), and answers with the result', async (_why, lost) => {
    let calls = 0;
    const t = setup(async () => {
      calls++;
      if (calls === 1) throw new Error(lost);
      return { ok: true, result: ['0xaaa'] };
    });
    t.request('p', 'eth_requestAccounts');

    expect(await t.answerTo('p')).toEqual({ ok: true, result: ['0xaaa'] });
    expect(t.sendMessage).toHaveBeenCalledTimes(2);
    const [first, second] = t.sendMessage.mock.calls.map(([m]) => m);
    expect(second).toEqual(first);
    expect(second?.requestId).toBe('rid-1');
    expect(t.deps.sleep).toHaveBeenCalledTimes(1);
    expect(t.toPage.some((m) => m.event === 'disconnect')).toBe(false);
  });

  it('sends a request still on its way again, shortly after the page is back from the back/forward cache (Chrome: the first send never settles)', async () => {
    let calls = 0;
    const t = setup(async () => {
      calls++;
      // Chrome closed the channel when the page left: that send hears nothing, ever.
      if (calls === 1) return new Promise<never>(() => undefined);
      return { ok: true, result: '0xsigned' };
    });
    t.request('p', 'personal_sign', ['0x68690a', '0xaaa']);
    await vi.waitFor(() => expect(t.sendMessage).toHaveBeenCalledOnce());
    // A pageshow that is not a return from the cache (the first load), or that the page made
    // itself, sends nothing again.
    t.win.dispatchEvent(pageShow({ persisted: false, trusted: true }));
    t.win.dispatchEvent(pageShow({ persisted: true, trusted: false }));
    await new Promise((r) => setTimeout(r, 20));
    expect(t.sendMessage).toHaveBeenCalledOnce();
    expect(t.deps.sleep).not.toHaveBeenCalled();

    t.win.dispatchEvent(pageShow({ persisted: true, trusted: true }));
    expect(await t.answerTo('p')).toEqual({ ok: true, result: '0xsigned' });
    const [first, second] = t.sendMessage.mock.calls.map(([m]) => m);
    expect(second).toEqual(first);
    expect(second?.requestId).toBe('rid-1');
    // The grace for an answer still on its way, and no back-off: nothing failed.
    expect(t.deps.sleep.mock.calls).toEqual([[RESTORE_GRACE_MS]]);
    expect(t.toPage.filter((m) => m.id === 'p')).toHaveLength(1);
  });

  it('takes an answer that arrives within the grace after the return, and sends nothing again (Firefox keeps the channel)', async () => {
    let answer!: (reply: unknown) => void;
    const t = setup(() => new Promise((resolve) => (answer = resolve)));
    // The grace ends only when the test says so.
    let graceOver!: () => void;
    t.deps.sleep.mockImplementation(() => new Promise<void>((resolve) => (graceOver = resolve)));
    t.request('p', 'eth_getFilterChanges', ['0x1']);
    await vi.waitFor(() => expect(t.sendMessage).toHaveBeenCalledOnce());
    t.win.dispatchEvent(pageShow({ persisted: true, trusted: true }));
    await vi.waitFor(() => expect(t.deps.sleep).toHaveBeenCalledWith(RESTORE_GRACE_MS));
    answer({ ok: true, result: ['0xlog'] });
    expect(await t.answerTo('p')).toEqual({ ok: true, result: ['0xlog'] });
    graceOver();
    await new Promise((r) => setTimeout(r, 20));
    expect(t.sendMessage).toHaveBeenCalledOnce();
    expect(t.toPage.filter((m) => m.id === 'p')).toHaveLength(1);
  });

  it(`returns from the back/forward cache do not count towards the ${MAX_ATTEMPTS} failed sends: the request still waits for its approval`, async () => {
    let calls = 0;
    const t = setup(async () => {
      calls++;
      if (calls <= MAX_ATTEMPTS + 5) return new Promise<never>(() => undefined);
      return { ok: true, result: '0xsigned' };
    });
    t.request('p', 'personal_sign', ['0x68690a', '0xaaa']);
    for (let trip = 1; trip <= MAX_ATTEMPTS + 5; trip++) {
      await vi.waitFor(() => expect(t.sendMessage).toHaveBeenCalledTimes(trip));
      t.win.dispatchEvent(pageShow({ persisted: true, trusted: true }));
    }
    expect(await t.answerTo('p')).toEqual({ ok: true, result: '0xsigned' });
    expect(t.sendMessage).toHaveBeenCalledTimes(MAX_ATTEMPTS + 6);
  });

  it(`a channel closed for the back/forward cache is no failed attempt, however often (${MAX_ATTEMPTS + 5} in a row)`, async () => {
    let calls = 0;
    const t = setup(async () => {
      calls++;
      if (calls <= MAX_ATTEMPTS + 5) throw new Error(BFCACHE);
      return { ok: true, result: '0xsigned' };
    });
    t.request('p', 'personal_sign', ['0x68690a', '0xaaa']);
    expect(await t.answerTo('p')).toEqual({ ok: true, result: '0xsigned' });
    expect(t.sendMessage).toHaveBeenCalledTimes(MAX_ATTEMPTS + 6);
    expect(new Set(t.sendMessage.mock.calls.map(([m]) => m.requestId))).toEqual(new Set(['rid-1']));
  });

  it('a return from the back/forward cache concerns only the requests then on their way: none before, none after', async () => {
    const t = setup(ok('0xa868'));
    for (let i = 0; i < 30; i++) t.request(`before-${i}`, 'eth_chainId');
    for (let i = 0; i < 30; i++) expect(await t.answerTo(`before-${i}`)).toEqual({ ok: true, result: '0xa868' });
    // Answered sends keep no trigger behind them (so none piles up over a page's life).
    t.win.dispatchEvent(pageShow({ persisted: true, trusted: true }));
    expect(t.deps.sleep).not.toHaveBeenCalled();
    t.request('later', 'eth_chainId');
    expect(await t.answerTo('later')).toEqual({ ok: true, result: '0xa868' });
    expect(t.sendMessage).toHaveBeenCalledTimes(31);
    expect(t.deps.sleep).not.toHaveBeenCalled();
  });

  it('answers 4900 after repeated quick failures, without disconnecting the page', async () => {
    let fail = true;
    const t = setup(async () => {
      if (fail) throw new Error(NO_RECEIVER);
      return { ok: true, result: '0x1' };
    });
    t.request('p', 'eth_chainId');

    expect((await t.answerTo('p')).error?.code).toBe(4900);
    expect(t.sendMessage).toHaveBeenCalledTimes(MAX_QUICK_FAILURES);
    expect(new Set(t.sendMessage.mock.calls.map(([m]) => m.requestId))).toEqual(new Set(['rid-1']));
    // Backing off: each wait longer than the one before.
    const waits = t.deps.sleep.mock.calls.map(([ms]) => ms);
    expect(waits).toHaveLength(MAX_QUICK_FAILURES - 1);
    waits.slice(1).forEach((ms, i) => expect(ms).toBeGreaterThan(waits[i]!));

    // The extension is still there: the next request is tried again.
    fail = false;
    t.request('q', 'eth_chainId');
    expect(await t.answerTo('q')).toEqual({ ok: true, result: '0x1' });
    expect(t.toPage.some((m) => m.event === 'disconnect')).toBe(false);
  });

  it('does not count a failure after a long wait (an approval) as a quick one', async () => {
    let calls = 0;
    const t = setup(async () => {
      calls++;
      if (calls === 5) t.clock.now += QUICK_FAILURE_MS + 1_000; // the user looked at the approval for a while
      if (calls < 10) throw new Error(CHANNEL_CLOSED);
      return { ok: true, result: '0xsigned' };
    });
    t.request('p', 'eth_sendTransaction', [{}]);

    // 4 quick failures, a slow one (resets the count), 4 quick ones, then the answer.
    expect(await t.answerTo('p')).toEqual({ ok: true, result: '0xsigned' });
    expect(t.sendMessage).toHaveBeenCalledTimes(10);
  });

  it('answers -32603 at once, sending once, when sendMessage fails for another reason than a stopped worker', async () => {
    for (const reason of ['Could not serialize message.', 'DataCloneError: The object could not be cloned.', 'Error: An unexpected error occurred']) {
      const t = setup(() => Promise.reject(new Error(reason)));
      t.request('p', 'eth_chainId');
      expect((await t.answerTo('p')).error?.code, reason).toBe(-32603);
      expect(t.sendMessage).toHaveBeenCalledTimes(1);
      expect(t.toPage.some((m) => m.event === 'disconnect')).toBe(false);
    }
  });

  it(`gives up after ${MAX_ATTEMPTS} sends even when every failure is slow (a worker that dies on this request each time)`, async () => {
    const t = setup(async () => {
      t.clock.now += QUICK_FAILURE_MS + 1;
      throw new Error(CHANNEL_CLOSED);
    });
    t.request('p', 'eth_call', [{}]);
    expect((await t.answerTo('p')).error?.code).toBe(4900);
    expect(t.sendMessage).toHaveBeenCalledTimes(MAX_ATTEMPTS);
  });

  it('answers 4900 and tells the page it is disconnected when the extension context is gone', async () => {
    const t = setup(async () => {
      throw new Error('Extension context invalidated.');
    });
    t.request('p', 'eth_chainId');
    expect((await t.answerTo('p')).error?.code).toBe(4900);
    await vi.waitFor(() => expect(t.toPage).toContainEqual({ target: INPAGE_TARGET, event: 'disconnect' }));
    expect(t.sendMessage).toHaveBeenCalledTimes(1);

    // Later requests are answered at once, and the page is told only once.
    t.request('q', 'eth_chainId');
    expect((await t.answerTo('q')).error?.code).toBe(4900);
    expect(t.sendMessage).toHaveBeenCalledTimes(1);
    expect(t.toPage.filter((m) => m.event === 'disconnect')).toHaveLength(1);
  });

  it('treats a failure with runtime.id gone as a lost context, whatever the message says', async () => {
    const t = setup(() => Promise.reject(new Error(NO_RECEIVER)));
    t.deps.isContextValid.mockReturnValue(false);
    t.request('p', 'eth_chainId');
    expect((await t.answerTo('p')).error?.code).toBe(4900);
    await vi.waitFor(() => expect(t.toPage.some((m) => m.event === 'disconnect')).toBe(true));
    expect(t.sendMessage).toHaveBeenCalledTimes(1);
    expect(t.deps.sleep).not.toHaveBeenCalled();
  });

  it('handles a sendMessage that throws instead of rejecting', async () => {
    const t = setup(() => {
      throw new Error('Extension context invalidated.');
    });
    t.request('p', 'eth_chainId');
    expect((await t.answerTo('p')).error?.code).toBe(4900);
  });
});

describe('background → page', () => {
  it('forwards stateChanged events and leaves every other runtime message unanswered', async () => {
    const t = setup(ok(null));
    for (const message of [
      null,
      'stateChanged',
      { channel: 'xpc-wallet', event: 'stateChanged' },
      { channel: PROVIDER_EVENT_CHANNEL, event: 'disconnect' },
      { channel: PROVIDER_EVENT_CHANNEL, event: 'accountsChanged', accounts: ['0xaaa'] },
    ]) {
      expect(t.relay.onRuntimeMessage(message)).toBe(false);
    }
    // Acknowledged, so the background's tabs.sendMessage resolves instead of reporting no answer.
    expect(t.relay.onRuntimeMessage({ channel: PROVIDER_EVENT_CHANNEL, event: 'stateChanged' })).toBe(true);

    await vi.waitFor(() => expect(t.toPage).toHaveLength(1));
    // A request round trip as a barrier: nothing else was posted before it.
    t.request('barrier', 'eth_chainId');
    await t.answerTo('barrier');
    expect(t.toPage.map((m) => m.event ?? m.id)).toEqual(['stateChanged', 'barrier']);
    expect(t.toPage[0]).toEqual({ target: INPAGE_TARGET, event: 'stateChanged' });
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
    t.relay.onRuntimeMessage({ channel: PROVIDER_EVENT_CHANNEL, event: 'stateChanged' });
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

// @vitest-environment happy-dom
// The page's provider (src/inpage) against a fake content script on a fresh happy-dom window.
// A standalone happy-dom Window delivers its own postMessage with `event.source === window`, as a
// browser does (the environment's global window does not), so each test gets one.
import { Window as HappyWindow } from 'happy-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ANNOUNCE_EVENT, REQUEST_EVENT, type Eip6963ProviderDetail } from '../../src/inpage/eip6963.js';
import { installXpcWallet } from '../../src/inpage/install.js';
import { createXpcProvider, ProviderRpcError, RECEIPT_TIMEOUT_MS, type XpcProvider } from '../../src/inpage/provider.js';
import {
  CONTENT_TARGET,
  INPAGE_TARGET,
  MAX_METHOD_LENGTH,
  MAX_PARAMS_DEPTH,
  STATE_METHOD,
  type ProviderResponse,
  type ProviderState,
} from '../../src/shared/provider-protocol.js';

const windows: HappyWindow[] = [];

afterEach(async () => {
  vi.restoreAllMocks();
  for (const w of windows.splice(0)) await w.happyDOM.close();
});

function makeWindow(): Window {
  const w = new HappyWindow({ url: 'https://dapp.example/' });
  windows.push(w);
  return w as unknown as Window;
}

interface Sent {
  target: string;
  id: string;
  method: string;
  params?: unknown;
}

/**
 * What the fake relay answers; 'hold' keeps the request waiting (see `answer`), 'receipt' also
 * says it was received, as the real relay does, and 'drop' acts as if it never arrived.
 */
type Handler = (method: string, params: unknown) => ProviderResponse | 'hold' | 'receipt' | 'drop';

/** A stand-in for src/content: answers CONTENT_TARGET messages the way the real relay posts. */
function fakeRelay(win: Window, handler: Handler) {
  const sent: Sent[] = [];
  const answer = (id: string, response: ProviderResponse) => win.postMessage({ target: INPAGE_TARGET, id, response }, '*');
  win.addEventListener('message', (event: MessageEvent<unknown>) => {
    const data = event.data as Sent | null;
    if (event.source !== win || data?.target !== CONTENT_TARGET) return;
    const response = handler(data.method, data.params);
    if (response === 'drop') return;
    sent.push(data);
    if (response === 'receipt') win.postMessage({ target: INPAGE_TARGET, id: data.id, received: true }, '*');
    else if (response !== 'hold') answer(data.id, response);
  });
  return {
    sent,
    answer,
    methods: () => sent.map((s) => s.method),
    event: (name: 'stateChanged' | 'disconnect') => win.postMessage({ target: INPAGE_TARGET, event: name }, '*'),
  };
}

function wallet(initial: Partial<ProviderState> = {}) {
  const state: ProviderState = { chainId: '0xa86a', networkVersion: '43114', accounts: [], isUnlocked: true, ...initial };
  const results = new Map<string, unknown>([['eth_chainId', '0xa86a']]);
  const handler: Handler = (method) => {
    if (method === STATE_METHOD) return { ok: true, result: { ...state, accounts: [...state.accounts] } };
    if (results.has(method)) return { ok: true, result: results.get(method) };
    return { ok: false, error: { code: 4200, message: `unsupported: ${method}` } };
  };
  return { state, results, handler };
}

/** A provider on a fresh window whose first state read has been answered. */
async function connected(initial: Partial<ProviderState> = {}, handler?: Handler) {
  const win = makeWindow();
  const w = wallet(initial);
  const relay = fakeRelay(win, handler ?? w.handler);
  const provider = createXpcProvider(win);
  await vi.waitFor(() => expect(provider.isConnected()).toBe(true));
  return { win, provider, relay, ...w };
}

/** Answers are posted in order, so once a later round trip is back every earlier one is handled. */
async function settle(provider: XpcProvider): Promise<void> {
  await provider.request({ method: 'eth_chainId' });
}

function rejection(promise: Promise<unknown>): Promise<ProviderRpcError> {
  return promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (e: unknown) => {
      expect(e).toBeInstanceOf(ProviderRpcError);
      return e as ProviderRpcError;
    },
  );
}

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

describe('state and events', () => {
  it('reads the state at start and emits connect once, with the chain ID', async () => {
    const win = makeWindow();
    const w = wallet({ chainId: '0xa869', accounts: ['0xaaa'] });
    const relay = fakeRelay(win, w.handler);
    const provider = createXpcProvider(win);
    expect(provider.isConnected()).toBe(false);
    expect(provider.chainId).toBeNull();
    const connect = vi.fn();
    const accounts = vi.fn();
    provider.on('connect', connect);
    provider.on('accountsChanged', accounts);

    await vi.waitFor(() => expect(connect).toHaveBeenCalledTimes(1));
    expect(connect).toHaveBeenCalledWith({ chainId: '0xa869' });
    expect(relay.methods()[0]).toBe(STATE_METHOD);
    expect(provider.isConnected()).toBe(true);
    expect(provider.chainId).toBe('0xa869');
    expect(accounts).toHaveBeenCalledWith(['0xaaa']);

    relay.event('stateChanged');
    await vi.waitFor(() => expect(relay.methods().filter((m) => m === STATE_METHOD)).toHaveLength(2));
    await settle(provider);
    expect(connect).toHaveBeenCalledTimes(1);
  });

  it('emits connect on a later state change when the first read failed', async () => {
    const win = makeWindow();
    const w = wallet();
    let failState = true;
    const relay = fakeRelay(win, (method, params) =>
      method === STATE_METHOD && failState ? { ok: false, error: { code: -32603, message: 'busy' } } : w.handler(method, params),
    );
    const provider = createXpcProvider(win);
    const connect = vi.fn();
    provider.on('connect', connect);
    await settle(provider);
    expect(provider.isConnected()).toBe(false);
    expect(connect).not.toHaveBeenCalled();

    failState = false;
    relay.event('stateChanged');
    await vi.waitFor(() => expect(connect).toHaveBeenCalledWith({ chainId: '0xa86a' }));
    expect(provider.isConnected()).toBe(true);
  });

  it('on stateChanged emits chainChanged and accountsChanged only for what changed', async () => {
    const { provider, relay, state } = await connected({ accounts: ['0xaaa'] });
    const chain = vi.fn();
    const accounts = vi.fn();
    provider.on('chainChanged', chain);
    provider.on('accountsChanged', accounts);

    relay.event('stateChanged'); // nothing changed
    await vi.waitFor(() => expect(relay.methods().filter((m) => m === STATE_METHOD)).toHaveLength(2));
    await settle(provider);
    expect(chain).not.toHaveBeenCalled();
    expect(accounts).not.toHaveBeenCalled();

    state.chainId = '0xa869';
    relay.event('stateChanged');
    await vi.waitFor(() => expect(chain).toHaveBeenCalledWith('0xa869'));
    expect(provider.chainId).toBe('0xa869');
    await settle(provider);
    expect(accounts).not.toHaveBeenCalled();

    state.accounts = ['0xbbb', '0xaaa'];
    relay.event('stateChanged');
    await vi.waitFor(() => expect(accounts).toHaveBeenCalledWith(['0xbbb', '0xaaa']));
    expect(chain).toHaveBeenCalledTimes(1);

    state.accounts = [];
    relay.event('stateChanged');
    await vi.waitFor(() => expect(accounts).toHaveBeenLastCalledWith([]));
    expect(accounts).toHaveBeenCalledTimes(2);
    expect(chain).toHaveBeenCalledTimes(1);
  });

  it('a chain switch resolves only once provider.chainId is the new chain, chainChanged emitted first', async () => {
    const { provider, results, state } = await connected();
    const chain = vi.fn();
    provider.on('chainChanged', chain);
    results.set('wallet_switchEthereumChain', null);
    state.chainId = '0x1869f';
    await expect(provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x1869f' }] })).resolves.toBeNull();
    expect(provider.chainId).toBe('0x1869f');
    expect(chain).toHaveBeenCalledWith('0x1869f');
  });

  it('a chain switch waits for the newest state read: a stateChanged read started meanwhile is the one that counts', async () => {
    const w = wallet();
    let holdState = false;
    const handler: Handler = (method, params) => {
      if (method === STATE_METHOD && holdState) return 'hold';
      return w.handler(method, params);
    };
    const win = makeWindow();
    const relay = fakeRelay(win, handler);
    const provider = createXpcProvider(win);
    await vi.waitFor(() => expect(provider.isConnected()).toBe(true));
    w.results.set('wallet_switchEthereumChain', null);
    holdState = true;
    const switching = provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x1869f' }] });
    // The switch's own read and then a stateChanged read are both in flight.
    await vi.waitFor(() => expect(relay.methods().filter((m) => m === STATE_METHOD)).toHaveLength(2));
    relay.event('stateChanged');
    await vi.waitFor(() => expect(relay.methods().filter((m) => m === STATE_METHOD)).toHaveLength(3));
    const held = relay.sent.filter((x) => x.method === STATE_METHOD).slice(1).map((x) => (r: ProviderResponse) => relay.answer(x.id, r));
    let resolved = false;
    void switching.then(() => (resolved = true));
    // The switch's own read answers with the old chain: not enough.
    held[0]!({ ok: true, result: { ...w.state, accounts: [] } });
    await settle(provider);
    expect(resolved).toBe(false);
    // The newest read says the new chain: now the switch resolves, chainId already the new one.
    held[1]!({ ok: true, result: { ...w.state, chainId: '0x1869f', accounts: [] } });
    await switching;
    expect(provider.chainId).toBe('0x1869f');
  });

  it('emits accountsChanged when eth_accounts / eth_requestAccounts answer a different list', async () => {
    const { provider, results } = await connected();
    const accounts = vi.fn();
    provider.on('accountsChanged', accounts);

    results.set('eth_requestAccounts', ['0xaaa']);
    await expect(provider.request({ method: 'eth_requestAccounts' })).resolves.toEqual(['0xaaa']);
    expect(accounts).toHaveBeenCalledTimes(1);
    expect(accounts).toHaveBeenCalledWith(['0xaaa']);

    results.set('eth_accounts', ['0xaaa']);
    await provider.request({ method: 'eth_accounts' });
    expect(accounts).toHaveBeenCalledTimes(1);

    results.set('eth_accounts', []);
    await provider.request({ method: 'eth_accounts' });
    expect(accounts).toHaveBeenCalledTimes(2);
    expect(accounts).toHaveBeenLastCalledWith([]);
  });

  it('on disconnect rejects pending and later requests with 4900 and emits disconnect', async () => {
    const win = makeWindow();
    const w = wallet();
    const relay = fakeRelay(win, (method, params) => (method === 'eth_sendTransaction' ? 'hold' : w.handler(method, params)));
    const provider = createXpcProvider(win);
    await vi.waitFor(() => expect(provider.isConnected()).toBe(true));
    const disconnect = vi.fn();
    provider.on('disconnect', disconnect);

    const waiting = rejection(provider.request({ method: 'eth_sendTransaction', params: [{}] }));
    await vi.waitFor(() => expect(relay.methods()).toContain('eth_sendTransaction'));
    relay.event('disconnect');

    expect((await waiting).code).toBe(4900);
    expect(disconnect).toHaveBeenCalledTimes(1);
    const error: unknown = disconnect.mock.calls[0]?.[0];
    expect(error).toBeInstanceOf(ProviderRpcError);
    expect((error as ProviderRpcError).code).toBe(4900);
    expect(provider.isConnected()).toBe(false);

    const sentBefore = relay.sent.length;
    expect((await rejection(provider.request({ method: 'eth_chainId' }))).code).toBe(4900);
    expect(relay.sent.length).toBe(sentBefore);

    // A second disconnect or a state change after it changes nothing.
    relay.event('disconnect');
    relay.event('stateChanged');
    await new Promise((resolve) => win.setTimeout(resolve, 20));
    expect(disconnect).toHaveBeenCalledTimes(1);
    expect(relay.sent.length).toBe(sentBefore);
  });
});

describe('event emitter', () => {
  it('keeps calling the other listeners when one throws', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const win = makeWindow();
    fakeRelay(win, wallet().handler);
    const provider = createXpcProvider(win);
    const first = vi.fn();
    const last = vi.fn();
    provider.on('connect', first);
    provider.on('connect', () => {
      throw new Error('dApp bug');
    });
    provider.on('connect', last);

    await vi.waitFor(() => expect(last).toHaveBeenCalledWith({ chainId: '0xa86a' }));
    expect(first).toHaveBeenCalledTimes(1);
    expect(errors).toHaveBeenCalledTimes(1);
    expect(errors.mock.calls[0]?.[1]).toMatchObject({ message: 'dApp bug' });
  });

  it('supports once, removeListener/off, removeAllListeners and listenerCount', async () => {
    const { provider, relay, state } = await connected();
    const once = vi.fn();
    const kept = vi.fn();
    const removed = vi.fn();
    expect(provider.once('chainChanged', once)).toBe(provider);
    provider.addListener('chainChanged', kept);
    provider.on('chainChanged', removed);
    expect(provider.listenerCount('chainChanged')).toBe(3);
    expect(provider.off('chainChanged', removed)).toBe(provider);
    expect(provider.listenerCount('chainChanged')).toBe(2);

    state.chainId = '0x1';
    relay.event('stateChanged');
    await vi.waitFor(() => expect(kept).toHaveBeenCalledWith('0x1'));
    expect(once).toHaveBeenCalledTimes(1);
    expect(provider.listenerCount('chainChanged')).toBe(1);

    state.chainId = '0x2';
    relay.event('stateChanged');
    await vi.waitFor(() => expect(kept).toHaveBeenCalledWith('0x2'));
    expect(once).toHaveBeenCalledTimes(1);
    expect(removed).not.toHaveBeenCalled();

    provider.removeListener('chainChanged', kept);
    provider.on('accountsChanged', kept);
    provider.removeAllListeners();
    expect(provider.listenerCount('chainChanged')).toBe(0);
    expect(provider.listenerCount('accountsChanged')).toBe(0);
    expect(() => provider.on('connect', 'not a function' as never)).toThrow(TypeError);
  });

  it('lets a connector wrap request in place (web3-onboard does), keeps its methods defined, and is not MetaMask', async () => {
    const { provider } = await connected();
    const original = provider.request;
    const seen: string[] = [];
    // Test modules run in strict mode: a read-only method would throw here, as it did for web3-onboard.
    (provider as { request: typeof original }).request = (args) => (seen.push(args.method), original(args));
    await expect(provider.request({ method: 'eth_chainId' })).resolves.toBe('0xa86a');
    expect(seen).toEqual(['eth_chainId']);
    expect(() => Object.defineProperty(provider, 'on', { get: () => undefined })).toThrow(TypeError);
    expect(() => delete (provider as { off?: unknown }).off).toThrow(TypeError);
    expect(provider.isXpcWallet).toBe(true);
    expect('isMetaMask' in provider).toBe(false);
    expect('send' in provider || 'sendAsync' in provider).toBe(false);
  });
});

describe('installXpcWallet', () => {
  function announcements(win: Window): Array<Eip6963ProviderDetail<XpcProvider>> {
    const seen: Array<Eip6963ProviderDetail<XpcProvider>> = [];
    win.addEventListener(ANNOUNCE_EVENT, (e) => seen.push((e as CustomEvent<Eip6963ProviderDetail<XpcProvider>>).detail));
    return seen;
  }

  it('announces itself over EIP-6963 at start and again on each request, with one uuid', () => {
    const win = makeWindow();
    const seen = announcements(win);
    const provider = installXpcWallet(win);

    expect(seen).toHaveLength(1);
    const [first] = seen;
    expect(first?.provider).toBe(provider);
    expect(first?.info).toMatchObject({ name: 'XPC Wallet', rdns: 'dev.xpcwallet' });
    expect(first?.info.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(first?.info.icon).toMatch(/^data:image\/svg\+xml,/);
    expect(decodeURIComponent(first!.info.icon)).toContain('<svg');
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first?.info)).toBe(true);

    win.dispatchEvent(new CustomEvent(REQUEST_EVENT));
    win.dispatchEvent(new CustomEvent(REQUEST_EVENT));
    expect(seen).toHaveLength(3);
    expect(seen.map((d) => d.info.uuid)).toEqual([first?.info.uuid, first?.info.uuid, first?.info.uuid]);
    expect(seen.every((d) => d.provider === provider)).toBe(true);

    // Another page load gets another uuid.
    const win2 = makeWindow();
    const other = announcements(win2);
    installXpcWallet(win2);
    expect(other[0]?.info.uuid).not.toBe(first?.info.uuid);
  });

  it('defines window.xpcWallet (fixed) and a replaceable window.ethereum when none exists', () => {
    const win = makeWindow();
    const provider = installXpcWallet(win);
    const g = win as unknown as Record<string, unknown>;

    expect(Object.getOwnPropertyDescriptor(win, 'xpcWallet')).toMatchObject({ value: provider, writable: false, configurable: false });
    expect(Object.getOwnPropertyDescriptor(win, 'ethereum')).toEqual({ value: provider, writable: true, configurable: true, enumerable: true });

    // A wallet injected later can still take window.ethereum, by assignment or by redefinition.
    const later = { isOtherWallet: true };
    g.ethereum = later;
    expect(g.ethereum).toBe(later);
    const latest = { isLatest: true };
    Object.defineProperty(win, 'ethereum', { get: () => latest, configurable: true });
    expect(g.ethereum).toBe(latest);
    expect(g.xpcWallet).toBe(provider);
  });

  it("leaves another wallet's window.ethereum untouched and unread", () => {
    const win = makeWindow();
    const theirs = { isOtherWallet: true };
    const get = vi.fn(() => theirs);
    const set = vi.fn();
    Object.defineProperty(win, 'ethereum', { get, set, configurable: true, enumerable: true });
    const before = Object.getOwnPropertyDescriptor(win, 'ethereum');

    const provider = installXpcWallet(win);

    expect(Object.getOwnPropertyDescriptor(win, 'ethereum')).toEqual(before);
    expect(get).not.toHaveBeenCalled();
    expect(set).not.toHaveBeenCalled();
    expect((win as unknown as { xpcWallet: unknown }).xpcWallet).toBe(provider);
  });

  it('keeps window.ethereum when it is present even as undefined', () => {
    const win = makeWindow();
    Object.defineProperty(win, 'ethereum', { value: undefined, writable: false, configurable: false });
    installXpcWallet(win);
    expect(Object.getOwnPropertyDescriptor(win, 'ethereum')).toMatchObject({ value: undefined, writable: false });
  });
});

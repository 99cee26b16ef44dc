// Shared by the inpage*.test.ts files: fresh happy-dom windows (closed after each test of the file
// that imports this), a fake content script that answers the page's provider, and a wallet state.
import { Window as HappyWindow } from 'happy-dom';
import { afterEach, expect, vi } from 'vitest';
import { createXpcProvider, ProviderRpcError, type XpcProvider } from '../../src/inpage/provider.js';
import { CONTENT_TARGET, INPAGE_TARGET, STATE_METHOD, type ProviderResponse, type ProviderState } from '../../src/shared/provider-protocol.js';

const windows: HappyWindow[] = [];

afterEach(async () => {
  vi.restoreAllMocks();
  for (const w of windows.splice(0)) await w.happyDOM.close();
});

export function makeWindow(): Window {
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
export type Handler = (method: string, params: unknown) => ProviderResponse | 'hold' | 'receipt' | 'drop';

/** A stand-in for src/content: answers CONTENT_TARGET messages the way the real relay posts. */
export function fakeRelay(win: Window, handler: Handler) {
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

export function wallet(initial: Partial<ProviderState> = {}) {
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
export async function connected(initial: Partial<ProviderState> = {}, handler?: Handler) {
  const win = makeWindow();
  const w = wallet(initial);
  const relay = fakeRelay(win, handler ?? w.handler);
  const provider = createXpcProvider(win);
  await vi.waitFor(() => expect(provider.isConnected()).toBe(true));
  return { win, provider, relay, ...w };
}

/** Answers are posted in order, so once a later round trip is back every earlier one is handled. */
export async function settle(provider: XpcProvider): Promise<void> {
  await provider.request({ method: 'eth_chainId' });
}

export function rejection(promise: Promise<unknown>): Promise<ProviderRpcError> {
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

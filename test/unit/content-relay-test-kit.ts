// The relay tests' bench: a fresh happy-dom window with the relay started over a fake background,
// clock and sleep (stopRelays after each test), and the page's messages posted to it.
import { Window as HappyWindow } from 'happy-dom';
import { expect, vi } from 'vitest';
import { startRelay, type RelayDeps } from '../../src/content/relay.js';
import { CONTENT_TARGET, INPAGE_TARGET, type ProviderRequestMessage } from '../../src/shared/provider-protocol.js';

export const windows: HappyWindow[] = [];
const relays: Array<{ stop(): void }> = [];

/** Stops every relay started and closes every window opened since the last call. */
export async function stopRelays(): Promise<void> {
  for (const r of relays.splice(0)) r.stop();
  for (const w of windows.splice(0)) await w.happyDOM.close();
}

interface ToPage {
  target: string;
  id?: string;
  event?: string;
  received?: boolean;
  response?: { ok: boolean; result?: unknown; error?: { code: number; message: string; data?: unknown } };
}

export function setup(send: (message: ProviderRequestMessage) => Promise<unknown>) {
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

export const ok = (result: unknown) => async () => ({ ok: true, result });

/** A pageshow event; `trusted` stands for one the browser dispatched (a page's own is not). */
export function pageShow({ persisted, trusted }: { persisted: boolean; trusted: boolean }): Event {
  const event = Object.assign(new Event('pageshow'), { persisted });
  if (trusted) Object.defineProperty(event, 'isTrusted', { value: true });
  return event;
}

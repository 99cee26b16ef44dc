// @vitest-environment happy-dom
// src/content/index.ts, the content script's wiring to the browser: the runtime it takes at start
// carries the page's requests, and the background's 'stateChanged' is acknowledged (so its
// tabs.sendMessage settles as delivered; a frame whose send fails is forgotten, src/background/pages.ts).
import { Window as HappyWindow } from 'happy-dom';
import { afterEach, expect, it, vi } from 'vitest';
import { CONTENT_TARGET, INPAGE_TARGET, PROVIDER_CHANNEL, PROVIDER_EVENT_CHANNEL } from '../../src/shared/provider-protocol.js';

type Listener = (message: unknown, sender: unknown, sendResponse: (response: unknown) => void) => void;

function fakeRuntime(chainId: string) {
  const listeners: Listener[] = [];
  return {
    listeners,
    runtime: {
      id: 'extension-id',
      sendMessage: vi.fn(async () => ({ ok: true, result: chainId })),
      onMessage: { addListener: (listener: Listener) => listeners.push(listener) },
    },
  };
}

/**
 * A fresh copy of the content script on a window of its own (so no earlier test's relay answers
 * too), started with `chrome.runtime` = the fake (Chrome's case).
 */
async function startContentScript(chainId = '0xa868') {
  const fake = fakeRuntime(chainId);
  const win = new HappyWindow({ url: 'https://dapp.example/' });
  windows.push(win);
  vi.stubGlobal('window', win);
  vi.stubGlobal('browser', undefined);
  vi.stubGlobal('chrome', { runtime: fake.runtime });
  vi.resetModules();
  await import('../../src/content/index.js');
  return { ...fake, win: win as unknown as Window };
}

const windows: HappyWindow[] = [];

afterEach(async () => {
  vi.unstubAllGlobals();
  for (const w of windows.splice(0)) await w.happyDOM.close();
});

it("acknowledges the background's stateChanged with a synchronous answer, and leaves every other message alone", async () => {
  const { listeners } = await startContentScript();
  expect(listeners).toHaveLength(1);
  const ack = vi.fn();
  // Not `true`: Chrome would then hold the background's tabs.sendMessage open for a later answer.
  expect(listeners[0]!({ channel: PROVIDER_EVENT_CHANNEL, event: 'stateChanged', origin: 'https://dapp.example' }, {}, ack)).toBeUndefined();
  expect(ack).toHaveBeenCalledExactlyOnceWith(true);
  // One for another page's document (the frame loaded this page since) is not this page's: no answer, and the background forgets the frame.
  for (const message of [{ channel: PROVIDER_EVENT_CHANNEL, event: 'stateChanged', origin: 'https://victim.example' }, { channel: PROVIDER_EVENT_CHANNEL, event: 'disconnect' }, { channel: 'xpc-wallet', type: 'wallet.open' }, null]) {
    const other = vi.fn();
    expect(listeners[0]!(message, {}, other)).toBeUndefined();
    expect(other).not.toHaveBeenCalled();
  }
});

it('sends page requests through the runtime it took at start, even after the name is taken by the page', async () => {
  const { runtime, win } = await startContentScript('0xa86a');
  // Later the globals change (a page element named "browser" in Chrome before 148, or anything
  // else): the script does not look again.
  const later = fakeRuntime('0x1');
  vi.stubGlobal('browser', { runtime: { id: 'clobbered', sendMessage: undefined } });
  vi.stubGlobal('chrome', { runtime: later.runtime });
  const answers: unknown[] = [];
  win.addEventListener('message', (e: MessageEvent<{ target?: string; id?: string; response?: unknown }>) => {
    if (e.data?.target === INPAGE_TARGET && e.data.id === 'page-1' && e.data.response) answers.push(e.data.response);
  });
  win.dispatchEvent(new MessageEvent('message', { data: { target: CONTENT_TARGET, id: 'page-1', method: 'eth_chainId' }, source: win, origin: win.location.origin }));
  await vi.waitFor(() => expect(answers).toHaveLength(1));
  expect(answers).toEqual([{ ok: true, result: '0xa86a' }]);
  expect(runtime.sendMessage).toHaveBeenCalledOnce();
  expect(later.runtime.sendMessage).not.toHaveBeenCalled();
  expect(runtime.sendMessage.mock.calls[0]).toEqual([{ channel: PROVIDER_CHANNEL, requestId: expect.any(String), method: 'eth_chainId' }]);
});

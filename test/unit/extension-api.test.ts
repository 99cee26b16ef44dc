// src/background/extension-api.ts: the background's extension API without webextension-polyfill.
// Where the browser has its own `browser`, that object; else Chrome's `chrome`, with the polyfill's
// two additions: onMessage answered with the listener's promise (a rejection as the polyfill's
// reply) and tabs.sendMessage to a frame that did not answer resolving to undefined.
import { describe, expect, it, vi } from 'vitest';
import { type ChromeApi, extensionApi } from '../../src/background/extension-api.js';

type RawListener = (message: unknown, sender: unknown, sendResponse: (response: unknown) => void) => boolean;

function fakeChrome(): { chrome: ChromeApi; listeners: RawListener[]; answer: (reply: unknown, lastError?: string) => void } {
  const listeners: RawListener[] = [];
  let next: { reply: unknown; lastError?: string } = { reply: undefined };
  const runtime = {
    id: 'abcdefghijklmnop',
    lastError: undefined as { message?: string } | undefined,
    getURL: (path: string) => `chrome-extension://abcdefghijklmnop/${path.replace(/^\//, '')}`,
    getManifest: () => ({ manifest_version: 3, name: 'XPC Wallet', version: '9.9.9' }),
    onMessage: { addListener: (l: RawListener) => void listeners.push(l) },
  };
  const chrome = {
    runtime,
    tabs: {
      sendMessage: (_tabId: number, _message: unknown, _options: { frameId: number }, callback: (reply: unknown) => void) => {
        queueMicrotask(() => {
          runtime.lastError = next.lastError === undefined ? undefined : { message: next.lastError };
          callback(next.reply);
          runtime.lastError = undefined;
        });
      },
    },
    storage: { local: {} },
    windows: { create: () => undefined },
    alarms: { get: () => undefined },
  } as unknown as ChromeApi;
  return { chrome, listeners, answer: (reply, lastError) => void (next = { reply, lastError }) };
}

/** Calls a raw Chrome listener and waits for its sendResponse. */
function dispatch(listener: RawListener, message: unknown): { returned: boolean; response: Promise<unknown> } {
  let returned = false;
  const response = new Promise((resolve) => {
    returned = listener(message, { id: 'abcdefghijklmnop' }, resolve);
  });
  return { returned, response };
}

describe('extensionApi', () => {
  it('hands over the browser’s own `browser` untouched when it has a runtime ID', () => {
    const own = { runtime: { id: 'wallet@xpcwallet.dev' } };
    expect(extensionApi({ browser: own, chrome: fakeChrome().chrome })).toBe(own);
  });

  it('wraps `chrome` when there is no `browser` with a runtime ID', () => {
    const { chrome } = fakeChrome();
    for (const browser of [undefined, {}, { runtime: {} }]) {
      const api = extensionApi({ browser, chrome });
      expect(api).not.toBe(chrome);
      expect(api.runtime.id).toBe('abcdefghijklmnop');
      expect(api.runtime.getURL('/')).toBe('chrome-extension://abcdefghijklmnop/');
      expect(api.runtime.getManifest().version).toBe('9.9.9');
      expect(api.storage).toBe(chrome.storage);
      expect(api.windows).toBe(chrome.windows);
      expect(api.alarms).toBe(chrome.alarms);
    }
  });

  it('answers a message with what the listener’s promise resolves to, keeping the channel open', async () => {
    const { chrome, listeners } = fakeChrome();
    const api = extensionApi({ chrome });
    const seen: unknown[] = [];
    api.runtime.onMessage.addListener(async (message, sender) => {
      seen.push(message, sender);
      return { ok: true, echo: message };
    });
    const { returned, response } = dispatch(listeners[0]!, { type: 'ping' });
    expect(returned).toBe(true);
    expect(await response).toEqual({ ok: true, echo: { type: 'ping' } });
    expect(seen).toEqual([{ type: 'ping' }, { id: 'abcdefghijklmnop' }]);
  });

  it('answers a rejection or a throw as the polyfill did: its reject reply with the message', async () => {
    const { chrome, listeners } = fakeChrome();
    const api = extensionApi({ chrome });
    api.runtime.onMessage.addListener(() => Promise.reject(new Error('boom')));
    api.runtime.onMessage.addListener(() => {
      throw new Error('thrown');
    });
    api.runtime.onMessage.addListener(() => Promise.reject('no message'));
    api.runtime.onMessage.addListener(() => Promise.reject({ message: 'from an object' }));
    const replies = await Promise.all(listeners.map((l) => dispatch(l, {}).response));
    expect(replies).toEqual([
      { __mozWebExtensionPolyfillReject__: true, message: 'boom' },
      { __mozWebExtensionPolyfillReject__: true, message: 'thrown' },
      { __mozWebExtensionPolyfillReject__: true, message: 'An unexpected error occurred' },
      { __mozWebExtensionPolyfillReject__: true, message: 'from an object' },
    ]);
  });

  it('tabs.sendMessage: the reply; undefined when the frame did not answer; a rejection for other errors', async () => {
    const { chrome, answer } = fakeChrome();
    const api = extensionApi({ chrome });
    const send = vi.spyOn(chrome.tabs, 'sendMessage');
    answer(true);
    await expect(api.tabs.sendMessage(7, { event: 'stateChanged' }, { frameId: 3 })).resolves.toBe(true);
    expect(send).toHaveBeenCalledWith(7, { event: 'stateChanged' }, { frameId: 3 }, expect.any(Function));
    answer(undefined, 'The message port closed before a response was received.');
    await expect(api.tabs.sendMessage(7, {}, { frameId: 0 })).resolves.toBeUndefined();
    answer(undefined, 'Could not establish connection. Receiving end does not exist.');
    await expect(api.tabs.sendMessage(7, {}, { frameId: 0 })).rejects.toThrow('Could not establish connection. Receiving end does not exist.');
    answer({ __mozWebExtensionPolyfillReject__: true, message: 'refused there' });
    await expect(api.tabs.sendMessage(7, {}, { frameId: 0 })).rejects.toThrow('refused there');
  });
});

// The part of the browser's extension API the background uses, without webextension-polyfill (9.4 KB
// of the background). It does what the polyfill did for these calls, no more:
//  - Where the browser has its own `browser` (Firefox; Chrome 148+), that object, untouched: the
//    polyfill handed it over as it is.
//  - Otherwise Chrome's `chrome`, whose MV3 storage, windows and alarms calls return promises
//    themselves (they resolve and reject as the polyfill's did), with the two things the polyfill
//    added: an onMessage listener answers with the promise it returns (a rejection as the
//    polyfill's reply, which the sender takes as an error), and tabs.sendMessage to a frame that
//    took the message without answering resolves to undefined instead of rejecting.
// Types only from webextension-polyfill's typings: the package itself is not loaded.
import type { Browser, Runtime } from 'webextension-polyfill';

/** Answers a runtime message with the promise it returns. */
export type MessageListener = (message: unknown, sender: Runtime.MessageSender) => Promise<unknown>;

export interface BackgroundApi {
  runtime: Pick<Browser['runtime'], 'id' | 'getURL' | 'getManifest'> & {
    onMessage: { addListener(listener: MessageListener): void };
  };
  storage: Browser['storage'];
  windows: Browser['windows'];
  alarms: Browser['alarms'];
  tabs: { sendMessage(tabId: number, message: unknown, options: { frameId: number }): Promise<unknown> };
}

/** What of Chrome's `chrome` the wrapper calls (callback forms, as the polyfill called them). */
export interface ChromeApi {
  runtime: {
    readonly id: string;
    readonly lastError?: { message?: string };
    getURL(path: string): string;
    getManifest(): ReturnType<Browser['runtime']['getManifest']>;
    onMessage: {
      addListener(listener: (message: unknown, sender: Runtime.MessageSender, sendResponse: (response: unknown) => void) => boolean): void;
    };
  };
  tabs: { sendMessage(tabId: number, message: unknown, options: { frameId: number }, callback: (reply: unknown) => void): void };
  storage: unknown;
  windows: unknown;
  alarms: unknown;
}

/** Chrome's words when the receiving frame's listeners returned without answering. */
const NO_RESPONSE = 'The message port closed before a response was received.';

type Rejection = { __mozWebExtensionPolyfillReject__: true; message: string };

function isRejection(reply: unknown): reply is Rejection {
  return (reply as Partial<Rejection> | null | undefined)?.__mozWebExtensionPolyfillReject__ === true;
}

function fromChrome(chrome: ChromeApi): BackgroundApi {
  const { runtime } = chrome;
  return {
    runtime: {
      get id() {
        return runtime.id;
      },
      getURL: (path) => runtime.getURL(path),
      getManifest: () => runtime.getManifest(),
      onMessage: {
        addListener(listener) {
          runtime.onMessage.addListener((message, sender, sendResponse) => {
            let result: Promise<unknown>;
            try {
              result = listener(message, sender);
            } catch (e) {
              result = Promise.reject(e);
            }
            result
              .then(sendResponse, (error: unknown) => {
                const text = (error as { message?: unknown } | null | undefined)?.message;
                sendResponse({
                  __mozWebExtensionPolyfillReject__: true,
                  message: error instanceof Error || typeof text === 'string' ? (text as string) : 'An unexpected error occurred',
                } satisfies Rejection);
              })
              .catch((e: unknown) => console.error('Failed to send onMessage rejected reply', e));
            return true;
          });
        },
      },
    },
    storage: chrome.storage as Browser['storage'],
    windows: chrome.windows as Browser['windows'],
    alarms: chrome.alarms as Browser['alarms'],
    tabs: {
      sendMessage: (tabId, message, options) =>
        new Promise((resolve, reject) => {
          chrome.tabs.sendMessage(tabId, message, options, (reply) => {
            const error = runtime.lastError;
            if (error) {
              if (error.message === NO_RESPONSE) resolve(undefined);
              else reject(new Error(error.message));
            } else if (isRejection(reply)) reject(new Error(reply.message));
            else resolve(reply);
          });
        }),
    },
  };
}

/** This background's extension API: the browser's own `browser` where it has one, else Chrome's `chrome` wrapped. */
export function extensionApi(scope: { browser?: unknown; chrome?: unknown } = globalThis as never): BackgroundApi {
  const own = scope.browser as BackgroundApi | undefined;
  return own?.runtime?.id ? own : fromChrome(scope.chrome as ChromeApi);
}

// The browser's own extension runtime, for the wallet's pages and its content script. Firefox's
// `browser` and Chrome's MV3 `chrome` both return a promise from runtime.sendMessage, and both
// take a listener's synchronous sendResponse, so neither needs webextension-polyfill (which only
// the background loads): a page's first request is not held up by it, and the content script every
// page runs stays small.

/** What the wallet's pages and its content script use of the runtime. */
export interface ExtensionRuntime {
  /** Gone (or throwing on access, in some browsers) once the extension is reloaded or removed. */
  readonly id?: string;
  sendMessage(message: unknown): Promise<unknown>;
  readonly onMessage: {
    addListener(listener: (message: unknown, sender: unknown, sendResponse: (response: unknown) => void) => void): void;
  };
}

function isRuntime(value: unknown): value is ExtensionRuntime {
  return typeof (value as { sendMessage?: unknown } | null | undefined)?.sendMessage === 'function';
}

/**
 * This context's runtime; undefined outside an extension. A content script shares the page's DOM,
 * and Chrome before 148 gives it no `browser` of its own, so there `browser` can be an element the
 * page named so (`<html id="browser">` already at document_start, `<form id="browser">`, `<iframe
 * name="browser">`): only an object whose sendMessage is a function counts, which no element is,
 * and reading one that throws is passed over. That check is what keeps the page out, not timing;
 * `chrome` is the content script's own and no element shadows it. A content script takes the
 * runtime once, at start, so nothing the page does later changes which one it uses.
 */
export function extensionRuntime(): ExtensionRuntime | undefined {
  const g = globalThis as { browser?: { runtime?: unknown }; chrome?: { runtime?: unknown } };
  for (const pick of [() => g.browser?.runtime, () => g.chrome?.runtime]) {
    try {
      const runtime = pick();
      if (isRuntime(runtime)) return runtime;
    } catch {
      // A cross-origin frame named like the API, or an orphaned script's dead object.
    }
  }
  return undefined;
}

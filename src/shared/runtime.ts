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

/** This context's runtime; undefined outside an extension (or once a content script is orphaned). */
export function extensionRuntime(): ExtensionRuntime | undefined {
  const g = globalThis as { browser?: { runtime?: ExtensionRuntime }; chrome?: { runtime?: ExtensionRuntime } };
  return g.browser?.runtime ?? g.chrome?.runtime;
}

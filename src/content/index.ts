// Isolated-world content script: wires the relay (./relay.ts) between the page's provider
// (src/inpage, MAIN world) and the background to the browser's own runtime (no polyfill: this
// script runs in every frame of every page the wallet serves, so it stays small).
import { extensionRuntime } from '../shared/runtime.js';
import { startRelay } from './relay.js';

// Taken once, at start (see extensionRuntime for why a page element named like the API is no runtime).
const runtime = extensionRuntime();

function isContextValid(): boolean {
  // After the extension is reloaded or removed this script keeps running, orphaned: runtime.id
  // is gone (and some browsers throw on access).
  try {
    return runtime?.id !== undefined;
  } catch (_e) {
    return false;
  }
}

const relay = startRelay({
  win: window,
  sendMessage: (message) => {
    if (!runtime) throw new Error('Extension context invalidated');
    return runtime.sendMessage(message);
  },
  isContextValid,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  now: () => Date.now(),
  randomId: () => crypto.randomUUID(),
});

runtime?.onMessage.addListener((message, _sender, sendResponse) => {
  if (relay.onRuntimeMessage(message)) sendResponse(true);
});

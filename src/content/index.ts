// Isolated-world content script: wires the relay (./relay.ts) between the page's provider
// (src/inpage, MAIN world) and the background to the real extension APIs.
import browser from 'webextension-polyfill';
import { startRelay } from './relay.js';

function isContextValid(): boolean {
  // After the extension is reloaded or removed this script keeps running, orphaned: runtime.id
  // is gone (and some browsers throw on access).
  try {
    return browser.runtime.id !== undefined;
  } catch (_e) {
    return false;
  }
}

const relay = startRelay({
  win: window,
  sendMessage: (message) => browser.runtime.sendMessage(message),
  isContextValid,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  now: () => Date.now(),
  randomId: () => crypto.randomUUID(),
});

browser.runtime.onMessage.addListener((message: unknown) => relay.onRuntimeMessage(message));

// Background service worker (Chrome) / background script (Firefox).
// This is the only context that will ever hold keys; for now it only answers a liveness ping.
import browser from 'webextension-polyfill';
import type { Runtime } from 'webextension-polyfill';

type PingResponse = { ok: true; version: string };
type ErrorResponse = { ok: false; error: { code: 'unknown-message'; message: string } };
type Response = PingResponse | ErrorResponse;

function isPing(message: unknown): boolean {
  return (
    typeof message === 'object' &&
    message !== null &&
    (message as { type?: unknown }).type === 'ping'
  );
}

function describe(message: unknown): string {
  if (typeof message === 'object' && message !== null) {
    const type = (message as { type?: unknown }).type;
    if (typeof type === 'string') return `unknown message type "${type.slice(0, 64)}"`;
  }
  return 'message has no string "type" field';
}

function handle(message: unknown): Response {
  if (isPing(message)) return { ok: true, version: browser.runtime.getManifest().version };
  return { ok: false, error: { code: 'unknown-message', message: describe(message) } };
}

browser.runtime.onMessage.addListener(
  (message: unknown, _sender: Runtime.MessageSender): Promise<Response> =>
    Promise.resolve(handle(message)),
);

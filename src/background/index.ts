// Background service worker (Chrome) / background script (Firefox): the only context that holds
// keys. It answers a liveness ping and routes the wallet protocol (src/shared/messages.ts) from
// the wallet's own pages to the wallet service. Listeners are registered synchronously at start,
// so the message that woke the worker is not missed.
import browser from 'webextension-polyfill';
import type { Runtime } from 'webextension-polyfill';
import { ApprovalQueue } from './approvals.js';
import { createRouter, handlersFrom, type RequestHandlers } from './router.js';
import { IDLE_ALARM_NAME, scheduleIdleAlarm, Session } from './session.js';
import { browserStores } from './storage.js';
import { Vault } from './vault.js';
import { WalletService } from './wallet.js';
import { CHANNEL } from '../shared/validate.js';

type PingResponse = { ok: true; version: string };
type ErrorResponse = { ok: false; error: { code: 'unknown-message'; message: string } };

function log(line: string): void {
  console.warn(`[xpc-wallet] ${line}`);
}

function hasType(message: unknown, type: string): boolean {
  return typeof message === 'object' && message !== null && (message as { type?: unknown }).type === type;
}

function isWalletRequest(message: unknown): boolean {
  return typeof message === 'object' && message !== null && (message as { channel?: unknown }).channel === CHANNEL;
}

function describe(message: unknown): string {
  if (typeof message === 'object' && message !== null) {
    const type = (message as { type?: unknown }).type;
    if (typeof type === 'string') return `unknown message type "${type.slice(0, 64)}"`;
  }
  return 'message has no string "type" field';
}

/**
 * Registers the runtime message listener: `{type: 'ping'}` → version; channel 'xpc-wallet' → the
 * router (after `beforeRequest`, e.g. resuming the session); anything else → 'unknown-message'.
 */
export function listenForMessages(handlers: RequestHandlers, beforeRequest: () => Promise<void> = async () => {}): void {
  const router = createRouter(handlers, {
    extensionId: browser.runtime.id,
    extensionOrigin: browser.runtime.getURL('/'),
    log,
  });
  browser.runtime.onMessage.addListener((message: unknown, sender: Runtime.MessageSender): Promise<unknown> => {
    if (isWalletRequest(message)) return beforeRequest().then(() => router.handle(message, sender));
    if (hasType(message, 'ping')) return Promise.resolve<PingResponse>({ ok: true, version: browser.runtime.getManifest().version });
    return Promise.resolve<ErrorResponse>({ ok: false, error: { code: 'unknown-message', message: describe(message) } });
  });
}

const stores = browserStores(browser.storage);
const session = new Session(new Vault(stores), stores);
const approvals = new ApprovalQueue(stores.session);
const wallet = new WalletService(session, stores.local, { log, approvals });

// A restarted worker picks the unlocked session up from storage.session before its first request.
let resumed: Promise<void> | null = null;
function resumeOnce(): Promise<void> {
  resumed ??= session.resume().then(
    () => undefined,
    (e: unknown) => {
      resumed = null;
      log(`could not resume the session: ${e instanceof Error ? e.name : 'unknown error'}`);
    },
  );
  return resumed;
}

/** Before each request from the wallet's pages: pick the session up, lock if idle, note activity. */
async function beforeRequest(): Promise<void> {
  await resumeOnce();
  if (!session.isUnlocked()) return;
  if (!(await session.checkIdle())) await session.touch();
}

/** Unfinished cross-chain transfers run to the end whenever the worker is up and unlocked. */
function resumeTransfers(): void {
  wallet.resumeTransfers().catch((e: unknown) => log(`transfers paused: ${e instanceof Error ? e.message : 'unknown error'}`));
}

listenForMessages(handlersFrom(wallet), beforeRequest);

/** How stale the balance snapshot may get before the alarm refreshes it (and so looks for funds
 * waiting in atomic memory): often enough to notice, rare enough to spare the user's node. */
const BACKGROUND_REFRESH_MS = 5 * 60_000;

async function refreshIfStale(): Promise<void> {
  const snapshot = await wallet.balancesGet({});
  if (Date.now() - snapshot.updatedAt >= BACKGROUND_REFRESH_MS) await wallet.balancesRefresh();
}

// The periodic alarm wakes the worker to lock an idle wallet, finish journaled transfers and
// keep the balances (and the funds waiting in atomic memory) from going stale.
browser.alarms.onAlarm.addListener((alarm) => {
  if (alarm.name !== IDLE_ALARM_NAME) return;
  void resumeOnce()
    .then(() => session.checkIdle())
    .then((locked) => {
      if (locked || !session.isUnlocked()) return;
      resumeTransfers();
      refreshIfStale().catch((e: unknown) => log(`background refresh failed: ${e instanceof Error ? e.message : 'unknown error'}`));
    });
});
void scheduleIdleAlarm(browser.alarms);
void resumeOnce().then(resumeTransfers);

// Background service worker (Chrome) / background script (Firefox): the only context that holds
// keys. It answers a liveness ping and routes the wallet protocol (src/shared/messages.ts) from the
// wallet's own pages to the wallet's services (src/background/services/). Listeners are registered
// synchronously at start, so the message that woke the worker is not missed.
import browser from 'webextension-polyfill';
import type { Runtime } from 'webextension-polyfill';
import { ApprovalQueue } from './approvals.js';
import { ApprovalWindow } from './approval-window.js';
import { acknowledged, ProviderPages } from './pages.js';
import { ProviderService } from './provider.js';
import { siteOfSender } from './site-sender.js';
import { SiteStore } from './sites.js';
import { createRouter, type RequestHandlers } from './router.js';
import { Session } from './session.js';
import { IDLE_ALARM_NAME, scheduleIdleAlarm } from './session-idle.js';
import { userActivity } from './user-activity.js';
import { browserStores } from './storage.js';
import { Vault } from './vault.js';
import { createWallet, type Wallet, walletHandlers } from './services/index.js';
import { CHANNEL } from '../shared/validate.js';
import { PROVIDER_CHANNEL, PROVIDER_EVENT_CHANNEL, ProviderErrorCode, type ProviderEventMessage, type ProviderResponse, STATE_METHOD } from '../shared/provider-protocol.js';

type PingResponse = { ok: true; version: string };
type ErrorResponse = { ok: false; error: { code: 'unknown-message'; message: string } };

function log(line: string): void {
  console.warn(`[xpc-wallet] ${line}`);
}

/** Logs what failed, and its error's message. */
const logFailure =
  (what: string) =>
  (e: unknown): void =>
    log(`${what}: ${e instanceof Error ? e.message : 'unknown error'}`);

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

function isProviderRequest(message: unknown): boolean {
  return typeof message === 'object' && message !== null && (message as { channel?: unknown }).channel === PROVIDER_CHANNEL;
}

/** Wallet requests after which pages may see other accounts, another chain or a lock change. */
const CHANGES_WHAT_SITES_SEE = new Set([
  'wallet.unlock',
  'wallet.lock',
  'wallet.create',
  'wallet.restore',
  'wallet.createFromKey',
  'accounts.select',
  'accounts.remove',
  'networks.select',
  'sites.revoke',
  'sites.removeChain',
  'sites.resetChain',
]);

/**
 * Registers the runtime message listener: `{type: 'ping'}` → version; channel 'xpc-wallet' (the
 * wallet's own pages) → the router, after `beforeRequest`; channel 'xpc-provider' (content
 * scripts, for sites) → `onSiteRequest`; anything else → 'unknown-message'.
 */
export function listenForMessages(
  handlers: RequestHandlers,
  beforeRequest: () => Promise<void> = async () => {},
  onSiteRequest?: (message: unknown, sender: Runtime.MessageSender) => Promise<ProviderResponse>,
  afterRequest?: (type: string) => Promise<void>,
): void {
  const router = createRouter(handlers, {
    extensionId: browser.runtime.id,
    extensionOrigin: browser.runtime.getURL('/'),
    log,
    checkSelection: (selection) => wallet.accounts.checkSelection(selection),
    onValidRequest,
  });
  browser.runtime.onMessage.addListener((message: unknown, sender: Runtime.MessageSender): Promise<unknown> => {
    if (isWalletRequest(message)) {
      return beforeRequest()
        .then(() => router.handle(message, sender))
        .then(async (response) => {
          const type = (message as { type?: unknown }).type;
          if (response.ok && typeof type === 'string') await afterRequest?.(type).catch(() => undefined);
          return response;
        });
    }
    if (isProviderRequest(message) && onSiteRequest) return onSiteRequest(message, sender);
    if (hasType(message, 'ping')) return Promise.resolve<PingResponse>({ ok: true, version: browser.runtime.getManifest().version });
    return Promise.resolve<ErrorResponse>({ ok: false, error: { code: 'unknown-message', message: describe(message) } });
  });
}

const stores = browserStores(browser.storage);
const vault = new Vault(stores);
const session = new Session(vault, stores);
const approvals = new ApprovalQueue(stores.session);
const sites = new SiteStore(stores.local);
// The provider is made below; the wallet asks it only when the approval window asks.
const wallet: Wallet = createWallet(session, stores.local, { log, approvals, sites, sitesWaitingForUnlock: (): string[] => provider.sitesWaitingForUnlock(), holdOff: (askers) => provider.holdOff(askers) });
const approvalWindow = new ApprovalWindow(browser.windows, stores.session, browser.runtime.getURL('src/popup/approval.html'));

// ---- pages with our provider, told when what they see changes ----

const pages = new ProviderPages({
  area: stores.session,
  viewOf: async (site) => JSON.stringify(await provider.siteState(site)),
  send: (tabId, frameId, origin) => {
    const event: ProviderEventMessage = { channel: PROVIDER_EVENT_CHANNEL, event: 'stateChanged', origin };
    return acknowledged(browser.tabs.sendMessage(tabId, event, { frameId }));
  },
});

function notifyPages(): void {
  pages.notify().catch(logFailure('could not tell pages of a change'));
}

const provider: ProviderService = new ProviderService({
  wallet: wallet.site,
  session,
  approvals,
  sites,
  sessionArea: stores.session,
  walletExists: () => vault.exists(),
  openApprovalWindow: () => approvalWindow.open(),
  notifyPages,
  log,
});

async function onSiteRequest(message: unknown, sender: Runtime.MessageSender): Promise<ProviderResponse> {
  const site = siteOfSender(sender, browser.runtime.id);
  if (!site) {
    return { ok: false, error: { code: ProviderErrorCode.unauthorized, message: 'XPC Wallet answers only secure pages (https, or http on localhost) that are on screen' } };
  }
  try {
    await resumeOnce();
    const asker = { origin: site.origin, ...(site.frameOrigin ? { frameOrigin: site.frameOrigin } : {}) };
    await pages.remember(site.tabId, site.frameId, asker, (message as { method?: unknown } | null)?.method === STATE_METHOD).catch(() => undefined);
    return await provider.handle(message, asker);
  } catch (e) {
    // An answer, not a rejection: the content script would take a rejection for a stopped worker.
    logFailure('a site request failed before an answer')(e);
    return { ok: false, error: { code: ProviderErrorCode.internal, message: 'the wallet could not handle this request' } };
  }
}

async function afterRequest(type: string): Promise<void> {
  if (!CHANGES_WHAT_SITES_SEE.has(type)) return;
  if (type === 'wallet.create' || type === 'wallet.restore' || type === 'wallet.createFromKey') {
    await approvals.rejectAll();
    await sites.forgetAllSites();
  }
  // A network picked in the wallet is what the sites that follow it see; a site on a chain it
  // switched to keeps it (Settings → Connected sites resets it).
  notifyPages();
}

session.onLock(() => notifyPages());

/**
 * When the approval window last asked for the list (this worker): a request that arrived later was
 * not on screen when the window closed. Unknown after a restart: then every request counts as seen.
 */
let approvalsListedAt: number | undefined;

// Closing the approval window answers every request it could show: no. One that arrived as it
// closed (a site's add-chain asks its switch question right after the add) gets a window again.
browser.windows.onRemoved.addListener((windowId) => {
  void approvalWindow.closed(windowId).then(async (was) => {
    if (!was) return;
    if (await provider.windowClosed(approvalsListedAt)) await approvalWindow.open();
  }).catch(logFailure('could not answer a closed window'));
});

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

/** Before each request from the wallet's pages: pick the session up from storage.session. */
async function beforeRequest(): Promise<void> {
  await resumeOnce();
}

/** A request from one of our pages, its sender checked and its message validated (src/background/user-activity.ts). */
const countActivity = userActivity(session);
async function onValidRequest(type: string): Promise<void> {
  if (type === 'approvals.list') approvalsListedAt = Date.now();
  await countActivity(type);
}

/** Unfinished cross-chain transfers run to the end whenever the worker is up and unlocked. */
function resumeTransfers(): void {
  wallet.transfers.resumeTransfers().catch(logFailure('transfers paused'));
}

listenForMessages(walletHandlers(wallet), beforeRequest, onSiteRequest, afterRequest);

/** How stale the balance snapshot may get before the alarm refreshes it (and so looks for funds
 * waiting in atomic memory): often enough to notice, rare enough to spare the user's node. */
const BACKGROUND_REFRESH_MS = 5 * 60_000;

async function refreshIfStale(): Promise<void> {
  const snapshot = await wallet.balances.balancesGet({});
  if (Date.now() - snapshot.updatedAt >= BACKGROUND_REFRESH_MS) await wallet.balances.balancesRefresh();
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
      refreshIfStale().catch(logFailure('background refresh failed'));
    });
});
void scheduleIdleAlarm(browser.alarms);
void resumeOnce().then(resumeTransfers);

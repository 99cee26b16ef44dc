// Shared pieces of the real-browser suite: where the built extension is, temp profiles, the browsers
// launched with it, the wallet's protocol from a page of the extension, and funding from the genesis
// key. Processes by PID: processes.ts; loopback servers (the node's proxy, a web page): loopback.ts;
// artifacts, logs and the step runner: artifacts.ts.
//
// Everything listens on 127.0.0.1 only; the browsers are started with their network chatter off.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type CDPSession, type Page, type Worker } from 'playwright-core';
import { expect } from 'vitest';
import { cb58Encode, parseAddress } from '../../src/core/encoding.js';
import { makeOwners } from '../../src/core/tx/context.js';
import { callBackground, type SendToBackground } from '../../src/shared/client.js';
import type { RequestMessage, RequestParams, RequestResult, RequestType, Selection } from '../../src/shared/messages.js';
import { genesisEngine, localNetwork } from '../integration/fixture.js';
import type { ConsoleLog } from './artifacts.js';
import { sleep } from './processes.js';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const PASSWORD = 'e2e correct horse battery';

// ---- the built extension and the browsers ----

export interface BuiltExtension {
  dir: string;
  manifest: {
    version: string;
    action?: { default_popup?: string };
    background?: { service_worker?: string; scripts?: string[] };
    browser_specific_settings?: { gecko?: { id?: string } };
  };
  /** Path of the popup page inside the extension, from action.default_popup. */
  popupPath: string;
}

/** dist/<target> as built by `npm run build` (or a copy of it in `dir`); a clear error when it is not there. */
export function builtExtension(target: 'chrome' | 'firefox', dir = join(REPO_ROOT, 'dist', target)): BuiltExtension {
  const manifestPath = join(dir, 'manifest.json');
  if (!existsSync(manifestPath)) {
    throw new Error(`no built extension at ${dir} (missing manifest.json): run \`npm run build\` before \`npm run test:e2e\``);
  }
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as BuiltExtension['manifest'];
  const popup = manifest.action?.default_popup;
  if (!popup) throw new Error(`${manifestPath} has no action.default_popup`);
  const popupPath = popup.replace(/^\/+/, '');
  if (!existsSync(join(dir, popupPath))) throw new Error(`${manifestPath} names popup ${popup}, which is not in ${dir}`);
  return { dir, manifest, popupPath };
}

/** The first of `candidates` that exists; a clear error naming scripts/browsers.sh otherwise. */
export function browserExecutable(name: string, candidates: string[]): string {
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new Error(`${name} is not installed (looked for ${candidates.join(', ')}): run \`bash scripts/browsers.sh\``);
  return found;
}

/**
 * Debian's Chromium, headless, with a fresh profile and the built extension loaded, reaching
 * nothing but loopback (no host name resolves; the node and test pages are IP literals).
 * `backForwardCache` keeps the browser's back/forward cache on (Playwright turns it off).
 */
export function launchChromiumWithExtension(
  executablePath: string,
  profileDir: string,
  extensionDir: string,
  options: { backForwardCache?: boolean } = {},
): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profileDir, {
    executablePath,
    headless: true,
    viewport: POPUP_VIEWPORT,
    ignoreDefaultArgs: ['--disable-extensions', ...(options.backForwardCache ? ['--disable-back-forward-cache'] : [])],
    args: [
      `--disable-extensions-except=${extensionDir}`,
      `--load-extension=${extensionDir}`,
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-default-apps',
      '--disable-sync',
      '--no-first-run',
      '--no-default-browser-check',
      '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
    ],
    timeout: 30_000,
  });
}

/** The extension's ID, read off its service worker once that runs (at most 15 s after launch). */
export async function extensionIdOf(context: BrowserContext): Promise<string> {
  const ours = (worker: Worker): boolean => worker.url().startsWith('chrome-extension://');
  const worker = context.serviceWorkers().find(ours) ?? (await context.waitForEvent('serviceworker', { predicate: ours, timeout: 15_000 }));
  return new URL(worker.url()).host;
}

/**
 * The extension's service worker as the DevTools ServiceWorker domain reports it. Playwright's
 * Worker object does not see a stop and restart of the same registration; this does.
 */
export class ExtensionWorkerWatch {
  /** Running statuses in the order seen ('starting', 'running', 'stopping', 'stopped'). */
  readonly statuses: string[] = [];

  private constructor(private readonly cdp: CDPSession) {}

  /** Starts watching through a DevTools session of `page` (any page of the context). */
  static async attach(context: BrowserContext, page: Page, extensionId: string, log: ConsoleLog): Promise<ExtensionWorkerWatch> {
    const watch = new ExtensionWorkerWatch(await context.newCDPSession(page));
    watch.cdp.on('ServiceWorker.workerVersionUpdated', ({ versions }) => {
      for (const v of versions) {
        if (!v.scriptURL.startsWith(`chrome-extension://${extensionId}/`)) continue;
        if (watch.statuses.at(-1) !== v.runningStatus) watch.statuses.push(v.runningStatus);
        log.add('worker', `${v.runningStatus} (version ${v.versionId}, ${v.status})`);
      }
    });
    await watch.cdp.send('ServiceWorker.enable');
    return watch;
  }

  /** Stops the running worker (ServiceWorker.stopAllWorkers) and waits until it reports stopped. */
  async stop(): Promise<void> {
    await expect.poll(() => this.statuses.at(-1), { message: 'the worker runs before the stop', timeout: 10_000 }).toBe('running');
    const before = this.statuses.length;
    await this.cdp.send('ServiceWorker.stopAllWorkers');
    // Seen stopped at some point: an open popup's next message may start it again at once.
    await expect.poll(() => this.statuses.slice(before).includes('stopped'), { message: 'the worker stopped', timeout: 10_000 }).toBe(true);
  }

  /** Whether the worker ran again after its last stop. */
  ranAgain(): boolean {
    return this.statuses.slice(this.statuses.lastIndexOf('stopped')).includes('running');
  }

  async detach(): Promise<void> {
    await this.cdp.detach().catch(() => undefined);
  }
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function removeDir(dir: string | undefined): void {
  if (dir) rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}

/** The popup's size in the browser's toolbar, for screenshots that look like the real thing. */
export const POPUP_VIEWPORT = { width: 400, height: 600 };

// ---- the wallet protocol from a page of the extension ----

/** `selection`: the account and network a request that moves funds was reviewed on (as the popup sends it). */
export type Call = <T extends RequestType>(type: T, params: RequestParams<T>, selection?: Selection) => Promise<RequestResult<T>>;

/**
 * The typed protocol over a browser-specific `send` (page.evaluate of runtime.sendMessage),
 * answers read by the wallet's own client code (src/shared/client.ts). Each call goes to `log`
 * by type and outcome only: params and results may hold passwords or recovery phrases.
 */
export function walletCaller(send: (message: RequestMessage) => Promise<unknown>, log: ConsoleLog): Call {
  const sender: SendToBackground = (message) => send(message);
  return async (type, params, selection) => {
    const started = Date.now();
    try {
      const result = await callBackground(type, params, sender, selection);
      log.add('call', `${type} ok in ${Date.now() - started} ms`);
      return result;
    } catch (e) {
      const code = (e as { code?: unknown }).code;
      log.add('call', `${type} failed in ${Date.now() - started} ms: ${typeof code === 'string' ? code : 'error'}: ${e instanceof Error ? e.message : String(e)}`);
      throw e;
    }
  };
}

/**
 * The first `{type: 'ping'}` from a page, retried while the background is still starting (right
 * after launch or install, no listener may be registered yet). Each failed attempt is logged.
 */
export async function firstPing(send: (message: unknown) => Promise<unknown>, log: ConsoleLog, timeoutMs = 10_000): Promise<unknown> {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 1; ; attempt += 1) {
    try {
      const answer = await send({ type: 'ping' });
      if (attempt > 1) log.add('test', `the background answered the ping on attempt ${attempt}`);
      return answer;
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      log.add('test', `ping attempt ${attempt} failed: ${why}`);
      if (Date.now() > deadline) throw new Error(`the background did not answer a ping within ${timeoutMs} ms; last error: ${why}`, { cause: e });
      await sleep(200);
    }
  }
}

// ---- the local node ----

/** Sends `amount` nAVAX on the X-Chain from the genesis key to `xAddress`; resolves when accepted. */
export async function fundX(xAddress: string, amount: bigint): Promise<string> {
  const net = await localNetwork();
  const genesis = await genesisEngine();
  const owners = makeOwners([parseAddress(xAddress).bytes]);
  const issued = await genesis.issueAndWait(await genesis.buildXSend([{ assetID: net.ctx.avaxAssetID, amount, owners }]));
  return issued.txID;
}

export async function avaxAssetId(): Promise<string> {
  return cb58Encode((await localNetwork()).ctx.avaxAssetID);
}

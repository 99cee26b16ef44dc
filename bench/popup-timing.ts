// Section 4, timing: the popup opening in headless Chromium (warm, and cold: the service worker
// stopped just before), and the vault's unlock. Firefox: popup-firefox.ts; the rows: popup-rows.ts.
//
// Popup: a local node of its own (started and stopped here), the built dist/chrome in Debian's
// Chromium with a fresh profile (as test/e2e/chromium.e2e.test.ts launches it), a wallet created
// and pointed at the node through the background's messages, a little AVAX sent to it and one
// balances.refresh, so the background holds a cached snapshot. Then the popup page is opened
// OPENINGS times, each time in a new tab (the previous one closed), after one untimed opening.
// Per opening, read in the page against its own navigation start (performance.now()):
//  - first paint: the browser's 'first-contentful-paint' entry (also 'first-paint');
//  - interactive: the first moment the DOM holds the home screen with the cached balances and its
//    controls enabled (see READY below), caught by a MutationObserver installed before any of the
//    page's scripts run;
//  - home painted: the end of the first frame after that moment (requestAnimationFrame, then a
//    task): when the home screen with the balances is on screen.
// Between openings the refresh that every opening starts is left to finish, so that each opening
// meets the same idle background.
//
// Unlock: the round trip of a `wallet.unlock` message after `wallet.lock`, timed in the extension
// page, next to PBKDF2 alone with the same WebCrypto, so the KDF's share is visible (in Node:
// vault-timing.ts). The in-page probe: popup-probe.ts; the wallet it opens on: popup-wallet.ts.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type BrowserContext, type Page, type Worker } from 'playwright-core';
import { DEFAULT_PBKDF2_ITERATIONS } from '../src/background/vault.js';
import { callBackground } from '../src/shared/client.js';
import type { RequestMessage } from '../src/shared/messages.js';
import { browserExecutable, builtExtension, launchChromiumWithExtension, removeDir, REPO_ROOT, tempDir } from '../test/e2e/harness.js';
import { chromiumPidFor, killPids, processTree, sleep, within } from '../test/e2e/processes.js';
import { resolveNodeBinary, startLocalNode } from '../test/integration/node-harness.js';
import { statsOf, type Stats } from './measure.js';
import { EMPTY_DONE, EMPTY_PAGE, extensionWithFloor, FLOOR_DONE, FLOOR_PAGE, type FloorOpening, floorOpening, floorStats, type FloorStats, READ_EMPTY_FCP, READ_FLOOR } from './popup-floor.js';
import { pbkdf2Script, PROBE, PROBE_DONE, type Probe, READ_PROBE } from './popup-probe.js';
import { type Call, fundedWallet, type Log, PASSWORD, settled } from './popup-wallet.js';
import { UNLOCKS } from './vault-timing.js';

export const OPENINGS = 20;
/** Openings with the background stopped just before (service worker / event page): the cold start. */
export const COLD_OPENINGS = 10;
const CHROMIUM = ['/usr/lib/chromium/chromium', '/usr/bin/chromium'];

type ExtensionPageGlobals = { chrome: { runtime: { sendMessage(message: unknown): Promise<unknown> } } };

function pageCaller(page: () => Page): Call {
  return (type, params) =>
    callBackground(type, params, (message: RequestMessage) =>
      page().evaluate((m) => (globalThis as unknown as ExtensionPageGlobals).chrome.runtime.sendMessage(m), message),
    );
}

// ---- Chromium: the popup and the unlock ----

export interface Opening {
  fp: number;
  fcp: number;
  /** The wallet's shell (top bar, tabs) first in the DOM: wallet.open has answered. */
  shell: number;
  interactive: number;
  homePainted: number;
  domContentLoaded: number;
  load: number;
}

export interface PopupTiming {
  browser: string;
  openings: Opening[];
  warmup: Opening;
  fcp: Stats;
  fp: Stats;
  interactive: Stats;
  homePainted: Stats;
  /** Home with cached balances painted, opened with the background stopped just before. */
  coldPainted: Stats;
  shell: Stats;
  domContentLoaded: Stats;
  /** Openings whose first contentful paint came before the wallet's shell was in the DOM ("Opening…"). */
  fcpBeforeShell: number;
  /** Openings whose first contentful paint came after the home screen with balances was in the DOM. */
  fcpShowedHome: number;
  unlock: Stats;
  pbkdf2: Stats;
  /** The same openings of the one-paragraph floor page (bench/popup-floor.ts), in turn with the popup's. */
  floor: FloorStats;
  nodeStartupMs: number;
  setupMs: number;
  /** Leftover browser processes that had to be killed at the end, as "pid (command)". */
  killed: string[];
}

function ensureBuilt(log: Log): void {
  if (existsSync(join(REPO_ROOT, 'dist', 'chrome', 'manifest.json'))) return;
  log('no dist/chrome: npm run build …');
  const r = spawnSync('npm', ['run', 'build'], { cwd: REPO_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.status !== 0) throw new Error(`npm run build failed (exit ${r.status ?? r.signal}):\n${`${r.stdout}\n${r.stderr}`.trim().split('\n').slice(-10).join('\n')}`);
}

/**
 * A function that stops the extension's service worker (ServiceWorker.stopAllWorkers) and resolves
 * once DevTools reports it stopped. Written here, not test/e2e's ExtensionWorkerWatch, whose waits
 * are vitest's expect.poll.
 */
async function workerStopper(context: BrowserContext, page: Page, extensionHost: string): Promise<() => Promise<void>> {
  const cdp = await context.newCDPSession(page);
  let status = '';
  cdp.on('ServiceWorker.workerVersionUpdated', ({ versions }) => {
    for (const v of versions) if (v.scriptURL.startsWith(`chrome-extension://${extensionHost}/`)) status = v.runningStatus;
  });
  await cdp.send('ServiceWorker.enable');
  return async () => {
    await cdp.send('ServiceWorker.stopAllWorkers');
    const deadline = Date.now() + 10_000;
    while (status !== 'stopped') {
      if (Date.now() > deadline) throw new Error(`the service worker did not stop (last status: ${status || 'none seen'})`);
      await sleep(10);
    }
  };
}

function isOurWorker(worker: Worker): boolean {
  return worker.url().startsWith('chrome-extension://');
}

export async function popupTiming(log: Log): Promise<PopupTiming> {
  ensureBuilt(log);
  const built = builtExtension('chrome');
  const ext = { ...built, dir: extensionWithFloor(built.dir) };
  const executablePath = browserExecutable('Chromium', CHROMIUM);
  const setupStart = performance.now();
  const node = await startLocalNode({ binary: await resolveNodeBinary() });
  log(`node ready at ${node.url} in ${node.startupMs} ms`);
  let profileDir: string | undefined;
  let context: BrowserContext | undefined;
  let browserPid: number | undefined;
  const killed: string[] = [];
  try {
    profileDir = tempDir('xpc-bench-chromium-');
    context = await launchChromiumWithExtension(executablePath, profileDir, ext.dir);
    browserPid = chromiumPidFor(profileDir);
    if (browserPid === undefined) throw new Error('could not find the Chromium process (needed for clean-up)');
    const worker =
      context.serviceWorkers().find(isOurWorker) ?? (await context.waitForEvent('serviceworker', { predicate: isOurWorker, timeout: 15_000 }));
    const popupUrl = `chrome-extension://${new URL(worker.url()).host}/${ext.popupPath}`;
    const floorUrl = `chrome-extension://${new URL(worker.url()).host}/${FLOOR_PAGE}`;

    // Set-up through the background, from a page of the extension.
    let page = await context.newPage();
    await page.goto(popupUrl, { waitUntil: 'load' });
    const call = pageCaller(() => page);
    const browser = (await page.evaluate('navigator.userAgent')) as string;
    const xAddress = await fundedWallet(call, node.url);
    await settled(call); // the set-up page's own refresh on load
    const setupMs = performance.now() - setupStart;
    log(`wallet created, funded and cached in ${(setupMs / 1000).toFixed(1)} s (${browser.match(/(Headless)?Chrome\/[\d.]+/)?.[0] ?? browser})`);

    // The openings: a fresh tab each, the previous one closed.
    // Cold: the service worker stopped (CDP ServiceWorker.stopAllWorkers, from a blank tab kept
    // open for it) after the previous tab is closed, so the opening's first message starts it.
    const control = await context.newPage();
    const stopWorker = await workerStopper(context, control, new URL(popupUrl).host);
    const openOnce = async (cold = false): Promise<Opening> => {
      const next = await context!.newPage();
      await next.addInitScript({ content: PROBE });
      await page.close();
      page = next;
      if (cold) await stopWorker();
      await within(page.goto(popupUrl, { waitUntil: 'load' }), 15_000, 'opening the popup page');
      // Polled from here: page.waitForFunction would compile the text with eval, which the
      // extension page's CSP forbids; page.evaluate of an expression is not subject to it.
      const deadline = Date.now() + 15_000;
      while (!((await page.evaluate(PROBE_DONE)) as boolean)) {
        if (Date.now() > deadline) throw new Error(`the popup did not reach the home screen with balances within 15 s: ${JSON.stringify(await page.evaluate(READ_PROBE))}`);
        await sleep(25);
      }
      const p = (await page.evaluate(READ_PROBE)) as Probe;
      if (p.error) throw new Error(p.error);
      await settled(call);
      return { fp: p.fp!, fcp: p.fcp!, shell: p.shell!, interactive: p.interactive!, homePainted: p.homePainted!, domContentLoaded: p.domContentLoaded, load: p.load };
    };
    // A page of the bench's own (the floor page, the empty page), opened the way the popup is: a new
    // tab, the previous one closed, then polled until `done` holds in it; answers `read`.
    const openBenchPage = async (url: string, done: string, read: string, what: string, cold = false): Promise<unknown> => {
      const next = await context!.newPage();
      await page.close();
      page = next;
      if (cold) await stopWorker();
      await within(page.goto(url, { waitUntil: 'load' }), 15_000, `opening ${what}`);
      const deadline = Date.now() + 15_000;
      while (!((await page.evaluate(done)) as boolean)) {
        if (Date.now() > deadline) throw new Error(`${what} did not paint within 15 s`);
        await sleep(25);
      }
      return page.evaluate(read);
    };
    // The floor page, opened right after each popup opening.
    const floorOnce = async (cold = false): Promise<FloorOpening> =>
      floorOpening((await openBenchPage(floorUrl, FLOOR_DONE, READ_FLOOR, 'the floor page', cold)) as Parameters<typeof floorOpening>[0]);
    // The empty page (its first paint only), opened after each floor opening.
    const emptyUrl = `chrome-extension://${new URL(worker.url()).host}/${EMPTY_PAGE}`;
    const emptyOnce = async (): Promise<number> => (await openBenchPage(emptyUrl, EMPTY_DONE, READ_EMPTY_FCP, 'the empty page')) as number;
    const warmup = await openOnce();
    await floorOnce();
    await emptyOnce();
    const openings: Opening[] = [];
    const floorWarm: FloorOpening[] = [];
    const emptyFcp: number[] = [];
    for (let i = 0; i < OPENINGS; i++) {
      openings.push(await openOnce());
      floorWarm.push(await floorOnce());
      emptyFcp.push(await emptyOnce());
    }
    log(`empty extension page, ${OPENINGS} openings: first contentful paint median ${statsOf(emptyFcp).median.toFixed(1)} ms`);
    const fcp = statsOf(openings.map((o) => o.fcp));
    const interactive = statsOf(openings.map((o) => o.interactive));
    log(`popup, ${OPENINGS} openings: first contentful paint median ${fcp.median.toFixed(1)} ms, interactive ${interactive.median.toFixed(1)} ms`);
    const cold: Opening[] = [];
    const floorCold: FloorOpening[] = [];
    for (let i = 0; i < COLD_OPENINGS; i++) {
      cold.push(await openOnce(true));
      floorCold.push(await floorOnce(true));
    }
    const coldPainted = statsOf(cold.map((o) => o.homePainted));
    log(`popup, ${COLD_OPENINGS} cold openings (worker stopped): home with balances painted median ${coldPainted.median.toFixed(1)} ms`);

    // WebCrypto PBKDF2 alone in the page, then lock + timed unlock round trips.
    const pbkdf2 = (await page.evaluate(pbkdf2Script(DEFAULT_PBKDF2_ITERATIONS, UNLOCKS))) as number[];
    const unlock: number[] = [];
    for (let i = 0; i < UNLOCKS; i++) {
      const locked = await call('wallet.lock', {});
      if (locked.vault !== 'locked') throw new Error(`wallet.lock left the vault ${locked.vault}`);
      const message: RequestMessage<'wallet.unlock'> = { channel: 'xpc-wallet', type: 'wallet.unlock', params: { password: PASSWORD } };
      const r = await within(
        page.evaluate(async (m) => {
          const t = performance.now();
          const answer = await (globalThis as unknown as ExtensionPageGlobals).chrome.runtime.sendMessage(m);
          return { ms: performance.now() - t, answer };
        }, message),
        30_000,
        'wallet.unlock',
      );
      const unlocked = await callBackground('wallet.unlock', message.params, () => Promise.resolve(r.answer));
      if (unlocked.vault !== 'unlocked' || unlocked.account?.xAddress !== xAddress) throw new Error('wallet.unlock did not unlock the same account');
      unlock.push(r.ms);
    }
    log(`unlock in Chromium: median ${statsOf(unlock).median.toFixed(0)} ms (PBKDF2 alone ${statsOf(pbkdf2).median.toFixed(0)} ms)`);

    return {
      browser,
      openings,
      warmup,
      fcp,
      fp: statsOf(openings.map((o) => o.fp)),
      interactive,
      homePainted: statsOf(openings.map((o) => o.homePainted)),
      coldPainted,
      shell: statsOf(openings.map((o) => o.shell)),
      domContentLoaded: statsOf(openings.map((o) => o.domContentLoaded)),
      fcpBeforeShell: openings.filter((o) => o.fcp < o.shell).length,
      fcpShowedHome: openings.filter((o) => o.fcp >= o.interactive).length,
      unlock: statsOf(unlock),
      pbkdf2: statsOf(pbkdf2),
      floor: floorStats(floorWarm, floorCold, emptyFcp),
      nodeStartupMs: node.startupMs,
      setupMs,
      killed,
    };
  } finally {
    // The driver's close first, then whatever is left of the browser's tree, each by its PID.
    // A launch that failed half-way may have left a browser behind: look for it by its profile.
    const pid = browserPid ?? (profileDir ? chromiumPidFor(profileDir) : undefined);
    const tree = pid !== undefined ? processTree(pid) : [];
    if (context) await within(context.close(), 15_000, 'closing Chromium').catch((e: unknown) => log(String(e)));
    killed.push(...(await killPids(tree)));
    if (killed.length > 0) log(`killed leftover browser processes ${killed.join(', ')}`);
    removeDir(profileDir);
    removeDir(ext.dir);
    await node.stop();
    log('browser closed, node stopped');
  }
}

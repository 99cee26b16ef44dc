// Section 4, timing in Firefox ESR: the popup's opening, warm and cold, as popup-timing.ts does in
// Chromium. The browser is the e2e suite's (test/e2e/firefox.ts): Debian's Firefox ESR, headless,
// fresh profile, driven by puppeteer-core over WebDriver BiDi, dist/firefox installed as a
// temporary add-on. A local node of its own (started and stopped here), a wallet created, funded and
// its balances cached as in Chromium, then the popup page opened in a new tab each time with the
// same in-page probe. Firefox runs no BiDi preload script (evaluateOnNewDocument) in a
// moz-extension:// page, so the probe is the first script of the popup page in the bench's copy
// of the add-on (bench/popup-floor.ts extensionWithFloor), as it is of the floor page. Cold: the add-on's event page terminated just before the opening, as the e2e suite does.
import type { Page } from 'puppeteer-core';
import { callBackground } from '../src/shared/client.js';
import type { RequestMessage } from '../src/shared/messages.js';
import { FirefoxWithExtension, sendFrom } from '../test/e2e/firefox.js';
import { ConsoleLog } from '../test/e2e/artifacts.js';
import { builtExtension, removeDir } from '../test/e2e/harness.js';
import { resolveNodeBinary, startLocalNode } from '../test/integration/node-harness.js';
import { fmtMs, statsOf } from './measure.js';
import { EMPTY_DONE, EMPTY_PAGE, extensionWithFloor, FLOOR_DONE, FLOOR_PAGE, type FloorOpening, floorOpening, floorStats, type FloorStats, READ_EMPTY_FCP, READ_FLOOR } from './popup-floor.js';
import type { Row } from './report.js';
import { openingRows, type OpeningStats } from './popup-rows.js';
import { PROBE, PROBE_DONE, type Probe, READ_PROBE } from './popup-probe.js';
import { COLD_OPENINGS, OPENINGS } from './popup-timing.js';
import { type Call, fundedWallet, type Log, settled } from './popup-wallet.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export interface FirefoxTiming extends OpeningStats {
  browser: string;
  shell: OpeningStats['fcp'];
  /** The same openings of the one-paragraph floor page (bench/popup-floor.ts), in turn with the popup's. */
  floor: FloorStats;
  nodeStartupMs: number;
}

export async function firefoxPopupTiming(log: Log): Promise<FirefoxTiming> {
  const node = await startLocalNode({ binary: await resolveNodeBinary() });
  log(`node ready at ${node.url} in ${node.startupMs} ms`);
  const consoleLog = new ConsoleLog();
  const firefox = new FirefoxWithExtension('bench-firefox', consoleLog);
  const built = builtExtension('firefox');
  const extensionDir = extensionWithFloor(built.dir, { script: PROBE, popupPath: built.popupPath });
  try {
    await firefox.launch({}, extensionDir);
    let page: Page = await firefox.openPopup();
    const call: Call = (type, params) => callBackground(type, params, (m: RequestMessage) => sendFrom(page)(m));
    const browser = (await page.evaluate('navigator.userAgent')) as string;
    await fundedWallet(call, node.url);
    await settled(call);
    log(`Firefox: wallet created, funded and cached (${browser.match(/Firefox\/[\d.]+/)?.[0] ?? browser})`);

    const openOnce = async (cold = false): Promise<Probe> => {
      const next = await firefox.browser!.newPage();
      await page.close();
      page = next;
      if (cold) await firefox.terminateBackground();
      // Not awaited: a goto to a moz-extension:// URL never resolves over BiDi (test/e2e/firefox.ts).
      page.goto(firefox.popupUrl).catch(() => undefined);
      const deadline = Date.now() + 15_000;
      const done = `location.href === ${JSON.stringify(firefox.popupUrl)} && ${PROBE_DONE}`;
      while (!((await page.evaluate(done).catch(() => false)) as boolean)) {
        if (Date.now() > deadline) throw new Error(`the popup did not reach the home screen with balances within 15 s: ${JSON.stringify(await page.evaluate(READ_PROBE))}`);
        await sleep(25);
      }
      const p = (await page.evaluate(READ_PROBE)) as Probe;
      if (p.error) throw new Error(p.error);
      await settled(call);
      return p;
    };
    // A page of the bench's own (the floor page, the empty page), opened the way the popup is: a new
    // tab, the previous one closed, then polled until `done` holds in it; answers `read`.
    const openBenchPage = async (url: string, done: string, read: string, what: string, cold = false): Promise<unknown> => {
      const next = await firefox.browser!.newPage();
      await page.close();
      page = next;
      if (cold) await firefox.terminateBackground();
      page.goto(url).catch(() => undefined);
      const deadline = Date.now() + 15_000;
      const ready = `location.href === ${JSON.stringify(url)} && ${done}`;
      while (!((await page.evaluate(ready).catch(() => false)) as boolean)) {
        if (Date.now() > deadline) throw new Error(`${what} did not paint within 15 s`);
        await sleep(25);
      }
      return page.evaluate(read);
    };
    // The floor page, opened right after each popup opening; it records its own moments.
    const floorUrl = `${firefox.base}${FLOOR_PAGE}`;
    const floorOnce = async (cold = false): Promise<FloorOpening> =>
      floorOpening((await openBenchPage(floorUrl, FLOOR_DONE, READ_FLOOR, 'the floor page', cold)) as Parameters<typeof floorOpening>[0]);
    // The empty page (its first paint only), opened after each floor opening.
    const emptyUrl = `${firefox.base}${EMPTY_PAGE}`;
    const emptyOnce = async (): Promise<number> => (await openBenchPage(emptyUrl, EMPTY_DONE, READ_EMPTY_FCP, 'the empty page')) as number;
    await openOnce();
    await floorOnce();
    await emptyOnce();
    const warm: Probe[] = [];
    const floorWarm: FloorOpening[] = [];
    const emptyFcp: number[] = [];
    for (let i = 0; i < OPENINGS; i++) {
      warm.push(await openOnce());
      floorWarm.push(await floorOnce());
      emptyFcp.push(await emptyOnce());
    }
    log(`empty extension page, ${OPENINGS} openings: first contentful paint median ${statsOf(emptyFcp).median.toFixed(1)} ms`);
    const cold: Probe[] = [];
    const floorCold: FloorOpening[] = [];
    for (let i = 0; i < COLD_OPENINGS; i++) {
      cold.push(await openOnce(true));
      floorCold.push(await floorOnce(true));
    }
    const r: FirefoxTiming = {
      browser,
      fcp: statsOf(warm.map((p) => p.fcp!)),
      homePainted: statsOf(warm.map((p) => p.homePainted!)),
      interactive: statsOf(warm.map((p) => p.interactive!)),
      shell: statsOf(warm.flatMap((p) => (p.shell === null ? [] : [p.shell]))),
      coldPainted: statsOf(cold.map((p) => p.homePainted!)),
      floor: floorStats(floorWarm, floorCold, emptyFcp),
      nodeStartupMs: node.startupMs,
    };
    log(`Firefox popup: painted ${fmtMs(r.homePainted.median)}, interactive ${fmtMs(r.interactive.median)}, cold ${fmtMs(r.coldPainted.median)}`);
    return r;
  } finally {
    await firefox.close('bench-firefox-stdout.log');
    removeDir(extensionDir);
    await node.stop();
    log('Firefox closed, node stopped');
  }
}

export function firefoxPopupRows(r: FirefoxTiming): { rows: Row[]; environment: string } {
  const browser = r.browser.match(/Firefox\/[\d.]+/)?.[0] ?? r.browser;
  const method =
    `Debian Firefox ESR (${browser}) headless, driven by puppeteer-core over WebDriver BiDi, dist/firefox installed as a temporary add-on, fresh profile ` +
    `(test/e2e/firefox.ts); the same wallet, probe and procedure as the Chromium rows: ${OPENINGS} openings, each in a new tab, after one untimed opening, ` +
    'times in the page from its navigation start. A tab is not the toolbar popup.';
  const painted =
    'requestAnimationFrame when the DOM first holds the balances, then a task: the end of that frame. Firefox reports first-contentful-paint ' +
    `(its own paint timing); the wallet's shell was in the DOM at ${fmtMs(r.shell.median)} (median).`;
  return { rows: openingRows('Firefox', r, method, painted), environment: `Browser: Debian Firefox ESR ${browser}, headless; node started for it in ${fmtMs(r.nodeStartupMs)}` };
}

// The built Firefox extension (dist/firefox) in Debian's Firefox ESR, headless, with a fresh
// profile, driven by puppeteer-core over WebDriver BiDi, against the run's local node. The
// extension is installed as a temporary add-on; its moz-extension:// UUID is pinned with the pref
// extensions.webextensions.uuids so the test knows the popup's URL.
//
// Firefox's MV3 background is an event page. The pref extensions.background.idle.timeout is set
// short, so the test can let the background go idle, see Firefox unload it, and check that the
// next request finds the unlocked session again (from storage.session).
import { randomUUID } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, inject } from 'vitest';
import type { AccountView, BalancesView } from '../../src/shared/messages.js';
import { addAndSelectNode, createWallet, expectFunded, expectSessionResumed, fundAndRefresh, lockAndUnlock, settledBalances } from './flow.js';
import {
  artifactPath,
  browserExecutable,
  builtExtension,
  clearArtifacts,
  ConsoleLog,
  domQuiet,
  firstPing,
  flowSteps,
  killPids,
  POPUP_VIEWPORT,
  processTree,
  removeDir,
  slug,
  startRpcProxy,
  startWebPage,
  tempDir,
  Timings,
  walletCaller,
  within,
  type BuiltExtension,
  type Call,
  type RpcProxy,
  type WebPage,
} from './harness.js';

const FIREFOX = ['/usr/bin/firefox-esr'];
/** Idle time after which Firefox unloads the event page (its default is 30 s). */
const IDLE_UNLOAD_MS = 2_000;

type ExtensionPageGlobals = {
  browser: {
    runtime: {
      sendMessage(message: unknown): Promise<unknown>;
      getBackgroundPage(): Promise<{ performance: { timeOrigin: number } } | null>;
    };
  };
};

/** Prefs for a quiet, loopback-only browser on top of puppeteer's own test prefs. */
function firefoxPrefs(addonId: string, uuid: string): Record<string, unknown> {
  return {
    'extensions.webextensions.uuids': JSON.stringify({ [addonId]: uuid }),
    'extensions.background.idle.timeout': IDLE_UNLOAD_MS,
    // Console messages of all pages (the background's too) on stdout, kept in a file (see launch).
    'devtools.console.stdout.content': true,
    // Loopback only: every other HTTP(S) request goes to a proxy that is not there. Firefox never
    // sends 127.0.0.1 or localhost through a proxy.
    'network.proxy.type': 1,
    'network.proxy.http': '127.0.0.1',
    'network.proxy.http_port': 9,
    'network.proxy.ssl': '127.0.0.1',
    'network.proxy.ssl_port': 9,
    'network.proxy.share_proxy_settings': true,
    'network.dns.disablePrefetch': true,
    'network.trr.mode': 5,
    'network.connectivity-service.enabled': false,
    'network.captive-portal-service.enabled': false,
    'app.normandy.enabled': false,
    'browser.region.update.enabled': false,
    'toolkit.telemetry.enabled': false,
  };
}

/**
 * A launcher that runs Firefox in its own place (exec: same PID) with stdout appended to
 * `stdoutFile`. Puppeteer reads the browser's stderr itself, but would either drop stdout or copy
 * it, start-up noise included, into the test output.
 */
function writeLauncher(dir: string, executable: string, stdoutFile: string): string {
  const quote = (s: string): string => `'${s.replaceAll("'", `'\\''`)}'`;
  const path = join(dir, 'firefox.sh');
  writeFileSync(path, `#!/bin/sh\nexec ${quote(executable)} "$@" >>${quote(stdoutFile)}\n`, { mode: 0o755 });
  return path;
}

function collectLines(stream: Readable | null | undefined, source: string, log: ConsoleLog): void {
  if (!stream) return;
  let pending = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) if (line.trim() !== '') log.add(source, line);
  });
}

describe('Firefox ESR: the built extension against the local node', () => {
  const timings = new Timings();
  const log = new ConsoleLog();
  let ext: BuiltExtension;
  let runDir: string | undefined;
  let stdoutFile = '';
  let browser: Browser | undefined;
  let browserPid: number | undefined;
  let proxy: RpcProxy | undefined;
  let web: WebPage | undefined;
  let popup: Page | undefined;
  let popupUrl = '';
  let call: Call;
  let account: AccountView;
  let snapshot: BalancesView;

  /**
   * Opens `url` in `page`. A goto to a moz-extension:// URL never resolves over BiDi, so it is
   * not awaited: the page counts as loaded when the document at that URL is complete.
   */
  const open = async (page: Page, url: string): Promise<void> => {
    // Polled by hand: while a document is being set up or replaced, Firefox's remote agent can
    // fail an evaluation with its own internal error, which puppeteer's waitForFunction does not
    // retry.
    const deadline = Date.now() + 15_000;
    // Marks the current document, so that a reload of the same URL is not mistaken for done.
    for (;;) {
      const marked = await page
        .evaluate(() => {
          (globalThis as { xpcE2eOldDocument?: boolean }).xpcE2eOldDocument = true;
          return true;
        })
        .catch(() => false);
      if (marked) break;
      if (Date.now() > deadline) throw new Error('could not reach the page to open ' + url);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    page.goto(url).catch(() => undefined);
    for (;;) {
      const loaded = await page
        .evaluate(
          (u: string) => location.href === u && document.readyState === 'complete' && !(globalThis as { xpcE2eOldDocument?: boolean }).xpcE2eOldDocument,
          url,
        )
        .catch(() => false);
      if (loaded) return;
      if (Date.now() > deadline) throw new Error(`the page did not finish opening ${url} within 15 s`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  /** When the background page was created (ms since epoch): a new value is a new background. */
  const backgroundStartedAt = (): Promise<number | null> =>
    popup!.evaluate(async () => {
      const page = await (globalThis as unknown as ExtensionPageGlobals).browser.runtime.getBackgroundPage();
      return page ? page.performance.timeOrigin : null;
    });

  /** Reloads the popup (it renders the state it finds on load), lets it settle, saves a screenshot. */
  const screenshot = async (name: string, options: { balances?: boolean } = {}): Promise<void> => {
    await open(popup!, popupUrl);
    await popup!.evaluate(domQuiet, { quietMs: 500, maxMs: 5_000 });
    if (options.balances) {
      // The popup refreshes the balances on load and polls while that runs (every second).
      await settledBalances(call);
      await popup!.evaluate(domQuiet, { quietMs: 1_200, maxMs: 5_000 });
    }
    await popup!.screenshot({ path: artifactPath(`firefox-${name}.png`), fullPage: true });
  };

  const step = flowSteps(timings, async (failed) => {
    const name = `firefox-FAILED-${slug(failed)}`;
    if (popup && !popup.isClosed()) await popup.screenshot({ path: artifactPath(`${name}.png`) }).catch(() => undefined);
    const path = log.save(`${name}.console.log`);
    if (existsSync(stdoutFile)) copyFileSync(stdoutFile, artifactPath(`${name}.stdout.log`));
    console.error(`[e2e firefox] step "${failed}" failed; screenshot and console log: ${path.replace(/\.console\.log$/, '.*')}`);
  });

  /** Starts the browser with the extension; on failure the console log so far is saved. */
  const launch = async (): Promise<void> => {
    clearArtifacts('firefox-');
    ext = builtExtension('firefox');
    const executablePath = browserExecutable('Firefox ESR', FIREFOX);
    const addonId = ext.manifest.browser_specific_settings?.gecko?.id;
    if (!addonId) throw new Error('dist/firefox/manifest.json has no browser_specific_settings.gecko.id');
    proxy = await startRpcProxy(inject('nodeUrl'));
    runDir = tempDir('xpc-e2e-firefox-');
    const profileDir = join(runDir, 'profile');
    mkdirSync(profileDir);
    stdoutFile = join(runDir, 'stdout.log');
    const uuid = randomUUID();
    const started = Date.now();
    browser = await puppeteer.launch({
      browser: 'firefox',
      executablePath: writeLauncher(runDir, executablePath, stdoutFile),
      headless: true,
      userDataDir: profileDir,
      // Needed to open moz-extension:// pages over BiDi.
      args: ['--remote-allow-system-access'],
      extraPrefsFirefox: firefoxPrefs(addonId, uuid),
      defaultViewport: POPUP_VIEWPORT,
      timeout: 30_000,
    });
    const child = browser.process();
    browserPid = child?.pid;
    collectLines(child?.stderr, 'firefox stderr', log);
    log.add('test', `firefox pid ${browserPid ?? 'unknown'}, launched in ${Date.now() - started} ms`);

    const installed = await browser.installExtension(ext.dir);
    expect(installed).toBe(addonId);
    popupUrl = `moz-extension://${uuid}/${ext.popupPath}`;
    log.add('test', `add-on ${installed} installed at moz-extension://${uuid}/, ${Date.now() - started} ms after launch`);
    timings.add('launch', Date.now() - started);
  };

  beforeAll(async () => {
    try {
      await launch();
    } catch (e) {
      const path = log.save('firefox-FAILED-launch.console.log');
      console.error(`[e2e firefox] launch failed; console log: ${path}`);
      throw e;
    }
  });

  afterAll(async () => {
    // The driver's own close first; then whatever is left of the browser's process tree, by PID.
    const tree = browserPid !== undefined ? processTree(browserPid) : [];
    if (browser) await within(browser.close(), 15_000, 'closing Firefox').catch((e: unknown) => log.add('test', String(e)));
    const killed = await killPids(tree);
    if (killed.length > 0) console.warn(`[e2e firefox] killed leftover processes ${killed.join(', ')}`);
    await proxy?.close();
    await web?.close();
    log.save('firefox-console.log'); // every run's, for reading next to the screenshots
    if (stdoutFile && existsSync(stdoutFile)) copyFileSync(stdoutFile, artifactPath('firefox-stdout.log'));
    removeDir(runDir);
    console.log(timings.summary('firefox'));
  });

  step('the background answers a ping from the popup page', async () => {
    expect(browserPid, 'the browser PID (for clean-up)').toBeTypeOf('number');
    popup = await browser!.newPage();
    popup.on('console', (m) => log.add(`popup ${m.type()}`, m.text()));
    popup.on('pageerror', (e) => log.add('popup error', e instanceof Error ? (e.stack ?? e.message) : String(e)));
    await open(popup, popupUrl);
    const send = (message: unknown): Promise<unknown> =>
      popup!.evaluate((m) => (globalThis as unknown as ExtensionPageGlobals).browser.runtime.sendMessage(m), message);
    call = walletCaller(send, log);
    expect(await firstPing(send, log)).toEqual({ ok: true, version: ext.manifest.version });
    await screenshot('popup-first-run');
  });

  step('creates a wallet from a generated 24-word recovery phrase', async () => {
    await createWallet(call);
  });

  step('adds the local node as a custom network and selects it', async () => {
    ({ account } = await addAndSelectNode(call, proxy!.url));
  });

  step('shows the exact X balance after funding from the genesis key', async () => {
    await fundAndRefresh(call, account);
    await screenshot('popup-funded', { balances: true });
    // The reloaded popup started a refresh of its own: compare later with the settled snapshot.
    snapshot = await settledBalances(call);
    await expectFunded(snapshot);
  });

  step('keeps the session when Firefox unloads the idle event page', async () => {
    const before = await backgroundStartedAt();
    expect(before, 'runtime.getBackgroundPage() gives the event page').toBeTypeOf('number');
    const identityCalls = proxy!.count('info.getNetworkID');
    // Idle for twice the unload timeout, with no message and nothing else touching the extension.
    await new Promise((r) => setTimeout(r, 2 * IDLE_UNLOAD_MS + 500));

    await expectSessionResumed(call, account, snapshot);
    const after = await backgroundStartedAt();
    expect(after, 'a new background page answered').not.toBe(before);
    // The node's identity is kept in memory only: asking for it again shows a fresh background.
    expect(proxy!.count('info.getNetworkID'), 'the new background asked the node who it is').toBeGreaterThan(identityCalls);
    log.add('test', `event page restarted: created at ${String(before)}, then at ${String(after)}`);
  });

  step('locks, refuses a wrong password and unlocks with the right one', async () => {
    await lockAndUnlock(call, account, () => screenshot('popup-locked'));
  });

  step('a web page on loopback gets no channel to the background', async () => {
    web = await startWebPage();
    const page = await browser!.newPage();
    try {
      await page.goto(web.url, { waitUntil: 'load' });
      const seen = await page.evaluate(() => {
        const g = globalThis as unknown as { browser?: unknown; chrome?: { runtime?: unknown }; xpcWallet?: { isXpcWallet?: boolean } };
        return { inpage: g.xpcWallet?.isXpcWallet === true, hasBrowser: g.browser !== undefined, hasRuntime: g.chrome?.runtime !== undefined };
      });
      // The MAIN-world content script ran in the page, so the extension is active there …
      expect(seen.inpage).toBe(true);
      // … but a web page has no extension messaging API at all.
      expect(seen).toMatchObject({ hasBrowser: false, hasRuntime: false });
    } finally {
      await page.close();
    }
  });
});

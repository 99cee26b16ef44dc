// The Firefox pieces the Firefox test files share (firefox.e2e.test.ts, firefox-dapp.e2e.test.ts,
// firefox-ui.e2e.test.ts): Debian's Firefox ESR, headless, with a fresh profile, driven by
// puppeteer-core over WebDriver BiDi, with the built add-on (dist/firefox) installed as a
// temporary add-on. Its moz-extension:// UUID is pinned with the pref extensions.webextensions.uuids
// so the tests know the popup's URL. Only loopback is reached; the browser's own chatter is off.
import { randomUUID } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import puppeteer, { type Browser, type ElementHandle, type KeyInput, type Page } from 'puppeteer-core';
import { expect } from 'vitest';
import { artifactPath, type ConsoleLog } from './artifacts.js';
import { browserExecutable, builtExtension, type BuiltExtension, POPUP_VIEWPORT, removeDir, tempDir } from './harness.js';
import { killPids, processTree, within } from './processes.js';
import { type PageAdapter, queryInPage, type Target } from './popup/driver.js';

const FIREFOX = ['/usr/bin/firefox-esr'];

/** What an extension page of the add-on has (`browser.runtime`), for page.evaluate. */
export type ExtensionPageGlobals = {
  browser: {
    runtime: {
      sendMessage(message: unknown): Promise<unknown>;
      getBackgroundPage(): Promise<{ performance: { timeOrigin: number } } | null>;
    };
  };
};

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Prefs for a quiet, loopback-only browser on top of puppeteer's own test prefs. */
function firefoxPrefs(addonId: string, uuid: string, extra: Record<string, unknown>): Record<string, unknown> {
  return {
    'extensions.webextensions.uuids': JSON.stringify({ [addonId]: uuid }),
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
    ...extra,
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

/**
 * Opens `url` in `page` (a fresh page, or one showing any document, the same URL included). A goto
 * to a moz-extension:// URL never resolves over BiDi, so it is not awaited: the page counts as
 * open when a new document at that URL is complete.
 *
 * Polled by hand: while a document is being set up or replaced, Firefox's remote agent can fail
 * an evaluation with its own internal error, which puppeteer's waitForFunction does not retry.
 */
export async function openExtensionPage(page: Page, url: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
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
    await sleep(100);
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
    if (Date.now() > deadline) throw new Error(`the page did not finish opening ${url} within ${timeoutMs / 1000} s`);
    await sleep(100);
  }
}

/** `runtime.sendMessage` from an extension page: how the popup talks to the background. */
export function sendFrom(page: Page): (message: unknown) => Promise<unknown> {
  return (message) => page.evaluate((m) => (globalThis as unknown as ExtensionPageGlobals).browser.runtime.sendMessage(m), message);
}

/**
 * One Firefox ESR with a fresh profile and the built add-on. Fields are filled in as launch() gets
 * along, so close() cleans up after a half-done launch too.
 */
export class FirefoxWithExtension {
  ext: BuiltExtension | undefined;
  browser: Browser | undefined;
  pid: number | undefined;
  runDir: string | undefined;
  /** The browser's stdout (page and background console messages among it). */
  stdoutFile = '';
  /** moz-extension://<uuid>/ */
  base = '';

  /** `label` names the browser in log lines and its temp directory (xpc-e2e-<label>-…). */
  constructor(
    readonly label: string,
    readonly log: ConsoleLog,
  ) {}

  /** moz-extension://<uuid>/<popup>. */
  get popupUrl(): string {
    return `${this.base}${this.extension.popupPath}`;
  }

  get extension(): BuiltExtension {
    if (!this.ext) throw new Error('Firefox is not launched');
    return this.ext;
  }

  /**
   * Starts the browser and installs the add-on (dist/firefox, or a copy of it in `extensionDir`);
   * `prefs` on top of the shared ones. Returns the launch time (ms).
   */
  async launch(prefs: Record<string, unknown> = {}, extensionDir?: string): Promise<number> {
    const ext = builtExtension('firefox', extensionDir);
    this.ext = ext;
    const executablePath = browserExecutable('Firefox ESR', FIREFOX);
    const addonId = ext.manifest.browser_specific_settings?.gecko?.id;
    if (!addonId) throw new Error('dist/firefox/manifest.json has no browser_specific_settings.gecko.id');
    this.runDir = tempDir(`xpc-e2e-${this.label}-`);
    const profileDir = join(this.runDir, 'profile');
    mkdirSync(profileDir);
    this.stdoutFile = join(this.runDir, 'stdout.log');
    const uuid = randomUUID();
    const started = Date.now();
    this.browser = await puppeteer.launch({
      browser: 'firefox',
      executablePath: writeLauncher(this.runDir, executablePath, this.stdoutFile),
      headless: true,
      userDataDir: profileDir,
      // Needed to open moz-extension:// pages over BiDi.
      args: ['--remote-allow-system-access'],
      extraPrefsFirefox: firefoxPrefs(addonId, uuid, prefs),
      defaultViewport: POPUP_VIEWPORT,
      timeout: 30_000,
    });
    const child = this.browser.process();
    this.pid = child?.pid;
    collectLines(child?.stderr, `${this.label} stderr`, this.log);
    this.log.add('test', `${this.label}: firefox pid ${this.pid ?? 'unknown'}, launched in ${Date.now() - started} ms`);

    const installed = await this.browser.installExtension(ext.dir);
    expect(installed).toBe(addonId);
    this.base = `moz-extension://${uuid}/`;
    this.log.add('test', `${this.label}: add-on ${installed} installed at ${this.base}, ${Date.now() - started} ms after launch`);
    return Date.now() - started;
  }

  /** A new tab (of the popup's size) showing the popup page; its console goes to the log as `popup`. */
  async openPopup(): Promise<Page> {
    const page = await this.browser!.newPage();
    page.on('console', (m) => this.log.add(`popup ${m.type()}`, m.text()));
    page.on('pageerror', (e) => this.log.add('popup error', e instanceof Error ? (e.stack ?? e.message) : String(e)));
    await openExtensionPage(page, this.popupUrl);
    return page;
  }

  /**
   * Evaluates `expression` in the browser's own (chrome) window, over WebDriver BiDi: what the
   * launch's --remote-allow-system-access permits. For what no web-facing API does: prefs, the
   * add-on's background.
   */
  async inBrowserChrome(expression: string): Promise<unknown> {
    type Bidi = { send(method: string, params: unknown): Promise<{ result: unknown }> };
    const bidi = (this.browser as unknown as { connection: Bidi }).connection;
    const tree = (await bidi.send('browsingContext.getTree', { 'moz:scope': 'chrome' })).result as { contexts: { context: string }[] };
    const context = tree.contexts[0]?.context;
    if (!context) throw new Error('Firefox shows no chrome window over BiDi');
    const answer = (await bidi.send('script.evaluate', { expression, target: { context }, awaitPromise: true })).result as { type: string; result?: { value?: unknown }; exceptionDetails?: { text?: string } };
    if (answer.type !== 'success') throw new Error(`in Firefox's chrome window: ${answer.exceptionDetails?.text ?? 'the script failed'}`);
    return answer.result?.value;
  }

  /** What `prefers-color-scheme` says in every page (the pref a user's theme choice sets). */
  async setColorScheme(scheme: 'light' | 'dark'): Promise<void> {
    await this.inBrowserChrome(`Services.prefs.setIntPref('layout.css.prefers-color-scheme.content-override', ${scheme === 'dark' ? 0 : 1})`);
  }

  /** Unloads the add-on's event page, as about:debugging's Terminate button does; resolves once it is stopped. */
  async terminateBackground(): Promise<void> {
    const id = JSON.stringify(this.extension.manifest.browser_specific_settings?.gecko?.id);
    const state = await this.inBrowserChrome(`(async () => {
      const { ExtensionParent } = ChromeUtils.importESModule('resource://gre/modules/ExtensionParent.sys.mjs');
      const extension = ExtensionParent.GlobalManager.extensionMap.get(${id});
      await extension.terminateBackground();
      return String(extension.backgroundState);
    })()`);
    expect(state, 'the event page is stopped').toBe('stopped');
  }

  /** Copies the browser's stdout so far to test-artifacts/e2e/<name>. */
  saveStdout(name: string): void {
    if (this.stdoutFile && existsSync(this.stdoutFile)) copyFileSync(this.stdoutFile, artifactPath(name));
  }

  /**
   * The driver's close, then whatever is left of the process tree, by PID; the browser's stdout is
   * kept as test-artifacts/e2e/<stdoutName>, and the profile goes.
   */
  async close(stdoutName: string): Promise<void> {
    const tree = this.pid !== undefined ? processTree(this.pid) : [];
    if (this.browser) await within(this.browser.close(), 15_000, `closing Firefox (${this.label})`).catch((e: unknown) => this.log.add('test', String(e)));
    const killed = await killPids(tree);
    if (killed.length > 0) console.warn(`[e2e ${this.label}] killed leftover processes ${killed.join(', ')}`);
    this.saveStdout(stdoutName);
    removeDir(this.runDir);
  }
}

/**
 * What the shared popup driver (popup/driver.ts) needs of a Puppeteer page in this Firefox: elements
 * found by queryInPage, clicked and typed into through Puppeteer (real input events); the colour
 * scheme through the browser's pref.
 */
export function puppeteerAdapter(page: Page, firefox: FirefoxWithExtension): PageAdapter {
  // False when there is no such element, or when `act` says it could not act on it (false).
  const withElement = async (target: Target, act: (element: ElementHandle<Element>) => Promise<boolean | void>): Promise<boolean> => {
    const handle = await page.evaluateHandle(queryInPage, { target, read: 'element' as const });
    const element = handle.asElement() as ElementHandle<Element> | null;
    if (!element) {
      await handle.dispose().catch(() => undefined);
      return false;
    }
    try {
      return (await act(element)) !== false;
    } finally {
      await element.dispose().catch(() => undefined);
    }
  };
  // Puppeteer clicks where the element was when it measured it: a popup that scrolls meanwhile (a
  // field focused by the last action) takes the click elsewhere, silently. Measured after layout
  // settles and hit-tested there; an element covered or moving is not clicked (false: asked again).
  const clickSettled = (target: Target): Promise<boolean> =>
    withElement(target, async (element) => {
      const point = await element.evaluate(async (e) => {
        e.scrollIntoView({ block: 'nearest', inline: 'nearest' });
        // A frame, or 50 ms where frames do not run (a tab behind another).
        const frame = (): Promise<unknown> => new Promise((r) => (requestAnimationFrame(r), setTimeout(r, 50)));
        const box = async () => (await frame(), e.getBoundingClientRect());
        const [a, b] = [await box(), await box()];
        if (a.x !== b.x || a.y !== b.y || b.width === 0 || b.height === 0) return null;
        const x = b.x + b.width / 2;
        const y = b.y + b.height / 2;
        const hit = document.elementFromPoint(x, y);
        return hit !== null && (hit === e || e.contains(hit)) ? { x, y } : null;
      });
      if (!point) return false;
      await page.mouse.click(point.x, point.y);
    });
  return {
    raw: page,
    evaluate: <A, R>(fn: (arg: A) => R | Promise<R>, arg?: A) => page.evaluate(fn as (arg: unknown) => R | Promise<R>, arg) as Promise<R>,
    click: clickSettled,
    fill: async (target, value) =>
      (await clickSettled(target)) &&
      withElement(target, async (e) => {
        await e.evaluate((field) => (field as HTMLInputElement).select());
        await e.type(value);
      }),
    press: (key) => page.keyboard.press(key as KeyInput),
    type: (text) => page.keyboard.type(text),
    bringToFront: () => page.bringToFront(),
    screenshot: async (path) => {
      await page.screenshot({ path, fullPage: true });
    },
    setViewport: (size) => page.setViewport(size),
    setColorScheme: (scheme) => firefox.setColorScheme(scheme),
    isClosed: () => page.isClosed(),
  };
}

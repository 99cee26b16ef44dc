// Chromium's part of the popup-UI suite (chromium-ui.e2e.test.ts): one Chromium with the built
// extension and its popup page open as a tab (start, clean-up by PID), and the adapter through
// which the shared popup driver (popup/driver.ts) clicks, types and reads there.
import type { BrowserContext, ElementHandle, Page } from 'playwright-core';
import { type ConsoleLog } from './artifacts.js';
import { browserExecutable, type BuiltExtension, extensionIdOf, launchChromiumWithExtension, POPUP_VIEWPORT, removeDir, tempDir } from './harness.js';
import { chromiumPidFor, killPids, processTree, within } from './processes.js';
import { type PageAdapter, queryInPage, type Target } from './popup/driver.js';

// The binary itself first, as in chromium.e2e.test.ts (the /usr/bin wrapper adds Debian's flags).
const CHROMIUM = ['/usr/lib/chromium/chromium', '/usr/bin/chromium'];

/**
 * One Chromium with a fresh profile and the built extension, its popup page open in a tab of the
 * popup's size. Fields are filled in as launch() gets along, so close() cleans up after a
 * half-done launch too.
 */
export class UiBrowser {
  profileDir: string | undefined;
  context: BrowserContext | undefined;
  pid: number | undefined;
  extensionId = '';
  popup: Page | undefined;

  constructor(
    readonly label: string,
    readonly log: ConsoleLog,
  ) {}

  /** Starts the browser; resolves once the extension's service worker runs. Returns the launch time. */
  async launch(ext: BuiltExtension): Promise<number> {
    const executablePath = browserExecutable('Chromium', CHROMIUM);
    this.profileDir = tempDir(`xpc-e2e-chromium-ui-${this.label}-`);
    const started = Date.now();
    this.context = await launchChromiumWithExtension(executablePath, this.profileDir, ext.dir);
    this.pid = chromiumPidFor(this.profileDir);
    this.log.add(this.label, `chromium pid ${this.pid ?? 'not found'}, launched in ${Date.now() - started} ms`);
    this.context.on('console', (m) => {
      const page = m.page();
      this.log.add(`${this.label} ${page ? 'page' : 'worker'} ${m.type()}`, page ? `${m.text()} (${page.url()})` : m.text());
    });
    this.context.on('weberror', (e) => this.log.add(`${this.label} page error`, e.error().stack ?? e.error().message));
    this.extensionId = await extensionIdOf(this.context);
    this.log.add(this.label, `extension ${this.extensionId}, service worker up ${Date.now() - started} ms after launch`);
    return Date.now() - started;
  }

  /** Opens chrome-extension://<id>/<popup> in a tab of the toolbar popup's size (400×600). */
  async openPopup(ext: BuiltExtension): Promise<Page> {
    const page = await this.context!.newPage();
    await page.setViewportSize(POPUP_VIEWPORT);
    await page.goto(`chrome-extension://${this.extensionId}/${ext.popupPath}`, { waitUntil: 'load' });
    this.popup = page;
    return page;
  }

  /** The driver's close, then whatever is left of the process tree, by PID; the profile goes too. */
  async close(): Promise<void> {
    const tree = this.pid !== undefined ? processTree(this.pid) : [];
    if (this.context) await within(this.context.close(), 15_000, `closing Chromium (${this.label})`).catch((e: unknown) => this.log.add(this.label, String(e)));
    const killed = await killPids(tree);
    if (killed.length > 0) console.warn(`[e2e chromium-ui] killed leftover processes of ${this.label}: ${killed.join(', ')}`);
    removeDir(this.profileDir);
  }
}

/**
 * What the shared popup driver (popup/driver.ts) needs of a Playwright page: elements found by
 * queryInPage, clicked and filled by Playwright (which waits for them to be visible, stable and
 * enabled), the media emulated for the colour scheme.
 */
export function playwrightAdapter(page: Page): PageAdapter {
  const withElement = async (target: Target, act: (element: ElementHandle<Element>) => Promise<void>): Promise<boolean> => {
    const handle = await page.evaluateHandle(queryInPage, { target, read: 'element' as const });
    const element = handle.asElement() as ElementHandle<Element> | null;
    if (!element) {
      await handle.dispose();
      return false;
    }
    try {
      await act(element);
      return true;
    } finally {
      await element.dispose().catch(() => undefined);
    }
  };
  return {
    raw: page,
    evaluate: <A, R>(fn: (arg: A) => R | Promise<R>, arg?: A) => page.evaluate(fn as (arg: unknown) => R | Promise<R>, arg),
    click: (target) => withElement(target, (e) => e.click({ timeout: 5_000 })),
    fill: (target, value) => withElement(target, (e) => e.fill(value, { timeout: 5_000 })),
    press: (key) => page.keyboard.press(key),
    type: (text) => page.keyboard.type(text),
    bringToFront: () => page.bringToFront(),
    screenshot: async (path) => {
      await page.screenshot({ path, fullPage: true });
    },
    setViewport: (size) => page.setViewportSize(size),
    setColorScheme: (colorScheme) => page.emulateMedia({ colorScheme }),
    isClosed: () => page.isClosed(),
  };
}

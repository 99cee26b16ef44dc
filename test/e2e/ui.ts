// Pieces of the popup-UI browser test (chromium-ui.e2e.test.ts): one Chromium with the built
// extension and its popup page open as a tab (start, clean-up by PID), and small readers of what
// the popup shows (amounts as exact base units, the label/value pairs of its <dl> facts, the
// totals of the home screen). The test itself only clicks, types and reads, like a user.
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import {
  artifactPath,
  browserExecutable,
  type BuiltExtension,
  chromiumPidFor,
  type ConsoleLog,
  domQuiet,
  extensionIdOf,
  killPids,
  launchChromiumWithExtension,
  POPUP_VIEWPORT,
  processTree,
  removeDir,
  tempDir,
  within,
} from './harness.js';

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

/** Saves a full-page screenshot as test-artifacts/e2e/chromium-ui-<name>.png once the DOM is quiet. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.evaluate(domQuiet, { quietMs: 400, maxMs: 3_000 });
  await page.screenshot({ path: artifactPath(`chromium-ui-${name}.png`), fullPage: true });
}

// ---- amounts, written and read independently of the popup's own formatting code ----

/** "1,234.5" for 1234500000000 at 9 decimals: grouped whole part, fraction without trailing zeros. */
export function amountText(units: bigint, decimals: number): string {
  const digits = units.toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}

/** The plain text to type into an amount field ("0.123456789"). */
export function typedAmount(units: bigint, decimals: number): string {
  return amountText(units, decimals).replace(/,/g, '');
}

/** The exact base units of the last "<number> <symbol>" in `text` (e.g. "fee 0.001 AVAX"). */
export function parseAmount(text: string | null, decimals: number, symbol = 'AVAX'): bigint {
  const matches = [...(text ?? '').matchAll(new RegExp(`(\\d[\\d,]*(?:\\.\\d+)?)\\s*${symbol}\\b`, 'g'))];
  const last = matches.at(-1);
  if (!last) throw new Error(`no amount in ${symbol} in ${JSON.stringify(text)}`);
  const [whole, fraction = ''] = last[1]!.replace(/,/g, '').split('.');
  if (fraction.length > decimals) throw new Error(`${last[1]} has more than ${decimals} decimals`);
  return BigInt(whole! + fraction.padEnd(decimals, '0'));
}

export async function readAmount(locator: Locator, decimals: number, symbol = 'AVAX'): Promise<bigint> {
  return parseAmount(await locator.textContent(), decimals, symbol);
}

// ---- the popup's structure ----

/** The <dd> after the <dt> that reads `term`, inside `scope` (review, tx status, transfer, details). */
export function fact(scope: Page | Locator, term: string): Locator {
  return scope.locator(`xpath=.//dt[normalize-space(.)=${JSON.stringify(term)}]/following-sibling::dd[1]`);
}

/** Opens a screen: a tab of the wallet's bottom bar, or (Send, Receive, Move) Home's action button. */
export async function openTab(page: Page, name: 'Home' | 'Send' | 'Receive' | 'Move' | 'Assets' | 'Activity' | 'Settings'): Promise<void> {
  const action = name === 'Send' || name === 'Receive' || name === 'Move';
  const tab = page.getByRole('navigation', { name: 'Wallet sections' }).getByRole('button', { name: action ? 'Home' : name, exact: true });
  await tab.click();
  await expect.poll(() => tab.getAttribute('aria-current'), { message: `the ${action ? 'Home' : name} tab is current` }).toBe('page');
  if (!action) return;
  const actions = page.getByRole('navigation', { name: 'Actions' });
  await actions.getByRole('button', { name, exact: true }).click();
  // Home (and its actions) gives way to the action's screen.
  await expect.poll(() => actions.count(), { message: `the ${name} screen opens` }).toBe(0);
}

/** Opens one <details> section of Settings (by its summary) and returns it. */
export async function settingsSection(page: Page, title: string): Promise<Locator> {
  const section = page.locator('details.section').filter({ has: page.locator('summary', { hasText: new RegExp(`^${title}$`) }) });
  if ((await section.getAttribute('open')) === null) await section.locator('summary').click();
  await expect.poll(() => section.getAttribute('open'), { message: `Settings section ${title} is open` }).not.toBeNull();
  return section;
}

/** The text of the "Accepted by …" / "Issued; waiting …" line of a transaction just issued. */
export async function waitAccepted(scope: Page | Locator, chain: 'X' | 'P' | 'C', timeoutMs = 60_000): Promise<void> {
  const status = scope.getByTestId('tx-status');
  await expect.poll(async () => (await status.textContent())?.trim(), { message: `the ${chain}-Chain accepts the transaction`, timeout: timeoutMs, interval: 250 }).toBe(`Accepted by the ${chain}-Chain`);
}

export interface Totals {
  /** nAVAX */
  X: bigint;
  /** nAVAX */
  P: bigint;
  /** wei */
  C: bigint;
}

/** The home screen's AVAX totals per chain, as exact base units (nAVAX on X and P, wei on C). */
export async function homeTotals(page: Page): Promise<Totals> {
  const read = (chain: 'X' | 'P' | 'C', decimals: number) => readAmount(page.getByTestId(`total-${chain}`), decimals);
  return { X: await read('X', 9), P: await read('P', 9), C: await read('C', 18) };
}

/**
 * Home tab, a refresh, and once that refresh is over the totals must be exactly `expected`.
 *
 * The refresh has to be seen start and end: the background answers a refresh at once with the
 * cached snapshot marked "refreshing" (shown as "Refreshing…" until the popup's next poll a second
 * later), and a snapshot that lands later changes what other screens estimate against (the Move
 * and Send screens ask for fees again when the balances change).
 */
export async function expectHomeTotals(page: Page, expected: Totals, timeoutMs = 30_000): Promise<void> {
  await openTab(page, 'Home');
  const state = page.getByTestId('refresh-state');
  // Waits for the button to be enabled, i.e. for any refresh under way to finish first.
  await page.getByRole('button', { name: 'Refresh balances' }).click();
  await expect.poll(async () => (await state.textContent()) ?? '', { message: 'the refresh starts', timeout: 5_000, interval: 50 }).toMatch(/^Refreshing…/);
  await expect.poll(async () => (await state.textContent()) ?? '', { message: 'the refresh ends', timeout: timeoutMs, interval: 100 }).toMatch(/^Updated /);
  expect(await homeTotals(page)).toEqual(expected);
}

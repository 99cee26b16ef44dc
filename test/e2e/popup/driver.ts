// One way to click, type into and read the popup for both browser suites: Chromium (playwright-core)
// and Firefox ESR (puppeteer-core over WebDriver BiDi). Elements are found the way a user names
// them (a button's accessible name, a field's label, a heading, a radio's label, visible text, or
// a data-testid) by one function run in the page (queryInPage), polled from here: Firefox's
// remote agent can fail an evaluation while the popup re-renders, so every read is retried until
// its condition holds. Each browser only supplies a small PageAdapter (ui.ts, firefox.ts).
import { expect } from 'vitest';
import { expectAccessible } from '../a11y.js';
import { artifactPath, type ConsoleLog, domQuiet } from '../artifacts.js';
import { type Call, walletCaller } from '../harness.js';
import { parseAmount, type Totals } from './amounts.js';

export type Tab = 'Home' | 'Send' | 'Receive' | 'Move' | 'Assets' | 'Activity' | 'Settings';
export const SCREENS: readonly Tab[] = ['Home', 'Send', 'Receive', 'Move', 'Assets', 'Activity', 'Settings'];

/** One visible element of the popup, by what a user sees; `within`: a CSS selector of the (first visible) container. */
export type Target = (
  /** An enabled <button> by its accessible name (aria-label, else its text without aria-hidden parts). */
  | { button: string }
  /** An enabled <button> whose accessible name starts with this. */
  | { buttonStarting: string }
  /** A button of the bottom tab bar. */
  | { tab: Tab }
  /** A button of Home's action row (Send, Receive, Move). */
  | { action: string }
  | { heading: string }
  /** The control a <label> with exactly this text is for, else a control with this aria-label. */
  | { label: string }
  /** The <label> around a radio button, by its text. */
  | { radio: string }
  | { testid: string }
  /** The <summary> of a Settings section. */
  | { summary: string }
  /** The innermost element whose whole text is exactly this. */
  | { text: string }
  | { css: string }
) & { within?: string };

/** What to read from a target: its text (whitespace collapsed), an input's value, … or the element itself. */
export type Read = 'element' | 'text' | 'value' | 'checked' | 'open' | 'exists' | { attr: string } | { child: string };

/**
 * Runs IN THE PAGE (pass it to evaluate / evaluateHandle; self-contained, as it is serialized):
 * the first visible element `target` names, or what `read` asks of it; null when there is none.
 */
export function queryInPage({ target, read }: { target: Target; read: Read }): Element | string | boolean | null {
  const text = (e: Element | null | undefined): string => (e?.textContent ?? '').replace(/\s+/g, ' ').trim();
  const visible = (e: Element): boolean => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
  const scope: ParentNode | null = target.within ? ([...document.querySelectorAll(target.within)].find(visible) ?? null) : document;
  if (!scope) return null;
  const first = (selector: string, ok: (e: Element) => boolean): Element | null => [...scope.querySelectorAll(selector)].find((e) => visible(e) && ok(e)) ?? null;
  // A button's name as assistive technology reads it: without what is hidden from it (an icon).
  const nameOf = (e: Element): string => {
    if (e.hasAttribute('aria-label')) return e.getAttribute('aria-label')!;
    const copy = e.cloneNode(true) as Element;
    for (const hidden of copy.querySelectorAll('[aria-hidden="true"]')) hidden.remove();
    return text(copy);
  };
  const button = (ok: (name: string) => boolean) => (e: Element) => !(e as HTMLButtonElement).disabled && ok(nameOf(e));
  const find = (): Element | null => {
    if ('button' in target) return first('button', button((n) => n === target.button));
    if ('buttonStarting' in target) return first('button', button((n) => n.startsWith(target.buttonStarting)));
    if ('tab' in target) return first('nav[aria-label="Wallet sections"] button', button((n) => n === target.tab));
    if ('action' in target) return first('nav[aria-label="Actions"] button', button((n) => n === target.action));
    if ('heading' in target) return first('h1, h2, h3, h4', (e) => text(e) === target.heading);
    if ('label' in target) {
      const label = first('label', (e) => text(e) === target.label) as HTMLLabelElement | null;
      return label?.control ?? first('input, select, textarea', (e) => e.getAttribute('aria-label') === target.label);
    }
    if ('radio' in target) return first('label', (e) => e.querySelector('input[type="radio"]') !== null && text(e) === target.radio);
    if ('testid' in target) return first(`[data-testid="${target.testid}"]`, () => true);
    if ('summary' in target) return first('details > summary', (e) => text(e) === target.summary);
    if ('css' in target) return first(target.css, () => true);
    return first('body *', (e) => text(e) === target.text && ![...e.children].some((c) => text(c) === target.text));
  };
  const found = find();
  if (read === 'element' || !found) return found;
  if (read === 'exists') return true;
  if (read === 'text') return text(found);
  if (read === 'value') return (found as HTMLInputElement).value;
  if (read === 'checked') return ((found.querySelector('input') ?? found) as HTMLInputElement).checked;
  if (read === 'open') return (found.closest('details') as HTMLDetailsElement | null)?.open ?? false;
  if ('attr' in read) return found.getAttribute(read.attr);
  return found.querySelector(read.child) ? text(found.querySelector(read.child)) : null;
}

/** One <dt>/<dd> fact: the term and the texts of its <dd>: whole, its `.mono` part (an ID), its `.muted` part. */
export interface Fact {
  term: string;
  text: string;
  mono: string;
  muted: string;
}

/** Runs IN THE PAGE: the facts (<dt>/<dd> pairs) inside the first element matching `scope`. */
export function factsInPage(scope: string): Fact[] {
  const text = (e: Element | null | undefined): string => (e?.textContent ?? '').replace(/\s+/g, ' ').trim();
  const root = document.querySelector(scope);
  if (!root) return [];
  return [...root.querySelectorAll('dt')].map((dt) => {
    const dd = dt.nextElementSibling;
    return { term: text(dt), text: text(dd), mono: text(dd?.querySelector('.mono')), muted: text(dd?.querySelector('.muted')) };
  });
}

const describeTarget = (t: Target): string => Object.entries(t).map(([k, v]) => `${k} ${JSON.stringify(v)}`).join(', ');

/** What a browser's driver offers the popup driver. */
export interface PageAdapter {
  /** Runs `fn(arg)` in the page (fn is serialized: self-contained); rejects while the page is busy. */
  evaluate<A, R>(fn: (arg: A) => R | Promise<R>, arg?: A): Promise<R>;
  /** The page object of the browser's driver, for what takes one (the accessibility audit). */
  readonly raw: unknown;
  /** Clicks the element queryInPage finds for `target`; false when it is not (or no longer) there. */
  click(target: Target): Promise<boolean>;
  /** Replaces the value of the field queryInPage finds for `target` by typing `value`; false when it is not there. */
  fill(target: Target, value: string): Promise<boolean>;
  /** Presses one key (`Tab`, `Enter`, …) on whatever has focus, as the keyboard does. */
  press(key: string): Promise<void>;
  /** Types `text` into whatever has focus, key by key. */
  type(text: string): Promise<void>;
  /** Makes the page the window in front, which keys go to. */
  bringToFront(): Promise<void>;
  screenshot(path: string): Promise<void>;
  setViewport(size: { width: number; height: number }): Promise<void>;
  /** What `prefers-color-scheme` says in the page from now on. */
  setColorScheme(scheme: 'light' | 'dark'): Promise<void>;
  isClosed(): boolean;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** The popup page of one browser, clicked, typed into and read like a user does. */
export class PopupDriver {
  /** The wallet's message protocol from this page (runtime.sendMessage), as another window of the wallet would use it. */
  readonly call: Call;

  /** `prefix`: the artifacts' (e.g. `firefox-ui-`). */
  constructor(
    readonly page: PageAdapter,
    readonly prefix: string,
    readonly log: ConsoleLog,
  ) {
    type Runtime = { runtime: { sendMessage(m: unknown): Promise<unknown> } };
    const send = (message: unknown) =>
      page.evaluate((m) => {
        const g = globalThis as unknown as { browser?: Runtime; chrome?: Runtime };
        return (g.browser ?? g.chrome)!.runtime.sendMessage(m);
      }, message);
    this.call = walletCaller(send, log);
  }

  /** What `read` says of `target` now; null while it is not there (or the page is busy). */
  async read(target: Target, read: Exclude<Read, 'element'> = 'text'): Promise<string | boolean | null> {
    return (await this.page.evaluate(queryInPage, { target, read }).catch(() => null)) as string | boolean | null;
  }

  async textOf(target: Target): Promise<string | null> {
    return (await this.read(target, 'text')) as string | null;
  }

  async exists(target: Target): Promise<boolean> {
    return (await this.read(target, 'exists')) === true;
  }

  /** The accessible name of what has focus: a field's label, else its aria-label, else its text. */
  async focusedName(): Promise<string> {
    return this.page
      .evaluate(() => {
        const e = document.activeElement as (HTMLElement & { labels?: NodeListOf<HTMLLabelElement> | null }) | null;
        if (!e || e === document.body) return '';
        const textOf = (n: Element) => {
          const copy = n.cloneNode(true) as Element;
          for (const hidden of copy.querySelectorAll('[aria-hidden="true"], input, select, textarea')) hidden.remove();
          return (copy.textContent ?? '').replace(/\s+/g, ' ').trim();
        };
        return e.labels?.length ? textOf(e.labels[0]!) : (e.getAttribute('aria-label') ?? textOf(e));
      })
      .catch(() => '');
  }

  /** Presses Tab until the control named `name` has focus (keyboard-only use); fails past `max` presses. */
  async tabTo(name: string, max = 40): Promise<void> {
    const seen: string[] = [];
    for (let i = 0; i < max; i++) {
      await this.page.press('Tab');
      const now = await this.focusedName();
      if (now === name) return;
      seen.push(now);
    }
    throw new Error(`Tab never reached "${name}"; it went through: ${seen.join(' | ')}`);
  }

  /** Waits until `target` is there (a button: enabled). */
  async find(target: Target, timeoutMs = 15_000): Promise<void> {
    await expect.poll(() => this.exists(target), { message: `the popup shows ${describeTarget(target)}`, timeout: timeoutMs, interval: 100 }).toBe(true);
  }

  /** Waits until `target` is gone. */
  async gone(target: Target, timeoutMs = 15_000): Promise<void> {
    await expect.poll(() => this.read(target, 'exists'), { message: `${describeTarget(target)} goes`, timeout: timeoutMs, interval: 100 }).toBeNull();
  }

  /** Waits until the text of `target` matches, and returns it. */
  async waitText(target: Target, wanted: string | RegExp, timeoutMs = 15_000, interval = 100): Promise<string> {
    const polled = expect.poll(async () => (await this.textOf(target)) ?? '', { message: `the text of ${describeTarget(target)}`, timeout: timeoutMs, interval });
    await (typeof wanted === 'string' ? polled.toBe(wanted) : polled.toMatch(wanted));
    return (await this.textOf(target))!;
  }

  /** Clicks `target` once it is there (a button: once enabled). */
  async click(target: Target, timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await this.page.click(target).catch(() => false))) {
      if (Date.now() > deadline) throw new Error(`the popup shows no ${describeTarget(target)} to click within ${timeoutMs / 1000} s`);
      await sleep(100);
    }
  }

  /** Types `value` into the field labelled `label`, replacing what it held, and checks that it took. */
  async fill(label: string, value: string, within?: string): Promise<void> {
    const target: Target = within ? { label, within } : { label };
    const deadline = Date.now() + 15_000;
    while (!(await this.page.fill(target, value).catch(() => false))) {
      if (Date.now() > deadline) throw new Error(`the popup shows no field ${label}`);
      await sleep(100);
    }
    await expect.poll(() => this.read(target, 'value'), { message: `the field ${label} holds what was typed` }).toBe(value);
  }

  /** Picks the option of value `value` in the <select> labelled `label` (as a user's choice: input and change events). */
  async select(label: string, value: string): Promise<void> {
    await this.find({ label });
    const pick = ({ label: name, value: v }: { label: string; value: string }): boolean => {
      const byLabel = [...document.querySelectorAll('label')].find((l) => (l.textContent ?? '').trim() === name)?.control;
      const select = (byLabel ?? [...document.querySelectorAll('select')].find((e) => e.getAttribute('aria-label') === name)) as HTMLSelectElement | undefined;
      // While it saves a choice, a select says so with aria-disabled (kept focusable) and ignores changes.
      if (!select || select.disabled || select.getAttribute('aria-disabled') === 'true') return false;
      if (![...select.options].some((o) => o.value === v)) {
        // As a user's click would: a select may load its options when focused (the account menu).
        select.dispatchEvent(new FocusEvent('focus'));
        return false;
      }
      if (select.value !== v) {
        select.value = v;
        select.dispatchEvent(new Event('input', { bubbles: true }));
        select.dispatchEvent(new Event('change', { bubbles: true }));
      }
      return true;
    };
    await expect.poll(() => this.page.evaluate(pick, { label, value }).catch(() => false), { message: `the option ${value} of ${label} is picked` }).toBe(true);
    await expect.poll(() => this.read({ label }, 'value'), { message: `${label} shows the option picked` }).toBe(value);
  }

  async isChecked(radio: string): Promise<boolean | null> {
    return (await this.read({ radio }, 'checked')) as boolean | null;
  }

  async check(radio: string): Promise<void> {
    if ((await this.isChecked(radio)) !== true) await this.click({ radio });
    await expect.poll(() => this.isChecked(radio), { message: `the radio ${radio} is checked`, timeout: 15_000 }).toBe(true);
  }

  /** Opens a screen: a tab of the bottom bar, or (Send, Receive, Move) Home's action button. */
  async openTab(name: Tab): Promise<void> {
    const action = name === 'Send' || name === 'Receive' || name === 'Move';
    const tab: Tab = action ? 'Home' : name;
    await this.click({ tab });
    await expect.poll(() => this.read({ tab }, { attr: 'aria-current' }), { message: `the ${tab} tab is current` }).toBe('page');
    if (!action) return;
    await this.click({ action: name });
    // Home (and its actions) gives way to the action's screen.
    await this.gone({ action: name });
  }

  /** Opens one <details> section of Settings, by its summary. */
  async openSection(title: string): Promise<void> {
    await this.find({ summary: title });
    if ((await this.read({ summary: title }, 'open')) !== true) await this.click({ summary: title });
    await expect.poll(() => this.read({ summary: title }, 'open'), { message: `Settings section ${title} is open` }).toBe(true);
  }

  async facts(scope = 'body'): Promise<Fact[]> {
    return this.page.evaluate(factsInPage, scope);
  }

  /** The one fact `term` in `scope` (a CSS selector). */
  async fact(term: string, scope = 'body'): Promise<Fact> {
    const found = (await this.facts(scope)).filter((f) => f.term === term);
    expect(found, `one "${term}" in ${scope}`).toHaveLength(1);
    return found[0]!;
  }

  /** An amount in AVAX (or `symbol`) in the text of `target`, as exact base units. */
  async amount(target: Target, decimals: number, symbol = 'AVAX'): Promise<bigint> {
    return parseAmount(await this.textOf(target), decimals, symbol);
  }

  /** Saves <prefix><name>.png (test-artifacts/e2e) once the DOM is quiet; `show` is scrolled into view first. */
  async screenshot(name: string, show?: { testid: string }): Promise<void> {
    if (show) {
      await this.find(show);
      await this.page.evaluate((testid) => document.querySelector(`[data-testid="${testid}"]`)?.scrollIntoView({ block: 'center' }), show.testid);
    }
    await this.quiet(400);
    await this.page.screenshot(artifactPath(`${this.prefix}${name}.png`));
  }

  /** Waits until the DOM has not changed for `quietMs` (at most 3 s). */
  async quiet(quietMs = 300): Promise<void> {
    await this.page.evaluate(domQuiet, { quietMs, maxMs: 3_000 }).catch(() => undefined);
  }

  /** axe-core over the popup as it is now: no serious or critical violation, and one h1. */
  async audit(name: string): Promise<void> {
    await this.find({ css: 'h1' });
    await this.quiet();
    await expectAccessible(this.page.raw, name, (line) => this.log.add('test', line));
  }

  /** The light or dark scheme, seen by the page. */
  async colorScheme(scheme: 'light' | 'dark'): Promise<void> {
    await this.page.setColorScheme(scheme);
    await expect
      .poll(() => this.page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches).catch(() => null), { message: `the page prefers ${scheme}` })
      .toBe(scheme === 'dark');
  }

  // ---- the popup's screens ----

  /** The home screen's AVAX totals per chain, as exact base units (nAVAX on X and P, wei on C). */
  async homeTotals(): Promise<Totals> {
    const total = async (chain: 'X' | 'P' | 'C', decimals: number) => this.amount({ testid: `total-${chain}` }, decimals);
    return { X: await total('X', 9), P: await total('P', 9), C: await total('C', 18) };
  }

  /**
   * Home tab, a refresh, and once that refresh is over the totals must be exactly `want`.
   *
   * The refresh has to be seen start and end: the background answers a refresh at once with the
   * cached snapshot marked "refreshing" (shown as "Refreshing…" until the popup's next poll a
   * second later), and a snapshot that lands later changes what other screens estimate against.
   */
  async expectHomeTotals(want: Totals): Promise<void> {
    await this.openTab('Home');
    // Found once enabled: a refresh under way ends first.
    await this.click({ button: 'Refresh balances' }, 30_000);
    await this.waitText({ testid: 'refresh-state' }, /^Refreshing…/, 5_000, 50);
    await this.waitText({ testid: 'refresh-state' }, /^Updated /, 30_000);
    expect(await this.homeTotals()).toEqual(want);
  }

  /** The status line of a transaction just issued, until it reads "Accepted by the <chain>-Chain". */
  async waitAccepted(chain: 'X' | 'P' | 'C', within?: string): Promise<void> {
    await this.waitText(within ? { testid: 'tx-status', within } : { testid: 'tx-status' }, `Accepted by the ${chain}-Chain`, 60_000, 250);
  }
}

// The built Firefox extension (dist/firefox) in Debian's Firefox ESR, headless, with a fresh
// profile, against the run's local node, through the popup's own screens: the popup page
// (moz-extension://<uuid>/<popup>, 400×600) clicked, typed into and read like a user would (roles,
// labels, visible text, data-testid), driven by puppeteer-core over WebDriver BiDi (firefox.ts).
// Onboarding (create a wallet, confirm the phrase, password), the node added in Settings, funds
// received, an X-Chain send, and an X→C move until it is imported.
//
// The page is read and found by small functions run in the page (findTarget, factsIn), polled
// from here: the remote agent can fail an evaluation while the popup re-renders, so every read
// is retried until its condition holds. Expected balances are tracked in exact base units from
// the amounts typed and the fees the screens show; the X-Chain fee is checked against the node's
// own, and the receiving side of the send and the C-Chain balance after the move on the node.
import type { ElementHandle, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, inject } from 'vitest';
import { formatAddress } from '../../src/core/encoding.js';
import { formatEvmAddress } from '../../src/core/evm-address.js';
import { deriveEvmKey, deriveXpKey, HdRoot, mnemonicToSeed, type KeyPair } from '../../src/core/keys.js';
import { avaxOf, engineOf, freshKey, localNetwork, WEI_PER_NAVAX } from '../integration/fixture.js';
import { FirefoxWithExtension } from './firefox.js';
import { AXE_SOURCE, auditInPage } from './a11y.js';
import { artifactPath, avaxAssetId, clearArtifacts, ConsoleLog, domQuiet, flowSteps, fundX, madeUpUtxo, PASSWORD, slug, startRpcProxy, Timings, type RpcProxy , launchOrSaveLog } from './harness.js';
import { amountText, parseAmount, typedAmount, type Totals } from './ui.js';

const PREFIX = 'firefox-ui-';
const NODE_NAME = 'E2E local node';
/** Funding of the new wallet's X address, nAVAX: odd on purpose, so that only the exact amount matches. */
const FUNDING = 4_321_098_765n;
const SEND_X = 234_567_891n; // nAVAX
/** What the lying proxy adds under a made-up tx, nAVAX. */
const MADE_UP = 7_000_000_000n;
const MOVE_X_TO_C = 1_234_567_890n; // nAVAX

type Tab = 'Home' | 'Send' | 'Receive' | 'Move' | 'Assets' | 'Activity' | 'Settings';

/** What to find in the popup: one visible element, by what a user sees. */
type Target =
  /** An enabled <button> by its accessible name (aria-label, else its text). */
  | { button: string }
  /** A button of the bottom tab bar. */
  | { tab: Tab }
  /** A button of Home's action row (Send, Receive, Move). */
  | { action: string }
  | { heading: string }
  /** The control a <label> with exactly this text is for. */
  | { label: string }
  /** The <label> around a radio button, by its text. */
  | { radio: string }
  | { testid: string }
  /** The <summary> of a Settings section. */
  | { summary: string }
  /** The innermost element whose whole text is exactly this. */
  | { text: string };

/**
 * Runs IN THE PAGE (pass it to page.evaluateHandle): the first visible element `target` names, or
 * null. Whitespace is collapsed before texts are compared.
 */
function findTarget(target: Target): Element | null {
  const text = (e: Element | null): string => (e?.textContent ?? '').replace(/\s+/g, ' ').trim();
  const visible = (e: Element): boolean => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
  const first = (selector: string, ok: (e: Element) => boolean): Element | null => [...document.querySelectorAll(selector)].find((e) => visible(e) && ok(e)) ?? null;
  // A button's name as assistive technology reads it: without what is hidden from it (an icon).
  const nameOf = (e: Element): string => {
    const copy = e.cloneNode(true) as Element;
    for (const hidden of copy.querySelectorAll('[aria-hidden="true"]')) hidden.remove();
    return text(copy);
  };
  const enabledButton = (name: string) => (e: Element) => !(e as HTMLButtonElement).disabled && (e.getAttribute('aria-label') ?? nameOf(e)) === name;
  if ('button' in target) return first('button', enabledButton(target.button));
  if ('tab' in target) return first('nav[aria-label="Wallet sections"] button', enabledButton(target.tab));
  if ('action' in target) return first('nav[aria-label="Actions"] button', enabledButton(target.action));
  if ('heading' in target) return first('h1, h2, h3', (e) => text(e) === target.heading);
  if ('label' in target) {
    const label = first('label', (e) => text(e) === target.label) as HTMLLabelElement | null;
    return label?.control ?? null;
  }
  if ('radio' in target) return first('label', (e) => e.querySelector('input[type="radio"]') !== null && text(e) === target.radio);
  if ('testid' in target) return first(`[data-testid="${target.testid}"]`, () => true);
  if ('summary' in target) return first('details > summary', (e) => text(e) === target.summary);
  return first('body *', (e) => text(e) === target.text && ![...e.children].some((c) => text(c) === target.text));
}

/**
 * Runs IN THE PAGE: the <dt>/<dd> pairs inside the first element matching `scope`, as the term and
 * the texts of its <dd>: whole, its `.mono` part (an ID), its `.muted` part (e.g. "fee 0.001 AVAX").
 */
function factsIn(scope: string): { term: string; text: string; mono: string; muted: string }[] {
  const text = (e: Element | null | undefined): string => (e?.textContent ?? '').replace(/\s+/g, ' ').trim();
  const root = document.querySelector(scope);
  if (!root) return [];
  return [...root.querySelectorAll('dt')].map((dt) => {
    const dd = dt.nextElementSibling;
    return { term: text(dt), text: text(dd), mono: text(dd?.querySelector('.mono')), muted: text(dd?.querySelector('.muted')) };
  });
}

/** What a move on the Move screen shows (the newest, first in the list), read in the page. */
function newestTransfer(): { count: number; title: string; amount: string; done: string; failed: string } | null {
  const text = (e: Element | null | undefined): string => (e?.textContent ?? '').replace(/\s+/g, ' ').trim();
  const all = document.querySelectorAll('[data-testid="transfer"]');
  const t = all[0];
  if (!t) return { count: 0, title: '', amount: '', done: '', failed: '' };
  const done = [...t.querySelectorAll('ol.steps li.done')].at(-1);
  return { count: all.length, title: text(t.querySelector('.tx-top strong')), amount: text(t.querySelector('.tx-top .amount')), done: text(done), failed: text(t.querySelector('.form-error')) };
}

const describeTarget = (t: Target): string => Object.entries(t).map(([k, v]) => `${k} ${JSON.stringify(v)}`)[0]!;

describe('Firefox ESR: the popup UI, clicked through, against the local node', () => {
  const timings = new Timings();
  const log = new ConsoleLog();
  const firefox = new FirefoxWithExtension('firefox-ui', log);
  let proxy: RpcProxy | undefined;
  let popup: Page | undefined;
  let avax = '';
  let xTxFee = 0n;
  /** The phrase as the onboarding screen showed it. */
  let words: string[] = [];
  let xAddress = '';
  /** The phrase's first X/P key (account 0, receive 0) and its C-Chain address, derived by the test. */
  let receiveKey: KeyPair;
  let cAddress = '';
  /** What the home screen must show after each step. */
  const expected: Totals = { X: 0n, P: 0n, C: 0n };

  const page = (): Page => {
    if (!popup) throw new Error('the popup is not open');
    return popup;
  };

  // ---- finding, clicking, typing, reading: polled, each read retried until it holds ----

  /** The element `target` names, once it is there (and, for a button, enabled). */
  const find = async (target: Target, timeoutMs = 15_000): Promise<ElementHandle<Element>> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const handle = await page()
        .evaluateHandle(findTarget, target)
        .catch(() => null);
      const element = handle?.asElement();
      if (element) return element as ElementHandle<Element>;
      await handle?.dispose().catch(() => undefined);
      if (Date.now() > deadline) throw new Error(`the popup shows no ${describeTarget(target)} within ${timeoutMs / 1000} s`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  /** Reads from the element `target` names; null while it is not there (or the page is busy). */
  const read = async <T,>(target: Target, reader: (e: Element) => T): Promise<T | null> => {
    const handle = await page()
      .evaluateHandle(findTarget, target)
      .catch(() => null);
    if (!handle) return null;
    try {
      const element = handle.asElement() as ElementHandle<Element> | null;
      return element ? ((await element.evaluate(reader)) as T) : null;
    } catch {
      return null;
    } finally {
      await handle.dispose().catch(() => undefined);
    }
  };

  const textOf = (target: Target): Promise<string | null> => read(target, (e) => (e.textContent ?? '').replace(/\s+/g, ' ').trim());

  /** Waits until the text of `target` matches, and returns it. */
  const waitText = async (target: Target, wanted: string | RegExp, timeoutMs = 15_000, interval = 100): Promise<string> => {
    const polled = expect.poll(async () => (await textOf(target)) ?? '', { message: `the text of ${describeTarget(target)}`, timeout: timeoutMs, interval });
    await (typeof wanted === 'string' ? polled.toBe(wanted) : polled.toMatch(wanted));
    return (await textOf(target))!;
  };

  const click = async (target: Target, timeoutMs?: number): Promise<void> => {
    const element = await find(target, timeoutMs);
    try {
      await element.click();
    } finally {
      await element.dispose().catch(() => undefined);
    }
  };

  /** Types `value` into the field labelled `label`, replacing what it held, and checks that it took. */
  const fill = async (label: string, value: string): Promise<void> => {
    const field = await find({ label });
    try {
      await field.click();
      await field.evaluate((e) => (e as HTMLInputElement).select());
      await field.type(value);
    } finally {
      await field.dispose().catch(() => undefined);
    }
    await expect.poll(() => read({ label }, (e) => (e as HTMLInputElement).value), { message: `the field ${label} holds what was typed` }).toBe(value);
  };

  const isChecked = (radio: string): Promise<boolean | null> => read({ radio }, (e) => (e.querySelector('input[type="radio"]') as HTMLInputElement).checked);

  const check = async (radio: string): Promise<void> => {
    if ((await isChecked(radio)) !== true) await click({ radio });
    await expect.poll(() => isChecked(radio), { message: `the radio ${radio} is checked`, timeout: 15_000 }).toBe(true);
  };

  /** Opens a screen: a tab of the bottom bar, or (Send, Receive, Move) Home's action button. */
  const openTab = async (name: Tab): Promise<void> => {
    const action = name === 'Send' || name === 'Receive' || name === 'Move';
    const tab: Tab = action ? 'Home' : name;
    await click({ tab });
    await expect.poll(() => read({ tab }, (e) => e.getAttribute('aria-current')), { message: `the ${tab} tab is current` }).toBe('page');
    if (!action) return;
    await click({ action: name });
    await expect.poll(() => read({ action: name }, () => true), { message: `the ${name} screen opens` }).toBeNull();
  };

  const facts = async (scope: string): Promise<{ term: string; text: string; mono: string; muted: string }[]> => page().evaluate(factsIn, scope);
  const fact = async (scope: string, term: string) => {
    const found = (await facts(scope)).filter((f) => f.term === term);
    expect(found, `one "${term}" in ${scope}`).toHaveLength(1);
    return found[0]!;
  };

  /**
   * Saves a screenshot as test-artifacts/e2e/firefox-ui-<name>.png once the DOM is quiet; `show` is
   * scrolled into view first (the popup's screen scrolls inside its 600 px).
   */
  const screenshot = async (name: string, show?: Target): Promise<void> => {
    if (show) await (await find(show)).evaluate((e) => e.scrollIntoView({ block: 'center' }));
    await page().evaluate(domQuiet, { quietMs: 400, maxMs: 3_000 });
    await page().screenshot({ path: artifactPath(`${PREFIX}${name}.png`), fullPage: true });
  };

  // ---- the popup's screens ----

  /** The home screen's AVAX totals per chain, as exact base units (nAVAX on X and P, wei on C). */
  const homeTotals = async (): Promise<Totals> => {
    const total = async (chain: 'X' | 'P' | 'C', decimals: number) => parseAmount(await textOf({ testid: `total-${chain}` }), decimals);
    return { X: await total('X', 9), P: await total('P', 9), C: await total('C', 18) };
  };

  /**
   * Home tab, a refresh seen to start and end, then the totals must be exactly `expected` (as
   * ui.ts's expectHomeTotals: the background answers a refresh at once with the cached snapshot
   * marked "refreshing", shown until the popup's next poll a second later).
   */
  const expectHomeTotals = async (want: Totals): Promise<void> => {
    await openTab('Home');
    // Found once enabled: a refresh under way ends first.
    await click({ button: 'Refresh balances' }, 30_000);
    await waitText({ testid: 'refresh-state' }, /^Refreshing…/, 5_000, 50);
    await waitText({ testid: 'refresh-state' }, /^Updated /, 30_000);
    expect(await homeTotals()).toEqual(want);
  };

  /** The status line of a transaction just issued, until it reads "Accepted by the <chain>-Chain". */
  const waitAccepted = (chain: 'X' | 'P' | 'C'): Promise<string> => waitText({ testid: 'tx-status' }, `Accepted by the ${chain}-Chain`, 60_000, 250);

  const step = flowSteps(timings, async (failed) => {
    const name = `${PREFIX}FAILED-${slug(failed)}`;
    if (popup && !popup.isClosed()) await popup.screenshot({ path: artifactPath(`${name}.png`), fullPage: true }).catch(() => undefined);
    const path = log.save(`${name}.console.log`);
    firefox.saveStdout(`${name}.stdout.log`);
    console.error(`[e2e firefox-ui] step "${failed}" failed; screenshot and console log: ${path.replace(/\.console\.log$/, '.*')}`);
  });

  beforeAll(() =>
    launchOrSaveLog(log, PREFIX, 'firefox-ui', async () => {
      clearArtifacts(PREFIX);
      proxy = await startRpcProxy(inject('nodeUrl'));
      const net = await localNetwork();
      avax = await avaxAssetId();
      xTxFee = net.ctx.xTxFee;
      timings.add('launch', await firefox.launch());
      popup = await firefox.openPopup();
    }),
  );

  afterAll(async () => {
    await firefox.close(`${PREFIX}stdout.log`);
    await proxy?.close();
    log.save(`${PREFIX}console.log`);
    console.log(timings.summary('firefox-ui'));
  });

  step('onboarding: creates a wallet from the shown 24-word phrase, confirms it and sets a password', async () => {
    expect(firefox.pid, 'the browser PID (for clean-up)').toBeTypeOf('number');
    // The background may still be starting when the popup first asks for the wallet's state.
    await find({ heading: 'Welcome to XPC Wallet' }, 30_000);
    await screenshot('onboarding');
    await click({ button: 'Create a new wallet' });

    await find({ heading: 'Your recovery phrase' });
    words = await page().evaluate(() => [...document.querySelectorAll('ol[aria-label="Recovery phrase"] li .mono')].map((e) => (e.textContent ?? '').trim()));
    expect(words).toHaveLength(24);
    for (const w of words) expect(w).toMatch(/^[a-z]{3,8}$/);
    await click({ button: 'I wrote them down' });

    await find({ heading: 'Confirm your recovery phrase' });
    const asked = await page().evaluate(() =>
      [...document.querySelectorAll('label')].map((l) => /^Word #(\d+)$/.exec((l.textContent ?? '').trim())?.[1]).filter((n): n is string => n !== undefined).map(Number),
    );
    expect(asked).toHaveLength(3);
    // A wrong word first: it is named and nothing goes on.
    const first = asked[0]!;
    await fill(`Word #${first}`, words.find((w) => w !== words[first - 1])!);
    await click({ button: 'Confirm' });
    await find({ text: `Word #${first} does not match your phrase` });
    expect(await textOf({ heading: 'Confirm your recovery phrase' })).not.toBeNull();
    for (const n of asked) await fill(`Word #${n}`, words[n - 1]!);
    await click({ button: 'Confirm' });

    await find({ heading: 'Choose a password' });
    await fill('Password', PASSWORD);
    await fill('Confirm password', PASSWORD);
    await click({ button: 'Create wallet' });
    await find({ tab: 'Home' }, 30_000);
    await find({ text: 'Total AVAX, all chains' });

    // The keys the test expects from the phrase on screen (BIP-44, account 0, first receive key).
    const root = HdRoot.fromSeed(await mnemonicToSeed(words.join(' ')));
    receiveKey = deriveXpKey(root, 0, 0, 0);
    cAddress = formatEvmAddress(deriveEvmKey(root, 0).evmAddress);
  });

  step('adds the test node in Settings, selects it; Receive shows the X-custom1… address of the phrase', async () => {
    await openTab('Settings');
    if ((await read({ summary: 'Network' }, (e) => (e.parentElement as HTMLDetailsElement).open)) !== true) await click({ summary: 'Network' });
    await fill('Name', NODE_NAME);
    await fill('Node URL', proxy!.url);
    await click({ button: 'Add network' });
    // A click on the radio: it follows the selected network, which changes only once
    // networks.select has asked the node who it is; then the badge in the header names it.
    await click({ radio: NODE_NAME });
    await expect.poll(() => page().evaluate(() => document.querySelector('header.topbar .badge.net')?.textContent ?? null).catch(() => null), { timeout: 15_000 }).toBe(NODE_NAME);
    await expect.poll(() => isChecked(NODE_NAME)).toBe(true);
    await find({ text: proxy!.url });
    await screenshot('settings');

    await openTab('Receive');
    xAddress = await waitText({ testid: 'receive-address' }, /^X-custom1[02-9ac-hj-np-z]{38}$/);
    expect(xAddress).toBe(formatAddress('X', 'custom', receiveKey.shortId));
    await check('C-Chain');
    await waitText({ testid: 'receive-address' }, cAddress);
    await screenshot('receive');
  });

  step('funded from the genesis key, Home shows the exact X balance after a refresh', async () => {
    await fundX(xAddress, FUNDING);
    expected.X = FUNDING;
    await expectHomeTotals(expected);
    // One balance per chain (no second AVAX row), rounded for reading, the exact amount in its name.
    expect(await read({ testid: `asset-X-${avax}` }, () => true)).toBeNull();
    expect(await textOf({ testid: 'total-all' })).toBe(`≈ 4.321098 AVAX (exactly ${amountText(FUNDING, 9)} AVAX)`);
    await screenshot('home');
  });

  /** axe-core over the popup as it is now: no serious or critical violation, and one h1. */
  const audit = async (name: string): Promise<void> => {
    if (!(await page().evaluate(() => 'axe' in globalThis))) await page().evaluate(AXE_SOURCE);
    expect(await page().evaluate(() => document.querySelectorAll('h1').length), `one h1 on ${name}`).toBe(1);
    const result = await page().evaluate(auditInPage);
    if (result.other.length > 0) log.add('test', `axe (moderate/minor) on ${name}: ${result.other.join('; ')}`);
    expect(result.blocking.map((line) => `${name}: ${line}`)).toEqual([]);
    expect(result.passed, `rules axe checked on ${name}`).toBeGreaterThan(10);
  };

  step('every screen passes an accessibility audit (axe-core: no serious or critical violation) and has one main heading', async () => {
    for (const name of ['Home', 'Send', 'Receive', 'Move', 'Assets', 'Activity', 'Settings'] as const) {
      await openTab(name);
      await page().evaluate(domQuiet, { quietMs: 300, maxMs: 3_000 });
      await audit(name);
    }
  });

  step('a UTXO no transaction backs is counted apart and said to be unproven; gone once the node stops making it up', async () => {
    proxy!.rewrite('avm.getUTXOs', madeUpUtxo(xAddress, avax, MADE_UP));
    await expectHomeTotals({ ...expected, X: expected.X + MADE_UP });
    expect(await textOf({ testid: `unproven-X-${avax}` })).toMatch(/^7 AVAX of this is unproven: your node showed no transaction that created it\./);
    await screenshot('home-unproven');
    proxy!.rewrite('avm.getUTXOs', undefined);
    await expectHomeTotals(expected);
    expect(await textOf({ testid: `unproven-X-${avax}` })).toBeNull();
  });

  step('the node stops: a banner on every screen says so in words, since when, with the age of the balances; it goes once the node answers', async () => {
    await openTab('Home');
    const updatedAt = (await textOf({ testid: 'refresh-state' }))!.match(/^Updated (\S+)/)![1];
    const bannerState = () => read({ testid: 'node-banner' }, (e) => e.getAttribute('data-state'));
    proxy!.setMode('down');
    await click({ button: 'Refresh balances' }, 30_000);
    await expect.poll(bannerState, { message: 'the node is said unreachable', timeout: 20_000, interval: 200 }).toBe('unreachable');
    const said = (await read({ testid: 'node-banner' }, (e) => e.querySelector('p')?.textContent ?? null))!;
    expect(said).toMatch(/^The node can't be reached\. Check that it is running and that its address in Settings is right\. Since \S+\. Balances shown are from /);
    expect(said).toContain(`Balances shown are from ${updatedAt}.`);
    expect(said).not.toMatch(/http|127\.0\.0\.1/);
    expect(await homeTotals()).toEqual(expected);
    await openTab('Move');
    expect(await bannerState()).toBe('unreachable');
    await screenshot('node-down');
    proxy!.setMode('up');
    await expectHomeTotals(expected);
    expect(await bannerState()).toBeNull();
  });

  step('locked elsewhere (the idle lock, another window): the open popup switches to the unlock screen by itself', async () => {
    await openTab('Assets');
    await page().evaluate(() => (globalThis as unknown as { browser: { runtime: { sendMessage(m: unknown): Promise<unknown> } } }).browser.runtime.sendMessage({ channel: 'xpc-wallet', type: 'wallet.lock', params: {} }));
    await find({ text: 'The wallet is locked.' });
    expect(await read({ tab: 'Home' }, () => true)).toBeNull();
    await fill('Password', PASSWORD);
    await click({ button: 'Unlock' });
    await find({ tab: 'Home' }, 15_000);
  });

  step('sends AVAX on the X-Chain through Send → Review → Confirm; accepted, balance down by amount + fee', async () => {
    const recipient = freshKey();
    const to = formatAddress('X', 'custom', recipient.shortId);
    await openTab('Send');
    expect(await isChecked('X-Chain')).toBe(true);
    await fill('To (X-Chain address)', to);
    await fill('Amount (AVAX)', typedAmount(SEND_X, 9));
    // The exact fee of this very transaction, before the review.
    await waitText({ testid: 'fee-line' }, `${amountText(xTxFee, 9)} AVAX, exactly (this transaction, built but not signed)`);
    await screenshot('send');
    await click({ button: 'Review' });

    await find({ heading: 'Review' });
    expect(await textOf({ testid: 'review-amount' })).toBe(`${amountText(SEND_X, 9)} AVAX`);
    expect(await textOf({ testid: 'review-to' })).toBe(to);
    expect(parseAmount(await textOf({ testid: 'review-fee' }), 9)).toBe(xTxFee);
    expect(parseAmount(await textOf({ testid: 'review-total' }), 9)).toBe(SEND_X + xTxFee);
    await screenshot('send-review');
    await audit('Send review');
    await click({ button: 'Confirm and send' });

    await find({ heading: 'Sent' }, 30_000);
    await waitAccepted('X');
    expect(parseAmount((await fact('.tx-status', 'Fee paid')).text, 9)).toBe(xTxFee);
    expect((await fact('.tx-status', 'Transaction ID')).mono).toMatch(/^[1-9A-HJ-NP-Za-km-z]{49,50}$/);
    await screenshot('sent');

    expected.X -= SEND_X + xTxFee;
    await expectHomeTotals(expected);
    // The receiving side, on the node.
    const net = await localNetwork();
    expect(await avaxOf(engineOf(net, { xp: [recipient], evm: recipient, change: recipient.shortId }), 'X')).toBe(SEND_X);
  });

  step('moves AVAX X→C on the Move screen until it shows "Imported"; exact totals on X and C', async () => {
    await openTab('Move');
    await find({ heading: 'Move between chains' });
    await check('From X');
    await check('To C');
    await fill('Amount (AVAX)', typedAmount(MOVE_X_TO_C, 9));
    // The fees of exactly this amount (no "about"), then the button.
    const arrives = await waitText({ testid: 'move-arrives' }, /^\d[\d,.]* AVAX$/);
    await screenshot('move-form');
    await click({ button: 'Move to the C-Chain' });
    // The review: nothing starts before Confirm; it shows what arrives, as the form did.
    await find({ heading: 'Review the move' });
    expect(await textOf({ testid: 'move-review-arrives' })).toBe(arrives);
    await screenshot('move-review');
    await click({ button: 'Confirm and move' });
    await find({ heading: 'Move between chains' });

    // Newest first: the only move of this wallet.
    await expect.poll(() => page().evaluate(newestTransfer).catch(() => null), { timeout: 15_000 }).toMatchObject({ count: 1 });
    expect(await page().evaluate(newestTransfer)).toMatchObject({ title: 'X-Chain → C-Chain', amount: `${amountText(MOVE_X_TO_C, 9)} AVAX`, failed: '' });
    const progress = async (): Promise<string> => {
      const t = await page()
        .evaluate(newestTransfer)
        .catch(() => null);
      return !t ? 'unreadable' : t.failed ? `failed: ${t.failed}` : t.done || 'nothing done';
    };
    await expect.poll(progress, { message: 'the X→C move completes', timeout: 90_000, interval: 500 }).toBe('Imported');

    const shown = await facts('[data-testid="transfer"]');
    log.add('test', `move X→C: ${JSON.stringify(shown)}`);
    const exportFee = parseAmount((await fact('[data-testid="transfer"]', 'Export')).muted, 9);
    const importFee = parseAmount((await fact('[data-testid="transfer"]', 'Import fee')).text, 9);
    expect(shown.filter((f) => f.term === 'Import')).toHaveLength(1);
    expect(exportFee).toBe(xTxFee);
    expect(importFee).toBeGreaterThan(0n);
    await screenshot('move', { testid: 'transfer' });

    expected.X -= MOVE_X_TO_C + exportFee;
    expected.C += (MOVE_X_TO_C - importFee) * WEI_PER_NAVAX;
    await expectHomeTotals(expected);
    // The C-Chain side, on the node: the phrase's C address holds exactly what arrived.
    const net = await localNetwork();
    expect(await net.client.eth.getBalance(cAddress)).toBe(expected.C);
    await screenshot('home-after-move');
  });
});

// The staking screens in Firefox ESR (dist/firefox, puppeteer over WebDriver BiDi), clicked through
// against the local node, as chromium-staking.e2e.test.ts does: the validators list, a delegation
// below the minimum refused in words with nothing sent, the running node (made a validator from a
// second wallet) picked by "Pick a validator for me" and delegated to through its review until
// committed, My stakes and Home listing it, the CSV export's Blob link (no downloads permission), an
// axe audit of each staking screen, and the reward once the period has ended (staking-ui.ts). Elements are found in the
// page by role, label, text or data-testid, polled, then clicked and typed into through puppeteer.
import type { ElementHandle, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, inject } from 'vitest';
import type { AccountView } from '../../src/shared/messages.js';
import { expectAccessible } from './a11y.js';
import { FirefoxWithExtension, puppeteerAdapter, sendFrom } from './firefox.js';
import { addAndSelectNode, createWallet } from './flow.js';
import { artifactPath, type Call, clearArtifacts, ConsoleLog, firstPing, flowSteps, launchOrSaveLog, slug, Timings, walletCaller } from './harness.js';
import { DELEGATE_BUTTON, DELEGATION, expectCsv, expectDelegationCommitted, expectNoStakingSent, expectRewardArrived, fundP, REWARD_TIMEOUT_MS, runningNodeValidates, TOO_LITTLE, TOO_LITTLE_SENTENCE } from './staking-ui.js';
import { parseAmount } from './popup/amounts.js';
import { PopupDriver } from './popup/driver.js';
import { shortNode } from '../../src/popup/screens/StakeValidators.js';

const PREFIX = 'firefox-staking-';

/** What to find: a button by its name, a radio or a field by its label's text, an element by test id, a heading. */
type Target = { button: string } | { radio: string } | { label: string } | { testid: string } | { heading: string };

/** Runs in the page: the first visible element for `t`, or null. */
function findInPage(t: Target): Element | null {
  const visible = (e: Element) => (e as HTMLElement).offsetParent !== null || getComputedStyle(e).position === 'fixed';
  // The text a screen reader reads: icons marked aria-hidden left out.
  const spoken = (n: Node): string => (n.nodeType === Node.TEXT_NODE ? (n.textContent ?? '') : (n as Element).getAttribute?.('aria-hidden') === 'true' ? '' : [...n.childNodes].map(spoken).join(''));
  const text = (e: Element) => spoken(e).replace(/\s+/g, ' ').trim();
  if ('button' in t) return [...document.querySelectorAll('button')].find((b) => visible(b) && !b.disabled && (b.getAttribute('aria-label') ?? text(b)) === t.button) ?? null;
  if ('heading' in t) return [...document.querySelectorAll('h1')].find((h) => text(h) === t.heading) ?? null;
  if ('testid' in t) return [...document.querySelectorAll(`[data-testid="${t.testid}"]`)].find(visible) ?? null;
  if ('radio' in t) return [...document.querySelectorAll('input[type=radio]')].find((r) => text(r.closest('label')!) === t.radio) ?? null;
  const label = [...document.querySelectorAll('label')].find((l) => text(l) === t.label);
  return label ? document.getElementById(label.htmlFor) : null;
}

describe('Firefox: staking through the popup, against the local node', () => {
  const timings = new Timings();
  const log = new ConsoleLog();
  const firefox = new FirefoxWithExtension('staking', log);
  let page: Page;
  let popup: Page;
  let call: Call;
  let account: AccountView;
  let delegationTxID = '';
  let nodeID = '';
  let fee = 0n;

  const step = flowSteps(timings, async (failed) => {
    if (popup) await popup.screenshot({ path: artifactPath(`${PREFIX}FAILED-${slug(failed)}.png`) }).catch(() => undefined);
    log.save(`${PREFIX}FAILED-${slug(failed)}.console.log`);
  });
  const audit = (name: string) => expectAccessible(popup, name, (line) => log.add('axe', line));

  const find = async (t: Target, timeout = 15_000): Promise<ElementHandle<Element>> => {
    await popup.waitForFunction(findInPage, { timeout, polling: 100 }, t);
    return (await popup.evaluateHandle(findInPage, t)) as ElementHandle<Element>;
  };
  const click = async (t: Target) => (await find(t)).click();
  const textOf = async (t: Target) => (await find(t)).evaluate((e) => (e.textContent ?? '').replace(/\s+/g, ' ').trim());
  const type = async (label: string, value: string) => {
    const input = await find({ label });
    await input.evaluate((e) => {
      (e as HTMLInputElement).select();
    });
    await input.type(value);
  };
  /** The text of the <dd> after the <dt> `term` inside the element with test id `testid`. */
  const factIn = (testid: string, term: string) =>
    popup.evaluate(
      (id, dt) => {
        const scope = document.querySelector(`[data-testid="${id}"]`);
        const found = [...(scope?.querySelectorAll('dt') ?? [])].find((d) => d.textContent?.trim() === dt);
        return found?.nextElementSibling?.textContent?.replace(/\s+/g, ' ').trim() ?? null;
      },
      testid,
      term,
    );
  const openStake = async (section: string) => {
    await click({ button: 'Home' });
    await click({ button: 'Stake' });
    await click({ radio: section });
  };

  beforeAll(() =>
    launchOrSaveLog(log, PREFIX, 'firefox-staking', async () => {
      clearArtifacts(PREFIX);
      timings.add('launch', await firefox.launch());
      page = await firefox.openPopup();
      const send = sendFrom(page);
      call = walletCaller(send, log);
      await firstPing(send, log);
    }),
  );

  afterAll(async () => {
    await firefox.close(`${PREFIX}stdout.log`);
    log.save(`${PREFIX}console.log`);
    console.log(timings.summary('firefox-staking'));
  });

  step('the running node validates; a wallet on the local node, funded on the P-Chain from the genesis key', async () => {
    nodeID = await runningNodeValidates();
    await createWallet(call);
    ({ account } = await addAndSelectNode(call, inject('nodeUrl')));
    await fundP(account);
    // A popup opened now shows the unlocked wallet on that node.
    popup = await firefox.openPopup();
    await expect.poll(async () => parseAmount(await textOf({ testid: 'total-P' }).catch(() => '0 AVAX'), 9) > DELEGATION, { timeout: 30_000 }).toBe(true);
  });

  step('the validators list shows the genesis validator; the list is accessible', async () => {
    await openStake('Delegate');
    await find({ heading: 'Validators' });
    await find({ button: DELEGATE_BUTTON });
    expect(await textOf({ testid: 'validator-count' })).toMatch(/^1–\d+ of \d+ matching/);
    await audit('staking: validators');
  });

  step('a delegation below the minimum is refused in words at the amount, and nothing is sent', async () => {
    await click({ button: DELEGATE_BUTTON });
    await find({ heading: 'Delegate' });
    await audit('staking: delegate form');
    await type('Amount (AVAX)', TOO_LITTLE);
    await click({ button: 'Review' });
    await expect
      .poll(() => popup.evaluate(() => document.querySelector('[aria-invalid="true"]')?.closest('.field')?.querySelector('.field-error')?.textContent ?? ''), { timeout: 15_000 })
      .toBe(TOO_LITTLE_SENTENCE);
    expect(await popup.evaluate(() => document.querySelectorAll('[data-testid="review"]').length)).toBe(0);
    await expectNoStakingSent(call);
  });

  step('"Pick a validator for me" picks the running node for 25 AVAX for the shortest period', async () => {
    await click({ button: 'Back' });
    await click({ button: 'Pick a validator for me' });
    await find({ heading: 'Delegate' });
    await type('Amount (AVAX)', '25');
    await click({ button: 'Pick for me' });
    await find({ testid: 'pick-reasons' });
    expect(await textOf({ testid: 'delegate-validator' })).toMatch(new RegExp(`^To ${shortNode(nodeID)} \\(picked for you\\)`));
    expect(await textOf({ testid: 'pick-reasons' })).toContain('It keeps 3% of your reward as its fee.');
    expect(await (await find({ label: 'Ends' })).evaluate((e) => (e as HTMLSelectElement).selectedOptions[0]?.textContent ?? '')).toMatch(/^Shortest: 1 minute 20 seconds/);
  });

  step('the delegation: the review, Confirm, followed until committed', async () => {
    await click({ button: 'Review' });
    await find({ heading: 'Review the delegation' });
    expect(await textOf({ testid: 'review-amount' })).toBe('25 AVAX');
    expect(await textOf({ testid: 'review-node' })).toBe(nodeID);
    expect(await textOf({ testid: 'review-owner' })).toBe(`${account.pAddress} — yours`);
    fee = parseAmount(await textOf({ testid: 'review-fee' }), 9);
    expect(fee).toBeGreaterThan(0n);
    expect(parseAmount(await textOf({ testid: 'review-total' }), 9)).toBe(DELEGATION + fee);
    expect(await textOf({ testid: 'review-arrives' })).toMatch(/The stake, 25 AVAX, on .*, to you/);
    await audit('staking: delegation review');
    await click({ button: 'Confirm and delegate' });
    await find({ heading: 'Delegation sent' }, 60_000);
    await expect.poll(() => textOf({ testid: 'tx-status' }), { timeout: 60_000 }).toBe('Accepted by the P-Chain');
    delegationTxID = await expectDelegationCommitted(call, nodeID);
  });

  step('My stakes lists it; Home shows it staked; Export CSV gives a Blob link with the delegation', async () => {
    await click({ button: 'Back to staking' });
    await click({ radio: 'My stakes' });
    await find({ heading: 'My stakes' });
    expect(await textOf({ testid: 'my-stake-amount' })).toBe('25 AVAX');
    expect(await factIn('my-stake', 'Comes back')).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    expect(await textOf({ testid: 'total-staked' })).toBe('25 AVAX');
    await audit('staking: my stakes');
    await click({ button: 'Export all activity (CSV)' });
    const link = await find({ testid: 'csv-link' });
    const { href, download } = await link.evaluate((a) => ({ href: (a as HTMLAnchorElement).href, download: (a as HTMLAnchorElement).download }));
    expect(href).toMatch(/^blob:moz-extension:/);
    expect(download).toMatch(/^wallet-activity-\d{4}-\d{2}-\d{2}\.csv$/);
    expectCsv(await popup.evaluate(async (u) => (await fetch(u)).text(), href), delegationTxID);
    await click({ button: 'Home' });
    await expect.poll(() => textOf({ testid: 'staked-P' }), { timeout: 30_000 }).toMatch(/^\+ 25 AVAX staked: back \d{4}-/);
  });

  step('the Validate screen is accessible', async () => {
    await openStake('Validate');
    await find({ heading: 'Validate with your node' });
    await audit('staking: validate');
  });

  step(
    'the period ends: My stakes shows it finished with the reward the node paid; Activity, Home and the CSV have it',
    async () => {
      const paid = await expectRewardArrived(new PopupDriver(puppeteerAdapter(popup, firefox), PREFIX, log), { account, delegationTxID, nodeID, fee });
      log.add('test', `the node paid a reward of ${paid} nAVAX`);
    },
    REWARD_TIMEOUT_MS + 120_000,
  );
});

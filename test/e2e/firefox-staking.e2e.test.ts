// The staking screens in Firefox ESR (dist/firefox, puppeteer over WebDriver BiDi), clicked through
// against the local node, as chromium-staking.e2e.test.ts does: the validators list, a delegation
// below the minimum refused in words with nothing sent, the running node (made a validator from a
// second wallet) picked by "Pick a validator for me" and delegated to through its review until
// committed, My stakes and Home listing it, the CSV export's Blob link (no downloads permission), an
// axe audit of each staking screen; a second account of the wallet, switched to in the header, owning
// an auto-renewed validator (a fresh NodeID and BLS key, added through the protocol) whose
// auto-renewal is changed in My stakes through its review (now, the share for this cycle's rewards,
// the period from the next cycle, the cycle's end, the fee burned) until accepted, the row and the
// node showing the new settings; and, back on the first account, the reward once the period has
// ended (staking-ui.ts). Elements are found in the page by role, label, text or data-testid, polled,
// then clicked and typed into through puppeteer.
import type { ElementHandle, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, inject } from 'vitest';
import type { AccountView } from '../../src/shared/messages.js';
import { expectAccessible } from './a11y.js';
import { FirefoxWithExtension, puppeteerAdapter, sendFrom } from './firefox.js';
import { addAndSelectNode, createWallet } from './flow.js';
import { artifactPath, clearArtifacts, ConsoleLog, flowSteps, launchOrSaveLog, slug, Timings } from './artifacts.js';
import { type Call, firstPing, walletCaller } from './harness.js';
import {
  addAutoRenewedValidation,
  addValidatorAccount,
  AUTO_RENEW_WORDS,
  type AutoRenewedValidator,
  DELEGATE_BUTTON,
  DELEGATION,
  expectCsv,
  expectAutoRenewChangeOnNode,
  expectDelegationCommitted,
  expectNewAutoRenewOnNode,
  expectNoStakingSent,
  expectRewardArrived,
  fundP,
  NEW_PERIOD_LABEL,
  NEW_RESTAKE_PERCENT,
  REWARD_TIMEOUT_MS,
  runningNodeValidates,
  TOO_LITTLE,
  STAKES_NOT_FOUND,
  TOO_LITTLE_SENTENCE,
} from './staking-ui.js';
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
  let validatorAccount: AccountView;
  let autoRenewed: AutoRenewedValidator;

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
  /** The shared popup driver, for what it does that this file's helpers do not (picking an option of a <select>). */
  const driver = () => new PopupDriver(puppeteerAdapter(popup, firefox), PREFIX, log);
  /** Switches accounts with the header's account menu, as a user does. */
  const switchAccount = async (to: AccountView) => {
    await driver().select('Account', to.id);
    await expect.poll(() => call('wallet.status', {}).then((s) => s.account?.id), { message: `the wallet's account is ${to.name}` }).toBe(to.id);
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
    expect(await textOf({ testid: 'stakes-not-found' })).toBe(STAKES_NOT_FOUND);
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

  step('a second account, switched to in the header, owns an auto-renewed validator of a fresh node (added through the protocol, committed)', async () => {
    let stake: bigint;
    ({ account: validatorAccount, stake } = await addValidatorAccount(call));
    await switchAccount(validatorAccount);
    autoRenewed = await addAutoRenewedValidation(call, validatorAccount, stake);
    log.add('test', `auto-renewed validation ${autoRenewed.txID} of ${autoRenewed.nodeID}, its cycle ends at ${autoRenewed.cycleEnd}`);
  });

  step('My stakes: "Change auto-renewal of …", a new period and share, the review, Confirm until accepted; the row and the node show the new settings', async () => {
    await openStake('My stakes');
    await find({ heading: 'My stakes' });
    // The second account's only stake: the auto-renewed validation.
    await find({ testid: 'my-stake' });
    expect(await popup.evaluate(() => document.querySelectorAll('[data-testid="my-stake"]').length)).toBe(1);
    expect(await popup.evaluate(() => document.querySelector('[data-testid="my-stake"] .mono')?.getAttribute('title') ?? null)).toBe(autoRenewed.nodeID);
    expect(await popup.evaluate(() => document.querySelector('[data-testid="my-stake"] strong')?.textContent ?? null)).toBe('Auto-renewed validation');
    expect(await popup.evaluate(() => document.querySelector('[data-testid="my-stake"] .badge')?.textContent ?? null)).toBe('Active');
    expect(parseAmount(await textOf({ testid: 'my-stake-amount' }), 9)).toBe(autoRenewed.stake);
    expect(await factIn('my-stake', 'Cycle ends')).toBe(autoRenewed.cycleEndText);
    expect(await factIn('my-stake', 'Comes back')).toBe('once the validation is stopped');
    expect(await factIn('my-stake', 'Auto-renewal')).toBe(AUTO_RENEW_WORDS.rowBefore);
    expect(await factIn('my-stake', 'Rewards to')).toBe('you');

    await click({ button: `Change auto-renewal of ${shortNode(autoRenewed.nodeID)}` });
    // Each control names its validator (another's form may be open beside it).
    const forNode = ` (for ${shortNode(autoRenewed.nodeID)})`;
    const period = await find({ label: `Next cycles${forNode}` });
    expect(await period.evaluate((e) => (e as HTMLSelectElement).selectedOptions[0]?.textContent ?? '')).toBe(AUTO_RENEW_WORDS.periodOptionBefore);
    expect(await (await find({ label: `Rewards restaked (%)${forNode}` })).evaluate((e) => (e as HTMLInputElement).value)).toBe(AUTO_RENEW_WORDS.restakeFieldBefore);
    const choice = await period.evaluate((e, label) => [...(e as HTMLSelectElement).options].find((o) => o.textContent === label)?.value ?? null, NEW_PERIOD_LABEL);
    expect(choice, `the period menu offers ${NEW_PERIOD_LABEL}`).not.toBeNull();
    await driver().select(`Next cycles${forNode}`, choice!);
    await type(`Rewards restaked (%)${forNode}`, NEW_RESTAKE_PERCENT);
    await click({ button: `Review the change${forNode}` });

    await find({ button: `Confirm the change${forNode}` });
    expect(await popup.evaluate(() => document.querySelector('[data-testid="review"] h3')?.textContent ?? null)).toBe('Review the change');
    expect(await factIn('review', 'Node')).toBe(autoRenewed.nodeID);
    expect(await factIn('review', 'Now')).toBe(AUTO_RENEW_WORDS.now);
    expect(await factIn('review', 'Restaked when this cycle ends')).toBe(AUTO_RENEW_WORDS.restakedWhenCycleEnds);
    expect(await factIn('review', 'From the next cycle')).toBe(AUTO_RENEW_WORDS.fromNextCycle);
    expect(await factIn('review', 'This cycle ends')).toBe(autoRenewed.cycleEndText);
    expect(await factIn('review', 'May change or stop it')).toBe(`${validatorAccount.pAddress} — yours`);
    expect(await factIn('review', 'Fee paid from')).toBe(`Your P-Chain account (${validatorAccount.pAddress})`);
    const changeFee = parseAmount(await factIn('review', 'Network fee'), 9);
    expect(changeFee).toBeGreaterThan(0n);
    await audit('staking: auto-renewal change review');

    await click({ button: `Confirm the change${forNode}` });
    await expect.poll(() => textOf({ testid: 'tx-status' }), { timeout: 60_000 }).toBe('Accepted by the P-Chain');
    expect(parseAmount(await factIn('my-stake', 'Fee paid'), 9)).toBe(changeFee);
    const changeTxID = await expectAutoRenewChangeOnNode(call, autoRenewed, changeFee);
    expect(await popup.evaluate(() => document.querySelector('[data-testid="my-stake"] [data-testid="tx-status"]')?.parentElement?.textContent ?? '')).toContain(changeTxID);
    await expectNewAutoRenewOnNode(autoRenewed);
    // My stakes reads the stake again once the change is accepted: the new share, the new period, the same cycle end.
    await expect.poll(() => factIn('my-stake', 'Auto-renewal'), { message: 'My stakes shows the new auto-renewal', timeout: 15_000 }).toBe(AUTO_RENEW_WORDS.rowAfter);
    expect(await factIn('my-stake', 'Cycle ends')).toBe(autoRenewed.cycleEndText);
    await audit('staking: my stakes after the auto-renewal change');

    // Back to the delegation's account for the last step.
    await switchAccount(account);
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

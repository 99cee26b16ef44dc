// The staking screens in Chromium (dist/chrome), clicked through against the local node: a wallet
// made through the background protocol and funded on the P-Chain straight from the genesis key;
// then, in the popup, the validators list, a delegation below the minimum refused in words with
// nothing sent; the running node (made a validator from a second wallet) picked by "Pick a validator
// for me" and delegated to through the review until committed, My stakes and Home listing it, the
// CSV export's file link, an axe audit of each staking screen; then a second account of the wallet,
// switched to in the header, owns an auto-renewed validator (a fresh NodeID and BLS key, added
// through the protocol) whose auto-renewal is changed in My stakes: "Change auto-renewal of …", a
// new period and restaked share, the review (now, the share for this cycle's rewards, the period
// from the next cycle, the cycle's end, the fee burned), Confirm until accepted, the row and the node
// showing the new settings; back to the first account, once the period has ended, the reward the
// node paid in My stakes, Activity, Home's P total and the CSV (staking-ui.ts).
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject } from 'vitest';
import type { AccountView } from '../../src/shared/messages.js';
import { expectAccessible } from './a11y.js';
import { addAndSelectNode, createWallet } from './flow.js';
import { artifactPath, clearArtifacts, ConsoleLog, flowSteps, launchOrSaveLog, slug, Timings } from './artifacts.js';
import { builtExtension, type BuiltExtension, type Call, firstPing, walletCaller } from './harness.js';
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
  STAKES_NOT_FOUND,
  fundP,
  GENESIS_VALIDATOR,
  NEW_PERIOD_LABEL,
  NEW_RESTAKE_PERCENT,
  REWARD_TIMEOUT_MS,
  runningNodeValidates,
  TOO_LITTLE,
  TOO_LITTLE_SENTENCE,
} from './staking-ui.js';
import { parseAmount } from './popup/amounts.js';
import { PopupDriver } from './popup/driver.js';
import { shortNode } from '../../src/popup/screens/StakeValidators.js';
import { playwrightAdapter, UiBrowser } from './ui.js';

const PREFIX = 'chromium-staking-';

type ExtensionPageGlobals = { chrome: { runtime: { sendMessage(message: unknown): Promise<unknown> } } };

describe('Chromium: staking through the popup, against the local node', () => {
  const timings = new Timings();
  const log = new ConsoleLog();
  const browser = new UiBrowser('staking', log);
  let ext: BuiltExtension;
  let popup: Page;
  let call: Call;
  let account: AccountView;
  let delegationTxID = '';
  let nodeID = '';
  let fee = 0n;
  let validatorAccount: AccountView;
  let autoRenewed: AutoRenewedValidator;

  const step = flowSteps(timings, async (failed) => {
    if (popup && !popup.isClosed()) await popup.screenshot({ path: artifactPath(`${PREFIX}FAILED-${slug(failed)}.png`), fullPage: true }).catch(() => undefined);
    log.save(`${PREFIX}FAILED-${slug(failed)}.console.log`);
  });
  const audit = (name: string) => expectAccessible(popup, name, (line) => log.add('axe', line));

  beforeAll(() =>
    launchOrSaveLog(log, PREFIX, 'chromium-staking', async () => {
      clearArtifacts(PREFIX);
      ext = builtExtension('chrome');
      timings.add('launch', await browser.launch(ext));
      popup = await browser.openPopup(ext);
      const send = (message: unknown) => popup.evaluate((m) => (globalThis as unknown as ExtensionPageGlobals).chrome.runtime.sendMessage(m), message);
      call = walletCaller(send, log);
      await firstPing(send, log);
    }),
  );

  afterAll(async () => {
    await browser.close();
    log.save(`${PREFIX}console.log`);
    console.log(timings.summary('chromium-staking'));
  });

  /** Home's "Stake" action, then a section of the staking screen. */
  const openStake = async (section: 'Delegate' | 'My stakes' | 'Validate') => {
    await openTab(popup, 'Home');
    await popup.getByRole('navigation', { name: 'Actions' }).getByRole('button', { name: 'Stake', exact: true }).click();
    await popup.getByRole('radio', { name: section }).check();
  };
  /** Switches accounts with the header's account menu, as a user does (it lists the accounts once focused). */
  const switchAccount = async (to: AccountView) => {
    const menu = popup.getByLabel('Account', { exact: true });
    await menu.focus();
    await menu.selectOption(to.id);
    await expect.poll(() => call('wallet.status', {}).then((s) => s.account?.id), { message: `the wallet's account is ${to.name}` }).toBe(to.id);
    await expect.poll(() => menu.inputValue(), { message: `the header names ${to.name}` }).toBe(to.id);
  };

  step('the running node validates; a wallet on the local node, funded on the P-Chain from the genesis key', async () => {
    nodeID = await runningNodeValidates();
    await createWallet(call);
    ({ account } = await addAndSelectNode(call, inject('nodeUrl')));
    await fundP(account);
    await popup.reload({ waitUntil: 'load' });
    await expect.poll(async () => (await readAmount(popup.getByTestId('total-P'), 9).catch(() => 0n)) > DELEGATION, { timeout: 30_000 }).toBe(true);
  });

  step('the validators list shows the genesis validator with its facts; the list is accessible', async () => {
    await openStake('Delegate');
    await popup.getByRole('heading', { name: 'Validators', level: 1 }).waitFor();
    const row = popup.getByTestId('validator').filter({ has: popup.getByRole('button', { name: DELEGATE_BUTTON }) });
    await row.waitFor();
    expect(await fact(row, 'Fee').textContent()).toBe('6.25% of rewards');
    expect(await fact(row, 'Uptime').textContent()).toMatch(/^\d+(\.\d+)?% \(rewards need 90%\) · (connected|not connected now)$/);
    expect(await popup.getByTestId('validator-count').textContent()).toMatch(/^1–\d+ of \d+ matching/);
    await audit('staking: validators');
    // "More" holds the full node ID.
    await row.getByText('More').click();
    expect(await fact(row, 'Node ID').textContent()).toBe(GENESIS_VALIDATOR);
  });

  step('a delegation below the minimum is refused in words at the amount, and nothing is sent', async () => {
    await popup.getByRole('button', { name: DELEGATE_BUTTON }).click();
    await popup.getByRole('heading', { name: 'Delegate', level: 1 }).waitFor();
    await audit('staking: delegate form');
    await popup.getByLabel('Amount (AVAX)').fill(TOO_LITTLE);
    await popup.getByRole('button', { name: 'Review', exact: true }).click();
    const amountError = popup.locator('.field').filter({ has: popup.getByLabel('Amount (AVAX)') }).locator('.field-error');
    await expect.poll(() => amountError.textContent(), { timeout: 15_000 }).toBe(TOO_LITTLE_SENTENCE);
    expect(await popup.getByTestId('review').count()).toBe(0);
    await expectNoStakingSent(call);
  });

  step('"Pick a validator for me" picks the running node for 25 AVAX for the shortest period, saying why', async () => {
    await popup.getByRole('button', { name: 'Back', exact: true }).click();
    await popup.getByRole('button', { name: 'Pick a validator for me' }).click();
    await popup.getByRole('heading', { name: 'Delegate', level: 1 }).waitFor();
    await popup.getByLabel('Amount (AVAX)').fill('25');
    expect(await popup.getByLabel('Ends').locator('option:checked').textContent()).toMatch(/^Shortest: 1 minute 20 seconds/);
    await popup.getByRole('button', { name: 'Pick for me', exact: true }).click();
    const picked = popup.getByTestId('delegate-validator');
    await picked.waitFor();
    expect(await picked.locator('p').first().textContent()).toBe(`To ${shortNode(nodeID)} (picked for you)`);
    expect(await picked.getByTestId('pick-reasons').textContent()).toContain('It keeps 3% of your reward as its fee.');
    expect(await popup.getByLabel('Ends').locator('option:checked').textContent()).toMatch(/^Shortest: 1 minute 20 seconds/);
    await audit('staking: delegate form, picked');
  });

  step('the delegation: the review says what happens, Confirm, followed until committed', async () => {
    await popup.getByRole('button', { name: 'Review', exact: true }).click();
    const review = popup.getByTestId('review');
    await popup.getByRole('heading', { name: 'Review the delegation', level: 1 }).waitFor();
    expect(await review.getByTestId('review-amount').textContent()).toBe('25 AVAX');
    expect(await review.getByTestId('review-node').textContent()).toBe(nodeID);
    expect(await review.getByTestId('review-owner').textContent()).toBe(`${account.pAddress} — yours`);
    fee = await readAmount(review.getByTestId('review-fee'), 9);
    expect(fee).toBeGreaterThan(0n);
    expect(await readAmount(review.getByTestId('review-total'), 9)).toBe(DELEGATION + fee);
    expect(await review.getByTestId('review-reward').textContent()).toMatch(/AVAX after the validator's 3% fee/);
    expect(await review.getByTestId('review-arrives').textContent()).toMatch(/The stake, 25 AVAX, on .*, to you/);
    await audit('staking: delegation review');
    await popup.getByRole('button', { name: 'Confirm and delegate' }).click();
    await popup.getByRole('heading', { name: 'Delegation sent', level: 1 }).waitFor({ timeout: 60_000 });
    await waitAccepted(popup, 'P');
    delegationTxID = await expectDelegationCommitted(call, nodeID);
    expect(await popup.getByTestId('tx-status').locator('xpath=..').textContent()).toContain(delegationTxID);
  });

  step('My stakes lists the delegation with its amount, node and end; Home shows it staked', async () => {
    await popup.getByRole('button', { name: 'Back to staking' }).click();
    await popup.getByRole('radio', { name: 'My stakes' }).check();
    await popup.getByRole('heading', { name: 'My stakes', level: 1 }).waitFor();
    const stake = popup.getByTestId('my-stake').first();
    await stake.waitFor({ timeout: 15_000 });
    expect(await stake.locator('strong').textContent()).toBe('Delegation');
    expect(await stake.getByTestId('my-stake-amount').textContent()).toBe('25 AVAX');
    expect(await stake.locator('.mono').first().getAttribute('title')).toBe(nodeID);
    expect(await fact(stake, 'Comes back').textContent()).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    expect(await popup.getByTestId('total-staked').textContent()).toBe('25 AVAX');
    expect(await popup.getByTestId('stakes-not-found').textContent()).toBe(STAKES_NOT_FOUND);
    await audit('staking: my stakes');
    await openTab(popup, 'Home');
    await expect.poll(() => popup.getByTestId('staked-P').textContent(), { timeout: 30_000 }).toMatch(/^\+ 25 AVAX staked: back \d{4}-/);
  });

  step('Export CSV gives a file link whose text holds the delegation', async () => {
    await openStake('My stakes');
    await popup.getByRole('button', { name: 'Export all activity (CSV)' }).click();
    const link = popup.getByTestId('csv-link');
    await link.waitFor();
    expect(await link.getAttribute('download')).toMatch(/^wallet-activity-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(await link.getAttribute('href')).toMatch(/^blob:chrome-extension:/);
    const [download] = await Promise.all([popup.waitForEvent('download', { timeout: 10_000 }), link.click()]);
    expect(download.suggestedFilename()).toMatch(/^wallet-activity-/);
    const csv = await popup.evaluate(async (href) => (await fetch(href)).text(), (await link.getAttribute('href'))!);
    expectCsv(csv, delegationTxID);
  });

  step('the Validate screen asks for the node first; it and Activity are accessible', async () => {
    await popup.getByRole('radio', { name: 'Validate' }).check();
    await popup.getByRole('heading', { name: 'Validate with your node', level: 1 }).waitFor();
    await audit('staking: validate');
    await openTab(popup, 'Activity');
    const item = popup.getByTestId('activity-item').filter({ hasText: 'Delegated stake' });
    await item.waitFor();
    expect(await item.textContent()).toContain('25 AVAX');
    expect(await item.locator('.tx-mid [title]').getAttribute('title')).toBe(nodeID);
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
    await popup.getByRole('heading', { name: 'My stakes', level: 1 }).waitFor();
    const row = popup.getByTestId('my-stake').filter({ has: popup.locator(`.mono[title="${autoRenewed.nodeID}"]`) });
    await row.waitFor({ timeout: 15_000 });
    expect(await row.locator('strong').first().textContent()).toBe('Auto-renewed validation');
    expect(await row.locator('.badge').textContent()).toBe('Active');
    expect(await readAmount(row.getByTestId('my-stake-amount'), 9)).toBe(autoRenewed.stake);
    expect(await fact(row, 'Cycle ends').textContent()).toBe(autoRenewed.cycleEndText);
    expect(await fact(row, 'Comes back').textContent()).toBe('once the validation is stopped');
    expect(await fact(row, 'Auto-renewal').textContent()).toBe(AUTO_RENEW_WORDS.rowBefore);
    expect(await fact(row, 'Rewards to').textContent()).toBe('you');

    await row.getByRole('button', { name: `Change auto-renewal of ${shortNode(autoRenewed.nodeID)}`, exact: true }).click();
    // Each control names its validator (another's form may be open beside it).
    const forNode = ` (for ${shortNode(autoRenewed.nodeID)})`;
    const period = row.getByLabel(`Next cycles${forNode}`, { exact: true });
    expect(await period.locator('option:checked').textContent()).toBe(AUTO_RENEW_WORDS.periodOptionBefore);
    expect(await row.getByLabel(`Rewards restaked (%)${forNode}`, { exact: true }).inputValue()).toBe(AUTO_RENEW_WORDS.restakeFieldBefore);
    await period.selectOption({ label: NEW_PERIOD_LABEL });
    await row.getByLabel(`Rewards restaked (%)${forNode}`, { exact: true }).fill(NEW_RESTAKE_PERCENT);
    await row.getByRole('button', { name: `Review the change${forNode}`, exact: true }).click();

    const review = row.getByTestId('review');
    await review.getByRole('heading', { name: 'Review the change', level: 3 }).waitFor();
    expect(await fact(review, 'Node').textContent()).toBe(autoRenewed.nodeID);
    expect(await fact(review, 'Now').textContent()).toBe(AUTO_RENEW_WORDS.now);
    expect(await fact(review, 'Restaked when this cycle ends').textContent()).toBe(AUTO_RENEW_WORDS.restakedWhenCycleEnds);
    expect(await fact(review, 'From the next cycle').textContent()).toBe(AUTO_RENEW_WORDS.fromNextCycle);
    expect(await fact(review, 'This cycle ends').textContent()).toBe(autoRenewed.cycleEndText);
    expect(await fact(review, 'May change or stop it').textContent()).toBe(`${validatorAccount.pAddress} — yours`);
    expect(await fact(review, 'Fee paid from').textContent()).toBe(`Your P-Chain account (${validatorAccount.pAddress})`);
    const changeFee = await readAmount(fact(review, 'Network fee'), 9);
    expect(changeFee).toBeGreaterThan(0n);
    await audit('staking: auto-renewal change review');

    await review.getByRole('button', { name: `Confirm the change${forNode}`, exact: true }).click();
    await waitAccepted(row, 'P');
    expect(await readAmount(fact(row, 'Fee paid'), 9)).toBe(changeFee);
    const changeTxID = await expectAutoRenewChangeOnNode(call, autoRenewed, changeFee);
    expect(await row.getByTestId('tx-status').locator('xpath=..').textContent()).toContain(changeTxID);
    await expectNewAutoRenewOnNode(autoRenewed);
    // My stakes reads the stake again once the change is accepted: the new share, the new period, the same cycle end.
    await expect.poll(() => fact(row, 'Auto-renewal').textContent(), { message: 'My stakes shows the new auto-renewal', timeout: 15_000 }).toBe(AUTO_RENEW_WORDS.rowAfter);
    expect(await fact(row, 'Cycle ends').textContent()).toBe(autoRenewed.cycleEndText);
    await audit('staking: my stakes after the auto-renewal change');

    // Back to the delegation's account for the last step.
    await switchAccount(account);
  });

  step(
    'the period ends: My stakes shows it finished with the reward the node paid; Activity, Home and the CSV have it',
    async () => {
      const paid = await expectRewardArrived(new PopupDriver(playwrightAdapter(popup), PREFIX, log), { account, delegationTxID, nodeID, fee });
      log.add('test', `the node paid a reward of ${paid} nAVAX`);
    },
    REWARD_TIMEOUT_MS + 120_000,
  );
});

// Playwright readers of the popup for this file (the shared UI suite drives both browsers through
// popup/driver.ts; these few stay here, where only Chromium uses them).
async function readAmount(locator: Locator, decimals: number, symbol = 'AVAX'): Promise<bigint> {
  return parseAmount(await locator.textContent(), decimals, symbol);
}

/** The value of the label/value pair `term` in a <dl> of `scope`. */
function fact(scope: Page | Locator, term: string): Locator {
  return scope.locator(`xpath=.//dt[normalize-space(.)=${JSON.stringify(term)}]/following-sibling::dd[1]`);
}

async function openTab(page: Page, name: 'Home' | 'Activity'): Promise<void> {
  const tab = page.getByRole('navigation', { name: 'Wallet sections' }).getByRole('button', { name, exact: true });
  await tab.click();
  await expect.poll(() => tab.getAttribute('aria-current'), { message: `the ${name} tab is current` }).toBe('page');
}

async function waitAccepted(scope: Page | Locator, chain: 'X' | 'P' | 'C', timeoutMs = 60_000): Promise<void> {
  const status = scope.getByTestId('tx-status');
  await expect.poll(async () => (await status.textContent())?.trim(), { message: `the ${chain}-Chain accepts the transaction`, timeout: timeoutMs, interval: 250 }).toBe(`Accepted by the ${chain}-Chain`);
}

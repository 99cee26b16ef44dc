// Sends through Send → Review → Confirm (X and C; the receiving side checked on the node), a review
// confirmed after the account was switched elsewhere (refused, nothing sent), and Activity after an
// account switch in the header (only that account's items; the change of a send its keys signed in
// another wallet, listed as its own).
import { expect } from 'vitest';
import { formatAddress, parseId } from '../../../src/core/encoding.js';
import { deriveXpKey, HdRoot, mnemonicToSeed } from '../../../src/core/keys.js';
import { makeOwners } from '../../../src/core/tx/context.js';
import { formatEvmAddress } from '../../../src/core/evm-address.js';
import { avaxOf, engineOf, freshKey, localNetwork } from '../../integration/fixture.js';
import { fundX } from '../harness.js';
import { amountText, parseAmount, typedAmount } from './amounts.js';
import type { PopupDriver } from './driver.js';
import type { UiRun } from './run.js';

const SEND_X = 123_456_789n; // nAVAX
const SEND_C_WEI = 12_345_678_900_000_000n; // 0.0123456789 AVAX
/** What the second account receives (nAVAX): its only activity. */
const OTHER_FUNDING = 777_777_777n;
const OTHER_ACCOUNT = 'Elsewhere';
/** What the second account's keys send from another wallet with the same phrase (nAVAX). */
const ELSEWHERE_SEND = 100_000_000n;

interface ActivityRow {
  title: string;
  badge: string;
  mid: string;
  fee: string;
  txID: string;
  text: string;
}

/** Runs IN THE PAGE: the Activity list as shown, newest first. */
function activityInPage(): ActivityRow[] {
  const text = (e: Element | null | undefined): string => (e?.textContent ?? '').replace(/\s+/g, ' ').trim();
  return [...document.querySelectorAll('[data-testid="activity-item"]')].map((item) => ({
    title: text(item.querySelector('.tx-top strong')),
    badge: text(item.querySelector('.tx-top .badge')),
    mid: text(item.querySelector('.tx-mid')),
    fee: text([...item.children].find((c) => c.classList.contains('muted') && text(c).startsWith('Fee '))),
    txID: item.querySelector('.tx-bottom .mono')?.getAttribute('title') ?? '',
    text: ((item as HTMLElement).innerText ?? '').replace(/\s+/g, ' ').trim(),
  }));
}

/** Activity, once its list has loaded (the empty list says so). */
async function activity(ui: PopupDriver): Promise<ActivityRow[]> {
  await ui.openTab('Activity');
  await expect.poll(async () => (await ui.exists({ text: 'No transactions yet.' })) || (await ui.exists({ testid: 'activity-item' })), { message: 'the activity list loads' }).toBe(true);
  await ui.quiet();
  return ui.page.evaluate(activityInPage);
}

export async function reviewRefusedAfterSwitchElsewhere(run: UiRun): Promise<void> {
  const { ui } = run;
  await ui.openTab('Send');
  await ui.fill('To (X-Chain address)', formatAddress('X', 'custom', freshKey().shortId));
  await ui.fill('Amount (AVAX)', '0.5');
  await ui.click({ button: 'Review' });
  // Confirm can be pressed once the review has looked for the same send made before (SentBefore).
  await ui.find({ button: 'Confirm and send' });
  const mine = (await ui.call('wallet.status', {})).account!;
  const other = await ui.call('accounts.add', { name: OTHER_ACCOUNT });
  // Another window switches the account at the moment Confirm is clicked here: in one go in the
  // page, so that this popup (which follows a switch made elsewhere within seconds) cannot first.
  // What the popup says is read as it appears (an observer set before the click): the background's
  // refusal, or, when the popup's own status check follows the switch before that answer lands, its
  // notice that the review was closed with nothing sent. Either way the balances below show nothing left.
  const refusal = await ui.page.evaluate(async (id) => {
    type Runtime = { runtime: { sendMessage(m: unknown): Promise<unknown> } };
    const g = globalThis as unknown as { browser?: Runtime; chrome?: Runtime };
    const confirm = [...document.querySelectorAll('button')].find((b) => (b.textContent ?? '').trim() === 'Confirm and send');
    if (!confirm) return 'no Confirm button';
    await (g.browser ?? g.chrome)!.runtime.sendMessage({ channel: 'xpc-wallet', type: 'accounts.select', params: { id } });
    if (!confirm.isConnected) return 'the review closed before Confirm was clicked';
    const shown = new Promise<string>((resolve) => {
      const seen = () => (document.querySelector('[role="alert"] p') ?? document.querySelector('[data-testid="followed-switch"] p'))?.textContent?.trim();
      const observer = new MutationObserver(() => {
        const text = seen();
        if (!text) return;
        observer.disconnect();
        resolve(text);
      });
      observer.observe(document.body, { subtree: true, childList: true, characterData: true });
      setTimeout(() => {
        observer.disconnect();
        resolve('no refusal shown within 20 s');
      }, 20_000);
    });
    confirm.click();
    return shown;
  }, other.id);
  expect([
    'The account or network was switched since this was reviewed: nothing was done; review it again',
    `Switched in another window to ${OTHER_ACCOUNT} on ${(await ui.call('wallet.status', {})).network.name}. What was open here was closed: anything not yet confirmed was not sent (Activity shows what was).`,
  ]).toContain(refusal);
  // The open popup then follows the switch: the header names the account now selected.
  await expect.poll(() => ui.read({ label: 'Account' }, 'value'), { message: 'the header follows the switch made elsewhere', timeout: 15_000 }).toBe(other.id);
  await switchTo(ui, mine.id, mine.name);
  await ui.expectHomeTotals(run.expected);
}

/** An X send with the keyboard alone: Tab to each control, type, Enter; no click after Home. */
export async function sendXByKeyboard(run: UiRun): Promise<void> {
  const { ui, xTxFee, expected } = run;
  const to = formatAddress('X', 'custom', freshKey().shortId);
  await ui.openTab('Home');
  // Into the popup first, as a user is (headless Firefox gives an unclicked page keys, but a
  // focused button there takes no Enter); then from the top of the page.
  await ui.page.bringToFront();
  await ui.click({ css: 'main h1' });
  await ui.page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await ui.tabTo('Send');
  await ui.page.press('Enter');
  // Send opens with focus on its heading, where the next Tab starts.
  await expect.poll(() => ui.page.evaluate(() => `${document.activeElement?.tagName} ${document.activeElement?.textContent}`)).toBe('H1 Send');
  await ui.tabTo('To (X-Chain address)');
  await ui.page.type(to);
  await ui.tabTo('Amount (AVAX)');
  await ui.page.type(typedAmount(SEND_X, 9));
  await ui.waitText({ testid: 'fee-line' }, `${amountText(xTxFee, 9)} AVAX, exactly (this transaction, built but not signed)`);
  await ui.tabTo('Review');
  await ui.page.press('Enter');
  await ui.find({ heading: 'Review' });
  expect(await ui.textOf({ testid: 'review-to' })).toBe(to);
  // Held (not focusable) until the review has looked for the same send made before.
  await ui.find({ button: 'Confirm and send' });
  await ui.tabTo('Confirm and send');
  await ui.page.press('Enter');
  await ui.find({ heading: 'Sent' }, 30_000);
  await ui.waitAccepted('X');
  expected.X -= SEND_X + xTxFee;
  await ui.expectHomeTotals(expected);
}

export async function sendX(run: UiRun): Promise<void> {
  const { ui, xTxFee, expected } = run;
  const recipient = freshKey();
  const to = formatAddress('X', 'custom', recipient.shortId);
  await ui.openTab('Send');
  expect(await ui.isChecked('X-Chain')).toBe(true);
  await ui.fill('To (X-Chain address)', to);
  await ui.fill('Amount (AVAX)', typedAmount(SEND_X, 9));
  // The exact fee of this very transaction, before the review.
  await ui.waitText({ testid: 'fee-line' }, `${amountText(xTxFee, 9)} AVAX, exactly (this transaction, built but not signed)`);
  await ui.screenshot('send');
  await ui.click({ button: 'Review' });

  await ui.find({ heading: 'Review' });
  expect(await ui.textOf({ testid: 'review-amount' })).toBe(`${amountText(SEND_X, 9)} AVAX`);
  expect(await ui.textOf({ testid: 'review-to' })).toBe(to);
  expect(await ui.amount({ testid: 'review-fee' }, 9)).toBe(xTxFee);
  expect(await ui.amount({ testid: 'review-total' }, 9)).toBe(SEND_X + xTxFee);
  await ui.find({ button: 'Confirm and send' }); // its check of recent sends answered, not "Checking…"
  await ui.screenshot('send-review');
  await ui.audit('Send review');
  await ui.click({ button: 'Confirm and send' });

  await ui.find({ heading: 'Sent' }, 30_000);
  await ui.waitAccepted('X');
  expect(parseAmount((await ui.fact('Fee paid')).text, 9)).toBe(xTxFee);
  const txID = (await ui.fact('Transaction ID')).mono;
  expect(parseId(txID)).toHaveLength(32);
  await ui.screenshot('sent');

  await ui.openTab('Activity');
  await ui.waitText({ css: '[data-testid="activity-item"] .badge' }, 'Accepted');
  expect((await activity(ui))[0]).toMatchObject({ title: 'Sent', mid: `X-Chain${amountText(SEND_X, 9)} AVAX`, fee: `Fee ${amountText(xTxFee, 9)} AVAX`, txID });

  expected.X -= SEND_X + xTxFee;
  await ui.expectHomeTotals(expected);
  // The receiving side, on the node.
  const net = await localNetwork();
  expect(await avaxOf(engineOf(net, { xp: [recipient], evm: recipient, change: recipient.shortId }), 'X')).toBe(SEND_X);

  // The same send typed again (as after a popup closed mid-send): its review names the one just made.
  await ui.openTab('Send');
  await ui.fill('To (X-Chain address)', to);
  await ui.fill('Amount (AVAX)', typedAmount(SEND_X, 9));
  await ui.click({ button: 'Review' });
  await ui.find({ heading: 'Review' });
  await ui.waitText({ testid: 'review-sent-before' }, /^You sent the same amount to this address (less than a minute|\d+ minutes?) ago\. Confirm only to send it again\.$/);
  await ui.audit('Send review naming a send made before');
  await ui.click({ button: 'Edit' });
  await ui.openTab('Home');
}

/** Switches accounts with the header's account menu, as a user does. */
async function switchTo(ui: PopupDriver, id: string, name: string): Promise<void> {
  await ui.select('Account', id);
  await expect.poll(() => ui.call('wallet.status', {}).then((s) => s.account?.name)).toBe(name);
}

export async function activityAfterAccountSwitch(run: UiRun): Promise<void> {
  const { ui } = run;
  const mine = await activity(ui);
  expect(mine.length).toBeGreaterThan(0);
  expect(mine[0]!.title).toBe('Sent');
  const { accounts } = await ui.call('accounts.list', {});
  const first = accounts.find((a) => a.xAddress === run.xAddress)!;
  const other = accounts.find((a) => a.name === OTHER_ACCOUNT)!;

  await switchTo(ui, other.id, OTHER_ACCOUNT);
  await ui.openTab('Receive');
  const otherAddress = await ui.waitText({ testid: 'receive-address' }, /^X-custom1[02-9ac-hj-np-z]{38}$/);
  expect(otherAddress).toBe(other.xAddress);
  expect(otherAddress).not.toBe(run.xAddress);
  // Its first look at the node finds nothing; then funds arrive, seen by the next refresh.
  await ui.expectHomeTotals({ X: 0n, P: 0n, C: 0n });
  await fundX(otherAddress, OTHER_FUNDING);
  await ui.expectHomeTotals({ X: OTHER_FUNDING, P: 0n, C: 0n });
  // Only this account's items: what it received, nothing of the first account's.
  const theirs = await activity(ui);
  expect(theirs).toHaveLength(1);
  expect(theirs[0]).toMatchObject({ title: 'Received', badge: 'Accepted', mid: `X-Chain${amountText(OTHER_FUNDING, 9)} AVAX` });
  for (const row of mine) expect(theirs.map((t) => t.txID)).not.toContain(row.txID);

  // A send its keys signed in another wallet with the same phrase: the change that came back is
  // listed as the account's own, not as a payment from someone else.
  const net = await localNetwork();
  const key = deriveXpKey(HdRoot.fromSeed(await mnemonicToSeed(run.words.join(' '))), 1, 0, 0);
  expect(formatAddress('X', 'custom', key.shortId)).toBe(otherAddress);
  const elsewhere = engineOf(net, { xp: [key], evm: key, change: key.shortId });
  const sent = await elsewhere.issueAndWait(await elsewhere.buildXSend([{ assetID: net.ctx.avaxAssetID, amount: ELSEWHERE_SEND, owners: makeOwners([freshKey().shortId]) }]));
  const change = OTHER_FUNDING - ELSEWHERE_SEND - net.ctx.xTxFee;
  await ui.expectHomeTotals({ X: change, P: 0n, C: 0n });
  const withChange = await activity(ui);
  expect(withChange).toHaveLength(2);
  expect(withChange[0]).toMatchObject({ title: 'Received from yourself', badge: 'Accepted', mid: `X-Chain${amountText(change, 9)} AVAX`, txID: sent.txID });
  expect(withChange[0]!.text).toContain('Signed by your own keys outside this list');
  await ui.screenshot('activity-other-account');

  // Back: the first account's own list again, without the other's receipt.
  await switchTo(ui, first.id, first.name);
  const again = await activity(ui);
  expect(again.map((r) => r.txID)).toEqual(mine.map((r) => r.txID));
  await ui.expectHomeTotals(run.expected);
}

export async function sendC(run: UiRun): Promise<void> {
  const { ui, expected } = run;
  const recipient = formatEvmAddress(freshKey().evmAddress);
  await ui.openTab('Send');
  await ui.check('C-Chain');
  // An address no key spends from is refused in words, and nothing can be reviewed.
  await ui.fill('Amount (AVAX)', typedAmount(SEND_C_WEI, 18));
  await ui.fill('To (C-Chain address)', '0x000000000000000000000000000000000000dEaD');
  await ui.find({ text: 'No one can ever spend from this address (a burn address or a built-in contract): anything sent to it is lost for good' });
  expect(await ui.exists({ button: 'Review' })).toBe(false);
  await ui.fill('To (C-Chain address)', recipient);
  await ui.waitText({ testid: 'fee-line' }, /^at most /);
  await ui.click({ button: 'Review' });

  await ui.find({ heading: 'Review' });
  // Shown to the nAVAX; the last wei digit only in the exact value (its name, one click away).
  expect(await ui.textOf({ testid: 'review-amount' })).toBe(`≈ 0.012345678 AVAX (exactly ${amountText(SEND_C_WEI, 18)} AVAX)`);
  expect((await ui.textOf({ testid: 'review-to' }))?.toLowerCase()).toBe(recipient.toLowerCase());
  const maxFee = await ui.amount({ testid: 'review-fee' }, 18);
  expect(await ui.amount({ testid: 'review-total' }, 18)).toBe(SEND_C_WEI + maxFee);
  await ui.screenshot('send-review-c');
  await ui.click({ button: 'Confirm and send' });

  await ui.find({ heading: 'Sent' }, 30_000);
  await ui.waitAccepted('C');
  const feePaid = parseAmount((await ui.fact('Fee paid')).text, 18);
  expect(feePaid).toBeGreaterThan(0n);
  expect(feePaid).toBeLessThanOrEqual(maxFee);
  const hash = (await ui.fact('Transaction hash')).mono;
  expect(hash).toMatch(/^0x[0-9a-f]{64}$/);

  expected.C -= SEND_C_WEI + feePaid;
  await ui.expectHomeTotals(expected);
  const net = await localNetwork();
  expect(await net.client.eth.getBalance(recipient)).toBe(SEND_C_WEI);
  // What the node says this wallet paid: gas used × effective gas price of the receipt.
  const receipt = await net.client.eth.getTransactionReceipt(hash);
  expect(receipt?.status).toBe(1n);
  expect(receipt!.gasUsed * receipt!.effectiveGasPrice!).toBe(feePaid);

  const rows = await activity(ui);
  for (const row of rows) run.log.add('activity', row.text);
  // Rounded for reading; the exact wei amount in its name and one click away.
  expect(rows[0]).toMatchObject({ title: 'Sent', badge: 'Accepted', mid: `C-Chain≈ 0.012345 AVAX (exactly ${amountText(SEND_C_WEI, 18)} AVAX)`, txID: hash });
  // The three moves are there, export and import each, accepted. Their own X outputs (the X→C
  // export's change, the P→X import) are not taken for receipts: only the genesis funding is one.
  const titled = (title: string) => rows.filter((row) => row.title === title);
  for (const chain of ['X', 'C', 'P']) {
    for (const title of [`Exported to ${chain}-Chain`, `Imported from ${chain}-Chain`]) {
      expect(titled(title), title).toHaveLength(1);
      expect(titled(title)[0]!.badge).toBe('Accepted');
    }
    // The import says what arrived (the amount less its fee), as the export says what left.
    expect(titled(`Imported from ${chain}-Chain`)[0]!.mid).toMatch(/-Chain\d[\d.]* AVAX$/);
  }
  expect(titled('Received').length).toBeLessThanOrEqual(1);
  await ui.screenshot('activity');
}

// Moves between chains on the Move screen, each through its review: X→C, C→P and P→X until
// "Imported" with exact totals; an X→P move paused while the node is down that finishes by itself
// once the node is back; and an X→P move whose import is held at the proxy while the background
// is stopped: the same signed import lands once after the restart. And funds someone else exported
// to the wallet, imported through Import now's review.
import { expect } from 'vitest';
import { txId } from '../../../src/core/codec/ids.js';
import { fromApiHex, parseAddress } from '../../../src/core/encoding.js';
import { makeOwners } from '../../../src/core/tx/context.js';
import { buildXExport } from '../../../src/core/tx/x.js';
import { shortenId } from '../../../src/popup/format.js';
import { genesisEngine, localNetwork, WEI_PER_NAVAX } from '../../integration/fixture.js';
import { within } from '../processes.js';
import { amountText, parseAmount, typedAmount } from './amounts.js';
import type { PopupDriver } from './driver.js';
import type { UiRun } from './run.js';
import { bannerState } from './steps-node.js';

type Chain = 'X' | 'P' | 'C';

const MOVE_X_TO_C = 1_500_000_000n; // nAVAX
const MOVE_C_TO_P = 600_000_000n;
const MOVE_P_TO_X = 250_000_000n;
const MOVE_X_TO_P_PAUSED = 300_000_000n;
const MOVE_X_TO_P = 400_000_000n;
const EXPORTED_BY_OTHERS = 200_000_000n;
const TRANSFER = '[data-testid="transfer"]';

/** Runs IN THE PAGE: what the newest move on the Move screen (first in the list) shows. */
function newestTransfer(): { count: number; title: string; amount: string; done: string; failed: string } {
  const text = (e: Element | null | undefined): string => (e?.textContent ?? '').replace(/\s+/g, ' ').trim();
  const all = document.querySelectorAll('[data-testid="transfer"]');
  const t = all[0];
  if (!t) return { count: 0, title: '', amount: '', done: '', failed: '' };
  const done = [...t.querySelectorAll('ol.steps li.done')].at(-1);
  return { count: all.length, title: text(t.querySelector('.tx-top strong')), amount: text(t.querySelector('.tx-top .amount')), done: text(done), failed: text(t.querySelector('.form-error')) };
}

const readNewest = (ui: PopupDriver) => ui.page.evaluate(newestTransfer).catch(() => null);

/** The last step the newest move shows as done ("Export issued", …, "Imported"), or its failure. */
async function moveProgress(ui: PopupDriver): Promise<string> {
  const t = await readNewest(ui);
  return !t ? 'unreadable' : t.failed ? `failed: ${t.failed}` : t.done || 'nothing done';
}

/**
 * Move screen: a move from → to of `amount` nAVAX, through its review; it is then the newest in
 * the list. `atReview`: runs with the review shown, before its Confirm.
 */
async function startMove(run: UiRun, from: Chain, to: Chain, amount: bigint, atReview?: () => Promise<void>): Promise<void> {
  const { ui } = run;
  await ui.openTab('Move');
  await ui.find({ heading: 'Move between chains' });
  await ui.check(`From ${from}`);
  await ui.check(`To ${to}`);
  await ui.fill('Amount (AVAX)', typedAmount(amount, 9));
  // The fees of exactly this amount (no "about"), then the button.
  const arrives = await ui.waitText({ testid: 'move-arrives' }, /^\d[\d,.]* AVAX$/);
  await ui.click({ button: `Move to the ${to}-Chain` });
  // The review: nothing starts before Confirm; what leaves, what arrives (as the form said).
  await ui.find({ heading: 'Review the move' });
  expect(await ui.textOf({ testid: 'move-review-arrives' })).toBe(arrives);
  if (run.movesStarted === 0) {
    await ui.screenshot('move-review');
    await ui.audit('Move review');
  }
  await atReview?.();
  await ui.click({ button: 'Confirm and move' });
  await ui.find({ heading: 'Move between chains' });
  // Counted by the test: the list on screen may still be loading when the screen opens.
  run.movesStarted += 1;
  await expect.poll(async () => (await readNewest(ui))?.count, { timeout: 15_000 }).toBe(run.movesStarted);
  // Newest first.
  expect(await readNewest(ui)).toMatchObject({ title: `${from}-Chain → ${to}-Chain`, amount: `${amountText(amount, 9)} AVAX` });
}

/** Waits until the newest move shows "Imported"; returns the export and import fees it shows. */
async function finishedMove(run: UiRun, what: string, timeoutMs = 90_000): Promise<{ exportFee: bigint; importFee: bigint }> {
  const { ui } = run;
  await expect.poll(() => moveProgress(ui), { message: `the ${what} move completes`, timeout: timeoutMs, interval: 500 }).toBe('Imported');
  const shown = await ui.facts(TRANSFER);
  run.log.add('test', `move ${what}: ${JSON.stringify(shown)}`);
  expect(shown.filter((f) => f.term === 'Import')).toHaveLength(1);
  return { exportFee: parseAmount((await ui.fact('Export', TRANSFER)).muted, 9), importFee: parseAmount((await ui.fact('Import fee', TRANSFER)).text, 9) };
}

async function move(run: UiRun, from: Chain, to: Chain, amount: bigint, atReview?: () => Promise<void>): Promise<{ exportFee: bigint; importFee: bigint }> {
  await startMove(run, from, to, amount, atReview);
  return finishedMove(run, `${from}→${to}`);
}

export async function movesAround(run: UiRun): Promise<void> {
  const { ui, expected } = run;
  const xc = await move(run, 'X', 'C', MOVE_X_TO_C);
  expect(xc.exportFee).toBe(run.xTxFee);
  expect(xc.importFee).toBeGreaterThan(0n);
  await ui.screenshot('move', { testid: 'transfer' });
  expected.X -= MOVE_X_TO_C + xc.exportFee;
  expected.C += (MOVE_X_TO_C - xc.importFee) * WEI_PER_NAVAX;
  await ui.expectHomeTotals(expected);
  // The C-Chain side, on the node: the phrase's C address holds exactly what arrived.
  const net = await localNetwork();
  expect(await net.client.eth.getBalance(run.cAddress)).toBe(expected.C);

  // The C-Chain base fee rises between the review and its Confirm: Confirm says so and starts
  // nothing, and the review shows the fees of now; confirmed again (the fee back down), it goes.
  const cp = await move(run, 'C', 'P', MOVE_C_TO_P, async () => {
    const leaves = await ui.textOf({ testid: 'move-review-leaves' });
    // 25 gwei: far above the test node's own (its fee rounds to 1 nAVAX).
    run.proxy.rewrite('eth_baseFee', () => `0x${(25_000_000_000n).toString(16)}`);
    await ui.click({ button: 'Confirm and move' });
    await ui.find({ text: 'The network fee went up since you reviewed it. Nothing was sent: review it again.' });
    await expect.poll(() => ui.textOf({ testid: 'move-review-leaves' })).not.toBe(leaves);
    run.proxy.rewrite('eth_baseFee', undefined);
  });
  expected.C -= (MOVE_C_TO_P + cp.exportFee) * WEI_PER_NAVAX;
  expected.P += MOVE_C_TO_P - cp.importFee;
  await ui.expectHomeTotals(expected);

  const px = await move(run, 'P', 'X', MOVE_P_TO_X);
  expect(px.importFee).toBe(run.xTxFee);
  expected.P -= MOVE_P_TO_X + px.exportFee;
  expected.X += MOVE_P_TO_X - px.importFee;
  await ui.expectHomeTotals(expected);

  await ui.openTab('Move');
  await expect.poll(async () => (await readNewest(ui))?.count).toBe(run.movesStarted);
  run.log.add('test', `move fees (nAVAX): X→C ${xc.exportFee}+${xc.importFee}, C→P ${cp.exportFee}+${cp.importFee}, P→X ${px.exportFee}+${px.importFee}`);
}

/**
 * An X→P move whose P-Chain import reaches the proxy and goes no further (to the wallet the node
 * hangs); resolves with that import's ID once the move shows it issued.
 */
async function xToPWithImportHeld(run: UiRun, amount: bigint): Promise<string> {
  const { ui, proxy } = run;
  const caught = proxy.holdNext('/ext/bc/P', 'platform.issueTx');
  await startMove(run, 'X', 'P', amount);
  const params = (await within(caught, 60_000, 'the import reaching the node')) as { tx: string };
  const heldImportID = txId(fromApiHex(params.tx));
  // Journaled as signed before it was sent: the move shows the import issued, with that ID.
  await expect.poll(() => moveProgress(ui), { timeout: 10_000 }).toBe('Import issued');
  expect((await ui.fact('Import', TRANSFER)).mono).toBe(shortenId(heldImportID));
  const net = await localNetwork();
  expect((await net.client.platform.getTxStatus(heldImportID)).status, 'the node never saw the import').toBe('Unknown');
  return heldImportID;
}

/** The move just finished imported `importID` once, and the totals follow from its fees. */
async function landedOnce(run: UiRun, importID: string, amount: bigint, fees: { exportFee: bigint; importFee: bigint }): Promise<void> {
  const { ui, expected } = run;
  expect((await ui.fact('Import', TRANSFER)).mono).toBe(shortenId(importID));
  const net = await localNetwork();
  expect((await net.client.platform.getTxStatus(importID)).status).toBe('Committed');
  expect(fees.exportFee).toBe(run.xTxFee);
  expected.X -= amount + fees.exportFee;
  expected.P += amount - fees.importFee;
  await ui.expectHomeTotals(expected);
  // Nothing is left waiting in atomic memory, and nothing was imported twice.
  expect(await ui.exists({ css: 'section[aria-label="Funds waiting to be imported"]' })).toBe(false);
}

export async function pausedWhileNodeDown(run: UiRun): Promise<void> {
  const { ui, proxy } = run;
  const heldImportID = await xToPWithImportHeld(run, MOVE_X_TO_P_PAUSED);
  // The node stops with the import in flight.
  proxy.setMode('down');
  proxy.dropHeld();
  await ui.openTab('Home');
  await ui.click({ button: 'Refresh balances' }, 30_000);
  await expect.poll(() => bannerState(ui), { message: 'the node is said unreachable', timeout: 20_000, interval: 200 }).toBe('unreachable');

  // The move says it waits for the node, since when (once the background has seen its run stop
  // on the node), and that nothing is lost; the import is still the one issued.
  await ui.openTab('Move');
  const paused = { testid: 'transfer-paused', within: TRANSFER };
  await ui.waitText(paused, /^Paused — waiting for the node to answer \(since \S+\)\. The move continues by itself when it does; nothing is lost meanwhile\./, 60_000, 250);
  expect(await ui.read(paused, { attr: 'data-reason' })).toBe('node');
  expect(await moveProgress(ui)).toBe('Import issued');
  expect(await bannerState(ui)).toBe('unreachable');
  await ui.screenshot('move-paused', { testid: 'transfer' });

  // The node is back: nothing is clicked; the background's next pass (its alarm, each minute)
  // sends the same signed import again, and the move finishes.
  proxy.setMode('up');
  const fees = await finishedMove(run, 'X→P paused while the node was down', 150_000);
  expect(await ui.exists(paused)).toBe(false);
  await landedOnce(run, heldImportID, MOVE_X_TO_P_PAUSED, fees);
  expect(await bannerState(ui)).toBeNull();
}

export async function importAcrossBackgroundStop(run: UiRun): Promise<void> {
  const { ui, proxy } = run;
  const heldImportID = await xToPWithImportHeld(run, MOVE_X_TO_P);
  await ui.screenshot('move-interrupted', { testid: 'transfer' });
  const identityCalls = proxy.count('info.getNetworkID');
  const stopped = await run.browser.stopBackground();
  try {
    proxy.dropHeld();
    // Nothing is clicked: the popup's next look at the moves wakes the background, which resumes
    // the journal and sends the journaled import again.
    const fees = await finishedMove(run, 'X→P across a background stop');
    expect(await stopped.ranAgain(), 'the background ran again after the stop').toBe(true);
    // The node's identity is kept in memory only: asking for it again shows a fresh background.
    expect(proxy.count('info.getNetworkID'), 'the new background asked the node who it is').toBeGreaterThan(identityCalls);
    await landedOnce(run, heldImportID, MOVE_X_TO_P, fees);
  } finally {
    await stopped.release();
  }
}

/**
 * Funds someone else exported to the wallet (the genesis key, X-Chain → the wallet's P address)
 * wait in atomic memory: Home lists them; Import now reviews the import (what it takes out, its
 * fee, what arrives) and nothing is imported before Confirm; the totals follow from the fee shown.
 */
export async function importWaitingReviewed(run: UiRun): Promise<void> {
  const { ui, expected } = run;
  const net = await localNetwork();
  const genesis = await genesisEngine();
  const me = makeOwners([parseAddress(`P${run.xAddress.slice(1)}`).bytes]);
  await genesis.issueAndWait(buildXExport({ ctx: net.ctx, pool: await genesis.spendable('X'), changeOwners: genesis.changeOwners, destination: 'P', amount: EXPORTED_BY_OTHERS, to: me }));
  await ui.openTab('Home');
  await ui.click({ button: 'Refresh balances' }, 30_000);
  const section = 'section[aria-label="Funds waiting to be imported"]';
  const amount = `${amountText(EXPORTED_BY_OTHERS, 9)} AVAX`;
  await ui.waitText({ css: `${section} p` }, `${amount} waiting in atomic memory: exported from the X-Chain, not yet imported to the P-Chain.`, 30_000);
  await ui.click({ button: 'Import now' });
  await ui.find({ heading: 'Review the import' });
  const fee = parseAmount(await ui.textOf({ testid: 'import-fees' }), 9);
  expect(fee).toBeGreaterThan(0n);
  expect(await ui.textOf({ testid: 'import-1' })).toBe(`${amount} out of atomic memory; fee ${amountText(fee, 9)} AVAX; arrives ${amountText(EXPORTED_BY_OTHERS - fee, 9)} AVAX in your P-Chain account`);
  await ui.audit('Import review');
  await ui.screenshot('import-review');
  // Nothing is imported before Confirm.
  expect((await net.client.getAllUtxos('P', [`P${run.xAddress.slice(1)}`], { sourceChain: 'X' })).utxos).toHaveLength(1);
  await ui.click({ button: 'Confirm and import' });
  await ui.waitText({ css: `${section} [role="status"]` }, 'Imported in 1 transaction.', 60_000);
  expected.P += EXPORTED_BY_OTHERS - fee;
  await ui.expectHomeTotals(expected);
  expect((await net.client.getAllUtxos('P', [`P${run.xAddress.slice(1)}`], { sourceChain: 'X' })).utxos).toHaveLength(0);
}

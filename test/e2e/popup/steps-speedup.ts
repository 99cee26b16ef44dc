// A stuck C-Chain tx sped up and another cancelled through the popup, in either browser
// (tokens-suite.ts). The stuck tx is made as the integration test makes it: signed with the
// account's own key at a fee cap of 0 (the node's pool holds it, no block includes it), sent raw to
// the node, and written into the wallet's outbox (kept per chains: testNodeOutboxKey), as Outbox.put writes it, from the popup page, as
// if the wallet had sent it (the wallet itself never signs below the node's fee).
import { Transaction } from 'micro-eth-signer';
import { getAddress, type Hex } from 'viem';
import { expect } from 'vitest';
import { outboxEntry, type OutboxEntry } from '../../../src/background/outbox.js';
import { fromHex } from '../../../src/core/bytes.js';
import { PLAIN_TRANSFER_GAS } from '../../../src/core/tx/c.js';
import { GENESIS_KEY, testNodeOutboxKey } from '../../integration/fixture.js';
import { formatEvmAddress } from '../../../src/core/evm-address.js';
import { shortenId } from '../../../src/popup/format.js';
import { parseAmount } from './amounts.js';
import type { PopupDriver } from './driver.js';
import { localCChain, openTokens } from './steps-tokens.js';

type Chain = Awaited<ReturnType<typeof localCChain>>;
type Storage = { storage: { local: { get(k: string[]): Promise<Record<string, unknown>>; set(i: Record<string, unknown>): Promise<void> } } };

/** Runs IN THE PAGE: what Outbox.put does to the stored list (the entry replacing any of its txID, appended). */
async function putInPage({ key, entry }: { key: string; entry: OutboxEntry }): Promise<number> {
  const g = globalThis as unknown as { browser?: Storage; chrome?: Storage };
  const local = (g.browser ?? g.chrome)!.storage.local;
  const stored = (await local.get([key]))[key];
  const all = Array.isArray(stored) ? (stored as OutboxEntry[]) : [];
  const next = [...all.filter((e) => e.txID !== entry.txID), entry];
  await local.set({ [key]: next });
  return next.length;
}

/** A 1-wei send to the genesis address at a fee cap of 0, held by the node's pool and in the wallet's outbox; answers its hash and nonce. */
async function stuckTx(ui: PopupDriver, c: Chain, wallet: string, secret: Uint8Array): Promise<{ hash: string; nonce: bigint }> {
  const status = await ui.call('wallet.status', {});
  const key = await testNodeOutboxKey(status.account!.id);
  const to = formatEvmAddress(GENESIS_KEY.evmAddress);
  const nonce = BigInt(await c.reader.getTransactionCount({ address: wallet as Hex, blockTag: 'pending' }));
  // Not strict: the wallet's own signer (signEvmTx) refuses a fee cap below 1 wei, and the local
  // network's base fee is only a few wei (the replacement is quoted at 3 wei per gas), so only 0 is
  // sure to stay out of every block.
  const signed = Transaction.prepare({ type: 'eip1559', chainId: BigInt(c.chain.id), nonce, to, value: 1n, gasLimit: PLAIN_TRANSFER_GAS, maxFeePerGas: 0n, maxPriorityFeePerGas: 0n }, false).signBy(secret);
  const rawTx = signed.toHex({ includeSignature: true });
  const entry = outboxEntry('C', signed.hash, fromHex(rawTx), { txID: signed.hash, chain: 'C', kind: 'send', status: 'pending', amount: '1', to, createdAt: Date.now() });
  await expect.poll(() => ui.page.evaluate(putInPage, { key, entry }).catch(() => 0), { message: 'the outbox entry is written' }).toBeGreaterThan(0);
  expect(await c.reader.sendRawTransaction({ serializedTransaction: rawTx as Hex })).toBe(signed.hash);
  return { hash: signed.hash, nonce };
}

/** Tokens lists the waiting tx; its Speed up / Cancel → review (old fee vs new, same nonce; axe) → confirm → accepted; answers the replacement's hash. */
async function replaceThroughPopup(ui: PopupDriver, stuck: { hash: string; nonce: bigint }, action: 'Speed up' | 'Cancel'): Promise<{ hash: string; reviewedMax: bigint }> {
  await openTokens(ui);
  await ui.find({ heading: 'C-Chain transactions waiting' }, 30_000);
  const row = '[data-testid="pending-evm"]';
  await ui.waitText({ css: `${row} .muted.break` }, new RegExp(`· nonce ${stuck.nonce}$`), 30_000);
  await ui.click({ buttonStarting: `${action} the transaction`, within: row });
  const verb = action.toLowerCase();
  await ui.find({ heading: `Review: ${verb}` }, 30_000);
  expect((await ui.fact('Replaces')).text).toBe(stuck.hash);
  expect((await ui.fact('Nonce')).text).toBe(`${stuck.nonce} (the same: only one of the two can run)`);
  expect((await ui.fact('Old fee')).text).toBe('at most 0 AVAX');
  // "at most 0.000001 AVAX (exactly 0.000000000000063 AVAX) (likely …; gas limit 21,000)": tiny fees are shown rounded up, with the exact figure.
  const newFee = (await ui.fact('New fee')).text;
  const shown = /^at most ([\d.]+ AVAX)(?: \(exactly ([\d.]+ AVAX)\))? \(likely .*; gas limit 21,000\)$/.exec(newFee);
  expect(shown, newFee).not.toBeNull();
  const reviewedMax = parseAmount(shown![2] ?? shown![1]!, 18);
  expect(reviewedMax).toBeGreaterThan(0n);
  await ui.audit(`${action} review`);
  await ui.screenshot(`${verb.replace(' ', '-')}-review`);
  // Named by its nonce and hash: a sped-up tx and its original may both be under review.
  await ui.click({ button: `Confirm: ${verb} (nonce ${stuck.nonce}, ${shortenId(stuck.hash)})` });
  await ui.waitAccepted('C', row);
  const { items } = await ui.call('activity.list', {});
  const replacement = items.find((i) => i.replaces === stuck.hash);
  expect(replacement, `the ${verb} in the wallet's activity`).toBeDefined();
  return { hash: replacement!.txID, reviewedMax };
}

/** The replacement `hash` was mined at the stuck tx's nonce, signed for no more than the review said, and the stuck one never ran. */
async function minedAtNonce(c: Chain, { hash, reviewedMax }: { hash: string; reviewedMax: bigint }, stuck: { hash: string; nonce: bigint }) {
  const receipt = await c.executed(hash as Hex);
  const tx = await c.reader.getTransaction({ hash: hash as Hex });
  expect(BigInt(tx.nonce)).toBe(stuck.nonce);
  expect(tx.gas * tx.maxFeePerGas!).toBeLessThanOrEqual(reviewedMax);
  expect(hash).not.toBe(stuck.hash);
  await expect(c.reader.getTransactionReceipt({ hash: stuck.hash as Hex })).rejects.toThrow();
  return { receipt, tx };
}

/** Runs IN THE PAGE: every Activity item's tx ID, badge and Replacement fact. */
function activityRowsInPage(): { txID: string; badge: string; replacement: string }[] {
  const text = (e: Element | null | undefined): string => (e?.textContent ?? '').replace(/\s+/g, ' ').trim();
  return [...document.querySelectorAll('[data-testid="activity-item"]')].map((li) => {
    const dt = [...li.querySelectorAll('dt')].find((d) => text(d) === 'Replacement');
    return { txID: text(li.querySelector('.id-line .mono')), badge: text(li.querySelector('.badge')), replacement: text(dt?.nextElementSibling) };
  });
}

/** Activity, after the wallet has asked the node again: the stuck tx failed as replaced, its replacement accepted. */
async function activityShowsReplaced(ui: PopupDriver, stuck: string, replacement: string): Promise<void> {
  await ui.call('balances.refresh', {});
  await ui.call('balances.refresh', {});
  await ui.openTab('Activity');
  await expect
    .poll(async () => (await ui.page.evaluate(activityRowsInPage).catch(() => [])).find((r) => r.txID === stuck), { message: 'Activity shows the stuck tx as replaced', timeout: 30_000 })
    .toEqual({ txID: stuck, badge: 'Failed', replacement: 'Never ran: a speed-up or cancel with the same nonce took its place' });
  expect((await ui.page.evaluate(activityRowsInPage)).find((r) => r.txID === replacement)?.badge).toBe('Accepted');
}

/**
 * A stuck tx sped up through the popup (review: same nonce, old fee 0 against the new one; axe),
 * accepted; on the node its nonce was mined as the speed-up (same recipient and value), and
 * Activity shows the old one replaced. Then a second stuck tx cancelled the same way: its nonce
 * mined as 0 AVAX to the wallet itself.
 */
export async function speedUpAndCancel(ui: PopupDriver, nodeUrl: string, wallet: string, secret: Uint8Array): Promise<void> {
  const c = await localCChain(nodeUrl);
  const genesis = getAddress(formatEvmAddress(GENESIS_KEY.evmAddress));

  const first = await stuckTx(ui, c, wallet, secret);
  const faster = await replaceThroughPopup(ui, first, 'Speed up');
  const sped = await minedAtNonce(c, faster, first);
  expect(sped.tx.to && getAddress(sped.tx.to)).toBe(genesis);
  expect(sped.tx.value).toBe(1n);
  await activityShowsReplaced(ui, first.hash, faster.hash);

  const second = await stuckTx(ui, c, wallet, secret);
  expect(second.nonce).toBe(first.nonce + 1n);
  const cancel = await replaceThroughPopup(ui, second, 'Cancel');
  const cancelled = await minedAtNonce(c, cancel, second);
  expect(cancelled.tx.to && getAddress(cancelled.tx.to)).toBe(getAddress(wallet));
  expect(cancelled.tx.value).toBe(0n);
  await activityShowsReplaced(ui, second.hash, cancel.hash);
}

// What the staking UI tests share (chromium-staking, firefox-staking): the amounts, funding the new
// wallet's P address straight from the genesis key, and the checks made on the node and the CSV.
import { expect, inject } from 'vitest';
import { rewardValidatorTxId } from '../../src/core/codec/index.js';
import { cb58Encode, parseAddress } from '../../src/core/encoding.js';
import { makeOwners } from '../../src/core/tx/context.js';
import type { AccountView } from '../../src/shared/messages.js';
import { AVAX, genesisEngine, localNetwork } from '../integration/fixture.js';
import { fundedWallet } from '../integration/wallet-fixture.js';
import { shortNode } from '../../src/popup/screens/StakeValidators.js';
import type { Call } from './harness.js';
import { amountText, parseAmount, typedAmount } from './popup/amounts.js';
import type { PopupDriver } from './popup/driver.js';
import { GENESIS_VALIDATOR } from './staking.js';

export { GENESIS_VALIDATOR };
/** The name of the genesis validator's "Delegate to …" button. */
export const DELEGATE_BUTTON = `Delegate to ${shortNode(GENESIS_VALIDATOR)}`;
/** What the new wallet's P address gets, nAVAX: room for the delegation and its fee. */
export const P_FUNDING = 30n * AVAX + 123_456_789n;
/** The delegation: the test network's minimum, 25 AVAX (typed as "25"). */
export const DELEGATION = 25n * AVAX;
/** Below the minimum: refused in words, nothing sent. */
export const TOO_LITTLE = '1';
export const TOO_LITTLE_SENTENCE = 'A delegation needs at least 25 AVAX; this one is 1 AVAX.';

/** The running node's delegation fee once it validates: 3%, in millionths. */
export const NODE_DELEGATION_FEE = 30_000;
/** How long the running node validates: past the shortest delegation (1 min 20 s) of every file of the run. */
const NODE_VALIDATION_SECONDS = 60 * 60;
/** A validator already there is used while this much of its period is left (a delegation, its reward). */
const ROOM_NEEDED_SECONDS = 5 * 60;

/**
 * Makes the running node a validator (from a second wallet, in this process) and returns its NodeID.
 * The genesis validators are not connected to this one-node network, so their uptime is too low for
 * any reward; only the running node, connected to itself, pays its delegators.
 */
export async function runningNodeValidates(): Promise<string> {
  const { wallet } = await fundedWallet({ p: 2_001n * AVAX });
  const key = await wallet.staking.stakingNodeKey({ url: inject('nodeUrl') });
  const { chainTime } = await wallet.staking.stakingParams();
  // The suite's node is shared by the test files: one before this may have made it a validator,
  // for an hour, so its period still has room for this file's delegation and its reward.
  const listed = await wallet.staking.stakingValidators({ filter: { nodeID: key.nodeID } });
  const already = listed.validators.find((v) => v.nodeID === key.nodeID);
  if (already && already.end - chainTime > ROOM_NEEDED_SECONDS) return key.nodeID;
  const params = { ...key, amount: (2_000n * AVAX).toString(), end: chainTime + NODE_VALIDATION_SECONDS, delegationFee: NODE_DELEGATION_FEE };
  const review = await wallet.staking.stakingEstimateValidation(params);
  expect((await wallet.staking.stakingValidate({ ...params, maxFee: review.fee })).status).toBe('accepted');
  return key.nodeID;
}

/** Sends P_FUNDING on the P-Chain from the genesis key to the account's P address. */
export async function fundP(account: AccountView): Promise<void> {
  const genesis = await genesisEngine();
  await genesis.issueAndWait(await genesis.buildPSend(P_FUNDING, makeOwners([parseAddress(account.pAddress).bytes])));
}

/** The wallet issued no staking tx (activity has no delegation). */
export async function expectNoStakingSent(call: Call): Promise<void> {
  const { items } = await call('activity.list', {});
  expect(items.filter((i) => i.kind === 'delegate' || i.kind === 'validate')).toEqual([]);
}

/** The delegation the wallet lists is committed on the node, to `nodeID`, for DELEGATION. */
export async function expectDelegationCommitted(call: Call, nodeID: string): Promise<string> {
  const mine = await call('staking.mine', {});
  const stake = mine.stakes.find((s) => s.kind === 'delegation');
  expect(stake).toMatchObject({ nodeID, amount: DELEGATION.toString(), byWallet: true });
  const { client } = await localNetwork();
  expect((await client.platform.getTxStatus(stake!.txID)).status).toBe('Committed');
  return stake!.txID;
}

/** The exported CSV: its header, and the delegation's line (kind, exact amount). */
export function expectCsv(csv: string, delegationTxID: string): void {
  const lines = csv.split('\r\n');
  expect(lines[0]).toBe('date,txID,kind,amount,asset,fee');
  const line = lines.find((l) => l.includes(delegationTxID));
  expect(line, 'the delegation in the CSV').toMatch(/,delegate,25,AVAX,/);
}

/** How long the reward may take to arrive: the period (≈ 80 s from the review) and the node's decision. */
export const REWARD_TIMEOUT_MS = 180_000;

/**
 * The shared last step, once the delegation of DELEGATION (reviewed fee `fee`) was committed: the
 * popup's My stakes, reloaded until the period has ended and the node decided, shows it finished
 * with its reward paid, as much as the node's reward UTXO holds (read from the node); Activity lists
 * the "Staking reward"; Home's P total is P_FUNDING less the fee plus the reward; the CSV has the
 * reward's row. Returns the reward in nAVAX.
 */
export async function expectRewardArrived(ui: PopupDriver, p: { account: AccountView; delegationTxID: string; nodeID: string; fee: bigint }): Promise<bigint> {
  await ui.openTab('Home');
  await ui.click({ action: 'Stake' });
  await ui.check('My stakes');
  await ui.find({ heading: 'My stakes' });
  const stakeFacts = async () => Object.fromEntries((await ui.facts('[data-testid="my-stake"]')).map((f) => [f.term, f.text]));
  await expect
    .poll(
      async () => {
        await ui.click({ button: 'Reload' }, 30_000);
        await ui.find({ button: 'Reload' }, 30_000);
        return { state: await ui.textOf({ css: '[data-testid="my-stake"] .badge' }), reward: (await stakeFacts())['Reward'] ?? null };
      },
      { message: 'My stakes shows the delegation finished and its reward settled', timeout: REWARD_TIMEOUT_MS, interval: 2_000 },
    )
    .toEqual({ state: 'Finished', reward: 'paid (below)' });

  // What the node paid, read from the node: the reward UTXOs of the delegation, and the same UTXO
  // among the account's P UTXOs.
  const { client } = await localNetwork();
  const rewardUtxos = await client.platform.getRewardUtxos(p.delegationTxID);
  expect(rewardUtxos).toHaveLength(1);
  const paidOutput = rewardUtxos[0]!.output;
  if (paidOutput.kind !== 'TransferOutput') throw new Error(`the reward UTXO is a ${paidOutput.kind}`);
  const paid = paidOutput.amount;
  expect(paid).toBeGreaterThan(0n);
  const mineOnNode = (await client.getAllUtxos('P', [p.account.pAddress])).utxos;
  expect(mineOnNode.some((u) => cb58Encode(u.txID) === p.delegationTxID && u.output.kind === 'TransferOutput' && u.output.amount === paid), 'the reward UTXO is the account’s').toBe(true);

  // My stakes: the reward row, the totals.
  const rewardRow = await ui.textOf({ testid: 'reward' });
  expect(rewardRow).toMatch(/^Delegation reward/);
  expect(rewardRow!.endsWith(` · ${shortNode(p.nodeID)}`), `the reward row names the node: ${rewardRow}`).toBe(true);
  // The shown amount may be rounded; its exact value comes last ("… (exactly 0.000004467 AVAX)").
  expect(parseAmount((await ui.read({ testid: 'reward' }, { child: '.tx-top :is(.amount-text, .amount-toggle)' })) as string, 9)).toBe(paid);
  const totals = Object.fromEntries((await ui.facts('[data-testid="stake-totals"]')).map((f) => [f.term, f.text]));
  expect(parseAmount(totals['Rewards paid']!, 9)).toBe(paid);
  expect(parseAmount(totals['Staked now']!, 9)).toBe(0n);

  // The CSV of all activity holds the reward's row, exact.
  await ui.click({ button: 'Export all activity (CSV)' });
  await ui.find({ testid: 'csv-link' });
  const href = (await ui.read({ testid: 'csv-link' }, { attr: 'href' })) as string;
  const csv = await ui.page.evaluate(async (u) => (await fetch(u)).text(), href);
  const rewardTxID = rewardValidatorTxId(p.delegationTxID);
  expect(csv.split('\r\n').find((l) => l.includes(rewardTxID)), 'the reward in the CSV').toMatch(new RegExp(`^\\d{4}-\\d{2}-\\d{2}T[^,]+,${rewardTxID},staking-reward,${typedAmount(paid, 9).replace('.', '\\.')},AVAX,$`));

  // Activity: the "Staking reward" item with that amount (read from the amount alone: the line
  // also names the validator, whose ID holds digits).
  await ui.openTab('Activity');
  await ui.find({ testid: 'activity-item' });
  const items = await ui.page.evaluate(() => [...document.querySelectorAll('[data-testid="activity-item"]')].map((e) => (e.querySelector('.tx-top strong')?.textContent ?? '') + '|' + (e.querySelector('.tx-mid .amount')?.textContent ?? '')));
  const reward = items.filter((t) => t.startsWith('Staking reward|'));
  expect(reward, 'one "Staking reward" in Activity').toHaveLength(1);
  expect(parseAmount(reward[0]!, 9), `Activity's reward (${amountText(paid, 9)} AVAX)`).toBe(paid);

  // Home: the stake back, the reward in, the fee gone.
  await ui.openTab('Home');
  await ui.click({ button: 'Refresh balances' }, 30_000);
  await ui.waitText({ testid: 'refresh-state' }, /^Updated /, 30_000);
  await expect.poll(() => ui.amount({ testid: 'total-P' }, 9), { message: 'Home’s P total: funding − fee + reward', timeout: 30_000 }).toBe(P_FUNDING - p.fee + paid);
  return paid;
}

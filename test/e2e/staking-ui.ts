// What the staking UI tests share (chromium-staking, firefox-staking): the amounts, funding the new
// wallet's P address straight from the genesis key, and the checks made on the node and the CSV;
// the auto-renewed validator of the wallet's second account whose auto-renewal the popup changes.
import { expect, inject } from 'vitest';
import { decodeSignedTx, type PTx, rewardValidatorTxId } from '../../src/core/codec/index.js';
import { avaxBurned } from '../../src/core/fees.js';
import { cb58Encode, formatNodeId, parseAddress } from '../../src/core/encoding.js';
import { makeOwners } from '../../src/core/tx/context.js';
import type { AccountView } from '../../src/shared/messages.js';
import { AVAX, genesisEngine, localNetwork } from '../integration/fixture.js';
import { fundedWallet } from '../integration/wallet-fixture.js';
import { freshBlsKey, freshNodeId, hex0x, nodeTxBytes, pRpc } from '../integration/pvm-kit.js';
import { unixText } from '../../src/popup/staking.js';
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
/** What My stakes says it cannot list (the node names a validator's delegators only one validator at a time). */
export const STAKES_NOT_FOUND =
  'Delegations made with another wallet (your phrase on another computer, say) are not listed, nor counted as staked. Their stake comes back to your P-Chain balance when they end.';

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

/** Sends `amount` (P_FUNDING unless given) on the P-Chain from the genesis key to the account's P address. */
export async function fundP(account: AccountView, amount = P_FUNDING): Promise<void> {
  const genesis = await genesisEngine();
  await genesis.issueAndWait(await genesis.buildPSend(amount, makeOwners([parseAddress(account.pAddress).bytes])));
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

// ---- The auto-renewed validator whose auto-renewal the popup changes ----------------------------
// It belongs to a second account of the popup's wallet: the delegation's account keeps exactly what
// the delegation steps left (its P total, its one stake, its one reward), which the reward step checks.

/** The second account's name: the owner of the auto-renewed validator. */
export const VALIDATOR_ACCOUNT = 'Validator';
/** The first cycle: an hour, so it runs through the file (a new period applies from the next cycle). */
export const FIRST_CYCLE_SECONDS = 60 * 60;
/** Half of each cycle's rewards restaked at first, in millionths. */
export const FIRST_RESTAKE_SHARES = 500_000;
/** What the popup changes it to: a quarter restaked (typed "25"), cycles of 7 days from the next one. */
export const NEW_RESTAKE_PERCENT = '25';
export const NEW_RESTAKE_SHARES = 250_000;
export const NEW_PERIOD_LABEL = '7 days';
export const NEW_PERIOD_SECONDS = 7 * 86_400;

/** The words My stakes and the review show for the settings before and after the change. */
export const AUTO_RENEW_WORDS = {
  rowBefore: '50% of this cycle’s rewards restaked when it ends; next cycles 1 hour',
  periodOptionBefore: '1 hour (as now)',
  restakeFieldBefore: '50',
  now: 'cycles of 1 hour, 50% of rewards restaked',
  restakedWhenCycleEnds: '25% of this cycle’s rewards, and of each later cycle’s',
  fromNextCycle: 'cycles of 7 days',
  rowAfter: '25% of this cycle’s rewards restaked when it ends; next cycles 7 days',
};

export interface AutoRenewedValidator {
  txID: string;
  nodeID: string;
  stake: bigint;
  /** The end of the first cycle, on the node (Unix seconds), and as the popup writes it. */
  cycleEnd: number;
  cycleEndText: string;
}

/**
 * Adds the wallet's second account (VALIDATOR_ACCOUNT) through the protocol and funds its P address
 * from the genesis key with the network's minimum validator stake and 1 AVAX for the fees.
 */
export async function addValidatorAccount(call: Call): Promise<{ account: AccountView; stake: bigint }> {
  const account = await call('accounts.add', { name: VALIDATOR_ACCOUNT });
  const stake = BigInt((await call('staking.params', {})).minValidatorStake);
  expect(stake).toBeGreaterThan(0n);
  await fundP(account, stake + AVAX);
  return { account, stake };
}

/** What the node says of a validator now: its tx, the end of its cycle, its auto-renew settings. */
async function validatorOnNode(nodeID: string): Promise<{ txID: string; endTime: string; nextPeriod: string; autoCompoundRewardShares: string } | undefined> {
  const { validators } = await pRpc<{ validators: { txID: string; endTime: string; nextPeriod: string; autoCompoundRewardShares: string }[] }>('platform.getCurrentValidators', { nodeIDs: [nodeID] });
  return validators[0];
}

/**
 * With `account` selected: an auto-renewed validation (FIRST_CYCLE_SECONDS, FIRST_RESTAKE_SHARES)
 * of `stake` for a fresh NodeID with a fresh BLS key and proof of possession, reviewed and sent
 * through the background's protocol (staking.estimateValidation, staking.validate), followed until
 * the node committed it and lists it with those settings.
 */
export async function addAutoRenewedValidation(call: Call, account: AccountView, stake: bigint): Promise<AutoRenewedValidator> {
  const bls = freshBlsKey();
  const params = {
    nodeID: formatNodeId(freshNodeId()),
    publicKey: hex0x(bls.publicKey),
    proofOfPossession: hex0x(bls.proofOfPossession),
    amount: stake.toString(),
    delegationFee: 30_000,
    autoRenew: { period: FIRST_CYCLE_SECONDS, restakeShares: FIRST_RESTAKE_SHARES },
  };
  // Sent as the popup sends it: bound to the account and network it was reviewed on.
  const status = await call('wallet.status', {});
  expect(status.account?.id, 'the second account is selected').toBe(account.id);
  const selection = { accountId: account.id, networkId: status.network.id };
  const review = await call('staking.estimateValidation', params);
  expect(review, 'the validation is paid from the second account').toMatchObject({ from: account.pAddress, amount: params.amount, autoRenew: params.autoRenew });
  expect(review.authority).toEqual({ addresses: [account.pAddress], threshold: 1, yours: true });
  const sent = await call('staking.validate', { ...params, maxFee: review.fee }, selection);
  const { client } = await localNetwork();
  await expect.poll(async () => (await client.platform.getTxStatus(sent.txID)).status, { message: 'the node commits the auto-renewed validation', timeout: 60_000, interval: 500 }).toBe('Committed');
  const onNode = await validatorOnNode(params.nodeID);
  expect(onNode).toMatchObject({ txID: sent.txID, nextPeriod: String(FIRST_CYCLE_SECONDS), autoCompoundRewardShares: String(FIRST_RESTAKE_SHARES) });
  const cycleEnd = Number(onNode!.endTime);
  return { txID: sent.txID, nodeID: params.nodeID, stake, cycleEnd, cycleEndText: unixText(cycleEnd) };
}

/** The node holds the new settings: NEW_PERIOD_SECONDS from the next cycle, NEW_RESTAKE_SHARES, the same cycle end. */
export async function expectNewAutoRenewOnNode(v: AutoRenewedValidator): Promise<void> {
  expect(await validatorOnNode(v.nodeID)).toMatchObject({ txID: v.txID, endTime: String(v.cycleEnd), nextPeriod: String(NEW_PERIOD_SECONDS), autoCompoundRewardShares: String(NEW_RESTAKE_SHARES) });
}

/**
 * The change the popup confirmed, as Activity and the node have it: one 'staking-config' item of
 * that node, accepted, with the reviewed fee; on the node a SetAutoRenewedValidatorConfigTx (type
 * 41) of the validator's tx with the new settings that burned exactly that fee. Returns its txID.
 */
export async function expectAutoRenewChangeOnNode(call: Call, v: AutoRenewedValidator, fee: bigint): Promise<string> {
  const { items } = await call('activity.list', {});
  const changes = items.filter((i) => i.kind === 'staking-config' && i.nodeID === v.nodeID);
  expect(changes, 'one auto-renewal change in Activity').toHaveLength(1);
  expect(changes[0]).toMatchObject({ chain: 'P', status: 'accepted', fee: fee.toString() });
  const txID = changes[0]!.txID;
  const { ctx } = await localNetwork();
  const tx = decodeSignedTx(await nodeTxBytes(txID), 'pvm').unsigned as PTx;
  if (tx.kind !== 'SetAutoRenewedValidatorConfigTx') throw new Error(`the change is a ${tx.kind} on the node`);
  expect({ of: cb58Encode(tx.txID), period: tx.period, shares: tx.autoCompoundRewardShares }).toEqual({ of: v.txID, period: BigInt(NEW_PERIOD_SECONDS), shares: NEW_RESTAKE_SHARES });
  expect(avaxBurned(tx, ctx.avaxAssetID), 'the fee burned is the reviewed one').toBe(fee);
  return txID;
}

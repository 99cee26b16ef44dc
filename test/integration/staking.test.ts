// Staking through the wallet's own service (staking.*) on the Helicon test node, whose staking
// minimums are 20 s: the node itself becomes an auto-renewed validator (its NodeID and BLS proof of
// possession asked of its info API by the background), its auto-renew settings change and then stop
// it; a second wallet delegates to it; both see it in the validator list and in their stakes; the
// periods end, the stakes come back, and the rewards arrive where the txs said, as much as the node
// paid, in Activity and in the CSV. A fixed-period validation of a fresh NodeID ends unrewarded. Every
// rule violation is refused in words before anything is signed, and nothing reaches the node.
import { inject } from 'vitest';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Wallet } from '../../src/background/services/index.js';
import { decodeSignedTx, rewardAutoRenewedValidatorTxId, rewardValidatorTxId, type PTx } from '../../src/core/codec/index.js';
import { cb58Encode, formatNodeId } from '../../src/core/encoding.js';
import { WalletError } from '../../src/core/errors.js';
import { avaxBurned } from '../../src/core/fees.js';
import type { AccountView, StakingSent } from '../../src/shared/messages.js';
import { AVAX, localNetwork } from './fixture.js';
import { freshBlsKey, freshNodeId, hex0x, nodeRpc, nodeTxBytes, nowOnP, pChainTime, pRpc } from './pvm-kit.js';
import { fundedWallet } from './wallet-fixture.js';

/** The node's auto-renewed cycle: room for two config changes and a 20 s delegation inside it. */
const CYCLE = 40;
/** A delegation lasts this long (the test network's minimum is 20 s). */
const DELEGATION = 22;

interface Party {
  wallet: Wallet;
  account: AccountView;
}

async function refusedWith(run: Promise<unknown>, field: string, message: string | RegExp): Promise<void> {
  const e = await run.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e, `refused: ${String(message)}`).toBeInstanceOf(WalletError);
  expect((e as WalletError).code).toBe('staking-rule');
  expect((e as WalletError & { field: string }).field).toBe(field);
  if (typeof message === 'string') expect((e as Error).message).toBe(message);
  else expect((e as Error).message).toMatch(message);
}

async function pSpendable(p: Party): Promise<bigint> {
  const { identity } = await localNetwork();
  const view = await p.wallet.balances.balancesRefresh();
  return BigInt(view.balances.find((b) => b.chain === 'P' && b.assetID === identity.avaxAssetID)?.spendable ?? '0');
}

/** Nothing was signed or sent: no staking item in Activity, the same P balance. */
async function expectNothingSent(p: Party, balance: bigint): Promise<void> {
  const items = (await p.wallet.balances.activityList()).items;
  expect(items.filter((i) => i.kind === 'delegate' || i.kind === 'validate' || i.kind === 'staking-config')).toEqual([]);
  expect(await pSpendable(p)).toBe(balance);
}

/** The fee the review showed is what the tx committed on the node burns. */
async function expectBurned(sent: StakingSent, reviewedFee: string): Promise<PTx> {
  const { ctx } = await localNetwork();
  expect(sent.status).toBe('accepted');
  expect(sent.fee).toBe(reviewedFee);
  const tx = decodeSignedTx(await nodeTxBytes(sent.txID), 'pvm').unsigned as PTx;
  expect(avaxBurned(tx, ctx.avaxAssetID)).toBe(BigInt(reviewedFee));
  return tx;
}

async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const got = await check();
    if (got !== undefined) return got;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 1_000));
  }
}

type RawUtxoList = { utxos: string[] };
/** What the node says a reward tx paid: the amounts of platform.getRewardUTXOs, read raw. */
async function nodeRewardAmounts(txID: string): Promise<bigint[]> {
  const { client } = await localNetwork();
  const raw = await pRpc<RawUtxoList>('platform.getRewardUTXOs', { txID, encoding: 'hex' });
  expect(raw.utxos.length).toBeGreaterThan(0);
  return (await client.platform.getRewardUtxos(txID)).map((u) => (u.output.kind === 'TransferOutput' ? u.output.amount : 0n));
}

describe('staking through the wallet service on the Helicon node', () => {
  let validator: Party;
  let delegator: Party;
  let ownNode: { nodeID: string; publicKey: string; proofOfPossession: string };
  let autoRenewedTxID: string;
  let cycleEnd: number;
  let delegationTxID: string;
  let delegationEnd: number;
  let delegationFee: bigint;
  /** The delegation's reward as My stakes showed it while active. */
  let expectedReward: string;
  let delegatorBalance: bigint;
  let plainTxID: string;

  beforeAll(async () => {
    // One after the other: both are paid from the genesis key's UTXOs.
    validator = await fundedWallet({ p: 4_020n * AVAX });
    delegator = await fundedWallet({ p: 60n * AVAX });
    ownNode = await nodeRpc<{ nodeID: string; nodePOP: { publicKey: string; proofOfPossession: string } }>('/ext/info', 'info.getNodeID').then((r) => ({ nodeID: r.nodeID, ...r.nodePOP }));
  });

  it('reads the network’s rules: minimum stakes from the node, the 20 s minimums the test node runs with', async () => {
    const params = await validator.wallet.staking.stakingParams();
    expect(params).toMatchObject({ minValidatorStake: (2_000n * AVAX).toString(), minDelegatorStake: (25n * AVAX).toString(), minDelegationFee: 20_000, minDelegationSeconds: 20, minValidationSeconds: 20, autoRenew: true, maxWeightFactor: 5, uptimeRequirement: 90 });
    expect(Math.abs(params.chainTime - Number(await nowOnP()))).toBeLessThan(5);
  });

  it('adds the node itself as an auto-renewed validator: its key from its info API, every rule checked first, the reviewed fee burned', async () => {
    const key = await validator.wallet.staking.stakingNodeKey({ url: inject('nodeUrl') });
    expect(key).toEqual({ nodeID: ownNode.nodeID, publicKey: ownNode.publicKey.toLowerCase(), proofOfPossession: ownNode.proofOfPossession.toLowerCase() });
    const balance = await pSpendable(validator);
    const base = { ...key, amount: (2_000n * AVAX).toString(), delegationFee: 30_000, autoRenew: { period: CYCLE, restakeShares: 500_000 } };
    const staking = validator.wallet.staking;
    await refusedWith(staking.stakingEstimateValidation({ ...base, amount: (1_999n * AVAX).toString() }), 'amount', 'A validator needs a stake of at least 2,000 AVAX; this one is 1,999 AVAX.');
    await refusedWith(staking.stakingValidate({ ...base, delegationFee: 19_999, maxFee: '1000000' }), 'delegationFee', "The delegation fee must be at least 2%; 1.9999% is below the network's minimum.");
    await refusedWith(staking.stakingValidate({ ...base, autoRenew: { period: 10, restakeShares: 0 }, maxFee: '1000000' }), 'autoRenew.period', /^A cycle must last at least 20 seconds; this one would last 10 seconds/);
    await expectNothingSent(validator, balance);

    const review = await staking.stakingEstimateValidation(base);
    expect(review).toMatchObject({ nodeID: ownNode.nodeID, amount: base.amount, from: validator.account.pAddress, delegationFee: 30_000, autoRenew: base.autoRenew });
    expect(review.end - review.start).toBe(CYCLE);
    for (const owner of [review.rewardOwner, review.delegationFeeOwner, review.authority!]) expect(owner).toEqual({ addresses: [validator.account.pAddress], threshold: 1, yours: true });
    expect(review.arrives).toEqual([
      { what: 'stake', amount: base.amount, estimated: false, at: null, to: review.rewardOwner },
      { what: 'reward', amount: expect.stringMatching(/^[1-9]\d*$/), estimated: true, at: review.end, to: review.rewardOwner },
    ]);
    // Half of each cycle's reward is restaked: half of it is paid out.
    expect(BigInt(review.arrives[1]!.amount)).toBe(BigInt(review.estimatedReward) - BigInt(review.estimatedReward) / 2n);

    const sentFrom = Math.floor(Date.now() / 1000);
    const sent = await staking.stakingValidate({ ...base, maxFee: review.fee });
    const tx = await expectBurned(sent, review.fee);
    expect(tx.kind).toBe('AddAutoRenewedValidatorTx');
    autoRenewedTxID = sent.txID;
    const [v] = (await pRpc<{ validators: { txID: string; endTime: string; startTime: string; nextPeriod: string; potentialReward: string }[] }>('platform.getCurrentValidators', { nodeIDs: [ownNode.nodeID] })).validators;
    expect(v).toMatchObject({ txID: sent.txID, nextPeriod: String(CYCLE), autoCompoundRewardShares: '500000' });
    cycleEnd = Number(v!.endTime);
    // The estimate is the node's own formula; the supply moved a little since.
    expect(Number(BigInt(v!.potentialReward) - BigInt(review.estimatedReward))).toBeLessThan(Number(BigInt(review.estimatedReward) / 1000n) + 2);
    const item = (await validator.wallet.balances.activityList()).items[0]!;
    expect(item).toMatchObject({ txID: sent.txID, kind: 'validate', status: 'accepted', nodeID: ownNode.nodeID, amount: base.amount, fee: review.fee });
    // Never sent again (to a node that lost it) once its first cycle would end past the reviewed one by more than the 5 s margin of this network.
    expect(item.sendBefore! - 5).toBeGreaterThanOrEqual(sentFrom);
    expect(item.sendBefore! - 5).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));

    await refusedWith(staking.stakingEstimateValidation(base), 'nodeID', 'That node is already validating the Primary Network: a node can be added only once at a time.');
  });

  it('changes the auto-renew settings (the share for this cycle’s rewards, the length from the next cycle), then stops it at the end of this one', async () => {
    const staking = validator.wallet.staking;
    await refusedWith(staking.stakingEstimateAutoRenew({ txID: autoRenewedTxID, period: 5, restakeShares: 0 }), 'period', /^A cycle must last at least 20 seconds/);
    const change = await staking.stakingEstimateAutoRenew({ txID: autoRenewedTxID, period: 30, restakeShares: 250_000 });
    expect(change).toMatchObject({ nodeID: ownNode.nodeID, current: { period: CYCLE, restakeShares: 500_000 }, next: { period: 30, restakeShares: 250_000 }, takesEffect: cycleEnd, authority: { addresses: [validator.account.pAddress], yours: true }, from: validator.account.pAddress });
    const changed = await staking.stakingSetAutoRenew({ txID: autoRenewedTxID, period: 30, restakeShares: 250_000, takesEffect: change.takesEffect, maxFee: change.fee });
    await expectBurned(changed, change.fee);
    // Never sent again once its cycle is about to end (a quarter of the 20 s shortest cycle here).
    expect((await validator.wallet.balances.activityList()).items.find((i) => i.txID === changed.txID)).toMatchObject({ kind: 'staking-config', sendBefore: change.takesEffect - 5 });
    expect((await pRpc<{ validators: unknown[] }>('platform.getCurrentValidators', { nodeIDs: [ownNode.nodeID] })).validators).toEqual([expect.objectContaining({ nextPeriod: '30', autoCompoundRewardShares: '250000' })]);

    // Stopped, it can still be resumed while the current cycle runs.
    const pause = await staking.stakingEstimateAutoRenew({ txID: autoRenewedTxID, period: 0, restakeShares: 0 });
    await expectBurned(await staking.stakingSetAutoRenew({ txID: autoRenewedTxID, period: 0, restakeShares: 0, takesEffect: pause.takesEffect, maxFee: pause.fee }), pause.fee);
    const resume = await staking.stakingEstimateAutoRenew({ txID: autoRenewedTxID, period: 30, restakeShares: 250_000 });
    expect(resume.current).toEqual({ period: 0, restakeShares: 0 });
    await expectBurned(await staking.stakingSetAutoRenew({ txID: autoRenewedTxID, period: 30, restakeShares: 250_000, takesEffect: resume.takesEffect, maxFee: resume.fee }), resume.fee);
    expect((await pRpc<{ validators: unknown[] }>('platform.getCurrentValidators', { nodeIDs: [ownNode.nodeID] })).validators).toEqual([expect.objectContaining({ nextPeriod: '30', autoCompoundRewardShares: '250000' })]);

    const stop = await staking.stakingEstimateAutoRenew({ txID: autoRenewedTxID, period: 0, restakeShares: 0 });
    expect(stop.current).toEqual({ period: 30, restakeShares: 250_000 });
    // Confirmed for a cycle end the validator no longer has (it renewed since the review): refused, nothing sent.
    await refusedWith(staking.stakingSetAutoRenew({ txID: autoRenewedTxID, period: 0, restakeShares: 0, takesEffect: stop.takesEffect - CYCLE, maxFee: stop.fee }), 'period', 'A new cycle began since your review: nothing was sent. Review the change again.');
    await expectBurned(await staking.stakingSetAutoRenew({ txID: autoRenewedTxID, period: 0, restakeShares: 0, takesEffect: stop.takesEffect, maxFee: stop.fee }), stop.fee);
    const mine = await staking.stakingMine();
    expect(mine.stakes).toEqual([expect.objectContaining({ txID: autoRenewedTxID, kind: 'auto-renewed', state: 'active', nodeID: ownNode.nodeID, end: cycleEnd, unlocksAt: cycleEnd, autoRenew: { nextPeriod: 0, restakeShares: 0, yours: true }, byWallet: true })]);
    // The P balance says what is staked and when it comes back.
    const { identity } = await localNetwork();
    const p = (await validator.wallet.balances.balancesRefresh()).balances.find((b) => b.chain === 'P' && b.assetID === identity.avaxAssetID)!;
    expect(p.staked).toEqual([{ amount: (2_000n * AVAX).toString(), unlocksAt: cycleEnd }]);
  });

  it('lists the node for a delegator, picks it, refuses every broken rule unsigned, and delegates to it', async () => {
    const staking = delegator.wallet.staking;
    delegatorBalance = await pSpendable(delegator);
    const list = await staking.stakingValidators({ filter: { minUptime: 90 }, limit: 100 });
    const own = list.validators.find((v) => v.nodeID === ownNode.nodeID)!;
    expect(own).toMatchObject({ txID: autoRenewedTxID, stake: (2_000n * AVAX).toString(), freeSpace: (8_000n * AVAX).toString(), delegationFee: 30_000, connected: true, end: cycleEnd, autoRenew: { nextPeriod: 0 }, yours: false });
    expect(list.validators[0]!.nodeID, 'first by score').toBe(ownNode.nodeID);
    expect((await validator.wallet.staking.stakingValidators({ filter: { nodeID: ownNode.nodeID } })).validators[0]!.yours).toBe(true);

    const now = Number(await nowOnP());
    delegationEnd = now + DELEGATION + 3;
    const pick = await staking.stakingPick({ amount: (25n * AVAX).toString(), end: delegationEnd });
    expect(pick.validator.nodeID).toBe(ownNode.nodeID);
    expect(pick.reasons[1]).toBe('It keeps 3% of your reward as its fee.');

    const base = { nodeID: ownNode.nodeID, amount: (25n * AVAX).toString(), end: delegationEnd };
    await refusedWith(staking.stakingEstimateDelegation({ ...base, amount: (10n * AVAX).toString() }), 'amount', 'A delegation needs at least 25 AVAX; this one is 10 AVAX.');
    await refusedWith(staking.stakingDelegate({ ...base, end: now + 10, maxFee: '1000000' }), 'end', /^A delegation must last at least 20 seconds/);
    await refusedWith(staking.stakingDelegate({ ...base, end: cycleEnd + 5, maxFee: '1000000' }), 'end', /^A delegation must end while its validator still validates: its current cycle ends /);
    await refusedWith(staking.stakingDelegate({ ...base, amount: (8_001n * AVAX).toString(), maxFee: '1000000' }), 'amount', 'This validator can take at most 8,000 AVAX more; this delegation is 8,001 AVAX.');
    await refusedWith(staking.stakingDelegate({ ...base, nodeID: formatNodeId(freshNodeId()), maxFee: '1000000' }), 'nodeID', 'That node is not validating the Primary Network now, so it cannot take delegations.');
    await expectNothingSent(delegator, delegatorBalance);

    const review = await staking.stakingEstimateDelegation(base);
    expect(review).toMatchObject({ nodeID: ownNode.nodeID, amount: base.amount, from: delegator.account.pAddress, end: delegationEnd, rewardOwner: { addresses: [delegator.account.pAddress], yours: true } });
    expect(BigInt(review.estimatedReward)).toBeGreaterThan(0n);
    // 3% of the reward is the validator's, rounded its way.
    const total = BigInt(review.estimatedReward) + BigInt(review.validatorFee);
    expect(BigInt(review.estimatedReward)).toBe((total * 970_000n) / 1_000_000n);
    const sent = await staking.stakingDelegate({ ...base, maxFee: review.fee });
    await expectBurned(sent, review.fee);
    delegationTxID = sent.txID;
    delegationFee = BigInt(review.fee);

    // What the node expects to pay (priced at the chain time it was accepted, before the validator's
    // 3%) less the validator's fee is what the stakes show; the reward paid at the end is checked against it.
    const [v] = (await pRpc<{ validators: { delegators: { txID: string; potentialReward: string }[] }[] }>('platform.getCurrentValidators', { nodeIDs: [ownNode.nodeID] })).validators;
    const potential = BigInt(v!.delegators.find((d) => d.txID === delegationTxID)!.potentialReward);
    expect(Number(potential - total)).toBeLessThanOrEqual(0);
    expectedReward = ((potential * 970_000n) / 1_000_000n).toString();
    const mine = await staking.stakingMine();
    expect(mine.stakes).toEqual([expect.objectContaining({ txID: delegationTxID, kind: 'delegation', state: 'active', nodeID: ownNode.nodeID, amount: base.amount, end: delegationEnd, unlocksAt: delegationEnd, potentialReward: expectedReward, byWallet: true })]);
    expect(mine.totals).toEqual({ staked: base.amount, potentialReward: expectedReward, rewardsPaid: '0' });
    const validatorSide = await validator.wallet.staking.stakingMine();
    expect(validatorSide.stakes[0]).toMatchObject({ txID: autoRenewedTxID, delegatorCount: 1 });
  });

  it('validates a fresh NodeID for a fixed period with its BLS key given directly, its length counted from the next block, not an idle chain’s last', async () => {
    const bls = freshBlsKey();
    const base = { nodeID: formatNodeId(freshNodeId()), publicKey: hex0x(bls.publicKey), proofOfPossession: hex0x(bls.proofOfPossession), amount: (2_000n * AVAX).toString(), delegationFee: 20_000 };
    // The chain's last block is 8 s old or more: 22 s from it is under the 20 s minimum from the
    // next block, which takes the node's clock. Refused unsigned, not by the node.
    const lastBlock = await until('the P-Chain idle for 8 s', async () => {
      const [chain, wall] = [await pChainTime(), BigInt(Math.floor(Date.now() / 1000))];
      return wall - chain >= 8n ? chain : undefined;
    });
    await refusedWith(validator.wallet.staking.stakingEstimateValidation({ ...base, end: Number(lastBlock) + 22 }), 'end', /^A validation must last at least 20 seconds; this one would last 1[0-4] seconds/);
    const end = Number(await nowOnP()) + 25;
    const params = { ...base, end };
    const review = await validator.wallet.staking.stakingEstimateValidation(params);
    expect(review.arrives[0]).toMatchObject({ what: 'stake', at: end });
    const sent = await validator.wallet.staking.stakingValidate({ ...params, maxFee: review.fee });
    expect((await expectBurned(sent, review.fee)).kind).toBe('AddPermissionlessValidatorTx');
    plainTxID = sent.txID;
  });

  it('ends the delegation: the stake comes back and the reward arrives at the delegator’s address, as much as the node paid, in Activity and the CSV', async () => {
    const staking = delegator.wallet.staking;
    const finished = await until('the delegation’s reward', async () => {
      const mine = await staking.stakingMine();
      const s = mine.stakes.find((x) => x.txID === delegationTxID)!;
      return s.state === 'finished' && s.reward !== 'waiting' ? mine : undefined;
    });
    expect(finished.stakes[0]).toMatchObject({ state: 'finished', reward: 'paid' });
    const rewardTxID = rewardValidatorTxId(delegationTxID);
    expect(await pRpc('platform.getTxStatus', { txID: rewardTxID })).toMatchObject({ status: 'Committed' });
    const [paid] = await nodeRewardAmounts(delegationTxID);
    expect(paid!.toString(), 'paid as My stakes expected').toBe(expectedReward);
    expect(finished.rewards).toEqual([{ txID: rewardTxID, stakeTxID: delegationTxID, nodeID: ownNode.nodeID, kind: 'delegation', amount: paid!.toString(), paidAt: delegationEnd, to: delegator.account.pAddress }]);
    expect(finished.totals).toMatchObject({ staked: '0', rewardsPaid: paid!.toString() });
    // The node's reward UTXO is the delegator's, at the index after the tx's outputs and stake.
    const { client } = await localNetwork();
    const reward = (await client.getAllUtxos('P', [delegator.account.pAddress])).utxos.find((u) => cb58Encode(u.txID) === delegationTxID && u.output.kind === 'TransferOutput' && u.output.amount === paid);
    expect(reward).toBeDefined();
    // Stake back, reward in: the balance is what it was, less the fee, plus the reward.
    expect(await pSpendable(delegator)).toBe(delegatorBalance - delegationFee + paid!);
    expect((await delegator.wallet.balances.activityList()).items).toContainEqual(expect.objectContaining({ txID: rewardTxID, kind: 'staking-reward', status: 'accepted', amount: paid!.toString(), nodeID: ownNode.nodeID, createdAt: delegationEnd * 1000 }));
    const csv = await staking.stakingRewardsCsv({ scope: 'all' });
    expect(csv.csv).toContain(`${new Date(delegationEnd * 1000).toISOString()},${rewardTxID},staking-reward,0.${paid!.toString().padStart(9, '0')},AVAX,\r\n`);
    expect(csv.csv).toContain(`,${delegationTxID},delegate,25,AVAX,0.${delegationFee.toString().padStart(9, '0')}\r\n`);
    expect((await staking.stakingRewardsCsv({ scope: 'rewards' })).rows).toBe(1);
  });

  it('ends the auto-renewed validation at its cycle: stake back, validation reward and delegation fees paid to the validator’s address; the fixed one ends unrewarded', async () => {
    const staking = validator.wallet.staking;
    const done = await until('the validator’s cycle reward', async () => {
      const mine = await staking.stakingMine();
      return mine.stakes.every((s) => s.state === 'finished' && s.reward !== 'waiting') ? mine : undefined;
    });
    const rewardTxID = rewardAutoRenewedValidatorTxId(autoRenewedTxID, BigInt(cycleEnd));
    const [validation, fees] = await nodeRewardAmounts(rewardTxID);
    const ours = done.rewards.filter((r) => r.stakeTxID === autoRenewedTxID);
    expect(ours).toEqual([
      { txID: rewardTxID, stakeTxID: autoRenewedTxID, nodeID: ownNode.nodeID, kind: 'validation', amount: validation!.toString(), paidAt: cycleEnd, to: validator.account.pAddress },
      { txID: rewardTxID, stakeTxID: autoRenewedTxID, nodeID: ownNode.nodeID, kind: 'delegation-fees', amount: fees!.toString(), paidAt: cycleEnd, to: validator.account.pAddress },
    ]);
    expect(done.stakes.find((s) => s.txID === autoRenewedTxID)).toMatchObject({ state: 'finished', reward: 'paid' });
    expect(done.stakes.find((s) => s.txID === plainTxID)).toMatchObject({ kind: 'validation', state: 'finished', reward: 'not-paid' });
    expect((await pRpc<{ validators: unknown[] }>('platform.getCurrentValidators', { nodeIDs: [ownNode.nodeID] })).validators).toEqual([]);
    // Both stakes are back in the balance; nothing is staked any more.
    const { identity } = await localNetwork();
    const p = (await validator.wallet.balances.balancesRefresh()).balances.find((b) => b.chain === 'P' && b.assetID === identity.avaxAssetID)!;
    expect(p.staked).toBeUndefined();
    expect(BigInt(p.spendable)).toBeGreaterThan(4_000n * AVAX);
    expect((await validator.wallet.balances.activityList()).items).toContainEqual(expect.objectContaining({ txID: rewardTxID, kind: 'staking-reward', amount: (validation! + fees!).toString() }));
    const csv = (await staking.stakingRewardsCsv({ scope: 'rewards' })).csv;
    expect(csv).toContain(`,${rewardTxID},staking-delegation-fees,0.${fees!.toString().padStart(9, '0')},AVAX,`);
  });
});

describe('a delegation’s fee is the validator’s own tx’s, checked on the Helicon node', () => {
  type Listed = { txID: string; nodeID: string; endTime: string; delegationFee: string; exactDelegationFee?: unknown };

  /** A node in between that shows every validator's fee one point above what it is. */
  const lyingFetch: typeof fetch = async (input, init) => {
    const answer = await fetch(input, init);
    const asked = typeof init?.body === 'string' ? (JSON.parse(init.body) as { method?: string }) : {};
    if (asked.method !== 'platform.getCurrentValidators') return answer;
    const body = (await answer.json()) as { result: { validators: Listed[] } };
    for (const v of body.result.validators) {
      v.delegationFee = (Number(v.delegationFee) + 1).toFixed(4);
      delete v.exactDelegationFee;
    }
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  };

  it('reviews a delegation to a validator whose listed fee its tx proves, and refuses the same one from a node that lies about its fee', async () => {
    const now = await nowOnP();
    const [listed] = (await pRpc<{ validators: Listed[] }>('platform.getCurrentValidators')).validators.filter((v) => BigInt(v.endTime) > now + 120n);
    expect(listed, 'a validator running for 2 more minutes').toBeDefined();
    const base = { nodeID: listed!.nodeID, amount: (25n * AVAX).toString(), end: Number(now) + 60 };

    const honest = await fundedWallet({ p: 30n * AVAX });
    const review = await honest.wallet.staking.stakingEstimateDelegation(base);
    expect(review.validator).toMatchObject({ nodeID: listed!.nodeID, txID: listed!.txID });
    expect(review.validator.delegationFee / 10_000).toBe(Number(listed!.delegationFee));

    const lied = await fundedWallet({}, { fetch: lyingFetch });
    const e = await lied.wallet.staking.stakingEstimateDelegation(base).then(() => undefined, (x: unknown) => x);
    expect(e).toBeInstanceOf(WalletError);
    expect(e).toMatchObject({ code: 'validator-mismatch', message: expect.stringMatching(/^The node's list of validators does not match the validator's own staking transaction \(NodeID-\w+\): the list says it keeps [\d.]+% of a delegator's reward, its transaction says [\d.]+%\./) });
  });
});

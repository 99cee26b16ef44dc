// The staking service's delegate and validate (src/background/services/staking.ts) around a stake
// book that cannot be read or written: the stake is in the book before it is sent, a book that
// cannot take it sends nothing, and a stake once sent is never reported as failed for the book.
import { describe, expect, it, vi } from 'vitest';
import { stakesKey } from '../../src/background/account-cache.js';
import { StakingService } from '../../src/background/services/staking.js';
import { StakeBook } from '../../src/background/stake-book.js';
import { memoryStores } from '../../src/background/storage.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { encodeSignedTx } from '../../src/core/codec/codec.js';
import type { PAddAutoRenewedValidatorTx, PAddPermissionlessValidatorTx } from '../../src/core/codec/types.js';
import { RpcError, WalletError } from '../../src/core/errors.js';
import { cb58Encode, formatAddress, formatNodeId } from '../../src/core/encoding.js';
import type { CurrentValidator } from '../../src/core/node/validators.js';
import { ownedAddressSet, spendableUtxos } from '../../src/core/tx/utxos.js';
import { endChoices } from '../../src/popup/staking.js';
import { ctx, ewoq, mine, utxo } from './pvm-test-kit.js';

const AVAX = 1_000_000_000n;
const NOW = BigInt(Math.floor(Date.now() / 1000));
const NODE = formatNodeId(new Uint8Array(20).fill(7));
const ME = formatAddress('P', ctx.hrp, ewoq.shortId);
const KEY = stakesKey('n', 'a');
const BAD = { version: 2, stakes: [] }; // e.g. written by a newer version
type Issue = (c: unknown, kind: string, built: unknown, maxFee: string, extra: unknown, signed?: (txID: string) => Promise<void>) => Promise<{ txID: string; fee: bigint; status: string }>;

const END = NOW + 400n * 86_400n;
const base = { vm: 'pvm' as const, networkID: ctx.networkID, blockchainID: ctx.pChainID, inputs: [], outputs: [], memo: new Uint8Array() };
const owners = { validationRewardsOwner: mine, delegationRewardsOwner: mine, stake: [] };

/** The validator's own staking tx (type 25), signed bytes: its ID is their hash. */
function fixedValidatorTx(fee: number, end = END, networkID = ctx.networkID): Uint8Array {
  const tx: PAddPermissionlessValidatorTx = { ...base, ...owners, networkID, kind: 'AddPermissionlessValidatorTx', validator: { nodeID: new Uint8Array(20).fill(7), start: 0n, end, weight: 2_000n * AVAX }, subnetID: new Uint8Array(32), signer: { kind: 'EmptySigner' }, delegationShares: fee };
  return encodeSignedTx({ unsigned: tx, credentials: [] });
}

function autoRenewedValidatorTx(fee: number): Uint8Array {
  const tx: PAddAutoRenewedValidatorTx = { ...base, ...owners, kind: 'AddAutoRenewedValidatorTx', nodeID: new Uint8Array(20).fill(7), signer: { kind: 'EmptySigner' }, validatorAuthority: mine, delegationShares: fee, autoCompoundRewardShares: 0, period: 86_400n };
  return encodeSignedTx({ unsigned: tx, credentials: [] });
}

/** `listed`: what the node's validator list says, over the validator its tx (`txBytes`) adds. */
function service(issue: Issue, chainLag = 0n, txBytes = fixedValidatorTx(20_000), listed: Partial<CurrentValidator> = {}, funds = 1_000n * AVAX, heliconTime?: bigint) {
  const { local } = memoryStores();
  const txID = cb58Encode(sha256(txBytes));
  const v: CurrentValidator = { txID, nodeID: NODE, start: NOW - 86_400n, end: END, weight: 2_000n * AVAX, potentialReward: 1n, accruedDelegateeReward: 0n, delegationFee: 20_000, uptime: 100, connected: true, delegatorCount: 0, delegatorWeight: 0n, ...listed };
  // As the client does: only bytes that hash to the ID asked for.
  const getTx = vi.fn(async (id: string) => {
    if (id !== txID) throw new RpcError('platform.getTx', -32000, 'not found');
    return txBytes;
  });
  const pool = spendableUtxos([utxo(funds)], ownedAddressSet([ewoq.shortId]), NOW);
  const engine = {
    ctx,
    // As WalletEngine.now: the P-Chain's last block time (`chainLag` behind NOW), this computer's clock for the others.
    now: async (chain: string) => (chain === 'P' ? NOW - chainLag : BigInt(Math.floor(Date.now() / 1000))),
    node: {
      info: { heliconTime: async () => heliconTime },
      platform: {
        getMinStake: async () => ({ minValidatorStake: 2_000n * AVAX, minDelegatorStake: 25n * AVAX }),
        getCurrentValidators: async (nodeIDs?: string[]) => (nodeIDs && !nodeIDs.includes(v.nodeID) ? [] : [v]),
        getCurrentSupply: async () => 450_000_000n * AVAX,
        getTx,
      },
    },
    addresses: () => [ME],
    spendable: async () => pool,
    pFeeContext: async () => ({ weights: [1n, 1000n, 1000n, 4n], gasPriceNavax: 1n }),
    changeOwners: mine,
  };
  const engines = { open: async () => ({ engine, preset: { id: 'n', url: 'http://node' }, account: { id: 'a' }, cache: {} }), caches: {} };
  const delivery = { issue: vi.fn(issue) };
  const log = vi.fn();
  const book = new StakeBook(local, KEY);
  return { s: new StakingService(engines as never, delivery as never, local, { log }), delivery, local, book, log, getTx };
}

const p = { nodeID: NODE, amount: (25n * AVAX).toString(), end: Number(NOW) + 20 * 86_400 };
const sent = (status = 'accepted'): Issue => async (_c, _k, _b, _m, _e, signed) => (await signed?.('sentTx'), { txID: 'sentTx', fee: 1n, status });

describe('staking: the stake book around a send', () => {
  it('a book that cannot be read refuses the review and the stake before anything is signed or sent', async () => {
    const { s, delivery, local } = service(sent());
    await local.set({ [KEY]: BAD });
    await expect(s.stakingEstimateDelegation(p)).rejects.toMatchObject({ code: 'storage-corrupt' });
    await expect(s.stakingDelegate({ ...p, maxFee: '1000000' })).rejects.toMatchObject({ code: 'storage-corrupt' });
    expect(delivery.issue).not.toHaveBeenCalled();
  });

  it('records the stake (pending) before it is sent, so a worker stopped during the wait leaves it followed; active once accepted', async () => {
    let atSend: unknown;
    const { s, book } = service(async (...a) => {
      const r = await sent()(...a);
      atSend = (await book.list()).map((x) => [x.txID, x.state, x.byWallet]);
      return r;
    });
    const review = await s.stakingEstimateDelegation(p);
    expect(await s.stakingDelegate({ ...p, maxFee: review.fee })).toEqual({ txID: 'sentTx', fee: '1', status: 'accepted' });
    expect(atSend).toEqual([['sentTx', 'pending', true]]);
    expect((await book.list()).map((x) => [x.txID, x.state])).toEqual([['sentTx', 'active']]);
  });

  it('refuses reward owners with a lock time, even handed to it past request validation: no review shows one', async () => {
    const { s, delivery } = service(sent());
    const rewardOwner = { addresses: [ME], threshold: 1, locktime: (NOW + 86_400n * 365n).toString() };
    const refused = { code: 'validation', field: 'rewardOwner.locktime' };
    await expect(s.stakingEstimateDelegation({ ...p, rewardOwner })).rejects.toMatchObject(refused);
    await expect(s.stakingDelegate({ ...p, rewardOwner, maxFee: '1000000' })).rejects.toMatchObject(refused);
    expect(delivery.issue).not.toHaveBeenCalled();
    // A lock time of zero is none: the review and the signed tx agree.
    const review = await s.stakingEstimateDelegation({ ...p, rewardOwner: { ...rewardOwner, locktime: '0' } });
    await s.stakingDelegate({ ...p, rewardOwner: { ...rewardOwner, locktime: '0' }, maxFee: review.fee });
    const built = delivery.issue.mock.calls[0]![2] as { tx: { rewardsOwner: { locktime: bigint } } };
    expect(built.tx.rewardsOwner.locktime).toBe(0n);
    // A validation's two owner sets alike.
    const { s: v, delivery: vDelivery } = service(sent(), 0n, fixedValidatorTx(20_000), {}, 3_000n * AVAX);
    const key = { nodeID: formatNodeId(new Uint8Array(20).fill(8)), publicKey: `0x${'11'.repeat(48)}`, proofOfPossession: `0x${'22'.repeat(96)}`, amount: (2_000n * AVAX).toString(), delegationFee: 20_000, end: Number(NOW) + 30 * 86_400 };
    for (const field of ['rewardOwner', 'delegationFeeOwner']) {
      await expect(v.stakingEstimateValidation({ ...key, [field]: rewardOwner })).rejects.toMatchObject({ code: 'validation', field: `${field}.locktime` });
      await expect(v.stakingValidate({ ...key, [field]: rewardOwner, maxFee: '1000000' })).rejects.toMatchObject({ code: 'validation', field: `${field}.locktime` });
    }
    expect(vDelivery.issue).not.toHaveBeenCalled();
  });

  it('a book write that fails once the stake was sent is logged, and the stake reported as sent', async () => {
    const { s, local, log } = service(async (...a) => {
      const r = await sent()(...a);
      await local.set({ [KEY]: BAD });
      return r;
    });
    const review = await s.stakingEstimateDelegation(p);
    expect(await s.stakingDelegate({ ...p, maxFee: review.fee })).toMatchObject({ txID: 'sentTx', status: 'accepted' });
    expect(log).toHaveBeenCalledOnce();
  });

  it('a change to an auto-renewed validator the node accepted is reported as accepted when the book then cannot be written: logged, so Confirm is not pressed again for a second fee', async () => {
    const autoRenew = { authority: { locktime: 0n, threshold: 1, addresses: [ME] }, nextPeriod: 86_400n, restakeShares: 0 };
    const txBytes = autoRenewedValidatorTx(30_000);
    const { s, local, log, delivery } = service(
      async (...a) => {
        const r = await sent()(...a);
        await local.set({ [KEY]: BAD });
        return r;
      },
      0n,
      txBytes,
      { delegationFee: 30_000, autoRenew },
    );
    const change = { txID: cb58Encode(sha256(txBytes)), period: 0, restakeShares: 0 };
    const review = await s.stakingEstimateAutoRenew(change);
    expect(await s.stakingSetAutoRenew({ ...change, takesEffect: review.takesEffect, maxFee: review.fee })).toMatchObject({ txID: 'sentTx', status: 'accepted' });
    expect(delivery.issue).toHaveBeenCalledOnce();
    expect(log).toHaveBeenCalledOnce();
  });

  it('an auto-renewed validation is never sent again once its first cycle would end past the reviewed one by more than the margin (sendBefore); a fixed one carries its end', async () => {
    const { s, delivery } = service(sent(), 0n, fixedValidatorTx(20_000), {}, 3_000n * AVAX, 0n);
    const key = { nodeID: formatNodeId(new Uint8Array(20).fill(8)), publicKey: `0x${'11'.repeat(48)}`, proofOfPossession: `0x${'22'.repeat(96)}`, amount: (2_000n * AVAX).toString(), delegationFee: 20_000 };
    const renewed = { ...key, autoRenew: { period: 30 * 86_400, restakeShares: 0 } };
    const review = await s.stakingEstimateValidation(renewed);
    const before = Math.floor(Date.now() / 1000);
    await s.stakingValidate({ ...renewed, maxFee: review.fee });
    const extra = (call: number) => delivery.issue.mock.calls[call]![4] as { sendBefore?: number };
    // The margin before a cycle's end: 10 minutes on this network, from this computer's clock.
    expect(extra(0).sendBefore! - 600).toBeGreaterThanOrEqual(before);
    expect(extra(0).sendBefore! - 600).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    const fixed = { ...key, end: Number(NOW) + 30 * 86_400 };
    await s.stakingValidate({ ...fixed, maxFee: (await s.stakingEstimateValidation(fixed)).fee });
    expect(extra(1)).not.toHaveProperty('sendBefore');
  });

  it("an auto-renewed validation's sendBefore counts from this computer's clock even when it is behind the chain's (judged by the later of the two, it passes by the margin however idle the chain)", async () => {
    const { s, delivery } = service(sent(), -3_600n, fixedValidatorTx(20_000), {}, 3_000n * AVAX, 0n);
    const renewed = { nodeID: formatNodeId(new Uint8Array(20).fill(8)), publicKey: `0x${'11'.repeat(48)}`, proofOfPossession: `0x${'22'.repeat(96)}`, amount: (2_000n * AVAX).toString(), delegationFee: 20_000, autoRenew: { period: 30 * 86_400, restakeShares: 0 } };
    const before = Math.floor(Date.now() / 1000);
    await s.stakingValidate({ ...renewed, maxFee: (await s.stakingEstimateValidation(renewed)).fee });
    const { sendBefore } = delivery.issue.mock.calls[0]![4] as { sendBefore?: number };
    expect(sendBefore! - 600).toBeGreaterThanOrEqual(before);
    expect(sendBefore! - 600).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
  });

  it('a stake the node refused stays in the book as failed, not pending', async () => {
    const { s, book } = service(async (c, k, b, m, e, signed) => {
      await signed?.('sentTx');
      throw new WalletError('tx-refused', 'refused');
    });
    const review = await s.stakingEstimateDelegation(p);
    await expect(s.stakingDelegate({ ...p, maxFee: review.fee })).rejects.toMatchObject({ code: 'tx-refused' });
    expect((await book.list()).map((x) => x.state)).toEqual(['failed']);
  });
});

describe('staking: the longest stake with the computer clock ahead of the chain', () => {
  it('refuses a delegation over the maximum counted from the chain’s time (the node’s), not the computer’s', async () => {
    const { s } = service(sent(), 600n);
    await expect(s.stakingEstimateDelegation({ ...p, end: Number(NOW) + 365 * 86_400 })).rejects.toMatchObject({ code: 'staking-rule', rule: 'too-long' });
    await expect(s.stakingEstimateDelegation({ ...p, end: Number(NOW) + 365 * 86_400 - 600 })).resolves.toMatchObject({ end: Number(NOW) + 365 * 86_400 - 600 });
  });

  it('offers only end choices it then lets through, the longest in place of "365 days" from a clock ahead of the chain’s, however long the form stays open', async () => {
    const { s } = service(sent(), 600n);
    const params = await s.stakingParams();
    for (const later of [0, 45]) {
      const now = params.chainTime + later;
      const choices = endChoices({ now, minSeconds: params.minDelegationSeconds, maxSeconds: params.maxEnd - now });
      expect(choices.map((c) => c.label)).toEqual(['Shortest: 1 day 1 minute', '7 days', '14 days', '30 days', '90 days', '182 days', 'The longest allowed (365 days)']);
      expect(choices.at(-1)!.end).toBe(params.maxEnd);
      for (const c of choices) await expect(s.stakingEstimateDelegation({ ...p, end: c.end })).resolves.toMatchObject({ end: c.end });
    }
  });
});

describe('staking: a node whose clock is far ahead of the computer’s', () => {
  const validate = { nodeID: formatNodeId(new Uint8Array(20).fill(8)), publicKey: `0x${'11'.repeat(48)}`, proofOfPossession: `0x${'22'.repeat(96)}`, amount: (2_000n * AVAX).toString(), delegationFee: 20_000, end: Number(NOW) + 20 * 86_400 };

  it('refuses the pick, the review and the stake: every end would count from its time, a stake 300 days longer than reviewed', async () => {
    const { s, delivery } = service(sent(), -300n * 86_400n, fixedValidatorTx(20_000), {}, 3_000n * AVAX);
    // The clock is read a moment after the node's time was set, so the gap may be a second short of 300 days.
    const clockAhead = { code: 'staking-rule', rule: 'clock-ahead', field: 'end', message: expect.stringMatching(/^The node says it is \d{4}-\d\d-\d\d [\d:]+ UTC, (300 days|299 days 23 hours) later than this computer's clock\. .*check this computer's date and time, or use another node\.$/) };
    await expect(s.stakingPick({ amount: p.amount, end: p.end })).rejects.toMatchObject(clockAhead);
    await expect(s.stakingEstimateDelegation(p)).rejects.toMatchObject(clockAhead);
    await expect(s.stakingDelegate({ ...p, maxFee: '1000000000' })).rejects.toMatchObject(clockAhead);
    await expect(s.stakingEstimateValidation(validate)).rejects.toMatchObject(clockAhead);
    await expect(s.stakingValidate({ ...validate, maxFee: '1000000000' })).rejects.toMatchObject(clockAhead);
    expect(delivery.issue).not.toHaveBeenCalled();
  });

  it('takes one up to an hour ahead (a computer clock a little behind), its presets counted from the node’s time', async () => {
    const { s } = service(sent(), -3_000n);
    const params = await s.stakingParams();
    expect(params.chainTime).toBe(Number(NOW) + 3_000);
    const shortest = endChoices({ now: params.chainTime, minSeconds: params.minDelegationSeconds, maxSeconds: params.maxEnd - params.chainTime })[0]!;
    await expect(s.stakingEstimateDelegation({ ...p, end: shortest.end })).resolves.toMatchObject({ start: Number(NOW) + 3_000, end: shortest.end });
  });

  it('still gives the rules and lists the validators, so the staking screens open (only a new stake counts from now)', async () => {
    const { s } = service(sent(), -300n * 86_400n);
    // Its end choices count from no later than an hour past this computer's clock.
    const params = await s.stakingParams();
    expect(params).toMatchObject({ minDelegationSeconds: 86_400 });
    expect(params.chainTime).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 3_600);
    expect(params.maxEnd).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 3_600 + 365 * 86_400);
    await expect(s.stakingValidators({})).resolves.toMatchObject({ total: 1, validators: [{ nodeID: NODE }] });
  });
});

describe('staking: the delegation fee is the validator’s own tx’s, not the node’s list’s word', () => {
  const refused = (message: string) => ({ code: 'validator-mismatch', message: `The node's list of validators does not match the validator's own staking transaction (${NODE}): ${message}. Nothing was signed; try again later or with another node.` });

  it('accepts a list that agrees with the tx, reading the tx once for the review and its confirm', async () => {
    const { s, getTx, delivery } = service(sent());
    const review = await s.stakingEstimateDelegation(p);
    expect(review.validator.delegationFee).toBe(20_000);
    // 2% of the reward is the validator's.
    expect(BigInt(review.estimatedReward)).toBe(((BigInt(review.estimatedReward) + BigInt(review.validatorFee)) * 980_000n) / 1_000_000n);
    await s.stakingDelegate({ ...p, maxFee: review.fee });
    expect(getTx).toHaveBeenCalledOnce();
    expect(delivery.issue).toHaveBeenCalledOnce();
  });

  it('refuses a list that shows 2% for a validator whose tx keeps 100%, before anything is signed', async () => {
    const { s, delivery } = service(sent(), 0n, fixedValidatorTx(1_000_000), { delegationFee: 20_000 });
    await expect(s.stakingEstimateDelegation(p)).rejects.toMatchObject(refused("the list says it keeps 2% of a delegator's reward, its transaction says 100%"));
    await expect(s.stakingDelegate({ ...p, maxFee: '1000000' })).rejects.toMatchObject({ code: 'validator-mismatch' });
    expect(delivery.issue).not.toHaveBeenCalled();
  });

  it('refuses a list whose end, kind or network is not the tx’s, or whose tx the node will not show', async () => {
    await expect(service(sent(), 0n, fixedValidatorTx(20_000, END + 86_400n)).s.stakingEstimateDelegation(p)).rejects.toMatchObject({ code: 'validator-mismatch', message: expect.stringMatching(/: the list says it validates until .*, its transaction until /) });
    await expect(service(sent(), 0n, autoRenewedValidatorTx(20_000)).s.stakingEstimateDelegation(p)).rejects.toMatchObject(refused('the list shows a fixed validation, its transaction an auto-renewed one'));
    await expect(service(sent(), 0n, fixedValidatorTx(20_000, END, 1)).s.stakingEstimateDelegation(p)).rejects.toMatchObject(refused('the transaction it names is not of this network’s P-Chain'));
    await expect(service(sent(), 0n, fixedValidatorTx(20_000), { txID: cb58Encode(sha256(Uint8Array.of(1))) }).s.stakingEstimateDelegation(p)).rejects.toMatchObject({ code: 'validator-mismatch', message: expect.stringContaining('the node cannot show the transaction') });
  });

  it('takes an auto-renewed validator whose fee its tx fixes (no later config change can alter it)', async () => {
    const autoRenew = { authority: { locktime: 0n, threshold: 1, addresses: [ME] }, nextPeriod: 86_400n, restakeShares: 0 };
    const { s, getTx } = service(sent(), 0n, autoRenewedValidatorTx(30_000), { delegationFee: 30_000, autoRenew });
    await expect(s.stakingEstimateDelegation(p)).resolves.toMatchObject({ validator: { delegationFee: 30_000 } });
    expect(getTx).toHaveBeenCalledOnce();
    const lying = service(sent(), 0n, autoRenewedValidatorTx(1_000_000), { delegationFee: 30_000, autoRenew });
    await expect(lying.s.stakingEstimateDelegation(p)).rejects.toMatchObject(refused("the list says it keeps 3% of a delegator's reward, its transaction says 100%"));
  });
});

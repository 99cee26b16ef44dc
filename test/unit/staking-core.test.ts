// Staking's pure core against answers recorded on the Helicon test node (test/unit/fixtures): the
// validator list's parser, the reward formula (to the nAVAX of the node's potentialReward), which
// reward UTXO is which, the rules in words, and the list model (free space, filters, the score
// order, the pick and its reasons).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NodeResponseError, WalletError } from '../../src/core/errors.js';
import { heliconActiveAt, minValidationAt, stakingRulesFor, type StakingRules, uptimeRequirementAt } from '../../src/core/network.js';
import { NodeClient } from '../../src/core/node.js';
import { type CurrentValidator, parseCurrentValidators, percentToShares } from '../../src/core/node/validators.js';
import { minRateAt, splitReward, stakingReward } from '../../src/core/staking/reward.js';
import { classifyRewardUtxos, rewardTxIdOf } from '../../src/core/staking/rewards.js';
import { checkAutoRenewChange, checkDelegation, checkDelegationTerms, checkValidation, freeSpaceOf, StakingRuleError } from '../../src/core/staking/rules.js';
import { filterValidators, pickValidator, sortValidators, validatorModels, validatorPage } from '../../src/core/staking/validator-list.js';
import { durationWords } from '../../src/core/staking/words.js';
import { makeOwners } from '../../src/core/tx/context.js';
import { parseAddress } from '../../src/core/encoding.js';

const fixture = (name: string): unknown => JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8'));
const ALL = fixture('current-validators.json');
const ONE = fixture('current-validators-one-node.json');
const REWARDS = fixture('reward-utxos.json') as Record<string, { stakeTxID: string; rewardTxID?: string; cycleEnd?: string; result: unknown }> & { supplyBefore: string };

const AVAX = 1_000_000_000n;
const OWN_NODE = 'NodeID-BqUj8Y8GtNthdgxRD3z9NKWy3ru3K338C';
const GENESIS_KEY_P = 'P-custom18jma8ppw3nhx5r4ap8clazz0dps7rv5u9xde7p';
/** The recorded network's rules with the minimum stakes its node reported. */
const rules: StakingRules = stakingRulesFor(1337);

/** A NodeClient whose node answers every call with `result`, and records what it was asked. */
function clientAnswering(result: unknown): { client: NodeClient; asked: unknown[] } {
  const asked: unknown[] = [];
  const fetch = async (_url: string, init: RequestInit) => {
    const body = JSON.parse(init.body as string) as { id: number; params: unknown };
    asked.push(body.params);
    return new Response(JSON.stringify({ jsonrpc: '2.0', id: body.id, result }), { status: 200 });
  };
  return { client: new NodeClient({ url: 'http://127.0.0.1:1', atomicApi: { namespace: 'avax', path: '/ext/bc/C/avax' }, fetch }), asked };
}

describe('platform.getCurrentValidators, parsed', () => {
  it('reads every validator of the recorded answer: genesis ones, an auto-renewed one with two delegations, a fresh one', async () => {
    const { client, asked } = clientAnswering(ALL);
    const list = await client.platform.getCurrentValidators();
    expect(asked).toEqual([{}]);
    expect(list).toHaveLength(7);
    const genesis = list.find((v) => v.nodeID === 'NodeID-P7oB2McjBGgW2NXXWVYjV8JEDFoW9xDE5')!;
    expect(genesis).toMatchObject({ weight: 2_000_000n * AVAX, delegationFee: 62_500, uptime: 55.5556, connected: false, delegatorCount: 0, delegatorWeight: 0n, start: 1795582785n, end: 1827097185n });
    expect(genesis.autoRenew).toBeUndefined();
    expect(genesis.validationRewardOwner).toEqual({ locktime: 0n, threshold: 1, addresses: [GENESIS_KEY_P] });
    const own = list.find((v) => v.nodeID === OWN_NODE)!;
    expect(own).toMatchObject({ txID: '4uEw1KbnkyrNFZrqQ6812e79cZWEe6PNSzLeLdqyTdfPNT8c2', weight: 2_000n * AVAX, delegationFee: 30_000, uptime: 100, connected: true, potentialReward: 1_417_496n, delegatorCount: 2, delegatorWeight: 55n * AVAX });
    expect(own.autoRenew).toEqual({ authority: { locktime: 0n, threshold: 1, addresses: [GENESIS_KEY_P] }, nextPeriod: 300n, restakeShares: 500_000 });
    expect(own.end - own.start).toBe(300n);
    expect(own.delegators).toBeUndefined();
    expect(list.find((v) => v.nodeID === 'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg')!.delegationFee).toBe(1_000_000);
  });

  it('lists one validator’s delegators, with their reward owners, when asked about that one node', async () => {
    const { client, asked } = clientAnswering(ONE);
    const [own] = await client.platform.getCurrentValidators([OWN_NODE]);
    expect(asked).toEqual([{ nodeIDs: [OWN_NODE] }]);
    expect(own!.delegators).toEqual([
      { txID: 'aakhaea2eLTsAUNgjcuoRvHr8i911UxgHwwcb6Awt54nfoz6g', nodeID: OWN_NODE, start: 1795582892n, end: 1795582992n, weight: 30n * AVAX, rewardOwner: { locktime: 0n, threshold: 1, addresses: [GENESIS_KEY_P] }, potentialReward: 7_087n },
      { txID: 'uG5KupZoUscDJwF4qP4UDuWTospN9FQAUGxyf5sJzkyvZSbZk', nodeID: OWN_NODE, start: 1795582892n, end: 1795583012n, weight: 25n * AVAX, rewardOwner: { locktime: 0n, threshold: 1, addresses: [GENESIS_KEY_P] }, potentialReward: 7_087n },
    ]);
  });

  it('refuses an answer that does not hold together: delegators that do not add up, a validator named twice, a bad NodeID, a fee above 100%, a validator not asked about', async () => {
    const one = structuredClone(ONE) as { validators: Record<string, unknown>[] };
    const bad = (patch: Record<string, unknown>, which = 0) => {
      const copy = structuredClone(ALL) as { validators: Record<string, unknown>[] };
      Object.assign(copy.validators[which]!, patch);
      return copy;
    };
    (one.validators[0]!['delegators'] as unknown[]).pop();
    expect(() => parseCurrentValidators(one)).toThrow(/totals say 2/);
    const twice = structuredClone(ALL) as { validators: unknown[] };
    twice.validators.push(twice.validators[0]);
    expect(() => parseCurrentValidators(twice)).toThrow(/listed twice/);
    // No uptime in the answer: not known, never read as 0%.
    expect(parseCurrentValidators(bad({ uptime: undefined }))[0]!.uptime).toBeNull();
    expect(() => parseCurrentValidators(bad({ nodeID: 'NodeID-0OIl' }))).toThrow(NodeResponseError);
    expect(() => parseCurrentValidators(bad({ delegationFee: '100.5000' }))).toThrow(NodeResponseError);
    expect(() => parseCurrentValidators(bad({ weight: '-1' }))).toThrow(NodeResponseError);
    expect(() => parseCurrentValidators(bad({ endTime: '1' }))).toThrow(/ends/);
    expect(() => parseCurrentValidators(bad({ validationRewardOwner: { locktime: '0', threshold: '2', addresses: [GENESIS_KEY_P] } }))).toThrow(NodeResponseError);
    expect(() => parseCurrentValidators({ validators: {} })).toThrow(NodeResponseError);
    const { client } = clientAnswering(ALL);
    await expect(client.platform.getCurrentValidators([OWN_NODE])).rejects.toThrow(/not asked about/);
  });

  it('turns the API’s four-decimal percentages into exact millionths', () => {
    expect(['2.0000', '6.2500', '12.5000', '100.0000', '3.3333', '0'].map(percentToShares)).toEqual([20_000, 62_500, 125_000, 1_000_000, 33_333, 0]);
  });

  it('reads reward UTXOs, checksums checked', async () => {
    const { client } = clientAnswering(REWARDS['delegation']!.result);
    const [u] = await client.platform.getRewardUtxos(REWARDS['delegation']!.stakeTxID);
    expect(u).toMatchObject({ outputIndex: 2, output: { kind: 'TransferOutput', amount: 6_874n } });
    const broken = structuredClone(REWARDS['delegation']!.result) as { utxos: string[] };
    broken.utxos[0] = broken.utxos[0]!.slice(0, -2) + '00';
    await expect(clientAnswering(broken).client.platform.getRewardUtxos('x')).rejects.toThrow(NodeResponseError);
  });
});

describe('the reward formula', () => {
  const config = rules.reward;
  const supply = BigInt(REWARDS.supplyBefore);

  it('gives the node’s potentialReward to the nAVAX (recorded: a 300 s cycle of 2,000 AVAX, then 25 and 30 AVAX delegations)', () => {
    const validator = stakingReward(config, 1795582892n, 300n, 2_000n * AVAX, supply);
    expect(validator).toBe(1_417_496n);
    // Each accepted staker's potential reward is added to the supply the next one is priced on.
    expect(stakingReward(config, 1795582892n, 120n, 25n * AVAX, supply + validator)).toBe(7_087n);
    expect(stakingReward(config, 1795582892n, 100n, 30n * AVAX, supply + validator + 7_087n)).toBe(7_087n);
  });

  it('splits a delegator’s reward as the chain paid it: 3% of 7,087 to the validator, 6,874 to the delegator', () => {
    expect(splitReward(7_087n, 30_000)).toEqual({ validator: 213n, delegator: 6_874n });
    expect(splitReward(0n, 20_000)).toEqual({ validator: 0n, delegator: 0n });
    expect(splitReward(10n ** 18n, 20_000)).toEqual({ validator: 2n * 10n ** 16n, delegator: 98n * 10n ** 16n });
  });

  it('lowers the minimum rate from 10% to 7.5% over the 90 days after Helicon, by stake start', () => {
    const mainnet = stakingRulesFor(1).reward;
    const helicon = mainnet.heliconTime!;
    expect(minRateAt(mainnet, helicon - 1n)).toBe(100_000n);
    expect(minRateAt(mainnet, helicon)).toBe(100_000n);
    expect(minRateAt(mainnet, helicon + 45n * 86_400n)).toBe(87_500n);
    expect(minRateAt(mainnet, helicon + 90n * 86_400n)).toBe(75_000n);
    expect(minRateAt(stakingRulesFor(99).reward, helicon)).toBe(100_000n);
    // A longer stake earns a higher rate: a year at 12% on a 400M supply.
    expect(stakingReward(mainnet, helicon + 365n * 86_400n, 365n * 86_400n, 2_000n * AVAX, 400_000_000n * AVAX)).toBe(((720_000_000n - 400_000_000n) * 2_000n * AVAX * 120_000n) / 1_000_000n / (400_000_000n));
  });

  it('on Mainnet, never prices on less than the supply minted at genesis, whatever the node says: a node claiming 1 nAVAX cannot make the estimate huge', () => {
    const mainnet = stakingRulesFor(1).reward;
    const start = mainnet.heliconTime! + 365n * 86_400n;
    const atGenesis = stakingReward(mainnet, start, 20n * 86_400n, 25n * AVAX, 360_000_000n * AVAX);
    expect(atGenesis).toBeGreaterThan(0n);
    expect(atGenesis).toBeLessThan(AVAX / 5n);
    expect(stakingReward(mainnet, start, 20n * 86_400n, 25n * AVAX, 1n)).toBe(atGenesis);
    // A node's supply above it is used as it is.
    expect(stakingReward(mainnet, start, 20n * 86_400n, 25n * AVAX, 460_000_000n * AVAX)).toBeLessThan(atGenesis);
  });
});

describe('which reward UTXO is which', () => {
  const mine = makeOwners([parseAddress(GENESIS_KEY_P).bytes]);
  const utxosOf = async (key: string) => clientAnswering(REWARDS[key]!.result).client.platform.getRewardUtxos('x');

  it('names the recorded reward txs from the staking tx (and the cycle’s end)', () => {
    expect(rewardTxIdOf('auto-renewed', REWARDS['autoRenewedCycle']!.stakeTxID, BigInt(REWARDS['autoRenewedCycle']!.cycleEnd!))).toBe(REWARDS['autoRenewedCycle']!.rewardTxID);
    expect(() => rewardTxIdOf('auto-renewed', REWARDS['autoRenewedCycle']!.stakeTxID)).toThrow();
  });

  it('tells a cycle’s validation reward from its delegation fees, and pays a delegation only when committed', async () => {
    const cycle = classifyRewardUtxos('auto-renewed', true, (await utxosOf('autoRenewedCycle')).reverse(), { reward: mine, delegationFees: mine });
    expect(cycle.map((r) => [r.kind, r.amount])).toEqual([['validation', 708_748n], ['delegation-fees', 213n]]);
    const delegation = await utxosOf('delegation');
    expect(classifyRewardUtxos('delegation', true, delegation, { reward: mine }).map((r) => [r.kind, r.amount])).toEqual([['delegation', 6_874n]]);
    expect(classifyRewardUtxos('delegation', false, delegation, { reward: mine })).toEqual([]);
    // An aborted fixed-period validation still pays the delegation fees it earned.
    expect(classifyRewardUtxos('validation', false, delegation, { reward: mine }).map((r) => r.kind)).toEqual(['delegation-fees']);
  });

  it('an aborted auto-renewed cycle pays only what was restaked before, then the fees: a lone UTXO is the fees unless it had restaked', async () => {
    // The recorded cycle's fees (213 nAVAX) alone at index 0, as an abort pays them in a first cycle.
    const lone = [{ ...(await utxosOf('autoRenewedCycle'))[1]!, outputIndex: 0 }];
    expect(classifyRewardUtxos('auto-renewed', false, lone, { reward: mine, delegationFees: mine }).map((r) => [r.kind, r.amount])).toEqual([['delegation-fees', 213n]]);
    expect(classifyRewardUtxos('auto-renewed', false, lone, { reward: mine, delegationFees: mine }, true).map((r) => r.kind)).toEqual(['validation']);
  });
});

/** The rule error `run` throws (failing the test when it throws none, or another error). */
function refused(run: () => void): StakingRuleError {
  try {
    run();
  } catch (e) {
    expect(e).toBeInstanceOf(StakingRuleError);
    expect((e as WalletError).code).toBe('staking-rule');
    return e as StakingRuleError;
  }
  throw new Error('not refused');
}

describe('staking rules, in words, before anything is signed', () => {
  const now = 1_800_000_000n;
  const validator = { nodeID: OWN_NODE, start: now - 100n, end: now + 1_000n, weight: 2_000n * AVAX, delegatorWeight: 7_962_500_000_000n };
  const delegation = { rules, now, amount: 25n * AVAX, end: now + 60n, nodeID: OWN_NODE, validator };

  it('let a delegation that fits every rule through', () => {
    expect(() => checkDelegation(delegation)).not.toThrow();
    expect(() => checkDelegation({ ...delegation, amount: 37_500_000_000n, end: validator.end })).not.toThrow();
  });

  it('refuse each broken rule with what it allows, naming the field', () => {
    expect(refused(() => checkDelegation({ ...delegation, amount: 10n * AVAX }))).toMatchObject({ rule: 'stake-too-small', field: 'amount', message: 'A delegation needs at least 25 AVAX; this one is 10 AVAX.' });
    expect(refused(() => checkDelegation({ ...delegation, end: now + 15n }))).toMatchObject({ rule: 'too-short', field: 'end', message: 'A delegation must last at least 20 seconds; this one would last 15 seconds (staking starts when the network accepts it).' });
    expect(refused(() => checkDelegation({ ...delegation, end: now - 5n })).message).toContain('that end is not in the future');
    expect(refused(() => checkDelegation({ ...delegation, end: now + 366n * 86_400n }))).toMatchObject({ rule: 'too-long', message: 'A delegation can last at most 365 days; this one would last 366 days.' });
    // The computer's clock 10 minutes ahead of the chain's: the node may count from the chain's
    // time, so the maximum is checked from there, the minimum from the later clock.
    const behind = { chainTime: now - 600n };
    expect(refused(() => checkDelegation({ ...delegation, ...behind, end: now + 365n * 86_400n }))).toMatchObject({ rule: 'too-long', message: 'A delegation can last at most 365 days; this one would last 365 days 10 minutes.' });
    expect(() => checkDelegation({ ...delegation, ...behind, end: now + 20n })).not.toThrow();
    expect(refused(() => checkValidation({ rules, now, ...behind, amount: 2_000n * AVAX, delegationFee: 20_000, end: now + 365n * 86_400n, alreadyValidating: false })).rule).toBe('too-long');
    expect(refused(() => checkDelegation({ ...delegation, validator: undefined }))).toMatchObject({ rule: 'not-a-validator', field: 'nodeID' });
    // What holds whatever the validator (checked before a pick): amount and duration.
    expect(refused(() => checkDelegationTerms({ rules, now, amount: AVAX, end: now + 60n }))).toMatchObject({ rule: 'stake-too-small' });
    expect(refused(() => checkDelegationTerms({ rules, now, amount: 25n * AVAX, end: now + 1n }))).toMatchObject({ rule: 'too-short' });
    expect(refused(() => checkDelegation({ ...delegation, end: now + 1_001n }))).toMatchObject({ rule: 'outside-validator-period', field: 'end', message: 'A delegation must end while its validator still validates: it validates until 2027-01-15 08:16:40 UTC, so choose an end no later than that.' });
    expect(refused(() => checkDelegation({ ...delegation, end: now + 1_001n, validator: { ...validator, autoRenew: {} } })).message).toContain('its current cycle ends 2027-01-15 08:16:40 UTC');
    // 5 × 2,000 AVAX = 10,000 AVAX; 2,000 + 7,962.5 AVAX taken: 37.5 AVAX left.
    expect(refused(() => checkDelegation({ ...delegation, amount: 40n * AVAX }))).toMatchObject({ rule: 'over-capacity', field: 'amount', message: 'This validator can take at most 37.5 AVAX more; this delegation is 40 AVAX.' });
    expect(refused(() => checkDelegation({ ...delegation, validator: { ...validator, delegatorWeight: 8_000n * AVAX } })).message).toBe('This validator is full: it can take no more delegations now.');
  });

  it('cap a validator at the network’s maximum as well as at five times its stake', () => {
    expect(freeSpaceOf({ weight: 2_000n * AVAX, delegatorWeight: 0n }, rules)).toBe(8_000n * AVAX);
    expect(freeSpaceOf({ weight: 1_000_000n * AVAX, delegatorWeight: 1_500_000n * AVAX }, rules)).toBe(500_000n * AVAX);
    expect(freeSpaceOf({ weight: 1_000_000n * AVAX, delegatorWeight: 2_500_000n * AVAX }, rules)).toBe(0n);
  });

  it('check a validation’s stake, fee, duration (or cycle) and that the node is not validating already', () => {
    const v = { rules, now, amount: 2_000n * AVAX, delegationFee: 20_000, end: now + 60n, alreadyValidating: false };
    expect(() => checkValidation(v)).not.toThrow();
    expect(() => checkValidation({ ...v, end: undefined, period: 20n })).not.toThrow();
    expect(refused(() => checkValidation({ ...v, amount: 1_999n * AVAX }))).toMatchObject({ rule: 'stake-too-small', message: 'A validator needs a stake of at least 2,000 AVAX; this one is 1,999 AVAX.' });
    expect(refused(() => checkValidation({ ...v, amount: 3_000_001n * AVAX }))).toMatchObject({ rule: 'stake-too-large' });
    expect(refused(() => checkValidation({ ...v, delegationFee: 19_999 }))).toMatchObject({ rule: 'fee-too-low', field: 'delegationFee', message: "The delegation fee must be at least 2%; 1.9999% is below the network's minimum." });
    expect(refused(() => checkValidation({ ...v, end: now + 19n }))).toMatchObject({ rule: 'too-short', field: 'end' });
    expect(refused(() => checkValidation({ ...v, end: undefined, period: 10n }))).toMatchObject({ rule: 'too-short', field: 'autoRenew.period', message: 'A cycle must last at least 20 seconds; this one would last 10 seconds (staking starts when the network accepts it).' });
    expect(refused(() => checkValidation({ ...v, alreadyValidating: true }))).toMatchObject({ rule: 'already-validating', field: 'nodeID' });
    const cycle = { rules, chainTime: now, cycleEnd: now + 600n };
    expect(() => checkAutoRenewChange({ ...cycle, period: 0n })).not.toThrow();
    expect(refused(() => checkAutoRenewChange({ ...cycle, period: 5n }))).toMatchObject({ field: 'period' });
    // The cycle's last quarter of the shortest cycle (20 s here: 5 s) is too late; the node's renewal may come first.
    expect(() => checkAutoRenewChange({ ...cycle, cycleEnd: now + 5n, period: 0n })).not.toThrow();
    expect(refused(() => checkAutoRenewChange({ ...cycle, cycleEnd: now + 4n, period: 0n }))).toMatchObject({ rule: 'cycle-ending', message: 'This cycle ends in under 5 seconds: a change sent now could wait a whole further cycle. Change it once the next one has begun.' });
    expect(refused(() => checkAutoRenewChange({ ...cycle, reviewedEnd: now + 60n, period: 0n }))).toMatchObject({ rule: 'cycle-ending', field: 'period' });
    expect(() => checkAutoRenewChange({ ...cycle, reviewedEnd: now + 600n, period: 0n })).not.toThrow();
    // Reviewed in a cycle of a validator that has none now (a site's change, site-stakes.ts): it stopped.
    expect(refused(() => checkAutoRenewChange({ ...cycle, cycleEnd: 0n, reviewedEnd: now + 600n, period: 0n }))).toMatchObject({ rule: 'not-a-validator', field: 'txID', message: 'The validator stopped since your review: nothing was sent.' });
    expect(refused(() => checkAutoRenewChange({ ...cycle, rules: { ...rules, minValidatorDuration: 14n * 86_400n }, cycleEnd: now + 599n, period: 0n }))).toMatchObject({ message: expect.stringMatching(/^This cycle ends in under 10 minutes/) });
  });

  it('say durations in the largest units', () => {
    expect([1n, 20n, 3_600n, 90_061n, 14n * 86_400n].map(durationWords)).toEqual(['1 second', '20 seconds', '1 hour', '1 day 1 hour', '14 days']);
  });
});

describe('the validator list model', () => {
  const now = 1795582900n;
  const mine = new Set([GENESIS_KEY_P]);
  const synthetic = (n: number, patch: Partial<CurrentValidator>): CurrentValidator => ({
    txID: `tx${n}`, nodeID: `NodeID-${n}`, start: now - 1_000n, end: now + 100_000n, weight: 2_000n * AVAX, potentialReward: 0n, accruedDelegateeReward: 0n,
    delegationFee: 20_000, uptime: 99, connected: true, delegatorCount: 0, delegatorWeight: 0n, ...patch,
  });

  it('works out each recorded validator’s free space and whether it is the account’s', () => {
    const models = validatorModels(parseCurrentValidators(ALL), rules, now, mine);
    const own = models.find((v) => v.nodeID === OWN_NODE)!;
    expect(own.freeSpace).toBe(10_000n * AVAX - 2_055n * AVAX);
    expect(models.every((v) => v.yours)).toBe(true);
    expect(validatorModels(parseCurrentValidators(ALL), rules, now, new Set(['P-custom1other'])).some((v) => v.yours)).toBe(false);
    // Genesis validators are 2,000,000 AVAX: 3,000,000 AVAX is the network's cap, not 5×.
    expect(models.find((v) => v.nodeID === 'NodeID-P7oB2McjBGgW2NXXWVYjV8JEDFoW9xDE5')!.freeSpace).toBe(1_000_000n * AVAX);
    // The connected, fully-up validator ranks first; the disconnected genesis ones after it.
    expect(sortValidators(models)[0]!.nodeID).toBe(OWN_NODE);
  });

  it('scores uptime, fee, room and time, never size: of two equal validators the smaller one comes first', () => {
    const big = synthetic(1, { weight: 1_000_000n * AVAX, delegatorWeight: 0n });
    const small = synthetic(2, { weight: 200_000n * AVAX });
    const [a, b] = sortValidators(validatorModels([big, small], rules, now));
    expect(a!.score).toBe(b!.score);
    expect(a!.nodeID).toBe('NodeID-2');
    const ranked = sortValidators(validatorModels([synthetic(3, { uptime: 85 }), synthetic(4, { delegationFee: 150_000 }), synthetic(5, {}), synthetic(6, { connected: false })], rules, now));
    expect(ranked.map((v) => v.nodeID)).toEqual(['NodeID-5', 'NodeID-4', 'NodeID-3', 'NodeID-6']);
  });

  it('filters by uptime, fee, free space, time left and NodeID, and pages', () => {
    const models = validatorModels([synthetic(1, { uptime: 80 }), synthetic(2, { delegationFee: 100_000 }), synthetic(3, { delegatorWeight: 7_990n * AVAX }), synthetic(4, { end: now + 50n }), synthetic(55, {})], rules, now);
    expect(filterValidators(models, { minUptime: 90 }, now).map((v) => v.nodeID)).not.toContain('NodeID-1');
    expect(filterValidators(models, { maxFee: 50_000 }, now).map((v) => v.nodeID)).not.toContain('NodeID-2');
    expect(filterValidators(models, { minFreeSpace: 25n * AVAX }, now).map((v) => v.nodeID)).not.toContain('NodeID-3');
    expect(filterValidators(models, { minRemainingSeconds: 60n }, now).map((v) => v.nodeID)).not.toContain('NodeID-4');
    expect(filterValidators(models, { nodeID: '55' }, now).map((v) => v.nodeID)).toEqual(['NodeID-55']);
    const page = validatorPage(models, { now, sort: 'fee', offset: 1, limit: 2 });
    expect(page.matching).toBe(5);
    expect(page.page).toHaveLength(2);
  });

  it('a validator whose uptime the node does not report: scored as at the floor, never through an uptime filter, sorted last by uptime, never picked', () => {
    const models = validatorModels([synthetic(1, { uptime: null }), synthetic(2, {})], rules, now);
    expect(models[0]!.score).toBeLessThan(models[1]!.score);
    expect(filterValidators(models, { minUptime: 0 }, now).map((v) => v.nodeID)).toEqual(['NodeID-2']);
    expect(sortValidators(models, 'uptime').map((v) => v.nodeID)).toEqual(['NodeID-2', 'NodeID-1']);
    expect(() => pickValidator([models[0]!], { amount: 25n * AVAX, end: now + 60n, now, rules })).toThrow(/No validator can take/);
  });

  it('picks a validator that fits and says why; refuses when none does', () => {
    const models = validatorModels([synthetic(1, { connected: false }), synthetic(2, { uptime: 80 }), synthetic(3, { end: now + 50n }), synthetic(4, { delegationFee: 50_000 }), synthetic(5, { delegatorWeight: 7_990n * AVAX })], rules, now);
    const { validator, reasons } = pickValidator(models, { amount: 25n * AVAX, end: now + 60n, now, rules });
    expect(validator.nodeID).toBe('NodeID-4');
    expect(reasons).toEqual([
      'It was up 99% of the time since it started validating (rewards need 90%), and it is connected now.',
      'It keeps 5% of your reward as its fee.',
      'It has room for 8,000 AVAX more, so your 25 AVAX fits.',
      'It validates until 2026-11-26 08:48:20 UTC, 1 day 3 hours after your delegation ends.',
      'Of the 1 validator that can take this delegation it scores highest; a validator\'s size counts for nothing beyond having room, so stake is not steered to the largest ones.',
    ]);
    expect(() => pickValidator(models, { amount: 9_000n * AVAX, end: now + 60n, now, rules })).toThrow(/No validator can take 9,000 AVAX/);
    // One that keeps all of its delegators' reward (100%) would pay this delegation nothing: never picked.
    expect(() => pickValidator(validatorModels([synthetic(6, { delegationFee: 1_000_000 })], rules, now), { amount: 25n * AVAX, end: now + 60n, now, rules })).toThrow(/No validator can take/);
  });

  it('holds a validator to the uptime its start calls for: 80% if it started before Helicon, 90% after (mainnet)', () => {
    const mainnet = stakingRulesFor(1);
    const helicon = mainnet.reward.heliconTime!;
    const before = synthetic(1, { start: helicon - 1n, uptime: 85 });
    const after = synthetic(2, { start: helicon, uptime: 85 });
    const models = validatorModels([before, after], mainnet, now);
    expect(models.map((v) => v.uptimeRequirement)).toEqual([80, 90]);
    const { validator, reasons } = pickValidator(models, { amount: 25n * AVAX, end: now + 60n, now, rules: mainnet });
    expect(validator.nodeID).toBe('NodeID-1');
    expect(reasons[0]).toBe('It was up 85% of the time since it started validating (rewards need 80%), and it is connected now.');
    expect(() => pickValidator([models[1]!], { amount: 25n * AVAX, end: now + 60n, now, rules: mainnet })).toThrow(/No validator can take/);
    // A validation sent now starts after Helicon; a network where Helicon is not scheduled keeps 80%.
    expect(uptimeRequirementAt(mainnet, now)).toBe(90);
    expect(uptimeRequirementAt(stakingRulesFor(777), now)).toBe(80);
  });

  it('take a custom network’s Helicon time from its node: before it, no auto-renewal and validations as long as delegations', () => {
    const custom = stakingRulesFor(777);
    expect(heliconActiveAt(custom, now)).toBe(false);
    expect(minValidationAt(custom, now)).toBe(custom.minStakeDuration);
    const v = { rules: custom, now, amount: 2_000n * AVAX, delegationFee: 20_000, alreadyValidating: false };
    expect(refused(() => checkValidation({ ...v, period: 86_400n }))).toMatchObject({ rule: 'no-auto-renew', field: 'autoRenew' });
    expect(refused(() => checkValidation({ ...v, end: now + custom.minValidatorDuration }))).toMatchObject({ rule: 'too-short', field: 'end' });
    expect(() => checkValidation({ ...v, end: now + custom.minStakeDuration })).not.toThrow();
    // The same network once its node reports Helicon active.
    const upgraded = stakingRulesFor(777, now - 10n);
    expect(heliconActiveAt(upgraded, now)).toBe(true);
    expect(minValidationAt(upgraded, now)).toBe(3_600n);
    expect(uptimeRequirementAt(upgraded, now)).toBe(90);
    expect(() => checkValidation({ ...v, rules: upgraded, period: 3_600n })).not.toThrow();
    // A node that schedules it later (or an older node's far-off "unscheduled") keeps the old rules until then.
    expect(heliconActiveAt(stakingRulesFor(777, now + 60n), now)).toBe(false);
    // Mainnet's and Fuji's times are known: a node saying otherwise changes nothing.
    expect(stakingRulesFor(1, now + 60n)).toEqual(stakingRulesFor(1));
    expect(stakingRulesFor(5, 0n)).toEqual(stakingRulesFor(5));
  });

  it('read the Helicon time from info.upgrades, and nothing from an answer without one', async () => {
    expect(await clientAnswering({ apricotPhase1Time: '2020-12-05T05:00:00Z', heliconTime: '2020-12-05T05:00:00Z' }).client.info.heliconTime()).toBe(1607144400n);
    expect(await clientAnswering({ heliconTime: '9999-12-01T00:00:00Z' }).client.info.heliconTime()).toBe(253399622400n);
    expect(await clientAnswering({ apricotPhase1Time: '2020-12-05T05:00:00Z' }).client.info.heliconTime()).toBeUndefined();
    expect(await clientAnswering({ heliconTime: 'soon' }).client.info.heliconTime()).toBeUndefined();
    await expect(clientAnswering('junk').client.info.heliconTime()).rejects.toThrow(NodeResponseError);
  });
});

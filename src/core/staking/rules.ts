// The P-Chain's staking rules, checked before anything is signed (docs/staking.md §Rules): each
// one the node would refuse a tx for, in the node's order, with what was asked and what the rule
// allows in plain words. Pure: the caller gives the rules, the chain time and the validator.
import { WalletError } from '../errors.js';
import { heliconActiveAt, minValidationAt, type StakingRules } from '../network.js';
import { sharesText } from '../describe-pvm.js';
import { avaxWords, durationWords, timeWords } from './words.js';

export type StakingRule =
  | 'stake-too-small'
  | 'stake-too-large'
  | 'too-short'
  | 'too-long'
  | 'outside-validator-period'
  | 'over-capacity'
  | 'fee-too-low'
  | 'not-a-validator'
  | 'already-validating'
  | 'no-auto-renew'
  | 'cycle-ending'
  | 'clock-ahead';

/** A stake the network would refuse: nothing was signed. `field` names the request's param. */
export class StakingRuleError extends WalletError {
  constructor(
    readonly rule: StakingRule,
    message: string,
    readonly field: string,
  ) {
    super('staking-rule', message);
  }
}

/** A validator as the rules see it (from platform.getCurrentValidators). */
export interface ValidatorState {
  nodeID: string;
  start: bigint;
  /** Its end, or the end of its current cycle when auto-renewed. */
  end: bigint;
  weight: bigint;
  delegatorWeight: bigint;
  autoRenew?: unknown;
}

/** How much more may be delegated to `v` now: its weight may reach min(factor × own stake, the network's maximum). */
export function freeSpaceOf(v: Pick<ValidatorState, 'weight' | 'delegatorWeight'>, rules: StakingRules): bigint {
  const byFactor = rules.maxWeightFactor * v.weight;
  const most = byFactor < rules.maxValidatorStake ? byFactor : rules.maxValidatorStake;
  const free = most - v.weight - v.delegatorWeight;
  return free > 0n ? free : 0n;
}

/**
 * `seconds` counted from the later of chain time and the computer's clock (for the minimum), and
 * `longest` from chain time (for the maximum): the node may start it as early as that.
 */
function checkDuration(rules: StakingRules, seconds: bigint, minimum: bigint, what: string, field: string, longest = seconds): void {
  if (seconds < minimum) {
    const asked = seconds <= 0n ? 'that end is not in the future' : `this one would last ${durationWords(seconds)}`;
    throw new StakingRuleError('too-short', `${what} must last at least ${durationWords(minimum)}; ${asked} (staking starts when the network accepts it).`, field);
  }
  if (longest > rules.maxStakeDuration) {
    throw new StakingRuleError('too-long', `${what} can last at most ${durationWords(rules.maxStakeDuration)}; this one would last ${durationWords(longest)}.`, field);
  }
}

/**
 * How far the node's P-Chain time may run ahead of this computer's clock. The chain's blocks run at
 * most seconds ahead of real time; more is a computer's clock set behind, or a node lying. An hour
 * lets a clock a little wrong stake, and lengthens a stake of a day or more by at most that.
 */
export const CLOCK_AHEAD_LIMIT = 3_600n;

/**
 * A new stake's end and its presets count from the later of the chain's time and the computer's
 * clock, and its length is checked from them: a node claiming a time far ahead (lying, or the
 * computer's clock wrong) would pass a stake much longer than the review says. Refused instead.
 */
export function checkClocks(chainTime: bigint, clock: bigint): void {
  if (chainTime - clock <= CLOCK_AHEAD_LIMIT) return;
  throw new StakingRuleError(
    'clock-ahead',
    `The node says it is ${timeWords(chainTime)}, ${durationWords(chainTime - clock)} later than this computer's clock. A stake's end counts from now, so nothing can be staked while they disagree: check this computer's date and time, or use another node.`,
    'end',
  );
}

/** The rules of a delegation that hold whatever its validator: the amount, the duration. */
export function checkDelegationTerms(p: { rules: StakingRules; now: bigint; amount: bigint; end: bigint; chainTime?: bigint }): void {
  if (p.amount < p.rules.minDelegatorStake) {
    throw new StakingRuleError('stake-too-small', `A delegation needs at least ${avaxWords(p.rules.minDelegatorStake)}; this one is ${avaxWords(p.amount)}.`, 'amount');
  }
  checkDuration(p.rules, p.end - p.now, p.rules.minStakeDuration, 'A delegation', 'end', p.end - (p.chainTime ?? p.now));
}

/**
 * A delegation of `amount` to `validator` (undefined: not a current validator) from chain time
 * `now` until `end`, checked as the node checks it. Throws StakingRuleError.
 */
export function checkDelegation(p: { rules: StakingRules; now: bigint; chainTime?: bigint; amount: bigint; end: bigint; nodeID: string; validator: ValidatorState | undefined }): void {
  const { rules, now, amount, end, validator } = p;
  checkDelegationTerms(p);
  if (!validator) throw new StakingRuleError('not-a-validator', 'That node is not validating the Primary Network now, so it cannot take delegations.', 'nodeID');
  if (end > validator.end || now < validator.start) {
    const until = validator.autoRenew !== undefined ? `its current cycle ends ${timeWords(validator.end)}` : `it validates until ${timeWords(validator.end)}`;
    throw new StakingRuleError('outside-validator-period', `A delegation must end while its validator still validates: ${until}, so choose an end no later than that.`, 'end');
  }
  const free = freeSpaceOf(validator, rules);
  if (amount > free) {
    throw new StakingRuleError(
      'over-capacity',
      free === 0n ? 'This validator is full: it can take no more delegations now.' : `This validator can take at most ${avaxWords(free)} more; this delegation is ${avaxWords(amount)}.`,
      'amount',
    );
  }
}

/**
 * A validation of `amount` with a delegation fee of `delegationFee` millionths, either until
 * `end` or auto-renewed in cycles of `period` seconds, checked as the node checks it.
 */
export function checkValidation(p: {
  rules: StakingRules;
  now: bigint;
  chainTime?: bigint;
  amount: bigint;
  delegationFee: number;
  end?: bigint;
  period?: bigint;
  alreadyValidating: boolean;
}): void {
  const { rules, amount } = p;
  if (amount < rules.minValidatorStake) {
    throw new StakingRuleError('stake-too-small', `A validator needs a stake of at least ${avaxWords(rules.minValidatorStake)}; this one is ${avaxWords(amount)}.`, 'amount');
  }
  if (amount > rules.maxValidatorStake) {
    throw new StakingRuleError('stake-too-large', `A validator can stake at most ${avaxWords(rules.maxValidatorStake)}; this one is ${avaxWords(amount)}.`, 'amount');
  }
  if (p.delegationFee < rules.minDelegationFee) {
    throw new StakingRuleError('fee-too-low', `The delegation fee must be at least ${sharesText(rules.minDelegationFee)}; ${sharesText(p.delegationFee)} is below the network's minimum.`, 'delegationFee');
  }
  if (p.period !== undefined && !heliconActiveAt(rules, p.now)) {
    throw new StakingRuleError('no-auto-renew', 'This network does not run auto-renewed validations yet (they came with the Helicon upgrade): choose an end date.', 'autoRenew');
  }
  if (p.period !== undefined) checkDuration(rules, p.period, rules.minValidatorDuration, 'A cycle', 'autoRenew.period');
  else checkDuration(rules, (p.end ?? 0n) - p.now, minValidationAt(rules, p.now), 'A validation', 'end', (p.end ?? 0n) - (p.chainTime ?? p.now));
  if (p.alreadyValidating) throw new StakingRuleError('already-validating', 'That node is already validating the Primary Network: a node can be added only once at a time.', 'nodeID');
}

const CYCLE_END_MARGIN = 600n;

/**
 * Seconds before its cycle ends that a change of an auto-renewed validator is refused: sent later,
 * it could reach the chain after the validator renewed, and wait a whole further cycle. 10 minutes,
 * or a quarter of the shortest cycle where that is less (a test network's seconds-long cycles).
 */
export const cycleEndMargin = (rules: StakingRules): bigint => (rules.minValidatorDuration / 4n < CYCLE_END_MARGIN ? rules.minValidatorDuration / 4n : CYCLE_END_MARGIN);

/**
 * A change to an auto-renewed validator's next cycles, sent at `chainTime` (the later of the chain's
 * and this computer's clock: an idle chain's last block can be minutes old), its current cycle ending at
 * `cycleEnd` (0: not validating now; `reviewedEnd`: as its review said): 0 stops it, else a cycle's length as for a validation.
 */
export function checkAutoRenewChange(p: { rules: StakingRules; period: bigint; chainTime: bigint; cycleEnd: bigint; reviewedEnd?: bigint }): void {
  if (p.reviewedEnd !== undefined && p.reviewedEnd !== p.cycleEnd) {
    // A site's change (site-stakes.ts) reaches here with no cycle (0) once its validator stopped.
    if (!p.cycleEnd) throw new StakingRuleError('not-a-validator', 'The validator stopped since your review: nothing was sent.', 'txID');
    throw new StakingRuleError('cycle-ending', 'A new cycle began since your review: nothing was sent. Review the change again.', 'period');
  }
  const margin = cycleEndMargin(p.rules);
  if (p.cycleEnd - p.chainTime < margin) {
    throw new StakingRuleError('cycle-ending', `This cycle ends in under ${durationWords(margin)}: a change sent now could wait a whole further cycle. Change it once the next one has begun.`, 'period');
  }
  if (p.period === 0n) return;
  checkDuration(p.rules, p.period, p.rules.minValidatorDuration, 'A cycle', 'period');
}

// The validator list the staking screens show (docs/staking.md §Choosing a validator): each current
// validator with the space it has left for delegations and a score, filtered, sorted and picked
// from. The score favours uptime, a low fee, room for delegations and time left; a validator's size
// earns nothing past "has room", and ties go to the smaller one, so stake is not pushed onto the
// largest validators. Pure and linear in the list (mainnet: about 1,500 validators).
import { WalletError } from '../errors.js';
import { type StakingRules, uptimeRequirementAt } from '../network.js';
import type { CurrentValidator } from '../node/validators.js';
import { freeSpaceOf } from './rules.js';
import { sharesText } from '../describe-pvm.js';
import { avaxWords, durationWords, timeWords } from './words.js';

export interface ValidatorModel extends CurrentValidator {
  freeSpace: bigint;
  /** 0–100. */
  score: number;
  /** Its rewards (validation or delegation fees) or its auto-renew authority are all the account's addresses. */
  yours: boolean;
  /** Percent of its time it must be up for its rewards and its delegators': 90 if it started after Helicon. */
  uptimeRequirement: number;
}

export interface ValidatorFilter {
  minUptime?: number;
  maxFee?: number;
  minFreeSpace?: bigint;
  minRemainingSeconds?: bigint;
  nodeID?: string;
}

export type ValidatorSort = 'score' | 'fee' | 'uptime' | 'free-space' | 'end';

/** Where each part of the score saturates. */
const UPTIME_FLOOR = 80;
const FEE_CEILING = 200_000; // 20%: a fee this high or higher earns no fee points
const ROOM_SATURATION = 100; // room for 100 minimum delegations is as good as more
const TIME_SATURATION = 4n; // four minimum delegation periods left is as good as more
const WEIGHTS = { uptime: 40, fee: 25, room: 20, time: 15 };

const clamp = (x: number): number => (x < 0 ? 0 : x > 1 ? 1 : x);

function scoreOf(v: CurrentValidator, free: bigint, rules: StakingRules, now: bigint): number {
  // Not reported counts as the floor: nothing says the validator is up.
  const uptime = clamp(((v.uptime ?? UPTIME_FLOOR) - UPTIME_FLOOR) / (100 - UPTIME_FLOOR));
  const fee = clamp(1 - (v.delegationFee - rules.minDelegationFee) / (FEE_CEILING - rules.minDelegationFee));
  const room = clamp(Math.log10(1 + Number(free) / Number(rules.minDelegatorStake)) / Math.log10(1 + ROOM_SATURATION));
  const left = v.end > now ? v.end - now : 0n;
  const time = clamp(Number(left) / Number(TIME_SATURATION * rules.minStakeDuration));
  const total = WEIGHTS.uptime * uptime + WEIGHTS.fee * fee + WEIGHTS.room * room + WEIGHTS.time * time;
  // A validator the node cannot reach now may be down: its delegators' rewards are at risk.
  return Math.round((v.connected ? total : total / 2) * 10) / 10;
}

function allOf(owner: { addresses: string[] } | undefined, mine: ReadonlySet<string>): boolean {
  return owner !== undefined && owner.addresses.length > 0 && owner.addresses.every((a) => mine.has(a));
}

/** The list's models: free space, score, and whether it is the account's (`mine`: its P addresses). */
export function validatorModels(list: readonly CurrentValidator[], rules: StakingRules, now: bigint, mine: ReadonlySet<string> = new Set()): ValidatorModel[] {
  return list.map((v) => {
    const freeSpace = freeSpaceOf(v, rules);
    const yours = allOf(v.validationRewardOwner, mine) || allOf(v.delegationRewardOwner, mine) || allOf(v.autoRenew?.authority, mine);
    return { ...v, freeSpace, score: scoreOf(v, freeSpace, rules, now), yours, uptimeRequirement: uptimeRequirementAt(rules, v.start) };
  });
}

export function filterValidators(models: readonly ValidatorModel[], f: ValidatorFilter, now: bigint): ValidatorModel[] {
  return models.filter(
    (v) =>
      (f.minUptime === undefined || (v.uptime !== null && v.uptime >= f.minUptime)) &&
      (f.maxFee === undefined || v.delegationFee <= f.maxFee) &&
      (f.minFreeSpace === undefined || v.freeSpace >= f.minFreeSpace) &&
      (f.minRemainingSeconds === undefined || v.end - now >= f.minRemainingSeconds) &&
      (f.nodeID === undefined || v.nodeID.includes(f.nodeID)),
  );
}

const byBigint = (a: bigint, b: bigint): number => (a < b ? -1 : a > b ? 1 : 0);
/** Ties: the smaller validator first (spreading stake), then by NodeID so the order is stable. */
const tie = (a: ValidatorModel, b: ValidatorModel): number => byBigint(a.weight + a.delegatorWeight, b.weight + b.delegatorWeight) || (a.nodeID < b.nodeID ? -1 : a.nodeID > b.nodeID ? 1 : 0);

const ORDERS: Record<ValidatorSort, (a: ValidatorModel, b: ValidatorModel) => number> = {
  score: (a, b) => b.score - a.score || tie(a, b),
  fee: (a, b) => a.delegationFee - b.delegationFee || b.score - a.score || tie(a, b),
  uptime: (a, b) => (b.uptime ?? -1) - (a.uptime ?? -1) || b.score - a.score || tie(a, b),
  'free-space': (a, b) => byBigint(b.freeSpace, a.freeSpace) || b.score - a.score || tie(a, b),
  end: (a, b) => byBigint(b.end, a.end) || b.score - a.score || tie(a, b),
};

/** A sorted copy. */
export function sortValidators(models: readonly ValidatorModel[], sort: ValidatorSort = 'score'): ValidatorModel[] {
  return [...models].sort(ORDERS[sort]);
}

/** What the list screen asks for: filtered, sorted, one page. */
export function validatorPage(models: readonly ValidatorModel[], p: { filter?: ValidatorFilter; sort?: ValidatorSort; offset?: number; limit?: number; now: bigint }): { matching: number; page: ValidatorModel[] } {
  const kept = filterValidators(models, p.filter ?? {}, p.now);
  const offset = p.offset ?? 0;
  const limit = p.limit ?? 20;
  // A full sort of the kept ones: about 1,500 on mainnet, well under a millisecond or two.
  return { matching: kept.length, page: sortValidators(kept, p.sort).slice(offset, offset + limit) };
}

/**
 * The validator the wallet suggests for delegating `amount` until `end`: among those that can take
 * it (room for it, validating past `end`, connected, up at least as long as rewards require), the
 * best score; ties to the smaller one. Its reasons in words. WalletError 'no-validator' if none fits.
 */
export function pickValidator(models: readonly ValidatorModel[], p: { amount: bigint; end: bigint; now: bigint; rules: StakingRules }): { validator: ValidatorModel; reasons: string[] } {
  const { rules } = p;
  // One that keeps 100% of its delegators' reward would pay this delegation nothing.
  const fits = models.filter((v) => v.freeSpace >= p.amount && v.end >= p.end && v.start <= p.now && v.connected && v.uptime !== null && v.uptime >= v.uptimeRequirement && v.delegationFee < 1_000_000);
  if (fits.length === 0) {
    throw new WalletError('no-validator', `No validator can take ${avaxWords(p.amount)} until ${timeWords(p.end)} now while up and connected: try a smaller amount or an earlier end, or choose one from the list.`);
  }
  const [validator] = sortValidators(fits, 'score') as [ValidatorModel];
  const reasons = [
    `It was up ${validator.uptime}% of the time since it started validating (rewards need ${validator.uptimeRequirement}%), and it is connected now.`,
    validator.delegationFee <= rules.minDelegationFee
      ? `It keeps ${sharesText(validator.delegationFee)} of your reward as its fee, the lowest the network allows.`
      : `It keeps ${sharesText(validator.delegationFee)} of your reward as its fee.`,
    `It has room for ${avaxWords(validator.freeSpace)} more, so your ${avaxWords(p.amount)} fits.`,
    validator.end === p.end
      ? `It validates until ${timeWords(validator.end)}, the moment your delegation ends.`
      : `It validates until ${timeWords(validator.end)}, ${durationWords(validator.end - p.end)} after your delegation ends.`,
    `Of the ${fits.length} validator${fits.length === 1 ? '' : 's'} that can take this delegation it scores highest; a validator's size counts for nothing beyond having room, so stake is not steered to the largest ones.`,
  ];
  return { validator, reasons };
}

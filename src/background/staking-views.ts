// The staking service's answers as the protocol carries them (src/shared/messages.ts): bigints to
// decimal strings, owners labelled yours or not, stake records and rewards as the screens show them.
import type { OutputOwners } from '../core/codec/types.js';
import { formatAddress } from '../core/encoding.js';
import { heliconActiveAt, minValidationAt, type StakingRules, uptimeRequirementAt } from '../core/network.js';
import type { ApiOwner } from '../core/node/validators.js';
import type { ValidatorModel } from '../core/staking/validator-list.js';
import type { MyStakeView, OwnerSet, OwnerView, RewardView, StakingParamsView, ValidatorView } from '../shared/messages.js';
import { type StakeRecord, unlockTimeOf } from './stake-book.js';

export function ownerView(set: OwnerSet, mine: ReadonlySet<string>): OwnerView {
  return { ...set, yours: set.addresses.length > 0 && set.addresses.every((a) => mine.has(a)) };
}

export function ownerSetOf(o: OutputOwners, hrp: string): OwnerSet {
  return { addresses: o.addresses.map((a) => formatAddress('P', hrp, a)), threshold: o.threshold, ...(o.locktime > 0n ? { locktime: o.locktime.toString() } : {}) };
}

export function apiOwnerSet(o: ApiOwner): OwnerSet {
  return { addresses: o.addresses, threshold: o.threshold, ...(o.locktime > 0n ? { locktime: o.locktime.toString() } : {}) };
}

export function paramsView(rules: StakingRules, now: bigint, chainTime: bigint): StakingParamsView {
  return {
    chainTime: Number(now),
    minValidatorStake: rules.minValidatorStake.toString(),
    maxValidatorStake: rules.maxValidatorStake.toString(),
    minDelegatorStake: rules.minDelegatorStake.toString(),
    minDelegationFee: rules.minDelegationFee,
    minDelegationSeconds: Number(rules.minStakeDuration),
    minValidationSeconds: Number(minValidationAt(rules, now)),
    autoRenew: heliconActiveAt(rules, now),
    maxStakeSeconds: Number(rules.maxStakeDuration),
    maxEnd: Number(chainTime + rules.maxStakeDuration),
    maxWeightFactor: Number(rules.maxWeightFactor),
    uptimeRequirement: uptimeRequirementAt(rules, now),
  };
}

export function validatorView(m: ValidatorModel): ValidatorView {
  return {
    nodeID: m.nodeID,
    txID: m.txID,
    stake: m.weight.toString(),
    delegated: m.delegatorWeight.toString(),
    delegatorCount: m.delegatorCount,
    freeSpace: m.freeSpace.toString(),
    delegationFee: m.delegationFee,
    uptime: m.uptime,
    uptimeRequirement: m.uptimeRequirement,
    connected: m.connected,
    start: Number(m.start),
    end: Number(m.end),
    ...(m.autoRenew ? { autoRenew: { nextPeriod: Number(m.autoRenew.nextPeriod), restakeShares: m.autoRenew.restakeShares } } : {}),
    potentialReward: m.potentialReward.toString(),
    score: m.score,
    yours: m.yours,
  };
}

/**
 * `listed`: Activity's status of each tx. A stake the node refused (failed in the book) that Activity
 * lists pending again (the node holds it, or its funds went: it may still run) shows as waiting, as
 * there; the book keeps its word, so it is not counted as staked until it ran.
 */
export function myStakeView(s: StakeRecord, mine: ReadonlySet<string>, listed?: ReadonlyMap<string, string>): MyStakeView {
  const finished = s.state === 'finished';
  const state = s.state === 'failed' && ['pending', 'taken-back'].includes(listed?.get(s.txID) ?? '') ? 'pending' : s.state;
  return {
    txID: s.txID,
    kind: s.kind,
    state,
    nodeID: s.nodeID,
    amount: s.amount,
    start: state === 'pending' ? null : (s.start ?? null),
    end: s.end ?? null,
    unlocksAt: unlockTimeOf(s),
    rewardOwner: ownerView(s.rewardOwner, mine),
    ...(s.state === 'active' && s.potentialReward !== undefined ? { potentialReward: s.potentialReward } : {}),
    ...(s.delegationFee !== undefined ? { delegationFee: s.delegationFee } : {}),
    ...(s.delegatorCount !== undefined && s.kind !== 'delegation' ? { delegatorCount: s.delegatorCount } : {}),
    // Its auto-renewal is the account's to change when its keys meet the authority's threshold.
    ...(s.kind === 'auto-renewed' && s.nextPeriod !== undefined
      ? { autoRenew: { nextPeriod: s.nextPeriod, restakeShares: s.restakeShares ?? 0, ...(s.authority ? { yours: s.authority.addresses.filter((a) => mine.has(a)).length >= s.authority.threshold } : {}) } }
      : {}),
    ...(finished ? { reward: s.settled ?? 'waiting' } : {}),
    byWallet: s.byWallet,
  };
}

/** Every reward paid to the account, newest first. */
export function rewardViews(stakes: readonly StakeRecord[]): RewardView[] {
  return stakes
    .flatMap((s) => s.rewards.filter((r) => r.yours).map((r): RewardView => ({ txID: r.txID, stakeTxID: s.txID, nodeID: s.nodeID, kind: r.kind, amount: r.amount, paidAt: r.paidAt, to: r.to })))
    .sort((a, b) => b.paidAt - a.paidAt || (a.txID < b.txID ? -1 : 1));
}

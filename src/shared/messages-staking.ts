// The staking part of the protocol (src/shared/messages.ts, whose WalletRequests takes these
// requests in): the staking.* requests, their params and their results.
import type { ActivityTrimmed, Amount, OwnerSet } from './messages.js';

// ---- staking (staking.*): delegation and validation on the P-Chain ----
//
// Conventions: times are P-Chain times in Unix seconds (JSON numbers); durations are seconds;
// `Shares` are millionths as the P-Chain counts a delegation fee or a restaked part of rewards
// (20 000 = 2%, 1 000 000 = 100%); amounts are nAVAX as decimal strings. Every request that
// signs (staking.delegate, staking.validate, staking.setAutoRenew) takes the `maxFee` its review
// showed and is bound to the reviewed account and network (`selection`), like send.*.
// A staking rule the request breaks is refused before anything is signed, with code
// 'staking-rule', `field` naming the param, and a message in plain words
// ("This validator can take at most 12.5 AVAX more").

/** Unix seconds (P-Chain time). */
export type UnixSeconds = number;
/** Millionths: 1 000 000 = 100%. */
export type Shares = number;

/** An owner set with whether it is this account (every one of its addresses is the account's). */
export interface OwnerView extends OwnerSet {
  yours: boolean;
}

/** The network's staking rules the wallet checks before signing (docs/staking.md). */
export interface StakingParamsView {
  /** When a stake sent now counts from: the later of the P-Chain's last block time and the computer's clock. */
  chainTime: UnixSeconds;
  minValidatorStake: Amount;
  /** The most a validator may weigh: its own stake plus every delegation to it. */
  maxValidatorStake: Amount;
  minDelegatorStake: Amount;
  minDelegationFee: Shares;
  /** Shortest delegation, and shortest validation (also an auto-renewed cycle), in seconds. */
  minDelegationSeconds: number;
  minValidationSeconds: number;
  /** Whether the network runs auto-renewed validations (Helicon). */
  autoRenew: boolean;
  maxStakeSeconds: number;
  /** Unix seconds: the latest end a stake may have, the longest stake from the last block (the node may count from there). */
  maxEnd: number;
  /** Delegations to a validator may bring it to at most this many times its own stake. */
  maxWeightFactor: number;
  /** Percent of its time a validator starting now must be up for its rewards. */
  uptimeRequirement: number;
}

/** A current Primary Network validator, as the staking screens list it. */
export interface ValidatorView {
  nodeID: string;
  /** The tx that added it (for an auto-renewed validator: the one that adds and configures it). */
  txID: string;
  /** Its own stake. */
  stake: Amount;
  /** Every current delegation to it, and how many. */
  delegated: Amount;
  delegatorCount: number;
  /** How much more may be delegated to it now: min(factor × stake, max validator stake) − stake − delegated. */
  freeSpace: Amount;
  delegationFee: Shares;
  /** Percent (0–100) of the time the node measured it up, since it started; null when the node does not say. */
  uptime: number | null;
  /** Percent it must be up for its rewards and its delegators' (90 if it started after Helicon, else 80). */
  uptimeRequirement: number;
  connected: boolean;
  start: UnixSeconds;
  /** When it stops validating; for an auto-renewed validator, the end of its current cycle. */
  end: UnixSeconds;
  /** Auto-renewed validators: the next cycle's length (0: it stops at `end`) and the restaked part of rewards. */
  autoRenew?: { nextPeriod: number; restakeShares: Shares };
  /** What the node expects to pay it for the current period or cycle. */
  potentialReward: Amount;
  /** 0–100, the default order: high uptime, low fee, free space and time left count; its size does not. */
  score: number;
  /** Its rewards, or its auto-renew settings, are this account's. */
  yours: boolean;
}

export interface ValidatorFilter {
  /** Percent, 0–100. */
  minUptime?: number;
  maxFee?: Shares;
  minFreeSpace?: Amount;
  /** Seconds left before it stops (or its cycle ends). */
  minRemainingSeconds?: number;
  /** Only validators whose NodeID contains this text (case-sensitive, as NodeIDs are). */
  nodeID?: string;
}

/** 'score' (the default) favours uptime, a low fee and free space; the others sort by that one column. */
export type ValidatorSort = 'score' | 'fee' | 'uptime' | 'free-space' | 'end';

/** Where a stake, a reward or fees go when a staking ends, and when. */
export interface ArrivalView {
  what: 'stake' | 'reward' | 'delegation-fees';
  amount: Amount;
  /** A reward is the node's estimate until it is paid (it depends on uptime and the supply then). */
  estimated: boolean;
  /** When; null while an auto-renewed validation keeps renewing (back when it is stopped). */
  at: UnixSeconds | null;
  to: OwnerView;
}

/** What the review of a delegation shows. */
export interface DelegationReview {
  nodeID: string;
  amount: Amount;
  /** The P-Chain address whose funds are staked (and the fee paid from). */
  from: string;
  /** Staking starts when the chain accepts it (about now); it ends at `end`. */
  start: UnixSeconds;
  end: UnixSeconds;
  rewardOwner: OwnerView;
  /** nAVAX the tx burns: exact, built as staking.delegate builds it. */
  fee: Amount;
  /** The reward after the validator's fee, if the validator stays up long enough. */
  estimatedReward: Amount;
  /** The validator's part of the reward (its delegation fee). */
  validatorFee: Amount;
  validator: ValidatorView;
  arrives: ArrivalView[];
}

/** A node's identity for validating: its NodeID and BLS key with proof of possession (0x hex). */
export interface NodeKeyView {
  nodeID: string;
  /** 48 bytes. */
  publicKey: string;
  /** 96 bytes. */
  proofOfPossession: string;
}

/**
 * A validation: either for a fixed period (`end`) or auto-renewed (`autoRenew`: cycles of
 * `period` seconds, renewed until stopped, restaking `restakeShares` of each cycle's rewards).
 * Owners default to the account's P address.
 */
export interface ValidationParams extends NodeKeyView {
  amount: Amount;
  end?: UnixSeconds;
  autoRenew?: { period: number; restakeShares: Shares };
  delegationFee: Shares;
  rewardOwner?: OwnerSet;
  delegationFeeOwner?: OwnerSet;
}

/** What the review of a validation shows. */
export interface ValidationReview extends NodeKeyView {
  amount: Amount;
  from: string;
  start: UnixSeconds;
  /** The end, or for an auto-renewed validation the end of its first cycle. */
  end: UnixSeconds;
  autoRenew?: { period: number; restakeShares: Shares };
  delegationFee: Shares;
  rewardOwner: OwnerView;
  delegationFeeOwner: OwnerView;
  /** Auto-renewed: who may change or stop it (the account). */
  authority?: OwnerView;
  fee: Amount;
  /** For the period, or for the first cycle. */
  estimatedReward: Amount;
  arrives: ArrivalView[];
}

/** What the review of a change to an auto-renewed validator shows. */
export interface AutoRenewReview {
  txID: string;
  nodeID: string;
  /**
   * The settings now, and those asked: the node applies `restakeShares` at once, so it splits the
   * current cycle's rewards at its end; `period` is the length from the next cycle on (0: it stops
   * when the current cycle ends, and all its rewards are paid).
   */
  current: { period: number; restakeShares: Shares };
  next: { period: number; restakeShares: Shares };
  /** The end of the current cycle: its rewards are split by the new share then, and the new period starts. */
  takesEffect: UnixSeconds;
  authority: OwnerView;
  /** The P address the fee is paid from. */
  from: string;
  fee: Amount;
}

/** A signed staking tx, sent and followed: 'accepted' once the node committed it. */
export interface StakingSent {
  txID: string;
  fee: Amount;
  /** 'pending': the node has not decided yet (followed by the refreshes, never sent twice). */
  status: 'accepted' | 'pending';
}

/** A stake of this account: issued by the wallet, or found among the validators with its rewards. */
export interface MyStakeView {
  txID: string;
  kind: 'delegation' | 'validation' | 'auto-renewed';
  /** 'pending': sent, not yet committed; 'failed': the node refused it (the stake never left). */
  state: 'pending' | 'active' | 'finished' | 'failed';
  nodeID: string;
  amount: Amount;
  start: UnixSeconds | null;
  /** The end, or the end of the current cycle of an auto-renewed validator. */
  end: UnixSeconds | null;
  /** When the stake comes back; null while an auto-renewed validator keeps renewing. */
  unlocksAt: UnixSeconds | null;
  rewardOwner: OwnerView;
  /** Active: what the node expects to pay for this period or cycle. */
  potentialReward?: Amount;
  /** Validations: their fee, and the delegations they hold now. */
  delegationFee?: Shares;
  delegatorCount?: number;
  /** `yours`: whether the account's keys may change it (false: only its authority, not this account; absent: not seen yet). */
  autoRenew?: { nextPeriod: number; restakeShares: Shares; yours?: boolean };
  /**
   * Finished: 'paid' (rewards below), 'not-paid' (uptime too low), 'waiting' (the chain has not
   * settled it yet), 'unknown' (an auto-renewed validator never seen before it left: its cycle ends,
   * and so its rewards, could not be found; what was paid is in the P balance).
   */
  reward?: 'paid' | 'not-paid' | 'waiting' | 'unknown';
  /** Issued by this wallet (else seen among the validators). */
  byWallet: boolean;
}

/** A staking reward the chain paid to this account. */
export interface RewardView {
  /** The chain's reward tx (RewardValidatorTx or RewardAutoRenewedValidatorTx). */
  txID: string;
  /** The staking tx it rewards. */
  stakeTxID: string;
  nodeID: string;
  kind: 'delegation' | 'validation' | 'delegation-fees';
  amount: Amount;
  paidAt: UnixSeconds;
  to: string;
}

export interface MyStakesView {
  chainTime: UnixSeconds;
  /** Newest first. */
  stakes: MyStakeView[];
  /** Newest first. */
  rewards: RewardView[];
  /** Staked now (pending and active), rewards expected for the current periods, rewards paid so far. */
  totals: { staked: Amount; potentialReward: Amount; rewardsPaid: Amount };
}

/** The staking.* requests of WalletRequests: their params and results. */
export interface StakingRequests {
  /** The network's staking rules, as the wallet checks them. */
  'staking.params': { params: Record<string, never>; result: StakingParamsView };
  /**
   * Current Primary Network validators, filtered, sorted (default 'score') and paged (limit ≤ 100,
   * default 20). `total`: all validators; `matching`: those the filter keeps.
   */
  'staking.validators': {
    params: { filter?: ValidatorFilter; sort?: ValidatorSort; offset?: number; limit?: number };
    result: { chainTime: UnixSeconds; total: number; matching: number; validators: ValidatorView[] };
  };
  /** A validator for a delegation of `amount` until `end`, and why it was chosen, in words. */
  'staking.pick': { params: { amount: Amount; end: UnixSeconds }; result: { validator: ValidatorView; reasons: string[] } };
  /** Everything the review of a delegation shows; rule violations refused here already. Nothing is signed. */
  'staking.estimateDelegation': { params: { nodeID: string; amount: Amount; end: UnixSeconds; rewardOwner?: OwnerSet }; result: DelegationReview };
  'staking.delegate': { params: { nodeID: string; amount: Amount; end: UnixSeconds; rewardOwner?: OwnerSet; maxFee: Amount }; result: StakingSent };
  /**
   * A node's NodeID and BLS key with its proof of possession, from info.getNodeID of the node at
   * `url` (asked by the background; its answer is checked for shape, and the chain checks the proof).
   */
  'staking.nodeKey': { params: { url: string }; result: NodeKeyView };
  'staking.estimateValidation': { params: ValidationParams; result: ValidationReview };
  'staking.validate': { params: ValidationParams & { maxFee: Amount }; result: StakingSent };
  /** A change to the account's auto-renewed validator (`txID`: the tx that added it): its restaked share from the current cycle's rewards on, its period from the next cycle; period 0 stops it. */
  'staking.estimateAutoRenew': { params: { txID: string; period: number; restakeShares: Shares }; result: AutoRenewReview };
  /** `takesEffect`: the review's (the cycle end it was made for); another is refused, nothing sent. */
  'staking.setAutoRenew': { params: { txID: string; period: number; restakeShares: Shares; takesEffect: number; maxFee: Amount }; result: StakingSent };
  /** The account's stakes (pending, active, finished) and the rewards paid to it. */
  'staking.mine': { params: Record<string, never>; result: MyStakesView };
  /**
   * CSV text (header: date,txID,kind,amount,asset,fee): the staking rewards, or ('all') every
   * activity item too. Dates ISO 8601 UTC, amounts exact decimals in the asset's units, fee in AVAX.
   */
  'staking.rewardsCsv': { params: { scope: 'rewards' | 'all' }; result: { csv: string; rows: number; trimmed?: ActivityTrimmed } };
}

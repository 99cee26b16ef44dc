// The P-Chain's staking rules on each network (docs/staking.md). Apart from network.ts because they
// are the staking screens' and checks' concern, not discovery's.
import { LOCAL_NETWORK_ID } from './network-presets.js';

/**
 * The P-Chain's staking rules for the Primary Network. Only the minimum stakes are asked of the
 * node (platform.getMinStake); the node reports none of the rest, so they are the values its
 * genesis parameters (mainnet, Fuji) or its start flags (the local test network) set.
 */
export interface StakingRules {
  minValidatorStake: bigint;
  /** The most a validator may weigh, its own stake and its delegations together. */
  maxValidatorStake: bigint;
  minDelegatorStake: bigint;
  /** Millionths (20 000 = 2%). */
  minDelegationFee: number;
  /** Seconds: the shortest delegation (and, before Helicon, validation). */
  minStakeDuration: bigint;
  /** Seconds: the shortest validation since Helicon (ACP-273), an auto-renewed cycle included. */
  minValidatorDuration: bigint;
  maxStakeDuration: bigint;
  /** Delegations may bring a validator to this many times its own stake. */
  maxWeightFactor: bigint;
  /** Percent of its time a validator must be up for rewards; see uptimeRequirementAt for Helicon's 90%. */
  uptimeRequirement: number;
  reward: RewardConfig;
}

/** ACP-267: a Primary Network validator that starts at or after Helicon must be up 90% of its time. */
const HELICON_UPTIME_REQUIREMENT = 90;

/**
 * Percent of its time a validator that started at `start` must be up for its rewards and its
 * delegators'. The node keys the rule on the validator's start, so one that started before Helicon
 * keeps the older requirement.
 */
export function uptimeRequirementAt(rules: StakingRules, start: bigint): number {
  const helicon = rules.reward.heliconTime;
  return helicon !== undefined && start >= helicon ? HELICON_UPTIME_REQUIREMENT : rules.uptimeRequirement;
}

/** The reward formula's parameters (docs/staking.md §Rewards). */
export interface RewardConfig {
  /** Millionths per year at the shortest and at the longest stake (before the Helicon ramp). */
  minConsumptionRate: bigint;
  maxConsumptionRate: bigint;
  /** Seconds. */
  mintingPeriod: bigint;
  supplyCap: bigint;
  /** When Helicon activated (Unix seconds): the minimum rate ramps to 7.5% over 90 days from then. Absent: not scheduled. */
  heliconTime?: bigint;
  /** nAVAX minted at genesis, where known: the supply never falls below it, whatever a node says (stakingReward). */
  genesisSupply?: bigint;
}

const DAY = 86_400n;
const NAVAX_PER_AVAX = 1_000_000_000n;
const AVAX_REWARDS: Omit<RewardConfig, 'heliconTime'> = { minConsumptionRate: 100_000n, maxConsumptionRate: 120_000n, mintingPeriod: 365n * DAY, supplyCap: 720_000_000n * NAVAX_PER_AVAX };

/** Mainnet and Fuji's genesis staking parameters and Helicon times; local networks' defaults. */
const MAINNET_STAKING: StakingRules = {
  minValidatorStake: 2_000n * NAVAX_PER_AVAX,
  maxValidatorStake: 3_000_000n * NAVAX_PER_AVAX,
  minDelegatorStake: 25n * NAVAX_PER_AVAX,
  minDelegationFee: 20_000,
  minStakeDuration: 14n * DAY,
  minValidatorDuration: 2n * DAY,
  maxStakeDuration: 365n * DAY,
  maxWeightFactor: 5n,
  uptimeRequirement: 80,
  reward: { ...AVAX_REWARDS, heliconTime: BigInt(Date.UTC(2026, 8, 22, 15) / 1000), genesisSupply: 360_000_000n * NAVAX_PER_AVAX },
};
const FUJI_STAKING: StakingRules = {
  ...MAINNET_STAKING,
  minValidatorStake: NAVAX_PER_AVAX,
  minDelegatorStake: NAVAX_PER_AVAX,
  minStakeDuration: DAY,
  minValidatorDuration: DAY / 2n,
  reward: { ...AVAX_REWARDS, heliconTime: BigInt(Date.UTC(2026, 6, 28, 15) / 1000) },
};
/** A node's defaults on any other network (its --min-stake-duration etc.; Helicon unscheduled). */
const DEFAULT_STAKING: StakingRules = { ...MAINNET_STAKING, minStakeDuration: DAY, minValidatorDuration: 3_600n, reward: AVAX_REWARDS };
/**
 * The local Helicon test network (`npm run node`, the integration tests): its start flags shorten
 * both minimum durations to 20 s (test/integration/node-harness.ts), and every upgrade is active
 * from its genesis time 2020-12-05T05:00:00Z.
 */
const LOCAL_STAKING: StakingRules = {
  ...DEFAULT_STAKING,
  minStakeDuration: 20n,
  minValidatorDuration: 20n,
  reward: { ...AVAX_REWARDS, heliconTime: BigInt(Date.UTC(2020, 11, 5, 5) / 1000) },
};

/**
 * The staking rules of the network with this ID; minimum stakes are then read from the node. The
 * Helicon time a node reports (info.upgrades) is taken only where none is known, a custom network,
 * which may run Helicon or not yet: Mainnet's and Fuji's are fixed, whatever a node says.
 */
export function stakingRulesFor(networkID: number, heliconTime?: bigint): StakingRules {
  const known = networkID === 1 ? MAINNET_STAKING : networkID === 5 ? FUJI_STAKING : networkID === LOCAL_NETWORK_ID ? LOCAL_STAKING : DEFAULT_STAKING;
  return heliconTime === undefined || known.reward.heliconTime !== undefined ? known : { ...known, reward: { ...known.reward, heliconTime } };
}

/** Whether Helicon's staking (auto-renewed validators, ACP-273's shorter validations) is active at `now`. */
export function heliconActiveAt(rules: StakingRules, now: bigint): boolean {
  const helicon = rules.reward.heliconTime;
  return helicon !== undefined && now >= helicon;
}

/** Seconds: the shortest validation at `now`; before Helicon, the same as a delegation's. */
export function minValidationAt(rules: StakingRules, now: bigint): bigint {
  return heliconActiveAt(rules, now) ? rules.minValidatorDuration : rules.minStakeDuration;
}

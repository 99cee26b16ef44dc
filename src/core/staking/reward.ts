// The Primary Network's staking reward (docs/staking.md §Rewards), as the P-Chain computes it when a
// stake starts: integer arithmetic in the node's order, so an estimate made with the node's supply
// at the same start is the node's potentialReward to the nAVAX.
import type { RewardConfig } from '../network.js';

const MILLION = 1_000_000n;
const NS_PER_SECOND = 1_000_000_000n;
const U64_MAX = 0xffff_ffff_ffff_ffffn;
/** ACP-285: the minimum rate moves to 7.5% over the 90 days after Helicon, by stake start. */
const HELICON_MIN_RATE = 75_000n;
const HELICON_RAMP_SECONDS = 90n * 86_400n;

/** The minimum consumption rate that applies to a stake starting at `start` (Unix seconds). */
export function minRateAt(config: RewardConfig, start: bigint): bigint {
  const helicon = config.heliconTime;
  if (helicon === undefined || start < helicon || config.minConsumptionRate === HELICON_MIN_RATE) return config.minConsumptionRate;
  // A network whose maximum is below the target keeps its minimum.
  if (config.maxConsumptionRate < HELICON_MIN_RATE) return config.minConsumptionRate;
  const full = config.minConsumptionRate > HELICON_MIN_RATE ? config.minConsumptionRate - HELICON_MIN_RATE : HELICON_MIN_RATE - config.minConsumptionRate;
  // The node ramps in nanoseconds; seconds give the same quotient only when scaled alike.
  const elapsed = start - helicon;
  const change = elapsed >= HELICON_RAMP_SECONDS ? full : (full * elapsed * NS_PER_SECOND) / (HELICON_RAMP_SECONDS * NS_PER_SECOND);
  return config.minConsumptionRate > HELICON_MIN_RATE ? config.minConsumptionRate - change : config.minConsumptionRate + change;
}

/**
 * The reward for staking `amount` for `duration` seconds from `start`, with `nodeSupply` nAVAX in
 * existence as the node says (never less than the genesis supply, where known): (cap − supply) × amount/supply × rate(duration) × duration/mintingPeriod, where the
 * rate runs from the minimum to the maximum consumption rate as the duration nears the minting
 * period. Durations count in nanoseconds, as on the node, so every floor falls where the node's does.
 */
export function stakingReward(config: RewardConfig, start: bigint, duration: bigint, amount: bigint, nodeSupply: bigint): bigint {
  // A node claiming less than was minted at genesis would make the estimate as large as it likes.
  const supply = config.genesisSupply !== undefined && nodeSupply < config.genesisSupply ? config.genesisSupply : nodeSupply;
  if (supply <= 0n || duration <= 0n || amount <= 0n) return 0n;
  const remaining = config.supplyCap > supply ? config.supplyCap - supply : 0n;
  const d = duration * NS_PER_SECOND;
  const period = config.mintingPeriod * NS_PER_SECOND;
  const minRate = minRateAt(config, start);
  const rateNumerator = (config.maxConsumptionRate - minRate) * d + minRate * period;
  let reward = remaining * rateNumerator * amount * d;
  reward /= period * MILLION;
  reward /= supply;
  reward /= period;
  return reward < remaining ? reward : remaining;
}

/**
 * A delegator's reward split as the chain pays it: the validator keeps `shares` millionths (its
 * delegation fee, rounded in its favour), the delegator gets the rest.
 */
export function splitReward(reward: bigint, shares: number): { validator: bigint; delegator: bigint } {
  const rest = MILLION - BigInt(shares);
  // The node multiplies first unless that overflows 64 bits; then it divides first.
  const delegator = rest * reward <= U64_MAX ? (rest * reward) / MILLION : rest * (reward / MILLION);
  return { validator: reward - delegator, delegator };
}

// Following the account's stakes on the chain (docs/staking.md §Finding rewards): a sent one until
// it is committed, an active one through the validator list (its period, its current cycle, what
// the node expects to pay), and a finished one until its reward tx is decided, then the reward
// UTXOs that tx paid, told apart and recorded. An auto-renewed validator is rewarded per cycle: each
// cycle end seen passing is settled on its own.
import { cb58Encode, parseAddress, formatAddress } from '../core/encoding.js';
import type { TxState } from '../core/engine.js';
import { NodeUnreachableError, RpcError, TimeoutError } from '../core/errors.js';
import { ownersOf, sortAddresses } from '../core/codec/rules.js';
import type { OutputOwners } from '../core/codec/types.js';
import type { NodeClient } from '../core/node.js';
import type { CurrentValidator } from '../core/node/validators.js';
import { splitReward } from '../core/staking/reward.js';
import { CLOCK_AHEAD_LIMIT } from '../core/staking/rules.js';
import { classifyRewardUtxos, rewardTxIdOf } from '../core/staking/rewards.js';
import type { OwnerSet } from '../shared/messages.js';
import type { RewardRecord, StakeRecord } from './stake-book.js';
import { apiOwnerSet } from './staking-views.js';

/** At most this many missed cycles are looked for when an auto-renewed validator was not seen for long. */
const MAX_MISSED_CYCLES = 50;
/**
 * A stepped cycle end (a guess) whose reward tx the node does not know this long after the chain's
 * time passed it was never a cycle's. Generous, so that a lagging node behind a load balancer
 * answering "unknown" for a decided reward tx does not drop a real one.
 */
const STEPPED_END_GRACE_SECONDS = 3_600;
/**
 * A stake found in the node's validator list (not sent by the wallet) whose reward tx the node does
 * not know this long after its end is not waited for: an honest node decides it at the end, so it
 * was a list's invention (a hostile node planting stakes to be asked about on every refresh).
 */
const FOUND_UNDECIDED_GRACE_SECONDS = 86_400;
/** A stake is in the book a moment before its tx is in the outbox (services/staking.ts). */
const UNSENT_GRACE_MS = 600_000;

export interface FollowInput {
  node: NodeClient;
  hrp: string;
  /** The account's P addresses. */
  mine: ReadonlySet<string>;
  /** P-Chain time, Unix seconds. */
  now: number;
  /** Every current validator, and, per NodeID asked singly, that validator with its delegators. */
  validators: readonly CurrentValidator[];
  withDelegators: ReadonlyMap<string, CurrentValidator>;
  txState: (txID: string) => Promise<TxState>;
  /** The txs in the outbox (sent, or to be sent again). */
  outbox: ReadonlySet<string>;
  /** Whether a tx ran, checked against what it spends (WalletEngine.txFate), not on the node's word: unproven when absent. */
  ran?: (txID: string) => Promise<boolean>;
  /** Activity's status of each listed tx: decided there only as checked against what it spends. */
  listed?: ReadonlyMap<string, string>;
}

/** A reward tx the chain decided, with what it paid: new since the last look. */
export interface FoundReward {
  stake: StakeRecord;
  rewardTxID: string;
  paidAt: number;
  rewards: RewardRecord[];
}

/** For comparison only: an owner set the chain took (one of no address, say) is never refused here, which would stop every stake's follow. */
const owners = (set: OwnerSet): OutputOwners => ({ locktime: 0n, threshold: set.threshold, addresses: sortAddresses(set.addresses.map((a) => parseAddress(a).bytes)) });

/** The NodeIDs whose delegator lists following these stakes needs (their active delegations). */
export function delegationNodes(stakes: readonly StakeRecord[]): string[] {
  return [...new Set(stakes.filter((s) => s.kind === 'delegation' && (s.state === 'active' || s.state === 'pending')).map((s) => s.nodeID))];
}

/** True when something is left to look at (a stake not yet finished, or a reward not yet settled). */
export function hasOpenStakes(stakes: readonly StakeRecord[], listed?: ReadonlyMap<string, string>): boolean {
  return stakes.some((s) => s.state === 'pending' || s.state === 'active' || (s.state === 'finished' && (s.settled === undefined || (s.cyclesToSettle?.length ?? 0) > 0)) || (s.state === 'failed' && !['failed', 'replaced'].includes(listed?.get(s.txID) ?? 'failed')));
}

function see(s: StakeRecord, v: { start: bigint; end: bigint; potentialReward: bigint }): void {
  s.start = Number(v.start);
  s.end = Number(v.end);
  s.potentialReward = v.potentialReward.toString();
}

/** Marks `end` as a guess (stepped by a period, or from the review), not an end seen. */
const stepped = (s: StakeRecord, end: number): void => {
  s.steppedEnds = [...new Set([...(s.steppedEnds ?? []), end])];
};

/** An auto-renewed validator seen in cycle [start, end): every cycle end before `start` is past. */
function seeCycle(s: StakeRecord, v: CurrentValidator, sent: boolean): void {
  const past = s.cyclesToSettle ?? [];
  const start = Number(v.start);
  const period = s.nextPeriod ?? 0;
  // A first end recorded from the review is a guess, a few seconds either side of the real one
  // (the cycle counts from the accepting block): only half a period decides which cycle it is.
  const guess = s.end !== undefined && (s.steppedEnds ?? []).includes(s.end);
  const slack = guess ? Math.floor(period / 2) : 0;
  if (s.end !== undefined && start >= s.end - slack && (guess || start >= s.end)) {
    // The new cycle's start is an end, seen; so is the last end recorded, unless it is the guess.
    // Cycles this wallet did not see in between are guessed by stepping back from that start by
    // the last known period, down to the last end recorded (the real one near a guess included).
    past.push(start);
    if (!guess) past.push(s.end);
    for (let e = start - period, n = 0; period > 0 && e > s.end - slack && n < MAX_MISSED_CYCLES; e -= period, n++) {
      past.push(e);
      stepped(s, e);
    }
    // Accepted since the last look, the start seen may be the first (type 40 has no time bounds:
    // accepted late), no end: a guess too, dropped if no reward tx ends a cycle there.
    if (guess && sent) stepped(s, start);
    else s.steppedEnds = s.steppedEnds?.filter((e) => e !== start);
  }
  // Seen now: the guess from the review is not an end to look for.
  if (guess) s.steppedEnds = s.steppedEnds?.filter((e) => e !== s.end);
  s.cyclesToSettle = [...new Set(past)].sort((a, b) => a - b);
  see(s, v);
  s.amount = v.weight.toString();
  s.delegatorCount = v.delegatorCount;
  if (v.autoRenew) {
    s.nextPeriod = Number(v.autoRenew.nextPeriod);
    s.restakeShares = v.autoRenew.restakeShares;
    s.authority = apiOwnerSet(v.autoRenew.authority);
  }
}

/** It left the validator set: its last cycle ended at `end` (or later, had it renewed unseen: guesses). */
function lastCycles(s: StakeRecord, now: number): void {
  const past = s.cyclesToSettle ?? [];
  if (s.end !== undefined && (s.steppedEnds ?? []).includes(s.end)) {
    // Never seen: its ends are known only to the second it was accepted, and a reward tx's ID
    // needs the exact end. What was paid is in the balance; the book says it cannot tell.
    s.settled = 'unknown';
    delete s.steppedEnds;
  } else if (s.end !== undefined) {
    past.push(s.end);
    for (let e = s.end + (s.nextPeriod ?? 0), n = 0; (s.nextPeriod ?? 0) > 0 && e <= now && n < MAX_MISSED_CYCLES; e += s.nextPeriod!, n++) {
      past.push(e);
      stepped(s, e);
    }
  }
  s.cyclesToSettle = [...new Set(past)].sort((a, b) => a - b);
}

/** Moves each stake on from what the chain says now. Mutates the records. */
async function advance(s: StakeRecord, input: FollowInput): Promise<void> {
  // A refused one stays in the outbox while the node may still run it (refused.ts): asked again until
  // then, or taken as Activity lists it once it ran. The node's "failed" or "unknown" is not taken
  // while Activity lists it pending (settle-activity.ts decides, with the outbox's bytes or without:
  // never failed on the node's word alone); one Activity lists failed while the outbox still holds
  // it was decided there (a lost one past its sendBefore, say: outbox-settle.ts). Its "committed" is taken
  // only as Activity's accepted, or once checked against what the tx spends (`ran`), in the outbox
  // or not: the node may have kept the bytes it refused, and another network entry may have sent them.
  const listedAs = input.listed?.get(s.txID);
  // One Activity lists as never run (an accepted tx of the wallet's took its place) is failed,
  // whatever the node says: one taken back and called accepted again, say (settleOutbox).
  if (listedAs === 'replaced' && s.byWallet && (s.state === 'pending' || s.state === 'active')) {
    s.state = 'failed';
    return;
  }
  // Taken back (its funds listed again: reopenContradicted in settle-activity.ts), it is pending there.
  const listed = listedAs === 'taken-back' ? 'pending' : listedAs === 'replaced' ? 'failed' : listedAs;
  const checked = listed !== 'accepted';
  const refused = s.state === 'failed' && s.byWallet && (input.outbox.has(s.txID) || listed === 'accepted');
  // Taken back (its funds listed again: reopenContradicted in settle-activity.ts), Activity lists it
  // pending: followed as sent, so a look that read the book before never makes it active unchecked.
  if (s.state === 'active' && s.byWallet && listed === 'pending') s.state = 'pending';
  const sent = s.state === 'pending' || refused;
  if (sent) {
    const state = listed === 'accepted' || (listed === 'failed' && input.outbox.has(s.txID)) ? listed : await input.txState(s.txID);
    // One the node does not know and the outbox no longer sends (given up, or never written) never ran.
    // Past its end (a delegation's or fixed validation's, from its tx) and not run by the node's
    // word, it never can be: failed, whatever Activity waits for. While the node still holds it
    // (processing), only an hour later: the chain's time may run behind the time used here
    // (lockClamp: up to CLOCK_AHEAD_LIMIT ahead), and a node holding it for good must not keep it pending.
    const past = s.kind !== 'auto-renewed' && s.end !== undefined && input.now >= s.end;
    const ended = past && (state === 'unknown' || state === 'failed' || (state === 'processing' && input.now >= s.end! + Number(CLOCK_AHEAD_LIMIT)));
    if (ended || (listed !== 'pending' && (state === 'failed' || (state === 'unknown' && !input.outbox.has(s.txID) && Date.now() - s.createdAt > UNSENT_GRACE_MS)))) s.state = 'failed';
    if (state !== 'accepted' || (checked && !(await input.ran?.(s.txID)))) return;
    s.state = 'active';
  }
  if (s.state !== 'active') return;
  if (s.kind === 'delegation') {
    const v = input.withDelegators.get(s.nodeID);
    const d = v?.delegators?.find((x) => x.txID === s.txID);
    // The node lists a delegation's whole reward; its validator's fee comes off when it is paid.
    if (v && d) see(s, { ...d, potentialReward: splitReward(d.potentialReward, v.delegationFee).delegator });
    else if (s.end === undefined || input.now >= s.end) s.state = 'finished';
    return;
  }
  const v = input.validators.find((x) => x.txID === s.txID);
  if (v) {
    if (s.kind === 'auto-renewed') seeCycle(s, v, sent);
    else {
      see(s, v);
      s.delegatorCount = v.delegatorCount;
    }
    return;
  }
  if (s.end !== undefined && input.now < s.end) return;
  if (s.kind === 'auto-renewed') lastCycles(s, input.now);
  s.state = 'finished';
}

/** The rewards one decided reward tx paid, as records. */
async function rewardsOf(s: StakeRecord, input: FollowInput, rewardTxID: string, committed: boolean, paidAt: number): Promise<RewardRecord[]> {
  // A delegation's or a fixed validation's UTXOs are listed under the staking tx, a cycle's under its reward tx.
  const listedUnder = s.kind === 'auto-renewed' ? rewardTxID : s.txID;
  // What a node lists there from another tx is not this reward (a reward UTXO's ID is that tx's).
  const utxos = (await input.node.platform.getRewardUtxos(listedUnder)).filter((u) => cb58Encode(u.txID) === listedUnder);
  const classified = classifyRewardUtxos(s.kind, committed, utxos, { reward: owners(s.rewardOwner), ...(s.delegationFeeOwner ? { delegationFees: owners(s.delegationFeeOwner) } : {}) }, s.restaked);
  return classified.map((r) => {
    const to = ownersOf(r.utxo.output).addresses.map((a) => formatAddress('P', input.hrp, a));
    return { txID: rewardTxID, kind: r.kind, amount: r.amount.toString(), paidAt, to: to[0] ?? '', yours: to.length > 0 && to.every((a) => input.mine.has(a)) };
  });
}

/** Looks at the reward txs due; returns those decided since the last look. Mutates the records. */
async function settle(s: StakeRecord, input: FollowInput): Promise<FoundReward[]> {
  const found: FoundReward[] = [];
  /** True: paid; false: aborted ('failed' to the engine); 'processing' or 'unknown': not decided yet (or never issued). */
  const decide = async (rewardTxID: string, paidAt: number): Promise<boolean | 'processing' | 'unknown'> => {
    const state = await input.txState(rewardTxID);
    if (state !== 'accepted' && state !== 'failed') return state;
    const committed = state === 'accepted';
    const rewards = await rewardsOf(s, input, rewardTxID, committed, paidAt);
    s.rewards = [...s.rewards.filter((r) => r.txID !== rewardTxID), ...rewards];
    found.push({ stake: s, rewardTxID, paidAt, rewards });
    return committed;
  };
  if (s.kind === 'auto-renewed') {
    let last: boolean | undefined;
    let given = false;
    const left: number[] = [];
    for (const end of s.cyclesToSettle ?? []) {
      if (end > input.now) {
        left.push(end);
        continue;
      }
      const committed = await decide(rewardTxIdOf('auto-renewed', s.txID, BigInt(end)), end);
      // The chain's time passes a staker's end only after its reward tx is decided: a stepped
      // guess it passed long ago with no such tx was never a cycle's end (the validator was
      // aborted, or its period changed, unseen), so it is not waited for. Ends seen are never dropped.
      if (committed === 'unknown' && s.steppedEnds?.includes(end) && end + STEPPED_END_GRACE_SECONDS < input.now) continue;
      if (committed === 'unknown' && !s.byWallet && end + FOUND_UNDECIDED_GRACE_SECONDS < input.now) {
        given = true;
        continue;
      }
      if (typeof committed !== 'boolean') {
        left.push(end);
        continue;
      }
      last = committed;
      // An aborted cycle removes the validator: no cycle follows it.
      if (!committed) break;
      if (s.restakeShares) s.restaked = true;
    }
    // Marks of ends settled or dropped go; those not looked at yet (a guess still ahead) stay.
    const gone = (s.cyclesToSettle ?? []).filter((e) => !left.includes(e));
    s.cyclesToSettle = left;
    s.steppedEnds = s.steppedEnds?.filter((e) => !gone.includes(e));
    if (s.steppedEnds?.length === 0) delete s.steppedEnds;
    if (s.state === 'finished' && left.length === 0 && s.settled === undefined) s.settled = last === undefined && given ? 'unknown' : last === false ? 'not-paid' : 'paid';
    return found;
  }
  if (s.state !== 'finished' || s.settled !== undefined || s.end === undefined) return found;
  const committed = await decide(rewardTxIdOf(s.kind, s.txID), s.end);
  if (typeof committed === 'boolean') s.settled = committed ? 'paid' : 'not-paid';
  else if (committed === 'unknown' && !s.byWallet && s.end + FOUND_UNDECIDED_GRACE_SECONDS < input.now) s.settled = 'unknown';
  return found;
}

/** Follows every stake once; returns the reward txs decided since the last time. */
export async function followStakes(stakes: StakeRecord[], input: FollowInput): Promise<FoundReward[]> {
  const found: FoundReward[] = [];
  for (const s of stakes) {
    try {
      await advance(s, input);
      found.push(...(await settle(s, input)));
    } catch (e) {
      // One record the follow cannot read (a damaged address, an odd answer about it) is left for the
      // next look; the others go on. A node that cannot be reached stops it all, said as such.
      if (e instanceof NodeUnreachableError || e instanceof TimeoutError || e instanceof RpcError) throw e;
    }
  }
  return found;
}

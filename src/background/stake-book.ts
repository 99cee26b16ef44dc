// The account's stakes, per network (storage.local `xpc.stakes.<network>.<account>`): each staking
// tx the wallet issued, and each validator found with the account's rewards, with what the chain
// said of it since (committed, its period or current cycle, how it ended) and the rewards found for
// it. It outlives the validator list, which forgets a stake when it ends: the rewards of finished
// stakes are found from here (src/background/stake-follow.ts).
import { WalletError } from '../core/errors.js';
import type { ActivityItem, OwnerSet } from '../shared/messages.js';
import { type StorageArea, storedDigits } from './storage.js';

export type StakeKind = 'delegation' | 'validation' | 'auto-renewed';

/** A reward the chain paid for a stake: one per reward UTXO. */
export interface RewardRecord {
  /** The chain's reward tx that paid it. */
  txID: string;
  kind: 'delegation' | 'validation' | 'delegation-fees';
  /** nAVAX. */
  amount: string;
  /** Unix seconds: the end of the staking (or cycle) it rewards, when the chain paid it. */
  paidAt: number;
  /** The address it was paid to (the first of its owners). */
  to: string;
  /** Every owner address is the account's. */
  yours: boolean;
}

export interface StakeRecord {
  /** The staking tx (for an auto-renewed validator: the one that added it). */
  txID: string;
  kind: StakeKind;
  nodeID: string;
  /** nAVAX staked (an auto-renewed validator's grows with what it restakes). */
  amount: string;
  /** 'pending': signed (written just before it is sent), not committed yet; 'failed': refused by the chain, or never sent. */
  state: 'pending' | 'active' | 'finished' | 'failed';
  /** Unix seconds: when it started (chain time), and its end or its current cycle's end. */
  start?: number;
  end?: number;
  /** Auto-renewed: the next cycle's length (0: it stops at `end`) and the restaked part. */
  nextPeriod?: number;
  restakeShares?: number;
  /** Auto-renewed: ends of past cycles whose rewards are still to be looked at. */
  cyclesToSettle?: number[];
  /** Of those, the ones stepped by a period (guesses, not seen): dropped once long past with no reward tx (stake-follow.ts). */
  steppedEnds?: number[];
  /** Auto-renewed: a cycle was committed while it restaked a share (an abort then pays that back). */
  restaked?: boolean;
  /** Auto-renewed: who may change its auto-renewal, as last seen in the validator list. */
  authority?: OwnerSet;
  rewardOwner: OwnerSet;
  delegationFeeOwner?: OwnerSet;
  delegationFee?: number;
  /** The node's expected reward for the current period or cycle, last seen. */
  potentialReward?: string;
  delegatorCount?: number;
  /** Finished: the chain paid its rewards, or aborted them (uptime). */
  settled?: 'paid' | 'not-paid' | 'unknown';
  rewards: RewardRecord[];
  byWallet: boolean;
  /** Milliseconds since epoch: when the wallet first knew of it. */
  createdAt: number;
}

const VERSION = 1;

interface Stored {
  version: number;
  stakes: StakeRecord[];
}

export class StakeBook {
  static readonly #tails = new Map<string, Promise<unknown>>();

  constructor(
    private readonly local: StorageArea,
    private readonly key: string,
  ) {}

  /**
   * A record damaged in storage (no tx ID, no known state, an amount or reward that is no number, an
   * owner without addresses) is skipped, and goes with the next write: one must not stop the
   * account's balances, its other stakes, or a new one.
   */
  async list(): Promise<StakeRecord[]> {
    const stored = (await this.local.get([this.key]))[this.key] as Stored | undefined;
    if (stored === undefined) return [];
    if (typeof stored !== 'object' || stored === null || stored.version !== VERSION || !Array.isArray(stored.stakes)) {
      throw new WalletError('storage-corrupt', "the wallet's record of this account's stakes cannot be read");
    }
    return stored.stakes.filter(
      (s) => typeof s?.txID === 'string' && /^(pending|active|finished|failed)$/.test(s.state) && storedDigits(s.amount) && Array.isArray(s.rewards) && s.rewards.every((r) => storedDigits(r?.amount)) && [s.rewardOwner, s.authority ?? s.rewardOwner, s.delegationFeeOwner ?? s.rewardOwner].every((o) => Array.isArray(o?.addresses)),
    );
  }

  /** Applies `change` to the records as stored now, one change at a time per account and network. */
  update<T>(change: (stakes: StakeRecord[]) => T): Promise<T> {
    const tail = StakeBook.#tails.get(this.key) ?? Promise.resolve();
    const run = tail.then(async () => {
      const stakes = await this.list();
      const out = change(stakes);
      await this.local.set({ [this.key]: { version: VERSION, stakes } satisfies Stored });
      return out;
    });
    StakeBook.#tails.set(this.key, run.catch(() => undefined));
    return run;
  }

  /** Adds a record, or replaces the one with its tx ID. */
  put(record: StakeRecord): Promise<void> {
    return this.update((stakes) => {
      const i = stakes.findIndex((s) => s.txID === record.txID);
      if (i >= 0) stakes[i] = record;
      else stakes.unshift(record);
    });
  }
}

/** Unlocks at the end; an auto-renewed validator that keeps renewing has no unlock time yet. */
export function unlockTimeOf(s: StakeRecord): number | null {
  if (s.kind === 'auto-renewed' && s.nextPeriod !== 0) return null;
  return s.end ?? null;
}

/**
 * Activity's status of each tx it lists (stake-follow.ts FollowInput.listed): 'taken-back' for a
 * pending one whose acceptance was taken back (ActivityItem.takenBack), 'replaced' for a failed one
 * whose place another tx of the wallet took (ActivityItem.replaced).
 */
export const listedStates = (items: readonly Pick<ActivityItem, 'txID' | 'status' | 'takenBack' | 'replaced'>[]): Map<string, string> =>
  new Map(items.map((i) => [i.txID, i.status === 'pending' && i.takenBack ? 'taken-back' : i.status === 'failed' && i.replaced ? 'replaced' : i.status]));

/**
 * Whether a stake locks its funds now: an active one, or a pending one once Activity (`listed`)
 * says its tx ran; before, its funds are still spendable and counted there. Never one whose tx
 * Activity lists as taken back (its funds count as spendable until it is decided anew: the stake
 * is pending again then, reopenContradicted in settle-activity.ts; this holds when a look at the
 * node wrote it over meanwhile), nor as failed or replaced (never ran: a look may have made it
 * active while it was taken back).
 */
export function locksFunds(s: StakeRecord, listed: ReadonlyMap<string, string>): boolean {
  const state = listed.get(s.txID);
  if (state === 'taken-back' || state === 'failed' || state === 'replaced') return false;
  return s.state === 'active' || (s.state === 'pending' && state === 'accepted');
}

/**
 * What the account's own stakes lock now (those it funded that lock their funds, whose end has not
 * passed: a pending one's too, fixed in its tx; an auto-renewed one's is not known yet).
 */
export function stakedAmounts(stakes: readonly StakeRecord[], nowSeconds: number, listed: ReadonlyMap<string, string>): { amount: string; unlocksAt: number | null }[] {
  return stakes
    .filter((s) => s.byWallet && locksFunds(s, listed) && (unlockTimeOf(s) === null || unlockTimeOf(s)! > nowSeconds))
    .map((s) => ({ amount: s.amount, unlocksAt: unlockTimeOf(s) }));
}

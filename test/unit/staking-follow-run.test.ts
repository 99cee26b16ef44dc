// One look at the account's stakes saved to the book (src/background/staking-follow-run.ts) while
// the wallet records a stake of its own between the look's read and its write.
import { describe, expect, it } from 'vitest';
import { sha256 } from '@noble/hashes/sha2.js';
import { StakeBook, stakedAmounts, type StakeRecord } from '../../src/background/stake-book.js';
import { hasOpenStakes } from '../../src/background/stake-follow.js';
import { cb58Encode, formatNodeId } from '../../src/core/encoding.js';
import { followAccountStakes } from '../../src/background/staking-follow-run.js';
import { memoryStores } from '../../src/background/storage.js';
import type { CurrentValidator } from '../../src/core/node/validators.js';

const ME = 'P-custom18jma8ppw3nhx5r4ap8clazz0dps7rv5u9xde7p';
const NODE = 'NodeID-BqUj8Y8GtNthdgxRD3z9NKWy3ru3K338C';
const TX = '4uEw1KbnkyrNFZrqQ6812e79cZWEe6PNSzLeLdqyTdfPNT8c2';

describe('a look at the stakes racing a send', () => {
  it('keeps the wallet’s own record (its stake, counted as staked) over the copy the look discovered in the list', async () => {
    const { local } = memoryStores();
    const book = new StakeBook(local, 'xpc.stakes.n.a');
    const own: StakeRecord = { txID: TX, kind: 'validation', nodeID: NODE, amount: '2000000000000', state: 'active', start: 1000, end: 999_999_999_999, rewardOwner: { addresses: [ME], threshold: 1 }, rewards: [], byWallet: true, createdAt: 1 };
    // The look reads the (still empty) book; the validation's record lands before the look writes.
    const racing = {
      list: async () => {
        const first = await book.list();
        await book.put(own);
        return first;
      },
      update: book.update.bind(book),
    } as unknown as StakeBook;
    const v: CurrentValidator = { txID: TX, nodeID: NODE, start: 1000n, end: 999_999_999_999n, weight: 2_000_000_000_000n, potentialReward: 5n, accruedDelegateeReward: 0n, delegationFee: 20_000, uptime: 100, connected: true, delegatorCount: 0, delegatorWeight: 0n, validationRewardOwner: { addresses: [ME], threshold: 1, locktime: 0n } };
    const c = { book: racing, mine: new Set([ME]), chainTime: 2000n, cache: { activity: [] }, engine: { node: { platform: { getCurrentValidators: async () => [v] } }, ctx: { hrp: 'custom', avaxAssetID: new Uint8Array(32) }, txState: async () => 'unknown' }, preset: { id: 'n' }, account: { id: 'a' } };
    // Its outbox read as AccountEngines gives it: a method of the engines.
    const engines = { caches: { update: async () => undefined }, sent: [], outbox(this: { sent: [] }) { return { list: async () => this.sent }; } };
    await followAccountStakes(c as never, [v], engines as never);
    const stored = await book.list();
    expect(stored.map((s) => s.byWallet)).toEqual([true]);
    expect(stakedAmounts(stored, 2000, new Map())).toHaveLength(1);
  });

  it('keeps what the send decided meanwhile (refused: failed, not staked) over the look’s copy still pending', async () => {
    const { local } = memoryStores();
    const book = new StakeBook(local, 'xpc.stakes.n.a');
    const sent: StakeRecord = { txID: TX, kind: 'delegation', nodeID: NODE, amount: '25000000000', state: 'pending', end: 999_999, rewardOwner: { addresses: [ME], threshold: 1 }, rewards: [], byWallet: true, createdAt: Date.now() };
    await book.put(sent);
    // The look reads the pending stake; the node refuses it and the send marks it failed before the look writes.
    const racing = {
      list: async () => {
        const first = structuredClone(await book.list());
        await book.update((stakes) => void (stakes[0]!.state = 'failed'));
        return first;
      },
      update: book.update.bind(book),
    } as unknown as StakeBook;
    const c = { book: racing, mine: new Set([ME]), chainTime: 2000n, cache: { activity: [] }, engine: { node: { platform: { getCurrentValidators: async () => [] } }, ctx: { hrp: 'custom', avaxAssetID: new Uint8Array(32) }, txState: async () => 'unknown' }, preset: { id: 'n' }, account: { id: 'a' } };
    // Refused, its outbox entry stays (voided): the look, on its own, would keep it pending.
    const engines = { caches: { update: async () => undefined }, outbox: () => ({ list: async () => [{ txID: TX }] }) };
    await followAccountStakes(c as never, [], engines as never);
    const stored = await book.list();
    expect(stored.map((s) => s.state)).toEqual(['failed']);
    expect(stakedAmounts(stored, 2000, new Map())).toEqual([]);
  });
});

describe('a look at the stakes racing a take-back', () => {
  it('leaves pending a stake a refresh took back (its funds listed again) after the look read it active: not counted as staked', async () => {
    const { local } = memoryStores();
    const book = new StakeBook(local, 'xpc.stakes.n.a');
    const own: StakeRecord = { txID: TX, kind: 'delegation', nodeID: NODE, amount: '25000000000', state: 'active', start: 1000, end: 999_999, rewardOwner: { addresses: [ME], threshold: 1 }, rewards: [], byWallet: true, createdAt: 1 };
    await book.put(own);
    const activity = [{ txID: TX, status: 'accepted' }];
    // The look reads the book (active) and Activity (accepted); a refresh takes the stake back before the look writes.
    const racing = {
      list: async () => {
        const first = structuredClone(await book.list());
        await book.update((stakes) => void (stakes[0]!.state = 'pending'));
        activity[0]!.status = 'pending';
        return first;
      },
      update: book.update.bind(book),
    } as unknown as StakeBook;
    const v: CurrentValidator = { txID: 'other', nodeID: NODE, start: 1000n, end: 999_999n, weight: 2_000_000_000_000n, potentialReward: 5n, accruedDelegateeReward: 0n, delegationFee: 20_000, uptime: 100, connected: true, delegatorCount: 1, delegatorWeight: 25_000_000_000n, delegators: [{ txID: TX, nodeID: NODE, start: 1000n, end: 999_999n, weight: 25_000_000_000n, potentialReward: 1n, rewardOwner: { addresses: [ME], threshold: 1, locktime: 0n } }] } as unknown as CurrentValidator;
    const c = { book: racing, mine: new Set([ME]), chainTime: 2000n, cache: { activity: structuredClone(activity) }, engine: { node: { platform: { getCurrentValidators: async () => [v] } }, ctx: { hrp: 'custom', avaxAssetID: new Uint8Array(32) }, txState: async () => 'accepted' }, preset: { id: 'n' }, account: { id: 'a' } };
    const engines = { caches: { update: async () => undefined }, outbox: () => ({ list: async () => [] }) };
    await followAccountStakes(c as never, [v], engines as never);
    const stored = await book.list();
    expect(stored.map((s) => s.state)).toEqual(['pending']);
    expect(stakedAmounts(stored, 2000, new Map(activity.map((a) => [a.txID, a.status])))).toEqual([]);
  });
});

describe('validators a node lists naming the account, never proven', () => {
  const planted = (n: number, autoRenew: boolean): CurrentValidator[] =>
    Array.from({ length: n }, (_, i) => ({
      txID: cb58Encode(sha256(Uint8Array.of(autoRenew ? 3 : 1, i))),
      nodeID: formatNodeId(sha256(Uint8Array.of(2, i)).slice(0, 20)),
      start: 1000n,
      end: 2500n,
      weight: 2_000_000_000_000n,
      potentialReward: 1_000_000_000n,
      accruedDelegateeReward: 0n,
      delegationFee: 20_000,
      uptime: 100,
      connected: true,
      delegatorCount: 0,
      delegatorWeight: 0n,
      validationRewardOwner: { addresses: [ME], threshold: 1, locktime: 0n },
      ...(autoRenew ? { autoRenew: { authority: { addresses: [ME], threshold: 1, locktime: 0n }, nextPeriod: 1500n, restakeShares: 0 } } : {}),
    }));

  it('are taken 16 a look, and once gone are asked about until a day past their end, not on every refresh for good', async () => {
    const { local } = memoryStores();
    const book = new StakeBook(local, 'xpc.stakes.n.a');
    let asked = 0;
    const context = (chainTime: bigint, list: CurrentValidator[]) => ({
      book,
      mine: new Set([ME]),
      chainTime,
      cache: { activity: [] },
      engine: { node: { platform: { getCurrentValidators: async () => list } }, ctx: { hrp: 'custom', avaxAssetID: new Uint8Array(32) }, txState: async () => (asked++, 'unknown') },
      preset: { id: 'n' },
      account: { id: 'a' },
    });
    const engines = { caches: { update: async () => undefined }, outbox: () => ({ list: async () => [] }) };
    const fakes = [...planted(20, false), ...planted(20, true)];
    await followAccountStakes(context(2000n, fakes) as never, fakes, engines as never);
    expect(await book.list()).toHaveLength(16);
    await followAccountStakes(context(2001n, fakes) as never, fakes, engines as never);
    expect(await book.list()).toHaveLength(32);
    // Gone from the list; the node knows no reward tx of theirs. Within a day of their end: still asked about.
    await followAccountStakes(context(2500n + 3_600n, []) as never, [], engines as never);
    expect(hasOpenStakes(await book.list())).toBe(true);
    expect(asked).toBeGreaterThan(0);
    // A day past it: settled as "cannot tell", and no longer asked about.
    await followAccountStakes(context(2500n + 86_401n, []) as never, [], engines as never);
    const stakes = await book.list();
    expect(stakes.map((x) => x.settled)).toEqual(Array(32).fill('unknown'));
    expect(hasOpenStakes(stakes)).toBe(false);
    asked = 0;
    await followAccountStakes(context(2500n + 90_000n, []) as never, [], engines as never);
    expect(asked).toBe(0);
  });
});

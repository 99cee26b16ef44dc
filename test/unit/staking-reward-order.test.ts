// A staking reward the follow found (src/background/staking-follow-run.ts) is listed in Activity
// before the stake book says the stake is settled: a book write that fails then leaves the reward
// to be decided again next time, never settled in the book and missing from Activity for good.
import { describe, expect, it, vi } from 'vitest';
import type { StakeRecord } from '../../src/background/stake-book.js';

const ME = 'P-custom18jma8ppw3nhx5r4ap8clazz0dps7rv5u9xde7p';
const NODE = 'NodeID-BqUj8Y8GtNthdgxRD3z9NKWy3ru3K338C';
const stake: StakeRecord = { txID: 'stakeTx', kind: 'delegation', nodeID: NODE, amount: '25000000000', state: 'finished', end: 1_000, rewardOwner: { addresses: [ME], threshold: 1 }, rewards: [], byWallet: true, createdAt: 1 };

vi.mock('../../src/background/stake-follow.js', () => ({
  delegationNodes: () => [],
  followStakes: async (stakes: StakeRecord[]) => [{ stake: stakes[0], rewardTxID: 'rewardTx', paidAt: 1_000, rewards: [{ txID: 'rewardTx', amount: '7', yours: true }] }],
}));

describe('a reward found while the stake book cannot be written', () => {
  it('is in Activity though the book kept the stake unsettled, and listed once when found again', async () => {
    const { followAccountStakes } = await import('../../src/background/staking-follow-run.js');
    const activity: { txID: string; kind: string; amount?: string }[] = [];
    const book = { list: async () => [structuredClone(stake)], update: async () => Promise.reject(new Error('storage full')) };
    const c = { book, mine: new Set([ME]), chainTime: 2_000n, cache: { activity }, engine: { node: { platform: { getCurrentValidators: async () => [] } }, ctx: { hrp: 'custom', avaxAssetID: new Uint8Array(32) } }, preset: { id: 'n' }, account: { id: 'a' } };
    const engines = { caches: { update: async (_n: string, _a: string, change: (cache: { activity: typeof activity }) => void) => change({ activity }) }, outbox: () => ({ list: async () => [] }) };
    await expect(followAccountStakes(c as never, [], engines as never)).rejects.toThrow('storage full');
    expect(activity).toMatchObject([{ txID: 'rewardTx', kind: 'staking-reward', amount: '7' }]);
    await expect(followAccountStakes(c as never, [], engines as never)).rejects.toThrow('storage full');
    expect(activity).toHaveLength(1);
  });
});

// Home's staked amount (and My stakes' total) against the Helicon test node, with this computer's
// clock ten minutes off: whether a stake still locks its funds is the chain's time's word, read from
// the node with the balances, never the computer's clock. A clock ahead must not drop a live stake
// early; a clock behind must not count a stake that came back twice (staked and in the balance).
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Wallet } from '../../src/background/services/index.js';
import { AVAX } from './fixture.js';
import { GENESIS_VALIDATOR, nowOnP, pChainTime } from './pvm-kit.js';
import { fundedWallet } from './wallet-fixture.js';

const SKEW_MS = 10 * 60_000;
const realNow = Date.now.bind(Date);
/** What the account holds on P outside stakes (a returned stake may be known from the chain's state only: unproven). */
const held = (p: { spendable: string; unproven: string }): bigint => BigInt(p.spendable) + BigInt(p.unproven);

/** Runs `read` with this computer's clock `skewMs` off the real time. */
async function skewed<T>(skewMs: number, read: () => Promise<T>): Promise<T> {
  const clock = vi.spyOn(Date, 'now').mockImplementation(() => realNow() + skewMs);
  try {
    return await read();
  } finally {
    clock.mockRestore();
  }
}

const pRow = (wallet: Wallet) => wallet.balances.balancesRefresh().then((v) => v.balances.find((b) => b.chain === 'P')!);

describe('staked amounts follow the chain time', () => {
  afterEach(() => vi.restoreAllMocks());

  it('counts a stake until the chain passes its end, with the computer clock ahead and then behind', async () => {
    const { wallet } = await fundedWallet({ p: 30n * AVAX });
    // The test network's shortest delegation is 20 s.
    const base = { nodeID: GENESIS_VALIDATOR, amount: (25n * AVAX).toString(), end: Number(await nowOnP()) + 30 };
    const review = await wallet.staking.stakingEstimateDelegation(base);
    const sent = await wallet.staking.stakingDelegate({ ...base, maxFee: review.fee });
    expect(sent.status).toBe('accepted');

    // Clock ahead, past the end: the chain has not got there, the 25 AVAX are still staked.
    expect(Number(await pChainTime())).toBeLessThan(base.end);
    const ahead = await skewed(SKEW_MS, () => pRow(wallet));
    expect(ahead.spendable).toBe((5n * AVAX - BigInt(sent.fee)).toString());
    expect(ahead.staked).toEqual([{ amount: base.amount, unlocksAt: base.end }]);
    expect((await skewed(SKEW_MS, () => wallet.staking.stakingMine())).totals.staked).toBe(base.amount);

    // Clock behind, before the end, while the chain passes it and pays the stake back: each refresh
    // counts the 25 AVAX once, staked until they are back in the balance, then only there.
    const deadline = realNow() + 120_000;
    for (;;) {
      const p = await skewed(-SKEW_MS, () => pRow(wallet));
      if (held(p) < 30n * AVAX - BigInt(sent.fee)) {
        expect(p.staked).toEqual([{ amount: base.amount, unlocksAt: base.end }]);
        if (realNow() > deadline) throw new Error('the delegation did not come back within 2 minutes');
        await new Promise((r) => setTimeout(r, 500));
        continue;
      }
      expect(p.staked).toBeUndefined();
      break;
    }
    expect(Number(await pChainTime())).toBeGreaterThanOrEqual(base.end);
    expect((await skewed(-SKEW_MS, () => wallet.staking.stakingMine())).totals.staked).toBe('0');
  });
});

// A delegation whose wallet is locked after it was signed and recorded, before it went out: the
// wallet sends nothing once locked (Delivery.deliver), and My stakes must not wait for it.
import { describe, expect, it } from 'vitest';
import { AVAX } from './fixture.js';
import { GENESIS_VALIDATOR, nowOnP } from './pvm-kit.js';
import { fundedWallet, PASSWORD } from './wallet-fixture.js';

describe('a delegation locked between its signing and its sending', () => {
  it('is failed in My stakes at once, and nothing is sent', async () => {
    const { wallet, session, stores } = await fundedWallet({ p: 30n * AVAX });
    const base = { nodeID: GENESIS_VALIDATOR, amount: (25n * AVAX).toString(), end: Number(await nowOnP()) + 120 };
    const review = await wallet.staking.stakingEstimateDelegation(base);
    // The stake is written to the book once signed, before it goes out: the wallet is locked right then.
    const write = stores.local.set.bind(stores.local);
    stores.local.set = async (items) => {
      await write(items);
      if (Object.keys(items).some((k) => k.startsWith('xpc.stakes.'))) {
        stores.local.set = write;
        await session.lock();
      }
    };
    await expect(wallet.staking.stakingDelegate({ ...base, maxFee: review.fee })).rejects.toMatchObject({ code: 'vault-locked' });
    await wallet.accounts.walletUnlock({ password: PASSWORD });
    const mine = await wallet.staking.stakingMine();
    expect(mine.stakes).toEqual([expect.objectContaining({ nodeID: GENESIS_VALIDATOR, state: 'failed' })]);
    expect(mine.totals.staked).toBe('0');
    // What it would have spent is all still there.
    const p = (await wallet.balances.balancesRefresh()).balances.find((b) => b.chain === 'P')!;
    expect(p.spendable).toBe((30n * AVAX).toString());
  });
});

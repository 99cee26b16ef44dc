// A damaged per-account cache (storage.local `xpc.cache.<network>.<account>`: bit rot, a truncated
// write, a version that kept it in another shape) must not lock the user out of the account: it is
// read as no cache, and the next refresh rebuilds it from the node.
import { describe, expect, it } from 'vitest';
import { cacheKey } from '../../src/background/account-cache.js';
import { AVAX } from './fixture.js';
import { fundedWallet } from './wallet-fixture.js';

describe('a damaged account cache', () => {
  it('is rebuilt from the node: balances, a send estimate and the Activity list work again', async () => {
    const { wallet, stores, account, avax } = await fundedWallet({ x: 3n * AVAX });
    const { network } = await wallet.accounts.walletStatus();
    const key = cacheKey(network.id, account.id);
    expect((await stores.local.get([key]))[key]).toBeDefined();

    for (const damaged of ['{"pHeight":"12","receiveN', { pHeight: '12', balances: null }, [], { balances: {}, activity: 'x' }]) {
      await stores.local.set({ [key]: damaged });
      const view = await wallet.balances.balancesRefresh();
      expect(view.error).toBeUndefined();
      expect(view.balances.find((b) => b.chain === 'X' && b.assetID === avax)?.spendable).toBe((3n * AVAX).toString());
      const estimate = await wallet.sends.sendEstimate({ chain: 'X', assetID: avax, amount: AVAX.toString(), to: { addresses: [account.xAddress], threshold: 1 } });
      expect(BigInt(estimate.fee)).toBeGreaterThan(0n);
      expect(Array.isArray((await wallet.balances.activityList()).items)).toBe(true);
    }
  });
});

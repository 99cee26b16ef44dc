// A send to the account's own address (the way to merge many small pieces of a balance) is listed
// once, as "Sent to yourself": only its fee left the account, and no "Received" is added for it.
import { describe, expect, it } from 'vitest';
import { AVAX, freshWallet, genesisEngine, WEI_PER_NAVAX } from './fixture.js';
import { fundedWallet } from './wallet-fixture.js';

describe('a send to yourself', () => {
  it('X, P and C sends to the account\'s own address are listed once each, to yourself; one to another address is not', async () => {
    const { wallet, ctx, account, avax } = await fundedWallet({ x: 10n * AVAX, p: 4n * AVAX });
    await (await genesisEngine()).sendC(account.cAddress, 5n * AVAX * WEI_PER_NAVAX);
    await wallet.balances.balancesRefresh();
    const bob = await freshWallet();
    const own = { addresses: [account.xAddress], threshold: 1 };
    const x = await wallet.sends.sendX({ assetID: avax, amount: AVAX.toString(), to: own, maxFee: ctx.xTxFee.toString() });
    const other = await wallet.sends.sendX({ assetID: avax, amount: AVAX.toString(), to: { addresses: [bob.engine.addresses('X')[0]!], threshold: 1 }, maxFee: ctx.xTxFee.toString() });
    const pFee = (await wallet.sends.sendEstimate({ chain: 'P', amount: AVAX.toString(), to: { addresses: [account.pAddress], threshold: 1 } })).fee;
    const p = await wallet.sends.sendP({ amount: AVAX.toString(), to: { addresses: [account.pAddress], threshold: 1 }, maxFee: pFee });
    const cQuote = await wallet.sends.sendEstimate({ chain: 'C', amountWei: (AVAX * WEI_PER_NAVAX).toString(), to: account.cAddress });
    const c = await wallet.sends.sendC({ amountWei: (AVAX * WEI_PER_NAVAX).toString(), to: account.cAddress, maxFeeWei: cQuote.fee });
    for (let i = 0; i < 20 && (await wallet.balances.activityList()).items.some((a) => a.status === 'pending'); i++) await wallet.balances.balancesRefresh();
    await wallet.balances.balancesRefresh();
    const items = (await wallet.balances.activityList()).items;
    for (const txID of [x.txID, p.txID, c.txHash]) {
      expect(items.filter((i) => i.txID === txID)).toEqual([expect.objectContaining({ kind: 'send', status: 'accepted', toSelf: true })]);
    }
    expect(items.find((i) => i.txID === other.txID)).not.toHaveProperty('toSelf');
    // Only the fees and the send to another address left.
    const view = await wallet.balances.balancesGet({});
    const xLeft = view.balances.find((b) => b.chain === 'X' && b.assetID === avax)!;
    expect(BigInt(xLeft.spendable)).toBe(10n * AVAX - AVAX - 2n * ctx.xTxFee);
  }, 120_000);
});

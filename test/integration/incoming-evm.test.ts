// AVAX others send to the account on the C-Chain, as Activity lists it, against the real node: a
// receipt must be listed whatever else the account did in the same blocks.
import { describe, expect, it } from 'vitest';
import { AVAX, freshWallet, localNetwork, WEI_PER_NAVAX } from './fixture.js';
import { lyingNode, rpcError } from './lying-node.js';
import { fundedWallet } from './wallet-fixture.js';

/** Waits until the node's latest state shows `address` holding `wei` (a receipt can come out a moment before). */
async function balanceIs(address: string, wei: bigint): Promise<void> {
  const { client } = await localNetwork();
  for (let i = 0; i < 100 && (await client.eth.getBalance(address)) !== wei; i++) await new Promise((r) => setTimeout(r, 50));
}

describe('AVAX received on the C-Chain', () => {
  it('is listed when the account spent more than it received in the same blocks (its balance fell)', async () => {
    const { wallet, account, genesis } = await fundedWallet({});
    const { client } = await localNetwork();
    await genesis.sendC(account.cAddress, 2n * AVAX * WEI_PER_NAVAX);
    await balanceIs(account.cAddress, 2n * AVAX * WEI_PER_NAVAX);
    const funded = await wallet.balances.balancesRefresh();
    const cBefore = BigInt(funded.balances.find((b) => b.chain === 'C')!.spendable);
    expect(cBefore).toBe(2n * AVAX * WEI_PER_NAVAX);

    // Between two refreshes: a quarter AVAX comes in, and the account sends 1 AVAX away.
    const bob = await freshWallet();
    const gift = (AVAX * WEI_PER_NAVAX) / 4n;
    const { hash } = await genesis.sendC(account.cAddress, gift);
    await balanceIs(account.cAddress, cBefore + gift);
    const est = await wallet.sends.sendEstimate({ chain: 'C', to: bob.engine.evmAddress, amountWei: (AVAX * WEI_PER_NAVAX).toString() });
    const sent = await wallet.sends.sendC({ to: bob.engine.evmAddress, amountWei: (AVAX * WEI_PER_NAVAX).toString(), maxFeeWei: est.fee });
    const after = cBefore + gift - AVAX * WEI_PER_NAVAX - BigInt(sent.fee);
    await balanceIs(account.cAddress, after);

    const view = await wallet.balances.balancesRefresh();
    expect(BigInt(view.balances.find((b) => b.chain === 'C')!.spendable)).toBe(after);
    expect(after).toBeLessThan(cBefore);
    const items = (await wallet.balances.activityList()).items;
    expect(items.find((i) => i.txID === hash)).toMatchObject({ kind: 'receive', chain: 'C', amount: gift.toString(), status: 'accepted', from: [expect.stringMatching(new RegExp(`^${genesis.evmAddress}$`, 'i'))] });
    // Every block since the last look was read: nothing is said to be missing.
    expect((await wallet.balances.activityList()).trimmed?.cReceived).toBeUndefined();
    // The account's own send is its send, never a receipt.
    expect(items.filter((i) => i.txID === sent.txHash).map((i) => i.kind)).toEqual(['send']);
    expect(await client.eth.getBalance(bob.engine.evmAddress)).toBe(AVAX * WEI_PER_NAVAX);
  });

  it('a look that could not read the blocks is tried again by the next refresh, once', async () => {
    const node = lyingNode();
    const { wallet, account, genesis } = await fundedWallet({}, { fetch: node.fetch });
    const received = async (hash: string) => (await wallet.balances.activityList()).items.find((i) => i.txID === hash);
    node.lies.set('eth_getBlockByNumber', async () => rpcError('too many requests'));
    const first = await genesis.sendC(account.cAddress, AVAX * WEI_PER_NAVAX);
    await balanceIs(account.cAddress, AVAX * WEI_PER_NAVAX);
    const missed = await wallet.balances.balancesRefresh();
    // The balance is right and the refresh did not fail; the receipt is not listed yet.
    expect(missed.error).toBeUndefined();
    expect(missed.balances.find((b) => b.chain === 'C')?.spendable).toBe((AVAX * WEI_PER_NAVAX).toString());
    expect(await received(first.hash)).toBeUndefined();
    node.lies.clear();
    await wallet.balances.balancesRefresh();
    expect(await received(first.hash)).toMatchObject({ kind: 'receive', chain: 'C', amount: (AVAX * WEI_PER_NAVAX).toString() });
    expect((await wallet.balances.activityList()).trimmed?.cReceived).toBeUndefined();

    // A node that can never read them: tried twice, then left (each try costs the refresh time).
    node.lies.set('eth_getBlockByNumber', async () => rpcError('too many requests'));
    const second = await genesis.sendC(account.cAddress, AVAX * WEI_PER_NAVAX);
    await balanceIs(account.cAddress, 2n * AVAX * WEI_PER_NAVAX);
    const reads = () => node.calls.filter((m) => m === 'eth_getBlockByNumber').length;
    await wallet.balances.balancesRefresh();
    const afterOne = reads();
    expect(afterOne).toBeGreaterThan(0);
    await wallet.balances.balancesRefresh();
    const afterTwo = reads();
    expect(afterTwo).toBeGreaterThan(afterOne);
    await wallet.balances.balancesRefresh();
    expect(reads()).toBe(afterTwo);
    expect(await received(second.hash)).toBeUndefined();
    // Given up on, and said: AVAX received up to the give-up may be missing from the list.
    const gaveUpBy = Date.now();
    expect((await wallet.balances.activityList()).trimmed?.cReceived).toBeLessThanOrEqual(gaveUpBy);
    expect((await wallet.balances.activityList()).trimmed?.cReceived).toBeGreaterThan(gaveUpBy - 60_000);
  });

  it('a look that failed is made again even when the balance came back to where it was before it', async () => {
    const node = lyingNode();
    const { wallet, account, genesis } = await fundedWallet({}, { fetch: node.fetch });
    node.lies.set('eth_getBlockByNumber', async () => rpcError('too many requests'));
    const { hash } = await genesis.sendC(account.cAddress, AVAX * WEI_PER_NAVAX);
    await balanceIs(account.cAddress, AVAX * WEI_PER_NAVAX);
    await wallet.balances.balancesRefresh();
    // By the next look the C balance reads as it did before the receipt (spent again, to the wei).
    node.lies.clear();
    node.lies.set('eth_getBalance', async (_call, forward) => ({ ...(await forward()), result: '0x0' }));
    await wallet.balances.balancesRefresh();
    expect((await wallet.balances.activityList()).items.find((i) => i.txID === hash)).toMatchObject({ kind: 'receive', chain: 'C', amount: (AVAX * WEI_PER_NAVAX).toString() });
  });

  it('says AVAX received may be missing when the look left blocks unread (a node that would not give them)', async () => {
    const node = lyingNode();
    const { wallet, account, genesis } = await fundedWallet({}, { fetch: node.fetch });
    await wallet.balances.balancesRefresh();
    const before = Date.now();
    const { hash } = await genesis.sendC(account.cAddress, AVAX * WEI_PER_NAVAX);
    await balanceIs(account.cAddress, AVAX * WEI_PER_NAVAX);
    // The node gives no block at all (answers null): the look reads nothing of what came in.
    node.lies.set('eth_getBlockByNumber', async (_call, forward) => ({ ...(await forward()), result: null }));
    await wallet.balances.balancesRefresh();
    const list = await wallet.balances.activityList();
    expect(list.items.find((i) => i.txID === hash)).toBeUndefined();
    expect(list.trimmed?.cReceived).toBeGreaterThanOrEqual(before);
  });
});

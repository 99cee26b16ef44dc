// A node that answers from an older state than it showed before (a lagging backend behind a load
// balancer, a replay): its older balances never replace newer ones, and Home says why, with the
// age of what it shows. Against the real node, the older state replayed by a proxy.
import { describe, expect, it } from 'vitest';
import { parseAddress } from '../../src/core/encoding.js';
import { makeOwners } from '../../src/core/tx/context.js';
import { nodeHealth } from '../../src/popup/components/NodeBanner.js';
import { AVAX, freshWallet, genesisEngine } from './fixture.js';
import { lyingNode, type RpcBody, rpcResult } from './lying-node.js';
import { cacheKey } from '../../src/background/account-cache.js';
import { BEHIND_AT_MOST_MS, BEHIND_UNSAID_MS } from '../../src/background/network-restart.js';
import type { MemoryStores } from '../../src/background/storage.js';
import type { Wallet } from '../../src/background/services/index.js';

/** Moves the stored "behind since" back by `ms`, as if that long had passed. */
function behindFor(wallet: Wallet, stores: MemoryStores, accountId: string) {
  return async (ms: number) => {
    const key = cacheKey((await wallet.accounts.walletStatus()).network!.id, accountId);
    const c = (await stores.local.get([key]))[key] as { behindSince: number };
    await stores.local.set({ [key]: { ...c, behindSince: c.behindSince - ms } });
  };
}
import { fundedWallet } from './wallet-fixture.js';

/** What a refresh reads of the chains' state (the C-Chain's too): replayed, they are the node as it was. */
const STATE_READS = ['avm.getUTXOs', 'platform.getUTXOs', 'platform.getHeight', 'avm.getHeight', 'eth_blockNumber', 'eth_getBalance', 'platform.getTimestamp'];

describe('a node behind what it showed before', () => {
  it('keeps the newer balances and their age, says the node is behind; the node caught up, refreshes go on', async () => {
    const node = lyingNode();
    const { wallet, avax, ctx, account, stores } = await fundedWallet({ x: 3n * AVAX }, { fetch: node.fetch });
    const sinceAgo = behindFor(wallet, stores, account.id);
    const recorded = new Map<string, RpcBody>();
    const key = (call: { method: string; params: unknown }) => `${call.method} ${JSON.stringify(call.params)}`;
    for (const m of STATE_READS) node.lies.set(m, async (call, forward) => {
      const body = await forward();
      recorded.set(key(call), body);
      return body;
    });
    await wallet.balances.balancesRefresh();
    node.lies.clear();
    const xAvax = (v: { balances: { chain: string; assetID: string; spendable: string }[] }) => v.balances.find((b) => b.chain === 'X' && b.assetID === avax)?.spendable;

    // The wallet pays 1 AVAX, and the P-Chain moves on by a block.
    const bob = await freshWallet();
    await wallet.sends.sendX({ assetID: avax, amount: AVAX.toString(), to: { addresses: [bob.engine.addresses('X')[0]!], threshold: 1 }, maxFee: ctx.xTxFee.toString() });
    const genesis = await genesisEngine();
    await genesis.issueAndWait(await genesis.buildPSend(AVAX, makeOwners([parseAddress(account.xAddress).bytes])));
    const newer = await wallet.balances.balancesRefresh();
    expect(xAvax(newer)).toBe((2n * AVAX - ctx.xTxFee).toString());

    for (const m of STATE_READS) node.lies.set(m, async (call, forward) => recorded.get(key(call)) ?? forward());
    // For a minute it goes unsaid (a load balancer's backends a block apart): the newer balances stay, with their age.
    const unsaid = await wallet.balances.balancesRefresh();
    expect(unsaid).toMatchObject({ updatedAt: newer.updatedAt });
    expect(unsaid.error).toBeUndefined();
    expect(xAvax(unsaid)).toBe(xAvax(newer));
    await sinceAgo(BEHIND_UNSAID_MS);
    const behind = await wallet.balances.balancesRefresh();
    expect(behind).toMatchObject({ errorCode: 'node-behind', updatedAt: newer.updatedAt });
    expect(xAvax(behind)).toBe(xAvax(newer));
    expect(nodeHealth(behind, Date.now())).toMatchObject({ state: 'unreachable', text: expect.stringMatching(/^The node is behind/) });

    node.lies.clear();
    const caughtUp = await wallet.balances.balancesRefresh();
    expect(caughtUp.error).toBeUndefined();
    expect(caughtUp.updatedAt).toBeGreaterThan(newer.updatedAt);
  });

  it('a height lied about once (far ahead) stops refreshes only for a while: then the node\'s heights are taken', async () => {
    const node = lyingNode();
    const { wallet, stores, account } = await fundedWallet({ x: 3n * AVAX }, { fetch: node.fetch });
    node.lies.set('platform.getHeight', () => Promise.resolve(rpcResult({ height: '9000000000000' })));
    await wallet.balances.balancesRefresh();
    node.lies.clear();
    const sinceAgo = behindFor(wallet, stores, account.id);
    await wallet.balances.balancesRefresh();
    await sinceAgo(BEHIND_UNSAID_MS);
    expect(await wallet.balances.balancesRefresh()).toMatchObject({ errorCode: 'node-behind' });
    await sinceAgo(BEHIND_AT_MOST_MS - BEHIND_UNSAID_MS);
    expect((await wallet.balances.balancesRefresh()).error).toBeUndefined();
    expect((await wallet.balances.balancesRefresh()).error).toBeUndefined();
  });
});

// What one balances refresh asks the real node for: each chain's UTXOs are read once (a popup
// opening runs this; with thousands of UTXOs every extra read is pages of round trips and decoding).
import { describe, expect, it } from 'vitest';
import { AVAX } from './fixture.js';
import { type Lie, lyingNode } from './lying-node.js';
import { fundedWallet } from './wallet-fixture.js';

describe('a balances refresh', () => {
  it("reads the X and P UTXOs once each (the balances, and the funds received, from the same read)", async () => {
    const node = lyingNode();
    const { wallet } = await fundedWallet({ x: 3n * AVAX, p: 2n * AVAX }, { fetch: node.fetch });
    const reads: string[] = [];
    // Honest: only records which chain's own UTXOs (not atomic memory's) each call asks for.
    const record: Lie = (call, forward) => {
      if ((call.params as { sourceChain?: string }).sourceChain === undefined) reads.push(call.method);
      return forward();
    };
    node.lies.set('avm.getUTXOs', record);
    node.lies.set('platform.getUTXOs', record);
    const view = await wallet.balances.balancesRefresh();
    expect(view.error).toBeUndefined();
    expect(view.balances.find((b) => b.chain === 'X' && b.verified)?.spendable).toBe((3n * AVAX).toString());
    expect(view.balances.find((b) => b.chain === 'P')?.spendable).toBe((2n * AVAX).toString());
    // One page each (a few UTXOs): read once, not once for the balances and again for Activity.
    expect(reads.filter((m) => m === 'avm.getUTXOs')).toHaveLength(1);
    expect(reads.filter((m) => m === 'platform.getUTXOs')).toHaveLength(1);
  });
});

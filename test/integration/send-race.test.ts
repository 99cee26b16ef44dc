// Two sends of the wallet on the same funds: one the node swallowed (undecided, in the outbox) and
// a later one that spends what it spends. Whichever the node accepts, the other can never run: it
// must read "failed, nothing paid", not "may have gone through" for a week.
import { describe, expect, it } from 'vitest';
import { AVAX, avaxOf, freshWallet } from './fixture.js';
import { lyingNode, refreshUntilDecided, rpcResult, txIdOfIssue, type Lie } from './lying-node.js';
import { fundedWallet } from './wallet-fixture.js';

/** A node that answers the right tx ID but never passes the tx on. */
const swallow: Lie = (call) => Promise.resolve(rpcResult({ txID: txIdOfIssue(call) }));

async function swallowedSend() {
  const node = lyingNode();
  // One UTXO: every send spends it.
  const { wallet, ctx, avax } = await fundedWallet({ x: 10n * AVAX }, { fetch: node.fetch, wait: { timeoutMs: 3_000, pollMs: 100 } });
  const bob = await freshWallet();
  const send = (amount: bigint) => wallet.sends.sendX({ assetID: avax, amount: amount.toString(), to: { addresses: [bob.engine.addresses('X')[0]!], threshold: 1 }, maxFee: ctx.xTxFee.toString() });
  node.lies.set('avm.issueTx', swallow);
  const first = await send(AVAX);
  const item = async (txID: string) => (await wallet.balances.activityList()).items.find((i) => i.txID === txID);
  expect(await item(first.txID)).toMatchObject({ status: 'pending' });
  return { node, wallet, bob, send, first, item };
}

describe('a send that lost the race for its funds to another of the wallet', () => {
  it('the later send accepted: the swallowed one reads failed, never ran, nothing paid; the recipient paid once', async () => {
    const { node, wallet, bob, send, first, item } = await swallowedSend();
    node.lies.clear();
    const second = await send(2n * AVAX);
    expect(await item(second.txID)).toMatchObject({ status: 'accepted', replaces: first.txID });
    await wallet.balances.balancesRefresh();
    const lost = await item(first.txID);
    expect(lost).toMatchObject({ status: 'failed', replaced: true });
    expect(lost?.checking).toBeUndefined();
    expect(await avaxOf(bob.engine, 'X')).toBe(2n * AVAX);
  });

  it('both swallowed, then the node lets them go: one runs, the other reads failed, never "may have gone through"', async () => {
    const { node, wallet, bob, send, first } = await swallowedSend();
    const second = await send(2n * AVAX);
    node.lies.clear();
    const firstFate = await refreshUntilDecided(wallet, first.txID);
    const secondFate = await refreshUntilDecided(wallet, second.txID);
    expect([firstFate, secondFate].sort()).toEqual(['accepted', 'failed']);
    const [won, amount] = firstFate === 'accepted' ? [first, AVAX] : [second, 2n * AVAX];
    const items = (await wallet.balances.activityList()).items;
    expect(items.find((i) => i.txID !== won.txID && (i.txID === first.txID || i.txID === second.txID))).toMatchObject({ replaced: true });
    expect(await avaxOf(bob.engine, 'X')).toBe(amount);
  });
});

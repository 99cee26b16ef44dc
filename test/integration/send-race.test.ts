// Races of a send. Two sends of the wallet on the same funds: one the node swallowed (undecided, in
// the outbox) and a later one that spends what it spends. Whichever the node accepts, the other can
// never run: it must read "failed, nothing paid", not "may have gone through" for a week. And a
// refresh running while a send is refused: the refused send must not come back into Activity.
import { describe, expect, it } from 'vitest';
import { AVAX, avaxOf, freshWallet } from './fixture.js';
import { lyingNode, refreshUntilDecided, rpcError, rpcResult, txIdOfIssue, type Lie } from './lying-node.js';
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

describe('a refresh running while a send is refused', () => {
  it('does not bring the refused send back into Activity (told "nothing paid", it must not read "may have gone through")', async () => {
    const node = lyingNode();
    const { wallet, avax, ctx } = await fundedWallet({ x: 3n * AVAX }, { fetch: node.fetch });
    const bob = await freshWallet();
    let atNode!: () => void;
    let sendEnded!: () => void;
    const sendAtNode = new Promise<void>((r) => (atNode = r));
    const sendOver = new Promise<void>((r) => (sendEnded = r));
    node.lies.set('avm.issueTx', () => (atNode(), Promise.resolve(rpcError('mempool full'))));
    // The refresh reads Activity before the send lists it, reads the outbox while the refusal is
    // checked, and saves once the send was taken back.
    node.lies.set('platform.getHeight', (_call, forward) => sendAtNode.then(forward));
    node.lies.set('platform.getTimestamp', (_call, forward) => sendOver.then(forward));
    const refresh = wallet.balances.balancesRefresh();
    const sent = wallet.sends.sendX({ assetID: avax, amount: AVAX.toString(), to: { addresses: [bob.engine.addresses('X')[0]!], threshold: 1 }, maxFee: ctx.xTxFee.toString() });
    await expect(sent).rejects.toMatchObject({ code: 'tx-refused' });
    sendEnded();
    await refresh;
    node.lies.clear();
    await wallet.balances.balancesRefresh();
    expect((await wallet.balances.activityList()).items.filter((i) => i.kind === 'send')).toEqual([]);
  });
});

// The wallet service behind a node that keeps an X send it says it refused (or took and then called
// "Rejected"): the retry takes its place, so when the node lets it go only one of the two runs.
import { describe, expect, inject, it } from 'vitest';
import { parseAddress } from '../../src/core/encoding.js';
import { makeOwners } from '../../src/core/tx/context.js';
import { AVAX, avaxOf, freshWallet, testNodeOutboxKey } from './fixture.js';
import { lyingNode, refreshUntilDecided, rewriteUtxos, rpcResult } from './lying-node.js';
import { holdingX, setUp, swallow, takesThenRejects } from './lying-node-sends.js';
import { fundedWallet } from './wallet-fixture.js';

describe('a node that keeps an X send it says it refused', () => {
  it('the retry spends what the refused one spent, so when the node lets it go only one of the two runs', async () => {
    const { node, bob, send } = await setUp();
    const release = holdingX(node);
    await expect(send()).rejects.toMatchObject({ code: 'tx-refused' });
    node.lies.clear();
    await send();
    expect(await avaxOf(bob.engine, 'X')).toBe(AVAX);
    expect((await release()).error?.message).toBeDefined();
    expect(await avaxOf(bob.engine, 'X')).toBe(AVAX);
  });

  it('replaced by a retry the node accepted: a send through another entry for the same node goes out, and the refused one is never listed there as "may have gone through"', async () => {
    const { node, wallet, bob, send } = await setUp();
    holdingX(node);
    await expect(send()).rejects.toMatchObject({ code: 'tx-refused' });
    node.lies.clear();
    await send();
    // At once, before this entry's own refresh settles the refused one: only the node knows the retry ran.
    const second = await wallet.networks.networksAddCustom({ name: 'Test node again', url: inject('nodeUrl') });
    await wallet.networks.networksSelect({ id: second.id });
    await send();
    expect(await avaxOf(bob.engine, 'X')).toBe(2n * AVAX);
    await wallet.balances.balancesRefresh();
    expect((await wallet.balances.activityList()).items.filter((i) => i.status === 'pending')).toEqual([]);
  });

  it('a network restart the node fakes keeps the refused send in the way: a retry that cannot spend what it spent is stopped, nothing paid twice', async () => {
    const { node, wallet, bob, send, genesis, account } = await setUp();
    // P-Chain blocks past its genesis, whose IDs the wallet records (what a restart is told by).
    await genesis.issueAndWait(await genesis.buildPSend(AVAX, makeOwners([parseAddress(account.pAddress).bytes])));
    await wallet.balances.balancesRefresh();
    const release = holdingX(node);
    await expect(send()).rejects.toMatchObject({ code: 'tx-refused' });
    node.lies.clear();
    // The node now shows a restarted network: height 0, another block where the genesis was.
    node.lies.set('platform.getHeight', () => Promise.resolve(rpcResult({ height: '0' })));
    node.lies.set('platform.getBlockByHeight', async (call) => {
      const params = { ...(call.params as { height: string }), height: '1' };
      const r = await fetch(`${inject('nodeUrl')}/ext/bc/P`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: call.method, params }) });
      return (await r.json()) as ReturnType<typeof rpcResult>;
    });
    await wallet.balances.balancesRefresh();
    node.lies.clear();
    // And hides what the refused one spent (the 10 AVAX UTXO), so the retry would be built on other funds.
    node.lies.set('avm.getUTXOs', rewriteUtxos('avm', (utxos) => utxos.filter((u) => !(u.output.kind === 'TransferOutput' && u.output.amount === 10n * AVAX))));
    await expect(send()).rejects.toMatchObject({ code: 'earlier-send-unclear' });
    node.lies.clear();
    // Let go now, the refused one runs, alone: the retry never went out.
    expect((await release()).result).toBeDefined();
    for (let i = 0; i < 100 && (await avaxOf(bob.engine, 'X')) === 0n; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await avaxOf(bob.engine, 'X')).toBe(AVAX);
  });

  it('let go before the retry: the retry is stopped with that news, the first is listed as accepted, the next send goes out', async () => {
    const { node, wallet, bob, send } = await setUp();
    const release = holdingX(node);
    await expect(send()).rejects.toMatchObject({ code: 'tx-refused' });
    node.lies.clear();
    const { result } = await release();
    for (let i = 0; i < 100 && (await avaxOf(bob.engine, 'X')) === 0n; i++) await new Promise((r) => setTimeout(r, 100));
    await expect(send()).rejects.toMatchObject({ code: 'earlier-send-went-through' });
    expect(await avaxOf(bob.engine, 'X')).toBe(AVAX);
    expect((await wallet.balances.activityList()).items.find((i) => i.txID === result!.txID)).toMatchObject({ status: 'accepted' });
    await send();
    expect(await avaxOf(bob.engine, 'X')).toBe(2n * AVAX);
  });

  it('its inputs hidden from the retry (to make it spend others): the retry is stopped, told it may have gone through', async () => {
    const { node, wallet, bob, send } = await setUp();
    const release = holdingX(node);
    await expect(send()).rejects.toMatchObject({ code: 'tx-refused' });
    node.lies.clear();
    // The node now leaves out the UTXO the refused tx spent (the 10 AVAX one: largest first).
    node.lies.set('avm.getUTXOs', rewriteUtxos('avm', (utxos) => utxos.filter((u) => !(u.output.kind === 'TransferOutput' && u.output.amount === 10n * AVAX))));
    await expect(send()).rejects.toMatchObject({ code: 'earlier-send-unclear', message: expect.stringMatching(/may have gone through/) });
    expect(await avaxOf(bob.engine, 'X')).toBe(0n);
    const listed = (await wallet.balances.activityList()).items.filter((i) => i.kind === 'send');
    expect(listed).toEqual([expect.objectContaining({ status: 'pending', checking: true })]);
    node.lies.clear();
    await release();
    expect(await refreshUntilDecided(wallet, listed[0]!.txID)).toBe('accepted');
    expect(await avaxOf(bob.engine, 'X')).toBe(AVAX);
  });

  /** The node takes the send, holds it, and calls it "Rejected"; it is built on the 5 AVAX UTXO (the 10 AVAX one hidden), which an honest retry would not pick. */
  async function takenThenRejected() {
    const set = await setUp();
    const release = takesThenRejects(set.node);
    await expect(set.send()).rejects.toMatchObject({ code: 'tx-failed', message: expect.stringMatching(/nothing was paid, and your next X-Chain send takes its place/) });
    set.node.lies.clear();
    return { ...set, release };
  }

  it('taken, then called "Rejected": the retry takes its place, so when the node lets it go only one of the two runs', async () => {
    const { wallet, bob, send, release } = await takenThenRejected();
    await wallet.balances.balancesRefresh();
    await send();
    expect(await avaxOf(bob.engine, 'X')).toBe(AVAX);
    expect((await release()).error?.message).toBeDefined();
    expect(await avaxOf(bob.engine, 'X')).toBe(AVAX);
  });

  it('taken, then called "Rejected" on one network entry: a retry through another entry for the same node, the first removed, still takes its place', async () => {
    const { wallet, bob, send, release } = await takenThenRejected();
    // The user's second entry for the same node (a new address for it, say): the first is removed
    // without a word about sends, as the refused one stays with the chains, not with the entry.
    const first = (await wallet.networks.networksList()).selectedId;
    const second = await wallet.networks.networksAddCustom({ name: 'Test node again', url: inject('nodeUrl') });
    await wallet.networks.networksSelect({ id: second.id });
    await wallet.networks.networksRemove({ id: first });
    await wallet.balances.balancesRefresh();
    await send();
    expect(await avaxOf(bob.engine, 'X')).toBe(AVAX);
    expect((await release()).error?.message).toBeDefined();
    expect(await avaxOf(bob.engine, 'X')).toBe(AVAX);
  });

  it('taken, called "Rejected", then let go: a refresh lists it accepted, and the retry is stopped with that news', async () => {
    const { wallet, bob, send, release } = await takenThenRejected();
    const { result } = await release();
    expect((await wallet.balances.activityList()).items.find((i) => i.txID === result!.txID)).toMatchObject({ status: 'failed' });
    const status = async () => (await wallet.balances.activityList()).items.find((i) => i.txID === result!.txID)?.status;
    for (let i = 0; i < 50 && (await status()) !== 'accepted'; i++) await wallet.balances.balancesRefresh();
    expect(await status()).toBe('accepted');
    await expect(send()).rejects.toMatchObject({ code: 'earlier-send-went-through' });
    expect(await avaxOf(bob.engine, 'X')).toBe(AVAX);
  });

  it('taken, called "Rejected", then said to be processing: Activity takes the failure back (it may go through) and keeps it so across refreshes', async () => {
    const { wallet, node } = await takenThenRejected();
    const [item] = (await wallet.balances.activityList()).items.filter((i) => i.kind === 'send');
    expect(item).toMatchObject({ status: 'failed' });
    node.lies.set('avm.getTxStatus', () => Promise.resolve(rpcResult({ status: 'Processing' })));
    await wallet.balances.balancesRefresh();
    await wallet.balances.balancesRefresh();
    expect((await wallet.balances.activityList()).items.find((i) => i.txID === item!.txID)).toMatchObject({ status: 'pending', checking: true });
  });

  it('a pending send no longer in the outbox (given up by an older version) is never made "failed" by the node\'s bare word', async () => {
    const node = lyingNode();
    const { wallet, stores, account, ctx, avax } = await fundedWallet({ x: 10n * AVAX }, { fetch: node.fetch, wait: { timeoutMs: 300, pollMs: 100 } });
    node.lies.set('avm.issueTx', swallow);
    const bob = await freshWallet();
    const sent = await wallet.sends.sendX({ assetID: avax, amount: AVAX.toString(), to: { addresses: [bob.engine.addresses('X')[0]!], threshold: 1 }, maxFee: ctx.xTxFee.toString() });
    await stores.local.remove([await testNodeOutboxKey(account.id)]);
    node.lies.set('avm.getTxStatus', () => Promise.resolve(rpcResult({ status: 'Rejected' })));
    await wallet.balances.balancesRefresh();
    expect((await wallet.balances.activityList()).items.find((i) => i.txID === sent.txID)).toMatchObject({ status: 'pending', checking: true });
  });
});

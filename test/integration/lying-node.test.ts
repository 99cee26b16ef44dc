// The wallet service behind a node that lies (test/integration/lying-node.ts), checked against the
// real node afterwards: nothing paid twice, nothing signed on a lie, the user told in words.
import { describe, expect, inject, it } from 'vitest';
import { memoryStores } from '../../src/background/storage.js';
import { generateMnemonic } from '../../src/core/keys.js';
import { parseAddress } from '../../src/core/encoding.js';
import { makeOwners } from '../../src/core/tx/context.js';
import { AVAX, avaxOf, freshWallet, testNodeOutboxKey, WEI_PER_NAVAX } from './fixture.js';
import { PLAIN_TRANSFER_GAS } from '../../src/core/tx/c.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { fromHex, toHex } from '../../src/core/bytes.js';
import { hang, type Lie, lyingNode, moveUntilDone, refreshUntilDecided, rewriteUtxos, rpcError, rpcResult, transferUntil, txIdOfIssue } from './lying-node.js';
import { fundedWallet, PASSWORD, startBackground } from './wallet-fixture.js';

/** The lie a timing-out load balancer tells: the tx goes on to the node, the wallet gets an error. */
const errorAfterForward: Lie = async (_call, forward) => {
  await forward();
  return rpcError('upstream timed out');
};

/** The hash an eth_sendRawTransaction call's tx has (what an honest node would answer). */
const keccakOfRaw = (call: { params: unknown }): string => `0x${toHex(keccak_256(fromHex((call.params as string[])[0]!.slice(2))))}`;

/** A node that answers the right tx ID but never passes the tx on. */
const swallow: Lie = (call) => Promise.resolve(rpcResult({ txID: txIdOfIssue(call) }));

async function payOnce(chain: 'X' | 'P', issueMethod: string, lie: Lie) {
  const node = lyingNode();
  const { wallet, ctx, avax } = await fundedWallet({ x: 10n * AVAX, p: 10n * AVAX }, { fetch: node.fetch, wait: { timeoutMs: 3_000, pollMs: 100 } });
  const bob = await freshWallet();
  const to = { addresses: [bob.engine.addresses(chain)[0]!], threshold: 1 };
  node.lies.set(issueMethod, lie);
  const fee = chain === 'X' ? ctx.xTxFee.toString() : (await wallet.sends.sendEstimate({ chain: 'P', amount: AVAX.toString(), to })).fee;
  const sent = chain === 'X' ? await wallet.sends.sendX({ assetID: avax, amount: AVAX.toString(), to, maxFee: fee }) : await wallet.sends.sendP({ amount: AVAX.toString(), to, maxFee: fee });
  return { node, wallet, bob, sent };
}

describe('a node that lies about issuing', () => {
  for (const [chain, method] of [['X', 'avm.issueTx'], ['P', 'platform.issueTx']] as const) {
    it(`${chain}: issueTx answers an error but the tx went through — the send is not reported failed, and the recipient is paid once`, async () => {
      const { wallet, bob, sent } = await payOnce(chain, method, errorAfterForward);
      const item = (await wallet.balances.activityList()).items.find((i) => i.txID === sent.txID);
      expect(item).toMatchObject({ kind: 'send', status: 'accepted' });
      expect(await avaxOf(bob.engine, chain)).toBe(AVAX);
    });
  }

  it('X: a swallowed send stays pending, then the refresh sends the same bytes again — paid exactly once', async () => {
    const { node, wallet, bob, sent } = await payOnce('X', 'avm.issueTx', swallow);
    expect((await wallet.balances.activityList()).items.find((i) => i.txID === sent.txID)).toMatchObject({ status: 'pending' });
    expect(await avaxOf(bob.engine, 'X')).toBe(0n);
    // The node is honest again: a refresh finds the tx unknown with its inputs unspent, and re-sends it.
    node.lies.clear();
    expect(await refreshUntilDecided(wallet, sent.txID)).toBe('accepted');
    expect(node.calls.filter((m) => m === 'avm.issueTx')).toHaveLength(2);
    expect(await avaxOf(bob.engine, 'X')).toBe(AVAX);
    // Nothing more is sent once it is decided.
    await wallet.balances.balancesRefresh();
    expect(node.calls.filter((m) => m === 'avm.issueTx')).toHaveLength(2);
  });

  it('X: a refusal while the node knows nothing of the tx and what it spends is unspent is a refusal — told in words, nothing paid, nothing listed', async () => {
    const node = lyingNode();
    const { wallet, ctx, avax } = await fundedWallet({ x: 10n * AVAX }, { fetch: node.fetch });
    const bob = await freshWallet();
    node.lies.set('avm.issueTx', () => Promise.resolve(rpcError('mempool full')));
    const error = await wallet
      .sends.sendX({ assetID: avax, amount: AVAX.toString(), to: { addresses: [bob.engine.addresses('X')[0]!], threshold: 1 }, maxFee: ctx.xTxFee.toString() })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'tx-refused', message: expect.stringMatching(/refused the transaction \(.*mempool full.*\); nothing was paid, and your next X-Chain send takes its place/) });
    expect((await wallet.balances.activityList()).items.filter((i) => i.kind === 'send')).toEqual([]);
    expect(await avaxOf(bob.engine, 'X')).toBe(0n);
  });
});

/** Sends the X tx a lying node held back to the real node itself: the node letting it go. */
async function issueOnRealNode(tx: string): Promise<{ result?: { txID: string }; error?: { message: string } }> {
  const r = await fetch(`${inject('nodeUrl')}/ext/bc/X`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'avm.issueTx', params: { tx, encoding: 'hex' } }) });
  return (await r.json()) as { result?: { txID: string }; error?: { message: string } };
}

describe('a node that keeps an X send it says it refused', () => {
  /** The node keeps the tx it is sent, answers an error, and can let it go later. */
  function holdingX(node: ReturnType<typeof lyingNode>) {
    let held: string | undefined;
    node.lies.set('avm.issueTx', (call) => {
      held ??= (call.params as { tx: string }).tx;
      return Promise.resolve(rpcError('mempool full'));
    });
    return () => issueOnRealNode(held!);
  }

  async function setUp() {
    const node = lyingNode();
    const { wallet, ctx, avax, account, genesis, stores } = await fundedWallet({ x: 10n * AVAX }, { fetch: node.fetch, wait: { timeoutMs: 5_000, pollMs: 100 } });
    // A second, smaller UTXO: funds a send could be built on instead of the refused one's.
    await genesis.issueAndWait(await genesis.buildXSend([{ assetID: ctx.avaxAssetID, amount: 5n * AVAX, owners: makeOwners([parseAddress(account.xAddress).bytes]) }]));
    const bob = await freshWallet();
    const send = () => wallet.sends.sendX({ assetID: avax, amount: AVAX.toString(), to: { addresses: [bob.engine.addresses('X')[0]!], threshold: 1 }, maxFee: ctx.xTxFee.toString() });
    return { node, wallet, bob, send, genesis, account, stores };
  }

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
    let held: string | undefined;
    set.node.lies.set('avm.issueTx', (call) => ((held ??= (call.params as { tx: string }).tx), Promise.resolve(rpcResult({ txID: txIdOfIssue(call) }))));
    set.node.lies.set('avm.getTxStatus', () => Promise.resolve(rpcResult({ status: 'Rejected' })));
    set.node.lies.set('avm.getUTXOs', rewriteUtxos('avm', (utxos) => utxos.filter((u) => !(u.output.kind === 'TransferOutput' && u.output.amount === 10n * AVAX))));
    await expect(set.send()).rejects.toMatchObject({ code: 'tx-failed', message: expect.stringMatching(/nothing was paid, and your next X-Chain send takes its place/) });
    set.node.lies.clear();
    return { ...set, release: () => issueOnRealNode(held!) };
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

  /** A move X → P whose export the node takes, holds and calls "Rejected" (built on the 5 AVAX UTXO, as in takenThenRejected). */
  async function moveTakenThenRejected() {
    const set = await setUp();
    let held: string | undefined;
    set.node.lies.set('avm.issueTx', (call) => ((held ??= (call.params as { tx: string }).tx), Promise.resolve(rpcResult({ txID: txIdOfIssue(call) }))));
    set.node.lies.set('avm.getTxStatus', () => Promise.resolve(rpcResult({ status: 'Rejected' })));
    set.node.lies.set('avm.getUTXOs', rewriteUtxos('avm', (utxos) => utxos.filter((u) => !(u.output.kind === 'TransferOutput' && u.output.amount === 10n * AVAX))));
    expect(await moveUntilDone(set.wallet, 'X', 'P', AVAX)).toBe('failed');
    set.node.lies.clear();
    const pAvax = async () => BigInt((await set.wallet.balances.balancesRefresh()).balances.find((b) => b.chain === 'P')?.spendable ?? '0');
    return { ...set, pAvax, release: () => issueOnRealNode(held!) };
  }

  /**
   * That move's retry (the same tx) started: once its export is journaled, the outbox's next write
   * (taking the first export out of the way) fails, as when the worker dies there. Its estimate and view.
   */
  async function retryStoppedBeforeOutOfTheWay({ wallet, stores }: Awaited<ReturnType<typeof moveTakenThenRejected>>) {
    const est = await wallet.transfers.transfersEstimate({ from: 'X', to: 'P', amount: AVAX.toString() });
    const write = stores.local.set.bind(stores.local);
    let journaled = false;
    stores.local.set = (items) => {
      const key = Object.keys(items).find((k) => k.startsWith('xpc.transfers.') || k.startsWith('xpc.outbox.'));
      if (key?.startsWith('xpc.transfers.') && JSON.stringify(items[key]).includes('"export-signed"')) journaled = true;
      else if (key?.startsWith('xpc.outbox.') && journaled) return (stores.local.set = write), Promise.reject(new Error('the worker stopped'));
      return write(items);
    };
    const retry = await wallet.transfers.transfersStart({ from: 'X', to: 'P', amount: AVAX.toString(), maxFee: (BigInt(est.exportFee) + BigInt(est.importFee)).toString() });
    return { est, retry };
  }

  it('a move\'s export taken, then called "Rejected": the next move takes its place, so when the node lets it go only one move runs', async () => {
    const { wallet, pAvax, release } = await moveTakenThenRejected();
    const { importFee } = await wallet.transfers.transfersEstimate({ from: 'X', to: 'P', amount: AVAX.toString() });
    expect(await moveUntilDone(wallet, 'X', 'P', AVAX)).toBe('completed');
    expect((await release()).error?.message).toMatch(/failed to get utxo .*not found/i);
    expect(await pAvax()).toBe(AVAX - BigInt(importFee));
    // Built on the same funds for the same amount, the retry's export is the first one itself: one move, one export.
    const moves = (await wallet.transfers.transfersList()).transfers;
    expect(moves.map((t) => t.state)).toEqual(['completed']);
    expect((await wallet.balances.activityList()).items.filter((i) => i.kind === 'export').map((i) => [i.txID, i.status])).toEqual([[moves[0]!.exportTxID, 'accepted']]);
  });

  it('a move\'s export taken, then called "Rejected": the same move retried through another entry for the same node is one move, not a failed one left on the first', async () => {
    const { wallet, pAvax, release } = await moveTakenThenRejected();
    const { importFee } = await wallet.transfers.transfersEstimate({ from: 'X', to: 'P', amount: AVAX.toString() });
    const first = (await wallet.networks.networksList()).selectedId;
    const second = await wallet.networks.networksAddCustom({ name: 'Test node again', url: inject('nodeUrl') });
    await wallet.networks.networksSelect({ id: second.id });
    expect(await moveUntilDone(wallet, 'X', 'P', AVAX)).toBe('completed');
    expect((await release()).error?.message).toMatch(/failed to get utxo .*not found/i);
    expect(await pAvax()).toBe(AVAX - BigInt(importFee));
    const moves = (await wallet.transfers.transfersList()).transfers;
    expect(moves.map((t) => t.state)).toEqual(['completed']);
    // Back on the first entry: its failed move was the same export, now the retry's: one move, the same there, never "failed".
    await wallet.networks.networksSelect({ id: first });
    expect((await wallet.transfers.transfersList()).transfers).toEqual(moves);
    expect((await wallet.balances.activityList()).items.filter((i) => i.txID === moves[0]!.exportTxID).map((i) => i.status)).toEqual(['accepted']);
  });

  it('a move\'s export taken, then called "Rejected": a retry of another amount takes its place; the first stays failed, never "may have gone through"', async () => {
    const { wallet, pAvax, release } = await moveTakenThenRejected();
    const { importFee } = await wallet.transfers.transfersEstimate({ from: 'X', to: 'P', amount: (2n * AVAX).toString() });
    expect(await moveUntilDone(wallet, 'X', 'P', 2n * AVAX)).toBe('completed');
    expect((await release()).error?.message).toMatch(/failed to get utxo .*not found/i);
    expect(await pAvax()).toBe(2n * AVAX - BigInt(importFee));
    const first = (await wallet.transfers.transfersList()).transfers.find((t) => t.state === 'failed');
    expect(first).toMatchObject({ exportKept: 'kept' });
    expect((await wallet.balances.activityList()).items.find((i) => i.txID === first!.exportTxID)).toMatchObject({ status: 'failed' });
  });

  it('a move\'s export taken, called "Rejected", then let go: a refresh finds it ran, and the move goes on to import its funds once', async () => {
    const { wallet, pAvax, release, send } = await moveTakenThenRejected();
    const { importFee } = await wallet.transfers.transfersEstimate({ from: 'X', to: 'P', amount: AVAX.toString() });
    const { result } = await release();
    const exportStatus = async () => (await wallet.balances.activityList()).items.find((i) => i.txID === result!.txID)?.status;
    expect(await exportStatus()).toBe('failed');
    for (let i = 0; i < 50 && (await exportStatus()) !== 'accepted'; i++) await wallet.balances.balancesRefresh();
    expect(await exportStatus()).toBe('accepted');
    await wallet.transfers.resumeTransfers();
    expect((await wallet.transfers.transfersList()).transfers.map((t) => t.state)).toEqual(['completed']);
    expect(await pAvax()).toBe(AVAX - BigInt(importFee));
    // Nothing is in the way any more: the next send goes out.
    await send();
  });

  it('a move\'s export taken, called "Rejected", then let go while another entry for the same node is used: that entry finds it ran, and the move goes on there', async () => {
    const { wallet, pAvax, release } = await moveTakenThenRejected();
    const { importFee } = await wallet.transfers.transfersEstimate({ from: 'X', to: 'P', amount: AVAX.toString() });
    const { result } = await release();
    const first = (await wallet.networks.networksList()).selectedId;
    const second = await wallet.networks.networksAddCustom({ name: 'Test node again', url: inject('nodeUrl') });
    await wallet.networks.networksSelect({ id: second.id });
    const exportStatus = async () => (await wallet.balances.activityList()).items.find((i) => i.txID === result!.txID)?.status;
    for (let i = 0; i < 50 && (await exportStatus()) !== 'accepted'; i++) await wallet.balances.balancesRefresh();
    expect(await exportStatus()).toBe('accepted');
    // Its move is this entry's too (one journal for the chains): it imports its funds from here, once.
    await wallet.transfers.resumeTransfers();
    expect((await wallet.transfers.transfersList()).transfers.map((t) => t.state)).toEqual(['completed']);
    expect(await pAvax()).toBe(AVAX - BigInt(importFee));
    await wallet.networks.networksSelect({ id: first });
    expect((await wallet.transfers.transfersList()).transfers.map((t) => t.state)).toEqual(['completed']);
  });

  it('a move\'s export taken, called "Rejected", then its funds hidden from the retry: the retry is stopped, and the first move shows it may have gone through', async () => {
    const { node, wallet, pAvax, release } = await moveTakenThenRejected();
    const { importFee } = await wallet.transfers.transfersEstimate({ from: 'X', to: 'P', amount: AVAX.toString() });
    expect((await wallet.transfers.transfersList()).transfers[0]).toMatchObject({ state: 'failed', exportKept: 'kept' });
    // The node now leaves out the 5 AVAX UTXO the first export spent, so the retry's selection cannot take it.
    node.lies.set('avm.getUTXOs', rewriteUtxos('avm', (utxos) => utxos.filter((u) => !(u.output.kind === 'TransferOutput' && u.output.amount === 5n * AVAX))));
    expect(await moveUntilDone(wallet, 'X', 'P', AVAX)).toBe('failed');
    const [first, retry] = (await wallet.transfers.transfersList()).transfers.slice().reverse();
    expect(retry).toMatchObject({ state: 'failed', error: expect.stringMatching(/may have gone through/) });
    expect(retry!.exportTxID).toBeUndefined();
    expect(first).toMatchObject({ state: 'failed', exportKept: 'unclear' });
    expect((await wallet.balances.activityList()).items.find((i) => i.txID === first!.exportTxID)).toMatchObject({ status: 'pending', checking: true });
    node.lies.clear();
    await release();
    const exportStatus = async () => (await wallet.balances.activityList()).items.find((i) => i.txID === first!.exportTxID)?.status;
    for (let i = 0; i < 50 && (await exportStatus()) !== 'accepted'; i++) await wallet.balances.balancesRefresh();
    await wallet.transfers.resumeTransfers();
    expect((await wallet.transfers.transfersList()).transfers.find((t) => t.id === first!.id)?.state).toBe('completed');
    expect(await pAvax()).toBe(AVAX - BigInt(importFee));
  });

  it('a move\'s export taken, called "Rejected": its retry (the same tx) stopped by a failed write before its move held it leaves the first export in the way, so a retry on other funds is stopped and only one move runs', async () => {
    const { node, wallet, stores, pAvax, release } = await moveTakenThenRejected();
    const est = await wallet.transfers.transfersEstimate({ from: 'X', to: 'P', amount: AVAX.toString() });
    // The retry's journal write after its first (the one holding its export, the first move's tx) fails, as when the worker dies there.
    const write = stores.local.set.bind(stores.local);
    let journalWrites = 0;
    stores.local.set = (items) => (Object.keys(items).some((k) => k.startsWith('xpc.transfers.')) && ++journalWrites === 2 ? Promise.reject(new Error('the worker stopped')) : write(items));
    const retry = await wallet.transfers.transfersStart({ from: 'X', to: 'P', amount: AVAX.toString(), maxFee: (BigInt(est.exportFee) + BigInt(est.importFee)).toString() });
    expect(await transferUntil(wallet, retry.id, (t) => t.paused !== undefined)).toMatchObject({ state: 'pending', paused: { message: 'the worker stopped' } });
    stores.local.set = write;
    // Run again with the 5 AVAX UTXO the first export spent hidden, the retry is built on other funds.
    node.lies.set('avm.getUTXOs', rewriteUtxos('avm', (utxos) => utxos.filter((u) => !(u.output.kind === 'TransferOutput' && u.output.amount === 5n * AVAX))));
    await wallet.transfers.resumeTransfers().catch(() => undefined);
    const first = (await wallet.transfers.transfersList()).transfers.find((t) => t.id !== retry.id);
    expect((await wallet.transfers.transfersList()).transfers.find((t) => t.id === retry.id)).toMatchObject({ state: 'failed', error: expect.stringMatching(/may have gone through/) });
    expect(first).toMatchObject({ state: 'failed', exportKept: 'unclear' });
    node.lies.clear();
    expect((await release()).error).toBeUndefined();
    const exportStatus = async () => (await wallet.balances.activityList()).items.find((i) => i.txID === first!.exportTxID)?.status;
    for (let i = 0; i < 50 && (await exportStatus()) !== 'accepted'; i++) await wallet.balances.balancesRefresh();
    await wallet.transfers.resumeTransfers();
    // One move's funds left the X-Chain, and arrived once.
    expect((await wallet.transfers.transfersList()).transfers.find((t) => t.id === first!.id)?.state).toBe('completed');
    expect(await pAvax()).toBe(AVAX - BigInt(est.importFee));
  });

  it('a move\'s export taken, called "Rejected": its retry (the same tx) journaled, then stopped before the first export is out of the way; the node lets it go and a refresh sees it: one move, finished once resumed', async () => {
    const set = await moveTakenThenRejected();
    const { wallet, pAvax, release } = set;
    const { est, retry } = await retryStoppedBeforeOutOfTheWay(set);
    expect(await transferUntil(wallet, retry.id, (t) => t.paused !== undefined)).toMatchObject({ state: 'export-signed', paused: { message: 'the worker stopped' } });
    // The failed move went in the write that journaled the retry: the export running now is the retry's alone.
    expect((await wallet.transfers.transfersList()).transfers.map((t) => t.id)).toEqual([retry.id]);
    const { result } = await release();
    const exportStatus = async () => (await wallet.balances.activityList()).items.filter((i) => i.txID === result!.txID).map((i) => i.status);
    for (let i = 0; i < 50 && (await exportStatus())[0] !== 'accepted'; i++) await wallet.balances.balancesRefresh();
    await wallet.transfers.resumeTransfers();
    const moves = (await wallet.transfers.transfersList()).transfers;
    expect(moves.map((t) => [t.id, t.state])).toEqual([[retry.id, 'completed']]);
    expect(await pAvax()).toBe(AVAX - BigInt(est.importFee));
    expect((await wallet.balances.activityList()).items.filter((i) => i.kind === 'export').map((i) => [i.txID, i.status])).toEqual([[moves[0]!.exportTxID, 'accepted']]);
  });

  it('a move\'s export taken, called "Rejected": while its retry (the same tx) is journaled but the first is not yet out of the way, a send never spends that export\'s funds; the move then finishes once', async () => {
    const set = await moveTakenThenRejected();
    const { wallet, pAvax, send } = set;
    const { est, retry } = await retryStoppedBeforeOutOfTheWay(set);
    await transferUntil(wallet, retry.id, (t) => t.paused !== undefined);
    // The export's funds are the move's: the send would have to spend them to take its place, so it is not sent.
    await expect(send()).rejects.toMatchObject({ code: 'refused-send-in-the-way' });
    await wallet.transfers.resumeTransfers();
    expect((await wallet.transfers.transfersList()).transfers.map((t) => [t.id, t.state])).toEqual([[retry.id, 'completed']]);
    expect(await pAvax()).toBe(AVAX - BigInt(est.importFee));
    await send();
  });

  it('a move\'s export taken, called "Rejected", then let go before the next send: that send is stopped with the news, and the move goes on', async () => {
    const { wallet, pAvax, release, send } = await moveTakenThenRejected();
    const { importFee } = await wallet.transfers.transfersEstimate({ from: 'X', to: 'P', amount: AVAX.toString() });
    await release();
    let stopped: unknown;
    for (let i = 0; i < 50 && !stopped; i++) stopped = await send().then(() => expect.unreachable('sent past an export that ran'), (e: unknown) => ((e as { code?: string }).code === 'earlier-send-went-through' ? e : undefined));
    expect(stopped).toBeDefined();
    await wallet.transfers.resumeTransfers();
    expect((await wallet.transfers.transfersList()).transfers.map((t) => t.state)).toEqual(['completed']);
    expect(await pAvax()).toBe(AVAX - BigInt(importFee));
  });

  it('a move next takes its place: when the node lets it go it cannot run, it is never listed as "may have gone through", and the next send goes out', async () => {
    const { node, wallet, bob, send } = await setUp();
    const release = holdingX(node);
    await expect(send()).rejects.toMatchObject({ code: 'tx-refused' });
    node.lies.clear();
    expect(await moveUntilDone(wallet, 'X', 'P', AVAX)).toBe('completed');
    // The move's export spent what the refused send spent.
    expect((await release()).error?.message).toMatch(/failed to get utxo .*not found/i);
    // No refresh first: the send's own look at refused sends finds it replaced by the move.
    const sent = await send();
    expect(await avaxOf(bob.engine, 'X')).toBe(AVAX);
    expect((await wallet.balances.activityList()).items.filter((i) => i.kind === 'send').map((i) => i.txID)).toEqual([sent.txID]);
  });
});

describe('a node that lies about a C-Chain send', () => {
  async function cWallet(options: Parameters<typeof fundedWallet>[1]) {
    const f = await fundedWallet({}, options);
    await f.genesis.sendC(f.account.cAddress, 5n * AVAX * WEI_PER_NAVAX);
    const bob = await freshWallet();
    const est = await f.wallet.sends.sendEstimate({ chain: 'C', to: bob.engine.evmAddress, amountWei: (AVAX * WEI_PER_NAVAX).toString() });
    const send = () => f.wallet.sends.sendC({ to: bob.engine.evmAddress, amountWei: (AVAX * WEI_PER_NAVAX).toString(), maxFeeWei: est.fee });
    return { ...f, bob, send };
  }

  it('eth_sendRawTransaction answers an error but the tx went through: not reported failed, the recipient paid once', async () => {
    const node = lyingNode();
    const { wallet, bob, send } = await cWallet({ fetch: node.fetch, wait: { timeoutMs: 5_000, pollMs: 100 } });
    node.lies.set('eth_sendRawTransaction', errorAfterForward);
    const sent = await send();
    expect((await wallet.balances.activityList()).items.find((i) => i.txID === sent.txHash)).toMatchObject({ kind: 'send', chain: 'C', status: 'accepted' });
    // The fee listed is what the receipt charged, not the most it could have cost.
    expect(BigInt(sent.fee)).toBeLessThan(PLAIN_TRANSFER_GAS * 2n * (await bob.engine.node.eth.baseFee()) + 1n);
    expect(await bob.engine.cBalanceWei()).toBe(AVAX * WEI_PER_NAVAX);
  });

  it('a swallowed C-Chain send stays pending, then a refresh sends the same tx again: paid exactly once', async () => {
    const node = lyingNode();
    const { wallet, bob, send } = await cWallet({ fetch: node.fetch, wait: { timeoutMs: 2_000, pollMs: 100 } });
    node.lies.set('eth_sendRawTransaction', (call) => Promise.resolve(rpcResult(keccakOfRaw(call))));
    const sent = await send();
    const item = async () => (await wallet.balances.activityList()).items.find((i) => i.txID === sent.txHash);
    expect(await item()).toMatchObject({ status: 'pending' });
    node.lies.clear();
    expect(await refreshUntilDecided(wallet, sent.txHash)).toBe('accepted');
    expect(await bob.engine.cBalanceWei()).toBe(AVAX * WEI_PER_NAVAX);
    // Accepted on a refresh: listed with what its receipt charged, no longer the most it could cost.
    const receipt = (await bob.engine.node.eth.getTransactionReceipt(sent.txHash))!;
    const paid = receipt.gasUsed * receipt.effectiveGasPrice!;
    expect(paid).toBeLessThan(BigInt(sent.fee));
    expect((await item())?.fee).toBe(paid.toString());
  });

  it('a swallowed C-Chain send another entry for the same node then followed to its end: back on the first, it is listed accepted, not pending for ever', async () => {
    const node = lyingNode();
    const { wallet, bob, send } = await cWallet({ fetch: node.fetch, wait: { timeoutMs: 2_000, pollMs: 100 } });
    node.lies.set('eth_sendRawTransaction', (call) => Promise.resolve(rpcResult(keccakOfRaw(call))));
    const sent = await send();
    node.lies.clear();
    const first = (await wallet.networks.networksList()).selectedId;
    const second = await wallet.networks.networksAddCustom({ name: 'Test node again', url: inject('nodeUrl') });
    await wallet.networks.networksSelect({ id: second.id });
    // The second entry's refreshes list it, send the same bytes again and see them accepted: out of the outbox.
    await wallet.balances.balancesRefresh();
    expect(await refreshUntilDecided(wallet, sent.txHash)).toBe('accepted');
    await wallet.networks.networksSelect({ id: first });
    expect(await refreshUntilDecided(wallet, sent.txHash)).toBe('accepted');
    expect(await bob.engine.cBalanceWei()).toBe(AVAX * WEI_PER_NAVAX);
  });

  /** A node that keeps the raw tx and answers an error (as if refused), then can let it go later. */
  function holdingNode(node: ReturnType<typeof lyingNode>) {
    let held: string | undefined;
    node.lies.set('eth_sendRawTransaction', (call) => {
      held ??= (call.params as string[])[0];
      return Promise.resolve(rpcError('txpool is full'));
    });
    return {
      release: async () => {
        const r = await fetch(`${inject('nodeUrl')}/ext/bc/C/rpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: [held] }) });
        return (await r.json()) as { result?: string; error?: { message: string } };
      },
    };
  }

  /** A C-Chain send the node "refused" but holds (holdingNode); the node is honest afterwards. */
  async function refusedButHeld() {
    const node = lyingNode();
    const funded = await cWallet({ fetch: node.fetch, wait: { timeoutMs: 10_000, pollMs: 100 } });
    const holder = holdingNode(node);
    const refused = await funded.send().catch((e: unknown) => e);
    node.lies.clear();
    return { ...funded, holder, refused };
  }

  it('a send the node "refused" but held: the retry takes its nonce, so when the node lets it go only one of the two runs', async () => {
    const { bob, send, holder, refused } = await refusedButHeld();
    expect(refused).toMatchObject({ code: 'tx-refused', message: expect.stringMatching(/your next C-Chain send takes its place/) });
    await send();
    expect(await bob.engine.cBalanceWei()).toBe(AVAX * WEI_PER_NAVAX);
    // The held tx, let go now, carries a nonce the retry already used.
    expect((await holder.release()).error?.message).toMatch(/nonce too low/i);
    expect(await bob.engine.cBalanceWei()).toBe(AVAX * WEI_PER_NAVAX);
  });

  it('a "refused" send the node lets go before the retry: the retry is stopped with that news, and it is listed as accepted', async () => {
    const { wallet, bob, send, holder, refused } = await refusedButHeld();
    expect(refused).toMatchObject({ code: 'tx-refused' });
    const hash = (await holder.release()).result!;
    for (let i = 0; i < 100 && (await bob.engine.cBalanceWei()) === 0n; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await bob.engine.cBalanceWei()).toBe(AVAX * WEI_PER_NAVAX);
    await expect(send()).rejects.toMatchObject({ code: 'earlier-send-went-through' });
    expect(await bob.engine.cBalanceWei()).toBe(AVAX * WEI_PER_NAVAX);
    expect((await wallet.balances.activityList()).items.find((i) => i.txID === hash)).toMatchObject({ status: 'accepted', kind: 'send' });
    // Said once: the next send goes out. Under Helicon's async execution the balance may trail the
    // send's acceptance by a moment: waited for, then it must be exactly two payments, not three.
    await send();
    for (let i = 0; i < 100 && (await bob.engine.cBalanceWei()) < 2n * AVAX * WEI_PER_NAVAX; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await bob.engine.cBalanceWei()).toBe(2n * AVAX * WEI_PER_NAVAX);
  });

  it('a move from the C-Chain next takes its nonce: the held send then cannot run, is never listed as "may have gone through", and the next send goes out', async () => {
    const { wallet, bob, send, holder, refused } = await refusedButHeld();
    expect(refused).toMatchObject({ code: 'tx-refused' });
    expect(await moveUntilDone(wallet, 'C', 'X', AVAX)).toBe('completed');
    expect((await holder.release()).error?.message).toMatch(/nonce too low/i);
    await wallet.balances.balancesRefresh();
    expect((await wallet.balances.activityList()).items.filter((i) => i.kind === 'send')).toEqual([]);
    await send();
    expect(await bob.engine.cBalanceWei()).toBe(AVAX * WEI_PER_NAVAX);
  });

  it('a pending nonce below the ones the account has used: nothing is signed, nothing paid, the user is told', async () => {
    const node = lyingNode();
    const { bob, send } = await cWallet({ fetch: node.fetch, wait: { timeoutMs: 10_000, pollMs: 100 } });
    await send();
    expect(await bob.engine.cBalanceWei()).toBe(AVAX * WEI_PER_NAVAX);
    node.lies.set('eth_getTransactionCount', async (call, forward) => {
      const body = await forward();
      return (call.params as string[])[1] === 'pending' ? rpcResult(`0x${(BigInt(body.result as string) - 1n).toString(16)}`) : body;
    });
    const sentBefore = node.calls.filter((m) => m === 'eth_sendRawTransaction').length;
    const error = await send().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'node-response', message: expect.stringMatching(/offers nonce \d+ for an account that has already used \d+ nonces/) });
    expect(node.calls.filter((m) => m === 'eth_sendRawTransaction')).toHaveLength(sentBefore);
    expect(await bob.engine.cBalanceWei()).toBe(AVAX * WEI_PER_NAVAX);
  });
  it('a pending nonce past the ones used (a gap only a held tx could fill): nothing is signed, the user is told', async () => {
    const node = lyingNode();
    const { bob, send } = await cWallet({ fetch: node.fetch, wait: { timeoutMs: 10_000, pollMs: 100 } });
    node.lies.set('eth_getTransactionCount', async (call, forward) => {
      const body = await forward();
      return (call.params as string[])[1] === 'pending' ? rpcResult(`0x${(BigInt(body.result as string) + 1n).toString(16)}`) : body;
    });
    const error = await send().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'evm-nonce-gap', message: expect.stringMatching(/waiting that this wallet did not send/) });
    expect(node.calls).not.toContain('eth_sendRawTransaction');
    expect(await bob.engine.cBalanceWei()).toBe(0n);
  });

  it('a receipt faked as reverted does not make the send "failed" (a retry could pay twice): it stays unclear, and is accepted once the node is honest', async () => {
    const node = lyingNode();
    const { wallet, bob, send } = await cWallet({ fetch: node.fetch, wait: { timeoutMs: 10_000, pollMs: 100 } });
    node.lies.set('eth_getTransactionReceipt', async (_call, forward) => {
      const body = await forward();
      return body.result ? { ...body, result: { ...(body.result as object), status: '0x0' } } : body;
    });
    const sent = await send();
    const item = async () => (await wallet.balances.activityList()).items.find((i) => i.txID === sent.txHash);
    expect(await item()).toMatchObject({ status: 'pending' });
    expect(await bob.engine.cBalanceWei()).toBe(AVAX * WEI_PER_NAVAX);
    node.lies.clear();
    await wallet.balances.balancesRefresh();
    expect(await item()).toMatchObject({ status: 'accepted' });
  });
});

describe('a node that corrupts UTXOs', () => {
  it('a UTXO with a bad checksum is not counted, and the user is told so in words (not a silent zero)', async () => {
    const node = lyingNode();
    const { wallet, avax } = await fundedWallet({ x: 10n * AVAX }, { fetch: node.fetch });
    const xAvax = (view: { balances: { chain: string; assetID: string; spendable: string }[] }) => view.balances.find((b) => b.chain === 'X' && b.assetID === avax)?.spendable ?? '0';
    expect(xAvax(await wallet.balances.balancesRefresh())).toBe((10n * AVAX).toString());
    // Every X UTXO the node sends has its last checksum byte flipped.
    node.lies.set('avm.getUTXOs', async (_call, forward) => {
      const body = await forward();
      const result = body.result as { utxos: string[] };
      return { ...body, result: { ...result, utxos: result.utxos.map((u) => u.slice(0, -2) + (u.endsWith('00') ? '01' : '00')) } };
    });
    const view = await wallet.balances.balancesRefresh();
    expect(xAvax(view)).toBe('0');
    expect(view.warnings).toEqual([expect.stringMatching(/^The node sent 1 entry for the X-Chain that the wallet could not check \(its checksum or encoding is wrong\): not counted in these balances\.$/)]);
    node.lies.clear();
    const honest = await wallet.balances.balancesRefresh();
    expect(xAvax(honest)).toBe((10n * AVAX).toString());
    expect(honest.warnings).toBeUndefined();
  });
});

describe('a node that lies about atomic memory', () => {
  it('an empty atomic-memory read leaves a move waiting, not done; once the node is honest it imports once', async () => {
    const node = lyingNode();
    const { wallet, avax } = await fundedWallet({ x: 10n * AVAX }, { fetch: node.fetch });
    // Every read of atomic memory (getUTXOs with a source chain) answers "nothing there".
    node.lies.set('platform.getUTXOs', async (call, forward) =>
      (call.params as { sourceChain?: string }).sourceChain ? rpcResult({ numFetched: '0', utxos: [], endIndex: { address: '', utxo: '' }, encoding: 'hex' }) : forward(),
    );
    const est = await wallet.transfers.transfersEstimate({ from: 'X', to: 'P', amount: (2n * AVAX).toString() });
    const move = await wallet.transfers.transfersStart({ from: 'X', to: 'P', amount: (2n * AVAX).toString(), maxFee: (BigInt(est.exportFee) + BigInt(est.importFee)).toString() });
    let view = move;
    for (let i = 0; i < 100 && !view.error; i++) {
      await new Promise((r) => setTimeout(r, 100));
      view = (await wallet.transfers.transfersList()).transfers.find((t) => t.id === move.id)!;
    }
    expect(view).toMatchObject({ state: 'export-accepted', error: expect.stringMatching(/do not show in the P-Chain's atomic memory yet/) });

    node.lies.clear();
    await wallet.transfers.resumeTransfers();
    view = (await wallet.transfers.transfersList()).transfers.find((t) => t.id === move.id)!;
    expect(view.state).toBe('completed');
    const p = (await wallet.balances.balancesRefresh()).balances.find((b) => b.chain === 'P' && b.assetID === avax);
    expect(BigInt(p!.spendable)).toBe(2n * AVAX - BigInt(est.importFee));
  });
});

describe('a node that stops answering during a move', () => {
  it('the move shows paused with the reason and since when; back up, the next run finishes it and the pause is gone', async () => {
    const node = lyingNode();
    const { wallet, avax } = await fundedWallet({ x: 10n * AVAX }, { fetch: node.fetch });
    // Atomic memory unreachable: the export goes through, the import cannot be built.
    node.lies.set('platform.getUTXOs', async (call, forward) => {
      if ((call.params as { sourceChain?: string }).sourceChain) throw new TypeError('Failed to fetch');
      return forward();
    });
    const est = await wallet.transfers.transfersEstimate({ from: 'X', to: 'P', amount: (2n * AVAX).toString() });
    const move = await wallet.transfers.transfersStart({ from: 'X', to: 'P', amount: (2n * AVAX).toString(), maxFee: (BigInt(est.exportFee) + BigInt(est.importFee)).toString() });
    let view = move;
    for (let i = 0; i < 100 && !view.paused; i++) {
      await new Promise((r) => setTimeout(r, 100));
      view = (await wallet.transfers.transfersList()).transfers.find((t) => t.id === move.id)!;
    }
    expect(view).toMatchObject({ state: 'export-accepted', paused: { code: 'node-unreachable', since: expect.any(Number) } });
    const since = view.paused!.since;
    // Still down at the next run: paused since the first failure, not the latest.
    await wallet.transfers.resumeTransfers().catch(() => undefined);
    expect((await wallet.transfers.transfersList()).transfers.find((t) => t.id === move.id)!.paused?.since).toBe(since);

    node.lies.clear();
    await wallet.transfers.resumeTransfers();
    view = (await wallet.transfers.transfersList()).transfers.find((t) => t.id === move.id)!;
    expect(view.state).toBe('completed');
    expect(view.paused).toBeUndefined();
    const p = (await wallet.balances.balancesRefresh()).balances.find((b) => b.chain === 'P' && b.assetID === avax);
    expect(BigInt(p!.spendable)).toBe(2n * AVAX - BigInt(est.importFee));
  });

  it('a resume while a move is being run leaves that move to its run: one run per move, never two sending', async () => {
    const node = lyingNode();
    const { wallet } = await fundedWallet({ x: 10n * AVAX }, { fetch: node.fetch, wait: { timeoutMs: 3_000, pollMs: 100 } });
    // The export's issueTx hangs: the move's own run waits on it.
    node.lies.set('avm.issueTx', hang);
    const est = await wallet.transfers.transfersEstimate({ from: 'X', to: 'P', amount: AVAX.toString() });
    await wallet.transfers.transfersStart({ from: 'X', to: 'P', amount: AVAX.toString(), maxFee: (BigInt(est.exportFee) + BigInt(est.importFee)).toString() });
    for (let i = 0; i < 100 && !node.calls.includes('avm.issueTx'); i++) await new Promise((r) => setTimeout(r, 50));
    expect(node.calls.filter((m) => m === 'avm.issueTx')).toHaveLength(1);
    await wallet.transfers.resumeTransfers();
    expect(node.calls.filter((m) => m === 'avm.issueTx')).toHaveLength(1);
  });
});

describe('a node that lies about who it is', () => {
  it("a custom network whose node claims mainnet's EVM chain ID is refused before anything is signed", async () => {
    const node = lyingNode();
    node.lies.set('eth_chainId', () => Promise.resolve(rpcResult('0xa86a')));
    const { wallet } = await startBackground(memoryStores(), { fetch: node.fetch });
    await wallet.accounts.walletCreate({ password: PASSWORD, mnemonic: generateMnemonic(12) });
    const error = await wallet.networks.networksAddCustom({ name: 'Not mainnet', url: inject('nodeUrl') }).catch((e: unknown) => e);
    expect(error).toMatchObject({ message: expect.stringMatching(/part of Mainnet's identity but is not Mainnet/) });
    expect(node.calls.some((m) => m.endsWith('issueTx') || m === 'eth_sendRawTransaction')).toBe(false);
  });

  it('a custom network is pinned when added: a node that later tells another identity is refused, and an honest one is taken again', async () => {
    const node = lyingNode();
    const stores = memoryStores();
    const first = await startBackground(stores, { fetch: node.fetch });
    await first.wallet.accounts.walletCreate({ password: PASSWORD, mnemonic: generateMnemonic(12) });
    const network = await first.wallet.networks.networksAddCustom({ name: 'Test node', url: inject('nodeUrl') });
    await first.wallet.networks.networksSelect({ id: network.id });

    const lies: Array<[string, Lie]> = [
      ['info.getNetworkID', () => Promise.resolve(rpcResult({ networkID: '4242' }))],
      ['eth_chainId', () => Promise.resolve(rpcResult('0xa869'))],
      ['info.getBlockchainID', async (call, forward) => ((call.params as { alias: string }).alias === 'X' ? rpcResult({ blockchainID: 't7JQ8kk2KaX7YhWWHv2fnWNztt81hJ13i2FXDq2ZG1CFyWghx' }) : forward())],
    ];
    for (const [method, lie] of lies) {
      node.lies.set(method, lie);
      // A restarted worker asks the node again and must match what was pinned.
      const restarted = await startBackground(stores, { fetch: node.fetch });
      await restarted.session.unlock(PASSWORD);
      const view = await restarted.wallet.balances.balancesRefresh();
      expect(view.error, method).toMatch(/is not Test node|is not Fuji/);
      node.lies.delete(method);
    }
    const honest = await startBackground(stores, { fetch: node.fetch });
    await honest.session.unlock(PASSWORD);
    const view = await honest.wallet.balances.balancesRefresh();
    expect(view.error).toBeUndefined();
    expect((await honest.wallet.accounts.walletStatus()).network.hrp).toBe('custom');
  });
});

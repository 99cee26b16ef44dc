// Cross-chain moves against the real node when more than one is under way at once, and what
// Activity says of a move whose import waits for "Import now".
import { describe, expect, it } from 'vitest';
import type { TransferView } from '../../src/shared/messages.js';
import { parseAddress } from '../../src/core/encoding.js';
import { makeOwners } from '../../src/core/tx/context.js';
import { AVAX } from './fixture.js';
import { lyingNode, rpcError, rpcResult, transferUntil, txIdOfIssue } from './lying-node.js';
import { fundedWallet } from './wallet-fixture.js';

type Wallet = Awaited<ReturnType<typeof fundedWallet>>['wallet'];

/** The moves `ids` once each has ended, resumed as the minute alarm would (polled for up to 60 s). */
async function allEnded(wallet: Wallet, ids: string[]): Promise<TransferView[]> {
  for (let i = 0; i < 120; i++) {
    const views = (await wallet.transfers.transfersList()).transfers.filter((t) => ids.includes(t.id));
    if (views.every((t) => t.state === 'completed' || t.state === 'failed')) return views;
    if (views.some((t) => t.paused)) await wallet.transfers.resumeTransfers().catch(() => undefined);
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('the moves did not end');
}

/** A node that takes the first X-Chain tx sent to it and sits on it (a move's run then ends with its export undecided); later ones go through. */
function holdingFirstExport() {
  const node = lyingNode();
  let held = false;
  node.lies.set('avm.issueTx', async (call, forward) => {
    if (held) return forward();
    held = true;
    return rpcResult({ txID: txIdOfIssue(call) });
  });
  return node;
}

/** The X-Chain AVAX a refresh finds spendable now. */
async function xSpendable(wallet: Wallet, avax: string): Promise<bigint> {
  return BigInt((await wallet.balances.balancesRefresh()).balances.find((b) => b.chain === 'X' && b.assetID === avax)!.spendable);
}

/** A move of `amount` nAVAX out of the X-Chain, at the fees its estimate gives. */
async function startMove(wallet: Wallet, to: 'P' | 'C', amount: bigint) {
  const est = await wallet.transfers.transfersEstimate({ from: 'X', to, amount: amount.toString() });
  return wallet.transfers.transfersStart({ from: 'X', to, amount: amount.toString(), maxFee: (BigInt(est.exportFee) + BigInt(est.importFee)).toString(), maxExportFee: est.exportFee });
}

describe('two moves from the same chain started one right after the other', () => {
  it('both go through, the second waiting for the first one’s export: neither takes the funds the other’s export spends', async () => {
    const { wallet, ctx, avax } = await fundedWallet({ x: 10n * AVAX });
    const start = (to: 'P' | 'C') => startMove(wallet, to, 2n * AVAX);
    // The second is confirmed before the first one's export is decided.
    const [first, second] = await Promise.all([start('P'), start('C')]);
    const ended = await allEnded(wallet, [first.id, second.id]);
    expect(ended.map((t) => [t.state, t.exportKept])).toEqual([
      ['completed', undefined],
      ['completed', undefined],
    ]);
    expect(await xSpendable(wallet, avax)).toBe(10n * AVAX - 4n * AVAX - 2n * ctx.xTxFee);
    const items = (await wallet.balances.activityList()).items;
    expect(items.filter((i) => i.kind === 'export').map((i) => i.status)).toEqual(['accepted', 'accepted']);
  });
});

describe('a move started while an earlier move’s export is still undecided after its run ended', () => {
  it('waits for that export to be decided instead of spending the same funds: both go through', async () => {
    const node = holdingFirstExport();
    const { wallet, ctx, avax, account, genesis } = await fundedWallet({ x: 10n * AVAX }, { fetch: node.fetch, wait: { timeoutMs: 2_000, pollMs: 100 } });
    // A second UTXO: the second move is not short of funds while the first one's export holds the other.
    await genesis.issueAndWait(await genesis.buildXSend([{ assetID: ctx.avaxAssetID, amount: 10n * AVAX, owners: makeOwners([parseAddress(account.xAddress).bytes]) }]));
    const start = (to: 'P' | 'C') => startMove(wallet, to, 2n * AVAX);
    const first = await start('P');
    expect(await transferUntil(wallet, first.id, (t) => t.paused !== undefined)).toMatchObject({ state: 'export-signed' });
    const second = await start('C');
    const ended = await allEnded(wallet, [first.id, second.id]);
    expect(ended.map((t) => [t.state, t.exportKept])).toEqual([
      ['completed', undefined],
      ['completed', undefined],
    ]);
    expect(await xSpendable(wallet, avax)).toBe(20n * AVAX - 4n * AVAX - 2n * ctx.xTxFee);
  }, 90_000);
});

describe('a send made while a move’s export is still undecided after its run ended', () => {
  it('does not take the funds that export spends (not enough funds, nothing signed); the move then goes through, and the send after it', async () => {
    const node = holdingFirstExport();
    // One UTXO of 10 AVAX: the export spends it.
    const { wallet, ctx, avax, account } = await fundedWallet({ x: 10n * AVAX }, { fetch: node.fetch, wait: { timeoutMs: 2_000, pollMs: 100 } });
    const move = await startMove(wallet, 'P', 2n * AVAX);
    expect(await transferUntil(wallet, move.id, (t) => t.paused !== undefined)).toMatchObject({ state: 'export-signed' });
    const send = () => wallet.sends.sendX({ assetID: avax, amount: AVAX.toString(), to: { addresses: [account.xAddress], threshold: 1 }, maxFee: ctx.xTxFee.toString() });
    await expect(send()).rejects.toMatchObject({ code: 'insufficient-funds' });
    const [ended] = await allEnded(wallet, [move.id]);
    expect(ended).toMatchObject({ state: 'completed' });
    expect(ended!.exportKept).toBeUndefined();
    await send();
    expect(await xSpendable(wallet, avax)).toBe(10n * AVAX - 2n * AVAX - 2n * ctx.xTxFee);
  }, 90_000);
});

describe('a move whose import the node refused, then parked because one built again costs more than approved', () => {
  it('lists the refused import as failed in Activity, not pending; Import now then brings the funds in, listed accepted', async () => {
    const node = lyingNode();
    // The P-Chain refuses the move's import (the node never had it); after that its fee price reads ten times higher.
    let refused = false;
    node.lies.set('platform.issueTx', async (_call, forward) => {
      if (refused) return forward();
      refused = true;
      return rpcError('the import was refused');
    });
    node.lies.set('platform.getFeeState', async (_call, forward) => {
      const body = await forward();
      const state = body.result as { price: string };
      return refused ? { ...body, result: { ...state, price: (BigInt(state.price) * 10n).toString() } } : body;
    });
    const { wallet } = await fundedWallet({ x: 3n * AVAX }, { fetch: node.fetch });
    const est = await wallet.transfers.transfersEstimate({ from: 'X', to: 'P', amount: AVAX.toString() });
    const move = await wallet.transfers.transfersStart({ from: 'X', to: 'P', amount: AVAX.toString(), maxFee: (BigInt(est.exportFee) + BigInt(est.importFee)).toString(), maxExportFee: est.exportFee });
    const parked = await transferUntil(wallet, move.id, (t) => t.paused?.code === 'fee-above-approved' || t.state === 'completed' || t.state === 'failed');
    expect(parked).toMatchObject({ state: 'export-accepted', paused: { code: 'fee-above-approved' } });
    const [first] = parked.importTxIDs;
    const statusOf = async (txID: string) => (await wallet.balances.activityList()).items.find((i) => i.txID === txID);
    expect(await statusOf(first!)).toMatchObject({ kind: 'import', status: 'failed' });
    expect((await statusOf(first!))?.amount).toBeUndefined();

    const review = await wallet.transfers.transfersEstimateImportWaiting();
    const done = await wallet.transfers.transfersImportWaiting({ planID: review.planID, maxFee: review.fee });
    expect(done).toMatchObject({ txIDs: [expect.any(String)], failed: 0 });
    expect((await wallet.transfers.transfersList()).transfers.find((t) => t.id === move.id)).toMatchObject({ state: 'completed', importTxIDs: done.txIDs });
    expect(await statusOf(done.txIDs[0]!)).toMatchObject({ kind: 'import', status: 'accepted' });
  }, 60_000);
});

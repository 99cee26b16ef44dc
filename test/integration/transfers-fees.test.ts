// Moves between chains whose fees changed since the user reviewed them: refused at Confirm when above
// what was approved, paid as reviewed when a little above, and an underpaying C-Chain import rebuilt.
import { describe, expect, inject, it } from 'vitest';
import type { TransferView } from '../../src/shared/messages.js';
import { AVAX, WEI_PER_NAVAX } from './fixture.js';
import { lyingNode, type RpcCall, rpcResult, transferUntil, txIdOfIssue } from './lying-node.js';
import { fundedWallet } from './wallet-fixture.js';

describe('a move confirmed after its export fee rose above the one reviewed', () => {
  it('is refused at Confirm, to be reviewed again: nothing journaled, nothing signed', async () => {
    const { wallet } = await fundedWallet({ x: 3n * AVAX });
    const est = await wallet.transfers.transfersEstimate({ from: 'X', to: 'P', amount: AVAX.toString() });
    const reviewed = BigInt(est.exportFee) - 1n;
    const start = wallet.transfers.transfersStart({ from: 'X', to: 'P', amount: AVAX.toString(), maxFee: (reviewed + BigInt(est.importFee)).toString(), maxExportFee: reviewed.toString() });
    await expect(start).rejects.toMatchObject({ code: 'fee-above-approved' });
    expect((await wallet.transfers.transfersList()).transfers).toEqual([]);
    expect((await wallet.balances.balancesRefresh()).balances.find((b) => b.chain === 'X' && b.verified)?.spendable).toBe((3n * AVAX).toString());
  });

  it('is refused at Confirm, nothing journaled, when the funds it needs are no longer there', async () => {
    const { wallet, ctx } = await fundedWallet({ x: 3n * AVAX });
    const start = wallet.transfers.transfersStart({ from: 'X', to: 'P', amount: (3n * AVAX).toString(), maxFee: (2n * ctx.xTxFee).toString(), maxExportFee: ctx.xTxFee.toString() });
    await expect(start).rejects.toMatchObject({ code: 'insufficient-funds' });
    expect((await wallet.transfers.transfersList()).transfers).toEqual([]);
  });
});

describe('a move whose export fee approved is above its fees approved in all', () => {
  it('is refused unjournaled: the export could otherwise pay more than the total approved', async () => {
    const { wallet, ctx } = await fundedWallet({ x: 3n * AVAX });
    const start = wallet.transfers.transfersStart({ from: 'X', to: 'P', amount: AVAX.toString(), maxFee: '0', maxExportFee: ctx.xTxFee.toString() });
    await expect(start).rejects.toMatchObject({ code: 'validation' });
    expect((await wallet.transfers.transfersList()).transfers).toEqual([]);
    expect((await wallet.balances.balancesRefresh()).balances.find((b) => b.chain === 'X' && b.verified)?.spendable).toBe((3n * AVAX).toString());
  });
});

describe('a move confirmed after the C-Chain base fee rose a little since its review', () => {
  it('pays the fees reviewed instead of asking again, into and out of the C-Chain, and the node accepts both', async () => {
    const node = lyingNode();
    const { wallet, ctx } = await fundedWallet({ x: 3n * AVAX }, { fetch: node.fetch });
    const cWei = async () => BigInt((await wallet.balances.balancesRefresh()).balances.find((b) => b.chain === 'C' && b.verified)?.spendable ?? '0');
    // Reviewed at 1,000 nAVAX each. At a base fee of 76,000,000 wei the fees of now, with their
    // headroom, are above that, while 1,000 nAVAX still pays more than 110% of it per gas.
    const reviewed = 1_000n;
    node.lies.set('eth_baseFee', async () => rpcResult(`0x${(76_000_000n).toString(16)}`));
    const ended = (t: TransferView) => t.state === 'completed' || t.state === 'failed' || t.paused !== undefined;

    const into = await wallet.transfers.transfersEstimate({ from: 'X', to: 'C', amount: AVAX.toString() });
    expect(BigInt(into.importFee)).toBeGreaterThan(reviewed);
    const moveIn = await wallet.transfers.transfersStart({ from: 'X', to: 'C', amount: AVAX.toString(), maxFee: (ctx.xTxFee + reviewed).toString(), maxExportFee: ctx.xTxFee.toString() });
    expect(await transferUntil(wallet, moveIn.id, ended)).toMatchObject({ state: 'completed', importFee: reviewed.toString() });
    expect(await cWei()).toBe((AVAX - reviewed) * WEI_PER_NAVAX);

    const out = await wallet.transfers.transfersEstimate({ from: 'C', to: 'X', amount: (AVAX / 2n).toString() });
    expect(BigInt(out.exportFee)).toBeGreaterThan(reviewed);
    const moveOut = await wallet.transfers.transfersStart({ from: 'C', to: 'X', amount: (AVAX / 2n).toString(), maxFee: (reviewed + ctx.xTxFee).toString(), maxExportFee: reviewed.toString() });
    expect(await transferUntil(wallet, moveOut.id, ended)).toMatchObject({ state: 'completed', exportFee: reviewed.toString() });
    expect(await cWei()).toBe((AVAX / 2n - 2n * reviewed) * WEI_PER_NAVAX);
  });
});

describe('a move into the C-Chain whose import pays less than the base fee of now', () => {
  /** A wallet whose node says the C-Chain base fee is 0 until the first atomic C-Chain tx is sent, then `after(n)` for the n-th read. */
  async function underpaying(after: (n: number) => 'real' | 'zero') {
    const node = lyingNode();
    let reads = 0;
    node.lies.set('eth_baseFee', async (_call, forward) => (node.calls.includes('avax.issueTx') && after(++reads) === 'real' ? forward() : rpcResult('0x0')));
    const funded = await fundedWallet({ x: 3n * AVAX }, { fetch: node.fetch, wait: { timeoutMs: 2_000, pollMs: 100 } });
    // Its import is built at a base fee of 0 and pays nothing: the chain (1 wei at least) would hold it for ever.
    const move = await funded.wallet.transfers.transfersStart({ from: 'X', to: 'C', amount: AVAX.toString(), maxFee: (funded.ctx.xTxFee + AVAX / 100n).toString(), maxExportFee: funded.ctx.xTxFee.toString() });
    return { ...funded, move };
  }

  it('builds it again at the fee of now instead of waiting for the fee to fall, and the node accepts the new one', async () => {
    const { wallet, move } = await underpaying(() => 'real');
    const done = await transferUntil(wallet, move.id, (t) => t.state === 'completed' || t.state === 'failed');
    expect(done.state).toBe('completed');
    expect(BigInt(done.importFee!)).toBeGreaterThan(0n);
    const c = (await wallet.balances.balancesRefresh()).balances.find((b) => b.chain === 'C' && b.verified)!;
    expect(BigInt(c.spendable)).toBe((AVAX - BigInt(done.importFee!)) * WEI_PER_NAVAX);
  });

  it('waits for Import now, rather than signing the same import again, when one built now would pay no more', async () => {
    // After the first send, the base fee reads alternate: the chain's own (the import underpays), then 0 for the rebuild.
    const { wallet, move } = await underpaying((n) => (n % 2 === 1 ? 'real' : 'zero'));
    const parked = await transferUntil(wallet, move.id, (t) => t.state === 'completed' || t.state === 'failed' || t.paused?.code === 'fee-above-approved');
    expect(parked).toMatchObject({ state: 'export-accepted', paused: { code: 'fee-above-approved' } });
  });

  it('sends the underpaid import again while it waits: one the node lost (a restart, a full pool) still goes through once the fee falls', async () => {
    const node = lyingNode();
    // The node's base fee: steady, then (once the import was sent) far above what the move may pay, then back.
    let baseFee = 100n * 10n ** 9n;
    node.lies.set('eth_baseFee', async () => rpcResult(`0x${baseFee.toString(16)}`));
    // The node takes the import and loses it (a restart emptied its mempool).
    let lost = false;
    node.lies.set('avax.issueTx', async (call, forward) => {
      if (lost) return forward();
      lost = true;
      baseFee *= 5n;
      return rpcResult({ txID: txIdOfIssue(call) });
    });
    const { wallet, ctx } = await fundedWallet({ x: 3n * AVAX }, { fetch: node.fetch, wait: { timeoutMs: 2_000, pollMs: 100 } });
    const move = await wallet.transfers.transfersStart({ from: 'X', to: 'C', amount: AVAX.toString(), maxFee: (ctx.xTxFee + AVAX / 500n).toString(), maxExportFee: ctx.xTxFee.toString() });
    const parked = await transferUntil(wallet, move.id, (t) => t.state === 'completed' || t.state === 'failed' || t.paused?.code === 'fee-above-approved');
    expect(parked.state).toBe('export-accepted');
    // The fee falls back: one built now pays what the lost one pays, so it is that one that must reach the chain.
    baseFee /= 5n;
    let view = parked;
    for (let i = 0; i < 10 && view.state !== 'completed'; i++) {
      await wallet.transfers.resumeTransfers().catch(() => undefined);
      await new Promise((r) => setTimeout(r, 500));
      view = (await wallet.transfers.transfersList()).transfers.find((t) => t.id === move.id)!;
    }
    expect(view.state).toBe('completed');
    expect(view.error).toBeUndefined();
  });
});

describe('a move whose underpaid import was replaced, and the chain ran the first one after all', () => {
  it('counts the first as its own import: completed, not "imported by another import", and Activity lists that one', async () => {
    const node = lyingNode();
    // The node's own base fee, until the first import is sent: then it reads far above what that one pays.
    let risen = false;
    node.lies.set('eth_baseFee', async (_call, forward) => (risen ? rpcResult(`0x${(10n ** 12n).toString(16)}`) : forward()));
    // The first import is held back (the wallet sees it not executed, underpaying); when its
    // replacement is sent, that one is held back instead and the first reaches the chain.
    let first: RpcCall | undefined;
    node.lies.set('avax.issueTx', async (call) => {
      if (!first) {
        first = call;
        risen = true;
      } else {
        const url = `${inject('nodeUrl')}/ext/bc/C/avax`;
        const sent = (await (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'avax.issueTx', params: first.params }) })).json()) as { error?: unknown };
        expect(sent.error).toBeUndefined();
      }
      return rpcResult({ txID: txIdOfIssue(call) });
    });
    const { wallet, ctx } = await fundedWallet({ x: 3n * AVAX }, { fetch: node.fetch, wait: { timeoutMs: 2_000, pollMs: 100 } });
    const move = await wallet.transfers.transfersStart({ from: 'X', to: 'C', amount: AVAX.toString(), maxFee: (ctx.xTxFee + AVAX / 10n).toString(), maxExportFee: ctx.xTxFee.toString() });
    let view = await transferUntil(wallet, move.id, (t) => t.state === 'completed' || t.state === 'failed' || t.paused !== undefined);
    for (let i = 0; i < 20 && view.state !== 'completed'; i++) {
      await wallet.transfers.resumeTransfers().catch(() => undefined);
      await new Promise((r) => setTimeout(r, 300));
      view = (await wallet.transfers.transfersList()).transfers.find((t) => t.id === move.id)!;
    }
    const firstID = txIdOfIssue(first!);
    expect(view).toMatchObject({ state: 'completed', importTxIDs: [firstID] });
    expect(view.error).toBeUndefined();
    // What arrived is what the first import carried, less its own fee.
    const c = (await wallet.balances.balancesRefresh()).balances.find((b) => b.chain === 'C' && b.verified)!;
    expect(BigInt(c.spendable)).toBe((AVAX - BigInt(view.importFee!)) * WEI_PER_NAVAX);
    const { items } = await wallet.balances.activityList();
    expect(items.find((i) => i.txID === firstID)).toMatchObject({ kind: 'import', status: 'accepted' });
  });
});

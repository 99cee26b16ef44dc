// Home's all-chains total while a move's export or import runs in the middle of a refresh's reads,
// against the Helicon test node: the move's funds are read in a balance and in atomic memory at
// moments a tx apart, and must be counted once (or, for that refresh, not at all), never twice.
import { describe, expect, inject, it } from 'vitest';
import { totalAvaxWei } from '../../src/popup/screens/Home.js';
import { WEI_PER_NAVAX } from '../../src/core/amount.js';
import { AVAX } from './fixture.js';
import { type Lie, lyingNode, rpcResult, transferUntil, txIdOfIssue } from './lying-node.js';
import { fundedWallet } from './wallet-fixture.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Sends `tx` (held back from the real node so far) to it and waits until it runs. */
async function runOnNode(chain: 'X' | 'P', tx: string): Promise<void> {
  const vm = chain === 'X' ? 'avm' : 'platform';
  const call = async (method: string, params: unknown) => {
    const r = await fetch(`${inject('nodeUrl')}/ext/bc/${chain}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: `${vm}.${method}`, params }) });
    return ((await r.json()) as { result: Record<string, string> }).result;
  };
  const { txID } = await call('issueTx', { tx, encoding: 'hex' });
  for (let i = 0; i < 100 && !['Accepted', 'Committed'].includes((await call('getTxStatus', { txID })).status!); i++) await sleep(100);
}

/** A wallet with 10 AVAX on X, a 4 AVAX move to P started, the tx `issue` sends held back (the move paused at `state`). */
async function moveHeld(issue: 'avm.issueTx' | 'platform.issueTx', state: string) {
  const node = lyingNode();
  const { wallet } = await fundedWallet({ x: 10n * AVAX }, { fetch: node.fetch, wait: { timeoutMs: 1_500, pollMs: 100 } });
  let held: string | undefined;
  const processing: Lie = () => Promise.resolve(rpcResult({ status: 'Processing' }));
  node.lies.set(issue, (call) => ((held = (call.params as { tx: string }).tx), Promise.resolve(rpcResult({ txID: txIdOfIssue(call) }))));
  node.lies.set(issue === 'avm.issueTx' ? 'avm.getTxStatus' : 'platform.getTxStatus', processing);
  const est = await wallet.transfers.transfersEstimate({ from: 'X', to: 'P', amount: (4n * AVAX).toString() });
  const move = await wallet.transfers.transfersStart({ from: 'X', to: 'P', amount: (4n * AVAX).toString(), maxFee: (BigInt(est.exportFee) + BigInt(est.importFee)).toString() });
  const paused = await transferUntil(wallet, move.id, (t) => t.state === state && held !== undefined && t.paused !== undefined);
  return { node, wallet, move: paused, held: held! };
}

describe("Home's all-chains total, a move's tx running during a refresh", () => {
  it('counts an import that runs between the read of atomic memory and that of the P-Chain once', async () => {
    const { node, wallet, move, held } = await moveHeld('platform.issueTx', 'import-signed');
    // The funds are read in the P-Chain's atomic memory; then the import runs; then the P-Chain's UTXOs are read.
    let seen!: () => void;
    const atomicRead = new Promise<void>((r) => (seen = r));
    let released = false;
    node.lies.set('platform.getUTXOs', async (call, forward) => {
      if ((call.params as { sourceChain?: string }).sourceChain === 'X') {
        const body = await forward();
        seen();
        return body;
      }
      if (!released) {
        released = true;
        await Promise.race([atomicRead, sleep(5_000)]);
        await runOnNode('P', held);
      }
      return forward();
    });
    const view = await wallet.balances.balancesRefresh();
    expect(released).toBe(true);
    expect(totalAvaxWei(view)).toBe((10n * AVAX - BigInt(move.exportFee!) - BigInt(move.importFee!)) * WEI_PER_NAVAX);
    expect(view.moving).toBeUndefined();
  });

  it('counts an export that runs between the read of the X-Chain and that of atomic memory once', async () => {
    const { node, wallet, held } = await moveHeld('avm.issueTx', 'export-signed');
    // The X-Chain's UTXOs are read (the funds still there); then the export runs; then atomic memory is read.
    let xRead!: () => void;
    const exported = new Promise<void>((r) => (xRead = r));
    let released = false;
    node.lies.set('avm.getUTXOs', async (call, forward) => {
      const body = await forward();
      if (!released && !(call.params as { sourceChain?: string }).sourceChain) {
        released = true;
        await runOnNode('X', held);
        xRead();
      }
      return body;
    });
    node.lies.set('platform.getUTXOs', async (call, forward) => {
      if ((call.params as { sourceChain?: string }).sourceChain === 'X') await Promise.race([exported, sleep(5_000)]);
      return forward();
    });
    const view = await wallet.balances.balancesRefresh();
    expect(released).toBe(true);
    // The X-Chain as read still held the 10 AVAX: the export's 4 are not counted in atomic memory too.
    expect(totalAvaxWei(view)).toBe(10n * AVAX * WEI_PER_NAVAX);
  });
});

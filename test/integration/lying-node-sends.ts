// What the lying-node test files share: the lies about sending (a load balancer's error after the
// tx went on, a swallowed tx) and the wallet whose X send a node keeps while saying it refused it.
import { inject } from 'vitest';
import { parseAddress } from '../../src/core/encoding.js';
import { makeOwners } from '../../src/core/tx/context.js';
import { AVAX, freshWallet } from './fixture.js';
import { type Lie, lyingNode, rewriteUtxos, rpcError, rpcResult, txIdOfIssue } from './lying-node.js';
import { fundedWallet } from './wallet-fixture.js';

/** The lie a timing-out load balancer tells: the tx goes on to the node, the wallet gets an error. */
export const errorAfterForward: Lie = async (_call, forward) => {
  await forward();
  return rpcError('upstream timed out');
};

/** A node that answers the right tx ID but never passes the tx on. */
export const swallow: Lie = (call) => Promise.resolve(rpcResult({ txID: txIdOfIssue(call) }));

/** Sends the X tx a lying node held back to the real node itself: the node letting it go. */
export async function issueOnRealNode(tx: string): Promise<{ result?: { txID: string }; error?: { message: string } }> {
  const r = await fetch(`${inject('nodeUrl')}/ext/bc/X`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'avm.issueTx', params: { tx, encoding: 'hex' } }) });
  return (await r.json()) as { result?: { txID: string }; error?: { message: string } };
}

/** The node keeps the tx it is sent, answers an error, and can let it go later. */
export function holdingX(node: ReturnType<typeof lyingNode>) {
  let held: string | undefined;
  node.lies.set('avm.issueTx', (call) => {
    held ??= (call.params as { tx: string }).tx;
    return Promise.resolve(rpcError('mempool full'));
  });
  return () => issueOnRealNode(held!);
}

/**
 * The node takes the X tx it is sent, holds it and calls it "Rejected", with the 10 AVAX UTXO hidden
 * so that the tx is built on the 5 AVAX one (which an honest retry would not pick). Returns the node
 * letting it go.
 */
export function takesThenRejects(node: ReturnType<typeof lyingNode>) {
  let held: string | undefined;
  node.lies.set('avm.issueTx', (call) => ((held ??= (call.params as { tx: string }).tx), Promise.resolve(rpcResult({ txID: txIdOfIssue(call) }))));
  node.lies.set('avm.getTxStatus', () => Promise.resolve(rpcResult({ status: 'Rejected' })));
  node.lies.set('avm.getUTXOs', rewriteUtxos('avm', (utxos) => utxos.filter((u) => !(u.output.kind === 'TransferOutput' && u.output.amount === 10n * AVAX))));
  return () => issueOnRealNode(held!);
}

/** A wallet with 10 and then 5 AVAX on X behind a lying node, and its send of 1 AVAX to a fresh wallet. */
export async function setUp() {
  const node = lyingNode();
  const { wallet, ctx, avax, account, genesis, stores } = await fundedWallet({ x: 10n * AVAX }, { fetch: node.fetch, wait: { timeoutMs: 5_000, pollMs: 100 } });
  // A second, smaller UTXO: funds a send could be built on instead of the refused one's.
  await genesis.issueAndWait(await genesis.buildXSend([{ assetID: ctx.avaxAssetID, amount: 5n * AVAX, owners: makeOwners([parseAddress(account.xAddress).bytes]) }]));
  const bob = await freshWallet();
  const send = () => wallet.sends.sendX({ assetID: avax, amount: AVAX.toString(), to: { addresses: [bob.engine.addresses('X')[0]!], threshold: 1 }, maxFee: ctx.xTxFee.toString() });
  return { node, wallet, bob, send, genesis, account, stores };
}

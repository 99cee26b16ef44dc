// The wallet service behind a node that tells consistent lies about what the wallet holds and what
// happened (valid checksums, counts that add up), checked against the real node afterwards:
// balances right or marked unproven, nothing paid twice, the user told in words.
import { describe, expect, inject, it } from 'vitest';
import { type Utxo } from '../../src/core/codec/index.js';
import { fixedCapState } from '../../src/core/tx/x.js';
import { cb58Encode, parseAddress } from '../../src/core/encoding.js';
import { makeOwners } from '../../src/core/tx/context.js';
import type { AssetBalanceView, BalancesView } from '../../src/shared/messages.js';
import { WalletEngine, type SpentRecord } from '../../src/core/engine.js';
import { LOCAL } from '../../src/core/network.js';
import { NodeClient } from '../../src/core/node.js';
import { inputIds } from '../../src/core/tx-fate.js';
import { utxoId } from '../../src/core/codec/ids.js';
import { AVAX, avaxOf, freshWallet, localNetwork, spendableOf } from './fixture.js';
import { hang, type Lie, lyingNode, refreshUntilDecided, rewriteUtxos, rpcResult, transferUntil, txIdOfIssue } from './lying-node.js';
import { fundedWallet } from './wallet-fixture.js';

const row = (view: BalancesView, chain: string, assetID: string): AssetBalanceView | undefined => view.balances.find((b) => b.chain === chain && b.assetID === assetID);

const inflate = (u: Utxo): Utxo => (u.output.kind === 'TransferOutput' ? { ...u, output: { ...u.output, amount: u.output.amount * 100n } } : u);

/** Sends 1 AVAX on X to a fresh wallet through the service; returns what the real node says it got. */
async function payOneAvax(wallet: Awaited<ReturnType<typeof fundedWallet>>['wallet'], avax: string, fee: bigint) {
  const bob = await freshWallet();
  await wallet.sends.sendX({ assetID: avax, amount: AVAX.toString(), to: { addresses: [bob.engine.addresses('X')[0]!], threshold: 1 }, maxFee: fee.toString() });
  return avaxOf(bob.engine, 'X');
}

describe('a node that rewrites UTXOs consistently', () => {
  it('an inflated amount (checksum valid) is disproven by its tx: the balance stays right, the user is told, a send pays exactly', async () => {
    const node = lyingNode();
    const { wallet, avax, ctx } = await fundedWallet({ x: 10n * AVAX }, { fetch: node.fetch });
    node.lies.set('avm.getUTXOs', rewriteUtxos('avm', (utxos) => utxos.map(inflate)));
    const view = await wallet.balances.balancesRefresh();
    expect(row(view, 'X', avax)?.spendable ?? '0').toBe('0');
    expect(view.warnings).toEqual([expect.stringMatching(/X-Chain .*the transaction that would have created it says otherwise\): not counted/)]);
    // Duplicates of the real UTXO (same ID) are one UTXO; a copy under a made-up index is disproven.
    node.lies.set('avm.getUTXOs', rewriteUtxos('avm', (utxos) => [...utxos, ...utxos, ...utxos.map((u) => ({ ...u, outputIndex: u.outputIndex + 5 }))]));
    const dup = await wallet.balances.balancesRefresh();
    expect(row(dup, 'X', avax)).toMatchObject({ spendable: (10n * AVAX).toString(), unproven: '0' });
    expect(dup.warnings).toEqual([expect.stringMatching(/^The node sent 1 entry for the X-Chain .*says otherwise/)]);
    expect(await payOneAvax(wallet, avax, ctx.xTxFee)).toBe(AVAX);
  });

  it('a UTXO under a made-up tx is shown as unproven, apart, and a send spends the proven funds', async () => {
    const node = lyingNode();
    const { wallet, avax, ctx } = await fundedWallet({ x: 10n * AVAX }, { fetch: node.fetch });
    node.lies.set('avm.getUTXOs', rewriteUtxos('avm', (utxos) => [...utxos, ...utxos.slice(0, 1).map((u) => ({ ...inflate(u), txID: new Uint8Array(32).fill(7), outputIndex: 0 }))]));
    const view = await wallet.balances.balancesRefresh();
    expect(row(view, 'X', avax)).toMatchObject({ spendable: (1010n * AVAX).toString(), unproven: (1000n * AVAX).toString() });
    expect(await payOneAvax(wallet, avax, ctx.xTxFee)).toBe(AVAX);
    node.lies.clear();
    expect(row(await wallet.balances.balancesRefresh(), 'X', avax)).toMatchObject({ spendable: (9n * AVAX - ctx.xTxFee).toString(), unproven: '0' });
  });
});

describe('a node that lies about an asset', () => {
  it('an asset whose creating tx the node will not show is listed as unknown, in raw units, and does not stop the refresh', async () => {
    const node = lyingNode();
    const { wallet, avax } = await fundedWallet({ x: 10n * AVAX }, { fetch: node.fetch });
    const ghost = new Uint8Array(32).fill(5);
    node.lies.set('avm.getUTXOs', rewriteUtxos('avm', (utxos) => [...utxos, ...utxos.slice(0, 1).map((u) => ({ ...u, txID: new Uint8Array(32).fill(6), outputIndex: 0, assetID: ghost }))]));
    const view = await wallet.balances.balancesRefresh();
    expect(view.error).toBeUndefined();
    expect(row(view, 'X', avax)).toMatchObject({ spendable: (10n * AVAX).toString(), unproven: '0' });
    expect(view.balances.find((b) => b.chain === 'X' && b.assetID !== avax)).toMatchObject({ symbol: '?', denomination: 0, verified: false, unproven: (10n * AVAX).toString() });
    // Not history: a made-up UTXO is never listed as received.
    expect((await wallet.balances.activityList()).items.filter((i) => i.kind === 'receive' && i.assetID !== avax)).toEqual([]);
  });

  it("a token's description claiming to be AVAX with 9 decimals is not believed: name, symbol and decimals come from its CreateAssetTx", async () => {
    const node = lyingNode();
    const { wallet, account, genesis } = await fundedWallet({}, { fetch: node.fetch });
    const me = makeOwners([parseAddress(account.xAddress).bytes]);
    const token = await genesis.issueAndWait(await genesis.buildXCreateAsset({ name: 'Real Token', symbol: 'RTK', denomination: 2, initialStates: [fixedCapState([{ owners: me, amount: 1_234n }])] }));
    node.lies.set('avm.getAssetDescription', () => Promise.resolve(rpcResult({ assetID: token.txID, name: 'Avalanche', symbol: 'AVAX', denomination: '9' })));
    const view = await wallet.balances.balancesRefresh();
    expect(row(view, 'X', token.txID)).toMatchObject({ name: 'Real Token', symbol: 'RTK', denomination: 2, verified: false, spendable: '1234' });
    expect(view.waiting).toEqual([]);
  });
});

describe('a node that fakes an acceptance', () => {
  it('X: a swallowed send the node then calls "Accepted" is not believed without the tx; once honest, the same tx is sent and paid once', async () => {
    const node = lyingNode();
    const { wallet, avax, ctx } = await fundedWallet({ x: 10n * AVAX }, { fetch: node.fetch, wait: { timeoutMs: 2_000, pollMs: 100 } });
    const bob = await freshWallet();
    node.lies.set('avm.issueTx', (call) => Promise.resolve(rpcResult({ txID: txIdOfIssue(call) })));
    node.lies.set('avm.getTxStatus', () => Promise.resolve(rpcResult({ status: 'Accepted' })));
    const sent = await wallet.sends.sendX({ assetID: avax, amount: AVAX.toString(), to: { addresses: [bob.engine.addresses('X')[0]!], threshold: 1 }, maxFee: ctx.xTxFee.toString() });
    const item = async () => (await wallet.balances.activityList()).items.find((i) => i.txID === sent.txID);
    expect(await item()).toMatchObject({ status: 'pending' });
    await wallet.balances.balancesRefresh();
    expect(await item()).toMatchObject({ status: 'pending' });
    expect(await avaxOf(bob.engine, 'X')).toBe(0n);
    node.lies.clear();
    expect(await refreshUntilDecided(wallet, sent.txID)).toBe('accepted');
    expect(await avaxOf(bob.engine, 'X')).toBe(AVAX);
    expect(await spendableOf(bob.engine, 'X', ctx.avaxAssetID)).toBe(AVAX);
  });
});

describe("a node that fakes a move's export as accepted", () => {
  it('X→P: the export swallowed, then called "Accepted" with its own bytes shown back, is not believed while what it spends is unspent; once honest, the move ends with the funds moved once', async () => {
    const node = lyingNode();
    const { wallet, avax } = await fundedWallet({ x: 10n * AVAX }, { fetch: node.fetch, wait: { timeoutMs: 1_500, pollMs: 100 } });
    let held: string | undefined;
    node.lies.set('avm.issueTx', (call) => ((held = (call.params as { tx: string }).tx), Promise.resolve(rpcResult({ txID: txIdOfIssue(call) }))));
    node.lies.set('avm.getTxStatus', () => Promise.resolve(rpcResult({ status: 'Accepted' })));
    node.lies.set('avm.getTx', async (call, forward) => (held ? rpcResult({ tx: held, encoding: 'hex' }) : forward()));
    const est = await wallet.transfers.transfersEstimate({ from: 'X', to: 'P', amount: AVAX.toString() });
    const move = await wallet.transfers.transfersStart({ from: 'X', to: 'P', amount: AVAX.toString(), maxFee: (BigInt(est.exportFee) + BigInt(est.importFee)).toString() });
    const view = await transferUntil(wallet, move.id, (t) => t.state !== 'pending');
    // What the export spends is still unspent on the chain: it is not taken as accepted.
    expect(view.state).toBe('export-signed');
    expect(held).toBeDefined();
    expect(row(await wallet.balances.balancesRefresh(), 'X', avax)?.spendable).toBe((10n * AVAX).toString());
    node.lies.clear();
    await wallet.transfers.resumeTransfers();
    const done = await transferUntil(wallet, move.id, (t) => t.state === 'completed');
    const p = (await wallet.balances.balancesRefresh()).balances.find((b) => b.chain === 'P');
    expect(p?.spendable).toBe((AVAX - BigInt(done.importFee!)).toString());
    expect(row(await wallet.balances.balancesRefresh(), 'X', avax)?.spendable).toBe((9n * AVAX - BigInt(done.exportFee!)).toString());
  });
});

describe('a node that hangs', () => {
  it('a UTXO read that never answers ends the refresh in words, keeps the last balances and their age', async () => {
    const node = lyingNode();
    const { wallet, avax } = await fundedWallet({ x: 10n * AVAX }, { fetch: node.fetch });
    const before = await wallet.balances.balancesRefresh();
    node.lies.set('avm.getUTXOs', hang);
    const view = await wallet.balances.balancesRefresh();
    expect(view.error).toMatch(/no answer within/);
    expect(view.updatedAt).toBe(before.updatedAt);
    expect(row(view, 'X', avax)?.spendable).toBe((10n * AVAX).toString());
  }, 40_000);
});

describe('a node that inflates fees under the caps', () => {
  it('P: a gas price 50× the real one is what the estimate shows and exactly what is burned: nothing hidden, nothing paid twice', async () => {
    const node = lyingNode();
    const { wallet, avax } = await fundedWallet({ p: 10n * AVAX }, { fetch: node.fetch });
    const inflated: Lie = async (_call, forward) => {
      const body = await forward();
      const state = body.result as { price: string };
      return { ...body, result: { ...state, price: String(BigInt(state.price) * 50n) } };
    };
    const bob = await freshWallet();
    const to = { addresses: [bob.engine.addresses('P')[0]!], threshold: 1 };
    const honestFee = BigInt((await wallet.sends.sendEstimate({ chain: 'P', amount: AVAX.toString(), to })).fee);
    node.lies.set('platform.getFeeState', inflated);
    const { fee } = await wallet.sends.sendEstimate({ chain: 'P', amount: AVAX.toString(), to });
    expect(BigInt(fee)).toBeGreaterThan(honestFee * 10n);
    await wallet.sends.sendP({ amount: AVAX.toString(), to, maxFee: fee });
    node.lies.clear();
    const p = row(await wallet.balances.balancesRefresh(), 'P', avax);
    expect(BigInt(p!.spendable)).toBe(9n * AVAX - BigInt(fee));
    expect(await avaxOf(bob.engine, 'P')).toBe(AVAX);
  });
});

describe('a node that lies about a C-Chain block time', () => {
  it('AVAX received in a block dated in the future is listed at the moment the wallet looked, said so', async () => {
    const node = lyingNode();
    const { wallet, account, genesis } = await fundedWallet({}, { fetch: node.fetch });
    await wallet.balances.balancesRefresh();
    const { hash } = await genesis.sendC(account.cAddress, AVAX * 1_000_000_000n);
    const future: Lie = async (_call, forward) => {
      const body = await forward();
      const block = (body as { result?: { timestamp?: string } }).result;
      return block?.timestamp ? rpcResult({ ...block, timestamp: '0x' + (2n ** 40n).toString(16) }) : body;
    };
    node.lies.set('eth_getBlockByNumber', future);
    const before = Date.now();
    await wallet.balances.balancesRefresh();
    const item = (await wallet.balances.activityList()).items.find((i) => i.txID === hash);
    expect(item).toMatchObject({ kind: 'receive', chain: 'C', timeIsDiscovery: true });
    expect(item!.createdAt).toBeGreaterThanOrEqual(before);
    expect(item!.createdAt).toBeLessThanOrEqual(Date.now());
  });
});

describe('a node that lists again what a tx taken as accepted spent', () => {
  it('names the tx as contradicted and keeps the UTXO; until then the tx taken as accepted is not asked about again', async () => {
    const w = await freshWallet({ p: 5n * AVAX });
    const net = await localNetwork();
    const node = lyingNode();
    const spent = new Map<string, string>();
    const record: SpentRecord = {
      spenderOf: (id) => spent.get(id),
      note: (txID, ids) => ids.forEach((id) => spent.set(id, txID)),
      forget: (txID) => [...spent].forEach(([id, by]) => by === txID && spent.delete(id)),
    };
    const keys = { xp: [...w.receive, ...w.change], evm: w.evm, change: w.change[0]!.shortId };
    const engine = new WalletEngine(new NodeClient({ url: inject('nodeUrl'), atomicApi: LOCAL.atomicApi, fetch: node.fetch }), net.ctx, keys, { evmChainId: BigInt(net.identity.evmChainID), spent: record });
    const [funds] = await engine.utxos('P');
    const ran = await engine.issueAndWait(await engine.buildPSend(1n * AVAX, makeOwners([(await freshWallet()).receive[0]!.shortId])));
    expect(await engine.txFate('P', ran.txID, ran.signedBytes)).toBe('accepted');
    expect(spent.get(inputIds(ran.tx)[0]!)).toBe(ran.txID);
    expect(inputIds(ran.tx)).toContain(utxoId(funds!));
    // Taken as accepted: not asked about again.
    const calls = node.calls.length;
    expect(await engine.txFateFromNode('P', ran.txID)).toBe('accepted');
    expect(node.calls.length).toBe(calls);
    const read = await engine.utxos('P');
    expect(read.map(utxoId)).not.toContain(utxoId(funds!));
    // Its change is the wallet's, listed.
    expect(read.some((u) => cb58Encode(u.txID) === ran.txID)).toBe(true);
    expect(engine.contradicted.size).toBe(0);
    // The node lists the spent UTXO again (it is proven: its own tx made it): kept, and its spender named.
    node.lies.set('platform.getUTXOs', rewriteUtxos('pvm', (utxos) => [...utxos, funds!]));
    const relisted = await engine.utxos('P');
    expect(relisted.map(utxoId)).toContain(utxoId(funds!));
    expect([...engine.contradicted]).toEqual([ran.txID]);
    // Its change, made by the tx the node now says never spent them, is left out, said so: the funds count once.
    expect(relisted.some((u) => cb58Encode(u.txID) === ran.txID)).toBe(false);
    expect(engine.droppedUtxos).toEqual([expect.objectContaining({ chain: 'P', reason: expect.stringMatching(/^created by a transaction whose inputs the node lists as unspent/) })]);
  });
});

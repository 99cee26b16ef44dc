import { describe, expect, it } from 'vitest';
import { sha256 } from '@noble/hashes/sha2.js';
import { toHex } from '../../src/core/bytes.js';
import { decodeSignedTx, sortTransferableOutputs, type TransferableOutput, type UnsignedTx } from '../../src/core/codec/index.js';
import { cb58Encode } from '../../src/core/encoding.js';
import { RpcError, TimeoutError } from '../../src/core/errors.js';
import { avaxBurned, pTxFee } from '../../src/core/fees.js';
import type { BuiltTx } from '../../src/core/tx/built.js';
import { keychainOf, requiredCredentials, signTx, utxoLookupOf } from '../../src/core/tx/sign.js';
import { AVAX, avaxOf, freshWallet, localNetwork, type TestWallet } from './fixture.js';

/** The same tx returning one more nAVAX of change: it burns exactly one unit less than its fee. */
function underpay<T extends UnsignedTx>(built: BuiltTx<T>, w: TestWallet): BuiltTx<T> {
  const tx = built.tx;
  if (tx.vm === 'evm') throw new Error('not for atomic C txs');
  const vm = tx.vm;
  const changeHex = toHex(w.change[0]!.shortId);
  let bumped = false;
  const outputs = tx.outputs.map((o): TransferableOutput => {
    if (bumped || o.output.kind !== 'TransferOutput' || toHex(o.output.owners.addresses[0]!) !== changeHex) return o;
    bumped = true;
    return { ...o, output: { ...o.output, amount: o.output.amount + 1n } };
  });
  expect(bumped).toBe(true);
  return { ...built, tx: { ...tx, outputs: sortTransferableOutputs(outputs, vm) } as T, fee: built.fee - 1n };
}

/** Signs like the engine does, without issuing. */
function sign(w: TestWallet, built: BuiltTx) {
  return signTx(built.tx, requiredCredentials(built.tx, utxoLookupOf(built.spent)), keychainOf([...w.receive, ...w.change, w.evm]));
}

describe('fees are right, not just paid', () => {
  it('X-Chain: the static fee is accepted, one nAVAX less is rejected, and the estimate equals what was burned', async () => {
    const { ctx, client } = await localNetwork();
    const w = await freshWallet({ x: 5n * AVAX });
    const bob = await freshWallet();
    const built = await w.engine.buildXSend([{ assetID: ctx.avaxAssetID, amount: 1n * AVAX, owners: bob.me }]);

    const cheap = underpay(built, w);
    expect(avaxBurned(cheap.tx, ctx.avaxAssetID)).toBe(ctx.xTxFee - 1n);
    const rejected = await w.engine.issue(cheap).catch((e: unknown) => e);
    expect(rejected).toBeInstanceOf(RpcError);
    expect((rejected as RpcError).rpcMessage).toMatch(/insufficient|funds|flow|fee/i);
    expect(await avaxOf(w.engine, 'X')).toBe(5n * AVAX);

    const issued = await w.engine.issueAndWait(built);
    const onChain = decodeSignedTx(await client.avm.getTx(issued.txID), 'avm').unsigned;
    const burned = avaxBurned(onChain, ctx.avaxAssetID);
    console.info(`X send: estimated fee ${built.fee} nAVAX, burned ${burned} nAVAX`);
    expect(burned).toBe(built.fee);
    expect(burned).toBe(ctx.xTxFee);
    expect(await avaxOf(w.engine, 'X')).toBe(4n * AVAX - burned);
  });

  it('P-Chain: the dynamic fee at the current price is accepted, one nAVAX less is rejected', async () => {
    const { ctx, client } = await localNetwork();
    const w = await freshWallet({ p: 5n * AVAX });
    const bob = await freshWallet();
    const feeContext = await w.engine.pFeeContext();
    const built = await w.engine.buildPSend(1n * AVAX, bob.me);
    expect(built.fee).toBe(pTxFee(built.tx, feeContext));
    expect(built.fee).toBeGreaterThan(0n);

    const rejected = await w.engine.issue(underpay(built, w)).catch((e: unknown) => e);
    expect(rejected).toBeInstanceOf(RpcError);
    expect(await avaxOf(w.engine, 'P')).toBe(5n * AVAX);

    const issued = await w.engine.issueAndWait(built);
    const status = await client.platform.getTxStatus(issued.txID);
    expect(status.status).toBe('Committed');
    const burned = avaxBurned(decodeSignedTx(await client.platform.getTx(issued.txID), 'pvm').unsigned, ctx.avaxAssetID);
    console.info(`P send: estimated fee ${built.fee} nAVAX at price ${feeContext.gasPriceNavax}, burned ${burned} nAVAX`);
    expect(burned).toBe(built.fee);
    expect(await avaxOf(bob.engine, 'P')).toBe(1n * AVAX);
    expect(await avaxOf(w.engine, 'P')).toBe(4n * AVAX - burned);
  });
});

describe('rejections arrive as typed errors and change nothing', () => {
  it('a tampered signature is refused by the node', async () => {
    const { ctx, client } = await localNetwork();
    const w = await freshWallet({ x: 3n * AVAX });
    const built = await w.engine.buildXSend([{ assetID: ctx.avaxAssetID, amount: 1n * AVAX, owners: w.me }]);
    const signed = sign(w, built);
    const tampered = signed.signedBytes.slice();
    tampered[tampered.length - 10]! ^= 0x01;
    const error = await client.avm.issueTx(tampered).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcError);
    expect(await avaxOf(w.engine, 'X')).toBe(3n * AVAX);
  });

  it('a double spend is refused: the second tx spending the same UTXO fails and the first one stands', async () => {
    const { ctx } = await localNetwork();
    const w = await freshWallet({ x: 3n * AVAX });
    const bob = await freshWallet();
    const first = await w.engine.buildXSend([{ assetID: ctx.avaxAssetID, amount: 1n * AVAX, owners: bob.me }]);
    const second = await w.engine.buildXSend([{ assetID: ctx.avaxAssetID, amount: 2n * AVAX, owners: bob.me }]);
    expect(toHex(first.spent[0]!.txID)).toBe(toHex(second.spent[0]!.txID));
    await w.engine.issueAndWait(first);
    const error = await w.engine.issue(second).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcError);
    expect(await avaxOf(bob.engine, 'X')).toBe(1n * AVAX);
    expect(await avaxOf(w.engine, 'X')).toBe(2n * AVAX - ctx.xTxFee);
  });

  it('a tx the node never accepts is reported at the deadline with its last status', async () => {
    const { client } = await localNetwork();
    const id = cb58Encode(sha256(new TextEncoder().encode('a transaction nobody issued')));
    for (const chain of ['X', 'P', 'C'] as const) {
      const error = await client.waitForTx(chain, id, { timeoutMs: 600, pollMs: 100 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TimeoutError);
      // X and P say Unknown; a Helicon C-Chain finds an atomic tx only once executed.
      expect((error as TimeoutError).message).toMatch(chain === 'C' ? /not executed yet/ : /Unknown/);
    }
  });
});

describe('C-Chain EVM transfer', () => {
  it('sends native AVAX with EIP-1559 fees from eth_baseFee and eth_maxPriorityFeePerGas; balances exact to the gas paid', async () => {
    const { client } = await localNetwork();
    const alice = await freshWallet({ cWei: 5n * AVAX * 1_000_000_000n });
    const bob = await freshWallet();
    const value = 1_234_567_890_123_456_789n;
    const before = await alice.engine.cBalanceWei();
    const { hash, outcome } = await alice.engine.sendC(bob.engine.evmAddress, value);
    const receipt = outcome.receipt ?? (await client.eth.getTransactionReceipt(hash));
    expect(receipt?.status).toBe(1n);
    const tx = (await client.eth.ethCall('eth_getTransactionByHash', [hash])) as { type: string; maxFeePerGas: string; maxPriorityFeePerGas: string };
    expect(tx.type).toBe('0x2');
    expect(BigInt(tx.maxFeePerGas)).toBeGreaterThanOrEqual(BigInt(tx.maxPriorityFeePerGas));
    expect(await bob.engine.cBalanceWei()).toBe(value);
    expect(await alice.engine.cBalanceWei()).toBe(before - value - receipt!.gasUsed * receipt!.effectiveGasPrice!);
  });
});

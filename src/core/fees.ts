// Fee rules (wire-format.md §6.4, §7). X: static; P: dynamic by complexity; C atomic: gas × base fee.
import { type Bytes, toHex } from './bytes.js';
import type { CTx, PTx, TransferableInput, TransferableOutput, UnsignedTx } from './codec/types.js';
import { encodeUnsignedTx } from './codec/codec.js';
import { amountOf, ownersOf } from './codec/rules.js';

/** Per-dimension weights and price for the P-Chain dynamic fee. */
export interface PFeeContext {
  /** [Bandwidth, DBRead, DBWrite, Compute]. */
  weights: readonly [bigint, bigint, bigint, bigint];
  /** nAVAX per unit of gas, as platform.getFeeState reports it. */
  price: bigint;
}

export type Complexity = [bigint, bigint, bigint, bigint];

const P_TX_INTRINSIC_BANDWIDTH = 58n; // version, type, network, chain, #outs, #ins, memo length, #creds
const P_CROSS_CHAIN_EXTRA = 36n; // source/destination chain + count of imported/exported items
const P_OUTPUT_BANDWIDTH = 60n;
const P_ADDRESS_BANDWIDTH = 20n;
const P_INPUT_BANDWIDTH = 92n;
const P_SIGNATURE_BANDWIDTH = 69n;
const P_STAKEABLE_EXTRA = 12n;
const P_SIGNATURE_COMPUTE = 200n;

function outputComplexity(o: TransferableOutput): Complexity {
  const stakeable = o.output.kind === 'StakeableLockOut' ? P_STAKEABLE_EXTRA : 0n;
  const addrs = BigInt(ownersOf(o.output).addresses.length);
  return [P_OUTPUT_BANDWIDTH + P_ADDRESS_BANDWIDTH * addrs + stakeable, 0n, 1n, 0n];
}

function inputComplexity(i: TransferableInput): Complexity {
  const inner = i.input.kind === 'StakeableLockIn' ? i.input.input : i.input;
  const stakeable = i.input.kind === 'StakeableLockIn' ? P_STAKEABLE_EXTRA : 0n;
  const sigs = BigInt(inner.sigIndices.length);
  return [P_INPUT_BANDWIDTH + P_SIGNATURE_BANDWIDTH * sigs + stakeable, 1n, 1n, P_SIGNATURE_COMPUTE * sigs];
}

function add(a: Complexity, b: Complexity): Complexity {
  return [a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3]];
}

/** Complexity of a P-Chain BaseTx, ImportTx or ExportTx; its bandwidth is the signed size. */
export function pTxComplexity(tx: PTx): Complexity {
  let c: Complexity = [P_TX_INTRINSIC_BANDWIDTH + BigInt(tx.memo.length), 0n, 0n, 0n];
  if (tx.kind !== 'BaseTx') c[0] += P_CROSS_CHAIN_EXTRA;
  for (const o of tx.outputs) c = add(c, outputComplexity(o));
  for (const i of tx.inputs) c = add(c, inputComplexity(i));
  if (tx.kind === 'ImportTx') for (const i of tx.importedInputs) c = add(c, inputComplexity(i));
  if (tx.kind === 'ExportTx') for (const o of tx.exportedOutputs) c = add(c, outputComplexity(o));
  return c;
}

export function pGas(c: Complexity, weights: PFeeContext['weights']): bigint {
  return c[0] * weights[0] + c[1] * weights[1] + c[2] * weights[2] + c[3] * weights[3];
}

export function pTxFee(tx: PTx, ctx: PFeeContext): bigint {
  return pGas(pTxComplexity(tx), ctx.weights) * ctx.price;
}

// ---- C-Chain atomic ----

const ATOMIC_INTRINSIC_GAS = 10_000n;
const ATOMIC_GAS_PER_SIGNATURE = 1_000n;
const WEI_PER_NAVAX = 1_000_000_000n;
/** The C-Chain mempool refuses an atomic tx above this gas. */
export const ATOMIC_TX_MAX_GAS = 100_000n;

export function atomicSignatureCount(tx: CTx): number {
  if (tx.kind === 'ExportTx') return tx.ins.length;
  let n = 0;
  for (const i of tx.importedInputs) n += i.input.kind === 'StakeableLockIn' ? i.input.input.sigIndices.length : i.input.sigIndices.length;
  return n;
}

export function atomicTxGas(tx: CTx, unsignedLength = encodeUnsignedTx(tx).length): bigint {
  return BigInt(unsignedLength) + ATOMIC_GAS_PER_SIGNATURE * BigInt(atomicSignatureCount(tx)) + ATOMIC_INTRINSIC_GAS;
}

/** nAVAX to burn: ceil(gas × baseFee(wei) / 10^9). */
export function atomicTxFee(gas: bigint, baseFeeWei: bigint): bigint {
  return (gas * baseFeeWei + WEI_PER_NAVAX - 1n) / WEI_PER_NAVAX;
}

/** Scales a price by a percentage, rounding up (headroom against a rising fee). */
export function withHeadroom(value: bigint, percent: bigint): bigint {
  return (value * percent + 99n) / 100n;
}

/**
 * AVAX a tx actually burns: what it consumes minus what it creates (on its chain and exported).
 * This is the fee paid, shown after acceptance next to the estimate shown before.
 */
export function avaxBurned(tx: UnsignedTx, avaxAssetID: Bytes): bigint {
  const avax = toHex(avaxAssetID);
  const isAvax = (assetID: Bytes) => toHex(assetID) === avax;
  const inSum = (ins: TransferableInput[]) =>
    ins.filter((i) => isAvax(i.assetID)).reduce((s, i) => s + (i.input.kind === 'StakeableLockIn' ? i.input.input.amount : i.input.amount), 0n);
  const outSum = (outs: TransferableOutput[]) => outs.filter((o) => isAvax(o.assetID)).reduce((s, o) => s + amountOf(o.output), 0n);
  if (tx.vm === 'evm') {
    if (tx.kind === 'ImportTx') return inSum(tx.importedInputs) - tx.outs.filter((o) => isAvax(o.assetID)).reduce((s, o) => s + o.amount, 0n);
    return tx.ins.filter((i) => isAvax(i.assetID)).reduce((s, i) => s + i.amount, 0n) - outSum(tx.exportedOutputs);
  }
  let burned = inSum(tx.inputs) - outSum(tx.outputs);
  if (tx.kind === 'ImportTx') burned += inSum(tx.importedInputs);
  if (tx.kind === 'ExportTx') burned -= outSum(tx.exportedOutputs);
  return burned;
}

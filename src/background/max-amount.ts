// The largest amount one X or P tx can carry from the wallet's UTXOs, for "send the maximum" and
// for estimates: found by building candidate txs with the same builders a send uses.
import { type Bytes, toHex } from '../core/bytes.js';
import { MAX_U64 } from '../core/codec/io.js';
import type { OutputOwners, PTx, TransferableOutput } from '../core/codec/types.js';
import { cb58Encode } from '../core/encoding.js';
import { AssetLimitError, InsufficientFundsError, TxTooLargeError } from '../core/errors.js';
import { type PFeeContext, pTxFee } from '../core/fees.js';
import type { BuiltTx } from '../core/tx/built.js';
import { type ChainContext, MAX_XP_TX_SIZE, transferOutput } from '../core/tx/context.js';
import { selectionOrder, type SpendableUtxo, toTransferableInput } from '../core/tx/utxos.js';
import { packInputs } from '../core/tx/x.js';

/** How many candidate amounts `largestAmount` builds before giving up. */
const MAX_AMOUNT_ATTEMPTS = 32;

/** Inputs of one signature (161 bytes each) that fit the 1 KB packInputs keeps free for the rest of a tx. */
const SPARE_INPUTS = 7;

/** An AVAX output to `owners` (amount 0: for sizing a tx, whose fee no amount changes). */
export function avaxOutput(ctx: ChainContext, owners: OutputOwners): TransferableOutput {
  return transferOutput(ctx.avaxAssetID, 0n, owners);
}

/**
 * P-Chain fees of a tx spending `inputs` to `payment` (a BaseTx output or the exported output):
 * without change, then with one change output. Amounts do not change a P fee, only the shape does.
 */
export function pSpendFees(
  ctx: ChainContext,
  fee: PFeeContext,
  kind: 'BaseTx' | 'ExportTx',
  inputs: readonly SpendableUtxo[],
  payment: TransferableOutput,
  changeOwners: OutputOwners,
): bigint[] {
  const change = avaxOutput(ctx, changeOwners);
  const base = { vm: 'pvm' as const, networkID: ctx.networkID, blockchainID: ctx.pChainID, inputs: inputs.map(toTransferableInput), memo: new Uint8Array() };
  const draft = (withChange: boolean): PTx => {
    const changeOuts = withChange ? [change] : [];
    return kind === 'BaseTx'
      ? { ...base, kind, outputs: [payment, ...changeOuts] }
      : { ...base, kind, outputs: changeOuts, destinationChain: ctx.xChainID, exportedOutputs: [payment] };
  };
  return [pTxFee(draft(false), fee), pTxFee(draft(true), fee)];
}

/**
 * Max is what one tx carries (`spent`: Max and its fee in the asset), less than all `pool` holds of
 * `assetID` (too many UTXOs for one tx): an estimate says so (`maxOneTx`).
 */
export function oneTxOnly(pool: readonly SpendableUtxo[], assetID: Bytes, spent: bigint): { maxOneTx?: true } {
  const hex = toHex(assetID);
  const own = pool.filter((s) => toHex(s.utxo.assetID) === hex);
  const held = own.reduce((sum, s) => sum + s.amount, 0n);
  return spent < held && packInputs(own, MAX_XP_TX_SIZE).length > 1 ? { maxOneTx: true } : {};
}

/**
 * The largest amount of `assetID` one tx can carry from `pool`. Candidates: the asset's UTXOs in
 * the orders the builders pick them in (`selectUtxos`: marked `first`, then proven and largest, or
 * largest whether proven or not), passing by one that would take their sum
 * over a u64 (the node adds a tx's inputs of one asset in one: docs/protocol.md §X, and selection
 * passes it by too), as many as fit one tx, less each fee the tx could settle on for those inputs
 * (`feesFor`, in this asset; 0 when the fee is paid in another asset). Each candidate, largest
 * first, is built for real with `build`; the first that builds is the answer. A candidate too
 * large for one tx rules out every candidate with as many inputs.
 */
export function largestAmount(p: {
  pool: readonly SpendableUtxo[];
  assetID: Bytes;
  feesFor: (inputs: readonly SpendableUtxo[]) => bigint[];
  build: (amount: bigint) => BuiltTx;
}): bigint {
  const hex = toHex(p.assetID);
  const own = p.pool.filter((s) => toHex(s.utxo.assetID) === hex);
  const total = own.reduce((sum, s) => sum + s.amount, 0n);
  // The orders selection picks in: a refused send's inputs first, then proven before unproven and
  // the largest; or, when that takes too many inputs, the largest whether proven or not. Only a
  // prefix of an order is what a build takes.
  const candidates: { amount: bigint; inputs: number }[] = [];
  for (const proofFirst of [true, false]) {
    const ordered = selectionOrder(own, proofFirst);
    const within: SpendableUtxo[] = [];
    let sum = 0n;
    for (const s of ordered) {
      if (sum + s.amount > MAX_U64) continue;
      within.push(s);
      sum += s.amount;
    }
    // packInputs keeps 1 KB free for the rest of the tx, which needs far less: up to SPARE_INPUTS more
    // may fit, so they are candidates too (one that does not fit fails its build, and is passed by).
    const fit = Math.min(within.length, (packInputs(within, MAX_XP_TX_SIZE)[0]?.length ?? 0) + SPARE_INPUTS);
    sum = 0n;
    for (let k = 1; k <= fit; k++) {
      sum += within[k - 1]!.amount;
      for (const fee of p.feesFor(within.slice(0, k))) if (sum > fee) candidates.push({ amount: sum - fee, inputs: k });
    }
  }
  candidates.sort((a, b) => (a.amount === b.amount ? a.inputs - b.inputs : a.amount > b.amount ? -1 : 1));
  let tooLargeAt = Number.POSITIVE_INFINITY;
  let attempts = 0;
  let last: unknown = new InsufficientFundsError(cb58Encode(p.assetID), (p.feesFor(own.slice(0, 1))[0] ?? 0n) + 1n, total);
  let tried: bigint | undefined;
  for (const c of candidates) {
    // A build depends on the amount alone: the two orders' equal candidates are built once.
    if (c.inputs >= tooLargeAt || c.amount === tried) continue;
    tried = c.amount;
    if (++attempts > MAX_AMOUNT_ATTEMPTS) break;
    try {
      p.build(c.amount);
      return c.amount;
    } catch (e) {
      if (e instanceof TxTooLargeError) tooLargeAt = c.inputs;
      // A pick that cannot stay within the u64 limit (refused sends' inputs it must share): maybe a smaller one can.
      else if (!(e instanceof InsufficientFundsError) && !(e instanceof AssetLimitError)) throw e;
      last = e;
    }
  }
  throw last;
}

// The rules of transferable inputs and outputs that the P-Chain and the X-Chain share (what each
// chain's syntactic check refuses first: pvm-rules.ts, avm-rules.ts), and the helpers both use.
import { type Bytes, compareBytes } from '../bytes.js';
import { ValidationError } from '../errors.js';
import { encodeOutput } from './parts.js';
import { PVM_TX_TYPE_IDS } from './pvm.js';
import type { Input, Output, PChainOwner, PTx, TransferableInput, TransferableOutput, XTx } from './types.js';

/** Throws ValidationError naming the tx (its P-Chain type ID, or the X-Chain) and `field`. */
export function fail(tx: PTx | XTx, message: string, field?: string): never {
  throw new ValidationError(`${tx.kind} (${tx.vm === 'pvm' ? `type ${PVM_TX_TYPE_IDS[tx.kind]}` : 'X-Chain'}): ${message}`, field);
}

export function isZero(b: Bytes): boolean {
  return b.every((x) => x === 0);
}

export function strictlyAscending(items: readonly Bytes[]): boolean {
  return items.every((x, i) => i === 0 || compareBytes(items[i - 1]!, x) < 0);
}

export function indicesAscending(xs: readonly number[]): boolean {
  return xs.every((x, i) => i === 0 || xs[i - 1]! < x);
}

export function checkOwners(tx: PTx | XTx, o: PChainOwner, what: string): void {
  if (o.threshold > o.addresses.length) fail(tx, `${what}: threshold ${o.threshold} is above its ${o.addresses.length} addresses`, what);
  if (o.threshold === 0 && o.addresses.length > 0) fail(tx, `${what}: threshold 0 with addresses`, what);
  if (!strictlyAscending(o.addresses)) fail(tx, `${what}: addresses are not sorted and unique`, what);
}

function checkOutput(tx: PTx | XTx, out: Output, what: string): void {
  if (out.kind === 'StakeableLockOut') {
    if (out.locktime === 0n) fail(tx, `${what}: a stakeable lock needs a locktime`, what);
    return checkOutput(tx, out.output, what);
  }
  if (out.kind !== 'TransferOutput') fail(tx, `${what}: not a transfer output`, what);
  if (out.amount === 0n) fail(tx, `${what}: an output of 0`, what);
  checkOwners(tx, out.owners, what);
}

function checkInput(tx: PTx | XTx, input: Input, what: string): void {
  if (input.kind === 'StakeableLockIn') {
    if (input.locktime === 0n) fail(tx, `${what}: a stakeable lock needs a locktime`, what);
    return checkInput(tx, input.input, what);
  }
  if (input.amount === 0n) fail(tx, `${what}: an input of 0`, what);
  if (!indicesAscending(input.sigIndices)) fail(tx, `${what}: signature indices are not sorted and unique`, what);
}

/** The rules of a list of transferable outputs, on either chain: each one's, and sorted (by asset, then bytes). */
export function checkOutputs(tx: PTx | XTx, outs: readonly TransferableOutput[], what: string): void {
  outs.forEach((o, i) => {
    if (isZero(o.assetID)) fail(tx, `${what}[${i}]: an empty asset ID`, what);
    checkOutput(tx, o.output, `${what}[${i}]`);
  });
  const keys = outs.map((o) => ({ asset: o.assetID, body: encodeOutput(o.output, tx.vm) }));
  for (let i = 1; i < keys.length; i++) {
    const order = compareBytes(keys[i - 1]!.asset, keys[i]!.asset) || compareBytes(keys[i - 1]!.body, keys[i]!.body);
    if (order > 0) fail(tx, `${what} are not sorted`, what);
  }
}

/** The rules of a list of transferable inputs, on either chain: each one's, and sorted and unique (by UTXO). */
export function checkInputs(tx: PTx | XTx, ins: readonly TransferableInput[], what: string): void {
  ins.forEach((input, i) => {
    if (isZero(input.assetID)) fail(tx, `${what}[${i}]: an empty asset ID`, what);
    checkInput(tx, input.input, `${what}[${i}]`);
  });
  for (let i = 1; i < ins.length; i++) {
    const a = ins[i - 1]!;
    const b = ins[i]!;
    if ((compareBytes(a.txID, b.txID) || a.outputIndex - b.outputIndex) >= 0) fail(tx, `${what} are not sorted and unique`, what);
  }
}

// The result every builder returns, and the size guard shared by X, P and C.
import { unsignedTxLength } from '../codec/codec.js';
import { authorizationOf } from '../codec/pvm-rules.js';
import type { TransferableInput, UnsignedTx, Utxo } from '../codec/types.js';
import { TxTooLargeError } from '../errors.js';
import { signedSize } from './context.js';

export interface BuiltTx<T extends UnsignedTx = UnsignedTx> {
  tx: T;
  /** Every UTXO the tx consumes (inputs, imported inputs, operation UTXOs). */
  spent: Utxo[];
  /** nAVAX this tx burns. */
  fee: bigint;
}

export function built<T extends UnsignedTx>(tx: T, spent: Utxo[], fee: bigint, maxSize: number): BuiltTx<T> {
  const size = expectedSignedSize(tx);
  if (size > maxSize) {
    throw new TxTooLargeError(
      `this transaction would be ${size} bytes signed; the chain accepts at most ${maxSize}. Send a smaller amount, or split it`,
    );
  }
  return { tx, spent, fee };
}

/** Signatures each credential will hold: one per sigIndex, read off the tx itself. */
function signatureCounts(tx: UnsignedTx): number[] {
  const count = (i: TransferableInput): number => (i.input.kind === 'StakeableLockIn' ? i.input.input : i.input).sigIndices.length;
  if (tx.vm === 'evm') return tx.kind === 'ExportTx' ? tx.ins.map(() => 1) : tx.importedInputs.map(count);
  const counts = tx.inputs.map(count);
  if (tx.kind === 'ImportTx') counts.push(...tx.importedInputs.map(count));
  if (tx.kind === 'OperationTx') for (const op of tx.operations) counts.push(('mintInput' in op.op ? op.op.mintInput : op.op.input).length);
  // A P-Chain authorization (a subnet's, a validator's) signs in one more credential, after the inputs'.
  const auth = tx.vm === 'pvm' ? authorizationOf(tx) : undefined;
  if (auth) counts.push(auth.sigIndices.length);
  return counts;
}

/** Size once signed: the tx itself says how many signatures each credential holds. */
export function expectedSignedSize(tx: UnsignedTx): number {
  return signedSize(unsignedTxLength(tx), signatureCounts(tx));
}

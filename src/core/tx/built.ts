// The result every builder returns, and the size guard shared by X, P and C.
import { encodeUnsignedTx } from '../codec/codec.js';
import type { UnsignedTx, Utxo } from '../codec/types.js';
import { TxTooLargeError } from '../errors.js';
import { signedSize } from './context.js';
import { requiredCredentials, utxoLookupOf } from './sign.js';

export interface BuiltTx<T extends UnsignedTx = UnsignedTx> {
  tx: T;
  /** Every UTXO the tx consumes (inputs, imported inputs, operation UTXOs). */
  spent: Utxo[];
  /** nAVAX this tx burns. */
  fee: bigint;
}

export function built<T extends UnsignedTx>(tx: T, spent: Utxo[], fee: bigint, maxSize: number): BuiltTx<T> {
  const size = expectedSignedSize(tx, spent);
  if (size > maxSize) {
    throw new TxTooLargeError(
      `this transaction would be ${size} bytes signed; the chain accepts at most ${maxSize}. Send a smaller amount, or split it`,
    );
  }
  return { tx, spent, fee };
}

export function expectedSignedSize(tx: UnsignedTx, spent: Utxo[]): number {
  const creds = requiredCredentials(tx, utxoLookupOf(spent));
  return signedSize(encodeUnsignedTx(tx).length, creds.map((c) => c.signers.length));
}

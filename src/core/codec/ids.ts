// Transaction, UTXO and input IDs (wire-format.md §4.4, §4.5).
import { sha256 } from '@noble/hashes/sha2.js';
import type { Bytes } from '../bytes.js';
import { cb58Encode, parseId } from '../encoding.js';
import { FormatError } from '../errors.js';
import type { UtxoRef } from './types.js';

/** tx ID = sha256 of the signed bytes. */
export function txIdBytes(signedBytes: Bytes): Bytes {
  return sha256(signedBytes);
}

export function txId(signedBytes: Bytes): string {
  return cb58Encode(sha256(signedBytes));
}

/** "<txID cb58>:<outputIndex>": how the wallet names a UTXO. */
export function utxoId(ref: UtxoRef): string {
  return `${cb58Encode(ref.txID)}:${ref.outputIndex}`;
}

export function parseUtxoId(text: string): UtxoRef {
  const colon = text.lastIndexOf(':');
  const index = Number(text.slice(colon + 1));
  if (colon <= 0 || !/^\d+$/.test(text.slice(colon + 1)) || index > 0xffffffff) {
    throw new FormatError('a UTXO ID looks like <txID>:<outputIndex>');
  }
  return { txID: parseId(text.slice(0, colon)), outputIndex: index };
}

/** The node's database key for a UTXO: sha256(u64 outputIndex ‖ txID). Used by pagination. */
export function inputId(ref: UtxoRef): Bytes {
  const buf = new Uint8Array(8 + 32);
  new DataView(buf.buffer).setBigUint64(0, BigInt(ref.outputIndex));
  buf.set(ref.txID, 8);
  return sha256(buf);
}

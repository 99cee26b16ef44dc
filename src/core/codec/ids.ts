// Transaction, UTXO and input IDs (docs/protocol.md §IDs).
import { sha256 } from '@noble/hashes/sha2.js';
import type { Bytes } from '../bytes.js';
import { encodeSignedTx } from './codec.js';
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

function idBytes(id: Bytes | string): Bytes {
  return typeof id === 'string' ? parseId(id) : id;
}

/**
 * The ID of the RewardValidatorTx that ends a staker (validator or delegator) tx: the block builder
 * issues it without credentials, so it is sha256 of 0x0000 ‖ u32 20 ‖ stakerTxID ‖ u32 0. Its
 * status (Committed: rewarded; Aborted: not) says whether the staking was rewarded.
 */
export function rewardValidatorTxId(stakerTxId: Bytes | string): string {
  return txId(encodeSignedTx({ unsigned: { vm: 'pvm', kind: 'RewardValidatorTx', txID: idBytes(stakerTxId) }, credentials: [] }));
}

/**
 * The ID of the RewardAutoRenewedValidatorTx that closes one cycle of an auto-renewed validator
 * (sha256 of 0x0000 ‖ u32 42 ‖ validatorTxID ‖ u64 cycleEnd ‖ u32 0). The cycle's reward UTXOs
 * carry this ID, from output index 0.
 */
export function rewardAutoRenewedValidatorTxId(validatorTxId: Bytes | string, cycleEnd: bigint): string {
  return txId(
    encodeSignedTx({ unsigned: { vm: 'pvm', kind: 'RewardAutoRenewedValidatorTx', txID: idBytes(validatorTxId), timestamp: cycleEnd }, credentials: [] }),
  );
}

// The common UTXO, read straight from its bytes: a TransferOutput (what every balance is made of),
// IDs and addresses as views into the bytes (no copy), the ones many UTXOs share (asset IDs,
// owner addresses) as one array for all of them (IdTable). Anything else, or anything not
// well-formed, is left to the strict reader (codec.ts decodeUtxo), which decodes it or says what
// is wrong; so the two accept exactly the same bytes and give equal values.
import { equalBytes, type Bytes } from '../bytes.js';
import type { TransferOutput, Utxo } from './types.js';

const TRANSFER_OUTPUT = 7;
/** version 2, txID 32, outputIndex 4, assetID 32, type ID 4, amount 8, locktime 8, threshold 4, count 4. */
const ADDRESSES_AT = 98;
const ADDRESS_LENGTH = 20;

/**
 * One array per distinct short byte string seen, so equal asset IDs and addresses of many UTXOs
 * share their memory. Keyed by the first 4 bytes (hashes, so evenly spread); a bucket holds a few
 * values at most, and values past that are simply not shared, so crafted look-alikes cost nothing.
 */
export class IdTable {
  readonly #buckets = new Map<number, Bytes[]>();

  /** The shared array equal to `bytes`, or `bytes` itself (now shared) when it is new. */
  intern(bytes: Bytes): Bytes {
    const head = u32(bytes, 0);
    const bucket = this.#buckets.get(head);
    if (!bucket) {
      this.#buckets.set(head, [bytes]);
      return bytes;
    }
    for (const known of bucket) if (equalBytes(known, bytes)) return known;
    if (bucket.length < 4) bucket.push(bytes);
    return bytes;
  }
}

function u32(b: Bytes, at: number): number {
  return ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;
}

function u64(b: Bytes, at: number): bigint {
  const hi = u32(b, at);
  const lo = u32(b, at + 4);
  if (hi === 0 && lo === 0) return 0n;
  // Below 2^53 a Number holds it exactly: one BigInt instead of three.
  return hi < 0x200000 ? BigInt(hi * 0x1_0000_0000 + lo) : (BigInt(hi) << 32n) | BigInt(lo);
}

/**
 * The UTXO in `bytes` when it is a well-formed TransferOutput UTXO (on every VM its type ID is 7),
 * else undefined. `ids` shares the asset ID and the addresses with other UTXOs read with it.
 */
export function decodeTransferUtxo(bytes: Bytes, ids?: IdTable): Utxo | undefined {
  if (bytes.length < ADDRESSES_AT || bytes[0] !== 0 || bytes[1] !== 0 || u32(bytes, 70) !== TRANSFER_OUTPUT) return undefined;
  const count = u32(bytes, 94);
  if (bytes.length !== ADDRESSES_AT + count * ADDRESS_LENGTH) return undefined;
  const addresses: Bytes[] = new Array<Bytes>(count);
  for (let i = 0, at = ADDRESSES_AT; i < count; i++, at += ADDRESS_LENGTH) {
    const address = bytes.subarray(at, at + ADDRESS_LENGTH);
    addresses[i] = ids ? ids.intern(address) : address;
  }
  const assetID = bytes.subarray(38, 70);
  const output: TransferOutput = {
    kind: 'TransferOutput',
    amount: u64(bytes, 74),
    owners: { locktime: u64(bytes, 82), threshold: u32(bytes, 90), addresses },
  };
  return { txID: bytes.subarray(2, 34), outputIndex: u32(bytes, 34), assetID: ids ? ids.intern(assetID) : assetID, output };
}

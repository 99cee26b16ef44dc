// The common UTXO, read straight from its bytes: a TransferOutput (what every balance is made of),
// IDs and addresses as views into the bytes (no copy), the ones many UTXOs share (asset IDs,
// owner addresses) as one array for all of them (IdTable). Anything else, or anything not
// well-formed, is left to the strict reader (codec.ts decodeUtxo), which decodes it or says what
// is wrong; so the two accept exactly the same bytes and give equal values.
import type { Bytes } from '../bytes.js';
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

  /**
   * The shared array equal to `length` bytes of `source` at `at`; a view of them (now shared) when
   * they are new. Compared in place: a value seen before costs no allocation.
   */
  intern(source: Bytes, at: number, length: number): Bytes {
    const head = u32(source, at);
    let bucket = this.#buckets.get(head);
    if (bucket) {
      for (const known of bucket) if (known.length === length && sameAt(known, source, at)) return known;
    } else {
      this.#buckets.set(head, (bucket = []));
    }
    const view = viewOf(source, at, length);
    if (bucket.length < 4) bucket.push(view);
    return view;
  }
}

function sameAt(known: Bytes, source: Bytes, at: number): boolean {
  for (let i = 0; i < known.length; i++) if (known[i] !== source[at + i]) return false;
  return true;
}

/** A view of `length` bytes of `b` at `at` (the constructor: cheaper than subarray). */
function viewOf(b: Bytes, at: number, length: number): Bytes {
  return new Uint8Array(b.buffer, b.byteOffset + at, length);
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

/** `length` bytes of `bytes` at `at`: the array shared through `ids`, else a view (no closure per UTXO). */
function sharedOf(ids: IdTable | undefined, bytes: Bytes, at: number, length: number): Bytes {
  return ids ? ids.intern(bytes, at, length) : viewOf(bytes, at, length);
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
  for (let i = 0, at = ADDRESSES_AT; i < count; i++, at += ADDRESS_LENGTH) addresses[i] = sharedOf(ids, bytes, at, ADDRESS_LENGTH);
  const output: TransferOutput = {
    kind: 'TransferOutput',
    amount: u64(bytes, 74),
    owners: { locktime: u64(bytes, 82), threshold: u32(bytes, 90), addresses },
  };
  return { txID: viewOf(bytes, 2, 32), outputIndex: u32(bytes, 34), assetID: sharedOf(ids, bytes, 38, 32), output };
}

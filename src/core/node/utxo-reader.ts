// Reading the UTXO strings of getUTXOs pages: hex with a 4-byte sha256 checksum (docs/protocol.md
// §Encodings), checked, then decoded. Built for many UTXOs at once: the bytes of all of them are
// written into a few large buffers (each UTXO's bytes and digest a view into one), the sha256
// state is reused, and asset IDs and addresses many UTXOs share are kept once (IdTable).
import { sha256 } from '@noble/hashes/sha2.js';
import { type Bytes, hexInto } from '../bytes.js';
import { decodeUtxo, IdTable } from '../codec/index.js';
import type { Utxo, Vm } from '../codec/types.js';
import { fromApiHexWithDigest } from '../encoding.js';
import { FormatError } from '../errors.js';

/** Room for about 500 UTXOs per buffer; a bigger UTXO gets a buffer of its own size. */
const SLAB_BYTES = 96 * 1024;
const CHECKSUM_LENGTH = 4;
const DIGEST_LENGTH = 32;

export interface ReadUtxo {
  utxo: Utxo;
  /** The UTXO's codec bytes (checksum stripped). */
  bytes: Bytes;
  /** sha256 of `bytes`: its last 4 bytes were the checksum. */
  digest: Bytes;
}

export class UtxoReader {
  readonly #vm: Vm;
  readonly #ids = new IdTable();
  readonly #fresh = sha256.create();
  readonly #hasher = sha256.create();
  #slab = new Uint8Array(0);
  #used = 0;

  constructor(vm: Vm) {
    this.#vm = vm;
  }

  /**
   * One UTXO string as the node sends it. FormatError for bad hex or a wrong checksum (with
   * fromApiHex's words), CodecError when the bytes are not a UTXO of this VM.
   */
  read(text: string): ReadUtxo {
    const length = (text.length - 2) / 2;
    if (!text.startsWith('0x') || !Number.isInteger(length) || length < CHECKSUM_LENGTH) return this.#refuse(text);
    const size = length + DIGEST_LENGTH;
    if (this.#used + size > this.#slab.length) {
      this.#slab = new Uint8Array(Math.max(SLAB_BYTES, size));
      this.#used = 0;
    }
    const at = this.#used;
    const slab = this.#slab;
    if (hexInto(text, 2, slab, at, length) >= 0) return this.#refuse(text);
    const end = at + length - CHECKSUM_LENGTH;
    const bytes = slab.subarray(at, end);
    const digest = slab.subarray(at + length, at + size);
    this.#fresh._cloneInto(this.#hasher).update(bytes).digestInto(digest);
    for (let i = 0; i < CHECKSUM_LENGTH; i++) {
      if (digest[DIGEST_LENGTH - CHECKSUM_LENGTH + i] !== slab[end + i]) throw new FormatError('hex checksum mismatch');
    }
    const utxo = decodeUtxo(bytes, this.#vm, this.#ids);
    this.#used += size;
    return { utxo, bytes, digest };
  }

  /** Malformed text: fromApiHex says what is wrong (it always throws here). */
  #refuse(text: string): never {
    fromApiHexWithDigest(text);
    throw new FormatError('expected 0x-prefixed hex with an even length');
  }
}

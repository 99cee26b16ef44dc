// Big-endian byte writer and strict reader for the node's linear codec.
import { CodecError, ValidationError } from '../errors.js';
import type { Bytes } from '../bytes.js';

/** The largest u64: every amount, and what the node adds up of one asset in one tx. */
export const MAX_U64 = (1n << 64n) - 1n;
/** The codec refuses slices longer than this (Go's max int32). */
export const MAX_SLICE_LENGTH = 0x7fffffff;

// The value checks every writer makes, the counting one included: a bad value is refused when a tx
// is built (its size counted), not only when it is signed.
function checkUint(v: number, max: number, what: string): void {
  if (!Number.isInteger(v) || v < 0 || v > max) throw new ValidationError(`not a ${what}: ${v}`);
}

function checkU64(v: bigint): void {
  if (typeof v !== 'bigint' || v < 0n || v > MAX_U64) throw new ValidationError(`not a u64: ${String(v)}`);
}

function checkFixed(b: Bytes, length: number, what: string): void {
  if (!(b instanceof Uint8Array) || b.length !== length) throw new ValidationError(`${what} must be ${length} bytes`, what);
}

/** A codec string's UTF-8 bytes (at most 65535). */
function utf8Of(s: string): Bytes {
  // A lone surrogate would silently become U+FFFD: refuse instead of signing other text.
  if (!s.isWellFormed()) throw new ValidationError('string is not well-formed Unicode');
  const b = new TextEncoder().encode(s);
  if (b.length > 0xffff) throw new ValidationError('string longer than 65535 bytes');
  return b;
}

export class ByteWriter {
  private buf: Uint8Array;
  private view: DataView;
  private pos = 0;

  constructor(capacity = 512) {
    this.buf = new Uint8Array(Number.isSafeInteger(capacity) && capacity > 0 ? capacity : 512);
    this.view = new DataView(this.buf.buffer);
  }

  private ensure(extra: number): void {
    const needed = this.pos + extra;
    if (needed <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < needed) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  u8(v: number): void {
    checkUint(v, 0xff, 'u8');
    this.ensure(1);
    this.buf[this.pos++] = v;
  }

  u16(v: number): void {
    checkUint(v, 0xffff, 'u16');
    this.ensure(2);
    this.view.setUint16(this.pos, v);
    this.pos += 2;
  }

  u32(v: number): void {
    checkUint(v, 0xffffffff, 'u32');
    this.ensure(4);
    this.view.setUint32(this.pos, v);
    this.pos += 4;
  }

  u64(v: bigint): void {
    checkU64(v);
    this.ensure(8);
    this.view.setBigUint64(this.pos, v);
    this.pos += 8;
  }

  /** Raw bytes of a fixed-size array (IDs, addresses, signatures): no length prefix. */
  fixed(b: Bytes, length: number, what: string): void {
    checkFixed(b, length, what);
    this.raw(b);
  }

  raw(b: Bytes): void {
    this.ensure(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }

  /** A []byte: u32 length, then the bytes. */
  varBytes(b: Bytes): void {
    this.u32(b.length);
    this.raw(b);
  }

  /** A string: u16 byte length, then UTF-8. */
  str(s: string): void {
    const b = utf8Of(s);
    this.u16(b.length);
    this.raw(b);
  }

  length(): number {
    return this.pos;
  }

  finish(): Bytes {
    return this.buf.slice(0, this.pos);
  }
}

/**
 * A writer that only counts: the encoders run unchanged to learn how long their bytes would be
 * (the size guard and fees before signing), checking every value as ByteWriter does, copying
 * nothing. It overrides every method ByteWriter has (a unit test holds it to that).
 */
export class ByteCounter extends ByteWriter {
  private count = 0;

  constructor() {
    super(1);
  }

  override u8(v: number): void {
    checkUint(v, 0xff, 'u8');
    this.count += 1;
  }

  override u16(v: number): void {
    checkUint(v, 0xffff, 'u16');
    this.count += 2;
  }

  override u32(v: number): void {
    checkUint(v, 0xffffffff, 'u32');
    this.count += 4;
  }

  override u64(v: bigint): void {
    checkU64(v);
    this.count += 8;
  }

  override fixed(b: Bytes, length: number, what: string): void {
    checkFixed(b, length, what);
    this.count += length;
  }

  override raw(b: Bytes): void {
    this.count += b.length;
  }

  override varBytes(b: Bytes): void {
    this.u32(b.length);
    this.count += b.length;
  }

  override str(s: string): void {
    this.count += 2 + utf8Of(s).length;
  }

  override length(): number {
    return this.count;
  }

  override finish(): Bytes {
    throw new Error('a ByteCounter writes no bytes');
  }
}

export class ByteReader {
  private pos = 0;
  private readonly view: DataView;

  constructor(private readonly bytes: Bytes) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get offset(): number {
    return this.pos;
  }

  remaining(): number {
    return this.bytes.length - this.pos;
  }

  fail(message: string, at = this.pos): never {
    throw new CodecError(message, at);
  }

  private need(n: number, what: string): void {
    if (this.remaining() < n) this.fail(`unexpected end of data reading ${what}: need ${n} bytes, ${this.remaining()} left`);
  }

  u8(what = 'u8'): number {
    this.need(1, what);
    return this.bytes[this.pos++]!;
  }

  u16(what = 'u16'): number {
    this.need(2, what);
    const v = this.view.getUint16(this.pos);
    this.pos += 2;
    return v;
  }

  u32(what = 'u32'): number {
    this.need(4, what);
    const v = this.view.getUint32(this.pos);
    this.pos += 4;
    return v;
  }

  u64(what = 'u64'): bigint {
    this.need(8, what);
    const v = this.view.getBigUint64(this.pos);
    this.pos += 8;
    return v;
  }

  fixed(length: number, what: string): Bytes {
    this.need(length, what);
    const out = this.bytes.slice(this.pos, this.pos + length);
    this.pos += length;
    return out;
  }

  /**
   * Reads a slice count and checks, before anything is allocated, that `count` elements of at
   * least `minElementSize` bytes each can fit in what is left.
   */
  count(minElementSize: number, what: string): number {
    const at = this.pos;
    const n = this.u32(`${what} count`);
    if (n > MAX_SLICE_LENGTH) this.fail(`${what} count ${n} exceeds the codec's maximum`, at);
    if (n * minElementSize > this.remaining()) {
      this.fail(`${what} count ${n} does not fit in the ${this.remaining()} bytes left`, at);
    }
    return n;
  }

  varBytes(what: string): Bytes {
    const n = this.count(1, what);
    return this.fixed(n, what);
  }

  str(what: string): string {
    const at = this.pos;
    const n = this.u16(`${what} length`);
    const b = this.fixed(n, what);
    try {
      return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(b);
    } catch {
      return this.fail(`${what} is not valid UTF-8`, at);
    }
  }

  /** Strict unmarshalling: nothing may follow the value. */
  end(): void {
    if (this.pos !== this.bytes.length) this.fail(`${this.bytes.length - this.pos} trailing bytes`);
  }
}

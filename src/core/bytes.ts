// Small byte helpers shared by every core module. Pure, no dependencies.

export type Bytes = Uint8Array;

const HEX_CHARS = '0123456789abcdef';
/** Two lowercase hex digits per byte value: one string join per byte instead of two. */
const HEX_PAIRS = Array.from({ length: 256 }, (_, b) => HEX_CHARS[b >> 4]! + HEX_CHARS[b & 15]!);
/** Digit value by char code; 255 for anything that is not a hex digit. */
const HEX_VALUES = new Uint8Array(256).fill(255);
for (let i = 0; i < 16; i++) {
  HEX_VALUES[HEX_CHARS.charCodeAt(i)] = i;
  HEX_VALUES[HEX_CHARS.toUpperCase().charCodeAt(i)] = i;
}

/** Lowercase hex without a prefix. */
export function toHex(bytes: Bytes): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += HEX_PAIRS[bytes[i]!]!;
  return out;
}

/**
 * A Map or Set key for short byte strings (IDs, addresses, signatures): one char per byte, about
 * four times cheaper than toHex. Not for display, and only for values of a few hundred bytes.
 */
export function byteKey(bytes: Bytes): string {
  return String.fromCharCode.apply(null, bytes as unknown as number[]);
}

/** Parses hex with or without a 0x prefix; throws a plain Error on malformed input. */
export function fromHex(hex: string): Bytes {
  const start = hex.startsWith('0x') || hex.startsWith('0X') ? 2 : 0;
  if ((hex.length - start) % 2 !== 0) throw new Error('hex string has an odd length');
  const out = new Uint8Array((hex.length - start) / 2);
  for (let i = 0, j = start; i < out.length; i++, j += 2) {
    // Char codes above 255 read past the table (undefined) and fail the same check.
    const hi = HEX_VALUES[hex.charCodeAt(j)] ?? 255;
    const lo = HEX_VALUES[hex.charCodeAt(j + 1)] ?? 255;
    if (hi === 255 || lo === 255) throw new Error(`invalid hex character at ${j - start}`);
    out[i] = (hi << 4) | lo;
  }
  return out;
}

export function concatBytes(...parts: Bytes[]): Bytes {
  let total = 0;
  for (const p of parts) total += p.length;
  const out = new Uint8Array(total);
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

/** Lexicographic byte comparison (shorter prefix first), as Go's bytes.Compare. */
export function compareBytes(a: Bytes, b: Bytes): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = a[i]! - b[i]!;
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

export function equalBytes(a: Bytes, b: Bytes): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export const utf8 = {
  encode: (s: string): Bytes => new TextEncoder().encode(s),
  /** Strict: invalid UTF-8 throws instead of turning into replacement characters. */
  decode: (b: Bytes): string => new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(b),
};

/**
 * Characters that would hide what is signed: control, format (zero-width, direction, tag),
 * private-use and unassigned ones, line and paragraph separators, whatever Unicode says to render
 * as nothing (fillers, variation selectors) and the blank braille pattern. Text holding any is
 * shown as its bytes, in hex.
 */
export const INVISIBLE_TEXT = /[\p{C}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\u2800]/u;

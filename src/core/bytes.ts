// Small byte helpers shared by every core module. Pure, no dependencies.

export type Bytes = Uint8Array;

const HEX_CHARS = '0123456789abcdef';
/** Two lowercase hex digits per byte value: one string join per byte instead of two. */
const HEX_PAIRS = Array.from({ length: 256 }, (_, b) => HEX_CHARS[b >> 4]! + HEX_CHARS[b & 15]!);
/**
 * Byte value of two hex digits by their char codes (each below 128) as `c1 << 7 | c2`; -1 where
 * either is not a hex digit. One lookup per byte.
 */
const HEX_PAIR_VALUES = new Int16Array(1 << 14).fill(-1);
{
  const digits = [...HEX_CHARS].map((c, v) => [c, v] as const);
  const both = [...digits, ...digits.filter(([c]) => c >= 'a').map(([c, v]) => [c.toUpperCase(), v] as const)];
  for (const [c1, hi] of both) for (const [c2, lo] of both) HEX_PAIR_VALUES[(c1.charCodeAt(0) << 7) | c2.charCodeAt(0)] = (hi << 4) | lo;
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
  const bad = hexInto(hex, start, out, 0, out.length);
  if (bad >= 0) throw new Error(`invalid hex character at ${bad - start}`);
  return out;
}

/**
 * Writes the `count` bytes that the hex digits of `text` from index `from` spell into `out` at
 * `at`. Returns -1, or the index in `text` of the first pair holding a non-hex character (the
 * bytes before it are written).
 */
export function hexInto(text: string, from: number, out: Bytes, at: number, count: number): number {
  // The text's characters as bytes first (native, and ASCII text is one byte each), then one
  // table lookup per pair of bytes: about three times faster than reading characters.
  // Usually the whole text fits: encoded as it is, read from `from` on (no substring to make).
  const whole = text.length === from + 2 * count && text.length <= HEX_SCRATCH.length;
  for (let done = 0; done < count; ) {
    const n = whole ? count : Math.min(count - done, HEX_SCRATCH.length >> 1);
    const start = from + 2 * done;
    const skip = whole ? from : 0;
    const { read, written } = TEXT_ENCODER.encodeInto(whole ? text : text.substring(start, start + 2 * n), HEX_SCRATCH);
    // A character beyond ASCII (or the text ending early): find and name it the slow way.
    if (read !== skip + 2 * n || written !== skip + 2 * n) return hexIntoByChars(text, start, out, at + done, count - done);
    for (let i = 0, j = skip; i < n; i++, j += 2) {
      const v = HEX_PAIR_VALUES[(HEX_SCRATCH[j]! << 7) | HEX_SCRATCH[j + 1]!]!;
      if (v < 0) return start + j - skip;
      out[at + done + i] = v;
    }
    done += n;
  }
  return -1;
}

const TEXT_ENCODER = new TextEncoder();
const HEX_SCRATCH = new Uint8Array(4096);

function hexIntoByChars(text: string, from: number, out: Bytes, at: number, count: number): number {
  for (let i = 0, j = from; i < count; i++, j += 2) {
    const c1 = text.charCodeAt(j);
    const c2 = text.charCodeAt(j + 1);
    // Char codes of 128 and above (and NaN past the end) fall outside the table's index.
    const v = (c1 | c2) < 128 ? HEX_PAIR_VALUES[(c1 << 7) | c2]! : -1;
    if (v < 0) return j;
    out[at + i] = v;
  }
  return -1;
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
  // Decoded UTXOs share their asset IDs and addresses: often the very same array.
  if (a === b) return true;
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
/** The same characters, every one of them (for replace). */
export const EVERY_INVISIBLE = new RegExp(INVISIBLE_TEXT.source, 'gu');

/**
 * `text` with each of those characters (but line breaks, with `keepLineBreaks`) written as its
 * code: \u0000 up to U+FFFF, \u{…} above, so a tag character never reads as a shorter code and a digit.
 */
export function invisibleAsCodes(text: string, keepLineBreaks = false): string {
  return text.replace(EVERY_INVISIBLE, (c) => {
    if (keepLineBreaks && c === '\n') return c;
    const cp = c.codePointAt(0)!;
    return cp > 0xffff ? `\\u{${cp.toString(16)}}` : `\\u${cp.toString(16).padStart(4, '0')}`;
  });
}

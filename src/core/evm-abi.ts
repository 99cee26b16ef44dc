// The few Solidity ABI shapes the wallet speaks to token contracts: calls whose arguments are
// addresses, uint256, bool and bytes, and answers that are words, strings or bytes32 (docs/tokens.md).
// micro-eth-signer's general ABI coder is what the tests check this against; the extension keeps to
// this one because that module brings its contract registries along (about 11 KB minified).
import { keccak_256 } from '@noble/hashes/sha3.js';
import { type Bytes, concatBytes, fromHex, toHex } from './bytes.js';
import { formatEvmAddress, parseEvmAddress } from './evm-address.js';
import { FormatError } from './errors.js';

const WORD = 32;
const U256_MAX = (1n << 256n) - 1n;

/** keccak-256 of the text, 0x hex. */
export function keccakHex(data: Bytes | string): string {
  return `0x${toHex(keccak_256(typeof data === 'string' ? new TextEncoder().encode(data) : data))}`;
}

/** A function's 4-byte selector from its signature ("transfer(address,uint256)"), 0x hex. */
export function selectorOf(signature: string): string {
  return keccakHex(signature).slice(0, 10);
}

/** An event's topic 0 from its signature. */
export const topicOf = (signature: string): string => keccakHex(signature);

/** An argument: an address (0x text), a uint256, a bool, or bytes (dynamic). */
export type AbiArg = string | bigint | boolean | Bytes;

function word(value: bigint): Bytes {
  if (value < 0n || value > U256_MAX) throw new FormatError('an ABI word holds 0 … 2^256 - 1');
  return fromHex(value.toString(16).padStart(64, '0'));
}

/** An address as a 32-byte topic (left-padded), for eth_getLogs filters. */
export function addressTopic(address: string): string {
  return `0x${toHex(parseEvmAddress(address)).padStart(64, '0')}`;
}

/** Call data: the selector of `signature`, then each argument (bytes at the end, by offset). */
export function encodeCall(signature: string, ...args: AbiArg[]): string {
  const head: Bytes[] = [];
  const tail: Bytes[] = [];
  let tailAt = BigInt(args.length * WORD);
  for (const a of args) {
    if (typeof a === 'string') head.push(word(BigInt(`0x${toHex(parseEvmAddress(a))}`)));
    else if (typeof a === 'bigint') head.push(word(a));
    else if (typeof a === 'boolean') head.push(word(a ? 1n : 0n));
    else {
      head.push(word(tailAt));
      const padded = new Uint8Array(Math.ceil(a.length / WORD) * WORD);
      padded.set(a);
      tail.push(word(BigInt(a.length)), padded);
      tailAt += BigInt(WORD + padded.length);
    }
  }
  return `${selectorOf(signature)}${toHex(concatBytes(...head, ...tail))}`;
}

/** Reads ABI words out of call data (after the selector) or a call's answer; every read is bounds-checked. */
export class AbiReader {
  readonly bytes: Bytes;

  constructor(data: Bytes | string, skipSelector = false) {
    const all = typeof data === 'string' ? fromHex(data) : data;
    this.bytes = skipSelector ? all.subarray(4) : all;
  }

  get words(): number {
    return Math.floor(this.bytes.length / WORD);
  }

  uint(i: number): bigint {
    if (i < 0 || (i + 1) * WORD > this.bytes.length) throw new FormatError(`the answer has no word ${i}`);
    return BigInt(`0x${toHex(this.bytes.subarray(i * WORD, (i + 1) * WORD))}`);
  }

  /** An address word: its top 12 bytes must be zero (a dirty word is not an address). */
  address(i: number): string {
    const v = this.uint(i);
    if (v >> 160n !== 0n) throw new FormatError(`word ${i} is not an address`);
    return formatEvmAddress(fromHex(v.toString(16).padStart(40, '0')));
  }

  bool(i: number): boolean {
    const v = this.uint(i);
    if (v > 1n) throw new FormatError(`word ${i} is not a bool`);
    return v === 1n;
  }

  /** Dynamic bytes whose offset is word `i`. */
  dynamicBytes(i: number): Bytes {
    const offset = this.uint(i);
    if (offset % BigInt(WORD) !== 0n || offset + BigInt(WORD) > BigInt(this.bytes.length)) throw new FormatError('a bytes offset points outside the data');
    const at = Number(offset);
    const length = this.uint(at / WORD);
    if (length > BigInt(this.bytes.length - at - WORD)) throw new FormatError('a bytes length runs past the data');
    return this.bytes.subarray(at + WORD, at + WORD + Number(length));
  }
}

/**
 * A token's name or symbol answer: an ABI string, or a bytes32 (older tokens) up to its first zero
 * byte. Text that is not UTF-8 is refused; what it says is still untrusted (docs/tokens.md).
 */
export function decodeTextResult(data: string, maxBytes = 1024): string {
  const r = new AbiReader(data);
  let raw: Bytes;
  if (r.bytes.length === WORD) {
    const end = r.bytes.indexOf(0);
    raw = r.bytes.subarray(0, end < 0 ? WORD : end);
  } else raw = r.dynamicBytes(0);
  if (raw.length > maxBytes) throw new FormatError(`the text is longer than ${maxBytes} bytes`);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    throw new FormatError('the text is not UTF-8');
  }
}

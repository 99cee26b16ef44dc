// EVM (0x) addresses as text: EIP-55 checksummed formatting and strict parsing. Only keccak-256 is
// needed, so extension pages can check addresses without loading any key or curve code.
import { keccak_256 } from '@noble/hashes/sha3.js';
import { type Bytes, fromHex, toHex } from './bytes.js';
import { FormatError } from './errors.js';

export const EVM_ADDRESS_LENGTH = 20;

/** EIP-55: a hex letter is upper case when the matching nibble of keccak(lowercase hex) is ≥ 8. */
function checksummed(lowerHex: string): string {
  const hash = keccak_256(new TextEncoder().encode(lowerHex));
  let out = '0x';
  for (let i = 0; i < lowerHex.length; i++) {
    const nibble = i % 2 === 0 ? hash[i >> 1]! >> 4 : hash[i >> 1]! & 15;
    out += nibble >= 8 ? lowerHex[i]!.toUpperCase() : lowerHex[i]!;
  }
  return out;
}

export function formatEvmAddress(address: Bytes): string {
  if (address.length !== EVM_ADDRESS_LENGTH) throw new FormatError(`an EVM address holds 20 bytes, this one ${address.length}`);
  return checksummed(toHex(address));
}

/**
 * Parses `0x` + 40 hex digits. All-lower or all-upper case carries no checksum and is accepted;
 * mixed case is an EIP-55 checksum and must verify (it catches typos).
 */
export function parseEvmAddress(text: string): Bytes {
  const match = /^0x([0-9a-fA-F]{40})$/.exec(text.trim());
  if (!match) throw new FormatError('an EVM address is 0x followed by 40 hex digits');
  const body = match[1]!;
  const lower = body.toLowerCase();
  if (body !== lower && body !== body.toUpperCase() && checksummed(lower) !== '0x' + body) {
    throw new FormatError('the address checksum (upper/lower case) does not match: check for a typo');
  }
  return fromHex(lower);
}

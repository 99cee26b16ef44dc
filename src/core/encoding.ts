// String forms used by the node API: CB58, bech32 chain addresses, checksummed API hex,
// PrivateKey-… and NodeID-… (docs/protocol.md §Encodings). Every parser throws FormatError on bad
// input.
import { sha256 } from '@noble/hashes/sha2.js';
import bs58 from 'bs58';
import { bech32 } from 'bech32';
import { type Bytes, concatBytes, equalBytes, fromHex, toHex } from './bytes.js';
import { FormatError } from './errors.js';

const CHECKSUM_LENGTH = 4;

/** The last 4 bytes of sha256: the checksum used by CB58 and the API's `hex` encoding. */
function checksum(payload: Bytes): Bytes {
  return sha256(payload).subarray(32 - CHECKSUM_LENGTH);
}

export function cb58Encode(payload: Bytes): string {
  return bs58.encode(concatBytes(payload, checksum(payload)));
}

export function cb58Decode(text: string): Bytes {
  let raw: Bytes;
  try {
    raw = bs58.decode(text);
  } catch {
    throw new FormatError(`not valid base58: ${JSON.stringify(text.slice(0, 64))}`);
  }
  if (raw.length < CHECKSUM_LENGTH) throw new FormatError('CB58 string too short for its checksum');
  const payload = raw.subarray(0, raw.length - CHECKSUM_LENGTH);
  if (!equalBytes(checksum(payload), raw.subarray(raw.length - CHECKSUM_LENGTH))) {
    throw new FormatError('CB58 checksum mismatch');
  }
  return payload.slice();
}

/** A CB58 ID of a fixed byte length (32 for tx/chain/asset IDs, 20 for short IDs). */
export function parseId(text: string, length = 32): Bytes {
  const bytes = cb58Decode(text);
  if (bytes.length !== length) throw new FormatError(`expected a ${length}-byte ID, got ${bytes.length} bytes`);
  return bytes;
}

/** `"hex"` encoding of the node API: 0x + hex(bytes ‖ 4-byte sha256 checksum). */
export function toApiHex(bytes: Bytes): string {
  return '0x' + toHex(concatBytes(bytes, checksum(bytes)));
}

/** Parses `"hex"` API encoding and verifies its checksum. */
export function fromApiHex(text: string): Bytes {
  return fromApiHexWithDigest(text).bytes;
}

/** fromApiHex, with the payload's sha256 (made for the checksum anyway: callers that key by it reuse it). */
export function fromApiHexWithDigest(text: string): { bytes: Bytes; digest: Bytes } {
  const raw = parseHexnc(text);
  if (raw.length < CHECKSUM_LENGTH) throw new FormatError('hex string too short for its checksum');
  const payload = raw.subarray(0, raw.length - CHECKSUM_LENGTH);
  const digest = sha256(payload);
  if (!equalBytes(digest.subarray(32 - CHECKSUM_LENGTH), raw.subarray(raw.length - CHECKSUM_LENGTH))) {
    throw new FormatError('hex checksum mismatch');
  }
  // `raw` is fresh from parseHexnc and shared with nobody: a view drops the checksum without a copy.
  return { bytes: payload, digest };
}

/** `"hexnc"` encoding: plain 0x-prefixed hex. */
export function toHexnc(bytes: Bytes): string {
  return '0x' + toHex(bytes);
}

export function parseHexnc(text: string): Bytes {
  // fromHex checks every digit itself: no separate regex pass over the text.
  try {
    if (text.startsWith('0x')) return fromHex(text);
  } catch {
    // said below
  }
  throw new FormatError('expected 0x-prefixed hex with an even length');
}

// ---- bech32 chain addresses ----

export const SHORT_ID_LENGTH = 20;
// bech32 allows 90 characters; our addresses are far below that.
const BECH32_LIMIT = 90;

export interface ChainAddress {
  /** Chain alias before the dash: "X", "P", "C" or a chain ID. */
  chain: string;
  hrp: string;
  /** The 20-byte short ID. */
  bytes: Bytes;
}

/** Bech32 (BIP-173) of a 20-byte short ID, without the chain prefix. */
export function bech32Encode(hrp: string, bytes: Bytes): string {
  return bech32.encode(hrp, bech32.toWords(bytes), BECH32_LIMIT);
}

export function bech32Decode(text: string): { hrp: string; bytes: Bytes } {
  let decoded: { prefix: string; words: number[] };
  try {
    decoded = bech32.decode(text, BECH32_LIMIT);
  } catch (e) {
    throw new FormatError(`not a valid bech32 address: ${(e as Error).message}`);
  }
  let bytes: Bytes;
  try {
    bytes = Uint8Array.from(bech32.fromWords(decoded.words));
  } catch (e) {
    throw new FormatError(`bech32 data is not whole bytes: ${(e as Error).message}`);
  }
  if (bytes.length !== SHORT_ID_LENGTH) {
    throw new FormatError(`an address holds ${SHORT_ID_LENGTH} bytes, this one ${bytes.length}`);
  }
  return { hrp: decoded.prefix, bytes };
}

/** A burn address on any chain: on EVM chains the zero address and 0x…dEaD; on X and P, twenty zero bytes. */
export const burnAddress = (address: string): boolean => /^0x0{36}(0000|dead)$|1q{32}\w{6}$/i.test(address.trim());

/**
 * An address no key is ever found for on the Avalanche chains: a burn address, and on the C-Chain
 * those with only a byte at the front and two at the end set (its built-in contracts). A real
 * key's has those zeros by a chance below 2⁻¹³⁶. (On another EVM chain such an address can be a
 * contract that takes funds: Arbitrum's 0x…64.)
 */
export const noKeyAddress = (address: string): boolean => burnAddress(address) || /^0x0[0-3]0{34}/i.test(address.trim());

export function formatAddress(chain: string, hrp: string, bytes: Bytes): string {
  return `${chain}-${bech32Encode(hrp, bytes)}`;
}

/** Parses `<chain>-<hrp>1…`; splits on the first dash only. */
export function parseAddress(text: string): ChainAddress {
  const dash = text.indexOf('-');
  if (dash <= 0) throw new FormatError('an address looks like X-<hrp>1…, P-<hrp>1… or C-<hrp>1…');
  const chain = text.slice(0, dash);
  const { hrp, bytes } = bech32Decode(text.slice(dash + 1));
  return { chain, hrp, bytes };
}

/**
 * Parses an address expected on `chain` with `hrp`, naming what is wrong: the error a send form
 * shows as the user types.
 */
export function parseAddressFor(text: string, chain: string, hrp: string): Bytes {
  const parsed = parseAddress(text.trim());
  if (parsed.chain !== chain) {
    throw new FormatError(`this is a ${parsed.chain}-Chain address; a ${chain}-Chain address is needed here`);
  }
  if (parsed.hrp !== hrp) {
    throw new FormatError(`this address is for the "${parsed.hrp}" network; this wallet is on "${hrp}"`);
  }
  return parsed.bytes;
}

// ---- keys and node IDs ----

const PRIVATE_KEY_PREFIX = 'PrivateKey-';
const NODE_ID_PREFIX = 'NodeID-';

export function formatPrivateKey(secret: Bytes): string {
  return PRIVATE_KEY_PREFIX + cb58Encode(secret);
}

export function parsePrivateKey(text: string): Bytes {
  if (!text.startsWith(PRIVATE_KEY_PREFIX)) throw new FormatError('a private key starts with "PrivateKey-"');
  const bytes = cb58Decode(text.slice(PRIVATE_KEY_PREFIX.length));
  if (bytes.length !== 32) throw new FormatError(`a private key holds 32 bytes, this one ${bytes.length}`);
  return bytes;
}

export function formatNodeId(bytes: Bytes): string {
  if (bytes.length !== SHORT_ID_LENGTH) throw new FormatError('a node ID holds 20 bytes');
  return NODE_ID_PREFIX + cb58Encode(bytes);
}

export function parseNodeId(text: string): Bytes {
  if (!text.startsWith(NODE_ID_PREFIX)) throw new FormatError('a node ID starts with "NodeID-"');
  return parseId(text.slice(NODE_ID_PREFIX.length), SHORT_ID_LENGTH);
}

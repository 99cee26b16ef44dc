// secp256k1 set up once, before any key file signs or derives; the curve order, a secret's checks, wipe.
import { secp256k1 as curves } from '@noble/curves/secp256k1.js';
import * as secp from '@noble/secp256k1';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { type Bytes, toHex } from './bytes.js';

// noble's synchronous sign/recover need these two hashes supplied; RFC 6979 nonces use the HMAC.
secp.hashes.sha256 = (msg) => sha256(msg);
secp.hashes.hmacSha256 = (key, msg) => hmac(sha256, key, msg);

// The first key a worker derives builds @noble/curves' generator table, on the way to the popup's
// first screen: width 4 builds in about half the time of the default 6, for ≈ 30% slower steps
// later, which come a few at a time (new addresses).
curves.Point.BASE.precompute(4);

export const CURVE_ORDER = secp.Point.CURVE().n;
export const HALF_ORDER = CURVE_ORDER >> 1n;

export const SECRET_LENGTH = 32;
export const DIGEST_LENGTH = 32;

/** Overwrites secrets the caller is about to drop. JS gives no stronger guarantee than this. */
export function wipe(...buffers: (Bytes | null | undefined)[]): void {
  for (const b of buffers) b?.fill(0);
}

export function bytesToBigint(bytes: Bytes): bigint {
  return bytes.length === 0 ? 0n : BigInt('0x' + toHex(bytes));
}

export function isValidSecret(secret: Bytes): boolean {
  if (secret.length !== SECRET_LENGTH) return false;
  const d = bytesToBigint(secret);
  return d > 0n && d < CURVE_ORDER;
}

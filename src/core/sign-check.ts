// The check every signature the wallet makes passes before it leaves: it must verify against the
// key's public key, with the recovery ID the node will use to find that key. The standard defence
// against fault attacks on deterministic ECDSA (a glitched signing that leaks the key once the
// faulty signature is out).
//
// ECDSA verification asks whether R = (e/s)·G + (r/s)·Q has x = r. The wallet knows Q's discrete
// log d, so R = ((e + r·d)/s)·G: one fixed-base multiplication, like signing itself, instead of a
// variable-base one (a recovery costs about six signings). R is computed as 2·((k/2)·G), so the
// signer's path is not retraced (other window digits, other table entries, one more doubling): a
// fault in either computation, or a corrupt precomputed point, makes the two disagree. The scalar
// is the signing nonce, so it goes through the same multiplication signing uses (fake additions
// for zero windows), never a variable-time one. That d·G is the key's stored public key and gives
// the address it signs for is checked on every call, once per key, by keys.ts checkKeyBinding: a
// pair it made is held to a digest of its bytes taken when its public half was computed (with
// @noble/curves), and the first time the pair signs, this signer's library derives the half again.
import * as secp from '@noble/secp256k1';
import { type Bytes, toHex } from './bytes.js';
import { SIGNATURE_LENGTH } from './codec/parts.js';
import { SigningError } from './errors.js';
import { checkKeyBinding, DIGEST_LENGTH, type KeyPair } from './keys.js';

const { n: N, p: P } = secp.Point.CURVE();
const HALF_N = N >> 1n;
/** 2⁻¹ mod n. */
const INVERSE_OF_TWO = (N + 1n) >> 1n;
const { mod, invert } = secp.etc;

const toBigint = (bytes: Bytes): bigint => BigInt('0x' + toHex(bytes));

export interface OwnSignature {
  key: KeyPair;
  signature: Bytes;
}

/**
 * Checks signatures the wallet just made over `digest` (see the top of this file). Several are
 * checked together: their two inversions each (s⁻¹ mod n, and Z⁻¹ mod p for R's affine form) are
 * shared, one of each for the lot. Throws SigningError when any does not hold.
 */
export function checkOwnSignatures(digest: Bytes, signed: readonly OwnSignature[]): void {
  if (signed.length === 0) return;
  if (digest.length !== DIGEST_LENGTH) throw new SigningError('a signature to check is over a 32-byte digest');
  const e = mod(toBigint(digest), N);
  // Each call checks each key again: a secret changed in memory since the last signing would
  // otherwise sign for another public key, and the tx would leave only for the chain to refuse it.
  const bound = new Set<KeyPair>();
  const parsed = signed.map(({ key, signature }) => {
    if (signature.length !== SIGNATURE_LENGTH) throw new SigningError('a signature to check holds 65 bytes');
    const v = signature[64]!;
    const r = toBigint(signature.subarray(0, 32));
    const s = toBigint(signature.subarray(32, 64));
    // The node's rules: v is 0 or 1 for the wallet's own signatures, S is low, r and s non-zero.
    if (v > 1 || r === 0n || r >= N || s === 0n || s > HALF_N) {
      throw new SigningError('a signature just made is malformed; nothing was sent');
    }
    if (!bound.has(key)) checkKeyBinding(key);
    bound.add(key);
    return { key, r, s, v };
  });
  const sInverses = invertAll(parsed.map((x) => x.s), N);
  const points = parsed.map(({ key, r }, i) => {
    const k = mod(mod(e + r * toBigint(key.secret), N) * sInverses[i]!, N);
    const halfK = mod(k * INVERSE_OF_TWO, N);
    const R = halfK === 0n ? undefined : secp.Point.BASE.multiply(halfK).double();
    if (!R || R.Z === 0n) throw new SigningError();
    return R;
  });
  const zInverses = invertAll(points.map((R) => R.Z), P);
  parsed.forEach(({ r, v }, i) => {
    const x = mod(points[i]!.X * zInverses[i]!, P);
    const y = mod(points[i]!.Y * zInverses[i]!, P);
    // v < 2 means R.x < n, so r is R.x itself; v is the parity of R.y.
    if (x !== r || Number(y & 1n) !== v) {
      throw new SigningError();
    }
  });
}

/** checkOwnSignatures for one signature. */
export function checkOwnSignature(key: KeyPair, digest: Bytes, signature: Bytes): void {
  checkOwnSignatures(digest, [{ key, signature }]);
}

/** Inverses of non-zero values mod m with one inversion (Montgomery's trick). */
function invertAll(values: readonly bigint[], m: bigint): bigint[] {
  const prefix: bigint[] = [];
  let acc = 1n;
  for (const x of values) {
    prefix.push(acc);
    acc = mod(acc * x, m);
  }
  let inv = invert(acc, m);
  const out: bigint[] = new Array<bigint>(values.length);
  for (let i = values.length - 1; i >= 0; i--) {
    out[i] = mod(inv * prefix[i]!, m);
    inv = mod(inv * values[i]!, m);
  }
  return out;
}

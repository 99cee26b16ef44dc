// Signing a digest as the node expects (r ‖ s ‖ v, low-S), a signature's low-S twin, recovering a signer.
import { secp256k1 as curves } from '@noble/curves/secp256k1.js';
import * as secp from '@noble/secp256k1';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { type Bytes, fromHex } from './bytes.js';
import { SIGNATURE_LENGTH } from './codec/parts.js';
import { SigningError } from './errors.js';
import { bytesToBigint, CURVE_ORDER, DIGEST_LENGTH, HALF_ORDER, isValidSecret } from './keys-curve.js';

/** The digest an X/P/C-atomic signature covers: sha256 of the unsigned tx bytes. */
export function hashForSigning(unsignedBytes: Bytes): Bytes {
  return sha256(unsignedBytes);
}

/**
 * Signs a 32-byte digest as the node expects: r ‖ s ‖ v (65 bytes), v = 0 or 1, low-S,
 * RFC 6979 deterministic nonce, and no further hashing of the digest.
 */
export function signDigest(secret: Bytes, digest: Bytes): Bytes {
  if (digest.length !== DIGEST_LENGTH) throw new SigningError(`a digest holds 32 bytes, got ${digest.length}`);
  if (!isValidSecret(secret)) throw new SigningError('cannot sign with an invalid private key');
  // noble's recovered format is v ‖ r ‖ s; the node's is r ‖ s ‖ v.
  const recovered = secp.sign(digest, secret, { prehash: false, format: 'recovered', lowS: true, extraEntropy: false });
  const v = recovered[0]!;
  // v is 2 or 3 only when R.x ≥ n (probability ~2^-128); the node prefers 0/1, so refuse it.
  if (v > 1) throw new SigningError('signature has recovery id above 1');
  const out = new Uint8Array(SIGNATURE_LENGTH);
  out.set(recovered.subarray(1), 0);
  out[64] = v;
  return out;
}

/**
 * The low-S twin of an r ‖ s ‖ v signature (v 0/1): (r, n − s) with the other recovery ID, the same
 * signature to Ethereum's ecrecover; a low-S one (or one whose s is out of range) comes back as it is.
 */
export function lowSTwin(signature: Bytes): Bytes {
  const s = bytesToBigint(signature.subarray(32, 64));
  if (s <= HALF_ORDER || s >= CURVE_ORDER) return signature;
  const twin = signature.slice();
  twin.set(fromHex((CURVE_ORDER - s).toString(16).padStart(64, '0')), 32);
  twin[64] = twin[64]! ^ 1;
  return twin;
}

/**
 * Recovers the signer of an r ‖ s ‖ v signature with the node's rules: 65 bytes, v < 4, low-S.
 * Returns the compressed public key and its short ID; throws SigningError otherwise. For
 * signatures the wallet did not make (it checks its own with checkOwnSignatures): @noble/curves
 * recovers with the GLV endomorphism, about 1.7× faster than @noble/secp256k1.
 */
export function recoverSigner(digest: Bytes, signature: Bytes): { publicKey: Bytes; shortId: Bytes } {
  if (digest.length !== DIGEST_LENGTH) throw new SigningError(`a digest holds 32 bytes, got ${digest.length}`);
  if (signature.length !== SIGNATURE_LENGTH) {
    throw new SigningError(`a signature holds ${SIGNATURE_LENGTH} bytes, got ${signature.length}`);
  }
  const v = signature[64]!;
  if (v >= 4) throw new SigningError(`signature recovery id ${v} is not below 4`);
  // The node rejects high-S as a malleated copy of a valid signature.
  if (bytesToBigint(signature.subarray(32, 64)) > HALF_ORDER) throw new SigningError('signature has a high S value');
  const recovered = new Uint8Array(SIGNATURE_LENGTH);
  recovered[0] = v;
  recovered.set(signature.subarray(0, 64), 1);
  let publicKey: Bytes;
  try {
    publicKey = curves.recoverPublicKey(recovered, digest, { prehash: false });
  } catch {
    throw new SigningError('no public key can be recovered from this signature');
  }
  return { publicKey, shortId: ripemd160(sha256(publicKey)) };
}

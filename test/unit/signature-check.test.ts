// checkOwnSignature: the check every signature the wallet makes passes before it leaves. It must
// accept exactly the signatures that verify against the key (with the node's v and low-S rules)
// and refuse anything a fault could produce instead.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sha256 } from '@noble/hashes/sha2.js';
import { concatBytes, fromHex, toHex } from '../../src/core/bytes.js';
import { SigningError } from '../../src/core/errors.js';
import { HdRoot, keyPairFromSecret, type KeyPair, recoverSigner, signDigest } from '../../src/core/keys.js';
import { checkOwnSignature, checkOwnSignatures } from '../../src/core/sign-check.js';

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const bytes32 = (n: bigint): Uint8Array => fromHex(n.toString(16).padStart(64, '0'));
const keyOf = (label: string): KeyPair => keyPairFromSecret(sha256(new TextEncoder().encode(label)));

const alice = keyOf('alice');
const bob = keyOf('bob');
const digest = sha256(Uint8Array.of(1, 2, 3));

describe('checkOwnSignature', () => {
  it('accepts what signDigest makes, for any key and digest, exactly when recovery finds that key', () => {
    const secretArb = fc.uint8Array({ minLength: 32, maxLength: 32 }).filter((b) => {
      const d = BigInt('0x' + toHex(b));
      return d > 0n && d < N;
    });
    fc.assert(
      fc.property(secretArb, fc.uint8Array({ minLength: 32, maxLength: 32 }), (secret, msg) => {
        const key = keyPairFromSecret(secret);
        const sig = signDigest(key.secret, msg);
        expect(() => checkOwnSignature(key, msg, sig)).not.toThrow();
        expect(toHex(recoverSigner(msg, sig).publicKey)).toBe(toHex(key.publicKey));
      }),
      { numRuns: 60 },
    );
  });

  it('refuses the signature with any single bit flipped (r, s or v)', () => {
    const sig = signDigest(alice.secret, digest);
    for (let bit = 0; bit < 65 * 8; bit++) {
      const faulty = sig.slice();
      faulty[bit >> 3]! ^= 1 << (bit & 7);
      expect(() => checkOwnSignature(alice, digest, faulty), `bit ${bit}`).toThrow(SigningError);
    }
  });

  it('refuses a valid signature of another key, or of another digest', () => {
    expect(() => checkOwnSignature(alice, digest, signDigest(bob.secret, digest))).toThrow(SigningError);
    const other = digest.slice();
    other[31]! ^= 0x80;
    expect(() => checkOwnSignature(alice, digest, signDigest(alice.secret, other))).toThrow(SigningError);
  });

  it('refuses the high-S twin the node would refuse, though it verifies', () => {
    const sig = signDigest(alice.secret, digest);
    const s = BigInt('0x' + toHex(sig.subarray(32, 64)));
    const twin = concatBytes(sig.subarray(0, 32), bytes32(N - s), Uint8Array.of(sig[64]! ^ 1));
    expect(() => checkOwnSignature(alice, digest, twin)).toThrow(SigningError);
  });

  it('refuses r or s of zero or past the order, v above 1 and wrong lengths', () => {
    const sig = signDigest(alice.secret, digest);
    const withR = (r: bigint): Uint8Array => concatBytes(bytes32(r), sig.subarray(32));
    const withS = (s: bigint): Uint8Array => concatBytes(sig.subarray(0, 32), bytes32(s), sig.subarray(64));
    for (const bad of [withR(0n), withR(N), withR(N + 5n), withS(0n), withS(N - 1n)]) {
      expect(() => checkOwnSignature(alice, digest, bad)).toThrow(SigningError);
    }
    for (const v of [2, 3, 27]) {
      const bad = sig.slice();
      bad[64] = v;
      expect(() => checkOwnSignature(alice, digest, bad)).toThrow(SigningError);
    }
    expect(() => checkOwnSignature(alice, digest, sig.subarray(0, 64))).toThrow(SigningError);
    expect(() => checkOwnSignature(alice, digest.subarray(1), sig)).toThrow(SigningError);
  });

  it('checks several together: all good pass, and one bad among them is found wherever it is', () => {
    const keys = Array.from({ length: 6 }, (_, i) => keyOf(`signer ${i}`));
    const signed = keys.map((key) => ({ key, signature: signDigest(key.secret, digest) }));
    expect(() => checkOwnSignatures(digest, signed)).not.toThrow();
    expect(() => checkOwnSignatures(digest, [])).not.toThrow();
    for (let bad = 0; bad < signed.length; bad++) {
      const faulty = signed.map((x, i) => (i === bad ? { ...x, signature: x.signature.map((b, j) => (j === 40 ? b ^ 4 : b)) } : x));
      expect(() => checkOwnSignatures(digest, faulty), `signature ${bad}`).toThrow(SigningError);
      // Two keys' signatures swapped: each is valid, for the other key.
      const swapped = signed.map((x, i) => (i === bad ? { ...x, signature: signed[(bad + 1) % signed.length]!.signature } : x));
      expect(() => checkOwnSignatures(digest, swapped), `swap ${bad}`).toThrow(SigningError);
    }
  });

  it('refuses a key whose secret does not give its public key (the address it signs for)', () => {
    const mismatched: KeyPair = { ...alice, publicKey: bob.publicKey };
    expect(() => checkOwnSignature(mismatched, digest, signDigest(alice.secret, digest))).toThrow(/no longer gives its public key/);
    const wiped: KeyPair = { ...alice, secret: new Uint8Array(32) };
    expect(() => checkOwnSignature(wiped, digest, signDigest(alice.secret, digest))).toThrow(SigningError);
  });

  it('checks the key again on every call: a secret changed in memory after a first signing is caught on the next', () => {
    const key: KeyPair = { ...alice, secret: alice.secret.slice() };
    checkOwnSignature(key, digest, signDigest(key.secret, digest));
    key.secret[5]! ^= 0x10;
    expect(() => checkOwnSignature(key, digest, signDigest(key.secret, digest))).toThrow(/no longer gives its public key/);
  });

  it("refuses a pair keys.ts made once any of its bytes changed after it signed, even into another key's consistent bytes", () => {
    for (const field of ['secret', 'publicKey', 'shortId', 'evmAddress'] as const) {
      const key = keyOf('carol');
      checkOwnSignature(key, digest, signDigest(key.secret, digest));
      key[field][3]! ^= 0x01;
      expect(() => checkOwnSignature(key, digest, signDigest(key.secret, digest)), field).toThrow(/no longer gives its public key/);
    }
    // Every byte replaced by bob's: a consistent pair, which deriving the key again would accept,
    // but not the key the wallet computed this pair's addresses from.
    const key = keyOf('carol');
    checkOwnSignature(key, digest, signDigest(key.secret, digest));
    for (const field of ['secret', 'publicKey', 'shortId', 'evmAddress'] as const) key[field].set(bob[field]);
    expect(() => checkOwnSignature(key, digest, signDigest(key.secret, digest))).toThrow(/no longer gives its public key/);
  });

  it('holds the pairs an HD root hands out to their binding, first derived and then from the cached public half', () => {
    const root = HdRoot.fromSeed(sha256(Uint8Array.of(9)));
    const path = "m/44'/9000'/0'/0/0";
    const first = root.keyAt(path);
    expect(() => checkOwnSignature(first, digest, signDigest(first.secret, digest))).not.toThrow();
    const again = root.keyAt(path);
    expect(again).not.toBe(first);
    expect(() => checkOwnSignature(again, digest, signDigest(again.secret, digest))).not.toThrow();
    // A pair's bytes are its own: changing them changes no other pair for the path.
    for (const field of ['secret', 'publicKey', 'shortId', 'evmAddress'] as const) again[field].set(bob[field]);
    expect(() => checkOwnSignature(again, digest, signDigest(again.secret, digest))).toThrow(/no longer gives its public key/);
    const third = root.keyAt(path);
    expect(third.shortId).toEqual(first.shortId);
    expect(() => checkOwnSignature(third, digest, signDigest(third.secret, digest))).not.toThrow();
  });
});

// A key pair's public half is computed once, with @noble/curves, when the pair is made. A fault in
// that one computation must not let a signature leave: the first time the pair signs, the signer's
// own library derives the half again (src/core/keys.ts, checkKeyBinding).
import { describe, expect, it, vi } from 'vitest';
import { sha256 } from '@noble/hashes/sha2.js';
import { evmAddressOfSecret, HdRoot, keyPairFromSecret, type KeyPair, signDigest } from '../../src/core/keys.js';
import { checkOwnSignature } from '../../src/core/sign-check.js';
import { keychainOf, signTx } from '../../src/core/tx/sign.js';
import type { UnsignedTx } from '../../src/core/codec/types.js';

const fault = vi.hoisted(() => ({ on: false }));

// While `fault.on`, @noble/curves' public key of a secret is another secret's: a glitched multiplication.
vi.mock('@noble/curves/secp256k1.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('@noble/curves/secp256k1.js')>();
  const getPublicKey = (secret: Uint8Array, compressed?: boolean): Uint8Array => {
    if (!fault.on) return real.secp256k1.getPublicKey(secret, compressed);
    const other = secret.slice();
    other[31]! ^= 0x01;
    return real.secp256k1.getPublicKey(other, compressed);
  };
  return { ...real, secp256k1: { ...real.secp256k1, getPublicKey } };
});

const digest = sha256(Uint8Array.of(4, 5, 6));
const secretOf = (label: string): Uint8Array => sha256(new TextEncoder().encode(label));

function faultyPair(label: string) {
  fault.on = true;
  try {
    return keyPairFromSecret(secretOf(label));
  } finally {
    fault.on = false;
  }
}

describe('a public half computed wrongly when the pair was made', () => {
  it('is refused at the pair’s first signature, and at every one after', () => {
    const sound = keyPairFromSecret(secretOf('dave'));
    const faulty = faultyPair('dave');
    expect(faulty.shortId).not.toEqual(sound.shortId);
    for (let i = 0; i < 2; i++) {
      expect(() => checkOwnSignature(faulty, digest, signDigest(faulty.secret, digest))).toThrow(/no longer gives its public key/);
    }
    expect(() => checkOwnSignature(sound, digest, signDigest(sound.secret, digest))).not.toThrow();
  });

  it('lets no signed tx out of signTx for the address it would sign for', () => {
    const faulty = faultyPair('erin');
    const tx: UnsignedTx = { vm: 'avm', kind: 'BaseTx', networkID: 1, blockchainID: new Uint8Array(32), outputs: [], inputs: [], memo: new Uint8Array() };
    const required = [{ fx: 'secp' as const, signers: [faulty.shortId], evm: false }];
    expect(() => signTx(tx, required, keychainOf([faulty]))).toThrow(/no longer gives its public key/);
  });

  it('refuses every pair an HD root hands out for a path whose first derivation was faulty', () => {
    const root = HdRoot.fromSeed(sha256(Uint8Array.of(7)));
    const path = "m/44'/9000'/0'/0/3";
    fault.on = true;
    let first: KeyPair;
    try {
      first = root.keyAt(path);
    } finally {
      fault.on = false;
    }
    const cached = root.keyAt(path);
    const tx: UnsignedTx = { vm: 'avm', kind: 'BaseTx', networkID: 1, blockchainID: new Uint8Array(32), outputs: [], inputs: [], memo: new Uint8Array() };
    for (const key of [first, cached]) {
      expect(() => signTx(tx, [{ fx: 'secp' as const, signers: [key.shortId], evm: false }], keychainOf([key]))).toThrow(/no longer gives its public key/);
    }
  });
});

describe('what EVM signatures are checked against', () => {
  it('is the address @noble/secp256k1 derives, not the one the pair was made with (the EVM signer’s library)', () => {
    const secret = secretOf('frank');
    expect(evmAddressOfSecret(secret)).toEqual(keyPairFromSecret(secret).evmAddress);
    const faulty = faultyPair('frank');
    expect(evmAddressOfSecret(secret)).not.toEqual(faulty.evmAddress);
  });
});

describe('a bound pair', () => {
  it('is refused once its fields are swapped for others of other lengths holding the same bytes in a row', () => {
    const key = keyPairFromSecret(secretOf('grace'));
    checkOwnSignature(key, digest, signDigest(key.secret, digest));
    const fields = key as { shortId: Uint8Array; evmAddress: Uint8Array };
    const { shortId, evmAddress } = fields;
    fields.shortId = shortId.slice(0, 19);
    fields.evmAddress = Uint8Array.of(shortId[19]!, ...evmAddress);
    expect(() => checkOwnSignature(key, digest, signDigest(key.secret, digest))).toThrow(/no longer gives its public key/);
  });
});

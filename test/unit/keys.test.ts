// Keys (src/core/keys.ts): a key pair and its addresses (the ewoq vector), secret-key and EVM
// address text, and signing byte for byte as the node signs (§10.2 vector).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as secp from '@noble/secp256k1';
import { concatBytes, fromHex, toHex } from '../../src/core/bytes.js';
import { cb58Encode, formatAddress, formatPrivateKey } from '../../src/core/encoding.js';
import { FormatError, SigningError } from '../../src/core/errors.js';
import { formatEvmAddress, parseEvmAddress } from '../../src/core/evm-address.js';
import {
  evmAddressFromPublicKey,
  hashForSigning,
  keyPairFromSecret,
  parseSecretKey,
  recoverSigner,
  shortIdFromPublicKey,
  signDigest,
  wipe,
} from '../../src/core/keys.js';

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const bigToBytes32 = (n: bigint): Uint8Array => fromHex(n.toString(16).padStart(64, '0'));

// wire-format.md §10.1: the ewoq local test key.
const EWOQ = {
  text: 'PrivateKey-ewoqjP7PxY4yr3iLTpLisriqt94hdyDFNgchSxGGztUrTXtNN',
  raw: '56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027',
  publicKey: '0327448e78ffa8cdb24cf19be0204ad954b1bdb4db8c51183534c1eecf2ebd094e',
  shortId: '3cb7d3842e8cee6a0ebd09f1fe884f6861e1b29c',
  shortIdCb58: '6Y3kysjF9jnHnYkdS9yGAuoHyae2eNmeV',
  evm: '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC',
};

// wire-format.md §10.2: keys[0] of avalanchego's avm tests and the BaseTx it signs.
const KEYS0_TEXT = 'PrivateKey-24jUJ9vZexUM6expyMcT48LBx27k1m7xpraoV62oSQAHdziao5';
const KEYS0_SHORT_ID = 'fceda8f90fcb5d30614b99d79fc4baa293077626';
const VECTOR_DIGEST = 'e165cd75942f72b960b97d71366034b7223c2ea4a6cfbe4a799d66417e426063';
const VECTOR_SIGNATURE =
  '7d898ee98af8335d37e6fada0cbb44a14405d3bb940dfc0d99a6d3ff5c715aff' +
  '26d18484f29b289644968fedffeb23e030665d736d94fc80bc735f51c806d743' +
  '00';

function zeros(n: number): string {
  return '00'.repeat(n);
}

describe('key pairs (§10.1 ewoq vector)', () => {
  const pair = keyPairFromSecret(parseSecretKey(EWOQ.text));

  it('parses PrivateKey- text to the raw secret', () => {
    expect(toHex(pair.secret)).toBe(EWOQ.raw);
    expect(formatPrivateKey(pair.secret)).toBe(EWOQ.text);
  });

  it('derives the compressed public key, short ID and EVM address', () => {
    expect(toHex(pair.publicKey)).toBe(EWOQ.publicKey);
    expect(toHex(pair.shortId)).toBe(EWOQ.shortId);
    expect(cb58Encode(pair.shortId)).toBe(EWOQ.shortIdCb58);
    expect(formatEvmAddress(pair.evmAddress)).toBe(EWOQ.evm);
    expect(toHex(pair.evmAddress)).toBe('8db97c7cece249c2b98bdc0226cc4c2a57bf52fc');
  });

  it('gives the bech32 addresses of every network HRP', () => {
    expect(formatAddress('X', 'avax', pair.shortId)).toBe('X-avax18jma8ppw3nhx5r4ap8clazz0dps7rv5ukulre5');
    expect(formatAddress('X', 'fuji', pair.shortId)).toBe('X-fuji18jma8ppw3nhx5r4ap8clazz0dps7rv5u6wmu4t');
    expect(formatAddress('X', 'local', pair.shortId)).toBe('X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u');
    expect(formatAddress('X', 'custom', pair.shortId)).toBe('X-custom18jma8ppw3nhx5r4ap8clazz0dps7rv5u9xde7p');
    expect(formatAddress('C', 'local', pair.shortId)).toBe('C-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u');
  });

  it('hashes the same key the same way from its compressed or uncompressed form', () => {
    const uncompressed = secp.getPublicKey(pair.secret, false);
    expect(uncompressed.length).toBe(65);
    expect(toHex(shortIdFromPublicKey(uncompressed))).toBe(EWOQ.shortId);
    expect(toHex(shortIdFromPublicKey(pair.publicKey))).toBe(EWOQ.shortId);
    expect(toHex(evmAddressFromPublicKey(uncompressed))).toBe(toHex(pair.evmAddress));
    expect(toHex(evmAddressFromPublicKey(pair.publicKey))).toBe(toHex(pair.evmAddress));
  });

  it('rejects points not on the curve', () => {
    const bad = fromHex('02' + 'ff'.repeat(32));
    expect(() => evmAddressFromPublicKey(bad)).toThrow(FormatError);
    expect(() => shortIdFromPublicKey(new Uint8Array(65))).toThrow(FormatError);
  });

  it('copies the secret so wiping the caller buffer leaves the pair intact', () => {
    const buf = fromHex(EWOQ.raw);
    const p = keyPairFromSecret(buf);
    wipe(buf);
    expect(toHex(buf)).toBe(zeros(32));
    expect(toHex(p.secret)).toBe(EWOQ.raw);
  });

  it('rejects out-of-range and wrong-length secrets', () => {
    expect(() => keyPairFromSecret(new Uint8Array(32))).toThrow(FormatError);
    expect(() => keyPairFromSecret(bigToBytes32(N))).toThrow(FormatError);
    expect(() => keyPairFromSecret(new Uint8Array(31).fill(1))).toThrow(/32 bytes/);
    expect(toHex(keyPairFromSecret(bigToBytes32(N - 1n)).secret)).toBe(toHex(bigToBytes32(N - 1n)));
    expect(toHex(keyPairFromSecret(bigToBytes32(1n)).publicKey)).toBe(
      '0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798', // the generator G
    );
  });
});

describe('parseSecretKey', () => {
  it('accepts PrivateKey-, 0x hex, plain hex and upper-case hex, ignoring outer whitespace', () => {
    for (const text of [EWOQ.text, '0x' + EWOQ.raw, EWOQ.raw, EWOQ.raw.toUpperCase(), `  0X${EWOQ.raw}\n`]) {
      expect(toHex(parseSecretKey(text))).toBe(EWOQ.raw);
    }
  });

  it('names what is wrong', () => {
    expect(() => parseSecretKey(EWOQ.raw.slice(2))).toThrow(/64 hex digits, this one 62/);
    expect(() => parseSecretKey('0x' + EWOQ.raw + '00')).toThrow(/this one 66/);
    expect(() => parseSecretKey('zz' + EWOQ.raw.slice(2))).toThrow(/other characters/);
    expect(() => parseSecretKey('')).toThrow(FormatError);
    expect(() => parseSecretKey(zeros(32))).toThrow(/curve order/);
    expect(() => parseSecretKey(N.toString(16))).toThrow(/curve order/);
    // a typo in the CB58 text breaks its checksum
    expect(() => parseSecretKey(EWOQ.text.slice(0, -1) + 'M')).toThrow(/checksum/);
    expect(() => parseSecretKey('PrivateKey-' + cb58Encode(new Uint8Array(31).fill(7)))).toThrow(/32 bytes/);
  });
});

describe('EVM addresses', () => {
  it('formats EIP-55 and parses lower, upper and checksummed forms', () => {
    const bytes = fromHex('8db97c7cece249c2b98bdc0226cc4c2a57bf52fc');
    expect(formatEvmAddress(bytes)).toBe(EWOQ.evm);
    for (const text of [EWOQ.evm, EWOQ.evm.toLowerCase(), '0x' + EWOQ.evm.slice(2).toUpperCase(), ` ${EWOQ.evm} `]) {
      expect(toHex(parseEvmAddress(text))).toBe(toHex(bytes));
    }
  });

  it('rejects a mixed-case address whose checksum fails, and malformed text', () => {
    // flip the case of one letter: still mixed case, checksum no longer matches
    const typo = EWOQ.evm.replace('C7c', 'c7c');
    expect(typo).not.toBe(EWOQ.evm);
    expect(() => parseEvmAddress(typo)).toThrow(/checksum/);
    expect(() => parseEvmAddress(EWOQ.evm.slice(2))).toThrow(FormatError);
    expect(() => parseEvmAddress(EWOQ.evm.slice(0, -1))).toThrow(FormatError);
    expect(() => parseEvmAddress(EWOQ.evm + '0')).toThrow(FormatError);
    expect(() => parseEvmAddress('0x' + 'g'.repeat(40))).toThrow(FormatError);
    expect(() => formatEvmAddress(new Uint8Array(19))).toThrow(FormatError);
  });
});

describe('signing (§10.2 vector)', () => {
  const keys0 = keyPairFromSecret(parseSecretKey(KEYS0_TEXT));
  const digest = fromHex(VECTOR_DIGEST);

  it('uses keys[0] of the avm tests', () => {
    expect(toHex(keys0.shortId)).toBe(KEYS0_SHORT_ID);
  });

  it('hashes the unsigned BaseTx bytes with sha256', () => {
    const id32 = (prefix: string): string => prefix + zeros(32 - prefix.length / 2);
    const txId = Array.from({ length: 32 }, (_, i) => (0xff - i).toString(16)).join('');
    const unsigned = fromHex(
      '0000' + '00000000' + '0000000a' + id32('0504030201') +
        '00000001' + id32('010203') + '00000007' + '0000000000003039' + '0000000000000000' +
        '00000001' + '00000001' + KEYS0_SHORT_ID +
        '00000001' + txId + '00000001' + id32('010203') + '00000005' + '000000000000d431' +
        '00000001' + '00000002' +
        '00000004' + '00010203',
    );
    expect(unsigned.length).toBe(226);
    expect(toHex(hashForSigning(unsigned))).toBe(VECTOR_DIGEST);
  });

  it('reproduces the node signature byte for byte (r ‖ s ‖ v, RFC 6979, no pre-hash)', () => {
    const sig = signDigest(keys0.secret, digest);
    expect(toHex(sig)).toBe(VECTOR_SIGNATURE);
    expect(toHex(signDigest(keys0.secret, digest))).toBe(VECTOR_SIGNATURE);
  });

  it('recovers keys[0] from the vector signature', () => {
    const { publicKey, shortId } = recoverSigner(digest, fromHex(VECTOR_SIGNATURE));
    expect(toHex(publicKey)).toBe(toHex(keys0.publicKey));
    expect(toHex(shortId)).toBe(KEYS0_SHORT_ID);
  });

  it('recovers a different signer when the digest or v is changed', () => {
    const other = digest.slice();
    other[0]! ^= 1;
    expect(toHex(recoverSigner(other, fromHex(VECTOR_SIGNATURE)).shortId)).not.toBe(KEYS0_SHORT_ID);
    const flippedV = fromHex(VECTOR_SIGNATURE);
    flippedV[64] = 1;
    expect(toHex(recoverSigner(digest, flippedV).shortId)).not.toBe(KEYS0_SHORT_ID);
  });

  it('rejects the high-S twin of a valid signature (s → n − s, v flipped)', () => {
    const sig = fromHex(VECTOR_SIGNATURE);
    const s = BigInt('0x' + toHex(sig.subarray(32, 64)));
    const mutated = concatBytes(sig.subarray(0, 32), bigToBytes32(N - s), new Uint8Array([sig[64]! ^ 1]));
    expect(() => recoverSigner(digest, mutated)).toThrow(SigningError);
    expect(() => recoverSigner(digest, mutated)).toThrow(/high S/);
  });

  it('rejects v ≥ 4, wrong lengths and unrecoverable signatures', () => {
    const v4 = fromHex(VECTOR_SIGNATURE);
    v4[64] = 4;
    expect(() => recoverSigner(digest, v4)).toThrow(/recovery id 4/);
    const v27 = fromHex(VECTOR_SIGNATURE);
    v27[64] = 27; // Ethereum-style v is not the node's format
    expect(() => recoverSigner(digest, v27)).toThrow(SigningError);
    expect(() => recoverSigner(digest, fromHex(VECTOR_SIGNATURE).subarray(0, 64))).toThrow(/65 bytes/);
    expect(() => recoverSigner(digest.subarray(1), fromHex(VECTOR_SIGNATURE))).toThrow(/32 bytes/);
    expect(() => recoverSigner(digest, new Uint8Array(65))).toThrow(/no public key/); // r = s = 0
    // v = 2 means R.x = r + n, which is past the field prime for this r
    const v2 = fromHex(VECTOR_SIGNATURE);
    v2[64] = 2;
    expect(() => recoverSigner(digest, v2)).toThrow(SigningError);
  });

  it('refuses to sign anything but a 32-byte digest, or with an invalid key', () => {
    expect(() => signDigest(keys0.secret, new Uint8Array(33))).toThrow(SigningError);
    expect(() => signDigest(new Uint8Array(32), digest)).toThrow(SigningError);
  });

  it('round-trips sign → recover with low S and v ∈ {0,1} for any key and digest', () => {
    const secretArb = fc
      .uint8Array({ minLength: 32, maxLength: 32 })
      .filter((b) => {
        const d = BigInt('0x' + toHex(b));
        return d > 0n && d < N;
      });
    fc.assert(
      fc.property(secretArb, fc.uint8Array({ minLength: 32, maxLength: 32 }), (secret, msg) => {
        const pair = keyPairFromSecret(secret);
        const sig = signDigest(secret, msg);
        expect(sig.length).toBe(65);
        expect(sig[64]! <= 1).toBe(true);
        expect(BigInt('0x' + toHex(sig.subarray(32, 64))) <= N >> 1n).toBe(true);
        const rec = recoverSigner(msg, sig);
        expect(toHex(rec.publicKey)).toBe(toHex(pair.publicKey));
        expect(toHex(rec.shortId)).toBe(toHex(pair.shortId));
        expect(toHex(evmAddressFromPublicKey(rec.publicKey))).toBe(toHex(pair.evmAddress));
      }),
      { numRuns: 40 },
    );
  });
});

describe('wipe', () => {
  it('zeroes every buffer and skips missing ones', () => {
    const a = new Uint8Array([1, 2, 3]);
    const b = new Uint8Array([4]);
    wipe(a, undefined, b, null);
    expect([...a, ...b]).toEqual([0, 0, 0, 0]);
  });
});

describe('EVM address text (EIP-55)', () => {
  it('formats and accepts the EIP-55 examples, and catches a case typo', () => {
    for (const text of ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359', '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB', '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb']) {
      expect(formatEvmAddress(parseEvmAddress(text.toLowerCase()))).toBe(text);
      expect(formatEvmAddress(parseEvmAddress(text))).toBe(text);
      const flipped = text.slice(0, 2) + (text[2] === text[2]!.toLowerCase() ? text[2]!.toUpperCase() : text[2]!.toLowerCase()) + text.slice(3);
      if (/[a-f]/i.test(text[2]!)) expect(() => parseEvmAddress(flipped)).toThrow(FormatError);
    }
  });
});

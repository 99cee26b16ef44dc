import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as secp from '@noble/secp256k1';
import { HDKey } from '@scure/bip32';
import * as bip39 from '@scure/bip39';
import { concatBytes, fromHex, toHex } from '../../src/core/bytes.js';
import { cb58Encode, formatAddress, formatPrivateKey } from '../../src/core/encoding.js';
import { FormatError, SigningError, ValidationError } from '../../src/core/errors.js';
import { formatEvmAddress, parseEvmAddress } from '../../src/core/evm-address.js';
import {
  deriveEvmKey,
  deriveXpKey,
  evmAddressFromPublicKey,
  evmPath,
  generateMnemonic,
  hashForSigning,
  HdRoot,
  keyPairFromSecret,
  mnemonicToSeed,
  normalizeMnemonic,
  parseSecretKey,
  recoverSigner,
  shortIdFromPublicKey,
  signDigest,
  wipe,
  xpAccountPath,
  xpPath,
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

const HARDHAT = 'test test test test test test test test test test test junk';
const ABANDON_12 = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';

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

describe('mnemonics', () => {
  it('generates valid 24-word (default) and 12-word phrases that differ each time', () => {
    const m24 = generateMnemonic();
    const m12 = generateMnemonic(12);
    expect(m24.split(' ')).toHaveLength(24);
    expect(m12.split(' ')).toHaveLength(12);
    expect(normalizeMnemonic(m24)).toBe(m24);
    expect(normalizeMnemonic(m12)).toBe(m12);
    expect(generateMnemonic()).not.toBe(m24);
  });

  it('normalizes case and whitespace', () => {
    const messy = `  ${ABANDON_12.toUpperCase().split(' ').join(' \n\t ')}  `;
    expect(normalizeMnemonic(messy)).toBe(ABANDON_12);
  });

  it('reads a phrase pasted with invisible characters (zero-width space, soft hyphen, BOM) as the words it shows', () => {
    const pasted = '\uFEFF' + ABANDON_12.split(' ').map((w) => `${w.slice(0, 2)}\u00AD${w.slice(2)}\u200B`).join(' ');
    expect(normalizeMnemonic(pasted)).toBe(ABANDON_12);
  });

  it('says whether the word count, a word, or the checksum is wrong', () => {
    expect(() => normalizeMnemonic(ABANDON_12.split(' ').slice(1).join(' '))).toThrow(/has 11/);
    expect(() => normalizeMnemonic('')).toThrow(/has 0/);
    expect(() => normalizeMnemonic(ABANDON_12.replace('about', 'aboot'))).toThrow(/word 12 "aboot"/);
    // twelve "abandon" is a list of real words whose checksum does not match
    expect(() => normalizeMnemonic(Array(12).fill('abandon').join(' '))).toThrow(/checksum/);
    expect(() => normalizeMnemonic(Array(24).fill('abandon').join(' '))).toThrow(/checksum/);
    expect(() => normalizeMnemonic(Array(23).fill('abandon').join(' ') + ' art')).not.toThrow();
  });

  it('derives the BIP-39 reference seeds (12 and 24 words, passphrase "TREZOR")', async () => {
    expect(toHex(await mnemonicToSeed(ABANDON_12, 'TREZOR'))).toBe(
      'c55257c360c07c72029aebc1b53c05ed0362ada38ead3e3e9efa3708e53495531f09a6987599d18264c1e1c92f2cf141630c7a3c4ab7c81b2f001698e7463b04',
    );
    expect(toHex(await mnemonicToSeed(Array(23).fill('abandon').join(' ') + ' art', 'TREZOR'))).toBe(
      'bda85446c68413707090a52022edd26a1c9462295029f2e60cd7c4f2bbd3097170af7a4d73245cafa9c3cca8d561a7c3de6f5d4a10be8ed2a5e608d68f92fcc8',
    );
  });

  it('gives the seed of the BIP-39 script implementation for random phrases and a non-ASCII passphrase', async () => {
    for (let i = 0; i < 5; i++) {
      const phrase = generateMnemonic(i % 2 === 0 ? 12 : 24);
      const passphrase = ['', 'TREZOR', 'pässphräse', 'Ａ１', 'x'][i]!;
      expect(toHex(await mnemonicToSeed(phrase, passphrase))).toBe(toHex(await bip39.mnemonicToSeed(phrase, passphrase.normalize('NFKD'))));
    }
  });

  it('seeds from the normalized phrase and refuses an invalid one', async () => {
    const a = await mnemonicToSeed(ABANDON_12);
    const b = await mnemonicToSeed(` ${ABANDON_12.toUpperCase()} `);
    expect(toHex(a)).toBe(toHex(b));
    expect(toHex(await mnemonicToSeed(ABANDON_12, 'x'))).not.toBe(toHex(a));
    await expect(mnemonicToSeed(Array(12).fill('abandon').join(' '))).rejects.toThrow(FormatError);
  });
});

describe('HD derivation', () => {
  it('builds Core / legacy-wallet paths', () => {
    expect(xpAccountPath(0)).toBe("m/44'/9000'/0'");
    expect(xpPath(0, 0, 0)).toBe("m/44'/9000'/0'/0/0");
    expect(xpPath(3, 1, 17)).toBe("m/44'/9000'/3'/1/17");
    expect(evmPath(0)).toBe("m/44'/60'/0'/0/0");
    expect(evmPath(5)).toBe("m/44'/60'/0'/0/5");
  });

  it('rejects indices outside 0 … 2^31−1 and a change other than 0/1', () => {
    expect(() => xpPath(-1, 0, 0)).toThrow(ValidationError);
    expect(() => xpPath(0, 0, 2 ** 31)).toThrow(ValidationError);
    expect(() => xpPath(0, 0, 1.5)).toThrow(ValidationError);
    expect(() => xpPath(0, 2 as 0, 0)).toThrow(/change/);
    expect(() => evmPath(2 ** 31)).toThrow(ValidationError);
    expect(xpPath(0, 0, 2 ** 31 - 1)).toBe("m/44'/9000'/0'/0/2147483647");
  });

  it('matches BIP-32 test vector 1 on hardened and normal steps', () => {
    const root = HdRoot.fromSeed(fromHex('000102030405060708090a0b0c0d0e0f'));
    const expected: [string, string, string][] = [
      ['m', 'e8f32e723decf4051aefac8e2c93c9c5b214313817cdb01a1494b917c8436b35', '0339a36013301597daef41fbe593a02cc513d0b55527ec2df1050e2e8ff49c85c2'],
      ["m/0'", 'edb2e14f9ee77d26dd93b4ecede8d16ed408ce149b6cd80b0715a2d911a0afea', '035a784662a4a20a65bf6aab9ae98a6c068a81c52e4b032c0fb5400c706cfccc56'],
      ["m/0'/1", '3c6cb8d0f6a264c91ea8b5030fadaa8e538b020f0a387421a12de9319dc93368', '03501e454bf00751f24b1b489aa925215d66af2234e3891c3b21a52bedb3cd711c'],
      ["m/0'/1/2'", 'cbce0d719ecf7431d88e6a89fa1483e02e35092af60c042b1df2ff59fa424dca', '0357bfe1e341d01c69fe5654309956cbea516822fba8a601743a012a7896ee8dc2'],
      ["m/0'/1/2'/2/1000000000", '471b76e389e528d6de6d816857e012c5455051cad6660850e58372a6c3e6e7c8', '022a471424da5e657499d1ff51cb43c47481a03b1e77f951fe64cec9f5a48f7011'],
    ];
    for (const [path, secret, pub] of expected) {
      const pair = root.keyAt(path);
      expect(toHex(pair.secret), path).toBe(secret);
      expect(toHex(pair.publicKey), path).toBe(pub);
    }
  });

  it('rejects malformed paths and seeds', () => {
    const root = HdRoot.fromSeed(new Uint8Array(16));
    expect(() => root.keyAt("44'/0")).toThrow(FormatError);
    expect(() => root.keyAt("m/44h/0")).toThrow(FormatError);
    expect(() => root.keyAt('m/0/')).toThrow(FormatError);
    expect(() => root.keyAt('m/2147483648')).toThrow(FormatError);
    expect(() => root.keyAt("m/2147483648'/0")).toThrow(FormatError);
    expect(() => HdRoot.fromSeed(new Uint8Array(15))).toThrow(FormatError);
    expect(() => HdRoot.fromSeed(new Uint8Array(65))).toThrow(FormatError);
  });

  it('derives the well-known EVM accounts of "test … junk" at m/44\'/60\'/0\'/0/{account}', async () => {
    const root = HdRoot.fromSeed(await mnemonicToSeed(HARDHAT));
    expect(formatEvmAddress(deriveEvmKey(root, 0).evmAddress)).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
    expect(formatEvmAddress(deriveEvmKey(root, 1).evmAddress)).toBe('0x70997970C51812dc3A010C7d01b50e0d17dc79C8');
  });

  it('cached X/P derivation equals a fresh walk from the master for mixed accounts and branches', async () => {
    const seed = await mnemonicToSeed(HARDHAT);
    const root = HdRoot.fromSeed(seed);
    const master = HDKey.fromMasterSeed(seed);
    const cases: [number, 0 | 1, number][] = [
      [0, 0, 0], [0, 1, 0], [1, 0, 0], [0, 0, 7], [1, 1, 3], [0, 1, 7], [2, 0, 2 ** 31 - 1], [0, 0, 0],
    ];
    const seen = new Set<string>();
    for (const [account, change, index] of cases) {
      const pair = deriveXpKey(root, account, change, index);
      const fresh = master.derive(xpPath(account, change, index));
      expect(toHex(pair.secret)).toBe(toHex(fresh.privateKey!));
      expect(toHex(pair.publicKey)).toBe(toHex(fresh.publicKey!));
      seen.add(toHex(pair.shortId));
    }
    expect(seen.size).toBe(cases.length - 1); // only the repeated [0,0,0] coincides
    // X/P and EVM keys of the same account are different keys
    expect(toHex(deriveXpKey(root, 0, 0, 0).secret)).not.toBe(toHex(deriveEvmKey(root, 0).secret));
  });

  it('scans hundreds of indices quickly thanks to the cached branch node', async () => {
    const root = HdRoot.fromSeed(await mnemonicToSeed(HARDHAT));
    const start = performance.now();
    const ids = new Set<string>();
    for (let i = 0; i < 300; i++) ids.add(toHex(deriveXpKey(root, 0, 0, i).shortId));
    expect(ids.size).toBe(300);
    expect(performance.now() - start).toBeLessThan(5000);
  });

  it('a key asked for again has the same public half at once, and the same secret when read', async () => {
    const root = HdRoot.fromSeed(await mnemonicToSeed(HARDHAT));
    const first = deriveXpKey(root, 0, 1, 4);
    const again = deriveXpKey(root, 0, 1, 4);
    expect([again.publicKey, again.shortId, again.evmAddress].map(toHex)).toEqual([first.publicKey, first.shortId, first.evmAddress].map(toHex));
    expect(toHex(again.secret)).toBe(toHex(first.secret));
    expect(toHex(again.secret)).toBe(toHex(HDKey.fromMasterSeed(await mnemonicToSeed(HARDHAT)).derive(xpPath(0, 1, 4)).privateKey!));
    // Each pair owns its secret: wiping one leaves the other.
    wipe(first.secret);
    expect(toHex(deriveXpKey(root, 0, 1, 4).secret)).toBe(toHex(again.secret));
  });

  it('once wiped, gives no key and no secret, and every secret it gave is zeroed (a pair held from before a lock cannot sign)', () => {
    const root = HdRoot.fromSeed(new Uint8Array(32).fill(7));
    const first = deriveXpKey(root, 0, 0, 0);
    const firstSecret = first.secret;
    const read = deriveXpKey(root, 0, 0, 0);
    const readSecret = read.secret;
    expect(toHex(readSecret)).toBe(toHex(firstSecret));
    const unread = deriveXpKey(root, 0, 0, 0);
    root.wipe();
    expect(() => deriveXpKey(root, 0, 0, 0)).toThrow(SigningError);
    for (const pair of [first, read, unread]) expect(() => pair.secret).toThrow(expect.objectContaining({ code: 'vault-locked' }));
    expect([...firstSecret, ...readSecret].every((b) => b === 0)).toBe(true);
  });

  it('stops deriving once wiped', () => {
    const root = HdRoot.fromSeed(new Uint8Array(32).fill(9));
    deriveXpKey(root, 0, 0, 0);
    root.wipe();
    expect(() => deriveXpKey(root, 0, 0, 1)).toThrow();
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

// Recovery phrases (BIP-39: generated, normalized, checked, seeded) and HD derivation (BIP-32
// vectors, the X/P and EVM paths, the cached branch node, and a root wiped at lock).
import { describe, expect, it } from 'vitest';
import { HDKey } from '@scure/bip32';
import * as bip39 from '@scure/bip39';
import { fromHex, toHex } from '../../src/core/bytes.js';
import { FormatError, KeysWipedError, ValidationError } from '../../src/core/errors.js';
import { formatEvmAddress } from '../../src/core/evm-address.js';
import {
  deriveEvmKey,
  deriveXpKey,
  evmPath,
  generateMnemonic,
  HdRoot,
  mnemonicToSeed,
  normalizeMnemonic,
  wipe,
  xpAccountPath,
  xpPath,
} from '../../src/core/keys.js';

const HARDHAT = 'test test test test test test test test test test test junk';
const ABANDON_12 = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';

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
    expect(() => deriveXpKey(root, 0, 0, 0)).toThrow(KeysWipedError);
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

import { describe, expect, it } from 'vitest';
import {
  checkAddress,
  checkAmount,
  checkName,
  checkNewPassword,
  checkPhrase,
  checkPrivateKey,
  decodePayload,
  encodePayload,
  jsonShown,
  passwordStrength,
} from '../../../src/popup/checks.js';
import { formatAddress } from '../../../src/core/encoding.js';
import { REQUEST_VALIDATORS } from '../../../src/shared/validate.js';
import { looksLikeAvax } from '../../../src/popup/look-alike.js';
import { formatAgo, formatUnits, formatValue, roundAmount, shortenId } from '../../../src/popup/format.js';
import { C_ADDR, C_BECH32, HRP, P_ADDR, X_ADDR, X_FUJI } from './fixtures.js';

describe('amount checks', () => {
  const avax = { denomination: 9, symbol: 'AVAX' };
  it('parses decimal text to base units without floating point', () => {
    expect(checkAmount('0.1', avax)).toEqual({ ok: true, value: 100_000_000n });
    expect(checkAmount('18446744073.709551615', avax)).toEqual({ ok: true, value: (1n << 64n) - 1n });
  });
  it('names too many decimals, zero, and bad text', () => {
    expect(checkAmount('1.0000000001', avax)).toEqual({ ok: false, error: 'At most 9 decimal places for this asset' });
    expect(checkAmount('1.0000000000', avax)).toEqual({ ok: true, value: 1_000_000_000n });
    expect(checkAmount('0', avax)).toEqual({ ok: false, error: 'Enter an amount above zero' });
    expect(checkAmount('1,5', avax).ok).toBe(false);
    expect(checkAmount('', avax)).toEqual({ ok: false, error: 'Enter an amount' });
  });
  it('checks the balance and the fee on top', () => {
    expect(checkAmount('2', { ...avax, spendable: 1_000_000_000n })).toEqual({ ok: false, error: 'More than you can spend: 1 AVAX' });
    const r = checkAmount('1', { ...avax, spendable: 1_000_000_000n, fee: 1_000_000n });
    expect(r).toEqual({ ok: false, error: 'With the fee of 0.001 AVAX this is more than you can spend; at most 0.999 AVAX' });
    expect(checkAmount('0.999', { ...avax, spendable: 1_000_000_000n, fee: 1_000_000n }).ok).toBe(true);
  });
  it('takes u256 wei on the C-Chain when told', () => {
    expect(checkAmount('100', { denomination: 18, symbol: 'AVAX' }).ok).toBe(false);
    expect(checkAmount('100', { denomination: 18, symbol: 'AVAX', max: (1n << 256n) - 1n })).toEqual({ ok: true, value: 100n * 10n ** 18n });
  });
});

describe('address checks', () => {
  it('accepts valid addresses of each kind', () => {
    expect(checkAddress(X_ADDR, 'X', HRP)).toEqual({ ok: true, value: X_ADDR });
    expect(checkAddress(` ${P_ADDR} `, 'P', HRP)).toEqual({ ok: true, value: P_ADDR });
    expect(checkAddress(C_BECH32, 'C-bech32', HRP).ok).toBe(true);
    expect(checkAddress(C_ADDR.toLowerCase(), 'C-evm', HRP)).toEqual({ ok: true, value: C_ADDR });
  });
  it('names the wrong chain', () => {
    expect(checkAddress(P_ADDR, 'X', HRP)).toEqual({ ok: false, error: 'This is a P-Chain address; an X-Chain address is needed here' });
    expect(checkAddress(X_ADDR, 'P', HRP)).toEqual({ ok: false, error: 'This is an X-Chain address; a P-Chain address is needed here' });
    expect(checkAddress(C_ADDR, 'X', HRP)).toEqual({ ok: false, error: 'This is a C-Chain 0x address; an X-Chain address is needed here' });
    expect(checkAddress(X_ADDR, 'C-evm', HRP)).toEqual({ ok: false, error: 'This is an X-Chain address; a C-Chain 0x address is needed here' });
    expect(checkAddress(C_BECH32, 'C-evm', HRP).ok).toBe(false);
  });
  it('names the wrong network', () => {
    expect(checkAddress(X_FUJI, 'X', HRP)).toEqual({ ok: false, error: 'This address is for the "fuji" network; this wallet is on "local"' });
  });
  it('catches a typo in a bech32 checksum and in an EIP-55 checksum', () => {
    const typo = X_ADDR.slice(0, -1) + (X_ADDR.endsWith('q') ? 'p' : 'q');
    expect(checkAddress(typo, 'X', HRP).ok).toBe(false);
    const letter = C_ADDR.search(/[a-f]/i);
    const flipped = C_ADDR.slice(0, letter) + (C_ADDR[letter] === C_ADDR[letter]!.toLowerCase() ? C_ADDR[letter]!.toUpperCase() : C_ADDR[letter]!.toLowerCase()) + C_ADDR.slice(letter + 1);
    expect(checkAddress(flipped, 'C-evm', HRP)).toEqual({ ok: false, error: 'The address checksum (upper/lower case) does not match: check for a typo' });
  });
  it('says a mistyped bech32 address has a typo, in plain words, and words the chain letter in either case', () => {
    const typo = { ok: false, error: 'This address has a typo or is incomplete: check it character by character' };
    const last = X_ADDR.at(-1) === 'q' ? 'p' : 'q';
    expect(checkAddress(X_ADDR.slice(0, -1) + last, 'X', HRP)).toEqual(typo); // checksum
    expect(checkAddress(X_ADDR.slice(0, -2) + 'b' + X_ADDR.at(-1), 'X', HRP)).toEqual(typo); // a character bech32 lacks
    expect(checkAddress('X-local', 'X', HRP)).toEqual(typo); // no separator
    expect(checkAddress(X_ADDR.slice(0, 20), 'X', HRP)).toEqual(typo);
    expect(checkAddress('x' + X_ADDR.slice(1), 'X', HRP)).toEqual({ ok: false, error: 'Write the chain letter as a capital: X-…' });
    expect(checkAddress('x' + X_ADDR.slice(1), 'P', HRP)).toEqual({ ok: false, error: 'This is an X-Chain address; a P-Chain address is needed here' });
    expect(checkAddress('x' + X_ADDR.slice(1), 'C-evm', HRP)).toEqual({ ok: false, error: 'This is an X-Chain address; a C-Chain 0x address is needed here' });
  });

  it('refuses an address no key can ever spend from: the zero address, a built-in contract, twenty zero bytes on X or P', () => {
    const noKey = { ok: false, error: 'No one can ever spend from this address (a burn address or a built-in contract): anything sent to it is lost for good' };
    for (const a of ['0x0000000000000000000000000000000000000000', '0x0000000000000000000000000000000000000001', '0x0100000000000000000000000000000000000002', '0x0200000000000000000000000000000000000005', '0x000000000000000000000000000000000000dEaD']) {
      expect(checkAddress(a, 'C-evm', HRP)).toEqual(noKey);
    }
    expect(checkAddress(formatAddress('X', HRP, new Uint8Array(20)), 'X', HRP)).toEqual(noKey);
    expect(checkAddress(formatAddress('P', HRP, new Uint8Array(20)), 'P', HRP)).toEqual(noKey);
    // One byte short of those: a key may hold it.
    expect(checkAddress('0x0400000000000000000000000000000000000002', 'C-evm', HRP).ok).toBe(true);
    expect(checkAddress('0x0000000000000000000000000000000000010000', 'C-evm', HRP).ok).toBe(true);
    expect(checkAddress(formatAddress('X', HRP, new Uint8Array(20).fill(1, 19)), 'X', HRP).ok).toBe(true);
  });

  it('returns the EIP-55 form of a valid 0x address (the examples of EIP-55)', () => {
    for (const expected of ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359', '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB', '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb']) {
      expect(checkAddress(expected.toLowerCase(), 'C-evm', HRP)).toEqual({ ok: true, value: expected });
      expect(checkAddress(expected, 'C-evm', HRP)).toEqual({ ok: true, value: expected });
    }
  });
});

describe('passwords', () => {
  it('rates by length, kinds of characters and obvious patterns', () => {
    expect(passwordStrength('short').score).toBe(0);
    expect(passwordStrength('password1').label).toBe('Weak');
    expect(passwordStrength('abcdefgh').label).toBe('Weak');
    expect(passwordStrength('aaaaaaaaaaaa').label).toBe('Weak');
    expect(passwordStrength('hunter42').label).toBe('Weak');
    expect(passwordStrength('kj8Lm2qz').label).toBe('Fair');
    expect(passwordStrength('Tr0ub4dor&3x').score).toBeGreaterThanOrEqual(3);
    expect(passwordStrength('correct horse battery staple').label).toBe('Strong');
  });
  it('needs fair strength and a matching confirmation', () => {
    expect(checkNewPassword('short', 'short')).toEqual({ ok: false, error: 'Use at least 8 characters' });
    expect(checkNewPassword('password', 'password').ok).toBe(false);
    expect(checkNewPassword('kj8Lm2qz', 'kj8Lm2qZ')).toEqual({ ok: false, error: 'The two passwords do not match' });
    expect(checkNewPassword('kj8Lm2qz', 'kj8Lm2qz')).toEqual({ ok: true, value: 'kj8Lm2qz' });
  });
});

describe('recovery phrase shape', () => {
  it('takes BIP-39\'s 12, 15, 18, 21 or 24 words, normalized', () => {
    const twelve = Array.from({ length: 12 }, () => 'abandon').join('  ');
    expect(checkPhrase(` ${twelve.toUpperCase()} `)).toEqual({ ok: true, value: Array(12).fill('abandon').join(' ') });
    for (const n of [15, 18, 21, 24]) expect(checkPhrase(Array(n).fill('abandon').join(' ')).ok).toBe(true);
    for (const n of [11, 13, 25]) expect(checkPhrase(Array(n).fill('abandon').join(' ')).ok).toBe(false);
    expect(checkPhrase('one two three')).toEqual({ ok: false, error: 'A recovery phrase has 12, 15, 18, 21 or 24 words; this one has 3' });
    expect(checkPhrase('abandon ab4ndon')).toEqual({ ok: false, error: 'Word 2 has characters other than letters' });
    // Another language's letters: said to be one the wallet does not read, not a typo.
    expect(checkPhrase('ábaco abdomen')).toEqual({ ok: false, error: 'Word 1 is not in English: the wallet reads English recovery phrases only' });
    expect(checkPhrase('あいこくしん あいさつ')).toEqual({ ok: false, error: 'Word 1 is not in English: the wallet reads English recovery phrases only' });
  });

  it('reads a phrase pasted with invisible characters as the words it shows', () => {
    // A zero-width space after each word, a soft hyphen inside one and a byte-order mark in front:
    // copied from a web page or a document, none of them shows.
    const pasted = '\uFEFF' + Array(11).fill('aban\u00ADdon\u200B').join(' ') + ' about\u2060';
    expect(checkPhrase(pasted)).toEqual({ ok: true, value: `${Array(11).fill('abandon').join(' ')} about` });
  });
});

describe('private keys', () => {
  it('takes PrivateKey-… and 64 hex digits with 0x or 0X, as the wallet does', () => {
    const hex = 'ab'.repeat(32);
    for (const key of [hex, `0x${hex}`, `0X${hex.toUpperCase()}`, ` PrivateKey-ewoqjP7PxY4yr3iLTpLisriqt94hdyDFNgchSxGGztUrTXtNN `]) expect(checkPrivateKey(key).ok, key).toBe(true);
    for (const key of ['', `0x${hex}0`, `0y${hex}`, 'PrivateKey-0OIl']) expect(checkPrivateKey(key).ok, key).toBe(false);
  });
});

describe('NFT payloads', () => {
  it('encodes text, compact JSON and links as UTF-8 hex', () => {
    expect(encodePayload('text', 'hé')).toEqual({ ok: true, value: '68c3a9' });
    expect(encodePayload('json', '{ "a": 1 }')).toEqual({ ok: true, value: '7b2261223a317d' });
    expect(encodePayload('json', '{a:1}')).toEqual({ ok: false, error: 'This is not valid JSON' });
    expect(encodePayload('url', ['javascript', 'alert(1)'].join(':'))).toEqual({ ok: false, error: 'Only http:// and https:// links' });
    expect(encodePayload('url', 'https://example.org/a.png').ok).toBe(true);
    expect(encodePayload('text', 'x'.repeat(1025)).ok).toBe(false);
  });

  it('compacts JSON without rewriting it: big numbers, repeated and numeric keys, escapes and spaces in strings stay as typed', () => {
    const typed = '{\n  "id": 123456789012345678901234567890,\n  "b": 1, "2": 1.50, "b": "x y\\" \\u00e9"\n}';
    const signed = '{"id":123456789012345678901234567890,"b":1,"2":1.50,"b":"x y\\" \\u00e9"}';
    expect(encodePayload('json', typed)).toEqual({ ok: true, value: Buffer.from(signed).toString('hex') });
    // What parsing loses is shown as written; what it keeps is shown indented, escapes read.
    expect(jsonShown(typed)).toBe(signed);
    expect(jsonShown('{ "a": "\\u00e9", "n": [1, 2] }')).toBe('{\n  "a": "é",\n  "n": [\n    1,\n    2\n  ]\n}');
  });

  it('decodes a stored payload for display: link, JSON, text, or else its hex', () => {
    const hex = (text: string) => encodePayload('text', text);
    const of = (text: string) => decodePayload((hex(text) as { value: string }).value);
    expect(of('https://example.org/a.png')).toEqual({ kind: 'url', text: 'https://example.org/a.png' });
    expect(of('{"a":1}')).toEqual({ kind: 'json', text: '{"a":1}' });
    expect(of('[1,2')).toEqual({ kind: 'text', text: '[1,2' });
    expect(of('hé\nthere')).toEqual({ kind: 'text', text: 'hé\nthere' });
    expect(of(['javascript', 'alert(1)'].join(':'))).toEqual({ kind: 'text', text: ['javascript', 'alert(1)'].join(':') });
    // Not UTF-8, control characters, nothing at all: shown as bytes.
    expect(decodePayload('c328')).toEqual({ kind: 'bytes', text: 'c328' });
    expect(decodePayload('6100')).toEqual({ kind: 'bytes', text: '6100' });
    expect(decodePayload('1b5b')).toEqual({ kind: 'bytes', text: '1b5b' });
    expect(decodePayload('')).toEqual({ kind: 'bytes', text: '' });
  });
});

describe('formatting', () => {
  it('groups thousands and keeps every decimal', () => {
    expect(formatUnits('1234567000000001', 9)).toBe('1,234,567.000000001');
    expect(formatValue(1500000000000000000n, 18, 'AVAX')).toBe('1.5 AVAX');
    expect(formatUnits('0', 9)).toBe('0');
  });
  it('says how long ago', () => {
    const now = 1_000_000_000;
    expect(formatAgo(now - 2000, now)).toBe('just now');
    expect(formatAgo(now - 42_000, now)).toBe('42 s ago');
    expect(formatAgo(now - 3 * 60_000, now)).toBe('3 min ago');
    expect(formatAgo(now - 2 * 3_600_000, now)).toBe('2 h ago');
  });
  it('shortens IDs keeping both ends', () => {
    expect(shortenId('2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe')).toBe('2fombhL7aG…JyFDbe');
  });
  it('spots look-alike AVAX names', () => {
    expect(looksLikeAvax('AVAX')).toBe(true);
    expect(looksLikeAvax('Ava x')).toBe(true);
    expect(looksLikeAvax('АVAХ')).toBe(true);
    expect(looksLikeAvax('GOLD')).toBe(false);
  });
});

describe('roundAmount (display only: the exact value stays one click away)', () => {
  it('rounds down and marks it, never showing more than there is; says "<" for dust; leaves exact amounts alone', () => {
    expect(roundAmount(12_000_000_001n, 9)).toEqual({ text: '≈ 12', exact: '12.000000001', rounded: true });
    expect(roundAmount(1_999_999_999n, 9)).toEqual({ text: '≈ 1.999999', exact: '1.999999999', rounded: true });
    expect(roundAmount(63_000n, 18)).toEqual({ text: '< 0.000001', exact: '0.000000000000063', rounded: true });
    expect(roundAmount(1_500_000n, 9)).toEqual({ text: '0.0015', exact: '0.0015', rounded: false });
    expect(roundAmount(123_456n, 2)).toEqual({ text: '1,234.56', exact: '1,234.56', rounded: false });
    expect(roundAmount(0n, 18)).toEqual({ text: '0', exact: '0', rounded: false });
    expect(roundAmount(123_456_789n, 9, 9)).toEqual({ text: '0.123456789', exact: '0.123456789', rounded: false });
  });

  it('rounds a ceiling up, so "at most" is never below the real limit', () => {
    expect(roundAmount(577_500_000_000_000n, 18, 6, true)).toEqual({ text: '0.000578', exact: '0.0005775', rounded: true });
    expect(roundAmount(63_000n, 18, 6, true)).toEqual({ text: '0.000001', exact: '0.000000000000063', rounded: true });
    expect(roundAmount(1_000_000_000_000n, 18, 6, true)).toEqual({ text: '0.000001', exact: '0.000001', rounded: false });
  });
});

describe('name checks', () => {
  it('take what the background takes, counted the same way (an emoji is 2 of its 64)', () => {
    const accepted = (name: string) => {
      try {
        REQUEST_VALIDATORS['accounts.add']({ name });
        return true;
      } catch {
        return false;
      }
    };
    for (const name of ['🦊'.repeat(32), '🦊'.repeat(33), '🦊'.repeat(40), 'a'.repeat(64), 'a'.repeat(65), 'tab\there', 'Savings']) {
      expect(checkName(name).ok).toBe(accepted(name));
    }
    expect(checkName('🦊'.repeat(40))).toEqual({ ok: false, error: 'Must be at most 64 characters' });
    expect(checkName('  ', 'an account name')).toEqual({ ok: false, error: 'Enter an account name' });
  });

  it("refuses another account's name as the user types, however it is cased or spaced", () => {
    const taken = ['Account 1', 'Savings'];
    expect(checkName('savings ', 'an account name', taken)).toEqual({ ok: false, error: 'Another account is named “Savings”: choose another name' });
    expect(checkName('Account  1', 'an account name', taken).ok).toBe(false);
    // Nor by a character that shows nothing (a zero-width space, a soft hyphen, a grapheme joiner before an accent).
    expect(checkName('Sav\u200bings', 'an account name', taken).ok).toBe(false);
    expect(checkName('Sav\u00adings', 'an account name', taken).ok).toBe(false);
    expect(checkName('Cafe\u034f\u0301', 'an account name', ['Café']).ok).toBe(false);
    // What emoji are made of does make another name: two flags, a family and its members apart, a private-use sign.
    expect(checkName('\u{1f3f4}\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f} Savings', 'an account name', ['\u{1f3f4}\u{e0067}\u{e0062}\u{e0065}\u{e006e}\u{e0067}\u{e007f} Savings']).ok).toBe(true);
    expect(checkName('👨\u200d👩\u200d👧', 'an account name', ['👨👩👧']).ok).toBe(true);
    expect(checkName('\uf8ff Work', 'an account name', ['Work']).ok).toBe(true);
    expect(checkName('Account 2', 'an account name', taken)).toEqual({ ok: true, value: 'Account 2' });
  });

  it('refuses a name that shows nothing, or whose text a bidi control could show as another', () => {
    expect(checkName('\u200b\u2800', 'an account name')).toEqual({ ok: false, error: 'Must not be blank' });
    expect(checkName('\u202esgnivaS', 'an account name')).toEqual({ ok: false, error: 'Must not contain characters that reverse the direction of the text' });
    expect(checkName('حساب التوفير', 'an account name').ok).toBe(true);
  });
});

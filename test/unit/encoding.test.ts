import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { bech32, bech32m } from 'bech32';
import { fromHex, toHex } from '../../src/core/bytes.js';
import {
  bech32Decode,
  bech32Encode,
  cb58Decode,
  cb58Encode,
  formatAddress,
  formatNodeId,
  formatPrivateKey,
  fromApiHex,
  parseAddress,
  parseAddressFor,
  parseHexnc,
  parseId,
  parseNodeId,
  parsePrivateKey,
  toApiHex,
  toHexnc,
} from '../../src/core/encoding.js';
import { FormatError } from '../../src/core/errors.js';

const EWOQ_SHORT_ID = '3cb7d3842e8cee6a0ebd09f1fe884f6861e1b29c';
const EWOQ_BODY = '18jma8ppw3nhx5r4ap8clazz0dps7rv5';

/** Replaces the character at `i` with another one from the same alphabet. */
function mutate(text: string, i: number, alphabet: string): string {
  const c = text[i]!;
  const replacement = alphabet[(alphabet.indexOf(c) + 1) % alphabet.length]!;
  return text.slice(0, i) + replacement + text.slice(i + 1);
}
const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';

describe('CB58', () => {
  it('encodes 32 zero bytes (the P-Chain ID) as §2 says', () => {
    expect(cb58Encode(new Uint8Array(32))).toBe('11111111111111111111111111111111LpoYY');
    expect(toHex(parseId('11111111111111111111111111111111LpoYY'))).toBe('00'.repeat(32));
  });

  it('encodes the ewoq short ID (§10.1)', () => {
    expect(cb58Encode(fromHex(EWOQ_SHORT_ID))).toBe('6Y3kysjF9jnHnYkdS9yGAuoHyae2eNmeV');
    expect(toHex(parseId('6Y3kysjF9jnHnYkdS9yGAuoHyae2eNmeV', 20))).toBe(EWOQ_SHORT_ID);
  });

  it('parses the well-known 32-byte IDs of §9', () => {
    for (const id of [
      '2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM',
      'FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z',
      'U8iRqJoiJm8xZHAacmvYyZVwqQx6uDNtQeP3CQ6fcgQk3JqnK',
    ]) {
      expect(cb58Encode(parseId(id))).toBe(id);
    }
    // the secp256k1fx ID is the ASCII name zero-padded to 32 bytes
    const fx = parseId('spdxUxVJQbX85MGxMHbKw1sHxMnSqJ3QBzDyDYEP3h6TLuxqQ');
    expect(new TextDecoder().decode(fx.subarray(0, 11))).toBe('secp256k1fx');
    expect(toHex(fx.subarray(11))).toBe('00'.repeat(21));
  });

  it('round-trips any payload, including leading zero bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), (bytes) => {
        expect(toHex(cb58Decode(cb58Encode(bytes)))).toBe(toHex(bytes));
      }),
    );
  });

  it('rejects a bad checksum, invalid characters, short input and the wrong length', () => {
    const good = '6Y3kysjF9jnHnYkdS9yGAuoHyae2eNmeV';
    for (let i = 0; i < good.length; i += 5) {
      expect(() => cb58Decode(mutate(good, i, BASE58))).toThrow(FormatError);
    }
    expect(() => cb58Decode('6Y3kysjF9jnHnYkdS9yGAuoHyae2eNme0')).toThrow(/base58/); // 0 is not base58
    expect(() => cb58Decode('6Y3kysjF9jnHnYkdS9yGAuoHyae2eNmeI')).toThrow(/base58/);
    expect(() => cb58Decode('')).toThrow(/too short/);
    expect(() => cb58Decode('1')).toThrow(/too short/);
    expect(() => parseId(good)).toThrow(/32-byte ID, got 20/);
  });
});

describe('API hex', () => {
  it('appends the 4-byte checksum for "hex" (§10.3)', () => {
    expect(toApiHex(fromHex('000102'))).toBe('0x000102b85b53fc');
    expect(toHex(fromApiHex('0x000102b85b53fc'))).toBe('000102');
    expect(toHex(fromApiHex(toApiHex(new Uint8Array())))).toBe('');
  });

  it('rejects a wrong checksum and malformed hex', () => {
    expect(() => fromApiHex('0x000102b85b53fd')).toThrow(/checksum/);
    expect(() => fromApiHex('0x010102b85b53fc')).toThrow(/checksum/);
    expect(() => fromApiHex('000102b85b53fc')).toThrow(FormatError); // no 0x
    expect(() => fromApiHex('0x000102b85b53f')).toThrow(FormatError); // odd length
    expect(() => fromApiHex('0x0001')).toThrow(/too short/);
    expect(() => fromApiHex('0xzz0102b85b53fc')).toThrow(FormatError);
  });

  it('"hexnc" is plain 0x hex', () => {
    expect(toHexnc(fromHex('000102'))).toBe('0x000102');
    expect(toHex(parseHexnc('0x00AbFF'))).toBe('00abff');
    expect(toHex(parseHexnc('0x'))).toBe('');
    expect(() => parseHexnc('00abff')).toThrow(FormatError);
    expect(() => parseHexnc('0x0')).toThrow(FormatError);
  });
});

describe('bech32 chain addresses', () => {
  const shortId = fromHex(EWOQ_SHORT_ID);

  it('formats the §10.1 addresses for every HRP', () => {
    expect(bech32Encode('avax', shortId)).toBe(`avax${EWOQ_BODY}ukulre5`);
    expect(formatAddress('X', 'avax', shortId)).toBe(`X-avax${EWOQ_BODY}ukulre5`);
    expect(formatAddress('P', 'fuji', shortId)).toBe(`P-fuji${EWOQ_BODY}u6wmu4t`);
    expect(formatAddress('C', 'local', shortId)).toBe(`C-local${EWOQ_BODY}u00z96u`);
    expect(formatAddress('X', 'custom', shortId)).toBe(`X-custom${EWOQ_BODY}u9xde7p`);
  });

  it('parses them back, splitting on the first dash only', () => {
    for (const [text, chain, hrp] of [
      [`X-avax${EWOQ_BODY}ukulre5`, 'X', 'avax'],
      [`P-fuji${EWOQ_BODY}u6wmu4t`, 'P', 'fuji'],
      [`C-local${EWOQ_BODY}u00z96u`, 'C', 'local'],
      [`X-custom${EWOQ_BODY}u9xde7p`, 'X', 'custom'],
    ] as const) {
      const parsed = parseAddress(text);
      expect(parsed.chain).toBe(chain);
      expect(parsed.hrp).toBe(hrp);
      expect(toHex(parsed.bytes)).toBe(EWOQ_SHORT_ID);
    }
    // an HRP may itself contain a dash; only the first one separates the chain alias
    const dashed = `X-${bech32Encode('my-net', shortId)}`;
    expect(parseAddress(dashed).hrp).toBe('my-net');
  });

  it('accepts an all-upper-case body, as bech32 allows', () => {
    expect(toHex(bech32Decode(`AVAX${EWOQ_BODY.toUpperCase()}UKULRE5`).bytes)).toBe(EWOQ_SHORT_ID);
  });

  it('rejects a typo, mixed case, Bech32m, a missing chain and the wrong payload length', () => {
    const good = `avax${EWOQ_BODY}ukulre5`;
    for (let i = 5; i < good.length; i += 4) {
      expect(() => bech32Decode(mutate(good, i, BECH32))).toThrow(FormatError);
    }
    expect(() => bech32Decode(`avax${EWOQ_BODY}ukulrE5`)).toThrow(FormatError);
    expect(() => bech32Decode(bech32m.encode('avax', bech32m.toWords(shortId)))).toThrow(FormatError);
    expect(() => bech32Decode(bech32.encode('avax', bech32.toWords(new Uint8Array(32))))).toThrow(/20 bytes/);
    expect(() => parseAddress(good)).toThrow(/X-<hrp>/);
    expect(() => parseAddress(`-${good}`)).toThrow(FormatError);
  });

  it('parseAddressFor names a wrong chain or network', () => {
    expect(toHex(parseAddressFor(` X-fuji${EWOQ_BODY}u6wmu4t `, 'X', 'fuji'))).toBe(EWOQ_SHORT_ID);
    expect(() => parseAddressFor(`P-fuji${EWOQ_BODY}u6wmu4t`, 'X', 'fuji')).toThrow(/P-Chain address/);
    expect(() => parseAddressFor(`X-avax${EWOQ_BODY}ukulre5`, 'X', 'fuji')).toThrow(/"avax" network/);
  });
});

describe('private keys and node IDs', () => {
  const raw = '56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027';
  const text = 'PrivateKey-ewoqjP7PxY4yr3iLTpLisriqt94hdyDFNgchSxGGztUrTXtNN';

  it('formats and parses PrivateKey- (§10.1)', () => {
    expect(formatPrivateKey(fromHex(raw))).toBe(text);
    expect(toHex(parsePrivateKey(text))).toBe(raw);
  });

  it('rejects a missing prefix, a bad checksum and the wrong length', () => {
    expect(() => parsePrivateKey(text.slice('PrivateKey-'.length))).toThrow(/PrivateKey-/);
    expect(() => parsePrivateKey(mutate(text, 20, BASE58))).toThrow(FormatError);
    expect(() => parsePrivateKey('PrivateKey-' + cb58Encode(new Uint8Array(33)))).toThrow(/32 bytes/);
  });

  it('round-trips NodeID- and checks its length', () => {
    const id = fromHex(EWOQ_SHORT_ID);
    const text = formatNodeId(id);
    expect(text).toBe('NodeID-6Y3kysjF9jnHnYkdS9yGAuoHyae2eNmeV');
    expect(toHex(parseNodeId(text))).toBe(EWOQ_SHORT_ID);
    expect(() => parseNodeId('6Y3kysjF9jnHnYkdS9yGAuoHyae2eNmeV')).toThrow(/NodeID-/);
    expect(() => parseNodeId('NodeID-' + cb58Encode(new Uint8Array(32)))).toThrow(FormatError);
    expect(() => formatNodeId(new Uint8Array(32))).toThrow(FormatError);
  });
});

// The fast ways UTXOs are read: hex by character pairs (bytes.ts), the TransferOutput fast path
// (codec/utxo-fast.ts) and the page reader (node/utxo-reader.ts). Each must agree exactly with
// the plain, strict way on every input: same values, same refusals.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sha256 } from '@noble/hashes/sha2.js';
import { fromHex, hexInto, toHex } from '../../src/core/bytes.js';
import { decodeUtxoFields } from '../../src/core/codec/codec.js';
import { encodeUtxo, IdTable, type Utxo } from '../../src/core/codec/index.js';
import { decodeTransferUtxo } from '../../src/core/codec/utxo-fast.js';
import { fromApiHexWithDigest, toApiHex } from '../../src/core/encoding.js';
import { CodecError, FormatError } from '../../src/core/errors.js';
import { UtxoReader } from '../../src/core/node/utxo-reader.js';
import { VMS } from './codec-gen-common.js';
import { arbUtxo } from './codec-generators.js';

/** What decoding threw, by class and message, or the value: for comparing two decoders. */
function outcome(decode: () => Utxo): { value?: Utxo; error?: string } {
  try {
    return { value: decode() };
  } catch (e) {
    return { error: `${(e as Error).constructor.name}: ${(e as Error).message}` };
  }
}

describe('hex by character pairs', () => {
  it('reads every byte value from lower, upper and mixed case', () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    const lower = toHex(all);
    expect(fromHex(lower)).toEqual(all);
    expect(fromHex('0x' + lower.toUpperCase())).toEqual(all);
    expect(fromHex(lower.replace(/[a-f]/g, (c, i: number) => (i % 3 === 0 ? c.toUpperCase() : c)))).toEqual(all);
  });

  it('refuses any character that is not a hex digit, naming the pair where it is', () => {
    // Including characters whose low 7 bits are a digit's (°, İ, fullwidth ａ) and a lone surrogate.
    for (const bad of ['g', 'G', ' ', 'z', '\u00b0', '\u0130', '\uff41', '\ud800', '\u0000']) {
      for (const at of [0, 1, 6, 7]) {
        const text = '00112233'.slice(0, at) + bad + '00112233'.slice(at + 1);
        expect(() => fromHex(text), `${JSON.stringify(bad)} at ${at}`).toThrow(`invalid hex character at ${at - (at % 2)}`);
        expect(hexInto(text, 0, new Uint8Array(4), 0, 4)).toBe(at - (at % 2));
      }
    }
    expect(() => fromHex('abc')).toThrow(/odd length/);
  });

  it('reads long texts (past its 4 KB working buffer) and parts of texts, and names a bad character anywhere', () => {
    const bytes = Uint8Array.from({ length: 10_000 }, (_, i) => (i * 37) & 255);
    const hex = toHex(bytes);
    expect(fromHex('0x' + hex)).toEqual(bytes);
    const part = new Uint8Array(3_000);
    expect(hexInto('zz' + hex + 'zz', 2 + 2 * 1_000, part, 0, 3_000)).toBe(-1);
    expect(part).toEqual(bytes.subarray(1_000, 4_000));
    for (const at of [0, 4_095, 4_096, 9_001, 19_999]) {
      for (const bad of ['g', '\u00e9', '\ud83d']) {
        const text = hex.slice(0, at) + bad + hex.slice(at + 1);
        expect(() => fromHex(text), `${JSON.stringify(bad)} at ${at}`).toThrow(`invalid hex character at ${at - (at % 2)}`);
      }
    }
  });

  it('matches the bytes of any hex text', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), (bytes) => {
        expect(fromHex(toHex(bytes))).toEqual(bytes);
        expect(fromHex(Buffer.from(bytes).toString('hex').toUpperCase())).toEqual(bytes);
      }),
    );
  });
});

describe('the TransferOutput fast path', () => {
  it.each(VMS)('%s: gives what the field-by-field reader gives, for any UTXO and any damage to it', (vm) => {
    const damaged = arbUtxo(vm).chain((utxo) => {
      const bytes = encodeUtxo(utxo, vm);
      return fc.oneof(
        fc.constant(bytes),
        fc.nat(bytes.length).map((n) => bytes.subarray(0, n)),
        fc.uint8Array({ minLength: 1, maxLength: 24 }).map((tail) => Uint8Array.from([...bytes, ...tail])),
        fc.tuple(fc.nat(bytes.length - 1), fc.integer({ min: 0, max: 7 })).map(([at, bit]) => bytes.map((b, i) => (i === at ? b ^ (1 << bit) : b))),
      );
    });
    fc.assert(
      fc.property(damaged, (bytes) => {
        const strict = outcome(() => decodeUtxoFields(bytes, vm));
        const fast = decodeTransferUtxo(bytes, new IdTable());
        // The fast path either declines or gives exactly the strict value.
        if (fast) expect(fast).toStrictEqual(strict.value);
        if (strict.value?.output.kind === 'TransferOutput') expect(fast).toBeDefined();
      }),
      { numRuns: 400 },
    );
  });

  it('reads amounts and locktimes over the whole u64 range exactly', () => {
    for (const amount of [1n, 2n ** 32n - 1n, 2n ** 32n, 2n ** 53n - 1n, 2n ** 53n, 2n ** 53n + 1n, 2n ** 64n - 1n]) {
      const utxo: Utxo = {
        txID: sha256(Uint8Array.of(1)),
        outputIndex: 0xffffffff,
        assetID: sha256(Uint8Array.of(2)),
        output: { kind: 'TransferOutput', amount, owners: { locktime: amount - 1n, threshold: 1, addresses: [new Uint8Array(20).fill(9)] } },
      };
      expect(decodeTransferUtxo(encodeUtxo(utxo, 'avm'))).toStrictEqual(utxo);
    }
  });
});

describe('UtxoReader', () => {
  const utxosOf = (n: number, assets: number): Utxo[] =>
    Array.from({ length: n }, (_, i) => ({
      txID: sha256(Uint8Array.of(i & 255, i >> 8)),
      outputIndex: i % 3,
      assetID: sha256(Uint8Array.of(200 + (i % assets))),
      output: { kind: 'TransferOutput' as const, amount: BigInt(1_000 + i), owners: { locktime: 0n, threshold: 1, addresses: [sha256(Uint8Array.of(i % 7)).subarray(0, 20)] } },
    }));

  it('reads what fromApiHex and the strict decoder read, over many buffers, every value intact', () => {
    const utxos = utxosOf(1500, 3);
    const reader = new UtxoReader('avm');
    const read = utxos.map((u) => reader.read(toApiHex(encodeUtxo(u, 'avm'))));
    read.forEach((r, i) => {
      const plain = fromApiHexWithDigest(toApiHex(encodeUtxo(utxos[i]!, 'avm')));
      expect(r.utxo).toStrictEqual(utxos[i]);
      expect(toHex(r.bytes)).toBe(toHex(plain.bytes));
      expect(toHex(r.digest)).toBe(toHex(plain.digest));
    });
  });

  it('keeps one array for equal asset IDs and addresses, apart for different ones', () => {
    const reader = new UtxoReader('avm');
    const [a, b, c] = utxosOf(3, 2).map((u) => reader.read(toApiHex(encodeUtxo(u, 'avm'))).utxo);
    expect(a!.assetID).toBe(c!.assetID);
    expect(a!.assetID).not.toBe(b!.assetID);
    expect(a!.output.kind === 'TransferOutput' && b!.output.kind === 'TransferOutput' && a!.output.owners.addresses[0] !== b!.output.owners.addresses[0]).toBe(true);
  });

  it('values that share their first bytes are kept apart and read right, however many', () => {
    const reader = new UtxoReader('avm');
    const base = utxosOf(1, 1)[0]!;
    const lookalikes = Array.from({ length: 9 }, (_, i) => {
      const assetID = new Uint8Array(32).fill(0xab);
      assetID[31] = i;
      return { ...base, assetID };
    });
    for (const u of lookalikes) expect(reader.read(toApiHex(encodeUtxo(u, 'avm'))).utxo.assetID).toEqual(u.assetID);
  });

  it('reads other outputs (NFTs, stakeable locks) by the strict decoder', () => {
    fc.assert(
      fc.property(fc.constantFrom(...VMS).chain((vm) => fc.tuple(fc.constant(vm), fc.array(arbUtxo(vm), { maxLength: 5 }))), ([vm, utxos]) => {
        const reader = new UtxoReader(vm);
        for (const u of utxos) expect(reader.read(toApiHex(encodeUtxo(u, vm))).utxo).toStrictEqual(u);
      }),
      { numRuns: 100 },
    );
  });

  it('refuses as fromApiHex does, and reads on unharmed after a refusal', () => {
    const reader = new UtxoReader('avm');
    const [first, second] = utxosOf(2, 1);
    const good = reader.read(toApiHex(encodeUtxo(first!, 'avm')));
    const text = toApiHex(encodeUtxo(second!, 'avm'));
    for (const bad of ['', '0x', '0x00', 'ab' + text.slice(2), text.slice(0, -1), text.slice(0, 40) + 'zz' + text.slice(42)]) {
      const plain = outcome(() => fromApiHexWithDigest(bad) as unknown as Utxo);
      expect(() => reader.read(bad)).toThrow(FormatError);
      expect(() => reader.read(bad)).toThrow(plain.error!.replace(/^\w+: /, ''));
    }
    const flipped = text.slice(0, -1) + (text.endsWith('0') ? '1' : '0');
    expect(() => reader.read(flipped)).toThrow('hex checksum mismatch');
    expect(() => reader.read(toApiHex(Uint8Array.of(0, 0, 1)))).toThrow(CodecError);
    expect(reader.read(text).utxo).toStrictEqual(second);
    expect(good.utxo).toStrictEqual(first);
  });
});

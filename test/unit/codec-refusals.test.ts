// The codec's strictness: every malformed input (unknown types, misplaced stakeable locks, trailing
// bytes, truncations, bad counts, versions and UTF-8) is refused with a CodecError that says where.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { type Bytes, concatBytes, toHex } from '../../src/core/bytes.js';
import {
  decodeChainTx,
  decodeSignedTx,
  decodeUnsignedTx,
  decodeUtxo,
  encodeSignedTx,
  encodeUnsignedTx,
  encodeUtxo,
  type PBaseTx,
  type UnsignedTx,
  type Utxo,
  type Vm,
  type XCreateAssetTx,
} from '../../src/core/codec/index.js';
import { CodecError, ValidationError } from '../../src/core/errors.js';
import { VMS } from './codec-gen-common.js';
import { arbXBaseTx } from './codec-gen-x.js';
import { arbPBaseTx } from './codec-gen-p.js';
import { arbCExportTx, arbCImportTx } from './codec-gen-c.js';
import { arbSignedTx, arbUtxo, expectCodecError } from './codec-generators.js';
import { ADDR, createAsset, emptyXBase, ID_A, ID_B } from './codec-fixtures.js';

const u32 = (n: number): Bytes => {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, n);
  return b;
};
const u64 = (n: bigint): Bytes => {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, n);
  return b;
};

const withU32At = (bytes: Bytes, at: number, value: number): Bytes => {
  const out = bytes.slice();
  new DataView(out.buffer).setUint32(at, value);
  return out;
};

describe('refusals', () => {
  it('unknown transaction type IDs', () => {
    const body = new Uint8Array(200);
    const cases: [Vm, number][] = [
      ['avm', 5],
      ['avm', 34],
      ['avm', 0xffffffff],
      ['pvm', 0],
      ['pvm', 3],
      ['pvm', 7],
      ['pvm', 43],
      ['evm', 2],
      ['evm', 34],
    ];
    for (const [vm, typeId] of cases) {
      const bytes = concatBytes(new Uint8Array(2), u32(typeId), body);
      for (const decode of [decodeUnsignedTx, decodeSignedTx]) {
        const e = expectCodecError(() => decode(bytes, vm), bytes.length);
        expect(e.offset).toBe(2);
        expect(e.message).toContain(String(typeId));
      }
    }
  });

  it('P-Chain block-builder transaction types are named and refused by the wallet decoders (decodeChainTx reads them)', () => {
    for (const [typeId, name, body] of [
      [19, 'AdvanceTimeTx', 8],
      [20, 'RewardValidatorTx', 32],
      [42, 'RewardAutoRenewedValidatorTx', 40],
    ] as const) {
      const unsigned = concatBytes(new Uint8Array(2), u32(typeId), new Uint8Array(body));
      const e = expectCodecError(() => decodeUnsignedTx(unsigned, 'pvm'), unsigned.length);
      expect(e.message).toContain(`P-Chain transaction type ${typeId} (${name}) is issued by the block builder`);
      expect(e.offset).toBe(2);
      const signed = concatBytes(unsigned, u32(0));
      expect(expectCodecError(() => decodeSignedTx(signed, 'pvm'), signed.length).offset).toBe(2);
      expect(decodeChainTx(signed, 'pvm').unsigned.kind).toBe(name);
    }
  });

  const lockedUtxo: Utxo = {
    txID: ID_A,
    outputIndex: 3,
    assetID: ID_B,
    output: {
      kind: 'StakeableLockOut',
      locktime: 1_700_000_000n,
      output: { kind: 'TransferOutput', amount: 5n, owners: { locktime: 0n, threshold: 1, addresses: [ADDR] } },
    },
  };
  const OUTPUT_TYPE_AT = 2 + 32 + 4 + 32; // version, txID, outputIndex, assetID

  it('a StakeableLockOut or StakeableLockIn outside the P-Chain', () => {
    expect(() => encodeUtxo(lockedUtxo, 'avm')).toThrow(ValidationError);
    expect(() => encodeUtxo(lockedUtxo, 'evm')).toThrow(ValidationError);
    const bytes = encodeUtxo(lockedUtxo, 'pvm');
    expect(toHex(bytes.subarray(OUTPUT_TYPE_AT, OUTPUT_TYPE_AT + 4))).toBe('00000016');
    for (const vm of ['avm', 'evm'] as const) {
      const e = expectCodecError(() => decodeUtxo(bytes, vm), bytes.length);
      expect(e.offset).toBe(OUTPUT_TYPE_AT);
    }
    // A P-Chain BaseTx holding a locked output and a locked input, relabelled as an X BaseTx (0).
    const pTx: PBaseTx = {
      vm: 'pvm',
      kind: 'BaseTx',
      networkID: 1,
      blockchainID: ID_A,
      outputs: [{ assetID: ID_B, output: lockedUtxo.output }],
      inputs: [],
      memo: new Uint8Array(),
    };
    const asX = withU32At(encodeUnsignedTx(pTx), 2, 0);
    const TX_OUTPUT_TYPE_AT = 2 + 4 + 4 + 32 + 4 + 32;
    expect(expectCodecError(() => decodeUnsignedTx(asX, 'avm'), asX.length).offset).toBe(TX_OUTPUT_TYPE_AT);
    const pIn: PBaseTx = {
      ...pTx,
      outputs: [],
      inputs: [{ txID: ID_A, outputIndex: 0, assetID: ID_B, input: { kind: 'StakeableLockIn', locktime: 9n, input: { kind: 'TransferInput', amount: 5n, sigIndices: [0] } } }],
    };
    const inAsX = withU32At(encodeUnsignedTx(pIn), 2, 0);
    const TX_INPUT_TYPE_AT = 2 + 4 + 4 + 32 + 4 + 4 + 32 + 4 + 32;
    expect(expectCodecError(() => decodeUnsignedTx(inAsX, 'avm'), inAsX.length).offset).toBe(TX_INPUT_TYPE_AT);
    expect(decodeUnsignedTx(encodeUnsignedTx(pIn), 'pvm')).toStrictEqual(pIn);
  });

  it('a stakeable lock nested in another', () => {
    const bytes = encodeUtxo(lockedUtxo, 'pvm');
    const inner = OUTPUT_TYPE_AT + 4 + 8;
    const nested = concatBytes(bytes.subarray(0, inner), u32(22), u64(5n), bytes.subarray(inner));
    const e = expectCodecError(() => decodeUtxo(nested, 'pvm'), nested.length);
    expect(e.offset).toBe(inner);

    const pIn: PBaseTx = {
      vm: 'pvm',
      kind: 'BaseTx',
      networkID: 1,
      blockchainID: ID_A,
      outputs: [],
      inputs: [{ txID: ID_A, outputIndex: 0, assetID: ID_B, input: { kind: 'StakeableLockIn', locktime: 9n, input: { kind: 'TransferInput', amount: 5n, sigIndices: [0] } } }],
      memo: new Uint8Array(),
    };
    const txBytes = encodeUnsignedTx(pIn);
    const inputType = 2 + 4 + 4 + 32 + 4 + 4 + 32 + 4 + 32;
    expect(toHex(txBytes.subarray(inputType, inputType + 4))).toBe('00000015');
    const innerIn = inputType + 4 + 8;
    const nestedIn = concatBytes(txBytes.subarray(0, innerIn), u32(21), u64(9n), txBytes.subarray(innerIn));
    expect(expectCodecError(() => decodeUnsignedTx(nestedIn, 'pvm'), nestedIn.length).offset).toBe(innerIn);
  });

  it('a trailing byte after a tx, a signed tx or a UTXO', () => {
    fc.assert(
      fc.property(fc.constantFrom(...VMS).chain((vm) => fc.tuple(fc.constant(vm), arbSignedTx(vm), arbUtxo(vm))), fc.integer({ min: 0, max: 255 }), ([vm, signed, utxo], extra) => {
        const cases: [Bytes, (b: Bytes, vm: Vm) => unknown][] = [
          [encodeUnsignedTx(signed.unsigned), decodeUnsignedTx],
          [encodeSignedTx(signed), decodeSignedTx],
          [encodeUtxo(utxo, vm), decodeUtxo],
        ];
        for (const [bytes, decode] of cases) {
          const longer = concatBytes(bytes, Uint8Array.of(extra));
          expect(expectCodecError(() => decode(longer, vm), longer.length).offset).toBe(bytes.length);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('a slice count larger than the bytes left, without allocating for it', () => {
    const sample = <T>(arb: fc.Arbitrary<T>): T => fc.sample(arb, { numRuns: 1, seed: 7 })[0]!;
    const cases: [string, Vm, Bytes, number, (b: Bytes, vm: Vm) => unknown][] = [];
    for (const [vm, arb] of [['avm', arbXBaseTx], ['pvm', arbPBaseTx]] as const) {
      const tx = sample(arb as fc.Arbitrary<UnsignedTx>);
      cases.push([`${vm} outputs`, vm, encodeUnsignedTx(tx), 42, decodeUnsignedTx]);
    }
    cases.push(['X memo', 'avm', encodeUnsignedTx(emptyXBase()), 50, decodeUnsignedTx]);
    cases.push(['C imported inputs', 'evm', encodeUnsignedTx(sample(arbCImportTx)), 74, decodeUnsignedTx]);
    cases.push(['C EVM inputs', 'evm', encodeUnsignedTx(sample(arbCExportTx)), 74, decodeUnsignedTx]);
    const signed = sample(arbSignedTx('pvm'));
    cases.push(['credentials', 'pvm', encodeSignedTx(signed), encodeUnsignedTx(signed.unsigned).length, decodeSignedTx]);
    const withSig = encodeSignedTx({ unsigned: emptyXBase(), credentials: [{ fx: 'secp', signatures: [new Uint8Array(65)] }] });
    // unsigned 54 bytes, then #creds (4), credential type ID (4), #signatures
    cases.push(['signatures', 'avm', withSig, 54 + 4 + 4, decodeSignedTx]);
    const nft: Utxo = { txID: ID_A, outputIndex: 0, assetID: ID_B, output: { kind: 'NftTransferOutput', groupID: 1, payload: Uint8Array.of(1, 2, 3), owners: { locktime: 0n, threshold: 0, addresses: [] } } };
    cases.push(['NFT payload', 'avm', encodeUtxo(nft, 'avm'), OUTPUT_TYPE_AT + 8, decodeUtxo]);
    cases.push(['owner addresses', 'avm', encodeUtxo({ ...nft, output: { kind: 'MintOutput', owners: { locktime: 0n, threshold: 1, addresses: [ADDR] } } }, 'avm'), OUTPUT_TYPE_AT + 4 + 12, decodeUtxo]);

    for (const [what, vm, bytes, at, decode] of cases) {
      // Sanity: the field really is a count we can move.
      expect(() => decode(bytes, vm), what).not.toThrow();
      for (const huge of [0xffffffff, 0x80000000, 0x7fffffff, 0x10000000, bytes.length]) {
        const bad = withU32At(bytes, at, huge);
        const started = performance.now();
        const e = expectCodecError(() => decode(bad, vm), bad.length);
        expect(performance.now() - started, `${what} ${huge}`).toBeLessThan(50);
        expect(e.offset, `${what} ${huge}`).toBe(at);
      }
    }
  });

  it('every truncation of a valid encoding', () => {
    fc.assert(
      fc.property(fc.constantFrom(...VMS).chain((vm) => fc.tuple(fc.constant(vm), arbSignedTx(vm), arbUtxo(vm))), ([vm, signed, utxo]) => {
        const cases: [Bytes, (b: Bytes, vm: Vm) => unknown][] = [
          [encodeUnsignedTx(signed.unsigned), decodeUnsignedTx],
          [encodeSignedTx(signed), decodeSignedTx],
          [encodeUtxo(utxo, vm), decodeUtxo],
        ];
        for (const [bytes, decode] of cases) {
          for (let n = 0; n < bytes.length; n++) {
            const prefix = bytes.subarray(0, n);
            const e = expectCodecError(() => decode(prefix, vm), n);
            expect(e.offset).toBeLessThanOrEqual(n);
          }
        }
      }),
      { numRuns: 30 },
    );
  });

  it('a codec version other than 0', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...VMS).chain((vm) => fc.tuple(fc.constant(vm), arbSignedTx(vm), arbUtxo(vm))),
        fc.integer({ min: 1, max: 0xffff }),
        ([vm, signed, utxo], version) => {
          const cases: [Bytes, (b: Bytes, vm: Vm) => unknown][] = [
            [encodeUnsignedTx(signed.unsigned), decodeUnsignedTx],
            [encodeSignedTx(signed), decodeSignedTx],
            [encodeUtxo(utxo, vm), decodeUtxo],
          ];
          for (const [bytes, decode] of cases) {
            const bad = bytes.slice();
            new DataView(bad.buffer).setUint16(0, version);
            const e = expectCodecError(() => decode(bad, vm), bad.length);
            expect(e.offset).toBe(0);
            expect(e.message).toContain('version');
          }
        },
      ),
      { numRuns: 100 },
    );
  });

  it('invalid UTF-8 in an asset name or symbol', () => {
    const tx = createAsset('ABC', 'XYZ');
    const bytes = encodeUnsignedTx(tx);
    const NAME_LEN_AT = 2 + 4 + 4 + 32 + 4 + 4 + 4; // version, type, network, chain, #outs, #ins, memo length
    expect(toHex(bytes.subarray(NAME_LEN_AT, NAME_LEN_AT + 5))).toBe('0003414243');
    const SYMBOL_LEN_AT = NAME_LEN_AT + 5;
    const invalid = [
      [0xff, 0xfe, 0xfd], // never valid in UTF-8
      [0xc0, 0x80, 0x41], // overlong NUL
      [0xed, 0xa0, 0x80], // UTF-16 surrogate half
      [0xe2, 0x82, 0x41], // truncated 3-byte sequence
      [0x41, 0x42, 0x80], // stray continuation byte
    ];
    for (const seq of invalid) {
      for (const at of [NAME_LEN_AT, SYMBOL_LEN_AT]) {
        const bad = bytes.slice();
        bad.set(seq, at + 2);
        const e = expectCodecError(() => decodeUnsignedTx(bad, 'avm'), bad.length);
        expect(e.message).toContain('UTF-8');
        expect(e.offset).toBeGreaterThanOrEqual(at);
        expect(e.offset).toBeLessThanOrEqual(at + 5);
      }
    }
    // The same bytes with valid 3-byte UTF-8 decode fine (the check is not "ASCII only").
    const ok = bytes.slice();
    ok.set([0xe2, 0x82, 0xac], NAME_LEN_AT + 2);
    expect((decodeUnsignedTx(ok, 'avm') as XCreateAssetTx).name).toBe('€');
  });
});

// Decoding errors are CodecErrors carrying the offset in their message too.
describe('CodecError', () => {
  it('carries a numeric offset and names it in the message', () => {
    const e = expectCodecError(() => decodeUtxo(Uint8Array.of(0, 0, 1), 'avm'), 3);
    expect(e).toBeInstanceOf(CodecError);
    expect(e.message).toMatch(/at byte \d+/);
  });
});

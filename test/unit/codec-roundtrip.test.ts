// Round-trip properties of the X/P/C codec (wire-format.md §1, §3–§6): every valid structure
// encodes, decodes back to itself and re-encodes to the same bytes; the sorting helpers give the
// consensus order; the size guard's counting writer matches the real one. Refusals of malformed
// input are in codec-refusals.test.ts.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { type Bytes, compareBytes, concatBytes, toHex } from '../../src/core/bytes.js';
import {
  appendCredentials,
  decodeSignedTx,
  decodeUnsignedTx,
  decodeUtxo,
  encodeOutput,
  encodeSignedTx,
  encodeUnsignedTx,
  unsignedTxLength,
  encodeUtxo,
  sortEvmInputs,
  sortEvmOutputs,
  sortOperations,
  sortOutputs,
  sortTransferableInputs,
  sortTransferableOutputs,
  type Operation,
  type SignedTx,
  type UnsignedTx,
  type Vm,
  type XCreateAssetTx,
  type XOperationTx,
} from '../../src/core/codec/index.js';
import { ByteCounter, ByteWriter } from '../../src/core/codec/io.js';
import { ValidationError } from '../../src/core/errors.js';
import { arbAddress, arbId, arbOutput, arbTransferableInputs, arbTransferableOutputs, arbU64, VMS } from './codec-gen-common.js';
import { arbOperation, arbXBaseTx, arbXCreateAssetTx, arbXExportTx, arbXImportTx, arbXOperationTx } from './codec-gen-x.js';
import { arbPBaseTx, arbPExportTx, arbPImportTx } from './codec-gen-p.js';
import { arbCExportTx, arbCImportTx } from './codec-gen-c.js';
import { arbCredentialsFor, arbUnsignedTx, arbUtxo } from './codec-generators.js';
import { createAsset, emptyXBase, ID_A, ID_B } from './codec-fixtures.js';

const TX_KINDS: [string, Vm, fc.Arbitrary<UnsignedTx>][] = [
  ['X BaseTx', 'avm', arbXBaseTx],
  ['X CreateAssetTx', 'avm', arbXCreateAssetTx()],
  ['X OperationTx', 'avm', arbXOperationTx()],
  ['X ImportTx', 'avm', arbXImportTx],
  ['X ExportTx', 'avm', arbXExportTx],
  ['P BaseTx', 'pvm', arbPBaseTx],
  ['P ImportTx', 'pvm', arbPImportTx],
  ['P ExportTx', 'pvm', arbPExportTx],
  ['C ImportTx', 'evm', arbCImportTx],
  ['C ExportTx', 'evm', arbCExportTx],
];

const withCredentials = (arb: fc.Arbitrary<UnsignedTx>): fc.Arbitrary<SignedTx> =>
  arb.chain((unsigned) => arbCredentialsFor(unsigned).map((credentials) => ({ unsigned, credentials })));

describe('encode → decode → encode', () => {
  describe.each(TX_KINDS)('%s', (_name, vm, arb) => {
    it('unsigned: decodes to the same structure and re-encodes byte for byte', () => {
      fc.assert(
        fc.property(arb, (tx) => {
          const bytes = encodeUnsignedTx(tx);
          // The size guard counts with the same encoder, writing nothing: it must agree to the byte.
          expect(unsignedTxLength(tx)).toBe(bytes.length);
          const decoded = decodeUnsignedTx(bytes, vm);
          expect(decoded).toStrictEqual(tx);
          expect(toHex(encodeUnsignedTx(decoded))).toBe(toHex(bytes));
        }),
        { numRuns: 100 },
      );
    });

    it('signed: same structure, unsignedLength = unsigned size, signed bytes start with the unsigned bytes', () => {
      fc.assert(
        fc.property(withCredentials(arb), (signed) => {
          const unsignedBytes = encodeUnsignedTx(signed.unsigned);
          const bytes = encodeSignedTx(signed);
          const decoded = decodeSignedTx(bytes, vm);
          expect(decoded.unsigned).toStrictEqual(signed.unsigned);
          expect(decoded.credentials).toStrictEqual(signed.credentials);
          expect(decoded.unsignedLength).toBe(unsignedBytes.length);
          expect(toHex(bytes.subarray(0, decoded.unsignedLength))).toBe(toHex(unsignedBytes));
          expect(toHex(encodeSignedTx(decoded))).toBe(toHex(bytes));
          expect(toHex(appendCredentials(unsignedBytes, vm, signed.credentials))).toBe(toHex(bytes));
          // Credentials: u32 count, then per credential typeID + u32 count + 65 bytes per signature.
          const credBytes = 4 + signed.credentials.reduce((n, c) => n + 8 + 65 * c.signatures.length, 0);
          expect(bytes.length).toBe(unsignedBytes.length + credBytes);
        }),
        { numRuns: 100 },
      );
    });
  });

  describe.each(VMS)('%s UTXOs', (vm) => {
    it('decode to the same UTXO and re-encode byte for byte', () => {
      fc.assert(
        fc.property(arbUtxo(vm), (utxo) => {
          const bytes = encodeUtxo(utxo, vm);
          const decoded = decodeUtxo(bytes, vm);
          expect(decoded).toStrictEqual(utxo);
          expect(toHex(encodeUtxo(decoded, vm))).toBe(toHex(bytes));
        }),
        { numRuns: 300 },
      );
    });
  });

  it('asset names and symbols with any Unicode text survive a round trip (including a leading BOM)', () => {
    const text = fc.string({ unit: 'binary', maxLength: 12 });
    fc.assert(
      fc.property(text, text, (name, symbol) => {
        const tx = createAsset(name, symbol);
        const bytes = encodeUnsignedTx(tx);
        expect(unsignedTxLength(tx)).toBe(bytes.length);
        const decoded = decodeUnsignedTx(bytes, 'avm') as XCreateAssetTx;
        expect(decoded.name).toBe(name);
        expect(decoded.symbol).toBe(symbol);
        expect(toHex(encodeUnsignedTx(decoded))).toBe(toHex(bytes));
      }),
      { numRuns: 100 },
    );
    // U+FEFF at the start is a character of the name, not a byte-order mark to drop.
    for (const name of ['\uFEFFAB', '\uFEFF', 'A\uFEFF']) {
      const bytes = encodeUnsignedTx(createAsset(name));
      const decoded = decodeUnsignedTx(bytes, 'avm') as XCreateAssetTx;
      expect(decoded.name).toBe(name);
      expect(toHex(encodeUnsignedTx(decoded))).toBe(toHex(bytes));
    }
  });
});

describe('sorting helpers give the consensus order (wire-format.md §4.7, §6.3)', () => {
  const isSortedBy = <T>(xs: T[], cmp: (a: T, b: T) => number, strict: boolean): boolean =>
    xs.every((x, i) => i === 0 || (strict ? cmp(xs[i - 1]!, x) < 0 : cmp(xs[i - 1]!, x) <= 0));
  const sameMultiset = (a: string[], b: string[]): boolean => JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());

  it.each(VMS)('%s transferable outputs: by asset ID, then by the output codec bytes', (vm) => {
    fc.assert(
      fc.property(arbTransferableOutputs(vm, { locked: true }).chain((xs) => fc.shuffledSubarray(xs, { minLength: xs.length })), (shuffled) => {
        const sorted = sortTransferableOutputs(shuffled, vm);
        const key = (o: (typeof shuffled)[number]): Bytes => concatBytes(o.assetID, encodeOutput(o.output, vm));
        expect(sameMultiset(sorted.map((o) => toHex(key(o))), shuffled.map((o) => toHex(key(o))))).toBe(true);
        expect(isSortedBy(sorted, (a, b) => compareBytes(key(a), key(b)), false)).toBe(true);
      }),
    );
  });

  it('outputs of one initial state: by codec bytes', () => {
    fc.assert(
      fc.property(fc.array(arbOutput('avm'), { maxLength: 5 }), (outs) => {
        const sorted = sortOutputs(outs, 'avm');
        const keys = sorted.map((o) => encodeOutput(o, 'avm'));
        expect(isSortedBy(keys, compareBytes, false)).toBe(true);
        expect(sameMultiset(keys.map(toHex), outs.map((o) => toHex(encodeOutput(o, 'avm'))))).toBe(true);
      }),
    );
  });

  it('transferable inputs: by txID, then output index (numerically, not as text)', () => {
    fc.assert(
      fc.property(arbTransferableInputs('pvm', { locked: true }).chain((xs) => fc.shuffledSubarray(xs, { minLength: xs.length })), (shuffled) => {
        const sorted = sortTransferableInputs(shuffled);
        expect(isSortedBy(sorted, (a, b) => compareBytes(a.txID, b.txID) || Math.sign(a.outputIndex - b.outputIndex), true)).toBe(true);
      }),
    );
    const a = { txID: ID_A, assetID: ID_B, input: { kind: 'TransferInput' as const, amount: 1n, sigIndices: [] } };
    expect(sortTransferableInputs([{ ...a, outputIndex: 10 }, { ...a, outputIndex: 9 }, { ...a, outputIndex: 0xffffffff }]).map((i) => i.outputIndex)).toEqual([
      9, 10, 0xffffffff,
    ]);
  });

  it('transferable inputs: the same order when many txIDs share their first bytes, or are the same', () => {
    // txIDs from a few 4-byte prefixes and few tails: ties on the prefix (and on the whole ID) are common.
    const arbTxId = fc.tuple(fc.constantFrom(0x00000000, 0x7fffffff, 0x80000000, 0xffffffff), fc.integer({ min: 0, max: 3 })).map(([head, tail]) => {
      const id = new Uint8Array(32);
      new DataView(id.buffer).setUint32(0, head);
      id[31] = tail;
      return id;
    });
    const arbInput = fc.record({ txID: arbTxId, outputIndex: fc.integer({ min: 0, max: 3 }) }).map((r) => ({ ...r, assetID: ID_B, input: { kind: 'TransferInput' as const, amount: 1n, sigIndices: [] } }));
    fc.assert(
      fc.property(fc.array(arbInput, { maxLength: 60 }), (inputs) => {
        const sorted = sortTransferableInputs(inputs);
        expect(sorted).toHaveLength(inputs.length);
        const ref = (i: { txID: Bytes; outputIndex: number }): string => `${toHex(i.txID)}:${i.outputIndex}`;
        expect(sameMultiset(sorted.map(ref), inputs.map(ref))).toBe(true);
        expect(isSortedBy(sorted, (a, b) => compareBytes(a.txID, b.txID) || Math.sign(a.outputIndex - b.outputIndex), false)).toBe(true);
      }),
    );
  });

  it('operations: by their full codec bytes; UTXO IDs inside each operation by (txID, index)', () => {
    // An operation's codec bytes are what an OperationTx with only that operation adds after its count.
    const prefix = encodeUnsignedTx({ ...emptyXBase(), kind: 'OperationTx', operations: [] } as XOperationTx);
    const opBytes = (op: Operation): Bytes =>
      encodeUnsignedTx({ ...emptyXBase(), kind: 'OperationTx', operations: [op] } as XOperationTx).subarray(prefix.length);
    fc.assert(
      fc.property(fc.array(arbOperation(), { maxLength: 4 }), (ops) => {
        const shuffled = ops.map((op) => ({ ...op, utxoIDs: [...op.utxoIDs].reverse() }));
        const sorted = sortOperations(shuffled);
        expect(isSortedBy(sorted.map(opBytes), compareBytes, false)).toBe(true);
        expect(sameMultiset(sorted.map((o) => toHex(opBytes(o))), ops.map((o) => toHex(opBytes(o))))).toBe(true);
      }),
    );
  });

  it('EVM outputs and inputs: by address, then asset ID', () => {
    const arbEvm = fc.array(fc.record({ address: arbAddress, amount: arbU64, assetID: arbId, nonce: arbU64 }), { maxLength: 5 });
    fc.assert(
      fc.property(arbEvm, (items) => {
        const cmp = (a: { address: Bytes; assetID: Bytes }, b: { address: Bytes; assetID: Bytes }) =>
          compareBytes(a.address, b.address) || compareBytes(a.assetID, b.assetID);
        expect(isSortedBy(sortEvmInputs(items), cmp, false)).toBe(true);
        expect(isSortedBy(sortEvmOutputs(items.map(({ nonce: _n, ...o }) => o)), cmp, false)).toBe(true);
        expect(sortEvmInputs(items)).toHaveLength(items.length);
      }),
    );
  });

  it('generated structures are already in consensus order (the generators are trustworthy)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...VMS).chain((vm) => arbUnsignedTx(vm)), (tx) => {
        if (tx.vm === 'evm') {
          if (tx.kind === 'ImportTx') expect(tx.outs).toStrictEqual(sortEvmOutputs(tx.outs));
          else expect(tx.ins).toStrictEqual(sortEvmInputs(tx.ins));
          return;
        }
        expect(tx.outputs).toStrictEqual(sortTransferableOutputs(tx.outputs, tx.vm));
        expect(tx.inputs).toStrictEqual(sortTransferableInputs(tx.inputs));
        if (tx.kind === 'OperationTx') expect(tx.operations).toStrictEqual(sortOperations(tx.operations));
      }),
      { numRuns: 100 },
    );
  });
});

// The size guard's counting writer runs the same encoders as the real one.
describe('ByteCounter', () => {
  it('overrides every method ByteWriter has, so none writes into a buffer it never reads', () => {
    const methods = Object.getOwnPropertyNames(ByteWriter.prototype).filter((m) => m !== 'constructor' && m !== 'ensure');
    expect(methods.length).toBeGreaterThan(8);
    for (const m of methods) expect(Object.hasOwn(ByteCounter.prototype, m), m).toBe(true);
  });

  it('a writer given no usable capacity still grows (no endless loop)', () => {
    for (const capacity of [0, -1, Number.NaN]) {
      const w = new ByteWriter(capacity);
      w.raw(new Uint8Array(700));
      w.u8(1);
      expect(w.finish().length).toBe(701);
    }
  });

  it('refuses the values the real writer refuses, with the same error', () => {
    const cases: [string, (w: ByteWriter) => void][] = [
      ['u8 256', (w) => w.u8(256)],
      ['u16 -1', (w) => w.u16(-1)],
      ['u32 1.5', (w) => w.u32(1.5)],
      ['u64 2^64', (w) => w.u64(1n << 64n)],
      ['fixed 31 of 32', (w) => w.fixed(new Uint8Array(31), 32, 'an ID')],
      ['lone surrogate', (w) => w.str('a\ud800')],
      ['65536-byte string', (w) => w.str('x'.repeat(65_536))],
    ];
    for (const [name, write] of cases) {
      expect(() => write(new ByteWriter()), name).toThrow(ValidationError);
      const message = (() => {
        try {
          write(new ByteWriter());
        } catch (e) {
          return (e as Error).message;
        }
      })();
      expect(() => write(new ByteCounter()), name).toThrow(message);
    }
  });
});

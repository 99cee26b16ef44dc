// Fuzzing the three decoders on every VM with random bytes and with mutated valid encodings.
// The contract under test: a decoder returns a value or throws a CodecError whose offset lies in
// [0, input length] — nothing else may escape (no RangeError, TypeError, out-of-memory). And what
// it does accept is canonical: re-encoding the value gives back exactly the input bytes.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { type Bytes, concatBytes, toHex } from '../../src/core/bytes.js';
import {
  decodeSignedTx,
  decodeUnsignedTx,
  decodeUtxo,
  encodeSignedTx,
  encodeUnsignedTx,
  encodeUtxo,
  type Vm,
} from '../../src/core/codec/index.js';
import { VMS } from './codec-gen-common.js';
import { arbSignedTx, arbUnsignedTx, arbUtxo, decodeOrCodecError } from './codec-generators.js';

const RUNS = 2_000;

type DecoderName = 'decodeUnsignedTx' | 'decodeSignedTx' | 'decodeUtxo';
const DECODERS: DecoderName[] = ['decodeUnsignedTx', 'decodeSignedTx', 'decodeUtxo'];

/** Type IDs that get random bytes past the version and type checks. */
const TX_TYPE_IDS: Record<Vm, number[]> = {
  avm: [0, 1, 2, 3, 4],
  pvm: [12, 13, 14, 15, 16, 17, 18, 19, 20, 23, 24, 25, 26, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42],
  evm: [0, 1],
};

/** Decodes; on success, checks the value re-encodes to the input. Returns whether it decoded. */
function decodeAndCheck(name: DecoderName, vm: Vm, bytes: Bytes): boolean {
  switch (name) {
    case 'decodeUnsignedTx': {
      const r = decodeOrCodecError(() => decodeUnsignedTx(bytes, vm), bytes.length);
      if (r.ok) expect(toHex(encodeUnsignedTx(r.value))).toBe(toHex(bytes));
      return r.ok;
    }
    case 'decodeSignedTx': {
      const r = decodeOrCodecError(() => decodeSignedTx(bytes, vm), bytes.length);
      if (r.ok) {
        expect(toHex(encodeSignedTx(r.value))).toBe(toHex(bytes));
        expect(toHex(encodeUnsignedTx(r.value.unsigned))).toBe(toHex(bytes.subarray(0, r.value.unsignedLength)));
      }
      return r.ok;
    }
    case 'decodeUtxo': {
      const r = decodeOrCodecError(() => decodeUtxo(bytes, vm), bytes.length);
      if (r.ok) expect(toHex(encodeUtxo(r.value, vm))).toBe(toHex(bytes));
      return r.ok;
    }
  }
}

function validEncoding(name: DecoderName, vm: Vm): fc.Arbitrary<Bytes> {
  if (name === 'decodeUnsignedTx') return arbUnsignedTx(vm).map(encodeUnsignedTx);
  if (name === 'decodeSignedTx') return arbSignedTx(vm).map(encodeSignedTx);
  return arbUtxo(vm).map((u) => encodeUtxo(u, vm));
}

function u32(n: number): Bytes {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, n);
  return b;
}

/** Random bytes: raw, behind a valid version, and behind a valid version + tx type ID. */
function randomInput(name: DecoderName, vm: Vm): fc.Arbitrary<Bytes> {
  const tail = fc.uint8Array({ maxLength: 300 });
  const versioned = tail.map((t) => concatBytes(new Uint8Array(2), t));
  if (name === 'decodeUtxo') return fc.oneof(tail, versioned);
  const typed = fc
    .tuple(fc.constantFrom(...TX_TYPE_IDS[vm]), tail)
    .map(([typeId, t]) => concatBytes(new Uint8Array(2), u32(typeId), t));
  return fc.oneof(tail, versioned, typed);
}

// ---- mutations ----

type Mutation =
  | { op: 'flip'; pos: number; bit: number }
  | { op: 'insert'; pos: number; byte: number }
  | { op: 'delete'; pos: number }
  | { op: 'overwrite'; pos: number; byte: number }
  | { op: 'u32'; pos: number; value: number }
  /** Overwrites a u32 that currently holds a small value: most of those are slice counts. */
  | { op: 'count'; pick: number; value: number }
  | { op: 'truncate'; pos: number };

const HUGE = fc.constantFrom(0xffffffff, 0xfffffffe, 0x80000000, 0x7fffffff, 0x10000000, 0x01000000, 0x10000, 0xffff);
const u32Value = fc.oneof(HUGE, fc.integer({ min: 0, max: 0xffffffff }), fc.integer({ min: 0, max: 70 }));
const pos = fc.nat();
const byte = fc.integer({ min: 0, max: 255 });

const arbMutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant('flip' as const), pos, bit: fc.integer({ min: 0, max: 7 }) }),
  fc.record({ op: fc.constant('insert' as const), pos, byte }),
  fc.record({ op: fc.constant('delete' as const), pos }),
  fc.record({ op: fc.constant('overwrite' as const), pos, byte }),
  fc.record({ op: fc.constant('u32' as const), pos, value: u32Value }),
  fc.record({ op: fc.constant('count' as const), pick: fc.nat(), value: u32Value }),
  fc.record({ op: fc.constant('truncate' as const), pos }),
);

function mutate(input: Bytes, m: Mutation): Bytes {
  const b = input.slice();
  const at = (p: number, room = 1): number => (b.length < room ? -1 : p % (b.length - room + 1));
  switch (m.op) {
    case 'flip': {
      const i = at(m.pos);
      if (i >= 0) b[i]! ^= 1 << m.bit;
      return b;
    }
    case 'overwrite': {
      const i = at(m.pos);
      if (i >= 0) b[i] = m.byte;
      return b;
    }
    case 'insert': {
      const i = m.pos % (b.length + 1);
      return concatBytes(b.subarray(0, i), Uint8Array.of(m.byte), b.subarray(i));
    }
    case 'delete': {
      const i = at(m.pos);
      return i < 0 ? b : concatBytes(b.subarray(0, i), b.subarray(i + 1));
    }
    case 'truncate':
      return b.subarray(0, m.pos % (b.length + 1));
    case 'u32': {
      const i = at(m.pos, 4);
      if (i >= 0) new DataView(b.buffer).setUint32(i, m.value);
      return b;
    }
    case 'count': {
      const view = new DataView(b.buffer);
      const candidates: number[] = [];
      for (let i = 2; i + 4 <= b.length; i++) if (view.getUint32(i) <= 64) candidates.push(i);
      if (candidates.length > 0) view.setUint32(candidates[m.pick % candidates.length]!, m.value);
      return b;
    }
  }
}

describe.each(DECODERS)('%s', (name) => {
  describe.each(VMS)('on %s', (vm) => {
    it(`random bytes (${RUNS} runs): a value or a CodecError with an offset inside the input`, () => {
      fc.assert(
        fc.property(randomInput(name, vm), (bytes) => {
          decodeAndCheck(name, vm, bytes);
        }),
        { numRuns: RUNS },
      );
    });

    it(`mutated valid encodings (${RUNS} runs): the same, and whatever decodes re-encodes to the input`, () => {
      let decoded = 0;
      let refused = 0;
      fc.assert(
        fc.property(validEncoding(name, vm), fc.array(arbMutation, { minLength: 1, maxLength: 4 }), (bytes, mutations) => {
          const mutated = mutations.reduce(mutate, bytes);
          if (decodeAndCheck(name, vm, mutated)) decoded++;
          else refused++;
        }),
        { numRuns: RUNS },
      );
      // Both outcomes must be reached, or the mutations are not exercising the decoder.
      expect(decoded).toBeGreaterThan(RUNS / 100);
      expect(refused).toBeGreaterThan(RUNS / 4);
    });
  });
});

// Round-trip properties of the X/P/C codec (wire-format.md §1, §3–§6) and its strictness:
// every valid structure encodes, decodes back to itself and re-encodes to the same bytes; every
// malformed input is refused with a CodecError that says where.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { type Bytes, compareBytes, concatBytes, toHex } from '../../src/core/bytes.js';
import {
  appendCredentials,
  decodeChainTx,
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
  type PBaseTx,
  type SignedTx,
  type UnsignedTx,
  type Utxo,
  type Vm,
  type XBaseTx,
  type XCreateAssetTx,
  type XOperationTx,
} from '../../src/core/codec/index.js';
import { ByteCounter, ByteWriter } from '../../src/core/codec/io.js';
import { CodecError, ValidationError } from '../../src/core/errors.js';
import {
  arbAddress,
  arbCExportTx,
  arbCImportTx,
  arbCredentialsFor,
  arbId,
  arbOperation,
  arbOutput,
  arbPBaseTx,
  arbPExportTx,
  arbPImportTx,
  arbSignedTx,
  arbTransferableInputs,
  arbTransferableOutputs,
  arbU64,
  arbUnsignedTx,
  arbUtxo,
  arbXBaseTx,
  arbXCreateAssetTx,
  arbXExportTx,
  arbXImportTx,
  arbXOperationTx,
  decodeOrCodecError,
  expectCodecError,
  VMS,
} from './codec-generators.js';

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

const ID_A = new Uint8Array(32).fill(0xaa);
const ID_B = new Uint8Array(32).fill(0xbb);
const ADDR = new Uint8Array(20).fill(0x11);

function emptyXBase(kind: 'BaseTx' = 'BaseTx'): XBaseTx {
  return { vm: 'avm', kind, networkID: 1, blockchainID: ID_A, outputs: [], inputs: [], memo: new Uint8Array() };
}

function createAsset(name: string, symbol = 'AB'): XCreateAssetTx {
  return {
    ...emptyXBase(),
    kind: 'CreateAssetTx',
    name,
    symbol,
    denomination: 9,
    initialStates: [{ fxIndex: 0, outputs: [{ kind: 'MintOutput', owners: { locktime: 0n, threshold: 1, addresses: [ADDR] } }] }],
  };
}

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

describe('type IDs (wire-format.md §3, §5.1, §6.1) — including propertyfx, which avalanchejs lacks', () => {
  const owners = { locktime: 0n, threshold: 1, addresses: [ADDR] };
  const typeAt = (bytes: Bytes, at: number): number => new DataView(bytes.buffer, bytes.byteOffset).getUint32(at);
  const OUTPUT_TYPE_AT = 2 + 32 + 4 + 32;

  it('transaction types', () => {
    const expected: [UnsignedTx, number][] = [
      [emptyXBase(), 0],
      [createAsset('A'), 1],
      [{ ...emptyXBase(), kind: 'OperationTx', operations: [] } as XOperationTx, 2],
      [{ ...emptyXBase(), kind: 'ImportTx', sourceChain: ID_B, importedInputs: [] } as UnsignedTx, 3],
      [{ ...emptyXBase(), kind: 'ExportTx', destinationChain: ID_B, exportedOutputs: [] } as UnsignedTx, 4],
      [{ ...emptyXBase(), vm: 'pvm', kind: 'ImportTx', sourceChain: ID_B, importedInputs: [] } as UnsignedTx, 17],
      [{ ...emptyXBase(), vm: 'pvm', kind: 'ExportTx', destinationChain: ID_B, exportedOutputs: [] } as UnsignedTx, 18],
      [{ ...emptyXBase(), vm: 'pvm' } as UnsignedTx, 34],
      [{ vm: 'evm', kind: 'ImportTx', networkID: 1, blockchainID: ID_A, sourceChain: ID_B, importedInputs: [], outs: [] }, 0],
      [{ vm: 'evm', kind: 'ExportTx', networkID: 1, blockchainID: ID_A, destinationChain: ID_B, ins: [], exportedOutputs: [] }, 1],
    ];
    for (const [tx, id] of expected) expect(typeAt(encodeUnsignedTx(tx), 2), `${tx.vm} ${tx.kind}`).toBe(id);
  });

  it('outputs on each VM, and outputs that do not exist there are refused', () => {
    const outputs: [Utxo['output'], Partial<Record<Vm, number>>][] = [
      [{ kind: 'MintOutput', owners }, { avm: 6 }],
      [{ kind: 'TransferOutput', amount: 1n, owners }, { avm: 7, pvm: 7, evm: 7 }],
      [{ kind: 'NftMintOutput', groupID: 0, owners }, { avm: 10 }],
      [{ kind: 'NftTransferOutput', groupID: 0, payload: new Uint8Array(), owners }, { avm: 11 }],
      [{ kind: 'PropertyMintOutput', owners }, { avm: 15 }],
      [{ kind: 'PropertyOwnedOutput', owners }, { avm: 16 }],
      [{ kind: 'StakeableLockOut', locktime: 1n, output: { kind: 'TransferOutput', amount: 1n, owners } }, { pvm: 22 }],
    ];
    for (const [output, ids] of outputs) {
      for (const vm of VMS) {
        const utxo: Utxo = { txID: ID_A, outputIndex: 0, assetID: ID_B, output };
        const id = ids[vm];
        if (id === undefined) expect(() => encodeUtxo(utxo, vm), `${output.kind} on ${vm}`).toThrow(ValidationError);
        else expect(typeAt(encodeUtxo(utxo, vm), OUTPUT_TYPE_AT), `${output.kind} on ${vm}`).toBe(id);
      }
    }
  });

  it('operations and credentials', () => {
    const ops: [Operation['op'], number, 'secp' | 'nft' | 'property', number][] = [
      [{ kind: 'SecpMintOperation', mintInput: [0], mintOutput: owners, transferOutput: { amount: 1n, owners } }, 8, 'secp', 9],
      [{ kind: 'NftMintOperation', mintInput: [0], groupID: 0, payload: new Uint8Array(), outputs: [owners] }, 12, 'nft', 14],
      [{ kind: 'NftTransferOperation', input: [0], output: { groupID: 0, payload: new Uint8Array(), owners } }, 13, 'nft', 14],
      [{ kind: 'PropertyMintOperation', mintInput: [0], mintOutput: owners, ownedOutput: owners }, 17, 'property', 19],
      [{ kind: 'PropertyBurnOperation', input: [0] }, 18, 'property', 19],
    ];
    for (const [op, opId, fx, credId] of ops) {
      const tx: XOperationTx = { ...emptyXBase(), kind: 'OperationTx', operations: [{ assetID: ID_B, utxoIDs: [{ txID: ID_A, outputIndex: 0 }], op }] };
      const signed = encodeSignedTx({ unsigned: tx, credentials: [{ fx, signatures: [new Uint8Array(65)] }] });
      // 54-byte empty base, #ops, assetID, #utxoIDs, one UTXO ID, then the operation's type ID.
      expect(typeAt(signed, 54 + 4 + 32 + 4 + 36), op.kind).toBe(opId);
      const unsignedLength = encodeUnsignedTx(tx).length;
      expect(typeAt(signed, unsignedLength + 4), `${fx} credential`).toBe(credId);
      expect(decodeSignedTx(signed, 'avm').credentials[0]!.fx).toBe(fx);
    }
    for (const vm of ['pvm', 'evm'] as const) {
      const tx = vm === 'pvm' ? ({ ...emptyXBase(), vm: 'pvm' } as UnsignedTx) : ({ vm: 'evm', kind: 'ExportTx', networkID: 1, blockchainID: ID_A, destinationChain: ID_B, ins: [], exportedOutputs: [] } as UnsignedTx);
      const signed = encodeSignedTx({ unsigned: tx, credentials: [{ fx: 'secp', signatures: [] }] });
      expect(typeAt(signed, encodeUnsignedTx(tx).length + 4)).toBe(9);
      for (const fx of ['nft', 'property'] as const) {
        expect(() => encodeSignedTx({ unsigned: tx, credentials: [{ fx, signatures: [] }] })).toThrow(ValidationError);
      }
    }
  });

  it('inputs: TransferInput 5 everywhere, StakeableLockIn 21 on the P-Chain only', () => {
    const input = { kind: 'TransferInput' as const, amount: 1n, sigIndices: [0] };
    const INPUT_TYPE_AT = 2 + 4 + 4 + 32 + 4 + 4 + 32 + 4 + 32;
    for (const vm of ['avm', 'pvm'] as const) {
      const tx = { ...emptyXBase(), vm, inputs: [{ txID: ID_A, outputIndex: 0, assetID: ID_B, input }] } as UnsignedTx;
      expect(typeAt(encodeUnsignedTx(tx), INPUT_TYPE_AT)).toBe(5);
      const locked = { ...emptyXBase(), vm, inputs: [{ txID: ID_A, outputIndex: 0, assetID: ID_B, input: { kind: 'StakeableLockIn' as const, locktime: 1n, input } }] } as UnsignedTx;
      if (vm === 'pvm') expect(typeAt(encodeUnsignedTx(locked), INPUT_TYPE_AT)).toBe(21);
      else expect(() => encodeUnsignedTx(locked)).toThrow(ValidationError);
    }
  });
});

describe('decoding with the wrong VM', () => {
  const pairs = VMS.flatMap((from) => VMS.filter((to) => to !== from).map((to) => [from, to] as const));
  it.each(pairs)('%s bytes read as %s: a CodecError, or a structure that is not the original', (from, to) => {
    let accepted = 0;
    fc.assert(
      fc.property(arbSignedTx(from), arbUtxo(from), (signed, utxo) => {
        const unsignedBytes = encodeUnsignedTx(signed.unsigned);
        const u = decodeOrCodecError(() => decodeUnsignedTx(unsignedBytes, to), unsignedBytes.length);
        if (u.ok) {
          accepted++;
          expect(u.value).not.toStrictEqual(signed.unsigned);
          // Whatever the other VM accepts must be canonical in that VM.
          expect(toHex(encodeUnsignedTx(u.value))).toBe(toHex(unsignedBytes));
        }
        const signedBytes = encodeSignedTx(signed);
        const s = decodeOrCodecError(() => decodeSignedTx(signedBytes, to), signedBytes.length);
        if (s.ok) {
          expect(s.value.unsigned).not.toStrictEqual(signed.unsigned);
          expect(toHex(encodeSignedTx(s.value))).toBe(toHex(signedBytes));
        }
        const utxoBytes = encodeUtxo(utxo, from);
        const d = decodeOrCodecError(() => decodeUtxo(utxoBytes, to), utxoBytes.length);
        // TransferOutput (7) means the same on every VM; every other output type is VM-specific.
        expect(d.ok).toBe(utxo.output.kind === 'TransferOutput');
        if (d.ok) expect(d.value).toStrictEqual(utxo);
      }),
      { numRuns: 200 },
    );
    expect(accepted).toBeLessThan(200);
  });
});

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

// Decoding errors are CodecErrors carrying the offset in their message too.
describe('CodecError', () => {
  it('carries a numeric offset and names it in the message', () => {
    const e = expectCodecError(() => decodeUtxo(Uint8Array.of(0, 0, 1), 'avm'), 3);
    expect(e).toBeInstanceOf(CodecError);
    expect(e.message).toMatch(/at byte \d+/);
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

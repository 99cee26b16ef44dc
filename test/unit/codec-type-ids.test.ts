// The codec's type IDs on each VM (wire-format.md §3, §5.1, §6.1), and bytes decoded with the
// wrong VM.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { type Bytes, toHex } from '../../src/core/bytes.js';
import {
  decodeSignedTx,
  decodeUnsignedTx,
  decodeUtxo,
  encodeSignedTx,
  encodeUnsignedTx,
  encodeUtxo,
  type Operation,
  type UnsignedTx,
  type Utxo,
  type Vm,
  type XOperationTx,
} from '../../src/core/codec/index.js';
import { ValidationError } from '../../src/core/errors.js';
import { VMS } from './codec-gen-common.js';
import { arbSignedTx, arbUtxo, decodeOrCodecError } from './codec-generators.js';
import { ADDR, createAsset, emptyXBase, ID_A, ID_B } from './codec-fixtures.js';

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

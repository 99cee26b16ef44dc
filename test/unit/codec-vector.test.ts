import { describe, expect, it } from 'vitest';
import { sha256 } from '@noble/hashes/sha2.js';
import { fromHex, toHex } from '../../src/core/bytes.js';
import {
  decodeSignedTx,
  decodeUnsignedTx,
  decodeUtxo,
  encodeSignedTx,
  encodeUnsignedTx,
  encodeUtxo,
  inputId,
  producedUtxos,
  txId,
  txIdBytes,
  type XBaseTx,
} from '../../src/core/codec/index.js';
import { cb58Encode } from '../../src/core/encoding.js';

// wire-format.md §10.2: avalanchego's vms/avm/txs/base_tx_test.go transaction.
function id32(prefix: number[]): Uint8Array {
  const b = new Uint8Array(32);
  b.set(prefix);
  return b;
}
const chainID = id32([5, 4, 3, 2, 1]);
const assetID = id32([1, 2, 3]);
const utxoTxID = Uint8Array.from({ length: 32 }, (_, i) => 0xff - i);
const keys0 = fromHex('fceda8f90fcb5d30614b99d79fc4baa293077626');

const vectorTx: XBaseTx = {
  vm: 'avm',
  kind: 'BaseTx',
  networkID: 10,
  blockchainID: chainID,
  outputs: [
    {
      assetID,
      output: { kind: 'TransferOutput', amount: 12345n, owners: { locktime: 0n, threshold: 1, addresses: [keys0] } },
    },
  ],
  inputs: [{ txID: utxoTxID, outputIndex: 1, assetID, input: { kind: 'TransferInput', amount: 54321n, sigIndices: [2] } }],
  memo: Uint8Array.from([0, 1, 2, 3]),
};

const expectedUnsignedHex =
  '0000' +
  '00000000' +
  '0000000a' +
  toHex(chainID) +
  '00000001' +
  toHex(assetID) +
  '00000007' +
  '0000000000003039' +
  '0000000000000000' +
  '00000001' +
  '00000001' +
  'fceda8f90fcb5d30614b99d79fc4baa293077626' +
  '00000001' +
  toHex(utxoTxID) +
  '00000001' +
  toHex(assetID) +
  '00000005' +
  '000000000000d431' +
  '00000001' +
  '00000002' +
  '00000004' +
  '00010203';

const signature = fromHex(
  '7d898ee98af8335d37e6fada0cbb44a14405d3bb940dfc0d99a6d3ff5c715aff26d18484f29b289644968fedffeb23e030665d736d94fc80bc735f51c806d74300',
);

describe('X-Chain BaseTx worked example (wire-format §10.2)', () => {
  it('encodes the unsigned tx byte for byte and hashes to the known digest', () => {
    const bytes = encodeUnsignedTx(vectorTx);
    expect(bytes.length).toBe(226);
    expect(toHex(bytes)).toBe(expectedUnsignedHex);
    expect(toHex(sha256(bytes))).toBe('e165cd75942f72b960b97d71366034b7223c2ea4a6cfbe4a799d66417e426063');
  });

  it('gives the test tx IDs for zero credentials and for 2×2 identical signatures', () => {
    expect(txId(encodeSignedTx({ unsigned: vectorTx, credentials: [] }))).toBe(
      'zeqT8FTnRAxes7QQQYkaWhNkHavd9d6aCdH8TQu2Mx5KEydEz',
    );
    const cred = { fx: 'secp' as const, signatures: [signature, signature] };
    expect(txId(encodeSignedTx({ unsigned: vectorTx, credentials: [cred, cred] }))).toBe(
      'QnTUuie2qe6BKyYrC2jqd73bJ828QNhYnZbdA2HWsnVRPjBfV',
    );
  });

  it('derives the signed tx ID, its first UTXO and that UTXO input ID (§10.3)', () => {
    const signed = encodeSignedTx({ unsigned: vectorTx, credentials: [{ fx: 'secp', signatures: [signature] }] });
    expect(signed.length).toBe(303);
    expect(txId(signed)).toBe('2AAAFsezCyTGLjAhYkRSsPVgCQ8EzbkXUJqNPuNUHKSUpTfEdk');
    const [utxo] = producedUtxos(vectorTx, txIdBytes(signed));
    const utxoBytes = encodeUtxo(utxo!, 'avm');
    expect(utxoBytes.length).toBe(118);
    expect(toHex(utxoBytes).slice(4, 12)).toBe('987d8321');
    expect(cb58Encode(inputId(utxo!))).toBe('2WJ6s6JjC665VDcT1zu22PsBPUDBWTHWe3hikh1oBzZGawSCTf');
    expect(decodeUtxo(utxoBytes, 'avm')).toEqual(utxo);
  });

  it('decodes what it encodes', () => {
    const cred = { fx: 'secp' as const, signatures: [signature] };
    const signed = encodeSignedTx({ unsigned: vectorTx, credentials: [cred] });
    const decoded = decodeSignedTx(signed, 'avm');
    expect(decoded.unsigned).toEqual(vectorTx);
    expect(decoded.credentials).toEqual([cred]);
    expect(decoded.unsignedLength).toBe(226);
    expect(decodeUnsignedTx(encodeUnsignedTx(vectorTx), 'avm')).toEqual(vectorTx);
  });
});

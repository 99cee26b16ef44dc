// The X-Chain's syntactic rules a site's tx must pass before the user is asked (verifyXTx in
// src/core/codec/avm-rules.ts): what the node would refuse on its form alone is refused first,
// with the field named, so a user never approves a tx that cannot go through.
import { describe, expect, it } from 'vitest';
import { verifyXTx } from '../../src/core/codec/avm-rules.js';
import { encodeUnsignedTx, type TransferableInput, type TransferableOutput, type Utxo, type XTx } from '../../src/core/codec/index.js';
import { sortTransferableInputs, sortTransferableOutputs } from '../../src/core/codec/rules.js';
import { ValidationError } from '../../src/core/errors.js';
import { decodeExternalTx } from '../../src/core/external-tx.js';
import { makeOwners } from '../../src/core/tx/context.js';
import { ctx, ewoq, second, utxo } from './pvm-test-kit.js';

const input = (u: Utxo, amount = 5n, sigIndices = [0]): TransferableInput => ({ txID: u.txID, outputIndex: u.outputIndex, assetID: u.assetID, input: { kind: 'TransferInput', amount, sigIndices } });
const output = (amount: bigint, owners = makeOwners([ewoq.shortId])): TransferableOutput => ({ assetID: ctx.avaxAssetID, output: { kind: 'TransferOutput', amount, owners } });
const send = (inputs: TransferableInput[], outputs: TransferableOutput[], memo = new Uint8Array()): XTx => ({ vm: 'avm', kind: 'BaseTx', networkID: ctx.networkID, blockchainID: ctx.xChainID, inputs, outputs, memo });
const valid = (): XTx => send(sortTransferableInputs([input(utxo(5n)), input(utxo(5n))]), sortTransferableOutputs([output(3n), output(4n, makeOwners([second.shortId]))], 'avm'));

const refusal = (tx: XTx): ValidationError => {
  try {
    verifyXTx(tx);
  } catch (e) {
    if (e instanceof ValidationError) return e;
    throw e;
  }
  return expect.unreachable('refused');
};

describe("an X-Chain tx a site hands the wallet", () => {
  it('in the form the node takes passes, as the wallet builds them, through the path site requests take', () => {
    const tx = valid();
    expect(() => verifyXTx(tx)).not.toThrow();
    expect(decodeExternalTx('X', encodeUnsignedTx(tx)).tx).toMatchObject({ kind: 'BaseTx' });
    expect(() => verifyXTx(send(tx.inputs, tx.outputs, new Uint8Array(256)))).not.toThrow();
  });

  it('with inputs out of order, or one spent twice, is refused naming its inputs', () => {
    const tx = valid();
    expect(refusal(send([...tx.inputs].reverse(), tx.outputs))).toMatchObject({ field: 'inputs', message: expect.stringMatching(/inputs are not sorted and unique/) });
    expect(refusal(send([tx.inputs[0]!, tx.inputs[0]!], tx.outputs)).field).toBe('inputs');
    // The same refusal through the site path, from the bytes.
    expect(() => decodeExternalTx('X', encodeUnsignedTx(send([...tx.inputs].reverse(), tx.outputs)))).toThrow(ValidationError);
  });

  it('with outputs out of order, an output or input of 0, signature indices out of order, owners that cannot sign, or an empty asset ID, is refused', () => {
    const tx = valid();
    expect(refusal(send(tx.inputs, [...tx.outputs].reverse())).message).toMatch(/outputs are not sorted/);
    expect(refusal(send(tx.inputs, [output(0n)])).message).toMatch(/an output of 0/);
    expect(refusal(send([input(utxo(5n), 0n)], tx.outputs)).message).toMatch(/an input of 0/);
    expect(refusal(send([input(utxo(5n), 5n, [1, 0])], tx.outputs)).message).toMatch(/signature indices are not sorted and unique/);
    expect(refusal(send(tx.inputs, [output(3n, { ...makeOwners([ewoq.shortId]), threshold: 2 })])).message).toMatch(/threshold 2 is above its 1 addresses/);
    expect(refusal(send(tx.inputs, [{ ...output(3n), assetID: new Uint8Array(32) }])).message).toMatch(/outputs\[0\]: an empty asset ID/);
    expect(refusal(send([{ ...input(utxo(5n)), assetID: new Uint8Array(32) }], tx.outputs)).message).toMatch(/inputs\[0\]: an empty asset ID/);
  });

  it('with a memo over 256 bytes, an import of nothing or an export of nothing, is refused', () => {
    const tx = valid();
    expect(refusal(send(tx.inputs, tx.outputs, new Uint8Array(257)))).toMatchObject({ field: 'memo' });
    expect(refusal({ ...tx, kind: 'ImportTx', sourceChain: ctx.pChainID, importedInputs: [] })).toMatchObject({ field: 'importedInputs' });
    expect(refusal({ ...tx, kind: 'ExportTx', destinationChain: ctx.pChainID, exportedOutputs: [] })).toMatchObject({ field: 'exportedOutputs' });
    const imported = [input(utxo(5n)), input(utxo(5n))];
    expect(refusal({ ...tx, kind: 'ImportTx', sourceChain: ctx.pChainID, importedInputs: [...sortTransferableInputs(imported)].reverse() })).toMatchObject({ field: 'importedInputs' });
  });
});

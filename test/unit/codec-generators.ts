// fast-check arbitraries for every structure the codec handles, per VM (docs/protocol.md).
// Each arbitrary yields a structure the node would accept syntactically: sorted and unique where
// the consensus rules say so, amounts > 0, thresholds within range, credentials shaped like the
// inputs they authorize. Lists stay short (≤ 4) so property runs are fast.
// The structures are in codec-gen-common.ts (primitives, outputs, inputs) and codec-gen-x/-p/-c.ts
// (each chain's txs); this module has any tx, credential or UTXO of a VM, and decode assertions.
import fc from 'fast-check';
import {
  authorizationOf,
  type Credential,
  type CredentialFx,
  type FxOperation,
  type Input,
  type SignedTx,
  type UnsignedTx,
  type Utxo,
  type Vm,
} from '../../src/core/codec/index.js';
import { CodecError } from '../../src/core/errors.js';
import { arbId, arbOutput, arbSignature, arbU32, type GenOptions, record } from './codec-gen-common.js';
import { arbXBaseTx, arbXCreateAssetTx, arbXExportTx, arbXImportTx, arbXOperationTx } from './codec-gen-x.js';
import { arbPBaseTx, arbPExportTx, arbPImportTx, arbPStakingAndSubnetTx } from './codec-gen-p.js';
import { arbCExportTx, arbCImportTx } from './codec-gen-c.js';

// ---- by VM ----

export function arbXTx(opts: GenOptions = {}): fc.Arbitrary<UnsignedTx> {
  return fc.oneof(arbXBaseTx, arbXCreateAssetTx(opts), arbXOperationTx(opts), arbXImportTx, arbXExportTx);
}

export function arbUnsignedTx(vm: Vm, opts: GenOptions = {}): fc.Arbitrary<UnsignedTx> {
  if (vm === 'avm') return arbXTx(opts);
  if (vm === 'pvm') return fc.oneof(arbPBaseTx, arbPImportTx, arbPExportTx, arbPStakingAndSubnetTx);
  return fc.oneof(arbCImportTx, arbCExportTx);
}

// ---- credentials ----

function credentialFxs(vm: Vm, opts: GenOptions): CredentialFx[] {
  if (vm !== 'avm') return ['secp'];
  return opts.propertyFx === false ? ['secp', 'nft'] : ['secp', 'nft', 'property'];
}

/** Any credential registered on `vm` (avm: secp/nft/property fx; pvm and evm: secp). */
export function arbCredential(vm: Vm, opts: GenOptions = {}): fc.Arbitrary<Credential> {
  return record({
    fx: fc.constantFrom(...credentialFxs(vm, opts)),
    signatures: fc.array(arbSignature, { maxLength: 3 }),
  });
}

function sigCount(input: Input): number {
  return input.kind === 'StakeableLockIn' ? input.input.sigIndices.length : input.sigIndices.length;
}

function operationShape(op: FxOperation): { fx: CredentialFx; sigs: number } {
  switch (op.kind) {
    case 'SecpMintOperation':
      return { fx: 'secp', sigs: op.mintInput.length };
    case 'NftMintOperation':
      return { fx: 'nft', sigs: op.mintInput.length };
    case 'NftTransferOperation':
      return { fx: 'nft', sigs: op.input.length };
    case 'PropertyMintOperation':
      return { fx: 'property', sigs: op.mintInput.length };
    case 'PropertyBurnOperation':
      return { fx: 'property', sigs: op.input.length };
  }
}

/** The credential slots a tx needs: inputs, then imported inputs, then operations (§4.3). */
export function credentialShapes(tx: UnsignedTx): { fx: CredentialFx; sigs: number }[] {
  if (tx.vm === 'evm') {
    if (tx.kind === 'ExportTx') return tx.ins.map(() => ({ fx: 'secp', sigs: 1 }));
    return tx.importedInputs.map((i) => ({ fx: 'secp', sigs: sigCount(i.input) }));
  }
  const shapes = tx.inputs.map((i) => ({ fx: 'secp' as CredentialFx, sigs: sigCount(i.input) }));
  if (tx.kind === 'ImportTx') for (const i of tx.importedInputs) shapes.push({ fx: 'secp', sigs: sigCount(i.input) });
  if (tx.kind === 'OperationTx') for (const op of tx.operations) shapes.push(operationShape(op.op));
  const auth = tx.vm === 'pvm' ? authorizationOf(tx) : undefined;
  if (auth) shapes.push({ fx: 'secp', sigs: auth.sigIndices.length });
  return shapes;
}

/** Credentials matching the tx's inputs and operations, with random 65-byte signatures. */
export function arbCredentialsFor(tx: UnsignedTx): fc.Arbitrary<Credential[]> {
  return fc.tuple(
    ...credentialShapes(tx).map(({ fx, sigs }) =>
      fc.array(arbSignature, { minLength: sigs, maxLength: sigs }).map((signatures): Credential => ({ fx, signatures })),
    ),
  );
}

export function arbSignedTx(vm: Vm, opts: GenOptions = {}): fc.Arbitrary<SignedTx> {
  return arbUnsignedTx(vm, opts).chain((unsigned) => arbCredentialsFor(unsigned).map((credentials) => ({ unsigned, credentials })));
}

// ---- UTXOs ----

export function arbUtxo(vm: Vm, opts: GenOptions = {}): fc.Arbitrary<Utxo> {
  return record({ txID: arbId, outputIndex: arbU32, assetID: arbId, output: arbOutput(vm, opts) });
}

// ---- shared assertions ----

/**
 * Runs a decoder and returns its result, or the CodecError it threw. Anything else thrown is a
 * bug (the decoder's contract is: a value, or a CodecError) and is re-thrown after checking
 * that the error is a CodecError whose offset lies within the input.
 */
export function decodeOrCodecError<T>(decode: () => T, inputLength: number): { ok: true; value: T } | { ok: false; error: CodecError } {
  try {
    return { ok: true, value: decode() };
  } catch (e) {
    if (!(e instanceof CodecError)) throw new Error(`decoder threw a non-CodecError: ${String(e)}`, { cause: e });
    if (typeof e.offset !== 'number' || !Number.isInteger(e.offset) || e.offset < 0 || e.offset > inputLength) {
      throw new Error(`CodecError offset ${String(e.offset)} outside [0, ${inputLength}]: ${e.message}`, { cause: e });
    }
    return { ok: false, error: e };
  }
}

/** Asserts `decode` throws a CodecError (offset within the input) and returns it. */
export function expectCodecError(decode: () => unknown, inputLength: number): CodecError {
  const r = decodeOrCodecError(decode, inputLength);
  if (r.ok) throw new Error('expected a CodecError, but decoding succeeded');
  return r.error;
}

// fast-check arbitraries shared by the per-chain generators (codec-generators.ts says what they
// yield): primitives, owners, outputs, inputs, and the fields of a BaseTx on X and P.
import fc from 'fast-check';
import { type Bytes, compareBytes, toHex } from '../../src/core/bytes.js';
import {
  encodeOutput,
  type Input,
  type Output,
  type OutputOwners,
  type StakeableLockIn,
  type StakeableLockOut,
  type TransferableInput,
  type TransferableOutput,
  type TransferInput,
  type TransferOutput,
  type UnsignedTx,
  type UtxoRef,
  type Vm,
} from '../../src/core/codec/index.js';

export const VMS: readonly Vm[] = ['avm', 'pvm', 'evm'];

/**
 * `propertyFx: false` leaves out every propertyfx type (outputs 15/16, operations 17/18,
 * credential 19), for comparisons with libraries that do not know that fx.
 */
export interface GenOptions {
  propertyFx?: boolean;
}

export const MAX_LIST = 4;

/** fc.record builds null-prototype objects; the codec's decoders build plain ones. */
export const record = ((model: Parameters<typeof fc.record>[0], constraints?: Parameters<typeof fc.record>[1]) =>
  fc.record(model, constraints).map((o) => ({ ...o }))) as typeof fc.record;
const U32_MAX = 0xffffffff;
export const U64_MAX = (1n << 64n) - 1n;

// ---- primitives ----

export const arbId: fc.Arbitrary<Bytes> = fc.uint8Array({ minLength: 32, maxLength: 32 });
export const arbAddress: fc.Arbitrary<Bytes> = fc.uint8Array({ minLength: 20, maxLength: 20 });
export const arbSignature: fc.Arbitrary<Bytes> = fc.uint8Array({ minLength: 65, maxLength: 65 });
export const arbU32 = fc.integer({ min: 0, max: U32_MAX });
export const arbU64 = fc.bigInt({ min: 0n, max: U64_MAX });
/** Amounts must be positive. */
export const arbAmount = fc.bigInt({ min: 1n, max: U64_MAX });
/** A stakeable locktime is never zero. */
export const arbStakeableLocktime = fc.bigInt({ min: 1n, max: U64_MAX });
const arbLocktime = fc.oneof(fc.constant(0n), arbU64);
export const arbMemo: fc.Arbitrary<Bytes> = fc.uint8Array({ maxLength: 256 });
/** nftfx payloads are at most 1024 bytes; keep them short. */
export const arbPayload: fc.Arbitrary<Bytes> = fc.uint8Array({ maxLength: 48 });

/** Strictly ascending sigIndices. */
export const arbSigIndices: fc.Arbitrary<number[]> = fc
  .uniqueArray(arbU32, { maxLength: 3 })
  .map((xs) => [...xs].sort((a, b) => a - b));

/** Strictly ascending unique addresses; 1 ≤ threshold ≤ #addrs (or 0 with no address). */
export const arbOwners: fc.Arbitrary<OutputOwners> = fc
  .uniqueArray(arbAddress, { maxLength: 3, selector: (a) => toHex(a) })
  .chain((addrs) => {
    const addresses = [...addrs].sort(compareBytes);
    return record({
      locktime: arbLocktime,
      threshold: addresses.length === 0 ? fc.constant(0) : fc.integer({ min: 1, max: addresses.length }),
      addresses: fc.constant(addresses),
    });
  });

// ---- outputs ----

export const arbTransferOutput: fc.Arbitrary<TransferOutput> = record({
  kind: fc.constant('TransferOutput' as const),
  amount: arbAmount,
  owners: arbOwners,
});

export const arbStakeableLockOut: fc.Arbitrary<StakeableLockOut> = record({
  kind: fc.constant('StakeableLockOut' as const),
  locktime: arbStakeableLocktime,
  output: arbTransferOutput,
});

const arbSecpMintOutput: fc.Arbitrary<Output> = record({ kind: fc.constant('MintOutput' as const), owners: arbOwners });
const arbNftMintOutput: fc.Arbitrary<Output> = record({
  kind: fc.constant('NftMintOutput' as const),
  groupID: arbU32,
  owners: arbOwners,
});
const arbNftTransferOutput: fc.Arbitrary<Output> = record({
  kind: fc.constant('NftTransferOutput' as const),
  groupID: arbU32,
  payload: arbPayload,
  owners: arbOwners,
});
const arbPropertyMintOutput: fc.Arbitrary<Output> = record({
  kind: fc.constant('PropertyMintOutput' as const),
  owners: arbOwners,
});
const arbPropertyOwnedOutput: fc.Arbitrary<Output> = record({
  kind: fc.constant('PropertyOwnedOutput' as const),
  owners: arbOwners,
});

/** The outputs each X-Chain fx may hold in an initial state (index = fxIndex). */
export function fxOutputs(fxIndex: number): fc.Arbitrary<Output> {
  if (fxIndex === 0) return fc.oneof(arbTransferOutput, arbSecpMintOutput);
  if (fxIndex === 1) return fc.oneof(arbNftMintOutput, arbNftTransferOutput);
  return fc.oneof(arbPropertyMintOutput, arbPropertyOwnedOutput);
}

/** Any output type registered on `vm`'s codec (what a UTXO may hold). */
export function arbOutput(vm: Vm, opts: GenOptions = {}): fc.Arbitrary<Output> {
  if (vm === 'pvm') return fc.oneof(arbTransferOutput, arbStakeableLockOut);
  if (vm === 'evm') return arbTransferOutput;
  const kinds = [arbTransferOutput, arbSecpMintOutput, arbNftMintOutput, arbNftTransferOutput];
  if (opts.propertyFx !== false) kinds.push(arbPropertyMintOutput, arbPropertyOwnedOutput);
  return fc.oneof(...kinds);
}

/** Outputs by asset ID, then by the output's codec bytes (consensus order, duplicates allowed). */
export function sortTransferable(outputs: TransferableOutput[], vm: Vm): TransferableOutput[] {
  const keyed = outputs.map((o) => ({ o, key: encodeOutput(o.output, vm) }));
  keyed.sort((a, b) => compareBytes(a.o.assetID, b.o.assetID) || compareBytes(a.key, b.key));
  return keyed.map((k) => k.o);
}

export function sortByCodecBytes(outputs: Output[], vm: Vm): Output[] {
  const keyed = outputs.map((o) => ({ o, key: encodeOutput(o, vm) }));
  keyed.sort((a, b) => compareBytes(a.key, b.key));
  return keyed.map((k) => k.o);
}

/**
 * A sorted list of fungible transferable outputs. `locked` allows P-Chain StakeableLockOut
 * (never in exported outputs). `assetID` pins every output to one asset (C-Chain: AVAX only).
 */
export function arbTransferableOutputs(
  vm: Vm,
  o: { minLength?: number; locked?: boolean; assetID?: Bytes } = {},
): fc.Arbitrary<TransferableOutput[]> {
  const output = vm === 'pvm' && o.locked ? fc.oneof(arbTransferOutput, arbStakeableLockOut) : arbTransferOutput;
  const assetID = o.assetID ? fc.constant(o.assetID) : arbId;
  return fc
    .array(record({ assetID, output }), { minLength: o.minLength ?? 0, maxLength: MAX_LIST })
    .map((list) => sortTransferable(list, vm));
}

// ---- inputs ----

export const arbTransferInput: fc.Arbitrary<TransferInput> = record({
  kind: fc.constant('TransferInput' as const),
  amount: arbAmount,
  sigIndices: arbSigIndices,
});

export const arbStakeableLockIn: fc.Arbitrary<StakeableLockIn> = record({
  kind: fc.constant('StakeableLockIn' as const),
  locktime: arbStakeableLocktime,
  input: arbTransferInput,
});

export function arbInput(vm: Vm): fc.Arbitrary<Input> {
  return vm === 'pvm' ? fc.oneof(arbTransferInput, arbStakeableLockIn) : arbTransferInput;
}

export const refKey = (r: UtxoRef): string => `${toHex(r.txID)}:${r.outputIndex}`;
export const compareRefs = (a: UtxoRef, b: UtxoRef): number => compareBytes(a.txID, b.txID) || a.outputIndex - b.outputIndex;

export const arbUtxoRef: fc.Arbitrary<UtxoRef> = record({ txID: arbId, outputIndex: arbU32 });

/** Inputs sorted by (txID, outputIndex), unique. `locked` allows StakeableLockIn on P. */
export function arbTransferableInputs(
  vm: Vm,
  o: { minLength?: number; locked?: boolean; assetID?: Bytes } = {},
): fc.Arbitrary<TransferableInput[]> {
  const input = o.locked ? arbInput(vm) : arbTransferInput;
  const assetID = o.assetID ? fc.constant(o.assetID) : arbId;
  return fc
    .uniqueArray(record({ txID: arbId, outputIndex: arbU32, assetID, input }), {
      minLength: o.minLength ?? 0,
      maxLength: MAX_LIST,
      selector: refKey,
    })
    .map((list) => [...list].sort(compareRefs));
}

/** Every UTXO a tx consumes (inputs, imported inputs, operation UTXOs) must be distinct. */
export function consumedRefsUnique(tx: UnsignedTx): boolean {
  const refs: UtxoRef[] = [];
  if (tx.vm !== 'evm') refs.push(...tx.inputs);
  if (tx.kind === 'ImportTx') refs.push(...tx.importedInputs);
  if (tx.kind === 'OperationTx') for (const op of tx.operations) refs.push(...op.utxoIDs);
  return new Set(refs.map(refKey)).size === refs.length;
}

// ---- the BaseTx fields of X and P ----

export function arbBaseFields(vm: 'avm' | 'pvm') {
  return record({
    networkID: arbU32,
    blockchainID: arbId,
    outputs: arbTransferableOutputs(vm, { locked: true }),
    inputs: arbTransferableInputs(vm, { locked: true }),
    // P-Chain memos must be empty since Durango.
    memo: vm === 'avm' ? arbMemo : fc.constant(new Uint8Array()),
  });
}

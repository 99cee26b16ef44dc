// Encoding and strict decoding of X-Chain (avm), P-Chain (platformvm) and C-Chain atomic (coreth)
// transactions and UTXOs. Layouts and type IDs: docs/protocol.md. Shared parts are in parts.ts,
// the P-Chain's tx types in pvm.ts.
import type { Bytes } from '../bytes.js';
import { ByteCounter, ByteReader, ByteWriter } from './io.js';
import {
  ADDRESS_LENGTH,
  CODEC_VERSION,
  ID_LENGTH,
  invert,
  MIN_CREDENTIAL,
  MIN_OUTPUT,
  MIN_OWNERS,
  MIN_TRANSFERABLE_OUTPUT,
  readBaseFields,
  readCredential,
  readIndices,
  readList,
  readOutput,
  readOwners,
  readTransferableInputs,
  readTransferableOutput,
  readTransferableOutputs,
  readTransferOutputBody,
  readTypeId,
  readUtxoRef,
  readVersion,
  SIGNATURE_LENGTH,
  typeIdOf,
  UTXO_REF_SIZE,
  VM_NAMES,
  writeBaseFields,
  writeCredential,
  writeIndices,
  writeList,
  writeOutput,
  writeOwners,
  writeTransferableInput,
  writeTransferableInputs,
  writeTransferableOutputs,
  writeTransferOutputBody,
  writeUtxoRef,
} from './parts.js';
import { isPBlockTx, PVM_TX_TYPE_IDS, readPvmTx, writePvmTx } from './pvm.js';
import { decodeTransferUtxo, type IdTable } from './utxo-fast.js';
import type {
  ChainTx,
  CExportTx,
  CImportTx,
  Credential,
  EvmInput,
  EvmOutput,
  FxOperation,
  InitialState,
  Operation,
  SignedTx,
  UnsignedTx,
  Utxo,
  Vm,
} from './types.js';

export { CODEC_VERSION, ID_LENGTH, ADDRESS_LENGTH, SIGNATURE_LENGTH, encodeOutput } from './parts.js';

type OperationKind = FxOperation['kind'];

const OPERATION_TYPE_IDS: Record<OperationKind, number> = {
  SecpMintOperation: 8,
  NftMintOperation: 12,
  NftTransferOperation: 13,
  PropertyMintOperation: 17,
  PropertyBurnOperation: 18,
};
const OPERATION_KINDS = invert(OPERATION_TYPE_IDS);

const X_TX_TYPE_IDS = { BaseTx: 0, CreateAssetTx: 1, OperationTx: 2, ImportTx: 3, ExportTx: 4 } as const;
const C_TX_TYPE_IDS = { ImportTx: 0, ExportTx: 1 } as const;
const X_TX_KINDS = invert<keyof typeof X_TX_TYPE_IDS>(X_TX_TYPE_IDS);
const C_TX_KINDS = invert<keyof typeof C_TX_TYPE_IDS>(C_TX_TYPE_IDS);

// ---- encoding ----

function writeFxOperation(w: ByteWriter, op: FxOperation): void {
  w.u32(OPERATION_TYPE_IDS[op.kind]);
  switch (op.kind) {
    case 'SecpMintOperation':
      writeIndices(w, op.mintInput);
      writeOwners(w, op.mintOutput);
      return writeTransferOutputBody(w, op.transferOutput);
    case 'NftMintOperation':
      writeIndices(w, op.mintInput);
      w.u32(op.groupID);
      w.varBytes(op.payload);
      return writeList(w, op.outputs, (o) => writeOwners(w, o));
    case 'NftTransferOperation':
      writeIndices(w, op.input);
      w.u32(op.output.groupID);
      w.varBytes(op.output.payload);
      return writeOwners(w, op.output.owners);
    case 'PropertyMintOperation':
      writeIndices(w, op.mintInput);
      writeOwners(w, op.mintOutput);
      return writeOwners(w, op.ownedOutput);
    case 'PropertyBurnOperation':
      return writeIndices(w, op.input);
  }
}

export function writeOperation(w: ByteWriter, op: Operation): void {
  w.fixed(op.assetID, ID_LENGTH, 'assetID');
  writeList(w, op.utxoIDs, (r) => writeUtxoRef(w, r));
  writeFxOperation(w, op.op);
}

function writeEvmOutput(w: ByteWriter, o: EvmOutput): void {
  w.fixed(o.address, ADDRESS_LENGTH, 'address');
  w.u64(o.amount);
  w.fixed(o.assetID, ID_LENGTH, 'assetID');
}

function writeEvmInput(w: ByteWriter, i: EvmInput): void {
  w.fixed(i.address, ADDRESS_LENGTH, 'address');
  w.u64(i.amount);
  w.fixed(i.assetID, ID_LENGTH, 'assetID');
  w.u64(i.nonce);
}

function writeUnsignedBody(w: ByteWriter, tx: ChainTx): void {
  if (tx.vm === 'pvm') return writePvmTx(w, tx);
  if (tx.vm === 'evm') {
    w.u32(C_TX_TYPE_IDS[tx.kind]);
    w.u32(tx.networkID);
    w.fixed(tx.blockchainID, ID_LENGTH, 'blockchainID');
    if (tx.kind === 'ImportTx') {
      w.fixed(tx.sourceChain, ID_LENGTH, 'sourceChain');
      writeTransferableInputs(w, 'evm', tx.importedInputs);
      writeList(w, tx.outs, (o) => writeEvmOutput(w, o));
    } else {
      w.fixed(tx.destinationChain, ID_LENGTH, 'destinationChain');
      writeList(w, tx.ins, (i) => writeEvmInput(w, i));
      writeTransferableOutputs(w, 'evm', tx.exportedOutputs);
    }
    return;
  }
  w.u32(typeIdOf<string>(X_TX_TYPE_IDS, tx.kind, 'avm', 'transaction type'));
  writeBaseFields(w, 'avm', tx);
  switch (tx.kind) {
    case 'BaseTx':
      return;
    case 'CreateAssetTx':
      w.str(tx.name);
      w.str(tx.symbol);
      w.u8(tx.denomination);
      return writeList(w, tx.initialStates, (s) => {
        w.u32(s.fxIndex);
        writeList(w, s.outputs, (o) => writeOutput(w, 'avm', o));
      });
    case 'OperationTx':
      return writeList(w, tx.operations, (op) => writeOperation(w, op));
    case 'ImportTx':
      w.fixed(tx.sourceChain, ID_LENGTH, 'sourceChain');
      return writeTransferableInputs(w, 'avm', tx.importedInputs);
    case 'ExportTx':
      w.fixed(tx.destinationChain, ID_LENGTH, 'destinationChain');
      return writeTransferableOutputs(w, 'avm', tx.exportedOutputs);
  }
}

/** The bytes that are hashed and signed: version, type ID, body. */
export function encodeUnsignedTx(tx: ChainTx): Bytes {
  const w = new ByteWriter(1024);
  w.u16(CODEC_VERSION);
  writeUnsignedBody(w, tx);
  return w.finish();
}

/** encodeUnsignedTx(tx).length, without making the bytes. */
export function unsignedTxLength(tx: ChainTx): number {
  const counter = new ByteCounter();
  counter.u16(CODEC_VERSION);
  writeUnsignedBody(counter, tx);
  return counter.length();
}

/** Signed bytes: exactly the unsigned bytes followed by the credentials. */
export function encodeSignedTx(tx: SignedTx<ChainTx>): Bytes {
  const w = new ByteWriter(2048);
  w.u16(CODEC_VERSION);
  writeUnsignedBody(w, tx.unsigned);
  writeList(w, tx.credentials, (c) => writeCredential(w, tx.unsigned.vm, c));
  return w.finish();
}

/** Appends credentials to already-encoded unsigned bytes (avoids re-encoding a large tx). */
export function appendCredentials(unsignedBytes: Bytes, vm: Vm, credentials: Credential[]): Bytes {
  const w = new ByteWriter(unsignedBytes.length + 4 + credentials.length * (8 + SIGNATURE_LENGTH));
  w.raw(unsignedBytes);
  writeList(w, credentials, (c) => writeCredential(w, vm, c));
  return w.finish();
}

export function encodeUtxo(utxo: Utxo, vm: Vm): Bytes {
  const w = new ByteWriter(160);
  w.u16(CODEC_VERSION);
  writeUtxoRef(w, utxo);
  w.fixed(utxo.assetID, ID_LENGTH, 'assetID');
  writeOutput(w, vm, utxo.output);
  return w.finish();
}

// ---- decoding ----

function readFxOperation(r: ByteReader): FxOperation {
  const kind = readTypeId(r, OPERATION_KINDS, 'avm', 'operation');
  switch (kind) {
    case 'SecpMintOperation': {
      const mintInput = readIndices(r);
      const mintOutput = readOwners(r);
      const t = readTransferOutputBody(r);
      return { kind, mintInput, mintOutput, transferOutput: { amount: t.amount, owners: t.owners } };
    }
    case 'NftMintOperation': {
      const mintInput = readIndices(r);
      const groupID = r.u32('groupID');
      const payload = r.varBytes('payload');
      const outputs = readList(r, MIN_OWNERS, 'outputs', () => readOwners(r));
      return { kind, mintInput, groupID, payload, outputs };
    }
    case 'NftTransferOperation': {
      const input = readIndices(r);
      const groupID = r.u32('groupID');
      const payload = r.varBytes('payload');
      return { kind, input, output: { groupID, payload, owners: readOwners(r) } };
    }
    case 'PropertyMintOperation': {
      const mintInput = readIndices(r);
      const mintOutput = readOwners(r);
      return { kind, mintInput, mintOutput, ownedOutput: readOwners(r) };
    }
    case 'PropertyBurnOperation':
      return { kind, input: readIndices(r) };
  }
}

function readOperation(r: ByteReader): Operation {
  const assetID = r.fixed(ID_LENGTH, 'assetID');
  const utxoIDs = readList(r, UTXO_REF_SIZE, 'utxoIDs', () => readUtxoRef(r));
  return { assetID, utxoIDs, op: readFxOperation(r) };
}

function readInitialState(r: ByteReader): InitialState {
  const fxIndex = r.u32('fxIndex');
  const outputs = readList(r, MIN_OUTPUT, 'initial state outputs', () => readOutput(r, 'avm'));
  return { fxIndex, outputs };
}

function readEvmOutput(r: ByteReader): EvmOutput {
  const address = r.fixed(ADDRESS_LENGTH, 'address');
  const amount = r.u64('amount');
  return { address, amount, assetID: r.fixed(ID_LENGTH, 'assetID') };
}

function readEvmInput(r: ByteReader): EvmInput {
  const address = r.fixed(ADDRESS_LENGTH, 'address');
  const amount = r.u64('amount');
  const assetID = r.fixed(ID_LENGTH, 'assetID');
  return { address, amount, assetID, nonce: r.u64('nonce') };
}

function readCTx(r: ByteReader): CImportTx | CExportTx {
  const at = r.offset;
  const typeId = r.u32('transaction type ID');
  const kind = C_TX_KINDS.get(typeId);
  if (kind === undefined) r.fail(`unknown ${VM_NAMES.evm} transaction type ID ${typeId}`, at);
  const vm = 'evm' as const;
  const networkID = r.u32('networkID');
  const blockchainID = r.fixed(ID_LENGTH, 'blockchainID');
  if (kind === 'ImportTx') {
    const sourceChain = r.fixed(ID_LENGTH, 'sourceChain');
    const importedInputs = readTransferableInputs(r, vm, 'importedInputs');
    const outs = readList(r, 60, 'outs', () => readEvmOutput(r));
    return { vm, kind, networkID, blockchainID, sourceChain, importedInputs, outs };
  }
  const destinationChain = r.fixed(ID_LENGTH, 'destinationChain');
  const ins = readList(r, 68, 'ins', () => readEvmInput(r));
  const exportedOutputs = readList(r, MIN_TRANSFERABLE_OUTPUT, 'exportedOutputs', () => readTransferableOutput(r, vm));
  return { vm, kind, networkID, blockchainID, destinationChain, ins, exportedOutputs };
}

function readXTx(r: ByteReader): UnsignedTx {
  const at = r.offset;
  const typeId = r.u32('transaction type ID');
  const kind = X_TX_KINDS.get(typeId);
  if (kind === undefined) r.fail(`unknown ${VM_NAMES.avm} transaction type ID ${typeId}`, at);
  const vm = 'avm' as const;
  const base = { vm, ...readBaseFields(r, vm) };
  switch (kind) {
    case 'BaseTx':
      return { ...base, kind };
    case 'CreateAssetTx': {
      const name = r.str('name');
      const symbol = r.str('symbol');
      const denomination = r.u8('denomination');
      const initialStates = readList(r, 8, 'initialStates', () => readInitialState(r));
      return { ...base, kind, name, symbol, denomination, initialStates };
    }
    case 'OperationTx':
      return { ...base, kind, operations: readList(r, ID_LENGTH + 8, 'operations', () => readOperation(r)) };
    case 'ImportTx': {
      const sourceChain = r.fixed(ID_LENGTH, 'sourceChain');
      return { ...base, kind, sourceChain, importedInputs: readTransferableInputs(r, vm, 'importedInputs') };
    }
    case 'ExportTx': {
      const destinationChain = r.fixed(ID_LENGTH, 'destinationChain');
      return { ...base, kind, destinationChain, exportedOutputs: readTransferableOutputs(r, vm, 'exportedOutputs') };
    }
  }
}

function readChainTx(r: ByteReader, vm: Vm): ChainTx {
  if (vm === 'pvm') return readPvmTx(r);
  return vm === 'evm' ? readCTx(r) : readXTx(r);
}

/** A wallet tx: block-builder txs (no BaseTx, never signed) are refused by name. */
function readUnsignedBody(r: ByteReader, vm: Vm): UnsignedTx {
  const at = r.offset;
  const tx = readChainTx(r, vm);
  if (tx.vm === 'pvm' && isPBlockTx(tx)) {
    r.fail(`P-Chain transaction type ${PVM_TX_TYPE_IDS[tx.kind]} (${tx.kind}) is issued by the block builder; no wallet signs it`, at);
  }
  return tx;
}

function readCredentials(r: ByteReader, vm: Vm): Credential[] {
  return readList(r, MIN_CREDENTIAL, 'credentials', () => readCredential(r, vm));
}

export function decodeUnsignedTx(bytes: Bytes, vm: Vm): UnsignedTx {
  const r = new ByteReader(bytes);
  readVersion(r);
  const tx = readUnsignedBody(r, vm);
  r.end();
  return tx;
}

export interface DecodedSignedTx<T extends ChainTx = UnsignedTx> extends SignedTx<T> {
  /** Length of the unsigned prefix of the signed bytes (what was hashed and signed). */
  unsignedLength: number;
}

export function decodeSignedTx(bytes: Bytes, vm: Vm): DecodedSignedTx {
  const r = new ByteReader(bytes);
  readVersion(r);
  const unsigned = readUnsignedBody(r, vm);
  const unsignedLength = r.offset;
  const credentials = readCredentials(r, vm);
  r.end();
  return { unsigned, credentials, unsignedLength };
}

/**
 * A signed tx as a chain stores it (getTx, history): wallet txs and the P-Chain's block-builder
 * txs (AdvanceTimeTx, RewardValidatorTx, RewardAutoRenewedValidatorTx, which have no credentials).
 */
export function decodeChainTx(bytes: Bytes, vm: Vm): DecodedSignedTx<ChainTx> {
  const r = new ByteReader(bytes);
  readVersion(r);
  const unsigned = readChainTx(r, vm);
  const unsignedLength = r.offset;
  const credentials = readCredentials(r, vm);
  r.end();
  return { unsigned, credentials, unsignedLength };
}

/**
 * A UTXO from its codec bytes, strictly. A TransferOutput UTXO is read by the fast path (its IDs
 * and addresses are views into `bytes`, shared through `ids` when given); any other is decoded
 * field by field (decodeUtxoFields).
 */
export function decodeUtxo(bytes: Bytes, vm: Vm, ids?: IdTable): Utxo {
  return decodeTransferUtxo(bytes, ids) ?? decodeUtxoFields(bytes, vm);
}

/** decodeUtxo field by field, for every kind of output; its errors say what is wrong where. */
export function decodeUtxoFields(bytes: Bytes, vm: Vm): Utxo {
  const r = new ByteReader(bytes);
  readVersion(r);
  const ref = readUtxoRef(r);
  const assetID = r.fixed(ID_LENGTH, 'assetID');
  const output = readOutput(r, vm);
  r.end();
  return { ...ref, assetID, output };
}

// Exposed for the builders' sort keys and size estimates.
export { writeTransferableInput, writeEvmInput, writeEvmOutput };

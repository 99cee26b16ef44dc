// Encoding and strict decoding of X-Chain (avm), P-Chain (platformvm) and C-Chain atomic (coreth)
// structures. Layouts and type IDs: ../shared/protocol/wire-format.md §1, §3–§6.
import type { Bytes } from '../bytes.js';
import { ValidationError } from '../errors.js';
import { ByteReader, ByteWriter } from './io.js';
import type {
  CExportTx,
  CImportTx,
  Credential,
  CredentialFx,
  EvmInput,
  EvmOutput,
  FxOperation,
  InitialState,
  Input,
  Operation,
  Output,
  OutputOwners,
  SignedTx,
  TransferableInput,
  TransferableOutput,
  TransferInput,
  TransferOutput,
  UnsignedTx,
  Utxo,
  UtxoRef,
  Vm,
} from './types.js';

export const CODEC_VERSION = 0;
export const ID_LENGTH = 32;
export const ADDRESS_LENGTH = 20;
export const SIGNATURE_LENGTH = 65;

// ---- type-ID tables ----

type OutputKind = Output['kind'];
type InputKind = Input['kind'];
type OperationKind = FxOperation['kind'];

const OUTPUT_TYPE_IDS: Record<Vm, Partial<Record<OutputKind, number>>> = {
  avm: {
    MintOutput: 6,
    TransferOutput: 7,
    NftMintOutput: 10,
    NftTransferOutput: 11,
    PropertyMintOutput: 15,
    PropertyOwnedOutput: 16,
  },
  pvm: { TransferOutput: 7, StakeableLockOut: 22 },
  evm: { TransferOutput: 7 },
};

const INPUT_TYPE_IDS: Record<Vm, Partial<Record<InputKind, number>>> = {
  avm: { TransferInput: 5 },
  pvm: { TransferInput: 5, StakeableLockIn: 21 },
  evm: { TransferInput: 5 },
};

const OPERATION_TYPE_IDS: Record<OperationKind, number> = {
  SecpMintOperation: 8,
  NftMintOperation: 12,
  NftTransferOperation: 13,
  PropertyMintOperation: 17,
  PropertyBurnOperation: 18,
};

const CREDENTIAL_TYPE_IDS: Record<Vm, Partial<Record<CredentialFx, number>>> = {
  avm: { secp: 9, nft: 14, property: 19 },
  pvm: { secp: 9 },
  evm: { secp: 9 },
};

const TX_TYPE_IDS: { [V in Vm]: Partial<Record<Extract<UnsignedTx, { vm: V }>['kind'], number>> } = {
  avm: { BaseTx: 0, CreateAssetTx: 1, OperationTx: 2, ImportTx: 3, ExportTx: 4 },
  pvm: { ImportTx: 17, ExportTx: 18, BaseTx: 34 },
  evm: { ImportTx: 0, ExportTx: 1 },
};

/** P-Chain tx types a dApp may hand us that this wallet does not decode, for a clear refusal. */
const UNSUPPORTED_PVM_TX_NAMES: Record<number, string> = {
  12: 'AddValidatorTx',
  13: 'AddSubnetValidatorTx',
  14: 'AddDelegatorTx',
  15: 'CreateChainTx',
  16: 'CreateSubnetTx',
  19: 'AdvanceTimeTx',
  20: 'RewardValidatorTx',
  23: 'RemoveSubnetValidatorTx',
  24: 'TransformSubnetTx',
  25: 'AddPermissionlessValidatorTx',
  26: 'AddPermissionlessDelegatorTx',
  33: 'TransferSubnetOwnershipTx',
  35: 'ConvertSubnetToL1Tx',
  36: 'RegisterL1ValidatorTx',
  37: 'SetL1ValidatorWeightTx',
  38: 'IncreaseL1ValidatorBalanceTx',
  39: 'DisableL1ValidatorTx',
};

function invert<K extends string>(table: Partial<Record<K, number>>): Map<number, K> {
  const out = new Map<number, K>();
  for (const [k, v] of Object.entries(table) as [K, number][]) out.set(v, k);
  return out;
}

const OUTPUT_KINDS = mapVms((vm) => invert(OUTPUT_TYPE_IDS[vm]));
const INPUT_KINDS = mapVms((vm) => invert(INPUT_TYPE_IDS[vm]));
const CREDENTIAL_KINDS = mapVms((vm) => invert(CREDENTIAL_TYPE_IDS[vm]));
const OPERATION_KINDS = invert(OPERATION_TYPE_IDS);
const TX_KINDS = mapVms((vm) => invert<string>(TX_TYPE_IDS[vm] as Record<string, number>));

function mapVms<T>(f: (vm: Vm) => T): Record<Vm, T> {
  return { avm: f('avm'), pvm: f('pvm'), evm: f('evm') };
}

const VM_NAMES: Record<Vm, string> = { avm: 'X-Chain', pvm: 'P-Chain', evm: 'C-Chain atomic' };

function typeIdOf<K extends string>(table: Partial<Record<K, number>>, kind: K, vm: Vm, what: string): number {
  const id = table[kind];
  if (id === undefined) throw new ValidationError(`${what} ${kind} does not exist on the ${VM_NAMES[vm]}`);
  return id;
}

// Minimum encoded sizes, used to bound slice counts before decoding them.
const MIN_OWNERS = 16;
const MIN_OUTPUT = 4 + MIN_OWNERS;
const MIN_TRANSFERABLE_OUTPUT = ID_LENGTH + MIN_OUTPUT;
const MIN_TRANSFERABLE_INPUT = ID_LENGTH + 4 + ID_LENGTH + 4 + 12;
const MIN_CREDENTIAL = 8;
const UTXO_REF_SIZE = ID_LENGTH + 4;

// ---- encoding ----

function writeOwners(w: ByteWriter, owners: OutputOwners): void {
  w.u64(owners.locktime);
  w.u32(owners.threshold);
  w.u32(owners.addresses.length);
  for (const a of owners.addresses) w.fixed(a, ADDRESS_LENGTH, 'address');
}

function writeIndices(w: ByteWriter, indices: number[]): void {
  w.u32(indices.length);
  for (const i of indices) w.u32(i);
}

function writeTransferOutputBody(w: ByteWriter, o: { amount: bigint; owners: OutputOwners }): void {
  w.u64(o.amount);
  writeOwners(w, o.owners);
}

/** Writes an output as its interface form: type ID, then body. */
export function writeOutput(w: ByteWriter, vm: Vm, out: Output): void {
  w.u32(typeIdOf(OUTPUT_TYPE_IDS[vm], out.kind, vm, 'output'));
  switch (out.kind) {
    case 'TransferOutput':
      return writeTransferOutputBody(w, out);
    case 'MintOutput':
    case 'PropertyMintOutput':
    case 'PropertyOwnedOutput':
      return writeOwners(w, out.owners);
    case 'NftMintOutput':
      w.u32(out.groupID);
      return writeOwners(w, out.owners);
    case 'NftTransferOutput':
      w.u32(out.groupID);
      w.varBytes(out.payload);
      return writeOwners(w, out.owners);
    case 'StakeableLockOut':
      w.u64(out.locktime);
      return writeOutput(w, vm, out.output);
  }
}

function writeInput(w: ByteWriter, vm: Vm, input: Input): void {
  w.u32(typeIdOf(INPUT_TYPE_IDS[vm], input.kind, vm, 'input'));
  if (input.kind === 'StakeableLockIn') {
    w.u64(input.locktime);
    return writeInput(w, vm, input.input);
  }
  w.u64(input.amount);
  writeIndices(w, input.sigIndices);
}

export function writeTransferableOutput(w: ByteWriter, vm: Vm, o: TransferableOutput): void {
  w.fixed(o.assetID, ID_LENGTH, 'assetID');
  writeOutput(w, vm, o.output);
}

function writeUtxoRef(w: ByteWriter, ref: UtxoRef): void {
  w.fixed(ref.txID, ID_LENGTH, 'txID');
  w.u32(ref.outputIndex);
}

function writeTransferableInput(w: ByteWriter, vm: Vm, i: TransferableInput): void {
  writeUtxoRef(w, i);
  w.fixed(i.assetID, ID_LENGTH, 'assetID');
  writeInput(w, vm, i.input);
}

function writeList<T>(w: ByteWriter, items: readonly T[], write: (item: T) => void): void {
  w.u32(items.length);
  for (const item of items) write(item);
}

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

function writeUnsignedBody(w: ByteWriter, tx: UnsignedTx): void {
  const vm = tx.vm;
  w.u32(typeIdOf(TX_TYPE_IDS[vm] as Record<string, number>, tx.kind, vm, 'transaction type'));
  if (tx.vm === 'evm') {
    w.u32(tx.networkID);
    w.fixed(tx.blockchainID, ID_LENGTH, 'blockchainID');
    if (tx.kind === 'ImportTx') {
      w.fixed(tx.sourceChain, ID_LENGTH, 'sourceChain');
      writeList(w, tx.importedInputs, (i) => writeTransferableInput(w, vm, i));
      writeList(w, tx.outs, (o) => writeEvmOutput(w, o));
    } else {
      w.fixed(tx.destinationChain, ID_LENGTH, 'destinationChain');
      writeList(w, tx.ins, (i) => writeEvmInput(w, i));
      writeList(w, tx.exportedOutputs, (o) => writeTransferableOutput(w, vm, o));
    }
    return;
  }
  w.u32(tx.networkID);
  w.fixed(tx.blockchainID, ID_LENGTH, 'blockchainID');
  writeList(w, tx.outputs, (o) => writeTransferableOutput(w, vm, o));
  writeList(w, tx.inputs, (i) => writeTransferableInput(w, vm, i));
  w.varBytes(tx.memo);
  switch (tx.kind) {
    case 'BaseTx':
      return;
    case 'CreateAssetTx':
      w.str(tx.name);
      w.str(tx.symbol);
      w.u8(tx.denomination);
      return writeList(w, tx.initialStates, (s) => {
        w.u32(s.fxIndex);
        writeList(w, s.outputs, (o) => writeOutput(w, vm, o));
      });
    case 'OperationTx':
      return writeList(w, tx.operations, (op) => writeOperation(w, op));
    case 'ImportTx':
      w.fixed(tx.sourceChain, ID_LENGTH, 'sourceChain');
      return writeList(w, tx.importedInputs, (i) => writeTransferableInput(w, vm, i));
    case 'ExportTx':
      w.fixed(tx.destinationChain, ID_LENGTH, 'destinationChain');
      return writeList(w, tx.exportedOutputs, (o) => writeTransferableOutput(w, vm, o));
  }
}

function writeCredential(w: ByteWriter, vm: Vm, c: Credential): void {
  w.u32(typeIdOf(CREDENTIAL_TYPE_IDS[vm], c.fx, vm, 'credential'));
  writeList(w, c.signatures, (s) => w.fixed(s, SIGNATURE_LENGTH, 'signature'));
}

/** The bytes that are hashed and signed: version, type ID, body. */
export function encodeUnsignedTx(tx: UnsignedTx): Bytes {
  const w = new ByteWriter(1024);
  w.u16(CODEC_VERSION);
  writeUnsignedBody(w, tx);
  return w.finish();
}

/** Signed bytes: exactly the unsigned bytes followed by the credentials. */
export function encodeSignedTx(tx: SignedTx): Bytes {
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

/** Codec bytes of one output in its interface form (version + type ID + body): the sort key. */
export function encodeOutput(out: Output, vm: Vm): Bytes {
  const w = new ByteWriter(96);
  w.u16(CODEC_VERSION);
  writeOutput(w, vm, out);
  return w.finish();
}

// ---- decoding ----

function readOwners(r: ByteReader): OutputOwners {
  const locktime = r.u64('locktime');
  const threshold = r.u32('threshold');
  const n = r.count(ADDRESS_LENGTH, 'addresses');
  const addresses: Bytes[] = [];
  for (let i = 0; i < n; i++) addresses.push(r.fixed(ADDRESS_LENGTH, 'address'));
  return { locktime, threshold, addresses };
}

function readIndices(r: ByteReader): number[] {
  const n = r.count(4, 'sigIndices');
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(r.u32('sigIndex'));
  return out;
}

function readTransferOutputBody(r: ByteReader): TransferOutput {
  const amount = r.u64('amount');
  return { kind: 'TransferOutput', amount, owners: readOwners(r) };
}

function readTypeId<K>(r: ByteReader, kinds: Map<number, K>, vm: Vm, what: string): K {
  const at = r.offset;
  const id = r.u32(`${what} type ID`);
  const kind = kinds.get(id);
  if (kind === undefined) r.fail(`unknown ${what} type ID ${id} on the ${VM_NAMES[vm]}`, at);
  return kind;
}

export function readOutput(r: ByteReader, vm: Vm, nested = false): Output {
  const at = r.offset;
  const kind = readTypeId(r, OUTPUT_KINDS[vm], vm, 'output');
  switch (kind) {
    case 'TransferOutput':
      return readTransferOutputBody(r);
    case 'MintOutput':
    case 'PropertyMintOutput':
    case 'PropertyOwnedOutput':
      return { kind, owners: readOwners(r) };
    case 'NftMintOutput': {
      const groupID = r.u32('groupID');
      return { kind, groupID, owners: readOwners(r) };
    }
    case 'NftTransferOutput': {
      const groupID = r.u32('groupID');
      const payload = r.varBytes('payload');
      return { kind, groupID, payload, owners: readOwners(r) };
    }
    case 'StakeableLockOut': {
      if (nested) r.fail('a stakeable lock cannot wrap another stakeable lock', at);
      const locktime = r.u64('locktime');
      const innerAt = r.offset;
      const output = readOutput(r, vm, true);
      if (output.kind !== 'TransferOutput') r.fail('a stakeable lock must wrap a transfer output', innerAt);
      return { kind, locktime, output };
    }
  }
}

function readInput(r: ByteReader, vm: Vm, nested = false): Input {
  const at = r.offset;
  const kind = readTypeId(r, INPUT_KINDS[vm], vm, 'input');
  if (kind === 'StakeableLockIn') {
    if (nested) r.fail('a stakeable lock cannot wrap another stakeable lock', at);
    const locktime = r.u64('locktime');
    const input = readInput(r, vm, true) as TransferInput;
    return { kind, locktime, input };
  }
  const amount = r.u64('amount');
  return { kind, amount, sigIndices: readIndices(r) };
}

function readTransferableOutput(r: ByteReader, vm: Vm): TransferableOutput {
  const assetID = r.fixed(ID_LENGTH, 'assetID');
  return { assetID, output: readOutput(r, vm) };
}

function readUtxoRef(r: ByteReader): UtxoRef {
  const txID = r.fixed(ID_LENGTH, 'txID');
  return { txID, outputIndex: r.u32('outputIndex') };
}

function readTransferableInput(r: ByteReader, vm: Vm): TransferableInput {
  const ref = readUtxoRef(r);
  const assetID = r.fixed(ID_LENGTH, 'assetID');
  return { ...ref, assetID, input: readInput(r, vm) };
}

function readList<T>(r: ByteReader, minSize: number, what: string, read: () => T): T[] {
  const n = r.count(minSize, what);
  const out: T[] = [];
  for (let i = 0; i < n; i++) out.push(read());
  return out;
}

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

function readInitialState(r: ByteReader, vm: Vm): InitialState {
  const fxIndex = r.u32('fxIndex');
  const outputs = readList(r, MIN_OUTPUT, 'initial state outputs', () => readOutput(r, vm));
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

function readVersion(r: ByteReader): void {
  const version = r.u16('codec version');
  if (version !== CODEC_VERSION) r.fail(`unknown codec version ${version}`, 0);
}

function readUnsignedBody(r: ByteReader, vm: Vm): UnsignedTx {
  const at = r.offset;
  const typeId = r.u32('transaction type ID');
  const kind = TX_KINDS[vm].get(typeId);
  if (kind === undefined) {
    const known = vm === 'pvm' ? UNSUPPORTED_PVM_TX_NAMES[typeId] : undefined;
    r.fail(
      known
        ? `unsupported P-Chain transaction type ${typeId} (${known})`
        : `unknown ${VM_NAMES[vm]} transaction type ID ${typeId}`,
      at,
    );
  }
  const networkID = r.u32('networkID');
  const blockchainID = r.fixed(ID_LENGTH, 'blockchainID');
  if (vm === 'evm') {
    if (kind === 'ImportTx') {
      const sourceChain = r.fixed(ID_LENGTH, 'sourceChain');
      const importedInputs = readList(r, MIN_TRANSFERABLE_INPUT, 'importedInputs', () =>
        readTransferableInput(r, vm),
      );
      const outs = readList(r, 60, 'outs', () => readEvmOutput(r));
      return { vm, kind, networkID, blockchainID, sourceChain, importedInputs, outs } satisfies CImportTx;
    }
    const destinationChain = r.fixed(ID_LENGTH, 'destinationChain');
    const ins = readList(r, 68, 'ins', () => readEvmInput(r));
    const exportedOutputs = readList(r, MIN_TRANSFERABLE_OUTPUT, 'exportedOutputs', () =>
      readTransferableOutput(r, vm),
    );
    return { vm, kind: 'ExportTx', networkID, blockchainID, destinationChain, ins, exportedOutputs } satisfies CExportTx;
  }
  const outputs = readList(r, MIN_TRANSFERABLE_OUTPUT, 'outputs', () => readTransferableOutput(r, vm));
  const inputs = readList(r, MIN_TRANSFERABLE_INPUT, 'inputs', () => readTransferableInput(r, vm));
  const memo = r.varBytes('memo');
  const base = { networkID, blockchainID, outputs, inputs, memo };
  switch (kind) {
    case 'BaseTx':
      return { vm, kind, ...base } as UnsignedTx;
    case 'CreateAssetTx': {
      const name = r.str('name');
      const symbol = r.str('symbol');
      const denomination = r.u8('denomination');
      const initialStates = readList(r, 8, 'initialStates', () => readInitialState(r, vm));
      return { vm: 'avm', kind, ...base, name, symbol, denomination, initialStates };
    }
    case 'OperationTx': {
      const operations = readList(r, ID_LENGTH + 8, 'operations', () => readOperation(r));
      return { vm: 'avm', kind, ...base, operations };
    }
    case 'ImportTx': {
      const sourceChain = r.fixed(ID_LENGTH, 'sourceChain');
      const importedInputs = readList(r, MIN_TRANSFERABLE_INPUT, 'importedInputs', () =>
        readTransferableInput(r, vm),
      );
      return { vm, kind, ...base, sourceChain, importedInputs } as UnsignedTx;
    }
    case 'ExportTx': {
      const destinationChain = r.fixed(ID_LENGTH, 'destinationChain');
      const exportedOutputs = readList(r, MIN_TRANSFERABLE_OUTPUT, 'exportedOutputs', () =>
        readTransferableOutput(r, vm),
      );
      return { vm, kind, ...base, destinationChain, exportedOutputs } as UnsignedTx;
    }
    default:
      return r.fail(`unknown ${VM_NAMES[vm]} transaction type ID ${typeId}`, at);
  }
}

function readCredential(r: ByteReader, vm: Vm): Credential {
  const fx = readTypeId(r, CREDENTIAL_KINDS[vm], vm, 'credential');
  const signatures = readList(r, SIGNATURE_LENGTH, 'signatures', () => r.fixed(SIGNATURE_LENGTH, 'signature'));
  return { fx, signatures };
}

export function decodeUnsignedTx(bytes: Bytes, vm: Vm): UnsignedTx {
  const r = new ByteReader(bytes);
  readVersion(r);
  const tx = readUnsignedBody(r, vm);
  r.end();
  return tx;
}

export interface DecodedSignedTx extends SignedTx {
  /** Length of the unsigned prefix of the signed bytes (what was hashed and signed). */
  unsignedLength: number;
}

export function decodeSignedTx(bytes: Bytes, vm: Vm): DecodedSignedTx {
  const r = new ByteReader(bytes);
  readVersion(r);
  const unsigned = readUnsignedBody(r, vm);
  const unsignedLength = r.offset;
  const credentials = readList(r, MIN_CREDENTIAL, 'credentials', () => readCredential(r, vm));
  r.end();
  return { unsigned, credentials, unsignedLength };
}

export function decodeUtxo(bytes: Bytes, vm: Vm): Utxo {
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

// The building blocks every VM's txs share: owners, outputs, inputs, their transferable forms,
// lists, BaseTx fields and credentials, with the per-VM type-ID tables (docs/protocol.md §1–§3).
import type { Bytes } from '../bytes.js';
import { ValidationError } from '../errors.js';
import { ByteReader, ByteWriter } from './io.js';
import type {
  BaseTxFields,
  Credential,
  CredentialFx,
  Input,
  Output,
  OutputOwners,
  TransferableInput,
  TransferableOutput,
  TransferInput,
  TransferOutput,
  UtxoRef,
  Vm,
} from './types.js';

export const CODEC_VERSION = 0;
export const ID_LENGTH = 32;
export const ADDRESS_LENGTH = 20;
export const NODE_ID_LENGTH = 20;
export const SIGNATURE_LENGTH = 65;

// ---- type-ID tables ----

type OutputKind = Output['kind'];
type InputKind = Input['kind'];

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

const CREDENTIAL_TYPE_IDS: Record<Vm, Partial<Record<CredentialFx, number>>> = {
  avm: { secp: 9, nft: 14, property: 19 },
  pvm: { secp: 9 },
  evm: { secp: 9 },
};

export function invert<K extends string>(table: Partial<Record<K, number>>): Map<number, K> {
  const out = new Map<number, K>();
  for (const [k, v] of Object.entries(table) as [K, number][]) out.set(v, k);
  return out;
}

function mapVms<T>(f: (vm: Vm) => T): Record<Vm, T> {
  return { avm: f('avm'), pvm: f('pvm'), evm: f('evm') };
}

const OUTPUT_KINDS = mapVms((vm) => invert(OUTPUT_TYPE_IDS[vm]));
const INPUT_KINDS = mapVms((vm) => invert(INPUT_TYPE_IDS[vm]));
const CREDENTIAL_KINDS = mapVms((vm) => invert(CREDENTIAL_TYPE_IDS[vm]));

export const VM_NAMES: Record<Vm, string> = { avm: 'X-Chain', pvm: 'P-Chain', evm: 'C-Chain atomic' };

export function typeIdOf<K extends string>(table: Partial<Record<K, number>>, kind: K, vm: Vm, what: string): number {
  const id = table[kind];
  if (id === undefined) throw new ValidationError(`${what} ${kind} does not exist on the ${VM_NAMES[vm]}`);
  return id;
}

export function readTypeId<K>(r: ByteReader, kinds: Map<number, K>, vm: Vm, what: string): K {
  const at = r.offset;
  const id = r.u32(`${what} type ID`);
  const kind = kinds.get(id);
  if (kind === undefined) r.fail(`unknown ${what} type ID ${id} on the ${VM_NAMES[vm]}`, at);
  return kind;
}

/** Reads a type ID that must be exactly `expected` (an interface field with a single possible type). */
export function expectTypeId(r: ByteReader, expected: number, what: string): void {
  const at = r.offset;
  const id = r.u32(`${what} type ID`);
  if (id !== expected) r.fail(`${what} must have type ID ${expected}, not ${id}`, at);
}

// Minimum encoded sizes, used to bound slice counts before decoding them.
export const MIN_OWNERS = 16;
export const MIN_OUTPUT = 4 + MIN_OWNERS;
export const MIN_TRANSFERABLE_OUTPUT = ID_LENGTH + MIN_OUTPUT;
export const MIN_TRANSFERABLE_INPUT = ID_LENGTH + 4 + ID_LENGTH + 4 + 12;
export const MIN_CREDENTIAL = 8;
export const UTXO_REF_SIZE = ID_LENGTH + 4;

// ---- lists ----

export function writeList<T>(w: ByteWriter, items: readonly T[], write: (item: T) => void): void {
  w.u32(items.length);
  for (const item of items) write(item);
}

export function readList<T>(r: ByteReader, minSize: number, what: string, read: () => T): T[] {
  const n = r.count(minSize, what);
  const out: T[] = [];
  for (let i = 0; i < n; i++) out.push(read());
  return out;
}

// ---- owners and indices ----

export function writeOwners(w: ByteWriter, owners: OutputOwners): void {
  w.u64(owners.locktime);
  w.u32(owners.threshold);
  writeList(w, owners.addresses, (a) => w.fixed(a, ADDRESS_LENGTH, 'address'));
}

export function readOwners(r: ByteReader): OutputOwners {
  const locktime = r.u64('locktime');
  const threshold = r.u32('threshold');
  const addresses = readList(r, ADDRESS_LENGTH, 'addresses', () => r.fixed(ADDRESS_LENGTH, 'address'));
  return { locktime, threshold, addresses };
}

export function writeIndices(w: ByteWriter, indices: number[]): void {
  writeList(w, indices, (i) => w.u32(i));
}

export function readIndices(r: ByteReader): number[] {
  return readList(r, 4, 'sigIndices', () => r.u32('sigIndex'));
}

// ---- outputs and inputs ----

export function writeTransferOutputBody(w: ByteWriter, o: { amount: bigint; owners: OutputOwners }): void {
  w.u64(o.amount);
  writeOwners(w, o.owners);
}

export function readTransferOutputBody(r: ByteReader): TransferOutput {
  const amount = r.u64('amount');
  return { kind: 'TransferOutput', amount, owners: readOwners(r) };
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

const NESTED_LOCK = 'a stakeable lock cannot wrap another stakeable lock';

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
      if (nested) r.fail(NESTED_LOCK, at);
      const locktime = r.u64('locktime');
      const innerAt = r.offset;
      const output = readOutput(r, vm, true);
      if (output.kind !== 'TransferOutput') r.fail('a stakeable lock must wrap a transfer output', innerAt);
      return { kind, locktime, output };
    }
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

function readInput(r: ByteReader, vm: Vm, nested = false): Input {
  const at = r.offset;
  const kind = readTypeId(r, INPUT_KINDS[vm], vm, 'input');
  if (kind === 'StakeableLockIn') {
    if (nested) r.fail(NESTED_LOCK, at);
    const locktime = r.u64('locktime');
    const input = readInput(r, vm, true) as TransferInput;
    return { kind, locktime, input };
  }
  const amount = r.u64('amount');
  return { kind, amount, sigIndices: readIndices(r) };
}

export function writeUtxoRef(w: ByteWriter, ref: UtxoRef): void {
  w.fixed(ref.txID, ID_LENGTH, 'txID');
  w.u32(ref.outputIndex);
}

export function readUtxoRef(r: ByteReader): UtxoRef {
  const txID = r.fixed(ID_LENGTH, 'txID');
  return { txID, outputIndex: r.u32('outputIndex') };
}

export function writeTransferableOutput(w: ByteWriter, vm: Vm, o: TransferableOutput): void {
  w.fixed(o.assetID, ID_LENGTH, 'assetID');
  writeOutput(w, vm, o.output);
}

export function readTransferableOutput(r: ByteReader, vm: Vm): TransferableOutput {
  const assetID = r.fixed(ID_LENGTH, 'assetID');
  return { assetID, output: readOutput(r, vm) };
}

export function writeTransferableInput(w: ByteWriter, vm: Vm, i: TransferableInput): void {
  writeUtxoRef(w, i);
  w.fixed(i.assetID, ID_LENGTH, 'assetID');
  writeInput(w, vm, i.input);
}

export function readTransferableInput(r: ByteReader, vm: Vm): TransferableInput {
  const ref = readUtxoRef(r);
  const assetID = r.fixed(ID_LENGTH, 'assetID');
  return { ...ref, assetID, input: readInput(r, vm) };
}

export function writeTransferableOutputs(w: ByteWriter, vm: Vm, outs: readonly TransferableOutput[]): void {
  writeList(w, outs, (o) => writeTransferableOutput(w, vm, o));
}

export function readTransferableOutputs(r: ByteReader, vm: Vm, what: string): TransferableOutput[] {
  return readList(r, MIN_TRANSFERABLE_OUTPUT, what, () => readTransferableOutput(r, vm));
}

export function writeTransferableInputs(w: ByteWriter, vm: Vm, ins: readonly TransferableInput[]): void {
  writeList(w, ins, (i) => writeTransferableInput(w, vm, i));
}

export function readTransferableInputs(r: ByteReader, vm: Vm, what: string): TransferableInput[] {
  return readList(r, MIN_TRANSFERABLE_INPUT, what, () => readTransferableInput(r, vm));
}

// ---- BaseTx fields (X and P) ----

export function writeBaseFields(w: ByteWriter, vm: Vm, tx: BaseTxFields): void {
  w.u32(tx.networkID);
  w.fixed(tx.blockchainID, ID_LENGTH, 'blockchainID');
  writeTransferableOutputs(w, vm, tx.outputs);
  writeTransferableInputs(w, vm, tx.inputs);
  w.varBytes(tx.memo);
}

export function readBaseFields(r: ByteReader, vm: Vm): BaseTxFields {
  const networkID = r.u32('networkID');
  const blockchainID = r.fixed(ID_LENGTH, 'blockchainID');
  const outputs = readTransferableOutputs(r, vm, 'outputs');
  const inputs = readTransferableInputs(r, vm, 'inputs');
  const memo = r.varBytes('memo');
  return { networkID, blockchainID, outputs, inputs, memo };
}

// ---- credentials ----

export function writeCredential(w: ByteWriter, vm: Vm, c: Credential): void {
  w.u32(typeIdOf(CREDENTIAL_TYPE_IDS[vm], c.fx, vm, 'credential'));
  writeList(w, c.signatures, (s) => w.fixed(s, SIGNATURE_LENGTH, 'signature'));
}

export function readCredential(r: ByteReader, vm: Vm): Credential {
  const fx = readTypeId(r, CREDENTIAL_KINDS[vm], vm, 'credential');
  const signatures = readList(r, SIGNATURE_LENGTH, 'signatures', () => r.fixed(SIGNATURE_LENGTH, 'signature'));
  return { fx, signatures };
}

export function readVersion(r: ByteReader): void {
  const version = r.u16('codec version');
  if (version !== CODEC_VERSION) r.fail(`unknown codec version ${version}`, 0);
}

/** Codec bytes of one output in its interface form (version + type ID + body): the sort key. */
export function encodeOutput(out: Output, vm: Vm): Bytes {
  const w = new ByteWriter(96);
  w.u16(CODEC_VERSION);
  writeOutput(w, vm, out);
  return w.finish();
}

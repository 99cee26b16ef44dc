// Shared by avalanchejs-crosscheck.test.ts and avalanchejs-builders.test.ts: avalanchejs' VM names,
// and its parsed objects read back into our structures (through their serialized field names).
import { utils } from '@avalabs/avalanchejs';
import type { Bytes } from '../../src/core/bytes.js';
import type {
  Credential,
  FxOperation,
  Input,
  Output,
  OutputOwners,
  TransferableInput,
  TransferableOutput,
  UnsignedTx,
  Vm,
} from '../../src/core/codec/index.js';

type AjsVm = 'AVM' | 'PVM' | 'EVM';
export const AJS_VM: Record<Vm, AjsVm> = { avm: 'AVM', pvm: 'PVM', evm: 'EVM' };
export type AjsTx = ReturnType<typeof utils.unpackWithManager>;
export type AjsAvaxOrEvmTx = Parameters<typeof utils.getTransferableOutputsByTx>[0];

// ---- avalanchejs objects → our structures (through their serialized field names) ----

/** A node of avalanchejs' object graph: `_type` names its class, fields are its members. */
export interface Node {
  _type: string;
  [field: string]: unknown;
}
export const node = (o: unknown, field: string): Node => {
  const v = (o as Record<string, unknown>)[field];
  if (v === undefined) throw new Error(`avalanchejs object ${(o as Node)._type} has no field ${field}`);
  return v as Node;
};
export const nodes = (o: unknown, field: string): Node[] => node(o, field) as unknown as Node[];
export const num = (o: Node): number => (o as unknown as { value(): number }).value();
const big = (o: Node): bigint => (o as unknown as { value(): bigint }).value();
const raw = (o: Node): Bytes => (o as unknown as { toBytes(): Bytes }).toBytes();
const byteArray = (o: Node): Bytes => (o as unknown as { bytes: Bytes }).bytes;
const indices = (o: Node): number[] => (o as unknown as { values(): number[] }).values();

function ownersFrom(o: Node): OutputOwners {
  return { locktime: big(node(o, 'locktime')), threshold: num(node(o, 'threshold')), addresses: nodes(o, 'addrs').map(raw) };
}

export function outputFrom(o: Node): Output {
  switch (o._type) {
    case 'secp256k1fx.TransferOutput':
      return { kind: 'TransferOutput', amount: big(node(o, 'amt')), owners: ownersFrom(node(o, 'outputOwners')) };
    case 'secp256k1fx.MintOutput':
      return { kind: 'MintOutput', owners: ownersFrom(node(o, 'outputOwners')) };
    case 'nftfx.MintOutput':
      return { kind: 'NftMintOutput', groupID: num(node(o, 'groupId')), owners: ownersFrom(node(o, 'outputOwners')) };
    case 'nftfx.TransferOutput':
      return {
        kind: 'NftTransferOutput',
        groupID: num(node(o, 'groupId')),
        payload: byteArray(node(o, 'payload')),
        owners: ownersFrom(node(o, 'outputOwners')),
      };
    case 'pvm.StakeableLockOut': {
      const inner = outputFrom(node(o, 'transferOut'));
      if (inner.kind !== 'TransferOutput') throw new Error('stakeable lock around a non-transfer output');
      return { kind: 'StakeableLockOut', locktime: big(node(o, 'lockTime')), output: inner };
    }
    default:
      throw new Error(`unexpected avalanchejs output ${o._type}`);
  }
}

function inputFrom(o: Node): Input {
  switch (o._type) {
    case 'secp256k1fx.TransferInput':
      return { kind: 'TransferInput', amount: big(node(o, 'amt')), sigIndices: indices(node(o, 'input')) };
    case 'pvm.StakeableLockIn': {
      const inner = inputFrom(node(o, 'transferableInput'));
      if (inner.kind !== 'TransferInput') throw new Error('stakeable lock around a non-transfer input');
      return { kind: 'StakeableLockIn', locktime: big(node(o, 'lockTime')), input: inner };
    }
    default:
      throw new Error(`unexpected avalanchejs input ${o._type}`);
  }
}

const transferableOutputFrom = (o: Node): TransferableOutput => ({ assetID: raw(node(o, 'assetId')), output: outputFrom(node(o, 'output')) });

function transferableInputFrom(o: Node): TransferableInput {
  const ref = node(o, 'utxoID');
  return { txID: raw(node(ref, 'txID')), outputIndex: num(node(ref, 'outputIdx')), assetID: raw(node(o, 'assetId')), input: inputFrom(node(o, 'input')) };
}

function fxOperationFrom(o: Node): FxOperation {
  switch (o._type) {
    case 'secp256k1fx.MintOperation': {
      const transfer = node(o, 'transferOutput');
      return {
        kind: 'SecpMintOperation',
        mintInput: indices(node(o, 'input')),
        mintOutput: ownersFrom(node(node(o, 'mintOutput'), 'outputOwners')),
        transferOutput: { amount: big(node(transfer, 'amt')), owners: ownersFrom(node(transfer, 'outputOwners')) },
      };
    }
    case 'nftfx.MintOperation':
      return {
        kind: 'NftMintOperation',
        mintInput: indices(node(o, 'input')),
        groupID: num(node(o, 'groupId')),
        payload: byteArray(node(o, 'payload')),
        outputs: nodes(node(o, 'outputOwnerList'), 'outputOwners').map(ownersFrom),
      };
    case 'nftfx.TransferOperation': {
      const out = node(o, 'output');
      return {
        kind: 'NftTransferOperation',
        input: indices(node(o, 'input')),
        output: { groupID: num(node(out, 'groupId')), payload: byteArray(node(out, 'payload')), owners: ownersFrom(node(out, 'outputOwners')) },
      };
    }
    default:
      throw new Error(`unexpected avalanchejs operation ${o._type}`);
  }
}

function baseFieldsFrom(b: Node) {
  return {
    networkID: num(node(b, 'NetworkId')),
    blockchainID: raw(node(b, 'BlockchainId')),
    outputs: nodes(b, 'outputs').map(transferableOutputFrom),
    inputs: nodes(b, 'inputs').map(transferableInputFrom),
    memo: byteArray(node(b, 'memo')),
  };
}

export function txFrom(tx: unknown): UnsignedTx {
  const o = tx as Node;
  switch (o._type) {
    case 'avm.BaseTx':
      return { vm: 'avm', kind: 'BaseTx', ...baseFieldsFrom(node(o, 'baseTx')) };
    case 'avm.CreateAssetTx':
      return {
        vm: 'avm',
        kind: 'CreateAssetTx',
        ...baseFieldsFrom(node(o, 'baseTx')),
        name: (node(o, 'name') as unknown as { value(): string }).value(),
        symbol: (node(o, 'symbol') as unknown as { value(): string }).value(),
        denomination: raw(node(o, 'denomination'))[0]!,
        initialStates: nodes(o, 'initialStates').map((s) => ({ fxIndex: num(node(s, 'fxId')), outputs: nodes(s, 'outputs').map(outputFrom) })),
      };
    case 'avm.OperationTx':
      return {
        vm: 'avm',
        kind: 'OperationTx',
        ...baseFieldsFrom(node(o, 'baseTx')),
        operations: nodes(o, 'ops').map((op) => ({
          assetID: raw(node(op, 'assetId')),
          utxoIDs: nodes(op, 'UTXOId').map((r) => ({ txID: raw(node(r, 'txID')), outputIndex: num(node(r, 'outputIdx')) })),
          op: fxOperationFrom(node(op, 'transferOp')),
        })),
      };
    case 'avm.ImportTx':
    case 'pvm.ImportTx':
      return {
        vm: o._type === 'avm.ImportTx' ? 'avm' : 'pvm',
        kind: 'ImportTx',
        ...baseFieldsFrom(node(o, 'baseTx')),
        sourceChain: raw(node(o, 'sourceChain')),
        importedInputs: nodes(o, 'ins').map(transferableInputFrom),
      };
    case 'avm.ExportTx':
    case 'pvm.ExportTx':
      return {
        vm: o._type === 'avm.ExportTx' ? 'avm' : 'pvm',
        kind: 'ExportTx',
        ...baseFieldsFrom(node(o, 'baseTx')),
        destinationChain: raw(node(o, 'destination')),
        exportedOutputs: nodes(o, 'outs').map(transferableOutputFrom),
      };
    case 'pvm.BaseTx':
      return { vm: 'pvm', kind: 'BaseTx', ...baseFieldsFrom(node(o, 'baseTx')) };
    case 'evm.ImportTx':
      return {
        vm: 'evm',
        kind: 'ImportTx',
        networkID: num(node(o, 'networkId')),
        blockchainID: raw(node(o, 'blockchainId')),
        sourceChain: raw(node(o, 'sourceChain')),
        importedInputs: nodes(o, 'importedInputs').map(transferableInputFrom),
        outs: nodes(o, 'Outs').map((x) => ({ address: raw(node(x, 'address')), amount: big(node(x, 'amount')), assetID: raw(node(x, 'assetId')) })),
      };
    case 'evm.ExportTx':
      return {
        vm: 'evm',
        kind: 'ExportTx',
        networkID: num(node(o, 'networkId')),
        blockchainID: raw(node(o, 'blockchainId')),
        destinationChain: raw(node(o, 'destinationChain')),
        ins: nodes(o, 'ins').map((x) => ({
          address: raw(node(x, 'address')),
          amount: big(node(x, 'amount')),
          assetID: raw(node(x, 'assetId')),
          nonce: big(node(x, 'nonce')),
        })),
        exportedOutputs: nodes(o, 'exportedOutputs').map(transferableOutputFrom),
      };
    default:
      throw new Error(`unexpected avalanchejs tx ${o._type}`);
  }
}

export function credentialFrom(c: unknown): Credential {
  const o = c as Node;
  const fx = o._type === 'secp256k1fx.Credential' ? 'secp' : o._type === 'nftfx.Credential' ? 'nft' : undefined;
  if (!fx) throw new Error(`unexpected avalanchejs credential ${o._type}`);
  return { fx, signatures: nodes(o, 'signatures').map(raw) };
}

// Consensus sorting rules (docs/protocol.md §Sorting) and small structural helpers.
import { compareBytes, type Bytes } from '../bytes.js';
import { ByteWriter } from './io.js';
import { encodeOutput, writeOperation } from './codec.js';
import { stakeOf } from './pvm-rules.js';
import type {
  EvmInput,
  EvmOutput,
  Operation,
  Output,
  OutputOwners,
  TransferableInput,
  TransferableOutput,
  UnsignedTx,
  Utxo,
  UtxoRef,
  Vm,
} from './types.js';

export function compareUtxoRefs(a: UtxoRef, b: UtxoRef): number {
  return compareBytes(a.txID, b.txID) || a.outputIndex - b.outputIndex;
}

export function sortAddresses(addresses: Bytes[]): Bytes[] {
  return [...addresses].sort(compareBytes);
}

/** Outputs: by asset ID, then by the codec bytes of the output. */
export function sortTransferableOutputs(outputs: TransferableOutput[], vm: Vm): TransferableOutput[] {
  const keyed = outputs.map((o) => ({ o, key: encodeOutput(o.output, vm) }));
  keyed.sort((a, b) => compareBytes(a.o.assetID, b.o.assetID) || compareBytes(a.key, b.key));
  return keyed.map((k) => k.o);
}

/** Outputs inside one initial state: by codec bytes. */
export function sortOutputs(outputs: Output[], vm: Vm): Output[] {
  const keyed = outputs.map((o) => ({ o, key: encodeOutput(o, vm) }));
  keyed.sort((a, b) => compareBytes(a.key, b.key));
  return keyed.map((k) => k.o);
}

export function sortTransferableInputs(inputs: TransferableInput[]): TransferableInput[] {
  const n = inputs.length;
  if (n < 2 || n >= INDEX_SPAN) return [...inputs].sort(compareUtxoRefs);
  // A numeric sort of (first 4 bytes of the txID, position) runs natively, with no comparator
  // calls; only inputs whose txIDs share those 4 bytes are then ordered by the full comparison.
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) keys[i] = leadingU32(inputs[i]!.txID) * INDEX_SPAN + i;
  keys.sort();
  const out: TransferableInput[] = new Array<TransferableInput>(n);
  const heads = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const head = Math.floor(keys[i]! / INDEX_SPAN);
    heads[i] = head;
    out[i] = inputs[keys[i]! - head * INDEX_SPAN]!;
  }
  for (let i = 0; i < n; ) {
    let j = i + 1;
    while (j < n && heads[j] === heads[i]) j++;
    if (j - i > 1) out.splice(i, j - i, ...out.slice(i, j).sort(compareUtxoRefs));
    i = j;
  }
  return out;
}

/** Positions fit below this, so a 32-bit prefix and a position pack exactly into one double. */
const INDEX_SPAN = 2 ** 20;

/** The first 4 bytes as an unsigned number, missing bytes as 0: ordered as compareBytes orders. */
function leadingU32(b: Bytes): number {
  return (((b[0] ?? 0) << 24) | ((b[1] ?? 0) << 16) | ((b[2] ?? 0) << 8) | (b[3] ?? 0)) >>> 0;
}

export function sortOperations(ops: Operation[]): Operation[] {
  const keyed = ops.map((op) => {
    const sorted = { ...op, utxoIDs: [...op.utxoIDs].sort(compareUtxoRefs) };
    const w = new ByteWriter(128);
    writeOperation(w, sorted);
    return { op: sorted, key: w.finish() };
  });
  keyed.sort((a, b) => compareBytes(a.key, b.key));
  return keyed.map((k) => k.op);
}

export function sortEvmOutputs(outs: EvmOutput[]): EvmOutput[] {
  return [...outs].sort((a, b) => compareBytes(a.address, b.address) || compareBytes(a.assetID, b.assetID));
}

export function sortEvmInputs(ins: EvmInput[]): EvmInput[] {
  return [...ins].sort((a, b) => compareBytes(a.address, b.address) || compareBytes(a.assetID, b.assetID));
}

/** The owners that must sign to spend an output. */
export function ownersOf(output: Output): OutputOwners {
  return output.kind === 'StakeableLockOut' ? output.output.owners : output.owners;
}

/** When every lock on an output has ended (seconds): a vesting lock's and its owners' own, the later; 0 when it has none. */
export function lockEnd(output: Output): bigint {
  const owners = ownersOf(output).locktime;
  return output.kind === 'StakeableLockOut' && output.locktime > owners ? output.locktime : owners;
}

/** The inputs of an X or P tx (or an atomic one's from its own chain); none for an EVM tx. */
export function ownInputs(tx: UnsignedTx): readonly TransferableInput[] {
  return tx.vm !== 'evm' && 'inputs' in tx ? tx.inputs : [];
}

/** Amount of a fungible output (0 for mint/NFT/property outputs). */
export function amountOf(output: Output): bigint {
  if (output.kind === 'TransferOutput') return output.amount;
  if (output.kind === 'StakeableLockOut') return output.output.amount;
  return 0n;
}

/**
 * The UTXOs a tx creates on its own chain, with their output indices (docs/protocol.md §IDs):
 * outputs first, then CreateAssetTx initial states (asset = the new tx ID) or operation outputs;
 * a staking tx's stake comes back as UTXOs of its own ID after the outputs when the staking ends.
 * (Rewards and L1 validator refunds are not in the tx: only the chain's state knows them.)
 */
export function producedUtxos(tx: UnsignedTx, txID: Bytes): Utxo[] {
  if (tx.vm === 'evm') return [];
  const out: Utxo[] = tx.outputs.map((o, i) => ({ txID, outputIndex: i, assetID: o.assetID, output: o.output }));
  if (tx.vm === 'pvm') {
    for (const o of stakeOf(tx)) out.push({ txID, outputIndex: out.length, assetID: o.assetID, output: o.output });
    return out;
  }
  if (tx.kind === 'CreateAssetTx') {
    for (const state of tx.initialStates) {
      for (const output of state.outputs) out.push({ txID, outputIndex: out.length, assetID: txID, output });
    }
  } else if (tx.kind === 'OperationTx') {
    for (const { assetID, op } of tx.operations) {
      for (const output of operationOutputs(op)) out.push({ txID, outputIndex: out.length, assetID, output });
    }
  }
  return out;
}

function operationOutputs(op: Operation['op']): Output[] {
  switch (op.kind) {
    case 'SecpMintOperation':
      return [
        { kind: 'MintOutput', owners: op.mintOutput },
        { kind: 'TransferOutput', amount: op.transferOutput.amount, owners: op.transferOutput.owners },
      ];
    case 'NftMintOperation':
      return op.outputs.map((owners) => ({ kind: 'NftTransferOutput', groupID: op.groupID, payload: op.payload, owners }));
    case 'NftTransferOperation':
      return [{ kind: 'NftTransferOutput', ...op.output }];
    case 'PropertyMintOperation':
      return [
        { kind: 'PropertyMintOutput', owners: op.mintOutput },
        { kind: 'PropertyOwnedOutput', owners: op.ownedOutput },
      ];
    case 'PropertyBurnOperation':
      return [];
  }
}

/**
 * The UTXOs an export puts into atomic memory for the destination chain: X and P exports index
 * them after the tx's own outputs; C exports index them from 0.
 */
export function exportedUtxos(tx: UnsignedTx, txID: Bytes): Utxo[] {
  if (tx.kind !== 'ExportTx') return [];
  const offset = tx.vm === 'evm' ? 0 : tx.outputs.length;
  return tx.exportedOutputs.map((o, i) => ({ txID, outputIndex: offset + i, assetID: o.assetID, output: o.output }));
}

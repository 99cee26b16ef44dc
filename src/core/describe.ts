// What a transaction does, in the terms a person checks before approving it: every input it
// spends and every output it creates, with owners as addresses, amounts in base units, the AVAX it
// burns and its memo; for P-Chain staking, subnet and L1 txs also a one-line action, the details
// that matter (node, end, rewards owners, fee share, cycle…), the stake (as outputs marked
// `staked`) and whose authorization it carries. Built from the exact unsigned tx that would be
// signed (and the UTXOs it spends, for the inputs' owners), so the approval window shows what is
// signed, not a claim.
import { type Bytes, INVISIBLE_TEXT, toHex, utf8 } from './bytes.js';
import { utxoId } from './codec/ids.js';
import { isPBlockTx } from './codec/pvm.js';
import { stakeOf } from './codec/pvm-rules.js';
import { amountOf, ownersOf } from './codec/rules.js';
import type { ChainTx, Output, OutputOwners, TransferableInput, TransferableOutput, Utxo, UtxoRef } from './codec/types.js';
import { type AuthorizationView, type DetailLine, describePBlockTx, describePTx, feeBalancesOf, ownersNamedBy } from './describe-pvm.js';
import { cb58Encode, formatAddress } from './encoding.js';
import { ValidationError } from './errors.js';
import { CHAIN_OF_VM } from './node/types.js';
import { formatEvmAddress } from './evm-address.js';
import { avaxBurned } from './fees.js';
import { type ChainContext, chainAliasOf } from './tx/context.js';
import { authorityOwnerOf, utxoLookupOf } from './tx/sign.js';

export type { AuthorizationView, DetailLine } from './describe-pvm.js';

export type ChainLetter = 'X' | 'P' | 'C';

export interface OwnersView {
  addresses: string[];
  threshold: number;
  /** Unix seconds, decimal; '0' when not locked. */
  locktime: string;
}

export interface LegView {
  /** Where the value is: this chain, or the other chain of an import/export. */
  chain: ChainLetter;
  assetID: string;
  /** Decimal base units; absent for mint rights and NFTs. */
  amount?: string;
  kind: Output['kind'] | 'EvmAccount';
  owners?: OwnersView;
  /** 0x address for C-Chain EVM legs. */
  evmAddress?: string;
  utxoID?: string;
  /** StakeableLockOut: locked for staking until this time (seconds). */
  stakeableUntil?: string;
  /** NFT payload, hex. */
  payloadHex?: string;
  /** True when the wallet cannot find the UTXO an input spends (it then shows no owner). */
  unknownUtxo?: boolean;
  /** A staking tx's stake: locked while staking, then returned to `owners`. */
  staked?: true;
  /** An input an operation spends (an NFT, a right to mint): moved or used up by the operation, never burned. */
  operation?: true;
}

export interface TxView {
  chain: ChainLetter;
  kind: ChainTx['kind'];
  /** The tx's network ID (block-builder txs carry none: the wallet's network is shown). */
  networkID: number;
  inputs: LegView[];
  outputs: LegView[];
  /** nAVAX burned: consumed minus created, on this chain and exported. */
  burned: string;
  memoText?: string;
  memoHex?: string;
  /** CreateAssetTx: the new asset. */
  asset?: { name: string; symbol: string; denomination: number };
  /** Operation summaries (mints, NFT transfers). */
  operations: { assetID: string; kind: string; outputs: LegView[] }[];
  /** P-Chain staking, subnet and L1 txs: what the tx does, in one sentence. */
  action?: string;
  /** …and the facts behind it, in order (node, until, stake, rewards owners, fee share, …). */
  details?: DetailLine[];
  /** A P-Chain authorization the tx carries (subnet owner, deactivation owner, validator authority). */
  authorization?: AuthorizationView;
  /** P-Chain: owners the tx hands something to besides its outputs (rewards, control of a validator or subnet). */
  rewardOwners?: { what: string; owners: OwnersView }[];
  /** P-Chain L1 txs: nAVAX moved into validators' fee balances, and who gets what is left (when the tx says). */
  feeBalances?: { amount: string; refundTo?: OwnersView }[];
}

function chainOf(id: Bytes, ctx: ChainContext): ChainLetter {
  const alias = chainAliasOf(ctx, id);
  // Never read as the C-Chain by default: a tx moving funds to or from another chain is refused before this.
  if (!alias) throw new ValidationError('a chain this wallet does not know', 'chain');
  return alias;
}

function ownersView(o: OutputOwners, chain: ChainLetter, hrp: string): OwnersView {
  return { addresses: o.addresses.map((a) => formatAddress(chain, hrp, a)), threshold: o.threshold, locktime: o.locktime.toString() };
}

function outputLeg(chain: ChainLetter, assetID: Bytes, output: Output, hrp: string): LegView {
  const leg: LegView = { chain, assetID: cb58Encode(assetID), kind: output.kind, owners: ownersView(ownersOf(output), chain, hrp) };
  if (output.kind === 'TransferOutput' || output.kind === 'StakeableLockOut') leg.amount = amountOf(output).toString();
  if (output.kind === 'StakeableLockOut') leg.stakeableUntil = output.locktime.toString();
  if (output.kind === 'NftTransferOutput') leg.payloadHex = toHex(output.payload);
  return leg;
}

function transferableLeg(chain: ChainLetter, o: TransferableOutput, hrp: string): LegView {
  return outputLeg(chain, o.assetID, o.output, hrp);
}

function inputLeg(chain: ChainLetter, i: TransferableInput, lookup: (i: TransferableInput) => Utxo | undefined, hrp: string): LegView {
  const amount = (i.input.kind === 'StakeableLockIn' ? i.input.input : i.input).amount.toString();
  const utxo = lookup(i);
  const leg: LegView = { chain, assetID: cb58Encode(i.assetID), amount, kind: utxo?.output.kind ?? 'TransferOutput', utxoID: utxoId(i) };
  if (utxo) leg.owners = ownersView(ownersOf(utxo.output), chain, hrp);
  else leg.unknownUtxo = true;
  return leg;
}

/** What each operation spends: the kind of a UTXO the wallet cannot see (an NFT transfer: an NFT). */
const SPENDS: Record<string, LegView['kind']> = { SecpMintOperation: 'MintOutput', NftMintOperation: 'NftMintOutput', PropertyMintOperation: 'PropertyMintOutput', PropertyBurnOperation: 'PropertyOwnedOutput' };

function operationInputLeg(chain: ChainLetter, assetID: Bytes, ref: UtxoRef, utxo: Utxo | undefined, hrp: string, op: string): LegView {
  if (!utxo) return { chain, assetID: cb58Encode(assetID), kind: SPENDS[op] ?? 'NftTransferOutput', utxoID: utxoId(ref), unknownUtxo: true, operation: true };
  return { ...outputLeg(chain, utxo.assetID, utxo.output, hrp), utxoID: utxoId(ref), operation: true };
}

/**
 * `spent`: the UTXOs the tx spends, and for a P-Chain authorization the record of its owner
 * (see authorityRecord). Block-builder txs (history only) get an action and no legs.
 */
export function describeTx(tx: ChainTx, ctx: ChainContext, spent: readonly Utxo[]): TxView {
  const chain = CHAIN_OF_VM[tx.vm];
  if (tx.vm === 'pvm' && isPBlockTx(tx)) {
    const { action, details } = describePBlockTx(tx);
    return { chain, kind: tx.kind, networkID: ctx.networkID, inputs: [], outputs: [], burned: '0', operations: [], action, details };
  }
  const byId = new Map(spent.map((u) => [utxoId(u), u]));
  const lookup = (i: TransferableInput) => byId.get(utxoId(i));
  const hrp = ctx.hrp;
  const view: TxView = {
    chain,
    kind: tx.kind,
    networkID: tx.networkID,
    inputs: [],
    outputs: [],
    burned: avaxBurned(tx, ctx.avaxAssetID).toString(),
    operations: [],
  };
  if (tx.vm === 'evm') {
    if (tx.kind === 'ImportTx') {
      const from = chainOf(tx.sourceChain, ctx);
      view.inputs = tx.importedInputs.map((i) => inputLeg(from, i, lookup, hrp));
      view.outputs = tx.outs.map((o) => ({ chain: 'C', assetID: cb58Encode(o.assetID), amount: o.amount.toString(), kind: 'EvmAccount', evmAddress: formatEvmAddress(o.address) }));
    } else {
      view.inputs = tx.ins.map((i) => ({ chain: 'C', assetID: cb58Encode(i.assetID), amount: i.amount.toString(), kind: 'EvmAccount', evmAddress: formatEvmAddress(i.address) }));
      const to = chainOf(tx.destinationChain, ctx);
      view.outputs = tx.exportedOutputs.map((o) => transferableLeg(to, o, hrp));
    }
    return view;
  }
  view.inputs = tx.inputs.map((i) => inputLeg(chain, i, lookup, hrp));
  view.outputs = tx.outputs.map((o) => transferableLeg(chain, o, hrp));
  if (tx.memo.length > 0) {
    view.memoHex = toHex(tx.memo);
    try {
      const text = utf8.decode(tx.memo);
      // Text that could hide or reorder what it says (direction marks, zero-width, controls) is shown as hex.
      if (!INVISIBLE_TEXT.test(text)) view.memoText = text;
    } catch {
      // Not text: the hex is all there is to show.
    }
  }
  if (tx.vm === 'pvm') {
    view.outputs.push(...stakeOf(tx).map((o): LegView => ({ ...transferableLeg(chain, o, hrp), staked: true })));
    const described = describePTx(tx, ctx, authorityOwnerOf(tx, utxoLookupOf(spent)));
    if (described) Object.assign(view, described);
    const named = ownersNamedBy(tx);
    if (named.length > 0) view.rewardOwners = named.map((n) => ({ what: n.what, owners: ownersView({ ...n.owners, locktime: n.owners.locktime ?? 0n }, chain, hrp) }));
    const balances = feeBalancesOf(tx);
    if (balances.length > 0) {
      view.feeBalances = balances.map((b) => ({ amount: b.amount.toString(), ...(b.refundTo ? { refundTo: ownersView({ ...b.refundTo, locktime: 0n }, chain, hrp) } : {}) }));
    }
  }
  if (tx.kind === 'ImportTx') view.inputs.push(...tx.importedInputs.map((i) => inputLeg(chainOf(tx.sourceChain, ctx), i, lookup, hrp)));
  if (tx.kind === 'ExportTx') view.outputs.push(...tx.exportedOutputs.map((o) => transferableLeg(chainOf(tx.destinationChain, ctx), o, hrp)));
  if (tx.kind === 'CreateAssetTx') {
    view.asset = { name: tx.name, symbol: tx.symbol, denomination: tx.denomination };
    for (const s of tx.initialStates) for (const o of s.outputs) view.outputs.push({ ...outputLeg(chain, new Uint8Array(32), o, hrp), assetID: 'new asset' });
  }
  if (tx.kind === 'OperationTx') {
    // What each operation spends (an NFT, a right to mint) is an input like any other.
    for (const op of tx.operations) for (const ref of op.utxoIDs) view.inputs.push(operationInputLeg(chain, op.assetID, ref, byId.get(utxoId(ref)), hrp, op.op.kind));
    for (const op of tx.operations) {
      const assetID = cb58Encode(op.assetID);
      const o = op.op;
      const outputs: LegView[] =
        o.kind === 'SecpMintOperation'
          ? [outputLeg(chain, op.assetID, { kind: 'MintOutput', owners: o.mintOutput }, hrp), outputLeg(chain, op.assetID, { kind: 'TransferOutput', amount: o.transferOutput.amount, owners: o.transferOutput.owners }, hrp)]
          : o.kind === 'NftMintOperation'
            ? o.outputs.map((owners) => outputLeg(chain, op.assetID, { kind: 'NftTransferOutput', groupID: o.groupID, payload: o.payload, owners }, hrp))
            : o.kind === 'NftTransferOperation'
              ? [outputLeg(chain, op.assetID, { kind: 'NftTransferOutput', ...o.output }, hrp)]
              : o.kind === 'PropertyMintOperation'
                ? [outputLeg(chain, op.assetID, { kind: 'PropertyMintOutput', owners: o.mintOutput }, hrp), outputLeg(chain, op.assetID, { kind: 'PropertyOwnedOutput', owners: o.ownedOutput }, hrp)]
                : [];
      view.operations.push({ assetID, kind: o.kind, outputs });
    }
  }
  return view;
}

// P-Chain builders: send within P, export to X or C, import from X or C. The fee is the dynamic
// fee of the tx's complexity at the given gas price (docs/protocol.md §Fees). Memos must be empty.
import { equalBytes, toHex } from '../bytes.js';
import { sortTransferableInputs, sortTransferableOutputs } from '../codec/rules.js';
import type { OutputOwners, PBaseTx, PExportTx, PImportTx, PTx, TransferableInput, TransferableOutput } from '../codec/types.js';
import { checkPositive, ValidationError } from '../errors.js';
import { type PFeeContext, pTxFee } from '../fees.js';
import { built, type BuiltTx } from './built.js';
import { type ChainContext, chainIdOf, MAX_XP_TX_SIZE, transferOutput } from './context.js';
import { fundFor } from './fund.js';
import { type SpendableUtxo, toTransferableInput } from './utxos.js';
import { buildImportGroups } from './x.js';

export interface PSpendParams {
  ctx: ChainContext;
  fee: PFeeContext;
  /** Spendable P-Chain UTXOs at the current chain time (locked value already excluded). */
  pool: readonly SpendableUtxo[];
  changeOwners: OutputOwners;
}

export type BaseFields = Pick<PTx, 'vm' | 'networkID' | 'blockchainID' | 'outputs' | 'inputs' | 'memo'>;

/** The BaseTx part of a P-Chain tx with these inputs and outputs, sorted (memo empty since Durango). */
export function baseOf(p: Pick<PSpendParams, 'ctx'>, inputs: TransferableInput[], outputs: TransferableOutput[]): BaseFields {
  return { vm: 'pvm', networkID: p.ctx.networkID, blockchainID: p.ctx.pChainID, outputs: sortTransferableOutputs(outputs, 'pvm'), inputs, memo: new Uint8Array() };
}

type Shape = { kind: 'BaseTx' } | { kind: 'ImportTx'; importedInputs: TransferableInput[] } | { kind: 'ExportTx'; exportedOutputs: TransferableOutput[] };

/** Fee of the tx that these inputs and outputs would make, for the funding loop. */
function feeOf(p: PSpendParams, shape: Shape, fixedOutputs: TransferableOutput[]) {
  return (inputs: TransferableInput[], change: TransferableOutput[]): bigint => {
    const base = {
      vm: 'pvm' as const,
      networkID: p.ctx.networkID,
      blockchainID: p.ctx.pChainID,
      outputs: [...fixedOutputs, ...change],
      inputs,
      memo: new Uint8Array(),
    };
    // Chain IDs are fixed-size, so any ID gives the same complexity.
    const draft: PTx =
      shape.kind === 'BaseTx'
        ? { ...base, kind: 'BaseTx' }
        : shape.kind === 'ImportTx'
          ? { ...base, kind: 'ImportTx', sourceChain: p.ctx.xChainID, importedInputs: shape.importedInputs }
          : { ...base, kind: 'ExportTx', destinationChain: p.ctx.xChainID, exportedOutputs: shape.exportedOutputs };
    return pTxFee(draft, p.fee);
  };
}


export function buildPSend(p: PSpendParams & { amount: bigint; to: OutputOwners }): BuiltTx<PBaseTx> {
  checkPositive(p.amount);
  const payment = transferOutput(p.ctx.avaxAssetID, p.amount, p.to);
  const funding = fundFor(p, {
    needs: new Map([[toHex(p.ctx.avaxAssetID), p.amount]]),
    fee: feeOf(p, { kind: 'BaseTx' }, [payment]),
  });
  const tx: PBaseTx = { ...baseOf(p, funding.inputs, [payment, ...funding.change]), kind: 'BaseTx' };
  return built(tx, funding.spent, funding.fee, MAX_XP_TX_SIZE);
}

export function buildPExport(p: PSpendParams & { destination: 'X' | 'C'; amount: bigint; to: OutputOwners }): BuiltTx<PExportTx> {
  checkPositive(p.amount);
  const exportedOutputs = [transferOutput(p.ctx.avaxAssetID, p.amount, p.to)];
  const funding = fundFor(p, {
    needs: new Map([[toHex(p.ctx.avaxAssetID), p.amount]]),
    fee: feeOf(p, { kind: 'ExportTx', exportedOutputs }, []),
  });
  const tx: PExportTx = { ...baseOf(p, funding.inputs, funding.change), kind: 'ExportTx', destinationChain: chainIdOf(p.ctx, p.destination), exportedOutputs };
  return built(tx, funding.spent, funding.fee, MAX_XP_TX_SIZE);
}

/** Imports atomic UTXOs from X or C into `to`; several txs when they do not fit one. */
export function buildPImport(
  p: PSpendParams & { source: 'X' | 'C'; atomicUtxos: readonly SpendableUtxo[]; to: OutputOwners },
): BuiltTx<PImportTx>[] {
  const avax = toHex(p.ctx.avaxAssetID);
  if (p.atomicUtxos.some((s) => !equalBytes(s.utxo.assetID, p.ctx.avaxAssetID))) {
    throw new ValidationError('only AVAX can be imported into the P-Chain', 'atomicUtxos');
  }
  return buildImportGroups(p.atomicUtxos, (group, exclude) => {
    const importedInputs = sortTransferableInputs(group.map(toTransferableInput));
    const funding = fundFor(p, {
      needs: new Map(),
      // Every imported UTXO is AVAX (checked above).
      credit: new Map([[avax, group.reduce((sum, s) => sum + s.amount, 0n)]]),
      changeOwners: p.to,
      fee: feeOf(p, { kind: 'ImportTx', importedInputs }, []),
      exclude,
    });
    const tx: PImportTx = { ...baseOf(p, funding.inputs, funding.change), kind: 'ImportTx', sourceChain: chainIdOf(p.ctx, p.source), importedInputs };
    return built(tx, [...funding.spent, ...group.map((s) => s.utxo)], funding.fee, MAX_XP_TX_SIZE);
  });
}

// Funding an X or P transaction: pick inputs for every asset produced plus the AVAX fee, and
// return change to the wallet. The fee may depend on the inputs and outputs (P-Chain), so the
// selection is repeated until the fee it implies is covered.
import { type Bytes, fromHex, toHex } from '../bytes.js';
import { MAX_U64 } from '../codec/io.js';
import { amountOf, sortTransferableInputs } from '../codec/rules.js';
import type { OutputOwners, TransferableInput, TransferableOutput, Utxo } from '../codec/types.js';
import { FeeFundsError, InsufficientFundsError, WalletError } from '../errors.js';
import { selectUtxos, type SpendableUtxo, toTransferableInput } from './utxos.js';
import { transferOutput } from './context.js';

export interface FundingRequest {
  pool: readonly SpendableUtxo[];
  /** Amount each asset (hex ID) must provide, before the fee. */
  needs: ReadonlyMap<string, bigint>;
  /** Value already provided per asset by imported inputs (hex ID). */
  credit?: ReadonlyMap<string, bigint>;
  avaxAssetID: Bytes;
  changeOwners: OutputOwners;
  /** The fee for a tx with these inputs and change outputs. */
  fee: (inputs: TransferableInput[], change: TransferableOutput[]) => bigint;
  /** UTXOs that must not be used (e.g. consumed by an operation of the same tx). */
  exclude?: ReadonlySet<string>;
  assetLabel?: (assetHex: string) => string;
}

export interface Funding {
  inputs: TransferableInput[];
  change: TransferableOutput[];
  fee: bigint;
  spent: Utxo[];
}

const MAX_ROUNDS = 16;

/** `select`, whose lack of funds is the fee's when `feeOnly` (AVAX is needed for the fee alone). */
function selectShort<T>(select: () => T, feeOnly: boolean): T {
  try {
    return select();
  } catch (e) {
    throw feeOnly && e instanceof InsufficientFundsError ? new FeeFundsError(e) : e;
  }
}

/** `fund` from a builder's own pool, AVAX asset and change owners (`req.changeOwners`, an import's, in their place). */
export function fundFor(p: { ctx: { avaxAssetID: Bytes }; pool: readonly SpendableUtxo[]; changeOwners?: OutputOwners }, req: Omit<FundingRequest, 'pool' | 'avaxAssetID' | 'changeOwners'> & { changeOwners?: OutputOwners }): Funding {
  return fund({ pool: p.pool, avaxAssetID: p.ctx.avaxAssetID, changeOwners: p.changeOwners!, ...req });
}

export function fund(req: FundingRequest): Funding {
  const avaxHex = toHex(req.avaxAssetID);
  let fee = req.fee([], []);
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const totalNeeds = new Map(req.needs);
    totalNeeds.set(avaxHex, (totalNeeds.get(avaxHex) ?? 0n) + fee);
    const chosen: SpendableUtxo[] = [];
    const change: TransferableOutput[] = [];
    for (const [assetHex, need] of totalNeeds) {
      const credit = req.credit?.get(assetHex) ?? 0n;
      const assetID = fromHex(assetHex);
      let surplus = credit - need;
      if (need > credit) {
        const label = req.assetLabel?.(assetHex);
        // Imported value counts with the picked inputs in the node's u64 sum of the asset (docs/protocol.md §X).
        const picked = selectShort(() => selectUtxos(req.pool, assetID, need - credit, { exclude: req.exclude, max: MAX_U64 - credit, ...(label ? { assetLabel: label } : {}) }), assetHex === avaxHex && !req.needs.has(avaxHex));
        chosen.push(...picked.chosen);
        surplus = picked.total + credit - need;
      }
      if (surplus > 0n) {
        change.push(transferOutput(assetID, surplus, req.changeOwners));
      }
    }
    // Credit for assets not needed at all (e.g. imported non-AVAX) also returns as change.
    for (const [assetHex, credit] of req.credit ?? []) {
      if (!totalNeeds.has(assetHex) && credit > 0n) {
        change.push(transferOutput(fromHex(assetHex), credit, req.changeOwners));
      }
    }
    const inputs = sortTransferableInputs(chosen.map(toTransferableInput));
    const actual = req.fee(inputs, change);
    // Where the fee depends on the outputs (P-Chain), a change output can cost more than the
    // leftover it would carry. Then burning the leftover is cheaper than any other input set
    // (another input costs more than an output), so settle on no AVAX change.
    const avaxChange = change.find((c) => toHex(c.assetID) === avaxHex);
    if (avaxChange && actual > fee) {
      const leftover = amountOf(avaxChange.output) + fee;
      const rest = change.filter((c) => c !== avaxChange);
      if (leftover < actual && leftover >= req.fee(inputs, rest)) {
        return { inputs, change: rest, fee: leftover, spent: chosen.map((c) => c.utxo) };
      }
    }
    // Settled; or, after a few rounds, the set picked for a fee above what it needs rather than
    // oscillating between two input sets (selection may flip between many small proven inputs and
    // a few large ones as the fee moves the target). The surplus goes back as AVAX change when
    // that leaves the fee as it is (amounts do not change a fee), else it is burned.
    if (actual === fee || (actual < fee && round >= 3)) {
      const spent = chosen.map((c) => c.utxo);
      if (actual < fee && avaxChange) {
        const more = change.map((c) => (c === avaxChange ? { ...c, output: { ...c.output, amount: amountOf(c.output) + fee - actual } } : c));
        if (req.fee(inputs, more) === actual) return { inputs, change: more, fee: actual, spent };
      }
      return { inputs, change, fee, spent };
    }
    fee = actual;
  }
  throw new WalletError('fee-unstable', 'could not settle on a fee for this transaction');
}

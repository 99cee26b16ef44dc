// X-Chain transaction builders: sends, asset creation, mints, NFTs, and cross-chain moves
// (layouts, rules and where outputs land: docs/protocol.md §X).
import { type Bytes, toHex } from '../bytes.js';
import { MAX_MEMO_SIZE } from '../codec/avm-rules.js';
import { utxoId } from '../codec/ids.js';
import { MAX_U64 } from '../codec/io.js';
import { sortOperations, sortOutputs, sortTransferableInputs, sortTransferableOutputs } from '../codec/rules.js';
import type {
  FxOperation,
  InitialState,
  Operation,
  Output,
  OutputOwners,
  TransferableInput,
  TransferableOutput,
  UnsignedTx,
  Utxo,
  XBaseTx,
  XCreateAssetTx,
  XExportTx,
  XImportTx,
  XOperationTx,
} from '../codec/types.js';
import { checkPositive, InsufficientFundsError, TxTooLargeError, ValidationError } from '../errors.js';
import { built, type BuiltTx } from './built.js';
import { type ChainContext, chainIdOf, MAX_NFT_PAYLOAD, MAX_XP_TX_SIZE, transferOutput } from './context.js';
import { fundFor, type Funding } from './fund.js';
import { type OwnedAddresses, signingIndices, type SpendableUtxo, sumByAsset, toTransferableInput } from './utxos.js';

export interface XSpendParams {
  ctx: ChainContext;
  /** Spendable UTXOs on the X-Chain (from spendableUtxos). */
  pool: readonly SpendableUtxo[];
  /** Where change goes: a fresh change address of the wallet. */
  changeOwners: OutputOwners;
  memo?: Bytes;
  /** Chain time (seconds) a mint right or NFT is judged at: spendable once its locktime ≤ now (absent: any locktime refuses). */
  now?: bigint;
}

export interface Payment {
  assetID: Bytes;
  amount: bigint;
  owners: OutputOwners;
}

function checkMemo(memo: Bytes): Bytes {
  if (memo.length > MAX_MEMO_SIZE) throw new ValidationError(`a memo holds at most ${MAX_MEMO_SIZE} bytes`, 'memo');
  return memo;
}

function checkPayments(payments: Payment[]): void {
  if (payments.length === 0) throw new ValidationError('nothing to send', 'outputs');
  for (const p of payments) checkPositive(p.amount);
}

/** The fields every X tx has, up to its inputs: `funding`'s inputs, and `outputs` (its change unless told) sorted. */
function baseFields(p: XSpendParams, funding: Funding, outputs = funding.change) {
  return {
    networkID: p.ctx.networkID,
    blockchainID: p.ctx.xChainID,
    memo: checkMemo(p.memo ?? new Uint8Array()),
    outputs: sortTransferableOutputs(outputs, 'avm'),
    inputs: funding.inputs,
  };
}

function paymentOutputs(payments: Payment[]): TransferableOutput[] {
  return payments.map((pay) => transferOutput(pay.assetID, pay.amount, pay.owners));
}

function assetNeeds(payments: Payment[]): Map<string, bigint> {
  return sumByAsset(payments.map((p) => ({ assetID: p.assetID, amount: p.amount })));
}

/** Sends any assets, to any owner sets, in one BaseTx. */
export function buildXSend(p: XSpendParams & { payments: Payment[] }): BuiltTx<XBaseTx> {
  checkPayments(p.payments);
  const funding = fundFor(p, {
    needs: assetNeeds(p.payments),
    fee: () => p.ctx.xTxFee,
  });
  const tx: XBaseTx = {
    vm: 'avm',
    kind: 'BaseTx',
    ...baseFields(p, funding, [...paymentOutputs(p.payments), ...funding.change]),
  };
  return built(tx, funding.spent, funding.fee, MAX_XP_TX_SIZE);
}

/** Bytes one spent input adds to a signed tx: input, credential and one signature per sigIndex. */
function inputFootprint(s: SpendableUtxo): number {
  return 84 + 4 * s.sigIndices.length + 8 + 65 * s.sigIndices.length;
}

/** Room for the fixed part of a tx and a few outputs, kept free when packing inputs. */
const TX_OVERHEAD_RESERVE = 1024;

/**
 * Splits UTXOs into groups, largest first, each within `max` counted from `start` with `cost` per
 * input (bytes of a tx, or an import's gas).
 */
export function packBy(utxos: readonly SpendableUtxo[], start: number, cost: (s: SpendableUtxo) => number, max: number): SpendableUtxo[][] {
  const sorted = [...utxos].sort((a, b) => (a.amount === b.amount ? 0 : a.amount > b.amount ? -1 : 1));
  const groups: SpendableUtxo[][] = [];
  let current: SpendableUtxo[] = [];
  let used = start;
  for (const s of sorted) {
    const add = cost(s);
    if (current.length > 0 && used + add > max) {
      groups.push(current);
      current = [];
      used = start;
    }
    current.push(s);
    used += add;
  }
  if (current.length > 0) groups.push(current);
  return groups;
}

/** Splits UTXOs into groups whose inputs fit one tx each, largest first. */
export function packInputs(utxos: readonly SpendableUtxo[], maxSize: number): SpendableUtxo[][] {
  return packBy(utxos, TX_OVERHEAD_RESERVE, inputFootprint, maxSize);
}

/**
 * The imports of `atomicUtxos`, one tx per group that fits (packInputs), each built by `build`
 * with the wallet's UTXOs earlier ones spend excluded: two imports funding their fee from the same
 * UTXO would have the second refused. A group the wallet can no longer pay the fee of, after
 * another, is left in atomic memory for a later import.
 */
export function buildImportGroups<T extends UnsignedTx>(atomicUtxos: readonly SpendableUtxo[], build: (group: SpendableUtxo[], exclude: ReadonlySet<string>) => BuiltTx<T>): BuiltTx<T>[] {
  if (atomicUtxos.length === 0) throw new ValidationError('nothing to import', 'atomicUtxos');
  const taken = new Set<string>();
  const txs: BuiltTx<T>[] = [];
  const groups = packInputs(atomicUtxos, MAX_XP_TX_SIZE);
  for (const [i, group] of groups.entries()) {
    let tx: BuiltTx<T>;
    try {
      tx = build(group, taken);
    } catch (e) {
      // The last chance to import anything says why nothing can be.
      if (e instanceof InsufficientFundsError && (txs.length > 0 || i < groups.length - 1)) continue;
      throw e;
    }
    for (const u of tx.spent) taken.add(utxoId(u));
    txs.push(tx);
  }
  return txs;
}

/**
 * Sends `amount` of AVAX even when the inputs it needs exceed one tx: several BaseTxs, each with
 * its own disjoint inputs, each paying its own fee. Independent txs, so they can be issued at once.
 * Not in the extension (its sends are one tx each, Max says so): the scale tests use it.
 */
export function buildXSendSplit(p: XSpendParams & { amount: bigint; owners: OutputOwners }): BuiltTx<XBaseTx>[] {
  checkPositive(p.amount);
  const avax = toHex(p.ctx.avaxAssetID);
  const avaxPool = p.pool.filter((s) => toHex(s.utxo.assetID) === avax);
  try {
    return [buildXSend({ ...p, payments: [{ assetID: p.ctx.avaxAssetID, amount: p.amount, owners: p.owners }] })];
  } catch (e) {
    if (!(e instanceof TxTooLargeError)) throw e;
  }
  const txs: BuiltTx<XBaseTx>[] = [];
  let remaining = p.amount;
  for (const group of packInputs(avaxPool, MAX_XP_TX_SIZE)) {
    if (remaining === 0n) break;
    const total = group.reduce((sum, s) => sum + s.amount, 0n);
    if (total <= p.ctx.xTxFee) continue;
    const send = remaining < total - p.ctx.xTxFee ? remaining : total - p.ctx.xTxFee;
    txs.push(buildXSend({ ...p, pool: group, payments: [{ assetID: p.ctx.avaxAssetID, amount: send, owners: p.owners }] }));
    remaining -= send;
  }
  // What no group could carry, each having paid its own fee.
  if (remaining > 0n) throw new ValidationError(`cannot send that much: after one fee per transaction, ${remaining} nAVAX short of the amount`, 'amount');
  return txs;
}

// ---- assets ----

const NAME_PATTERN = /^[A-Za-z0-9 ]+$/;
const SYMBOL_PATTERN = /^[A-Z]+$/;
export const MAX_ASSET_NAME = 128;
export const MAX_ASSET_SYMBOL = 4;
export const MAX_ASSET_DENOMINATION = 32;

/** The node's rules for a new asset's name, symbol and denomination, as readable errors. */
export function validateAssetDescription(name: string, symbol: string, denomination: number): void {
  if (name.length < 1 || name.length > MAX_ASSET_NAME) throw new ValidationError(`a name has 1 to ${MAX_ASSET_NAME} characters`, 'name');
  if (!NAME_PATTERN.test(name)) throw new ValidationError('a name uses only letters, digits and spaces', 'name');
  if (name.trim() !== name) throw new ValidationError('a name cannot start or end with a space', 'name');
  if (symbol.length < 1 || symbol.length > MAX_ASSET_SYMBOL) throw new ValidationError(`a symbol has 1 to ${MAX_ASSET_SYMBOL} letters`, 'symbol');
  if (!SYMBOL_PATTERN.test(symbol)) throw new ValidationError('a symbol uses only capital letters A–Z', 'symbol');
  if (!Number.isInteger(denomination) || denomination < 0 || denomination > MAX_ASSET_DENOMINATION) {
    throw new ValidationError(`denomination is a whole number from 0 to ${MAX_ASSET_DENOMINATION}`, 'denomination');
  }
}

/** The initial holders' outputs; the node refuses an output of zero (and the codec anything past a u64). */
function holderOutputs(holders: { owners: OutputOwners; amount: bigint }[]): Output[] {
  return holders.map((h) => {
    if (h.amount <= 0n) throw new ValidationError('each holder receives more than zero', 'holders');
    if (h.amount > MAX_U64) throw new ValidationError("a holder's amount is more than one X-Chain output can hold", 'holders');
    return { kind: 'TransferOutput', amount: h.amount, owners: h.owners };
  });
}

/** Fixed-cap asset: the whole supply goes to the initial holders; nobody can mint more. */
export function fixedCapState(holders: { owners: OutputOwners; amount: bigint }[]): InitialState {
  if (holders.length === 0) throw new ValidationError('a fixed-cap asset needs at least one holder', 'holders');
  return { fxIndex: 0, outputs: sortOutputs(holderOutputs(holders), 'avm') };
}

/** Variable-cap asset: each minter set (owners + threshold) may mint more later. */
export function variableCapState(minterSets: OutputOwners[], holders: { owners: OutputOwners; amount: bigint }[] = []): InitialState {
  if (minterSets.length === 0) throw new ValidationError('a variable-cap asset needs at least one minter set', 'minters');
  const outputs: Output[] = [
    ...minterSets.map((owners): Output => ({ kind: 'MintOutput', owners })),
    ...holderOutputs(holders),
  ];
  return { fxIndex: 0, outputs: sortOutputs(outputs, 'avm') };
}

/** NFT family: one mint right per group; group i is minted by minterSets[i]. */
export function nftFamilyState(minterSets: OutputOwners[]): InitialState {
  if (minterSets.length === 0) throw new ValidationError('an NFT family needs at least one group', 'groups');
  const outputs: Output[] = minterSets.map((owners, groupID) => ({ kind: 'NftMintOutput', groupID, owners }));
  return { fxIndex: 1, outputs: sortOutputs(outputs, 'avm') };
}

export function buildXCreateAsset(
  p: XSpendParams & { name: string; symbol: string; denomination: number; initialStates: InitialState[] },
): BuiltTx<XCreateAssetTx> {
  validateAssetDescription(p.name, p.symbol, p.denomination);
  if (p.initialStates.length === 0) throw new ValidationError('an asset needs an initial state', 'initialStates');
  const states = [...p.initialStates].sort((a, b) => a.fxIndex - b.fxIndex);
  for (let i = 1; i < states.length; i++) {
    if (states[i]!.fxIndex === states[i - 1]!.fxIndex) throw new ValidationError('one initial state per feature extension', 'initialStates');
  }
  const funding = fundFor(p, {
    needs: new Map(),
    fee: () => p.ctx.xCreateAssetTxFee,
  });
  const tx: XCreateAssetTx = {
    vm: 'avm',
    kind: 'CreateAssetTx',
    ...baseFields(p, funding),
    name: p.name,
    symbol: p.symbol,
    denomination: p.denomination,
    initialStates: states.map((s) => ({ fxIndex: s.fxIndex, outputs: sortOutputs(s.outputs, 'avm') })),
  };
  return built(tx, funding.spent, funding.fee, MAX_XP_TX_SIZE);
}

/** An OperationTx applying `op` to the one UTXO `opUtxo`, its fee paid from the pool. */
function operationTx(p: XSpendParams, opUtxo: Utxo, op: FxOperation): BuiltTx<XOperationTx> {
  const operation: Operation = { assetID: opUtxo.assetID, utxoIDs: [{ txID: opUtxo.txID, outputIndex: opUtxo.outputIndex }], op };
  const funding = fundFor(p, {
    needs: new Map(),
    fee: () => p.ctx.xTxFee,
    exclude: new Set([utxoId(opUtxo)]),
  });
  const tx: XOperationTx = {
    vm: 'avm',
    kind: 'OperationTx',
    ...baseFields(p, funding),
    operations: sortOperations([operation]),
  };
  return built(tx, [...funding.spent, opUtxo], funding.fee, MAX_XP_TX_SIZE);
}

function minterIndices(owners: OutputOwners, owned: OwnedAddresses, what: string, now = 0n): number[] {
  const indices = signingIndices(owners, owned);
  if (!indices) throw new ValidationError(`this wallet does not hold enough keys of the ${what} to sign (threshold ${owners.threshold})`, 'minter');
  if (owners.locktime > now) throw new ValidationError(`this ${what} is time-locked`, 'minter');
  return indices;
}

/** Mints more of a variable-cap asset; the mint right stays with the same minter set. */
export function buildXMint(
  p: XSpendParams & { mintUtxo: Utxo; owned: OwnedAddresses; amount: bigint; to: OutputOwners },
): BuiltTx<XOperationTx> {
  const out = p.mintUtxo.output;
  if (out.kind !== 'MintOutput') throw new ValidationError('this UTXO is not a mint right of a variable-cap asset', 'mintUtxo');
  if (p.amount <= 0n) throw new ValidationError('mint more than zero', 'amount');
  if (p.amount > MAX_U64) throw new ValidationError('that amount is more than one X-Chain output can hold', 'amount');
  const mintInput = minterIndices(out.owners, p.owned, 'minter set', p.now);
  return operationTx(p, p.mintUtxo, {
    kind: 'SecpMintOperation',
    mintInput,
    mintOutput: out.owners,
    transferOutput: { amount: p.amount, owners: p.to },
  });
}

export function validateNftPayload(payload: Bytes): void {
  if (payload.length > MAX_NFT_PAYLOAD) {
    throw new ValidationError(`an NFT payload holds at most ${MAX_NFT_PAYLOAD} bytes; this one has ${payload.length}`, 'payload');
  }
}

/** Mints an NFT group: one NFT per owner set, all with the same payload (consumes the group's mint right). */
export function buildXNftMint(
  p: XSpendParams & { mintUtxo: Utxo; owned: OwnedAddresses; payload: Bytes; to: OutputOwners[] },
): BuiltTx<XOperationTx> {
  const out = p.mintUtxo.output;
  if (out.kind !== 'NftMintOutput') throw new ValidationError('this UTXO is not an NFT mint right', 'mintUtxo');
  validateNftPayload(p.payload);
  if (p.to.length === 0) throw new ValidationError('mint to at least one owner', 'to');
  const mintInput = minterIndices(out.owners, p.owned, 'NFT minter set', p.now);
  return operationTx(p, p.mintUtxo, { kind: 'NftMintOperation', mintInput, groupID: out.groupID, payload: p.payload, outputs: p.to });
}

export function buildXNftTransfer(
  p: XSpendParams & { nftUtxo: Utxo; owned: OwnedAddresses; to: OutputOwners },
): BuiltTx<XOperationTx> {
  const out = p.nftUtxo.output;
  if (out.kind !== 'NftTransferOutput') throw new ValidationError('this UTXO is not an NFT', 'nftUtxo');
  const input = minterIndices(out.owners, p.owned, 'NFT owner set', p.now);
  return operationTx(p, p.nftUtxo, { kind: 'NftTransferOperation', input, output: { groupID: out.groupID, payload: out.payload, owners: p.to } });
}

// ---- cross-chain ----

/** Exports AVAX to the P- or C-Chain's atomic memory, owned by `to` (for C: the C-bech32 owner). */
export function buildXExport(
  p: XSpendParams & { destination: 'P' | 'C'; amount: bigint; to: OutputOwners },
): BuiltTx<XExportTx> {
  checkPositive(p.amount);
  const funding = fundFor(p, {
    needs: new Map([[toHex(p.ctx.avaxAssetID), p.amount]]),
    fee: () => p.ctx.xTxFee,
  });
  const tx: XExportTx = {
    vm: 'avm',
    kind: 'ExportTx',
    ...baseFields(p, funding),
    destinationChain: chainIdOf(p.ctx, p.destination),
    exportedOutputs: [transferOutput(p.ctx.avaxAssetID, p.amount, p.to)],
  };
  return built(tx, funding.spent, funding.fee, MAX_XP_TX_SIZE);
}

/**
 * Imports atomic UTXOs exported from P or C into `to`, paying the fee from the imported AVAX
 * (or, if that is too little, from the wallet's X balance). Several txs when the UTXOs do not fit
 * one; each is independent.
 */
export function buildXImport(
  p: XSpendParams & { source: 'P' | 'C'; atomicUtxos: readonly SpendableUtxo[]; to: OutputOwners },
): BuiltTx<XImportTx>[] {
  return buildImportGroups(p.atomicUtxos, (group, exclude) => {
    const importedInputs: TransferableInput[] = sortTransferableInputs(group.map(toTransferableInput));
    const funding = fundFor(p, {
      needs: new Map(),
      credit: sumByAsset(group.map((s) => ({ assetID: s.utxo.assetID, amount: s.amount }))),
      changeOwners: p.to,
      fee: () => p.ctx.xTxFee,
      exclude,
    });
    const tx: XImportTx = {
      vm: 'avm',
      kind: 'ImportTx',
      ...baseFields(p, funding),
      sourceChain: chainIdOf(p.ctx, p.source),
      importedInputs,
    };
    return built(tx, [...funding.spent, ...group.map((s) => s.utxo)], funding.fee, MAX_XP_TX_SIZE);
  });
}


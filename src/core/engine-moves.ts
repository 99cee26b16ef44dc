// WalletEngine's cross-chain moves (its methods delegate here): exports, imports and the base fee atomic txs pay.
import { exportNonce } from './c-atomic.js';
import type { Utxo } from './codec/types.js';
import { cb58Encode } from './encoding.js';
import type { WalletEngine } from './engine.js';
import { type EngineKeys, type EngineOptions, pParams, provenFirst, xParams } from './engine-types.js';
import { WalletError } from './errors.js';
import { checkFeeInput, MAX_C_BASE_FEE_WEI } from './fee-limits.js';
import { type AtomicFeeCap, withHeadroom } from './fees.js';
import type { ChainAlias } from './node.js';
import type { BuiltTx } from './tx/built.js';
import { buildCExport, buildCImport } from './tx/c.js';
import { makeOwners } from './tx/context.js';
import { buildPExport, buildPImport } from './tx/p.js';
import type { SpendableUtxo } from './tx/utxos.js';
import { buildXExport, buildXImport } from './tx/x.js';

/** The engine's headroom over the C-Chain base fee for atomic txs, and the floor a reviewed fee must meet (EngineOptions). */
type AtomicFeeOptions = Required<Pick<EngineOptions, 'atomicBaseFeeHeadroom' | 'atomicBaseFeeFloor'>>;

/** The base fee C-Chain atomic txs are built at and, given the fee the user reviewed (`maxFee`), the cap it sets. */
export async function atomicPricing(e: WalletEngine, options: AtomicFeeOptions, maxFee?: bigint): Promise<{ baseFeeWei: bigint; cap: AtomicFeeCap | undefined }> {
  const baseFee = await cBaseFee(e);
  const cap = maxFee === undefined ? undefined : { maxFee, floorBaseFeeWei: withHeadroom(baseFee, options.atomicBaseFeeFloor) };
  return { baseFeeWei: withHeadroom(baseFee, options.atomicBaseFeeHeadroom), cap };
}

/** A move's two chains: the same one twice is refused. */
export function differentChains(from: ChainAlias, to: ChainAlias): void {
  if (from === to) throw new WalletError('validation', 'source and destination chains must differ');
}

export async function cBaseFee(e: WalletEngine): Promise<bigint> {
  return checkFeeInput('a C-Chain base fee (wei) of', await e.node.eth.baseFee(), MAX_C_BASE_FEE_WEI);
}

/**
 * Builds the export half of a move of `amount` nAVAX from `from` to `to`, owned on arrival by this
 * wallet. `maxFee`: the fee the user reviewed, paid from the C-Chain when the fee of now is a little above it.
 */
export async function buildExport(e: WalletEngine, keys: EngineKeys, options: AtomicFeeOptions, from: ChainAlias, to: ChainAlias, amount: bigint, maxFee?: bigint): Promise<BuiltTx> {
  differentChains(from, to);
  // Atomic UTXOs for the C-Chain are owned by the EVM key's short ID (C-bech32 address).
  const owner = makeOwners([to === 'C' ? keys.evm.shortId : keys.change]);
  if (from === 'X') return buildXExport({ ...(await xParams(e)), destination: to as 'P' | 'C', amount, to: owner });
  if (from === 'P') return buildPExport({ ...(await pParams(e)), destination: to as 'X' | 'C', amount, to: owner });
  const [nonce, pricing] = await Promise.all([exportNonce(e.node, e.evmAddress), atomicPricing(e, options, maxFee)]);
  // The balance once the nonce wait is over: a tx of the same key run meanwhile (another wallet's) spent from it.
  return buildCExport({ ctx: e.ctx, from: keys.evm.evmAddress, nonce, balanceWei: await e.cBalanceWei(), destination: to as 'X' | 'P', amount, to: owner, ...pricing });
}

/**
 * Builds the imports of the atomic UTXOs waiting on `to` from `from` (several txs when needed):
 * those `fromTx` created when given (a move imports its own export's funds), else every one.
 * `maxFee`: the fees the user reviewed, paid into the C-Chain when the fees of now are a little above them.
 */
export async function buildImports(e: WalletEngine, to: ChainAlias, from: ChainAlias, fromTx?: string, maxFee?: bigint): Promise<BuiltTx[]> {
  const atomicUtxos = (await e.atomicSpendable(to, from)).filter((u) => fromTx === undefined || cb58Encode(u.utxo.txID) === fromTx);
  if (atomicUtxos.length === 0) return [];
  return e.buildImportsOf(to, from, provenFirst(atomicUtxos), maxFee);
}

/** The imports into `to` of exactly `atomicUtxos` (exported from `from`), built, not signed: as few txs as they take. */
export async function buildImportsOf(e: WalletEngine, keys: EngineKeys, options: AtomicFeeOptions, to: ChainAlias, from: ChainAlias, atomicUtxos: readonly SpendableUtxo[], maxFee?: bigint): Promise<BuiltTx[]> {
  if (to === 'X') return buildXImport({ ...(await xParams(e)), source: from as 'P' | 'C', atomicUtxos, to: e.changeOwners });
  if (to === 'P') return buildPImport({ ...(await pParams(e)), source: from as 'X' | 'C', atomicUtxos, to: e.changeOwners });
  return buildCImport({ ctx: e.ctx, source: from as 'X' | 'P', atomicUtxos, to: keys.evm.evmAddress, ...(await atomicPricing(e, options, maxFee)) });
}

/**
 * nAVAX the import of one atomic UTXO of `amount` (exported from `from`, owned as buildExport
 * owns it) into `to` would burn, from the destination chain's own builder. The UTXO is made up
 * here: nothing is read from atomic memory, nothing is signed.
 */
export async function estimateImportFee(e: WalletEngine, keys: EngineKeys, to: ChainAlias, from: ChainAlias, amount: bigint): Promise<bigint> {
  differentChains(from, to);
  const owners = makeOwners([to === 'C' ? keys.evm.shortId : keys.change]);
  const utxo: Utxo = { txID: new Uint8Array(32), outputIndex: 0, assetID: e.ctx.avaxAssetID, output: { kind: 'TransferOutput', amount, owners } };
  const [first] = await e.buildImportsOf(to, from, [{ utxo, amount, sigIndices: [0] }]);
  return first!.fee;
}

// C-Chain builders: atomic export to X or P, atomic import from X or P (docs/protocol.md §C), and
// EIP-1559 EVM transactions, encoded and signed with micro-eth-signer.
import { addr, Transaction } from 'micro-eth-signer';
import { WEI_PER_NAVAX } from '../amount.js';
import { type Bytes, toHex } from '../bytes.js';
import { unsignedTxLength } from '../codec/codec.js';
import { sortTransferableInputs } from '../codec/rules.js';
import type { CExportTx, CImportTx, OutputOwners, TransferableInput } from '../codec/types.js';
import { checkPositive, InsufficientFundsError, SigningError, TxTooLargeError, ValidationError } from '../errors.js';
import { formatEvmAddress } from '../evm-address.js';
import { evmAddressOfSecret } from '../keys.js';
import { cb58Encode } from '../encoding.js';
import { ATOMIC_TX_MAX_GAS, type AtomicFeeCap, atomicFeeWithin, atomicTxGas } from '../fees.js';
import { built, type BuiltTx } from './built.js';
import { type ChainContext, chainIdOf, MAX_ATOMIC_TX_SIZE, transferOutput } from './context.js';
import { type SpendableUtxo, toTransferableInput } from './utxos.js';
import { packBy } from './x.js';


export interface CExportParams {
  ctx: ChainContext;
  /** The EVM account that pays: its address, current nonce and balance in wei. */
  from: Bytes;
  nonce: bigint;
  balanceWei: bigint;
  destination: 'X' | 'P';
  /** nAVAX to arrive in atomic memory. */
  amount: bigint;
  to: OutputOwners;
  /** Base fee in wei to pay for, headroom included. */
  baseFeeWei: bigint;
  /** The fee reviewed, paid instead when the fee of now is above it (atomicFeeWithin). */
  cap?: AtomicFeeCap | undefined;
}

export function buildCExport(p: CExportParams): BuiltTx<CExportTx> {
  checkPositive(p.amount);
  const make = (fee: bigint): CExportTx => ({
    vm: 'evm',
    kind: 'ExportTx',
    networkID: p.ctx.networkID,
    blockchainID: p.ctx.cChainID,
    destinationChain: chainIdOf(p.ctx, p.destination),
    ins: [{ address: p.from, amount: p.amount + fee, assetID: p.ctx.avaxAssetID, nonce: p.nonce }],
    exportedOutputs: [transferOutput(p.ctx.avaxAssetID, p.amount, p.to)],
  });
  // Amounts are fixed-width, so the size (and gas) does not change with the fee.
  const fee = atomicFeeWithin(atomicTxGas(make(0n)), p.baseFeeWei, p.cap);
  const needed = (p.amount + fee) * WEI_PER_NAVAX;
  if (needed > p.balanceWei) {
    throw new InsufficientFundsError(cb58Encode(p.ctx.avaxAssetID), p.amount + fee, p.balanceWei / WEI_PER_NAVAX, 'AVAX (C-Chain)');
  }
  return built(make(fee), [], fee, MAX_ATOMIC_TX_SIZE);
}

const IMPORT_FIXED_GAS = 10_000 + 2 + 4 + 4 + 32 + 32 + 4 + 4 + 60;

/** Groups atomic UTXOs so that each import stays under the atomic gas cap (gas this small is exact as a number). */
export function packAtomicImports(utxos: readonly SpendableUtxo[]): SpendableUtxo[][] {
  // Each input: its 84 bytes and 4 per signature index, and 1,000 gas per signature.
  return packBy(utxos, IMPORT_FIXED_GAS, (s) => 84 + 1004 * s.sigIndices.length, Number(ATOMIC_TX_MAX_GAS));
}

/**
 * Imports AVAX exported from X or P into the EVM account `to`, paying the fee from the imported
 * value. Several txs when the UTXOs exceed one tx's gas cap.
 */
export function buildCImport(p: {
  ctx: ChainContext;
  source: 'X' | 'P';
  atomicUtxos: readonly SpendableUtxo[];
  to: Bytes;
  baseFeeWei: bigint;
  /** The fees reviewed for all of them together, shared by gas (atomicFeeWithin). */
  cap?: AtomicFeeCap | undefined;
}): BuiltTx<CImportTx>[] {
  if (p.atomicUtxos.length === 0) throw new ValidationError('nothing to import', 'atomicUtxos');
  const avax = toHex(p.ctx.avaxAssetID);
  if (p.atomicUtxos.some((s) => toHex(s.utxo.assetID) !== avax)) {
    throw new ValidationError('only AVAX can be imported into the C-Chain', 'atomicUtxos');
  }
  const drafts = packAtomicImports(p.atomicUtxos).map((group) => {
    const importedInputs: TransferableInput[] = sortTransferableInputs(group.map(toTransferableInput));
    const total = group.reduce((sum, s) => sum + s.amount, 0n);
    const make = (amount: bigint): CImportTx => ({
      vm: 'evm',
      kind: 'ImportTx',
      networkID: p.ctx.networkID,
      blockchainID: p.ctx.cChainID,
      sourceChain: chainIdOf(p.ctx, p.source),
      importedInputs,
      outs: [{ address: p.to, amount, assetID: p.ctx.avaxAssetID }],
    });
    const draft = make(total);
    const gas = atomicTxGas(draft, unsignedTxLength(draft));
    if (gas > ATOMIC_TX_MAX_GAS) throw new TxTooLargeError(`an import needs ${gas} gas; the C-Chain accepts at most ${ATOMIC_TX_MAX_GAS}`);
    return { group, total, make, gas };
  });
  const allGas = drafts.reduce((sum, d) => sum + d.gas, 0n);
  return drafts.map(({ group, total, make, gas }) => {
    // Shares rounded down: together they never pass the cap.
    const share = p.cap && { ...p.cap, maxFee: (p.cap.maxFee * gas) / allGas };
    const fee = atomicFeeWithin(gas, p.baseFeeWei, share);
    if (total <= fee) {
      throw new InsufficientFundsError(avax, fee + 1n, total, 'AVAX waiting to be imported (less than the import fee)');
    }
    return built(make(total - fee), group.map((s) => s.utxo), fee, MAX_ATOMIC_TX_SIZE);
  });
}

// ---- EVM ----

export interface EvmTxRequest {
  chainId: bigint;
  nonce: bigint;
  /** '' for a contract deployment. */
  to: string;
  value: bigint;
  data?: string;
  gasLimit: bigint;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

export interface SignedEvmTx {
  rawTx: string;
  hash: string;
  /** The most this tx can cost in fees, in wei. */
  maxFeeWei: bigint;
}

export const PLAIN_TRANSFER_GAS = 21_000n;

function prepareEvmTx(req: EvmTxRequest): ReturnType<typeof Transaction.prepare<'eip1559'>> {
  if (req.maxPriorityFeePerGas > req.maxFeePerGas) {
    throw new ValidationError('the priority fee cannot exceed the max fee', 'maxPriorityFeePerGas');
  }
  // micro-eth-signer's strict checks (for user input) take at most 30 M gas: a larger limit (a chain
  // a site added, with bigger blocks) is checked as wire data is (up to 2^64).
  return Transaction.prepare({
    type: 'eip1559',
    chainId: req.chainId,
    nonce: req.nonce,
    to: req.to === '' ? '0x' : req.to,
    value: req.value,
    data: req.data ?? '',
    gasLimit: req.gasLimit,
    maxFeePerGas: req.maxFeePerGas,
    maxPriorityFeePerGas: req.maxPriorityFeePerGas,
  }, req.gasLimit <= 30_000_000n);
}

/** The EIP-1559 tx without its signature (0x02 ‖ RLP), as 0x hex: keccak-256 of these bytes is what is signed. */
export function unsignedEvmTxHex(req: EvmTxRequest): string {
  return prepareEvmTx(req).toHex({ includeSignature: false });
}

export function signEvmTx(req: EvmTxRequest, secret: Bytes): SignedEvmTx {
  const signed = prepareEvmTx(req).signBy(secret);
  // The sender recovered from the signature (another path than signing) must be the key's address,
  // derived by another library than the signer's.
  if (signed.sender.toLowerCase() !== formatEvmAddress(evmAddressOfSecret(secret)).toLowerCase()) {
    throw new SigningError();
  }
  return { rawTx: signed.toHex({ includeSignature: true }), hash: signed.hash, maxFeeWei: req.gasLimit * req.maxFeePerGas };
}

/** A signed EIP-1559 tx (its raw bytes) back as the request it was signed from. */
export function decodeEvmTx(rawTx: Bytes): EvmTxRequest & { from: string } {
  const tx = Transaction.fromHex(`0x${toHex(rawTx)}`);
  const r = tx.raw as { chainId: bigint; nonce: bigint; to: string; value: bigint; data: string; gasLimit: bigint; maxFeePerGas?: bigint; maxPriorityFeePerGas?: bigint };
  if (r.maxFeePerGas === undefined || r.maxPriorityFeePerGas === undefined) throw new ValidationError('not an EIP-1559 transaction', 'rawTx');
  const data = r.data && r.data !== '0x' ? { data: r.data } : {};
  return { chainId: r.chainId, nonce: r.nonce, to: r.to === '0x' ? '' : r.to, value: r.value, gasLimit: r.gasLimit, maxFeePerGas: r.maxFeePerGas, maxPriorityFeePerGas: r.maxPriorityFeePerGas, from: tx.sender, ...data };
}

/**
 * Fees for a tx that takes the place of a pending one (same nonce): the node's mempool wants both
 * the fee cap and the tip at least 10% higher (rounded up) and higher at all (a tip of 0), and it
 * must pay today's base fee bound.
 */
export function replacementFees(old: Pick<EvmTxRequest, 'maxFeePerGas' | 'maxPriorityFeePerGas'>, baseFeeWei: bigint, tipWei: bigint): { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint } {
  const bump = (v: bigint): bigint => (v * 110n + 99n) / 100n || 1n;
  const tip = bump(old.maxPriorityFeePerGas) > tipWei ? bump(old.maxPriorityFeePerGas) : tipWei;
  const now = eip1559Fees(baseFeeWei, tip).maxFeePerGas;
  const cap = bump(old.maxFeePerGas) > now ? bump(old.maxFeePerGas) : now;
  return { maxFeePerGas: cap, maxPriorityFeePerGas: tip };
}

/** The address a contract deployed by `from` at `nonce` gets (CREATE: keccak of RLP [from, nonce]), EIP-55. */
export function contractAddressOf(from: string, nonce: bigint): string {
  return addr.addChecksum(addr.getCreateAddress(from, nonce));
}

/** The nonce a signed EVM tx (its raw bytes) spends. */
export function evmTxNonce(rawTx: Bytes): bigint {
  return Transaction.fromHex(`0x${toHex(rawTx)}`).raw.nonce;
}

/**
 * The gas limit signed for the node's estimate of a tx: 1.5× it, within `cap` (a plain transfer's
 * 21000 as it is: no code runs). The node estimates on the last executed state, and a call that
 * runs after a change (a tx ahead of it, or while the user read the approval) can need more: out of
 * gas, it fails and is charged in full. Helicon charges at least half the limit, so up to 2× the
 * use costs nothing more.
 */
export function gasLimitFor(estimate: bigint, cap: bigint): bigint {
  const padded = estimate > PLAIN_TRANSFER_GAS ? (estimate * 3n) / 2n : estimate;
  return padded < cap ? padded : estimate > cap ? estimate : cap;
}

/** Helicon's mempool lets a whole block's gas limit buy at most this many bytes of txs. */
export const BLOCK_BYTES_FOR_GAS = 1_572_864n; // 1.5 MiB

/**
 * The least gas limit Helicon's mempool admits `req` with, over a block gas limit of
 * `blockGasLimit`: size × blockGasLimit ≤ gasLimit × 1.5 MiB, else the node refuses it ("insufficient
 * gas limit for tx size"), however little it would use. Only calldata-heavy calls (over ~1 KB) reach
 * it. The size is the signed tx's at most: the unsigned bytes with the widest gas limit, plus the
 * widest signature (y parity, r and s: 67 bytes) and the list header's growth.
 */
export function sizeGasFloor(req: EvmTxRequest, blockGasLimit: bigint): bigint {
  const unsignedBytes = BigInt((unsignedEvmTxHex({ ...req, gasLimit: 2n ** 64n - 1n }).length - 2) / 2);
  const signedAtMost = unsignedBytes + 67n + 3n;
  return (signedAtMost * blockGasLimit + BLOCK_BYTES_FOR_GAS - 1n) / BLOCK_BYTES_FOR_GAS;
}

/**
 * `cap` lowered to the gas `budgetWei` pays for at `maxFeePerGas`: the room of gasLimitFor only as
 * far as the balance left beside the value pays it (a node takes a tx only then) and, when signing,
 * the fee the user approved. An estimate past it is signed bare, as it was estimated.
 */
export function roomCap(cap: bigint, budgetWei: bigint, maxFeePerGas: bigint): bigint {
  const affordable = maxFeePerGas > 0n ? budgetWei / maxFeePerGas : cap;
  return affordable < cap ? affordable : cap;
}

/**
 * Gas an EVM tx is charged under Helicon (ACP-194): at least half its limit, whatever it uses,
 * never more than the limit. The receipt's gasUsed is this number.
 */
export function chargedGas(gasUsed: bigint, gasLimit: bigint): bigint {
  const floor = (gasLimit + 1n) / 2n;
  const charged = gasUsed > floor ? gasUsed : floor;
  return charged < gasLimit ? charged : gasLimit;
}

/**
 * EIP-1559 fees from the node's base fee and tip: maxFee = 2 × baseFee + tip, so the tx stays
 * valid through several blocks of rising base fee; only baseFee + tip is actually paid.
 */
export function eip1559Fees(baseFeeWei: bigint, tipWei: bigint): { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint } {
  return { maxFeePerGas: 2n * baseFeeWei + tipWei, maxPriorityFeePerGas: tipWei };
}

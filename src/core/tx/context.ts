// What a builder needs to know about the network, as bytes (see network.ts for discovery).
import { type Bytes, equalBytes } from '../bytes.js';
import type { OutputOwners, TransferableOutput } from '../codec/types.js';
import { sortAddresses } from '../codec/rules.js';
import { ValidationError } from '../errors.js';

export interface ChainContext {
  networkID: number;
  hrp: string;
  xChainID: Bytes;
  pChainID: Bytes;
  cChainID: Bytes;
  avaxAssetID: Bytes;
  /** X-Chain static fees in nAVAX. */
  xTxFee: bigint;
  xCreateAssetTxFee: bigint;
}

/** Which of the network's chains `id` is, if it is one of X, P and C. */
export function chainAliasOf(ctx: ChainContext, id: Bytes): 'X' | 'P' | 'C' | undefined {
  if (equalBytes(id, ctx.xChainID)) return 'X';
  if (equalBytes(id, ctx.pChainID)) return 'P';
  if (equalBytes(id, ctx.cChainID)) return 'C';
  return undefined;
}

/** The ID of the network's X, P or C chain (chainAliasOf's inverse). */
export function chainIdOf(ctx: Pick<ChainContext, 'xChainID' | 'pChainID' | 'cChainID'>, chain: 'X' | 'P' | 'C'): Bytes {
  return { X: ctx.xChainID, P: ctx.pChainID, C: ctx.cChainID }[chain];
}

/** Signed X and P txs above this size are refused by the mempool. */
export const MAX_XP_TX_SIZE = 64 * 1024;
/** Signed C-Chain atomic txs above this size are refused by the mempool. */
export const MAX_ATOMIC_TX_SIZE = 40 * 1024;
export const MAX_NFT_PAYLOAD = 1024;

/** An owner set: sorted, de-duplicated addresses; threshold within range. */
export function makeOwners(addresses: Bytes[], threshold = 1, locktime = 0n): OutputOwners {
  const sorted = sortAddresses(addresses);
  for (let i = 1; i < sorted.length; i++) {
    const a = sorted[i - 1]!;
    const b = sorted[i]!;
    if (a.length === b.length && a.every((v, j) => v === b[j])) throw new ValidationError('an owner address is listed twice', 'owners');
  }
  if (sorted.some((a) => a.length !== 20)) throw new ValidationError('an owner address must be 20 bytes', 'owners');
  if (sorted.length === 0) throw new ValidationError('an output needs at least one owner', 'owners');
  if (!Number.isInteger(threshold) || threshold < 1 || threshold > sorted.length) {
    throw new ValidationError(`threshold must be between 1 and ${sorted.length}`, 'threshold');
  }
  if (locktime < 0n) throw new ValidationError('locktime cannot be negative', 'locktime');
  return { locktime, threshold, addresses: sorted };
}

/** `amount` of `assetID` to `owners`: a plain transfer output. */
export function transferOutput(assetID: Bytes, amount: bigint, owners: OutputOwners): TransferableOutput {
  return { assetID, output: { kind: 'TransferOutput', amount, owners } };
}

/** Bytes a signed tx will have once its credentials (65 bytes per signature) are appended. */
export function signedSize(unsignedLength: number, sigsPerCredential: number[]): number {
  let size = unsignedLength + 4;
  for (const n of sigsPerCredential) size += 8 + 65 * n;
  return size;
}

// Ceilings on the fee inputs a node supplies. The wallet builds every output itself, so a lying
// node cannot redirect funds; its one lever is the fee (surplus is burned). These caps sit well
// above anything the real networks charge, and far below "most of the balance".
import { WalletError } from './errors.js';

/** X-Chain static fees (mainnet: 1,000,000 and 10,000,000 nAVAX): 10× headroom. */
export const MAX_X_TX_FEE = 10_000_000n;
export const MAX_X_CREATE_ASSET_FEE = 100_000_000n;
/** Mainnet's and Fuji's X-Chain fees are fixed (their nodes ignore the fee flags): there, no headroom. */
export const PUBLIC_X_TX_FEE = 1_000_000n;
export const PUBLIC_X_CREATE_ASSET_FEE = 10_000_000n;
/**
 * P-Chain gas price in nAVAX per gas (minimum 1), and the weights that turn a tx's complexity into
 * gas (mainnet and Fuji: bandwidth 1, reads 1,000, writes 1,000, compute 4) with 10× headroom. A
 * simple tx (5,179 gas) then costs at most ≈ 0.05 AVAX, ≈ 0.5 AVAX at the weights' ceilings.
 */
export const MAX_P_GAS_PRICE = 10_000n;
export const MAX_P_WEIGHTS = [10n, 10_000n, 10_000n, 40n] as const;
/** C-Chain base fee and tip in wei: 1,000 gwei and 100 gwei. */
export const MAX_C_BASE_FEE_WEI = 1_000_000_000_000n;
export const MAX_C_TIP_WEI = 100_000_000_000n;
/**
 * Gas limit of one tx on Avalanche's C-Chain, a site's or the node's estimate: since Helicon half of
 * a limit is charged even if unused, so an inflated estimate costs. A per-tx cap, not the block's
 * (80 M at Helicon's launch, from the validator-voted ACP-176 target); Ethereum caps a tx at 2^24 ≈
 * 16.8 M. Chains a site adds are not held to it.
 */
export const MAX_C_GAS_LIMIT = 30_000_000n;

/**
 * The largest C-Chain block gas limit believed when a site's tx is held to Helicon's gas-per-byte
 * floor (sizeGasFloor): 4× the 80 M of Helicon's launch. A node claiming more would raise what a
 * site's tx is signed with (half of it charged): refused, as an inflated estimate is.
 */
export const MAX_C_BLOCK_GAS_LIMIT = 320_000_000n;

/** The node asked for a fee above what any real network charges: refused before signing. */
export class FeeLimitError extends WalletError {
  constructor(what: string, value: bigint, limit: bigint) {
    super('fee-limit', `the node reports ${what} ${value}, above the wallet's limit of ${limit}: refusing to sign with it`);
  }
}

export function checkFeeInput(what: string, value: bigint, limit: bigint): bigint {
  if (value > limit) throw new FeeLimitError(what, value, limit);
  return value;
}

// What a C-Chain EVM tx of the wallet cost once it ran. It is listed with the most it can cost (gas
// limit × max fee per gas) while it waits; once run, with what its receipt charged.
import type { WalletEngine } from '../core/engine.js';
import { WalletError } from '../core/errors.js';
import type { EthReceipt } from '../core/node.js';

/** Wei a C-Chain tx paid: gas used × effective gas price, from its receipt. */
async function evmFeePaid(engine: WalletEngine, hash: string, known: EthReceipt | undefined): Promise<bigint> {
  const receipt = known ?? (await engine.node.eth.getTransactionReceipt(hash));
  if (!receipt) throw new WalletError('node-response', `the node has no receipt for the accepted C-Chain transaction ${hash}`);
  // A node that leaves effectiveGasPrice out (pre-London receipts): the block's base fee is what was burned.
  const price = receipt.effectiveGasPrice ?? (await engine.node.eth.getBlockByNumber(receipt.blockNumber))?.baseFeePerGas ?? 0n;
  return receipt.gasUsed * price;
}

/** The fee to list for a tx that ran: its receipt's (`known`, or asked for), never above `most`; `most` when the node cannot say. */
export async function evmFeeCharged(engine: WalletEngine, hash: string, known: EthReceipt | undefined, most: bigint): Promise<bigint> {
  const paid = await evmFeePaid(engine, hash, known).catch(() => most);
  // The receipt is the node's word: never shown above what the tx could cost.
  return paid < most ? paid : most;
}

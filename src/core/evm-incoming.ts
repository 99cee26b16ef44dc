// AVAX sent to the account on the C-Chain by others: EVM txs whose `to` is the account and that
// carry value, found in the blocks since the last look (newest first, a bounded number) and kept
// only when their receipt says they succeeded. Value moved to the account by a contract's internal
// call is not a tx to it and is not found here (the balance still counts it).
import type { CallOptions } from './rpc.js';
import type { EthApi } from './node/eth.js';
import { g } from './rpc.js';
import { ethAddress, ethHash } from './node/checks.js';
import { believedTimeMs } from './node/blocks.js';

export interface EvmIncoming {
  hash: string;
  from: string;
  /** wei */
  value: bigint;
  /** The block's time; when the wallet cannot believe it (believedTimeMs), the moment it looked, said so. */
  timeMs: number;
  timeIsDiscovery?: true;
}

/** At most this many C-Chain blocks are read per look: past it, older transfers are not listed. */
export const MAX_EVM_BLOCKS_SEARCHED = 64;
const READS_AT_ONCE = 4;
/** At most this many transfers are listed per look (the newest): each costs a receipt read. */
export const MAX_EVM_TRANSFERS_FOUND = 32;

const txGuard = g.object({ hash: ethHash, from: ethAddress, to: g.nullable(ethAddress), value: g.quantity });

export interface EvmIncomingLook {
  transfers: EvmIncoming[];
  /**
   * Blocks above `after` were left unread (past the bounds below): transfers in them are not
   * listed. The time of the oldest block read (or the moment it looked, when that block's time is
   * not believed): what came before it may be missing.
   */
  unreadBefore?: number;
}

/**
 * Transfers of AVAX to `account` in the blocks above `after` up to `upTo` (at most
 * MAX_EVM_BLOCKS_SEARCHED of the newest), sent by others, that succeeded: at most
 * MAX_EVM_TRANSFERS_FOUND, the newest, so a flood of dust cannot make the wallet read without end.
 */
export async function incomingEvmTransfers(eth: EthApi, account: string, after: bigint, upTo: bigint, opts?: CallOptions): Promise<EvmIncomingLook> {
  const me = account.toLowerCase();
  const seenAt = Date.now();
  const lowest = upTo - BigInt(MAX_EVM_BLOCKS_SEARCHED) > after ? upTo - BigInt(MAX_EVM_BLOCKS_SEARCHED) : after;
  const heights: bigint[] = [];
  for (let h = upTo; h > lowest; h--) heights.push(h);
  const found: EvmIncoming[] = [];
  let read = 0;
  let oldestReadMs = seenAt;
  let missingBlock = false;
  for (; read < heights.length && found.length < MAX_EVM_TRANSFERS_FOUND; read += READS_AT_ONCE) {
    const blocks = await Promise.all(heights.slice(read, read + READS_AT_ONCE).map((h) => eth.getBlockByNumber(h, true, opts)));
    for (const block of blocks) {
      // A block the node does not give is one whose transfers are not known: any time may be missing.
      if (!block) {
        missingBlock = true;
        continue;
      }
      oldestReadMs = Math.min(oldestReadMs, believedTimeMs(block.timestamp, seenAt) ?? seenAt);
      block.transactions.forEach((raw, index) => {
        const tx = txGuard(raw, `eth_getBlockByNumber result.transactions[${index}]`);
        if (tx.to?.toLowerCase() === me && tx.from.toLowerCase() !== me && tx.value > 0n) {
          const timeMs = believedTimeMs(block.timestamp, seenAt);
          found.push({ hash: tx.hash, from: tx.from, value: tx.value, ...(timeMs !== undefined ? { timeMs } : { timeMs: seenAt, timeIsDiscovery: true }) });
        }
      });
    }
  }
  const newest = found.slice(0, MAX_EVM_TRANSFERS_FOUND);
  const receipts = await Promise.all(newest.map((f) => eth.getTransactionReceipt(f.hash, opts)));
  const transfers = newest.filter((_, i) => receipts[i]?.status === 1n);
  if (missingBlock) return { transfers, unreadBefore: seenAt };
  // Past the count listed, the oldest found are dropped: what came before the oldest kept may be missing.
  if (found.length > newest.length) return { transfers, unreadBefore: newest.at(-1)!.timeMs };
  return lowest > after || read < heights.length ? { transfers, unreadBefore: oldestReadMs } : { transfers };
}

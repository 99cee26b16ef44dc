// The nonce of a C-Chain atomic export under Helicon's asynchronous execution (ACP-194): the
// atomic mempool takes only the nonce of the last executed state (docs/helicon.md).
import { WalletError } from './errors.js';
import type { NodeClient } from './node.js';

export interface ExportNonceOptions {
  /** How long to wait for the account's EVM txs in flight to execute (default 30 s). */
  waitMs?: number;
  pollMs?: number;
}

/**
 * The nonce an atomic export must carry: the account's nonce in the last executed state. The
 * atomic mempool refuses any other ("nonce mismatch"), so while an EVM tx of the account is
 * accepted but not executed (pending > latest) this waits for it, and gives up with
 * `evm-tx-in-flight` (nothing signed) if it does not execute in time.
 */
export async function exportNonce(node: NodeClient, address: string, options: ExportNonceOptions = {}): Promise<bigint> {
  const deadline = Date.now() + (options.waitMs ?? 30_000);
  for (;;) {
    const [executed, pending] = await Promise.all([
      node.eth.getTransactionCount(address, 'latest'),
      node.eth.getTransactionCount(address, 'pending'),
    ]);
    if (pending <= executed) return executed;
    if (Date.now() >= deadline) {
      throw new WalletError(
        'evm-tx-in-flight',
        `another C-Chain transaction of this account is still waiting to be executed (nonce ${executed} executed, ${pending} pending), so an export cannot be made yet; nothing was signed, try again once it has gone through`,
      );
    }
    await new Promise((r) => setTimeout(r, options.pollMs ?? 250));
  }
}

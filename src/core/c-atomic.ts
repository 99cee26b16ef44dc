// C-Chain atomic txs under Helicon's asynchronous execution (ACP-194): the node finds an atomic tx
// only once the block holding it has executed, says nothing of txs still in its mempool, and
// drops none for underpaying (they wait until the base fee falls). So "not found" never means
// "failed": what became of an unexecuted tx is read from its inputs (docs/helicon.md).
import type { Bytes } from './bytes.js';
import { decodeSignedTx } from './codec/codec.js';
import { utxoId } from './codec/ids.js';
import type { CExportTx, CImportTx } from './codec/types.js';
import { WalletError } from './errors.js';
import { formatEvmAddress } from './evm-address.js';
import type { NodeClient } from './node.js';

/**
 * - executed: the node returns the tx (hash-checked) with its block height;
 * - waiting: not executed, and its inputs are still unspent: it may yet go through (in the
 *   mempool, or waiting for the base fee to fall to what it pays);
 * - conflicted: not executed, and its inputs are gone (spent by another tx, or the export's
 *   nonce used by another tx): it can never be accepted.
 */
export type AtomicFate = 'executed' | 'waiting' | 'conflicted';

/**
 * Judges an atomic C-Chain tx from its signed bytes. `atomicUtxoIds(source)`: the IDs of the
 * UTXOs waiting for this wallet in the C-Chain's atomic memory from `source` (what an import spends).
 * The inputs are read before the tx is looked up, so a tx executed in between is seen as executed.
 */
export async function atomicFate(
  node: NodeClient,
  txID: string,
  signedBytes: Bytes,
  atomicUtxoIds: (sourceChain: Bytes) => Promise<ReadonlySet<string>>,
): Promise<AtomicFate> {
  const tx = decodeSignedTx(signedBytes, 'evm').unsigned as CImportTx | CExportTx;
  const inputsLive = tx.kind === 'ImportTx' ? await importInputsLive(tx, atomicUtxoIds) : await exportNonceLive(node, tx);
  if (await node.atomic.findExecutedAtomicTx(txID)) return 'executed';
  return inputsLive ? 'waiting' : 'conflicted';
}

async function importInputsLive(tx: CImportTx, atomicUtxoIds: (sourceChain: Bytes) => Promise<ReadonlySet<string>>): Promise<boolean> {
  const waiting = await atomicUtxoIds(tx.sourceChain);
  return tx.importedInputs.every((input) => waiting.has(utxoId(input)));
}

/** An export spends its account's nonce: once the executed nonce has passed it, the slot is gone. */
async function exportNonceLive(node: NodeClient, tx: CExportTx): Promise<boolean> {
  for (const input of tx.ins) {
    const executed = await node.eth.getTransactionCount(formatEvmAddress(input.address), 'latest');
    if (executed > input.nonce) return false;
  }
  return true;
}

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
        `a C-Chain transaction from ${address} is still waiting to be executed (nonce ${executed} executed, ${pending} pending); nothing was signed, try again once it is done`,
      );
    }
    await new Promise((r) => setTimeout(r, options.pollMs ?? 250));
  }
}

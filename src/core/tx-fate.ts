// What became of a signed tx the node does not (or not yet) call accepted, read from evidence the
// node cannot fake by answering "not found": whether what the tx spends is still unspent. Used
// after a send's answer was lost or refused, and for C-Chain atomic txs, which under Helicon the
// node finds only once executed (docs/helicon.md).
import type { Bytes } from './bytes.js';
import { decodeSignedTx } from './codec/codec.js';
import { utxoId } from './codec/ids.js';
import type { UnsignedTx, Vm } from './codec/types.js';
import { formatEvmAddress } from './evm-address.js';
import type { ChainAlias, NodeClient } from './node.js';

const VM_OF: Record<ChainAlias, Vm> = { X: 'avm', P: 'pvm', C: 'evm' };

/**
 * UTXO IDs this wallet holds on its chain (`sourceChain` undefined) or waiting for it in atomic
 * memory from `sourceChain`.
 */
export type OwnUtxoIds = (sourceChain?: Bytes) => Promise<ReadonlySet<string>>;

/**
 * True while everything the signed tx spends is still there: each UTXO it spends is still among
 * the wallet's (in atomic memory for imports), and a C-Chain export's nonce is not yet passed. Once
 * false, this tx can never be accepted unless it already was.
 */
export async function inputsUnspent(node: NodeClient, chain: ChainAlias, signedBytes: Bytes, ownUtxoIds: OwnUtxoIds): Promise<boolean> {
  const tx = decodeSignedTx(signedBytes, VM_OF[chain]).unsigned as UnsignedTx;
  if (tx.vm === 'evm' && tx.kind === 'ExportTx') {
    for (const input of tx.ins) {
      if ((await node.eth.getTransactionCount(formatEvmAddress(input.address), 'latest')) > input.nonce) return false;
    }
    return true;
  }
  if ('inputs' in tx && tx.inputs.length > 0) {
    const own = await ownUtxoIds();
    if (!tx.inputs.every((i) => own.has(utxoId(i)))) return false;
  }
  if ('importedInputs' in tx && tx.importedInputs.length > 0) {
    const waiting = await ownUtxoIds(tx.sourceChain);
    if (!tx.importedInputs.every((i) => waiting.has(utxoId(i)))) return false;
  }
  return true;
}

// WalletEngine's sending and following (its methods delegate here): signed bytes to the node, then what became of a tx.
import type { Bytes } from './bytes.js';
import { decodeSignedTx } from './codec/codec.js';
import { utxoId } from './codec/ids.js';
import type { WalletEngine } from './engine.js';
import { evmFate } from './engine-evm.js';
import { isEvmHash, type TxFate, type TxState } from './engine-types.js';
import { RpcError, WalletError } from './errors.js';
import { type ChainAlias, getTx } from './node.js';
import { VM_OF } from './node/types.js';
import { chainAliasOf } from './tx/context.js';
import { inputIds, inputsUnspent, judgedInputIds, outputsPresent, type WalletUtxos } from './tx-fate.js';

/** Sends signed bytes to the chain's API (an EVM tx by its 0x hash); the node must answer with the tx's own ID. */
export async function submit(e: WalletEngine, chain: ChainAlias, signedBytes: Bytes, expectedTxID: string): Promise<void> {
  if (chain === 'C' && isEvmHash(expectedTxID)) {
    const hash = await e.node.eth.sendRawTransaction(signedBytes);
    if (hash.toLowerCase() !== expectedTxID.toLowerCase()) throw new WalletError('node-response', `the node reports tx hash ${hash} for a tx whose hash is ${expectedTxID}`);
    return;
  }
  const api = chain === 'X' ? e.node.avm : chain === 'P' ? e.node.platform : e.node.atomic;
  const txID = await api.issueTx(signedBytes);
  if (txID !== expectedTxID) {
    throw new WalletError('node-response', `the node reports tx ID ${txID} for a tx whose ID is ${expectedTxID}`);
  }
}

/**
 * What the node says of an X, P or atomic tx, without waiting: final ('accepted', 'failed'),
 * still 'processing', or 'unknown' (never seen, or no longer known). A C-Chain atomic tx is only
 * ever 'accepted' (executed, bytes hash-checked) or 'unknown': see {@link txFate}.
 */
export async function txState(e: WalletEngine, chain: ChainAlias, txID: string): Promise<TxState> {
  // An acceptance is believed with the tx's bytes only (NodeClient.provesAccepted); a claim
  // without them is no more than 'processing'.
  if (chain === 'X') {
    const status = await e.node.avm.getTxStatus(txID);
    if (status === 'Accepted') return (await e.node.provesAccepted('X', txID)) ? 'accepted' : 'processing';
    return status === 'Rejected' ? 'failed' : status === 'Processing' ? 'processing' : 'unknown';
  }
  if (chain === 'P') {
    const { status } = await e.node.platform.getTxStatus(txID);
    if (status === 'Committed') return (await e.node.provesAccepted('P', txID)) ? 'accepted' : 'processing';
    return status === 'Aborted' || status === 'Dropped' ? 'failed' : status === 'Processing' ? 'processing' : 'unknown';
  }
  return (await e.node.atomic.findExecutedAtomicTx(txID)) ? 'accepted' : 'unknown';
}

/**
 * What became of a signed tx, the node's word checked against what the tx spends and creates:
 * - inputs unspent: the node's word stands ('failed' only then: a tx whose inputs are spent may
 *   have gone through), except that a claim of acceptance is only 'processing'; no word at all is
 *   'not-seen' (it can still be accepted, and sending the same bytes again is safe);
 * - inputs gone: 'accepted' by the node's proven word or by what the tx created being there;
 *   otherwise 'inputs-spent': it went through or something else spent them — unclear, never
 *   "failed".
 * Inputs are read before the node is asked, so a tx accepted in between is not missed. One taken
 * as accepted has its inputs noted (EngineOptions.spent): a read listing one again contradicts it
 * (WalletEngine.contradicted); until then it is not asked about again, unless `asked`.
 */
export async function txFate(e: WalletEngine, chain: ChainAlias, txID: string, signedBytes: Bytes, asked = false): Promise<TxFate> {
  if (chain === 'C' && isEvmHash(txID)) return evmFate(e, txID, signedBytes);
  if (!asked && e.spent?.spenderOf(txID) === txID) return 'accepted';
  const signed = decodeSignedTx(signedBytes, VM_OF[chain]);
  const tx = signed.unsigned;
  const own = judgedInputIds(signed, signedBytes, e.listedKeys);
  // One that spends nothing of the wallet's (a network without fees) cannot be judged by its
  // inputs, which would always read unspent: the node's word, as it has no funds to count twice.
  if (tx.vm !== 'evm' && own.length === 0 && !('importedInputs' in tx && tx.importedInputs.length > 0)) {
    const state = await e.txState(chain, txID);
    if (state !== 'accepted') return state === 'unknown' ? 'not-seen' : state;
    e.spent?.note(txID, [txID]);
    return 'accepted';
  }
  const utxos = walletUtxos(e);
  const live = await inputsUnspent(e.node, chain, tx, own, utxos);
  const state = await e.txState(chain, txID);
  if (live) return state === 'unknown' ? 'not-seen' : state === 'accepted' ? 'processing' : state;
  if (state !== 'accepted' && !(await outputsPresent(chain, tx, txID, utxos))) return 'inputs-spent';
  e.spent?.note(txID, [txID, ...inputIds(tx)]);
  return 'accepted';
}

/**
 * What became of an X or P tx the wallet no longer holds the signed bytes of: {@link txFate} from
 * the node's own bytes (hash-checked by the client), 'not-seen' when it says it has none.
 */
export async function txFateFromNode(e: WalletEngine, chain: 'X' | 'P', txID: string): Promise<TxFate> {
  if (e.spent?.spenderOf(txID) === txID) return 'accepted';
  const bytes = await getTx(e.node, chain, txID).catch((error: unknown) => {
    if (error instanceof RpcError) return undefined;
    throw error;
  });
  return bytes ? txFate(e, chain, txID, bytes) : 'not-seen';
}

function walletUtxos(e: WalletEngine): WalletUtxos {
  return {
    ids: async (chain, source) => new Set((await e.utxos(chain, source)).map(utxoId)),
    aliasOf: (id) => chainAliasOf(e.ctx, id),
  };
}

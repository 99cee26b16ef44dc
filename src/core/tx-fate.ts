// What became of a signed tx, from evidence a node cannot fake by answering "not found" or by
// claiming a failure: whether what the tx spends is still unspent, and whether what it created is
// there. Used after a send's answer was lost, refused or unclear, and for C-Chain atomic txs, which
// under Helicon the node finds only once executed (docs/helicon.md).
import { sha256 } from '@noble/hashes/sha2.js';
import { byteKey, type Bytes } from './bytes.js';
import { type DecodedSignedTx, decodeSignedTx } from './codec/codec.js';
import { utxoId } from './codec/ids.js';
import { ownInputs } from './codec/rules.js';
import type { UnsignedTx, Utxo } from './codec/types.js';
import { cb58Encode } from './encoding.js';
import { formatEvmAddress } from './evm-address.js';
import { hashForSigning, recoverSigner } from './keys.js';
import type { ChainAlias, NodeClient } from './node.js';
import { VM_OF } from './node/types.js';
import type { OwnedAddresses } from './tx/utxos.js';

/** The wallet's view of UTXOs: those it holds on `chain`, or that wait for it there from `source`. */
export interface WalletUtxos {
  ids(chain: ChainAlias, source?: ChainAlias): Promise<ReadonlySet<string>>;
  /** The alias of a chain ID of this network, if it is one. */
  aliasOf(chainID: Bytes): ChainAlias | undefined;
}

/**
 * The UTXOs of its own chain an X or P tx spends, by ID: its inputs, and what an X-Chain operation
 * consumes (a mint right, an NFT), which is not among them.
 */
export function ownInputIds(tx: UnsignedTx): string[] {
  const ids = ownInputs(tx).map(utxoId);
  if (tx.kind === 'OperationTx') for (const op of tx.operations) ids.push(...op.utxoIDs.map(utxoId));
  return ids;
}

/**
 * The UTXOs of its own chain by which a signed X or P tx is judged (inputsUnspent), by what the
 * signatures in its bytes say (`owned`: the short IDs of the account's X/P keys, whose UTXOs its
 * reads list): its inputs and what its X-Chain operations consume (a mint right, an NFT) that this
 * wallet signed for; every input when it signed for nothing (a tx of the wallet's signed by a key
 * the account no longer scans). Not a stranger's input in a site's swap (its fee paid by the other
 * party, say), nor a stranger's NFT, nor one the account's EVM key holds on X: its reads never list
 * them, so the tx would read as spent from the start, and a refusal as "may have gone through".
 * Judging by some of what it spends is sound: it runs with all of it or none.
 */
export function judgedInputIds(signed: DecodedSignedTx, signedBytes: Bytes, owned: OwnedAddresses): string[] {
  // Its signatures recovered once per tx and key set, not at every ask (a refused one is asked
  // before each send; a site's may carry hundreds of signatures).
  const memo = judgedMemo.get(owned) ?? new Map<string, readonly string[]>();
  judgedMemo.set(owned, memo);
  const key = byteKey(sha256(signedBytes));
  const known = memo.get(key);
  if (known) return [...known];
  const ids = judgedNow(signed, signedBytes, owned);
  if (memo.size >= JUDGED_MEMO_SIZE) memo.delete(memo.keys().next().value!);
  memo.set(key, ids);
  return [...ids];
}

/** judgedInputIds per key set (an engine's), by the hash of the signed bytes; the newest kept. */
const judgedMemo = new WeakMap<OwnedAddresses, Map<string, readonly string[]>>();
const JUDGED_MEMO_SIZE = 256;

function judgedNow(signed: DecodedSignedTx, signedBytes: Bytes, owned: OwnedAddresses): string[] {
  const { unsigned: tx, credentials } = signed;
  const inputs = ownInputs(tx);
  const signedByOwned = signerCheck(hashForSigning(signedBytes.subarray(0, signed.unsignedLength)), owned);
  // The node's order: one credential per input, then (X) one per operation.
  const ours = inputs.filter((_, i) => (credentials[i]?.signatures ?? []).some(signedByOwned)).map(utxoId);
  if (tx.vm === 'avm' && tx.kind === 'OperationTx') {
    tx.operations.forEach((op, i) => {
      if ((credentials[inputs.length + i]?.signatures ?? []).some(signedByOwned)) ours.push(...op.utxoIDs.map(utxoId));
    });
  }
  return ours.length > 0 ? ours : inputs.map(utxoId);
}

/**
 * Whether a signature over `digest` is by one of the `owned` keys; each distinct signature
 * recovered once (a key signs every input it holds with the same one).
 */
function signerCheck(digest: Bytes, owned: OwnedAddresses): (signature: Bytes) => boolean {
  const seen = new Map<string, boolean>();
  return (signature) => {
    const key = byteKey(signature);
    let mine = seen.get(key);
    if (mine === undefined) {
      try {
        mine = owned.has(byteKey(recoverSigner(digest, signature).shortId));
      } catch {
        mine = false;
      }
      seen.set(key, mine);
    }
    return mine;
  };
}

/** The UTXOs an X, P or atomic tx spends (imported ones included), by ID. */
export function inputIds(tx: UnsignedTx): string[] {
  const ids = ownInputIds(tx);
  if ('importedInputs' in tx) ids.push(...tx.importedInputs.map(utxoId));
  return ids;
}

/**
 * A read of UTXOs without those created by `spenders`, txs said to spend some of the UTXOs read
 * (taken as accepted, refused, held): a tx whose inputs are unspent has created nothing, so a node
 * listing both contradicts itself (or changed between its pages). The inputs are counted, never
 * both: the tx is followed to its end by its own bytes.
 */
export function withoutOutputsOf(read: readonly Utxo[], spenders: ReadonlySet<string>): { utxos: Utxo[]; unrun: Utxo[] } {
  if (spenders.size === 0) return { utxos: [...read], unrun: [] };
  const utxos: Utxo[] = [];
  const unrun: Utxo[] = [];
  for (const u of read) (spenders.has(cb58Encode(u.txID)) ? unrun : utxos).push(u);
  return { utxos, unrun };
}

export function decodeChainTx(chain: ChainAlias, signedBytes: Bytes): UnsignedTx {
  return decodeSignedTx(signedBytes, VM_OF[chain]).unsigned;
}

/**
 * True while everything the tx spends is still there: each UTXO of `own` (judgedInputIds) is
 * still among the wallet's, each it imports still in atomic memory, and a C-Chain export's nonce
 * is not yet passed. Once false, the tx can never be accepted unless it already was.
 */
export async function inputsUnspent(node: NodeClient, chain: ChainAlias, tx: UnsignedTx, own: readonly string[], utxos: WalletUtxos): Promise<boolean> {
  if (tx.vm === 'evm' && tx.kind === 'ExportTx') {
    for (const input of tx.ins) {
      if ((await node.eth.getTransactionCount(formatEvmAddress(input.address), 'latest')) > input.nonce) return false;
    }
    return true;
  }
  if (own.length > 0) {
    const held = await utxos.ids(chain);
    if (!own.every((id) => held.has(id))) return false;
  }
  if ('importedInputs' in tx && tx.importedInputs.length > 0) {
    const source = utxos.aliasOf(tx.sourceChain);
    const waiting = source && source !== chain ? await utxos.ids(chain, source) : new Set<string>();
    if (!tx.importedInputs.every((i) => waiting.has(utxoId(i)))) return false;
  }
  return true;
}

/**
 * True when something the tx created for this wallet is there: an output of it among the wallet's
 * UTXOs (its change, say), or what it exported waiting in the destination's atomic memory. Only a
 * tx that was accepted can have created them. False says nothing (a tx may create nothing of ours
 * that is still unspent).
 */
export async function outputsPresent(chain: ChainAlias, tx: UnsignedTx, txID: string, utxos: WalletUtxos): Promise<boolean> {
  const mine = (ids: ReadonlySet<string>): boolean => [...ids].some((id) => id.startsWith(`${txID}:`));
  if (tx.kind === 'ExportTx') {
    const destination = utxos.aliasOf(tx.destinationChain);
    if (destination && destination !== chain && mine(await utxos.ids(destination, chain))) return true;
  }
  return tx.vm !== 'evm' && mine(await utxos.ids(chain));
}

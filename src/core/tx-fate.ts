// What became of a signed tx, from evidence a node cannot fake by answering "not found" or by
// claiming a failure: whether what the tx spends is still unspent, and whether what it created is
// there. Used after a send's answer was lost, refused or unclear, and for C-Chain atomic txs, which
// under Helicon the node finds only once executed (docs/helicon.md).
import { sha256 } from '@noble/hashes/sha2.js';
import { byteKey, type Bytes } from './bytes.js';
import { decodeSignedTx } from './codec/codec.js';
import { utxoId } from './codec/ids.js';
import type { UnsignedTx, Utxo, Vm } from './codec/types.js';
import { cb58Encode } from './encoding.js';
import { formatEvmAddress } from './evm-address.js';
import { recoverSigner } from './keys.js';
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
  // `inputs` is checked, not assumed: a P-Chain block-builder tx read from a node has none.
  const ids = tx.vm !== 'evm' && 'inputs' in tx ? tx.inputs.map(utxoId) : [];
  if (tx.kind === 'OperationTx') for (const op of tx.operations) ids.push(...op.utxoIDs.map(utxoId));
  return ids;
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
  return decodeSignedTx(signedBytes, VM_OF[chain]).unsigned as UnsignedTx;
}

/**
 * Whether a signed tx can still run, from the wallet's reads:
 * - 'unspent': all it spends of the wallet's is still there (each UTXO of its chain the wallet's
 *   reads list, each it imports still in atomic memory, a C-Chain export's nonce not yet passed);
 * - 'spent': some of it is gone, so the tx can never be accepted unless it already was;
 * - 'none-of-ours': it spends nothing the wallet's reads could show (a network without fees, or a
 *   site's tx spending only what others own), so they cannot tell.
 * A UTXO of its chain the reads do not list is the wallet's (spent) only if the wallet's keys
 * (`keys`: the short IDs the reads ask about) signed for it: a site's swap may spend a stranger's
 * NFT or funds, which the reads never list. Signers are recovered only for those, so a tx of the
 * wallet's own costs no recovery while it can still run, and one once it ran.
 */
export async function inputsState(node: NodeClient, chain: ChainAlias, tx: UnsignedTx, signedBytes: Bytes, keys: OwnedAddresses, utxos: WalletUtxos): Promise<'unspent' | 'spent' | 'none-of-ours'> {
  if (tx.vm === 'evm' && tx.kind === 'ExportTx') {
    for (const input of tx.ins) {
      if ((await node.eth.getTransactionCount(formatEvmAddress(input.address), 'latest')) > input.nonce) return 'spent';
    }
    return 'unspent';
  }
  const imports = 'importedInputs' in tx && tx.importedInputs.length > 0;
  if (imports) {
    const source = utxos.aliasOf(tx.sourceChain);
    const waiting = source && source !== chain ? await utxos.ids(chain, source) : new Set<string>();
    if (!tx.importedInputs.every((i) => waiting.has(utxoId(i)))) return 'spent';
  }
  const own = spentWithCredential(tx);
  let ours = imports;
  if (own.length > 0) {
    const held = await utxos.ids(chain);
    const unlisted = own.filter((s) => !held.has(s.id));
    // What the reads list is the wallet's.
    ours ||= unlisted.length < own.length;
    if (unlisted.length > 0) {
      const signedByWallet = credentialSigners(signedBytes, VM_OF[chain], keys);
      if (unlisted.some((s) => signedByWallet(s.credential))) return 'spent';
    }
  }
  return ours ? 'unspent' : 'none-of-ours';
}

/**
 * The UTXOs of its own chain an X or P tx spends (ownInputIds), each with the index of the
 * credential that signs for it, in the node's order: one per input, then (for an import) one per
 * imported input, then one per X-Chain operation.
 */
function spentWithCredential(tx: UnsignedTx): { id: string; credential: number }[] {
  if (tx.vm === 'evm' || !('inputs' in tx)) return [];
  const spent = tx.inputs.map((i, credential) => ({ id: utxoId(i), credential }));
  if (tx.kind === 'OperationTx') {
    tx.operations.forEach((op, i) => {
      for (const ref of op.utxoIDs) spent.push({ id: utxoId(ref), credential: tx.inputs.length + i });
    });
  }
  return spent;
}

/** Whether a signature of credential `index` of the signed tx recovers to one of `keys` (each credential recovered once). */
function credentialSigners(signedBytes: Bytes, vm: Vm, keys: OwnedAddresses): (index: number) => boolean {
  const { credentials, unsignedLength } = decodeSignedTx(signedBytes, vm);
  const digest = sha256(signedBytes.subarray(0, unsignedLength));
  const known = new Map<number, boolean>();
  return (index) => {
    let signed = known.get(index);
    if (signed === undefined) {
      signed = (credentials[index]?.signatures ?? []).some((signature) => {
        try {
          return keys.has(byteKey(recoverSigner(digest, signature).shortId));
        } catch {
          return false;
        }
      });
      known.set(index, signed);
    }
    return signed;
  };
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

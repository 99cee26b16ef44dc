// What a node says the wallet holds is checked against the transactions that made it. A UTXO is
// immutable and so is the tx that created it (its ID is the hash of its bytes, which the client
// checks), so a UTXO whose exact bytes are an output of that tx is proven for good: the proof is
// kept as a fingerprint and never asked for again. An asset's name, symbol and decimals are read
// from its CreateAssetTx the same way, never from the node's word. See docs/proofs.md.
import { sha256 } from '@noble/hashes/sha2.js';
import { type Bytes, equalBytes, toHex } from './bytes.js';
import { decodeChainTx, encodeUtxo } from './codec/codec.js';
import { utxoId } from './codec/ids.js';
import { isPBlockTx } from './codec/pvm.js';
import { exportedUtxos, producedUtxos } from './codec/rules.js';
import type { ChainTx, Utxo } from './codec/types.js';
import { MAX_DENOMINATION } from './amount.js';
import { cb58Encode } from './encoding.js';
import { CodecError, NodeResponseError, NodeUnreachableError, RpcError, TimeoutError, ValidationError, WalletError } from './errors.js';
import { type CallOptions, type ChainAlias, type DroppedUtxo, getTx, type NodeClient } from './node.js';
import { VM_OF } from './node/types.js';
import { chainIdOf } from './tx/context.js';
import { validateAssetDescription } from './tx/x.js';

/** Fingerprints of UTXOs already proven. Proofs never expire: what they prove cannot change. */
export interface ProofCache {
  has(fingerprint: string): boolean;
  add(fingerprint: string): void;
}

export function memoryProofCache(): ProofCache & { readonly size: number } {
  const set = new Set<string>();
  return {
    has: (f) => set.has(f),
    add: (f) => void set.add(f),
    get size() {
      return set.size;
    },
  };
}

/** A UTXO as the node sent it: decoded, the exact bytes it was decoded from, and their sha256 if known. */
export interface ReadUtxo {
  utxo: Utxo;
  bytes: Bytes;
  digest?: Bytes;
}

export interface CheckedUtxos {
  /** Every UTXO not disproven, proven or not, in the order read. */
  utxos: Utxo[];
  /** The ones no tx could prove: shown, counted apart, never called verified. */
  unproven: Utxo[];
  /** The ones their own tx contradicts: left out, and to be told. */
  disproven: DroppedUtxo[];
  /** Creating txs read from the node for this check (0 when everything was proven before). */
  txsRead: number;
}

/** The network the UTXOs are on: a creating tx must be for it, and for the chain it is read from. */
export interface ProofNetwork {
  networkID: number;
  xChainID: Bytes;
  pChainID: Bytes;
  cChainID: Bytes;
}

export interface ProveOptions {
  network: ProofNetwork;
  /** Atomic UTXOs: the chain that exported them (their creating tx lives there). */
  sourceChain?: ChainAlias;
  cache: ProofCache;
  /** Creating txs read at once (default 8). */
  concurrency?: number;
  /**
   * No creating tx is read after this long (default 30 s): the UTXOs left are unproven this time and
   * the next check goes on from there (what was proven is cached), so a slow node cannot hold a
   * refresh for hours.
   */
  budgetMs?: number;
}

/**
 * Same bytes on the same chain (or the same atomic memory) ⇒ same fingerprint: the chain letters,
 * then 128 bits of the bytes' sha256 (`digest`, when the caller has it already).
 */
export function utxoFingerprint(chain: ChainAlias, sourceChain: ChainAlias | undefined, bytes: Bytes, digest: Bytes = sha256(bytes)): string {
  return `${chain}${sourceChain ?? ''}${toHex(digest.subarray(0, 16))}`;
}

const ZERO_ID = new Uint8Array(32);

/**
 * What a tx created. `stateOutputs`: the chain's state may add outputs under the tx's ID that the
 * tx does not spell out (P-Chain staking rewards, L1 validator balance refunds).
 */
export type Creation = { found: false } | { found: true; produced: Utxo[]; stateOutputs: boolean } | { found: 'elsewhere' };

/**
 * Splits what the node sent into proven, unproven and disproven UTXOs. Unproven: the creating tx is
 * unknown to the node (or not the tx its ID names), the UTXO dates from the P-Chain's genesis (no
 * tx), or the P-Chain's state made it under a tx's ID (a staking reward, an L1 validator's balance
 * refund: amounts the chain computes). Disproven: the creating tx has a different output at that
 * index, or (off the P-Chain) none. Errors reaching the node propagate.
 */
export async function proveUtxos(node: NodeClient, chain: ChainAlias, read: readonly ReadUtxo[], opts: ProveOptions): Promise<CheckedUtxos> {
  const { cache, sourceChain } = opts;
  const pending = new Map<string, { txID: Bytes; entries: { r: ReadUtxo; fingerprint: string }[] }>();
  // Absent: proven before. 'proven', 'unproven', or why the UTXO is disproven.
  const verdict = new Map<ReadUtxo, string>();
  for (const r of read) {
    const fingerprint = utxoFingerprint(chain, sourceChain, r.bytes, r.digest);
    if (cache.has(fingerprint)) continue;
    if (chain === 'P' && sourceChain === undefined && equalBytes(r.utxo.txID, ZERO_ID)) {
      verdict.set(r, 'unproven');
      continue;
    }
    const key = toHex(r.utxo.txID);
    const group = pending.get(key) ?? { txID: r.utxo.txID, entries: [] };
    group.entries.push({ r, fingerprint });
    pending.set(key, group);
  }

  const groups = [...pending.values()];
  const deadline = Date.now() + (opts.budgetMs ?? 30_000);
  let next = 0;
  let read_ = 0;
  const worker = async (): Promise<void> => {
    while (next < groups.length && Date.now() < deadline) {
      const group = groups[next++]!;
      read_++;
      const creation = await creationOf(node, opts.network, chain, sourceChain, group.txID);
      for (const { r, fingerprint } of group.entries) verdict.set(r, judge(creation, chain, r, () => cache.add(fingerprint)));
    }
  };
  await Promise.all(Array.from({ length: Math.min(opts.concurrency ?? 8, groups.length) }, worker));
  // Past the budget: not read this time.
  for (const group of groups.slice(next)) for (const { r } of group.entries) verdict.set(r, 'unproven');

  const result: CheckedUtxos = { utxos: [], unproven: [], disproven: [], txsRead: read_ };
  for (const r of read) {
    const v = verdict.get(r);
    if (v === undefined || v === 'proven' || v === 'unproven') {
      result.utxos.push(r.utxo);
      if (v === 'unproven') result.unproven.push(r.utxo);
    } else {
      result.disproven.push({ id: utxoId(r.utxo), reason: `disproven: ${v}` });
    }
  }
  return result;
}

/** 'proven' (and `prove` called), 'unproven', or why the UTXO is disproven. */
function judge(creation: Creation, chain: ChainAlias, r: ReadUtxo, prove: () => void): string {
  if (creation.found === false) return 'unproven';
  if (creation.found === 'elsewhere') return 'its transaction is for another network or chain';
  const expected = creation.produced.find((u) => u.outputIndex === r.utxo.outputIndex);
  if (!expected) return creation.stateOutputs ? 'unproven' : 'its transaction created no such output';
  let encoded: Bytes;
  try {
    encoded = encodeUtxo(expected, VM_OF[chain]);
  } catch (e) {
    if (e instanceof WalletError) return 'its transaction created an output this chain cannot hold';
    throw e;
  }
  if (!equalBytes(encoded, r.bytes)) return 'its transaction created a different output at this index';
  prove();
  return 'proven';
}

/**
 * What the tx `txID` created: on the chain holding the UTXO, its outputs; for atomic UTXOs (held on
 * `chain`, exported from `sourceChain`), what its export sent to `chain`. Not found when the node
 * has no such tx, sends bytes that are not it, or cannot answer now; 'elsewhere' when the tx is for
 * another network or chain, or exports to another chain.
 */
export async function creationOf(node: NodeClient, network: ProofNetwork, chain: ChainAlias, sourceChain: ChainAlias | undefined, txID: Bytes): Promise<Creation> {
  const creator = sourceChain ?? chain;
  const tx = await fetchTx(node, creator, txID);
  if (!tx) return { found: false };
  // Block-builder txs (rewards) carry no network or chain; only the P-Chain's state says what they made.
  if (tx.vm === 'pvm' && isPBlockTx(tx)) return sourceChain === undefined ? { found: true, produced: [], stateOutputs: true } : { found: 'elsewhere' };
  // The X-Chain's genesis txs (the AVAX asset's among them) carry an empty chain ID.
  const onChain = equalBytes(tx.blockchainID, chainIdOf(network, creator)) || (creator === 'X' && equalBytes(tx.blockchainID, ZERO_ID));
  if (tx.networkID !== network.networkID || !onChain) return { found: 'elsewhere' };
  if (sourceChain !== undefined) {
    if (tx.kind !== 'ExportTx' || !equalBytes(tx.destinationChain, chainIdOf(network, chain))) return { found: 'elsewhere' };
    return { found: true, produced: exportedUtxos(tx, txID), stateOutputs: false };
  }
  return { found: true, produced: producedUtxos(tx, txID), stateOutputs: chain === 'P' };
}

/**
 * The tx (hash-checked by the client), or undefined when the node does not have it, lies about it
 * or cannot answer now (the UTXO stays unproven; the next check asks again).
 */
async function fetchTx(node: NodeClient, chain: ChainAlias, txID: Bytes): Promise<ChainTx | undefined> {
  const id = cb58Encode(txID);
  let bytes: Bytes;
  try {
    if (chain === 'C') {
      bytes = (await node.atomic.getAtomicTx(id)).tx;
    } else {
      bytes = await getTx(node, chain, id);
    }
  } catch (e) {
    if (e instanceof RpcError || e instanceof NodeResponseError || e instanceof TimeoutError || e instanceof NodeUnreachableError) return undefined;
    throw e;
  }
  try {
    return decodeChainTx(bytes, VM_OF[chain]).unsigned;
  } catch (e) {
    if (e instanceof CodecError) return undefined;
    throw e;
  }
}

export interface ProvenAsset {
  name: string;
  symbol: string;
  denomination: number;
}

/**
 * An X-Chain asset's name, symbol and decimals from the CreateAssetTx its ID names (a node's
 * getAssetDescription is not asked: it could say anything). ValidationError when the ID names no
 * valid asset the node can show (decimals past 32 included); errors reaching the node propagate.
 */
export async function provenAsset(node: NodeClient, assetID: string, opts?: CallOptions): Promise<ProvenAsset> {
  let bytes: Bytes;
  try {
    bytes = await node.avm.getTx(assetID, opts);
  } catch (e) {
    if (e instanceof RpcError || e instanceof NodeResponseError) throw new ValidationError(`the node cannot show the transaction that created asset ${assetID}`, 'assetID');
    throw e;
  }
  let tx: ChainTx;
  try {
    tx = decodeChainTx(bytes, 'avm').unsigned;
  } catch (e) {
    if (e instanceof CodecError) throw new ValidationError(`the transaction behind asset ${assetID} cannot be decoded`, 'assetID');
    throw e;
  }
  if (tx.kind !== 'CreateAssetTx') throw new ValidationError(`${assetID} is not an asset`, 'assetID');
  // The codec reads any u8; avalanchego refuses more than 32 decimals, so such a tx was never accepted.
  if (tx.denomination > MAX_DENOMINATION) throw new ValidationError(`the transaction behind asset ${assetID} gives ${tx.denomination} decimal places, more than the ${MAX_DENOMINATION} an asset can have`, 'assetID');
  // The network never accepted a name or symbol past its rules: such a tx is one a node made up.
  try {
    validateAssetDescription(tx.name, tx.symbol, tx.denomination);
  } catch {
    throw new ValidationError(`the transaction behind asset ${assetID} gives a name or symbol the network does not accept`, 'assetID');
  }
  return { name: tx.name, symbol: tx.symbol, denomination: tx.denomination };
}

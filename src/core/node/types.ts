// The node client's result types and limits: what each API call answers, once checked.
import { type Bytes } from '../bytes.js';
import type { Utxo, Vm } from '../codec/types.js';
import { type FetchLike } from '../rpc.js';

export type ChainAlias = 'X' | 'P' | 'C';

/** Each chain's codec. */
export const VM_OF: Record<ChainAlias, Vm> = { X: 'avm', P: 'pvm', C: 'evm' };
/** The chain a VM's txs are for. */
export const CHAIN_OF_VM: Record<Vm, ChainAlias> = { avm: 'X', pvm: 'P', evm: 'C' };

/** Where the C-Chain atomic API lives: `avax` at /ext/bc/C/avax on real nodes. */
export interface AtomicApiConfig {
  namespace: string;
  path: string;
}

export interface NodeClientConfig {
  /** Base URL of the node, e.g. http://127.0.0.1:9650 (no trailing /ext). */
  url: string;
  atomicApi: AtomicApiConfig;
  /** Default per-call timeout (15 s). */
  timeoutMs?: number;
  fetch?: FetchLike;
}

/** The node's `getUTXOs` page limit and its per-call address limit. */
export const MAX_UTXO_PAGE = 1024;
export const MAX_UTXO_ADDRESSES = 1024;
/**
 * The most `getUTXOs` pages one read takes: 262,144 UTXOs at the full page size, five times the
 * 50,000 the wallet is measured with (bench/results.md §3). Past it the node is paging on for ever.
 */
export const MAX_UTXO_PAGES = 256;
/**
 * The most bytes one read keeps of UTXOs beyond UTXO_PLAIN_BYTES each. Valid UTXOs a node makes up
 * with a few hundred owner addresses each fill full pages of 4 MB: kept for every page it is
 * willing to send, they would exhaust the background's memory (several reads run at once) long
 * before MAX_UTXO_PAGES. Ordinary UTXOs (118 bytes; a few owners, a lock) count nothing here: the
 * page limit alone bounds them.
 */
export const MAX_UTXO_READ_BYTES = 16 * 1024 * 1024;
/** A UTXO's size that counts nothing towards MAX_UTXO_READ_BYTES: an ordinary one with room for a few more owners. */
export const UTXO_PLAIN_BYTES = 200;



export interface NodeVersion {
  version: string;
  databaseVersion: string;
  rpcProtocolVersion: string;
  gitCommit: string;
  vmVersions: Record<string, string>;
}

export type XTxStatus = 'Accepted' | 'Processing' | 'Rejected' | 'Unknown';
export type PTxStatus = 'Committed' | 'Aborted' | 'Processing' | 'Dropped' | 'Unknown';

export interface XTxFees {
  txFee: bigint;
  createAssetTxFee: bigint;
}

export interface AssetDescription {
  assetID: string;
  name: string;
  symbol: string;
  denomination: number;
}

export interface PFeeConfig {
  /** [Bandwidth, DBRead, DBWrite, Compute]. */
  weights: readonly [bigint, bigint, bigint, bigint];
  maxCapacity: bigint;
  maxPerSecond: bigint;
  targetPerSecond: bigint;
  minPrice: bigint;
  excessConversionConstant: bigint;
}

export interface PFeeState {
  capacity: bigint;
  excess: bigint;
  /** nAVAX per unit of gas. */
  price: bigint;
  /** RFC 3339. */
  timestamp: string;
}

export interface UtxoIndex {
  address: string;
  utxo: string;
}

export interface UtxoPage {
  numFetched: number;
  /** `hex` strings with their 4-byte checksum, as the node sent them. */
  utxos: string[];
  endIndex: UtxoIndex;
}

export interface UtxoPageParams {
  addresses: string[];
  limit?: number;
  startIndex?: UtxoIndex;
  sourceChain?: string;
}

export interface DroppedUtxo {
  id?: string;
  reason: string;
}

export interface AllUtxosResult {
  utxos: Utxo[];
  /** The exact bytes each of `utxos` was decoded from, in the same order (for proving them). */
  encoded: Bytes[];
  /** The sha256 of each of `encoded` (made for its checksum), in the same order. */
  digests: Bytes[];
  dropped: DroppedUtxo[];
  /** Round trips made. */
  requests: number;
}

export interface GetAllUtxosOptions {
  sourceChain?: string;
  /** Page size, 1…1024 (default 1024). */
  limit?: number;
  signal?: AbortSignal;
  timeoutMs?: number;
}

export interface AtomicTx {
  tx: Bytes;
  blockHeight?: bigint;
}

export interface EthReceipt {
  transactionHash: string;
  blockHash: string;
  blockNumber: bigint;
  /** 1n success, 0n reverted. */
  status: bigint;
  gasUsed: bigint;
  effectiveGasPrice?: bigint;
  from: string;
  to: string | null;
  contractAddress: string | null;
  raw: Record<string, unknown>;
}

export interface EthBlock {
  number: bigint;
  hash: string;
  parentHash: string;
  timestamp: bigint;
  baseFeePerGas?: bigint;
  gasLimit: bigint;
  gasUsed: bigint;
  transactions: unknown[];
  raw: Record<string, unknown>;
}

export type BlockTag = 'latest' | 'pending' | 'earliest' | 'safe' | 'finalized' | bigint;

export interface HealthReport {
  healthy: boolean;
  /** HTTP status: 200 healthy, 503 unhealthy. */
  status: number;
  checks: Record<string, unknown>;
}

export interface IndexContainer {
  id: string;
  bytes: Bytes;
  timestamp: string;
  index: bigint;
}

export type IndexName = `${ChainAlias}/${'tx' | 'block'}`;

export interface WaitOptions {
  /** Overall deadline (default 60 s). */
  timeoutMs?: number;
  /** Poll interval (default 250 ms). */
  pollMs?: number;
  signal?: AbortSignal;
}

/** Final state of a transaction. `accepted: false` means it can never be accepted. */
export interface TxOutcome {
  chain: ChainAlias;
  txID: string;
  accepted: boolean;
  /** The node's own status word (for EVM: "Success" or "Reverted"). */
  status: string;
  reason?: string;
  blockHeight?: bigint;
  receipt?: EthReceipt;
}

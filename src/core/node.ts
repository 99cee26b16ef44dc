// Typed client for the node's APIs: info, X (avm), P (platform), C atomic, C EVM, health, index.
// Every answer is shape-checked; everything that can be checked against bytes the wallet holds
// (tx IDs, UTXO checksums and owners) is checked, so a lying node is caught here.
import { sha256 } from '@noble/hashes/sha2.js';
import { type Bytes, compareBytes, equalBytes, toHex } from './bytes.js';
import { cb58Encode, formatAddress, fromApiHex, fromApiHexWithDigest, parseAddress, parseId, toApiHex, toHexnc } from './encoding.js';
import { FormatError, NodeResponseError, NodeUnreachableError, RpcError, TimeoutError, ValidationError } from './errors.js';
import { decodeUtxo, ownersOf, utxoId } from './codec/index.js';
import type { OutputOwners, Utxo, Vm } from './codec/types.js';
import {
  type CallOptions,
  type FetchLike,
  type Guard,
  JsonRpcEndpoint,
  getJson,
  g,
  shapeError,
  sleep,
} from './rpc.js';

export type { CallOptions } from './rpc.js';

export type ChainAlias = 'X' | 'P' | 'C';

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

const VM_OF: Record<ChainAlias, Vm> = { X: 'avm', P: 'pvm', C: 'evm' };

// ---- result types ----

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

// ---- guards ----

const cb58Id: Guard<string> = (value, path) => {
  const s = g.string(value, path);
  try {
    parseId(s);
  } catch {
    throw shapeError(path, 'a CB58 32-byte ID', value);
  }
  return s;
};

const apiHex: Guard<Bytes> = (value, path) => {
  const s = g.string(value, path);
  try {
    return fromApiHex(s);
  } catch (e) {
    throw new NodeResponseError(`${path}: ${(e as Error).message}`);
  }
};

const rfc3339: Guard<string> = (value, path) => {
  const s = g.string(value, path);
  if (Number.isNaN(Date.parse(s))) throw shapeError(path, 'an RFC 3339 time', value);
  return s;
};

const stringMap: Guard<Record<string, string>> = (value, path) => {
  const rec = g.record(value, path);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(rec)) out[k] = g.string(v, `${path}.${k}`);
  return out;
};

const utxoIndexGuard = g.object({ address: g.string, utxo: g.string });

const utxoPageGuard: Guard<UtxoPage> = (value, path) => {
  const page = g.object({
    numFetched: g.uintNumber,
    utxos: g.array(g.string),
    endIndex: utxoIndexGuard,
  })(value, path);
  if (page.numFetched !== page.utxos.length) {
    throw new NodeResponseError(`${path}: numFetched is ${page.numFetched} but ${page.utxos.length} UTXOs were sent`);
  }
  return page;
};

const ethAddress = g.data(20);
const ethHash = g.data(32);

const receiptGuard: Guard<EthReceipt> = (value, path) => {
  const raw = g.record(value, path);
  const r = g.object({
    transactionHash: ethHash,
    blockHash: ethHash,
    blockNumber: g.quantity,
    status: g.quantity,
    gasUsed: g.quantity,
    effectiveGasPrice: g.optional(g.quantity),
    from: ethAddress,
    to: g.nullable(ethAddress),
    contractAddress: g.optional(ethAddress),
  })(raw, path);
  if (r.status !== 0n && r.status !== 1n) throw shapeError(`${path}.status`, '0x0 or 0x1', raw['status']);
  const out: EthReceipt = {
    transactionHash: r.transactionHash,
    blockHash: r.blockHash,
    blockNumber: r.blockNumber,
    status: r.status,
    gasUsed: r.gasUsed,
    from: r.from,
    to: r.to,
    contractAddress: r.contractAddress ?? null,
    raw,
  };
  if (r.effectiveGasPrice !== undefined) out.effectiveGasPrice = r.effectiveGasPrice;
  return out;
};

const blockGuard: Guard<EthBlock> = (value, path) => {
  const raw = g.record(value, path);
  const b = g.object({
    number: g.quantity,
    hash: ethHash,
    parentHash: ethHash,
    timestamp: g.quantity,
    baseFeePerGas: g.optional(g.quantity),
    gasLimit: g.quantity,
    gasUsed: g.quantity,
    transactions: g.array(g.unknown),
  })(raw, path);
  const out: EthBlock = {
    number: b.number,
    hash: b.hash,
    parentHash: b.parentHash,
    timestamp: b.timestamp,
    gasLimit: b.gasLimit,
    gasUsed: b.gasUsed,
    transactions: b.transactions,
    raw,
  };
  if (b.baseFeePerGas !== undefined) out.baseFeePerGas = b.baseFeePerGas;
  return out;
};

const containerGuard: Guard<IndexContainer> = (value, path) => {
  const c = g.object({ id: cb58Id, bytes: apiHex, timestamp: rfc3339, index: g.uint })(value, path);
  return c;
};

// ---- helpers ----

function checkTxId(method: string, bytes: Bytes, returned: string): string {
  const expected = cb58Encode(sha256(bytes));
  if (returned !== expected) {
    throw new NodeResponseError(`${method}: node reported tx ID ${returned}, but the submitted bytes hash to ${expected}`);
  }
  return returned;
}

/** Owners as the P-Chain API gives them (P- addresses), checked to be a valid owner set. */
function ownersFromApi(method: string, addresses: string[], threshold: bigint, locktime: bigint): OutputOwners {
  let shortIds: Bytes[];
  try {
    shortIds = addresses.map((a) => parseAddress(a).bytes).sort(compareBytes);
  } catch {
    throw shapeError(`${method} owner addresses`, 'P-Chain addresses', addresses);
  }
  if (threshold > BigInt(shortIds.length) || (threshold === 0n && shortIds.length > 0)) throw shapeError(`${method} owner threshold`, `1 to ${shortIds.length}`, threshold);
  if (shortIds.some((a, i) => i > 0 && compareBytes(shortIds[i - 1]!, a) === 0)) throw shapeError(`${method} owner addresses`, 'distinct addresses', addresses);
  return { locktime, threshold: Number(threshold), addresses: shortIds };
}

function checkFetchedTx(method: string, txID: string, bytes: Bytes): Bytes {
  if (cb58Encode(sha256(bytes)) !== txID) {
    throw new NodeResponseError(`${method}: the bytes the node returned do not hash to ${txID}`);
  }
  return bytes;
}

function blockTag(tag: BlockTag): string {
  return typeof tag === 'bigint' ? '0x' + tag.toString(16) : tag;
}

function joinUrl(base: string, path: string): string {
  return base.replace(/\/+$/, '') + (path.startsWith('/') ? path : '/' + path);
}

/** The transient failures a poller rides out. */
function isTransient(e: unknown): boolean {
  return e instanceof NodeUnreachableError || e instanceof TimeoutError;
}

// ---- API groups ----

export class InfoApi {
  constructor(private readonly rpc: JsonRpcEndpoint) {}

  async getNetworkID(opts?: CallOptions): Promise<number> {
    const r = await this.rpc.call('info.getNetworkID', {}, g.object({ networkID: g.uintNumber }), opts);
    if (r.networkID > 0xffff_ffff) throw shapeError('info.getNetworkID result.networkID', 'a u32', r.networkID);
    return r.networkID;
  }

  async getBlockchainID(alias: string, opts?: CallOptions): Promise<string> {
    const r = await this.rpc.call('info.getBlockchainID', { alias }, g.object({ blockchainID: cb58Id }), opts);
    return r.blockchainID;
  }

  async getNodeVersion(opts?: CallOptions): Promise<NodeVersion> {
    const r = await this.rpc.call(
      'info.getNodeVersion',
      {},
      g.object({
        version: g.string,
        databaseVersion: g.optional(g.string),
        rpcProtocolVersion: g.optional(g.string),
        gitCommit: g.optional(g.string),
        vmVersions: g.optional(stringMap),
      }),
      opts,
    );
    return {
      version: r.version,
      databaseVersion: r.databaseVersion ?? '',
      rpcProtocolVersion: r.rpcProtocolVersion ?? '',
      gitCommit: r.gitCommit ?? '',
      vmVersions: r.vmVersions ?? {},
    };
  }

  async isBootstrapped(chain: string, opts?: CallOptions): Promise<boolean> {
    const r = await this.rpc.call('info.isBootstrapped', { chain }, g.object({ isBootstrapped: g.boolean }), opts);
    return r.isBootstrapped;
  }
}

/** Methods shared by the three UTXO chains. */
abstract class UtxoChainApi {
  constructor(
    protected readonly rpc: JsonRpcEndpoint,
    protected readonly ns: string,
  ) {}

  async issueTx(signedTx: Bytes, opts?: CallOptions): Promise<string> {
    const method = `${this.ns}.issueTx`;
    const r = await this.rpc.call(method, { tx: toApiHex(signedTx), encoding: 'hex' }, g.object({ txID: cb58Id }), opts);
    return checkTxId(method, signedTx, r.txID);
  }

  async getUTXOs(params: UtxoPageParams, opts?: CallOptions): Promise<UtxoPage> {
    const body: Record<string, unknown> = {
      addresses: params.addresses,
      limit: params.limit ?? MAX_UTXO_PAGE,
      encoding: 'hex',
    };
    if (params.startIndex) body['startIndex'] = params.startIndex;
    if (params.sourceChain !== undefined) body['sourceChain'] = params.sourceChain;
    return this.rpc.call(`${this.ns}.getUTXOs`, body, utxoPageGuard, opts);
  }
}

export class AvmApi extends UtxoChainApi {
  constructor(rpc: JsonRpcEndpoint) {
    super(rpc, 'avm');
  }

  /** Signed tx bytes (checksum verified, and checked to hash to `txID`). */
  async getTx(txID: string, opts?: CallOptions): Promise<Bytes> {
    const r = await this.rpc.call('avm.getTx', { txID, encoding: 'hex' }, g.object({ tx: apiHex }), opts);
    return checkFetchedTx('avm.getTx', txID, r.tx);
  }

  /** Since v1.14 this only answers Accepted or Unknown. */
  async getTxStatus(txID: string, opts?: CallOptions): Promise<XTxStatus> {
    const r = await this.rpc.call(
      'avm.getTxStatus',
      { txID },
      g.object({ status: g.oneOf<XTxStatus>('Accepted', 'Processing', 'Rejected', 'Unknown') }),
      opts,
    );
    return r.status;
  }

  async getTxFee(opts?: CallOptions): Promise<XTxFees> {
    return this.rpc.call('avm.getTxFee', {}, g.object({ txFee: g.uint, createAssetTxFee: g.uint }), opts);
  }

  async getAssetDescription(assetID: string, opts?: CallOptions): Promise<AssetDescription> {
    const r = await this.rpc.call(
      'avm.getAssetDescription',
      { assetID },
      g.object({ assetID: cb58Id, name: g.string, symbol: g.string, denomination: g.uintNumber }),
      opts,
    );
    if (r.denomination > 32) throw shapeError('avm.getAssetDescription result.denomination', 'at most 32', r.denomination);
    return r;
  }

  async getHeight(opts?: CallOptions): Promise<bigint> {
    return (await this.rpc.call('avm.getHeight', {}, g.object({ height: g.uint }), opts)).height;
  }
}

export class PlatformApi extends UtxoChainApi {
  constructor(rpc: JsonRpcEndpoint) {
    super(rpc, 'platform');
  }

  async getTx(txID: string, opts?: CallOptions): Promise<Bytes> {
    const r = await this.rpc.call('platform.getTx', { txID, encoding: 'hex' }, g.object({ tx: apiHex }), opts);
    return checkFetchedTx('platform.getTx', txID, r.tx);
  }

  /** A subnet's current owner (after any ownership transfer), from the chain's state. */
  async getSubnetOwner(subnetID: string, opts?: CallOptions): Promise<OutputOwners> {
    const r = await this.rpc.call('platform.getSubnet', { subnetID }, g.object({ controlKeys: g.array(g.string), threshold: g.uint, locktime: g.uint }), opts);
    return ownersFromApi('platform.getSubnet', r.controlKeys, r.threshold, r.locktime);
  }

  /** An L1 validator's deactivation owner, from the chain's state (no tx names it by validation ID). */
  async getL1ValidatorDeactivationOwner(validationID: string, opts?: CallOptions): Promise<OutputOwners> {
    const owner = g.object({ addresses: g.array(g.string), threshold: g.uint, locktime: g.uint });
    const r = await this.rpc.call('platform.getL1Validator', { validationID }, g.object({ deactivationOwner: owner }), opts);
    return ownersFromApi('platform.getL1Validator', r.deactivationOwner.addresses, r.deactivationOwner.threshold, r.deactivationOwner.locktime);
  }

  async getTxStatus(txID: string, opts?: CallOptions): Promise<{ status: PTxStatus; reason?: string }> {
    const r = await this.rpc.call(
      'platform.getTxStatus',
      { txID },
      g.object({
        status: g.oneOf<PTxStatus>('Committed', 'Aborted', 'Processing', 'Dropped', 'Unknown'),
        reason: g.optional(g.string),
      }),
      opts,
    );
    return r.reason === undefined || r.reason === '' ? { status: r.status } : { status: r.status, reason: r.reason };
  }

  async getFeeConfig(opts?: CallOptions): Promise<PFeeConfig> {
    const r = await this.rpc.call(
      'platform.getFeeConfig',
      {},
      g.object({
        weights: g.array(g.uint),
        maxCapacity: g.uint,
        maxPerSecond: g.uint,
        targetPerSecond: g.uint,
        minPrice: g.uint,
        excessConversionConstant: g.uint,
      }),
      opts,
    );
    const [w0, w1, w2, w3, ...rest] = r.weights;
    if (w0 === undefined || w1 === undefined || w2 === undefined || w3 === undefined || rest.length > 0) {
      throw shapeError('platform.getFeeConfig result.weights', 'exactly 4 weights', r.weights.map(String));
    }
    return { ...r, weights: [w0, w1, w2, w3] as const };
  }

  async getFeeState(opts?: CallOptions): Promise<PFeeState> {
    const r = await this.rpc.call(
      'platform.getFeeState',
      {},
      g.object({ capacity: g.uint, excess: g.uint, price: g.uint, timestamp: rfc3339 }),
      opts,
    );
    if (r.price === 0n) throw shapeError('platform.getFeeState result.price', 'a price of at least 1', '0');
    return r;
  }

  async getStakingAssetID(opts?: CallOptions): Promise<string> {
    return (await this.rpc.call('platform.getStakingAssetID', {}, g.object({ assetID: cb58Id }), opts)).assetID;
  }

  async getHeight(opts?: CallOptions): Promise<bigint> {
    return (await this.rpc.call('platform.getHeight', {}, g.object({ height: g.uint }), opts)).height;
  }

  /** Current P-Chain time, RFC 3339. */
  async getTimestamp(opts?: CallOptions): Promise<string> {
    return (await this.rpc.call('platform.getTimestamp', {}, g.object({ timestamp: rfc3339 }), opts)).timestamp;
  }
}

/** The C-Chain atomic API (`avax` on real nodes). */
export class AtomicApi extends UtxoChainApi {
  constructor(rpc: JsonRpcEndpoint, namespace: string) {
    super(rpc, namespace);
  }

  get namespace(): string {
    return this.ns;
  }

  async getAtomicTx(txID: string, opts?: CallOptions): Promise<AtomicTx> {
    const method = `${this.ns}.getAtomicTx`;
    const r = await this.rpc.call(method, { txID, encoding: 'hex' }, g.object({ tx: apiHex, blockHeight: g.optional(g.uint) }), opts);
    checkFetchedTx(method, txID, r.tx);
    return r.blockHeight === undefined ? { tx: r.tx } : { tx: r.tx, blockHeight: r.blockHeight };
  }

  /**
   * The atomic tx, hash-checked, once the C-Chain has executed it (its height known); undefined
   * while it has not. Under Helicon (async execution) the node finds an atomic tx only after the
   * block holding it executed, and `getAtomicTxStatus` (deprecated) can only say Accepted or
   * Unknown: "not found" means "not executed yet", never "failed" (docs/helicon.md).
   */
  async findExecutedAtomicTx(txID: string, opts?: CallOptions): Promise<Required<AtomicTx> | undefined> {
    try {
      const r = await this.getAtomicTx(txID, opts);
      return r.blockHeight === undefined ? undefined : { tx: r.tx, blockHeight: r.blockHeight };
    } catch (e) {
      if (e instanceof RpcError && /\bnot found\b/i.test(e.rpcMessage)) return undefined;
      throw e;
    }
  }
}

export class EthApi {
  constructor(private readonly rpc: JsonRpcEndpoint) {}

  /** Any eth_* / net_* / web3_* method with positional params; the result is unchecked. */
  ethCall(method: string, params: unknown[] = [], opts?: CallOptions): Promise<unknown> {
    return this.rpc.callRaw(method, params, opts);
  }

  async chainId(opts?: CallOptions): Promise<bigint> {
    return this.rpc.call('eth_chainId', [], g.quantity, opts);
  }

  async getBalance(address: string, tag: BlockTag = 'latest', opts?: CallOptions): Promise<bigint> {
    return this.rpc.call('eth_getBalance', [address, blockTag(tag)], g.quantity, opts);
  }

  async getTransactionCount(address: string, tag: BlockTag = 'latest', opts?: CallOptions): Promise<bigint> {
    return this.rpc.call('eth_getTransactionCount', [address, blockTag(tag)], g.quantity, opts);
  }

  async baseFee(opts?: CallOptions): Promise<bigint> {
    return this.rpc.call('eth_baseFee', [], g.quantity, opts);
  }

  async maxPriorityFeePerGas(opts?: CallOptions): Promise<bigint> {
    return this.rpc.call('eth_maxPriorityFeePerGas', [], g.quantity, opts);
  }

  /** Returns the tx hash; checked against keccak by the caller if it wants to (no keccak here). */
  async sendRawTransaction(rawTx: Bytes | string, opts?: CallOptions): Promise<string> {
    const hex = typeof rawTx === 'string' ? rawTx : toHexnc(rawTx);
    return this.rpc.call('eth_sendRawTransaction', [hex], ethHash, opts);
  }

  async getTransactionReceipt(hash: string, opts?: CallOptions): Promise<EthReceipt | null> {
    const receipt = await this.rpc.call('eth_getTransactionReceipt', [hash], g.nullable(receiptGuard), opts);
    if (receipt && receipt.transactionHash.toLowerCase() !== hash.toLowerCase()) {
      throw new NodeResponseError(`eth_getTransactionReceipt: asked for ${hash}, got the receipt of ${receipt.transactionHash}`);
    }
    return receipt;
  }

  async estimateGas(tx: Record<string, unknown>, tag?: BlockTag, opts?: CallOptions): Promise<bigint> {
    const params: unknown[] = tag === undefined ? [tx] : [tx, blockTag(tag)];
    return this.rpc.call('eth_estimateGas', params, g.quantity, opts);
  }

  async blockNumber(opts?: CallOptions): Promise<bigint> {
    return this.rpc.call('eth_blockNumber', [], g.quantity, opts);
  }

  async getBlockByNumber(tag: BlockTag = 'latest', fullTransactions = false, opts?: CallOptions): Promise<EthBlock | null> {
    const block = await this.rpc.call('eth_getBlockByNumber', [blockTag(tag), fullTransactions], g.nullable(blockGuard), opts);
    if (block && typeof tag === 'bigint' && block.number !== tag) {
      throw new NodeResponseError(`eth_getBlockByNumber: asked for block ${tag}, got block ${block.number}`);
    }
    return block;
  }
}

export class HealthApi {
  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs: number | undefined,
    private readonly fetchFn: FetchLike | undefined,
  ) {}

  private async get(path: string, opts?: CallOptions): Promise<HealthReport> {
    const url = joinUrl(this.baseUrl, path);
    const o: CallOptions & { fetch?: FetchLike } = { ...opts };
    if (o.timeoutMs === undefined && this.timeoutMs !== undefined) o.timeoutMs = this.timeoutMs;
    if (this.fetchFn) o.fetch = this.fetchFn;
    const { status, body } = await getJson(url, o);
    if (status !== 200 && status !== 503) throw new NodeUnreachableError(url, `HTTP ${status}`);
    const r = g.object({ healthy: g.boolean, checks: g.optional(g.record) })(body, `GET ${path}`);
    if (r.healthy !== (status === 200)) {
      throw new NodeResponseError(`GET ${path}: HTTP ${status} contradicts healthy=${r.healthy}`);
    }
    return { healthy: r.healthy, status, checks: r.checks ?? {} };
  }

  /** GET /ext/health: every check. */
  health(opts?: CallOptions): Promise<HealthReport> {
    return this.get('/ext/health', opts);
  }

  /** GET /ext/health/readiness: true once the node has finished starting (bootstrapped). */
  readiness(opts?: CallOptions): Promise<HealthReport> {
    return this.get('/ext/health/readiness', opts);
  }
}

export class IndexApi {
  constructor(private readonly rpc: JsonRpcEndpoint) {}

  /** Throws RpcError ("no containers have been accepted") while the index is empty. */
  async getLastAccepted(opts?: CallOptions): Promise<IndexContainer> {
    return this.rpc.call('index.getLastAccepted', { encoding: 'hex' }, containerGuard, opts);
  }

  async getContainerByIndex(index: bigint | number, opts?: CallOptions): Promise<IndexContainer> {
    const c = await this.rpc.call('index.getContainerByIndex', { index: Number(index), encoding: 'hex' }, containerGuard, opts);
    if (c.index !== BigInt(index)) throw new NodeResponseError(`index.getContainerByIndex: asked for ${index}, got ${c.index}`);
    return c;
  }
}

// ---- the client ----

export class NodeClient {
  readonly url: string;
  readonly atomicApi: AtomicApiConfig;
  readonly info: InfoApi;
  readonly avm: AvmApi;
  readonly platform: PlatformApi;
  readonly atomic: AtomicApi;
  readonly eth: EthApi;
  readonly health: HealthApi;
  private readonly endpoints: JsonRpcEndpoint[] = [];
  private readonly indexes = new Map<IndexName, IndexApi>();
  private readonly transport: { timeoutMs?: number; fetch?: FetchLike };

  constructor(config: NodeClientConfig) {
    let parsed: URL;
    try {
      parsed = new URL(config.url);
    } catch {
      throw new ValidationError(`not a URL: ${config.url}`, 'url');
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw new ValidationError('the node URL must be http:// or https://', 'url');
    }
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(config.atomicApi.namespace)) {
      throw new ValidationError(`bad atomic API namespace ${JSON.stringify(config.atomicApi.namespace)}`, 'atomicApi');
    }
    if (!config.atomicApi.path.startsWith('/')) {
      throw new ValidationError('the atomic API path must start with /', 'atomicApi');
    }
    this.url = config.url.replace(/\/+$/, '');
    this.atomicApi = { ...config.atomicApi };
    this.transport = {};
    if (config.timeoutMs !== undefined) this.transport.timeoutMs = config.timeoutMs;
    if (config.fetch !== undefined) this.transport.fetch = config.fetch;

    this.info = new InfoApi(this.endpoint('/ext/info'));
    this.avm = new AvmApi(this.endpoint('/ext/bc/X'));
    this.platform = new PlatformApi(this.endpoint('/ext/bc/P'));
    this.atomic = new AtomicApi(this.endpoint(this.atomicApi.path), this.atomicApi.namespace);
    this.eth = new EthApi(this.endpoint('/ext/bc/C/rpc'));
    this.health = new HealthApi(this.url, config.timeoutMs, config.fetch);
  }

  private endpoint(path: string): JsonRpcEndpoint {
    const e = new JsonRpcEndpoint(joinUrl(this.url, path), this.transport);
    this.endpoints.push(e);
    return e;
  }

  /** `/ext/index/{X|P|C}/{tx|block}` (needs a node started with --index-enabled). */
  index(name: IndexName): IndexApi {
    let api = this.indexes.get(name);
    if (!api) {
      api = new IndexApi(this.endpoint(`/ext/index/${name}`));
      this.indexes.set(name, api);
    }
    return api;
  }

  /** JSON-RPC round trips made by this client so far (health GETs excluded). */
  get requestCount(): number {
    return this.endpoints.reduce((n, e) => n + e.requests, 0);
  }

  private utxoApi(chain: ChainAlias): UtxoChainApi {
    return chain === 'X' ? this.avm : chain === 'P' ? this.platform : this.atomic;
  }

  /**
   * Every UTXO owned (at least partly) by `addresses` on `chain` — or, with `sourceChain`, the
   * atomic UTXOs exported to `chain` from there (always needed for C). Pages through the node's
   * answers, batches the addresses, de-duplicates, verifies each UTXO's checksum, decodes it and
   * drops (reporting in `dropped`) any UTXO that is malformed or owned by none of `addresses`.
   */
  async getAllUtxos(chain: ChainAlias, addresses: string[], opts: GetAllUtxosOptions = {}): Promise<AllUtxosResult> {
    const limit = opts.limit ?? MAX_UTXO_PAGE;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_UTXO_PAGE) {
      throw new ValidationError(`limit must be an integer from 1 to ${MAX_UTXO_PAGE}`, 'limit');
    }
    if (chain === 'C' && opts.sourceChain === undefined) {
      throw new ValidationError('the C-Chain only holds atomic UTXOs: give the sourceChain (X or P)', 'sourceChain');
    }
    const vm = VM_OF[chain];
    const api = this.utxoApi(chain);

    // Normalise: the node insists on this chain's prefix; the bech32 body is the same on X/P/C.
    const wanted = new Set<string>();
    const normalized: string[] = [];
    for (const a of addresses) {
      const parsed = parseAddress(a.trim());
      const key = toHex(parsed.bytes);
      if (wanted.has(key)) continue;
      wanted.add(key);
      normalized.push(formatAddress(chain, parsed.hrp, parsed.bytes));
    }

    const kept = new Map<string, { utxo: Utxo; bytes: Bytes; digest: Bytes }>();
    const conflicted = new Set<string>();
    const dropped: DroppedUtxo[] = [];
    let requests = 0;

    const accept = (hex: string): void => {
      let bytes: Bytes;
      let digest: Bytes;
      try {
        ({ bytes, digest } = fromApiHexWithDigest(hex));
      } catch (e) {
        dropped.push({ reason: `bad hex: ${(e as Error).message}` });
        return;
      }
      let utxo: Utxo;
      try {
        utxo = decodeUtxo(bytes, vm);
      } catch (e) {
        dropped.push({ reason: `undecodable UTXO: ${(e as Error).message}` });
        return;
      }
      // Hex key: utxoId's CB58 (sha256 + base58) only where a UTXO is reported as dropped.
      const id = `${toHex(utxo.txID)}:${utxo.outputIndex}`;
      if (!ownersOf(utxo.output).addresses.some((addr) => wanted.has(toHex(addr)))) {
        dropped.push({ id: utxoId(utxo), reason: 'owned by none of the requested addresses' });
        return;
      }
      if (conflicted.has(id)) return;
      const prior = kept.get(id);
      if (!prior) {
        kept.set(id, { utxo, bytes, digest });
      } else if (!equalBytes(prior.digest, digest)) {
        // Two different bodies under one ID: the node is lying about at least one. Trust neither.
        kept.delete(id);
        conflicted.add(id);
        dropped.push({ id: utxoId(utxo), reason: 'the node sent two different UTXOs with this ID' });
      }
    };

    for (let i = 0; i < normalized.length; i += MAX_UTXO_ADDRESSES) {
      const batch = normalized.slice(i, i + MAX_UTXO_ADDRESSES);
      const seenEnds = new Set<string>();
      let startIndex: UtxoIndex | undefined;
      for (;;) {
        const params: UtxoPageParams = { addresses: batch, limit };
        if (startIndex) params.startIndex = startIndex;
        if (opts.sourceChain !== undefined) params.sourceChain = opts.sourceChain;
        const callOpts: CallOptions = {};
        if (opts.signal) callOpts.signal = opts.signal;
        if (opts.timeoutMs !== undefined) callOpts.timeoutMs = opts.timeoutMs;
        requests++;
        const page = await api.getUTXOs(params, callOpts);
        if (page.utxos.length > limit) {
          throw new NodeResponseError(`getUTXOs returned ${page.utxos.length} UTXOs for a limit of ${limit}`);
        }
        for (const hex of page.utxos) accept(hex);
        if (page.utxos.length < limit) break;
        const endKey = `${page.endIndex.address}|${page.endIndex.utxo}`;
        if (seenEnds.has(endKey)) throw new NodeResponseError('getUTXOs pagination went round in a circle');
        seenEnds.add(endKey);
        startIndex = page.endIndex;
      }
    }

    const entries = [...kept.values()];
    return { utxos: entries.map((k) => k.utxo), encoded: entries.map((k) => k.bytes), digests: entries.map((k) => k.digest), dropped, requests };
  }

  /**
   * An X or P status of Accepted/Committed is believed only with the tx itself: the node must
   * return bytes that hash to the ID. A node cannot make those up for a tx it was never sent, so a
   * fake "accepted" for a tx this wallet has not sent yet is caught. False when the node has no
   * bytes for it; NodeResponseError when its bytes are not that tx's.
   */
  async provesAccepted(chain: 'X' | 'P', txID: string, opts?: CallOptions): Promise<boolean> {
    try {
      await (chain === 'X' ? this.avm.getTx(txID, opts) : this.platform.getTx(txID, opts));
      return true;
    } catch (e) {
      if (e instanceof RpcError) return false;
      throw e;
    }
  }

  /**
   * Polls until `txID` is final or the deadline passes (TimeoutError naming the last status).
   * X: avm.getTxStatus; P: platform.getTxStatus; C: an `0x…` hash is an EVM tx (receipt), a CB58
   * ID an atomic tx (getAtomicTx: found once executed).
   */
  async waitForTx(chain: ChainAlias, txID: string, opts: WaitOptions = {}): Promise<TxOutcome> {
    const timeoutMs = opts.timeoutMs ?? 60_000;
    const pollMs = opts.pollMs ?? 250;
    const deadline = Date.now() + timeoutMs;
    const isEvm = chain === 'C' && /^0x[0-9a-fA-F]{64}$/.test(txID);
    if (!isEvm) {
      try {
        parseId(txID);
      } catch (e) {
        if (e instanceof FormatError) throw new ValidationError(`not a transaction ID: ${txID}`, 'txID');
        throw e;
      }
    }
    let lastStatus = 'none (the node never answered)';
    let lastError: string | undefined;

    for (;;) {
      // A poll may overrun the deadline by up to a second rather than be starved of time.
      const remaining = deadline - Date.now();
      const callOpts: CallOptions = { timeoutMs: Math.min(15_000, Math.max(remaining, 1_000)) };
      if (opts.signal) callOpts.signal = opts.signal;
      try {
        const outcome = await this.pollOnce(chain, txID, isEvm, callOpts);
        if (outcome.final) return outcome.result;
        lastStatus = outcome.describe;
        lastError = undefined;
      } catch (e) {
        if (!isTransient(e)) throw e;
        lastError = (e as Error).message;
      }
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new TimeoutError(
          `${chain}-Chain tx ${txID} not final after ${timeoutMs} ms; last status: ${lastStatus}` +
            (lastError ? `; the last poll failed: ${lastError}` : ''),
        );
      }
      await sleep(Math.min(pollMs, left), opts.signal);
    }
  }

  private async pollOnce(
    chain: ChainAlias,
    txID: string,
    isEvm: boolean,
    opts: CallOptions,
  ): Promise<{ final: true; result: TxOutcome } | { final: false; describe: string }> {
    if (chain === 'X') {
      const status = await this.avm.getTxStatus(txID, opts);
      if (status === 'Accepted') {
        if (!(await this.provesAccepted('X', txID, opts))) return { final: false, describe: 'Accepted, but the node returns no bytes for it' };
        return { final: true, result: { chain, txID, accepted: true, status } };
      }
      if (status === 'Rejected') return { final: true, result: { chain, txID, accepted: false, status } };
      return { final: false, describe: status };
    }
    if (chain === 'P') {
      const r = await this.platform.getTxStatus(txID, opts);
      const base = { chain, txID, status: r.status, ...(r.reason !== undefined ? { reason: r.reason } : {}) };
      if (r.status === 'Committed') {
        if (!(await this.provesAccepted('P', txID, opts))) return { final: false, describe: 'Committed, but the node returns no bytes for it' };
        return { final: true, result: { ...base, accepted: true } };
      }
      if (r.status === 'Aborted' || r.status === 'Dropped') return { final: true, result: { ...base, accepted: false } };
      return { final: false, describe: r.reason ? `${r.status} (${r.reason})` : r.status };
    }
    if (isEvm) {
      const receipt = await this.eth.getTransactionReceipt(txID, opts);
      if (!receipt) return { final: false, describe: 'no receipt yet' };
      const ok = receipt.status === 1n;
      const result: TxOutcome = {
        chain,
        txID,
        accepted: ok,
        status: ok ? 'Success' : 'Reverted',
        blockHeight: receipt.blockNumber,
        receipt,
      };
      if (!ok) result.reason = 'execution reverted';
      return { final: true, result };
    }
    // An atomic tx is never final-failed by the node's word: it waits in the mempool (underpaid)
    // or conflicts; the engine tells those apart from its inputs (WalletEngine.txFate).
    const executed = await this.atomic.findExecutedAtomicTx(txID, opts);
    if (executed) return { final: true, result: { chain, txID, accepted: true, status: 'Accepted', blockHeight: executed.blockHeight } };
    return { final: false, describe: 'not executed yet' };
  }
}

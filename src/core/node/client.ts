// NodeClient: one client per node, with every API group, getAllUtxos (paged, batched, checked,
// proven digests) and waitForTx (a tx followed to a decision).
import { byteKey, type Bytes, equalBytes } from '../bytes.js';
import { formatAddress, parseAddress, parseId } from '../encoding.js';
import { FormatError, NodeResponseError, RpcError, TimeoutError, ValidationError } from '../errors.js';
import { ownersOf, utxoId } from '../codec/index.js';
import { type CallOptions, type FetchLike, JsonRpcEndpoint, sleep } from '../rpc.js';
import { type AllUtxosResult, type AtomicApiConfig, type ChainAlias, type DroppedUtxo, type GetAllUtxosOptions, type IndexName, MAX_UTXO_ADDRESSES, MAX_UTXO_PAGE, MAX_UTXO_PAGES, MAX_UTXO_READ_BYTES, type NodeClientConfig, type TxOutcome, type UtxoIndex, type UtxoPage, type UtxoPageParams, UTXO_PLAIN_BYTES, VM_OF, type WaitOptions } from './types.js';
import { isTransient, joinUrl } from './checks.js';
import { UtxoChainApi } from './utxo-chain.js';
import { type ReadUtxo, UtxoReader } from './utxo-reader.js';
import { InfoApi } from './info.js';
import { AvmApi } from './avm.js';
import { PlatformApi } from './platform.js';
import { AtomicApi } from './atomic.js';
import { EthApi } from './eth.js';
import { HealthApi } from './health.js';
import { BlockApi } from './blocks.js';
import { IndexApi } from './index-api.js';

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
  /** The X and P chains' blocks (when a tx was accepted). */
  readonly blocks: Readonly<Record<'X' | 'P', BlockApi>>;
  private readonly transport: { timeoutMs?: number; fetch?: FetchLike };

  constructor(config: NodeClientConfig) {
    let parsed: URL;
    try {
      parsed = new URL(config.url);
    } catch {
      throw new ValidationError(`not a URL: ${config.url}`, 'url');
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw new ValidationError("the node's address must start with http:// or https://", 'url');
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
    const x = this.endpoint('/ext/bc/X');
    const p = this.endpoint('/ext/bc/P');
    this.avm = new AvmApi(x);
    this.platform = new PlatformApi(p);
    this.blocks = { X: new BlockApi(x, 'avm'), P: new BlockApi(p, 'platform') };
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
   * A node that pages on with nothing new but junk, past MAX_UTXO_PAGES, or past MAX_UTXO_READ_BYTES
   * of oversized UTXOs kept, is NodeResponseError.
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
      const key = byteKey(parsed.bytes);
      if (wanted.has(key)) continue;
      wanted.add(key);
      normalized.push(formatAddress(chain, parsed.hrp, parsed.bytes));
    }

    const reader = new UtxoReader(vm);
    // The reader shares equal addresses between UTXOs: whether one is wanted is asked once per array.
    const isWanted = new Map<Bytes, boolean>();
    const wantedAddress = (addr: Bytes): boolean => {
      let yes = isWanted.get(addr);
      if (yes === undefined) isWanted.set(addr, (yes = wanted.has(byteKey(addr))));
      return yes;
    };
    const kept = new Map<string, ReadUtxo>();
    const conflicted = new Set<string>();
    const dropped: DroppedUtxo[] = [];
    let requests = 0;
    let added = 0;
    let keptBytes = 0;

    const accept = (hex: string): void => {
      let read: ReadUtxo;
      try {
        read = reader.read(hex);
      } catch (e) {
        const bad = e instanceof FormatError ? 'bad hex' : 'undecodable UTXO';
        dropped.push({ reason: `${bad}: ${(e as Error).message}` });
        return;
      }
      const { utxo, digest } = read;
      // Not utxoId's CB58 (sha256 + base58): that only where a UTXO is reported as dropped.
      const id = `${utxo.outputIndex}:${byteKey(utxo.txID)}`;
      if (!ownersOf(utxo.output).addresses.some(wantedAddress)) {
        dropped.push({ id: utxoId(utxo), reason: 'owned by none of the requested addresses' });
        return;
      }
      if (conflicted.has(id)) return;
      const prior = kept.get(id);
      if (!prior) {
        kept.set(id, read);
        added++;
        if ((keptBytes += Math.max(0, read.bytes.length - UTXO_PLAIN_BYTES)) > MAX_UTXO_READ_BYTES) {
          throw new NodeResponseError(`getUTXOs: the node listed UTXOs with owner lists far longer than any wallet's (more than ${MAX_UTXO_READ_BYTES} bytes beyond ${UTXO_PLAIN_BYTES} each); the wallet stopped reading them`);
        }
      } else if (!equalBytes(prior.digest, digest)) {
        // Two different bodies under one ID: the node is lying about at least one. Trust neither.
        kept.delete(id);
        conflicted.add(id);
        dropped.push({ id: utxoId(utxo), reason: 'the node sent two different UTXOs with this ID' });
      }
    };

    // A read that stops (or is cancelled) drops the page already on the wire, up to 4 MB, unread.
    const stop = new AbortController();
    const cancel = () => stop.abort();
    if (opts.signal?.aborted) cancel();
    opts.signal?.addEventListener('abort', cancel);
    const callOpts: CallOptions = { signal: stop.signal };
    if (opts.timeoutMs !== undefined) callOpts.timeoutMs = opts.timeoutMs;
    const fetchPage = (batch: string[], startIndex?: UtxoIndex): Promise<UtxoPage> => {
      const params: UtxoPageParams = { addresses: batch, limit };
      if (startIndex) params.startIndex = startIndex;
      if (opts.sourceChain !== undefined) params.sourceChain = opts.sourceChain;
      requests++;
      return api.getUTXOs(params, callOpts);
    };

    try {
      for (let i = 0; i < normalized.length; i += MAX_UTXO_ADDRESSES) {
        const batch = normalized.slice(i, i + MAX_UTXO_ADDRESSES);
        const seenEnds = new Set<string>();
        let next: Promise<UtxoPage> | undefined = fetchPage(batch);
        while (next) {
          const page = await next;
          next = undefined;
          if (page.utxos.length > limit) {
            throw new NodeResponseError(`getUTXOs returned ${page.utxos.length} UTXOs for a limit of ${limit}`);
          }
          if (page.utxos.length === limit) {
            const endKey = `${page.endIndex.address}|${page.endIndex.utxo}`;
            if (seenEnds.has(endKey)) throw new NodeResponseError('getUTXOs pagination went round in a circle');
            seenEnds.add(endKey);
            if (requests >= MAX_UTXO_PAGES) {
              throw new NodeResponseError(`getUTXOs: the node listed more than ${MAX_UTXO_PAGES} pages of UTXOs, more than any wallet holds; the wallet stopped reading them`);
            }
            // A pipeline: the next page is on the wire while this one is checked and decoded.
            next = fetchPage(batch, page.endIndex);
            // Should this page turn out bad, the request already sent must not reject unobserved.
            next.catch(() => undefined);
          }
          const addedBefore = added;
          const droppedBefore = dropped.length;
          for (const hex of page.utxos) accept(hex);
          // A full page of nothing new and something bad is a node feeding junk: every further page
          // would only add drop records. Repeats alone are honest (a UTXO two of the addresses own is
          // listed under each), so they do not stop the read; within one call the node skips them,
          // which never hides a UTXO (docs/protocol.md §Paging).
          if (page.utxos.length === limit && added === addedBefore && dropped.length > droppedBefore) {
            throw new NodeResponseError(`getUTXOs: a full page held no new UTXO of these addresses, only entries that do not hold up; the wallet stopped reading them`);
          }
        }
      }
    } finally {
      cancel();
      opts.signal?.removeEventListener('abort', cancel);
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
      await getTx(this, chain, txID, opts);
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
      if (!(await this.inLatestState(receipt.blockNumber, opts))) return { final: false, describe: 'executed, not yet in the latest state' };
      return { final: true, result };
    }
    // An atomic tx is never final-failed by the node's word: it waits in the mempool (underpaid)
    // or conflicts; the engine tells those apart from its inputs (WalletEngine.txFate).
    const executed = await this.atomic.findExecutedAtomicTx(txID, opts);
    if (!executed) return { final: false, describe: 'not executed yet' };
    if (!(await this.inLatestState(executed.blockHeight, opts))) return { final: false, describe: 'accepted, not yet in the latest state' };
    return { final: true, result: { chain, txID, accepted: true, status: 'Accepted', blockHeight: executed.blockHeight } };
  }

  /**
   * Whether the C-Chain's `latest` state (the last block executed whole, Helicon's async execution)
   * includes block `height`: only then do balances and nonces read after a tx show it.
   */
  private async inLatestState(height: bigint, opts: CallOptions): Promise<boolean> {
    return (await this.eth.blockNumber(opts)) >= height;
  }
}

/** An X or P tx's signed bytes from `node`, checked to hash to `txID`. */
export function getTx(node: Pick<NodeClient, 'avm' | 'platform'>, chain: 'X' | 'P', txID: string, opts?: CallOptions): Promise<Bytes> {
  return chain === 'X' ? node.avm.getTx(txID, opts) : node.platform.getTx(txID, opts);
}

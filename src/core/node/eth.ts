// eth_*: the C-Chain EVM JSON-RPC the wallet uses, every answer shape-checked.
import { type Bytes } from '../bytes.js';
import { toHexnc } from '../encoding.js';
import { NodeResponseError } from '../errors.js';
import { type CallOptions, JsonRpcEndpoint, g } from '../rpc.js';
import { type BlockTag, type EthBlock, type EthReceipt } from './types.js';
import { blockGuard, blockTag, ethAddress, ethHash, receiptGuard } from './checks.js';

/** One event log (eth_getLogs), shape-checked. */
export interface EthLog {
  address: string;
  topics: string[];
  data: string;
  blockNumber: bigint;
  transactionHash: string;
  logIndex: bigint;
}

const logGuard = g.object({
  address: ethAddress,
  topics: g.array(ethHash),
  data: g.data(),
  blockNumber: g.quantity,
  transactionHash: ethHash,
  logIndex: g.quantity,
});

/** An eth_getLogs filter over a block range (numbers, inclusive). `topics`: null matches anything. */
export interface LogFilter {
  fromBlock: bigint;
  toBlock: bigint;
  address?: string | string[];
  topics?: (string | string[] | null)[];
}

const hexQ = (n: bigint): string => `0x${n.toString(16)}`;

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

  /** eth_call: the call's answer (0x hex) in the state of `tag`. A revert is the node's RpcError. */
  async call(tx: Record<string, unknown>, tag: BlockTag = 'latest', opts?: CallOptions): Promise<string> {
    return this.rpc.call('eth_call', [tx, blockTag(tag)], g.data(), opts);
  }

  async getCode(address: string, tag: BlockTag = 'latest', opts?: CallOptions): Promise<string> {
    return this.rpc.call('eth_getCode', [address, blockTag(tag)], g.data(), opts);
  }

  async getLogs(filter: LogFilter, opts?: CallOptions): Promise<EthLog[]> {
    const params = { ...filter, fromBlock: hexQ(filter.fromBlock), toBlock: hexQ(filter.toBlock) };
    const logs = await this.rpc.call('eth_getLogs', [params], g.array(logGuard), opts);
    for (const l of logs) {
      if (l.blockNumber < filter.fromBlock || l.blockNumber > filter.toBlock) throw new NodeResponseError(`eth_getLogs: a log of block ${l.blockNumber} answers a query for blocks ${filter.fromBlock}-${filter.toBlock}`);
    }
    return logs;
  }

  /** debug_traceCall with the call tracer (logs included): the node's trace, unchecked (core/evm-simulate.ts reads it). */
  traceCall(tx: Record<string, unknown>, tag: BlockTag = 'latest', opts?: CallOptions): Promise<unknown> {
    return this.rpc.callRaw('debug_traceCall', [tx, blockTag(tag), { tracer: 'callTracer', tracerConfig: { withLog: true } }], opts);
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

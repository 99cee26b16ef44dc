// eth_*: the C-Chain EVM JSON-RPC the wallet uses, every answer shape-checked.
import { type Bytes } from '../bytes.js';
import { toHexnc } from '../encoding.js';
import { NodeResponseError } from '../errors.js';
import { type CallOptions, JsonRpcEndpoint, g } from '../rpc.js';
import { type BlockTag, type EthBlock, type EthReceipt } from './types.js';
import { blockGuard, blockTag, ethHash, receiptGuard } from './checks.js';

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

// index.*: the node's optional indexes of accepted txs and blocks.
import { NodeResponseError } from '../errors.js';
import { type CallOptions, JsonRpcEndpoint } from '../rpc.js';
import { type IndexContainer } from './types.js';
import { containerGuard } from './checks.js';

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

// info.*: who the node is (network ID, chain IDs, version, bootstrapped chains).
import { type CallOptions, JsonRpcEndpoint, g, shapeError } from '../rpc.js';
import { type NodeVersion } from './types.js';
import { cb58Id, stringMap } from './checks.js';

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

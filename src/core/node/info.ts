// info.*: who the node is (network ID, chain IDs, version, bootstrapped chains).
import { type CallOptions, JsonRpcEndpoint, g, shapeError } from '../rpc.js';
import { type NodeVersion } from './types.js';
import { cb58Id, stringMap } from './checks.js';
import { parseNodeId } from '../encoding.js';

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

  /**
   * When the network's Helicon upgrade activates (Unix seconds), from info.upgrades; undefined when
   * the node names no such time (a node from before it) or names one that is not a time.
   */
  async heliconTime(opts?: CallOptions): Promise<bigint | undefined> {
    const r = await this.rpc.call('info.upgrades', {}, g.object({ heliconTime: g.optional(g.unknown) }), opts);
    const ms = typeof r.heliconTime === 'string' ? Date.parse(r.heliconTime) : NaN;
    return Number.isFinite(ms) ? BigInt(Math.floor(ms / 1000)) : undefined;
  }

  async isBootstrapped(chain: string, opts?: CallOptions): Promise<boolean> {
    const r = await this.rpc.call('info.isBootstrapped', { chain }, g.object({ isBootstrapped: g.boolean }), opts);
    return r.isBootstrapped;
  }

  /**
   * The node's NodeID and its BLS key with proof of possession (what a validator tx carries), shapes
   * checked: 48 and 96 bytes of 0x hex. The chain verifies the proof itself when the tx arrives.
   */
  async getNodeID(opts?: CallOptions): Promise<{ nodeID: string; publicKey: string; proofOfPossession: string }> {
    const hex = (bytes: number) => g.data(bytes);
    const r = await this.rpc.call('info.getNodeID', {}, g.object({ nodeID: g.string, nodePOP: g.object({ publicKey: hex(48), proofOfPossession: hex(96) }) }), opts);
    try {
      parseNodeId(r.nodeID);
    } catch {
      throw shapeError('info.getNodeID result.nodeID', 'a NodeID', r.nodeID);
    }
    return { nodeID: r.nodeID, publicKey: r.nodePOP.publicKey.toLowerCase(), proofOfPossession: r.nodePOP.proofOfPossession.toLowerCase() };
  }
}

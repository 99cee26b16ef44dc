// platform.*: the P-Chain API.
import { type Bytes } from '../bytes.js';
import { decodeUtxo } from '../codec/codec.js';
import type { Utxo } from '../codec/types.js';
import { fromApiHex } from '../encoding.js';
import { NodeResponseError } from '../errors.js';
import type { OutputOwners } from '../codec/types.js';
import { type CallOptions, JsonRpcEndpoint, g, shapeError } from '../rpc.js';
import { type PFeeConfig, type PFeeState, type PTxStatus } from './types.js';
import { apiHex, cb58Id, checkFetchedTx, ownersFromApi, rfc3339 } from './checks.js';
import { UtxoChainApi } from './utxo-chain.js';
import { type CurrentValidator, parseCurrentValidators } from './validators.js';

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

  // ---- staking ----

  /**
   * Current Primary Network validators (docs/staking.md §Reading state). With exactly one NodeID
   * the node also lists its delegators, with their reward owners; otherwise only their totals.
   */
  async getCurrentValidators(nodeIDs: string[] = [], opts?: CallOptions): Promise<CurrentValidator[]> {
    const result = await this.rpc.callRaw('platform.getCurrentValidators', nodeIDs.length > 0 ? { nodeIDs } : {}, opts);
    const validators = parseCurrentValidators(result);
    if (nodeIDs.length > 0 && validators.some((v) => !nodeIDs.includes(v.nodeID))) throw new NodeResponseError('platform.getCurrentValidators: the node answered about a validator it was not asked about');
    return validators;
  }

  /** The least a validator and a delegator may stake, nAVAX. */
  async getMinStake(opts?: CallOptions): Promise<{ minValidatorStake: bigint; minDelegatorStake: bigint }> {
    return this.rpc.call('platform.getMinStake', {}, g.object({ minValidatorStake: g.uint, minDelegatorStake: g.uint }), opts);
  }

  /** An upper bound of the AVAX supply, nAVAX (what the reward formula takes). */
  async getCurrentSupply(opts?: CallOptions): Promise<bigint> {
    return (await this.rpc.call('platform.getCurrentSupply', {}, g.object({ supply: g.uint }), opts)).supply;
  }

  /**
   * The UTXOs a staking's reward tx paid (`txID`: the staker tx, or for an auto-renewed validator
   * the cycle's reward tx), each checksum-checked and decoded. The node's word: a reward UTXO has
   * no tx that proves its amount.
   */
  async getRewardUtxos(txID: string, opts?: CallOptions): Promise<Utxo[]> {
    const r = await this.rpc.call('platform.getRewardUTXOs', { txID, encoding: 'hex' }, g.object({ numFetched: g.uintNumber, utxos: g.array(g.string) }), opts);
    if (r.numFetched !== r.utxos.length) throw new NodeResponseError(`platform.getRewardUTXOs: numFetched is ${r.numFetched} but ${r.utxos.length} UTXOs were sent`);
    return r.utxos.map((hex, i) => {
      try {
        return decodeUtxo(fromApiHex(hex), 'pvm');
      } catch (e) {
        throw new NodeResponseError(`platform.getRewardUTXOs: UTXO ${i} cannot be read: ${(e as Error).message}`);
      }
    });
  }
}

// avm.*: the X-Chain API.
import { type Bytes } from '../bytes.js';
import { type CallOptions, JsonRpcEndpoint, g, shapeError } from '../rpc.js';
import { type AssetDescription, type XTxFees, type XTxStatus } from './types.js';
import { apiHex, cb58Id, checkFetchedTx } from './checks.js';
import { UtxoChainApi } from './utxo-chain.js';

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

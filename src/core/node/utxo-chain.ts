// What the X, P and C-atomic APIs share: issuing a tx (its ID checked) and one page of UTXOs.
import { type Bytes } from '../bytes.js';
import { toApiHex } from '../encoding.js';
import { type CallOptions, JsonRpcEndpoint, g } from '../rpc.js';
import { MAX_UTXO_PAGE, type UtxoPage, type UtxoPageParams } from './types.js';
import { cb58Id, checkTxId, utxoPageGuard } from './checks.js';

/** Methods shared by the three UTXO chains. */
export abstract class UtxoChainApi {
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

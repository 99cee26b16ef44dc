// The C-Chain atomic API (`avax.*`): atomic txs and the UTXOs exported to the C-Chain.
import { RpcError } from '../errors.js';
import { type CallOptions, JsonRpcEndpoint, g } from '../rpc.js';
import { type AtomicTx } from './types.js';
import { apiHex, checkFetchedTx } from './checks.js';
import { UtxoChainApi } from './utxo-chain.js';

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

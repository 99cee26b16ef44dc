// Shared by transfers.test.ts, transfers-journal.test.ts and transfers-resume.test.ts: a scripted
// stand-in for the engine, and the error a checkpoint throws to stop a move where a worker would die.
import type { TxState, WalletEngine } from '../../src/core/engine.js';
import { TimeoutError, WalletError } from '../../src/core/errors.js';
import type { ChainAlias } from '../../src/core/node.js';

export class Crash extends Error {}

/**
 * A node as the runner sees it: each tx ID has a state; a send of a tx the node already has is
 * refused, as avalanchego refuses a duplicate; waiting times out unless the tx is final (the
 * engine's own wait would poll on: here the runner's patience is simply over).
 */
export class ScriptedChains {
  readonly states = new Map<string, TxState>();
  readonly sent: string[] = [];
  /** What a tx the node did not have becomes when it is sent. */
  stateOnSend: TxState = 'accepted';
  /** False once something else imported the export's funds: atomic memory holds none of them. */
  atomicThere = true;
  exportFee = 1_000n;
  importFee = 10n;
  private next = 0;

  engine(): WalletEngine {
    const built = (chain: ChainAlias, fee: bigint) => ({ chain, fee, id: `tx-${++this.next}`, spent: [] });
    const engine = {
      buildExport: async (from: ChainAlias) => built(from, this.exportFee),
      buildImports: async (to: ChainAlias) => (this.atomicThere ? [built(to, this.importFee)] : []),
      sign: (b: { chain: ChainAlias; fee: bigint; id: string }) => ({ chain: b.chain, txID: b.id, signedBytes: new TextEncoder().encode(b.id), fee: b.fee }),
      txState: async (_chain: ChainAlias, txID: string) => this.states.get(txID) ?? 'unknown',
      // What its inputs say is not scripted here: a tx the node does not know is one it never got.
      txFate: async (_chain: ChainAlias, txID: string) => this.states.get(txID) ?? 'not-seen',
      submit: async (_chain: ChainAlias, _bytes: Uint8Array, txID: string) => {
        this.sent.push(txID);
        if (this.states.has(txID)) throw new WalletError('rpc', `tx ${txID} is already known`);
        this.states.set(txID, this.stateOnSend);
      },
      node: {
        waitForTx: async (chain: ChainAlias, txID: string) => {
          const state = this.states.get(txID);
          if (state === 'accepted' || state === 'failed') return { chain, txID, accepted: state === 'accepted', status: state };
          throw new TimeoutError(`${txID} not final`);
        },
      },
    };
    return engine as unknown as WalletEngine;
  }
}

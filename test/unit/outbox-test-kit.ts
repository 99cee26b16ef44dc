// The outbox tests' scripted P-Chain node: an engine whose node answers as a script says (status,
// UTXOs, issue, proof), signed P-Chain txs spending given UTXOs, and an outbox holding one of them.
import { sha256 } from '@noble/hashes/sha2.js';
import { Outbox, outboxEntry } from '../../src/background/outbox.js';
import { memoryStores } from '../../src/background/storage.js';
import { encodeSignedTx, encodeUtxo, txIdBytes, type Utxo } from '../../src/core/codec/index.js';
import { cb58Encode } from '../../src/core/encoding.js';
import { WalletEngine } from '../../src/core/engine.js';
import { RpcError } from '../../src/core/errors.js';
import type { NodeClient } from '../../src/core/node.js';
import type { ActivityItem } from '../../src/shared/messages.js';
import { ctx, ewoq, second } from './pvm-test-kit.js';

/** A signed P-Chain BaseTx spending `spent` and creating nothing of ours. */
export function pTx(spent: Utxo[]) {
  const unsigned = {
    vm: 'pvm' as const,
    kind: 'BaseTx' as const,
    networkID: ctx.networkID,
    blockchainID: ctx.pChainID,
    outputs: [],
    inputs: spent.map((u) => ({ txID: u.txID, outputIndex: u.outputIndex, assetID: u.assetID, input: { kind: 'TransferInput' as const, amount: 1_000_000n, sigIndices: [0] } })),
    memo: new Uint8Array(),
  };
  const bytes = encodeSignedTx({ unsigned, credentials: [{ fx: 'secp', signatures: [new Uint8Array(65)] }] });
  return { bytes, txID: cb58Encode(txIdBytes(bytes)) };
}

/** A signed P-Chain ImportTx of `imported` (atomic UTXOs from the X-Chain), paid from what it imports. */
export function pImportTx(imported: Utxo[]) {
  const unsigned = {
    vm: 'pvm' as const,
    kind: 'ImportTx' as const,
    networkID: ctx.networkID,
    blockchainID: ctx.pChainID,
    outputs: [],
    inputs: [],
    memo: new Uint8Array(),
    sourceChain: ctx.xChainID,
    importedInputs: imported.map((u) => ({ txID: u.txID, outputIndex: u.outputIndex, assetID: u.assetID, input: { kind: 'TransferInput' as const, amount: 1_000_000n, sigIndices: [0] } })),
  };
  const bytes = encodeSignedTx({ unsigned, credentials: [{ fx: 'secp', signatures: [new Uint8Array(65)] }] });
  return { bytes, txID: cb58Encode(txIdBytes(bytes)) };
}

export interface Script {
  status: () => string;
  utxos: () => Utxo[];
  issue: () => Promise<string>;
  proves?: () => Promise<boolean>;
  /** Called before each UTXO read (to hold one back). */
  beforeUtxos?: () => Promise<void>;
}

export function engineOn(s: Script): WalletEngine {
  const node = {
    // No tx behind these made-up UTXOs: they stay unproven, and are kept.
    platform: {
      getTxStatus: async () => ({ status: s.status() }),
      issueTx: async () => s.issue(),
      getTx: () => Promise.reject(new RpcError('platform.getTx', -32000, 'not found')),
      getTimestamp: async () => new Date().toISOString(),
    },
    // An import's funds come from the X-Chain: no tx there proves them either.
    avm: { getTx: () => Promise.reject(new RpcError('avm.getTx', -32000, 'not found')) },
    getAllUtxos: async () => {
      await s.beforeUtxos?.();
      const utxos = s.utxos();
      const encoded = utxos.map((u) => encodeUtxo(u, 'pvm'));
      return { utxos, encoded, digests: encoded.map((b) => sha256(b)), dropped: [] };
    },
    provesAccepted: async () => (s.proves ? s.proves() : true),
  };
  return new WalletEngine(node as unknown as NodeClient, ctx, { xp: [ewoq], evm: second, change: ewoq.shortId }, { evmChainId: 1n });
}

export const item = (txID: string): ActivityItem => ({ txID, chain: 'P', kind: 'send', status: 'pending', createdAt: 1 });

export async function outboxWith(txID: string, bytes: Uint8Array) {
  const outbox = new Outbox(memoryStores().local, `outbox-${txID}`);
  const entry = outboxEntry('P', txID, bytes, item(txID));
  await outbox.put(entry);
  return { outbox, entry };
}

import { sha256 } from '@noble/hashes/sha2.js';
// The outbox's decisions when the node's answers are lies or half-truths, against a scripted node
// (the same flows against the real node behind a lying proxy: test/integration/lying-node.test.ts).
import { describe, expect, it } from 'vitest';
import { Outbox, outboxEntry, sendOnce, settleOutbox } from '../../src/background/outbox.js';
import { memoryStores } from '../../src/background/storage.js';
import { encodeSignedTx, encodeUtxo, txIdBytes, type Utxo } from '../../src/core/codec/index.js';
import { cb58Encode } from '../../src/core/encoding.js';
import { WalletEngine } from '../../src/core/engine.js';
import { NodeResponseError, RpcError } from '../../src/core/errors.js';
import type { NodeClient } from '../../src/core/node.js';
import type { ActivityItem } from '../../src/shared/messages.js';
import { ctx, ewoq, second, utxo } from './pvm-test-kit.js';

/** A signed P-Chain BaseTx spending `spent` and creating nothing of ours. */
function pTx(spent: Utxo[]) {
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

interface Script {
  status: () => string;
  utxos: () => Utxo[];
  issue: () => Promise<string>;
  proves?: () => Promise<boolean>;
  /** Called before each UTXO read (to hold one back). */
  beforeUtxos?: () => Promise<void>;
}

function engineOn(s: Script): WalletEngine {
  const node = {
    // No tx behind these made-up UTXOs: they stay unproven, and are kept.
    platform: { getTxStatus: async () => ({ status: s.status() }), issueTx: async () => s.issue(), getTx: () => Promise.reject(new RpcError('platform.getTx', -32000, 'not found')) },
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

const item = (txID: string): ActivityItem => ({ txID, chain: 'P', kind: 'send', status: 'pending', createdAt: 1 });

async function outboxWith(txID: string, bytes: Uint8Array) {
  const outbox = new Outbox(memoryStores().local, `outbox-${txID}`);
  const entry = outboxEntry('P', txID, bytes, item(txID));
  await outbox.put(entry);
  return { outbox, entry };
}

const refused = () => Promise.reject(new RpcError('platform.issueTx', -32000, 'upstream timed out'));

describe('the outbox under a lying node', () => {
  it('records what was decided before a decided entry leaves the outbox', async () => {
    const u = utxo(2_000_000n);
    const { bytes, txID } = pTx([u]);
    const engine = engineOn({ status: () => 'Committed', utxos: () => [], issue: async () => txID });
    const { outbox } = await outboxWith(txID, bytes);
    const seenAtRecord: string[][] = [];
    await settleOutbox(engine, outbox, async (s) => {
      expect(s.get(txID)).toBe('accepted');
      seenAtRecord.push((await outbox.list()).map((e) => e.txID));
    });
    expect(seenAtRecord).toEqual([[txID]]);
    expect(await outbox.list()).toEqual([]);
    // A record that fails leaves the entry for the next refresh.
    const again = await outboxWith(txID, bytes);
    await expect(settleOutbox(engine, again.outbox, () => Promise.reject(new Error('storage full')))).rejects.toThrow('storage full');
    expect((await again.outbox.list()).map((e) => e.txID)).toEqual([txID]);
  });

  it('an error from issueTx, then "Dropped", while what the tx spends is gone: followed as sent, never told as refused', async () => {
    const u = utxo(2_000_000n);
    const { bytes, txID } = pTx([u]);
    let forwarded = false;
    const engine = engineOn({ status: () => 'Dropped', utxos: () => (forwarded ? [] : [u]), issue: () => ((forwarded = true), refused()) });
    const { outbox, entry } = await outboxWith(txID, bytes);
    expect(await sendOnce(engine, outbox, entry, 50)).toBe('sent');
    expect(await engine.txFate('P', txID, bytes)).toBe('inputs-spent');
    expect((await outbox.list()).map((e) => e.txID)).toEqual([txID]);
  });

  it('a refusal while the node knows nothing of the tx and everything it spends is unspent is a refusal', async () => {
    const u = utxo(2_000_000n);
    const { bytes, txID } = pTx([u]);
    const engine = engineOn({ status: () => 'Unknown', utxos: () => [u], issue: refused });
    const { outbox, entry } = await outboxWith(txID, bytes);
    await expect(sendOnce(engine, outbox, entry, 50)).rejects.toMatchObject({ code: 'tx-refused', message: expect.stringMatching(/nothing it spends was spent: .*upstream timed out/) });
    expect(await outbox.list()).toEqual([]);
  });

  it('"Unknown" from a lagging backend while the UTXOs show as spent: unclear, kept — never "failed"', async () => {
    const u = utxo(2_000_000n);
    const { bytes, txID } = pTx([u]);
    const engine = engineOn({ status: () => 'Unknown', utxos: () => [], issue: async () => txID });
    const { outbox } = await outboxWith(txID, bytes);
    let settled: ReadonlyMap<string, string> = new Map();
    await settleOutbox(engine, outbox, async (s) => void (settled = s));
    expect(settled.get(txID)).toBe('unclear');
    expect((await outbox.list()).map((e) => e.txID)).toEqual([txID]);
  });

  it('an acceptance claimed while everything the tx spends is unspent is only "processing"', async () => {
    const u = utxo(2_000_000n);
    const { bytes, txID } = pTx([u]);
    const engine = engineOn({ status: () => 'Committed', utxos: () => [u], issue: async () => txID });
    expect(await engine.txFate('P', txID, bytes)).toBe('processing');
  });

  it('answers that do not hold up (bytes that do not hash) leave the send "checking", kept for the next look', async () => {
    const u = utxo(2_000_000n);
    const { bytes, txID } = pTx([u]);
    const engine = engineOn({
      status: () => 'Committed',
      utxos: () => [],
      issue: refused,
      proves: () => Promise.reject(new NodeResponseError('platform.getTx: the bytes do not hash')),
    });
    const { outbox, entry } = await outboxWith(txID, bytes);
    expect(await sendOnce(engine, outbox, entry, 50)).toBe('checking');
    expect((await outbox.list()).map((e) => e.txID)).toEqual([txID]);
  });

  it('a refresh that read the outbox before a send gave the entry up does not bring it back or send it again', async () => {
    const u = utxo(2_000_000n);
    const { bytes, txID } = pTx([u]);
    let issues = 0;
    let hold: Promise<void> | undefined;
    let release: () => void = () => undefined;
    const engine = engineOn({ status: () => 'Unknown', utxos: () => [u], issue: () => (issues++, refused()), beforeUtxos: () => hold ?? Promise.resolve() });
    const { outbox, entry } = await outboxWith(txID, bytes);
    hold = new Promise<void>((r) => (release = r));
    const refresh = settleOutbox(engine, outbox, async () => undefined); // reads the list, then waits on the node
    await new Promise((r) => setTimeout(r, 10));
    hold = undefined;
    await expect(sendOnce(engine, outbox, entry, 50)).rejects.toMatchObject({ code: 'tx-refused' });
    release();
    await refresh;
    expect(await outbox.list()).toEqual([]);
    expect(issues).toBe(1);
  });

  it('overlapping writes keep every entry', async () => {
    const outbox = new Outbox(memoryStores().local, 'outbox-overlap');
    const ids = ['a', 'b', 'c', 'd'];
    await Promise.all(ids.map((id) => outbox.put(outboxEntry('P', id, new Uint8Array([1]), item(id)))));
    expect((await outbox.list()).map((e) => e.txID).sort()).toEqual(ids);
  });
});

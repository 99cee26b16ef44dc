import { sha256 } from '@noble/hashes/sha2.js';
// The outbox's decisions when the node's answers are lies or half-truths, against a scripted node
// (the same flows against the real node behind a lying proxy: test/integration/lying-node.test.ts).
import { describe, expect, it } from 'vitest';
import { openOutbox, Outbox, type OutboxEntry, outboxEntry, sendOnce, sendsInTheWay, settleOutbox } from '../../src/background/outbox.js';
import { AccountCaches, chainsKey, entryOutboxKey, outboxKey, perChainsKeys } from '../../src/background/account-cache.js';
import { AccountEngines } from '../../src/background/account-engines.js';
import type { Keyring } from '../../src/background/keyring.js';
import { NetworksService } from '../../src/background/services/networks.js';
import { emptyState, SettingsStore } from '../../src/background/settings.js';
import { PRESETS } from '../../src/core/network.js';
import { conflictsOf, exportSpends, MOVING_AT_MOST, replacedByExport, settleRefused, successors } from '../../src/background/refused.js';
import type { TransferRecord } from '../../src/background/transfer-journal.js';
import { fromHex } from '../../src/core/bytes.js';
import { buildCExport, signEvmTx } from '../../src/core/tx/c.js';
import { utxoId } from '../../src/core/codec/ids.js';
import { memoryStores } from '../../src/background/storage.js';
import { encodeSignedTx, encodeUtxo, txIdBytes, type Utxo } from '../../src/core/codec/index.js';
import { cb58Encode } from '../../src/core/encoding.js';
import { WalletEngine } from '../../src/core/engine.js';
import { NodeResponseError, RpcError, WalletError } from '../../src/core/errors.js';
import { plainError } from '../../src/popup/errors.js';
import type { NodeClient } from '../../src/core/node.js';
import type { ActivityItem } from '../../src/shared/messages.js';
import { ctx, ewoq, mine, second, utxo } from './pvm-test-kit.js';

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
    await settleOutbox(
      engine,
      outbox,
      async (s) => {
        expect(s.get(txID)).toBe('accepted');
        seenAtRecord.push((await outbox.list()).map((e) => e.txID));
      },
      () => undefined,
    );
    expect(seenAtRecord).toEqual([[txID]]);
    expect(await outbox.list()).toEqual([]);
    // A record that fails leaves the entry for the next refresh.
    const again = await outboxWith(txID, bytes);
    await expect(settleOutbox(engine, again.outbox, () => Promise.reject(new Error('storage full')), () => undefined)).rejects.toThrow('storage full');
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
    await expect(sendOnce(engine, outbox, entry, 50)).rejects.toMatchObject({ code: 'tx-refused', message: expect.stringMatching(/upstream timed out.*nothing was paid, and your next P-Chain send takes its place/) });
    // Kept, voided: never sent again, and the next send conflicts with it.
    expect(await outbox.list()).toEqual([{ ...entry, voided: true }]);
  });

  it('a refusal keeps what was marked on the entry while the node was asked (a later send racing it), and writes it back if it was gone', async () => {
    const u = utxo(2_000_000n);
    const { bytes, txID } = pTx([u]);
    const { outbox, entry } = await outboxWith(txID, bytes);
    const engine = engineOn({ status: () => 'Unknown', utxos: () => [u], issue: () => outbox.markReplaced([txID], 'later').then(refused) });
    await expect(sendOnce(engine, outbox, entry, 50)).rejects.toMatchObject({ code: 'tx-refused' });
    expect(await outbox.list()).toEqual([{ ...entry, voided: true, replacedBy: 'later' }]);
    const gone = engineOn({ status: () => 'Unknown', utxos: () => [u], issue: () => outbox.remove(txID).then(refused) });
    await expect(sendOnce(gone, outbox, entry, 50)).rejects.toMatchObject({ code: 'tx-refused' });
    expect(await outbox.list()).toEqual([{ ...entry, voided: true }]);
  });

  it('"Unknown" from a lagging backend while the UTXOs show as spent: unclear, kept — never "failed"', async () => {
    const u = utxo(2_000_000n);
    const { bytes, txID } = pTx([u]);
    const engine = engineOn({ status: () => 'Unknown', utxos: () => [], issue: async () => txID });
    const { outbox } = await outboxWith(txID, bytes);
    let settled: ReadonlyMap<string, string> = new Map();
    await settleOutbox(engine, outbox, async (s) => void (settled = s), () => undefined);
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

  it('a tx the node took, then calls "Dropped" while its inputs are unspent, stays voided: the next send must take its place', async () => {
    const u1 = utxo(2_000_000n, mine, 0);
    const u2 = utxo(3_000_000n, mine, 1);
    const { bytes, txID } = pTx([u1]);
    const engine = engineOn({ status: () => 'Dropped', utxos: () => [u1, u2], issue: async () => txID, proves: async () => false });
    const { outbox, entry } = await outboxWith(txID, bytes);
    expect(await sendOnce(engine, outbox, entry, 50)).toBe('sent');
    let settled: ReadonlyMap<string, string> = new Map();
    await settleOutbox(engine, outbox, async (s) => void (settled = s), () => undefined);
    expect(settled.get(txID)).toBe('failed');
    expect((await outbox.list()).map((e) => [e.txID, e.voided])).toEqual([[txID, true]]);
    // Another node may still hold it: a send sharing none of its inputs is not signed.
    const live = await settleRefused(engine, outbox, 'P', false, async () => undefined, () => undefined);
    expect(() => conflictsOf(live, 'P', { inputs: [utxoId(u2)] })).toThrow(expect.objectContaining({ code: 'refused-send-in-the-way' }));
    expect(conflictsOf(live, 'P', { inputs: [utxoId(u1)] })).toEqual([txID]);
  });

  it('an X/P send undecided for a week is given up voided: never sent again, still in the way; called failed later, it is told so and stays', async () => {
    const u = utxo(2_000_000n);
    const { bytes, txID } = pTx([u]);
    let status = 'Unknown';
    const engine = engineOn({ status: () => status, utxos: () => [u], issue: async () => txID });
    const outbox = new Outbox(memoryStores().local, 'expiry');
    await outbox.put({ ...outboxEntry('P', txID, bytes, item(txID)), createdAt: 0 });
    await settleOutbox(engine, outbox, async () => undefined, () => undefined);
    expect((await outbox.list()).map((e) => [e.txID, e.voided])).toEqual([[txID, true]]);
    status = 'Dropped';
    let settled: ReadonlyMap<string, string> = new Map();
    await settleOutbox(engine, outbox, async (s) => void (settled = s), () => undefined);
    expect(settled.get(txID)).toBe('failed');
    expect((await outbox.list()).map((e) => [e.txID, e.voided])).toEqual([[txID, true]]);
  });

  it('one called failed stays voided whatever the node shows of its inputs afterwards (hiding them cannot get it forgotten)', async () => {
    const u = utxo(2_000_000n);
    const other = utxo(3_000_000n, mine, 1);
    const { bytes, txID } = pTx([u]);
    // The fate's read shows it unspent; each later read shows it or not, by turns.
    for (const hidden of [1, 2, 3]) {
      let reads = 0;
      const engine = engineOn({ status: () => 'Dropped', utxos: () => (reads++ === hidden ? [other] : [u, other]), issue: async () => txID });
      const { outbox } = await outboxWith(txID, bytes);
      await settleOutbox(engine, outbox, async () => undefined, () => undefined);
      expect((await outbox.list()).map((e) => [e.txID, e.voided])).toEqual([[txID, true]]);
    }
  });

  it("a site's import called failed, paid from what it imports (no input of its own chain), leaves as before: no send could take its place", async () => {
    const atomic = utxo(2_000_000n);
    const unsigned = {
      vm: 'pvm' as const, kind: 'ImportTx' as const, networkID: ctx.networkID, blockchainID: ctx.pChainID, outputs: [], inputs: [], memo: new Uint8Array(), sourceChain: ctx.xChainID,
      importedInputs: [{ txID: atomic.txID, outputIndex: atomic.outputIndex, assetID: atomic.assetID, input: { kind: 'TransferInput' as const, amount: 2_000_000n, sigIndices: [0] } }],
    };
    const bytes = encodeSignedTx({ unsigned, credentials: [{ fx: 'secp', signatures: [new Uint8Array(65)] }] });
    const txID = cb58Encode(txIdBytes(bytes));
    const engine = engineOn({ status: () => 'Dropped', utxos: () => [atomic], issue: async () => txID });
    const { outbox } = await outboxWith(txID, bytes);
    let settled: ReadonlyMap<string, string> = new Map();
    await settleOutbox(engine, outbox, async (s) => void (settled = s), () => undefined);
    expect(settled.get(txID)).toBe('failed');
    expect(await outbox.list()).toEqual([]);
  });

  it('a refresh that read the outbox before a send gave the entry up does not send it again', async () => {
    const u = utxo(2_000_000n);
    const { bytes, txID } = pTx([u]);
    let issues = 0;
    let hold: Promise<void> | undefined;
    let release: () => void = () => undefined;
    const engine = engineOn({ status: () => 'Unknown', utxos: () => [u], issue: () => (issues++, refused()), beforeUtxos: () => hold ?? Promise.resolve() });
    const { outbox, entry } = await outboxWith(txID, bytes);
    hold = new Promise<void>((r) => (release = r));
    const refresh = settleOutbox(engine, outbox, async () => undefined, () => undefined); // reads the list, then waits on the node
    await new Promise((r) => setTimeout(r, 10));
    hold = undefined;
    await expect(sendOnce(engine, outbox, entry, 50)).rejects.toMatchObject({ code: 'tx-refused' });
    release();
    await refresh;
    expect((await outbox.list()).map((e) => [e.txID, e.voided])).toEqual([[txID, true]]);
    expect(issues).toBe(1);
  });

  it('overlapping writes keep every entry', async () => {
    const outbox = new Outbox(memoryStores().local, 'outbox-overlap');
    const ids = ['a', 'b', 'c', 'd'];
    await Promise.all(ids.map((id) => outbox.put(outboxEntry('P', id, new Uint8Array([1]), item(id)))));
    expect((await outbox.list()).map((e) => e.txID).sort()).toEqual(ids);
  });
});

describe('refused sends (voided): kept until they ran or an accepted successor took their place', () => {
  const listed: ActivityItem[] = [];
  const list = async (i: ActivityItem) => void listed.push(i);

  async function voided(fate: { status: string; utxos: Utxo[] }, extra: Partial<OutboxEntry> = {}) {
    const u = utxo(2_000_000n);
    const { bytes, txID } = pTx([u]);
    const engine = engineOn({ status: () => fate.status, utxos: () => (fate.utxos.length === 0 ? [] : [u]), issue: async () => txID });
    const { outbox, entry } = await outboxWith(txID, bytes);
    await outbox.put({ ...entry, voided: true, ...extra });
    return { engine, outbox, txID, u };
  }

  it('one that ran stops the next send with that news, is listed accepted and leaves', async () => {
    const { engine, outbox, txID } = await voided({ status: 'Committed', utxos: [] });
    await expect(settleRefused(engine, outbox, 'P', false, list, () => undefined)).rejects.toMatchObject({ code: 'earlier-send-went-through' });
    expect(listed.at(-1)).toMatchObject({ txID, status: 'accepted' });
    expect(await outbox.list()).toEqual([]);
  });

  it('one whose funds are gone unexplained stops the next send once ("may have gone through"), and stays', async () => {
    const { engine, outbox, txID } = await voided({ status: 'Unknown', utxos: [] }, { replacedBy: 'a successor not (yet) accepted' });
    await expect(settleRefused(engine, outbox, 'P', false, list, () => undefined)).rejects.toMatchObject({ code: 'earlier-send-unclear' });
    expect(listed.at(-1)).toMatchObject({ txID, checking: true });
    await expect(settleRefused(engine, outbox, 'P', false, list, () => undefined)).resolves.toEqual([]);
    expect((await outbox.list()).map((e) => [e.txID, e.voided, e.surfaced])).toEqual([[txID, true, true]]);
  });

  it('one whose funds an accepted successor spent leaves quietly', async () => {
    const { engine, outbox } = await voided({ status: 'Unknown', utxos: [] }, { replacedBy: 'next' });
    await expect(settleRefused(engine, outbox, 'P', false, list, (id) => (id === 'next' ? 'accepted' : undefined))).resolves.toEqual([]);
    expect(await outbox.list()).toEqual([]);
  });

  it('one that could still run must be replaced: a new tx sharing none of its inputs is not signed', async () => {
    const { engine, outbox, txID, u } = await voided({ status: 'Unknown', utxos: [utxo(1n)] });
    const live = await settleRefused(engine, outbox, 'P', false, list, () => undefined);
    expect(live.map((e) => e.txID)).toEqual([txID]);
    expect(() => conflictsOf(live, 'P', { inputs: ['someone else'] })).toThrow(expect.objectContaining({ code: 'refused-send-in-the-way' }));
    expect(conflictsOf(live, 'P', { inputs: [utxoId(u)] })).toEqual([txID]);
  });

  it('a move\'s export is marked as the successor of those it shares an input with (refused or undecided), and only those', async () => {
    const { outbox, txID, u } = await voided({ status: 'Unknown', utxos: [utxo(1n)] });
    const other = pTx([utxo(3_000_000n)]);
    await outbox.put({ ...outboxEntry('P', other.txID, other.bytes, item(other.txID)), voided: true });
    // An undecided send (not refused) sharing an input races the export: marked too. A damaged refused one never is.
    const pending = pTx([u, utxo(5_000_000n)]);
    await outbox.put(outboxEntry('P', pending.txID, pending.bytes, item(pending.txID)));
    await outbox.put({ ...outboxEntry('P', 'damaged', new Uint8Array([1, 2, 3]), item('damaged')), voided: true });
    const exported = pTx([u, utxo(4_000_000n)]);
    expect(exportSpends('P', exported.bytes)).toEqual({ inputs: [utxoId(u), expect.any(String)] });
    const replaced = replacedByExport(await outbox.list(), 'P', exportSpends('P', exported.bytes));
    expect(replaced).toEqual([txID, pending.txID]);
    expect(replacedByExport(await outbox.list(), 'X', exportSpends('P', exported.bytes))).toEqual([]);
    await outbox.markReplaced(replaced, exported.txID);
    expect((await outbox.list()).map((e) => [e.txID, e.replacedBy])).toEqual([
      [txID, exported.txID],
      [other.txID, undefined],
      [pending.txID, exported.txID],
      ['damaged', undefined],
    ]);
  });

  it('a C-Chain move\'s export is the successor of the refused EVM send whose nonce it takes, not of others', async () => {
    const evmSend = (nonce: bigint) => {
      const signed = signEvmTx({ chainId: 43112n, nonce, to: '0x' + '11'.repeat(20), value: 1n, gasLimit: 21_000n, maxFeePerGas: 10n, maxPriorityFeePerGas: 1n }, second.secret);
      return { ...outboxEntry('C', signed.hash, fromHex(signed.rawTx.slice(2)), { ...item(signed.hash), chain: 'C' }), voided: true };
    };
    const [seven, eight] = [evmSend(7n), evmSend(8n)];
    const built = buildCExport({ ctx, from: second.evmAddress, nonce: 7n, balanceWei: 10n ** 18n, destination: 'X', amount: 1_000_000n, to: mine, baseFeeWei: 1n });
    const exported = encodeSignedTx({ unsigned: built.tx, credentials: [{ fx: 'secp', signatures: [new Uint8Array(65)] }] });
    expect(exportSpends('C', exported)).toEqual({ nonce: 7n });
    expect(replacedByExport([seven, eight], 'C', exportSpends('C', exported))).toEqual([seven.txID]);
  });

  it('what the wallet knows of a successor: accepted in Activity or the move journal, a move\'s export under way, damaged records skipped', () => {
    const moves = [
      { state: 'export-signed', createdAt: 1_000, export: { txID: 'under way', accepted: false }, imports: [] },
      { state: 'failed', createdAt: 1_000, export: { txID: 'failed move', accepted: false }, imports: [] },
      { state: 'completed', createdAt: 1_000, export: { txID: 'moved', accepted: true }, imports: [{ txID: 'imported', accepted: true }] },
      null,
      { state: 'pending' },
      { state: 'export-signed', export: 'damaged', imports: 'damaged' },
    ] as unknown as TransferRecord[];
    const names = ['sent', 'pending send', 'under way', 'failed move', 'moved', 'imported', 'unknown'];
    const activity = [{ ...item('sent'), status: 'accepted' as const }, item('pending send')];
    expect(names.map(successors(activity, moves, 1_000 + MOVING_AT_MOST - 1))).toEqual(['accepted', undefined, 'moving', undefined, 'accepted', 'accepted', undefined]);
    // A node that keeps the export "processing" does not keep it 'moving' for good.
    expect(successors(activity, moves, 1_000 + MOVING_AT_MOST)('under way')).toBeUndefined();
  });

  it('one whose funds a move\'s export under way took is not listed by a refresh until the move decided; a send is still stopped once', async () => {
    const { engine, outbox, txID } = await voided({ status: 'Unknown', utxos: [] }, { replacedBy: 'export' });
    let settled: ReadonlyMap<string, string> = new Map();
    await settleOutbox(engine, outbox, async (s) => void (settled = s), () => 'moving');
    expect(settled.has(txID)).toBe(false);
    expect((await outbox.list()).map((e) => [e.txID, e.surfaced])).toEqual([[txID, undefined]]);
    await settleOutbox(engine, outbox, async (s) => void (settled = s), () => 'accepted');
    expect(settled.get(txID)).toBe('replaced');
    expect(await outbox.list()).toEqual([]);
    const again = await voided({ status: 'Unknown', utxos: [] }, { replacedBy: 'export' });
    await expect(settleRefused(again.engine, again.outbox, 'P', false, list, () => 'moving')).rejects.toMatchObject({ code: 'earlier-send-unclear' });
  });

  it('a refresh never drops one on a node\'s "failed", by age, or on a successor not accepted', async () => {
    for (const [status, extra] of [['Dropped', {}], ['Unknown', { createdAt: 0 }]] as const) {
      const { engine, outbox, txID } = await voided({ status, utxos: [utxo(1n)] }, extra);
      await settleOutbox(engine, outbox, async () => undefined, () => undefined);
      expect((await outbox.list()).map((e) => e.txID)).toEqual([txID]);
    }
    const { engine, outbox, txID } = await voided({ status: 'Unknown', utxos: [] }, { replacedBy: 'next' });
    await settleOutbox(engine, outbox, async () => undefined, () => undefined);
    expect((await outbox.list()).map((e) => [e.txID, e.surfaced])).toEqual([[txID, true]]);
    await settleOutbox(engine, outbox, async () => undefined, (id) => (id === 'next' ? 'accepted' : undefined));
    expect(await outbox.list()).toEqual([]);
  });
});

describe('an outbox kept per chains (openOutbox)', () => {
  const entry = (txID: string) => ({ chain: 'X' as const, txID, signedHex: '00', item: {} as ActivityItem, createdAt: 1, resends: 0, voided: true });

  it("takes in the one an older version kept with the network entry, each tx once, and registers the chains for a new vault's clean-up", async () => {
    const { local } = memoryStores();
    await local.set({ 'xpc.outbox.custom-1.acc': [entry('old'), entry('both')], 'xpc.outboxchains': 'damaged' });
    const outbox = await openOutbox(local, chainsKey(5, 'X5'), 'acc', [entryOutboxKey('custom-1', 'acc')]);
    await outbox.put(entry('new'));
    const again = await openOutbox(local, chainsKey(5, 'X5'), 'acc', [entryOutboxKey('custom-2', 'acc')]);
    expect((await again.list()).map((e) => e.txID)).toEqual(['old', 'both', 'new']);
    expect(local.keys()).not.toContain('xpc.outbox.custom-1.acc');
    expect((await perChainsKeys(local, ['acc', 'other'])).outboxes).toEqual([outbox.key, outboxKey(chainsKey(5, 'X5'), 'other')]);
  });

  it('counts what could still run (sendsInTheWay): a send and a later one racing it for its funds count once; one whose rival was accepted (gone) not at all', async () => {
    const { local } = memoryStores();
    const pair = [{ ...entry('a'), voided: false, replacedBy: 'b' }, { ...entry('b'), voided: false }];
    await local.set({ k1: pair, k2: [pair[0]], k3: 'damaged' });
    expect(await sendsInTheWay(local, ['k1'])).toBe(1);
    expect(await sendsInTheWay(local, ['k2'])).toBe(0);
    expect(await sendsInTheWay(local, ['k1', 'k2', 'k3', 'absent'])).toBe(2);
  });

  it('an older one that is not a list stops the opening (storage-corrupt): what it held is unknown, and it stays as it was', async () => {
    const { local } = memoryStores();
    await local.set({ 'xpc.outbox.custom-1.acc': { not: 'a list' } });
    await expect(openOutbox(local, chainsKey(5, 'X5'), 'acc', [entryOutboxKey('custom-1', 'acc')])).rejects.toMatchObject({ code: 'storage-corrupt' });
    expect(local.keys().sort()).toEqual(['xpc.outbox.custom-1.acc', 'xpc.outboxchains']);
  });

  it("opened through one entry, takes in the older outboxes of every entry known to serve the same chains (a refused tx there is in this entry's way at once)", async () => {
    const { local } = memoryStores();
    const mainnet = PRESETS.mainnet.known!;
    const pinned = { networkID: 1, evmChainID: 43114, ...mainnet };
    const state = { ...emptyState(), accounts: [{ id: 'acc', name: 'A', kind: 'hd' as const, index: 0 }], selectedAccountId: 'acc', nextHdIndex: 1, selectedNetworkId: 'mainnet' };
    const customNetworks = [
      { id: 'custom-1', name: 'My mainnet node', url: 'http://127.0.0.1:1', atomicNamespace: 'avax', pinned },
      { id: 'custom-2', name: 'Fuji node', url: 'http://127.0.0.1:1', atomicNamespace: 'avax', pinned: { ...pinned, networkID: 5, xChainID: PRESETS.fuji.known!.xChainID } },
    ];
    await local.set({ 'xpc.state': { ...state, customNetworks }, 'xpc.outbox.custom-1.acc': [entry('refused-there')], 'xpc.outbox.custom-2.acc': [entry('on-fuji')] });
    const settings = new SettingsStore(local);
    const networks = new NetworksService(settings, local, { status: async () => Promise.reject(new Error('unused')) });
    const engines = new AccountEngines(settings, networks, {} as Keyring, new AccountCaches(local), local);
    const outbox = await engines.outbox(networks.presetOf(await settings.read(), 'mainnet'), 'acc');
    expect((await outbox.list()).map((e) => e.txID)).toEqual(['refused-there']);
    expect(local.keys()).toContain('xpc.outbox.custom-2.acc');
  });

  it("an older one that cannot be read is named by its entry, with how to clear it (removing that entry, which does); the popup shows those words", async () => {
    const { local } = memoryStores();
    const pinned = { networkID: 1, evmChainID: 43114, ...PRESETS.mainnet.known! };
    const state = { ...emptyState(), accounts: [{ id: 'acc', name: 'A', kind: 'hd' as const, index: 0 }], selectedAccountId: 'acc', nextHdIndex: 1, selectedNetworkId: 'mainnet' };
    const customNetworks = [{ id: 'custom-1', name: 'My mainnet node', url: 'http://127.0.0.1:1', atomicNamespace: 'avax', pinned }];
    await local.set({ 'xpc.state': { ...state, customNetworks }, 'xpc.outbox.custom-1.acc': { not: 'a list' } });
    const settings = new SettingsStore(local);
    const networks = new NetworksService(settings, local, { status: async () => Promise.reject(new Error('unused')) });
    const engines = new AccountEngines(settings, networks, {} as Keyring, new AccountCaches(local), local);
    const mainnet = () => settings.read().then((s) => networks.presetOf(s, 'mainnet'));
    const error = await engines.outbox(await mainnet(), 'acc').catch((e: unknown) => e as WalletError);
    expect(error).toMatchObject({ code: 'storage-corrupt' });
    const words =
      'An older record of sends for "My mainnet node" cannot be read, so the wallet stops rather than risk paying twice. Removing "My mainnet node" in Settings clears it';
    expect(plainError('storage-corrupt', (error as WalletError).message)).toEqual({ text: words });
    // The moves' journal alike.
    await local.set({ 'xpc.transfers.custom-1.acc': 7 });
    await expect(engines.journal(await mainnet(), 'acc')).rejects.toThrow('an older record of moves for "My mainnet node" cannot be read');
    await local.remove(['xpc.transfers.custom-1.acc']);
    // A built-in entry cannot be removed: named, with no advice it could not follow.
    await local.set({ 'xpc.outbox.custom-1.acc': [], 'xpc.outbox.mainnet.acc': 'damaged' });
    const custom = (await settings.read()).customNetworks[0]!;
    const builtIn = await engines.outbox(networks.presetOf(await settings.read(), custom.id), 'acc').catch((e: unknown) => e as WalletError);
    expect((builtIn as WalletError).message).toBe('an older record of sends for "Mainnet" cannot be read, so the wallet stops rather than risk paying twice');
    // Its own older record, while it is selected: removing it needs another network selected first, and says so.
    await local.set({ 'xpc.outbox.mainnet.acc': [], 'xpc.outbox.custom-1.acc': { not: 'a list' } });
    const selected = await engines.outbox(networks.presetOf(await settings.read(), custom.id), 'acc').catch((e: unknown) => e as WalletError);
    expect(plainError('storage-corrupt', (selected as WalletError).message).text).toMatch(/paying twice\. Switching to another network, then removing "My mainnet node" in Settings clears it$/);
    // Removing the entry (asked, then confirmed) clears the custom one: the outbox opens again.
    await local.set({ 'xpc.outbox.mainnet.acc': [], 'xpc.outbox.custom-1.acc': { not: 'a list' } });
    // The question says what that risks: with Mainnet selected, its next send goes without what that record held.
    await expect(networks.networksRemove({ id: 'custom-1' })).rejects.toMatchObject({
      code: 'network-has-sends',
      message: expect.stringContaining('removing it forgets them: a later send on the same network, under any entry, would not be kept from paying twice. Remove it anyway?'),
    });
    await networks.networksRemove({ id: 'custom-1', confirmLoss: true });
    expect(await (await engines.outbox(await mainnet(), 'acc')).list()).toEqual([]);
  });
});

// The outbox's decisions when the node's answers are lies or half-truths, against a scripted node
// (the same flows against the real node behind a lying proxy: test/integration/lying-node*.test.ts).
import { describe, expect, it } from 'vitest';
import { Outbox, outboxEntry, refusedMeanwhile } from '../../src/background/outbox.js';
import { sendOnce } from '../../src/background/outbox-send.js';
import { settleOutbox } from '../../src/background/outbox-settle.js';
import { conflictsOf, settleRefused } from '../../src/background/refused.js';
import { toHex } from '../../src/core/bytes.js';
import { utxoId } from '../../src/core/codec/ids.js';
import { memoryStores } from '../../src/background/storage.js';
import { encodeSignedTx, txIdBytes } from '../../src/core/codec/index.js';
import { cb58Encode } from '../../src/core/encoding.js';
import { NodeResponseError, RpcError } from '../../src/core/errors.js';
import { ctx, mine, utxo } from './pvm-test-kit.js';
import { engineOn, item, outboxWith, pImportTx, pTx } from './outbox-test-kit.js';

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

  it('a refused import, paid from what it imports, is removed, not kept in the way: no send on its chain could take its place', async () => {
    const u = utxo(2_000_000n);
    const { bytes, txID } = pImportTx([u]);
    const engine = engineOn({ status: () => 'Unknown', utxos: () => [u], issue: refused });
    const { outbox, entry } = await outboxWith(txID, bytes);
    await expect(sendOnce(engine, outbox, entry, 50)).rejects.toMatchObject({ code: 'tx-refused', message: expect.stringMatching(/refused the transaction \[node: .*upstream timed out.*\], and nothing it spends was spent$/) });
    expect(await outbox.list()).toEqual([]);
  });

  it('a refused import an older version kept voided is let go when the outbox is read: a send of the chain is not held up by it; a refused send, and an entry that cannot be read, stay', async () => {
    const atomic = utxo(2_000_000n);
    const own = utxo(3_000_000n);
    const imported = pImportTx([atomic]);
    const send = pTx([own]);
    const outbox = new Outbox(memoryStores().local, 'outbox-older');
    const voided = (txID: string, bytes: Uint8Array) => ({ ...outboxEntry('P', txID, bytes, item(txID)), voided: true });
    await outbox.put(voided(imported.txID, imported.bytes));
    await outbox.put(voided(send.txID, send.bytes));
    await outbox.put({ ...voided('damaged', new Uint8Array(1)), signedHex: 'zz' });
    expect((await outbox.list()).map((e) => e.txID)).toEqual([send.txID, 'damaged']);
    await outbox.remove('damaged');
    const engine = engineOn({ status: () => 'Unknown', utxos: () => [atomic, own], issue: refused });
    const live = await settleRefused(engine, outbox, 'P', false, async () => undefined, () => undefined);
    expect(conflictsOf(live, 'P', { inputs: [utxoId(own)], assets: [toHex(ctx.avaxAssetID)] })).toEqual([send.txID]);
  });

  it('a pending item a refresh read from the outbox was refused since if its entry is voided, or gone for an import or a C-Chain atomic tx; any other gone was decided', () => {
    const kept = { ...outboxEntry('P', 'kept', new Uint8Array(1), item('kept')), voided: true };
    const waiting = outboxEntry('P', 'waiting', new Uint8Array(1), item('waiting'));
    const now = [kept, waiting];
    expect(refusedMeanwhile(now, { txID: 'kept', chain: 'P', kind: 'send' })).toBe(true);
    expect(refusedMeanwhile(now, { txID: 'waiting', chain: 'P', kind: 'send' })).toBe(false);
    expect(refusedMeanwhile(now, { txID: 'import', chain: 'X', kind: 'import' })).toBe(true);
    expect(refusedMeanwhile(now, { txID: 'atomic', chain: 'C', kind: 'export' })).toBe(true);
    expect(refusedMeanwhile(now, { txID: 'decided', chain: 'X', kind: 'send' })).toBe(false);
    expect(refusedMeanwhile(now, { txID: `0x${'ab'.repeat(32)}`, chain: 'C', kind: 'send' })).toBe(false);
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
    expect(() => conflictsOf(live, 'P', { inputs: [utxoId(u2)], assets: [toHex(ctx.avaxAssetID)] })).toThrow(expect.objectContaining({ code: 'refused-send-in-the-way' }));
    expect(conflictsOf(live, 'P', { inputs: [utxoId(u1)], assets: [toHex(ctx.avaxAssetID)] })).toEqual([txID]);
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

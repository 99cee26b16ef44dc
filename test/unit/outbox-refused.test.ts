// Refused sends kept in the outbox (voided) until they ran or an accepted successor took their
// place: what stops the next send, and which move's export is the successor of which.
import { describe, expect, it } from 'vitest';
import { type OutboxEntry, outboxEntry } from '../../src/background/outbox.js';
import { settleOutbox } from '../../src/background/outbox-settle.js';
import { conflictsOf, exportSpends, MOVING_AT_MOST, replacedByTx, settleRefused, successors } from '../../src/background/refused.js';
import type { TransferRecord } from '../../src/background/transfer-journal.js';
import { fromHex, toHex } from '../../src/core/bytes.js';
import { buildCExport, signEvmTx } from '../../src/core/tx/c.js';
import { utxoId } from '../../src/core/codec/ids.js';
import { encodeSignedTx, type Utxo } from '../../src/core/codec/index.js';
import type { ActivityItem } from '../../src/shared/messages.js';
import { ctx, mine, second, utxo } from './pvm-test-kit.js';
import { engineOn, item, outboxWith, pTx } from './outbox-test-kit.js';

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

  it('one held again as taken back (its funds listed again after it showed accepted) is listed accepted once it ran and leaves, no send stopped; until then the next send spends what it spends', async () => {
    const fate = { status: 'Committed', utxos: [utxo(1n)] };
    const { engine, outbox, txID, u } = await voided(fate, { voided: undefined });
    await outbox.holdTakenBack((await outbox.list())[0]!);
    expect((await outbox.list()).map((e) => [e.voided, e.takenBack, e.surfaced, e.ran])).toEqual([[true, true, true, undefined]]);
    // Its funds listed, the node's "committed" proves nothing: not listed, no send stopped; the node
    // holding it, it is not live, but a send spending one of its inputs takes its place all the same.
    const before = listed.length;
    await expect(settleRefused(engine, outbox, 'P', false, list, () => undefined)).resolves.toEqual([]);
    expect(listed.length).toBe(before);
    expect(replacedByTx(await outbox.list(), 'P', { inputs: [utxoId(u)], assets: [toHex(ctx.avaxAssetID)] })).toEqual([txID]);
    expect(replacedByTx(await outbox.list(), 'P', { inputs: [utxoId(utxo(3n))], assets: [toHex(ctx.avaxAssetID)] })).toEqual([]);
    // It ran: listed accepted, gone, the send goes on.
    fate.utxos = [];
    await expect(settleRefused(engine, outbox, 'P', false, list, () => undefined)).resolves.toEqual([]);
    expect(listed.at(-1)).toMatchObject({ txID, status: 'accepted' });
    expect(await outbox.list()).toEqual([]);
    // A refresh settles it the same way: accepted, out of the outbox.
    const again = await voided({ status: 'Committed', utxos: [] }, { voided: undefined });
    await again.outbox.holdTakenBack((await again.outbox.list())[0]!);
    let settled: ReadonlyMap<string, string> = new Map();
    await settleOutbox(again.engine, again.outbox, async (s) => void (settled = s), () => undefined);
    expect(settled.get(again.txID)).toBe('accepted');
    expect(await again.outbox.list()).toEqual([]);
  });

  it("a refused one that ran, then was taken back, is held as taken back: a send of the wallet's that took its place outweighs the node calling it committed", async () => {
    const fate = { status: 'Committed', utxos: [utxo(1n)] };
    const { engine, outbox, txID } = await voided(fate, { ran: true, replacedBy: 'next' });
    await outbox.holdTakenBack((await outbox.list())[0]!);
    expect((await outbox.list()).map((e) => [e.voided, e.takenBack, e.surfaced, e.ran])).toEqual([[true, true, true, undefined]]);
    // Its funds listed: the node holds it; nothing listed, no send stopped.
    await expect(settleRefused(engine, outbox, 'P', false, list, () => undefined)).resolves.toEqual([]);
    // The send that took its place ran, and the node calls both committed: replaced, never listed accepted.
    fate.utxos = [];
    const before = listed.length;
    const replaced: string[] = [];
    const next = (id: string) => (id === 'next' ? ('accepted' as const) : undefined);
    await expect(settleRefused(engine, outbox, 'P', false, list, next, async (e) => void replaced.push(e.txID))).resolves.toEqual([]);
    expect(replaced).toEqual([txID]);
    expect(listed.length).toBe(before);
    expect(await outbox.list()).toEqual([]);
    // A refresh decides it the same way.
    const again = await voided({ status: 'Committed', utxos: [] }, { replacedBy: 'next' });
    await again.outbox.holdTakenBack((await again.outbox.list())[0]!);
    let settled: ReadonlyMap<string, string> = new Map();
    await settleOutbox(again.engine, again.outbox, async (s) => void (settled = s), next);
    expect(settled.get(again.txID)).toBe('replaced');
    expect(await again.outbox.list()).toEqual([]);
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
    expect(() => conflictsOf(live, 'P', { inputs: ['someone else'], assets: [toHex(ctx.avaxAssetID)] })).toThrow(expect.objectContaining({ code: 'refused-send-in-the-way' }));
    expect(conflictsOf(live, 'P', { inputs: [utxoId(u)], assets: [toHex(ctx.avaxAssetID)] })).toEqual([txID]);
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
    expect(exportSpends('P', exported.bytes)).toEqual({ inputs: [utxoId(u), expect.any(String)], assets: [toHex(ctx.avaxAssetID)] });
    const replaced = replacedByTx(await outbox.list(), 'P', exportSpends('P', exported.bytes));
    expect(replaced).toEqual([txID, pending.txID]);
    expect(replacedByTx(await outbox.list(), 'X', exportSpends('P', exported.bytes))).toEqual([]);
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
    expect(replacedByTx([seven, eight], 'C', exportSpends('C', exported))).toEqual([seven.txID]);
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

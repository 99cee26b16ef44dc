// The wallet service behind a node that keeps a move's X export (taken, then called "Rejected") or
// a send a move then replaces: one move runs, its funds arrive once, never "failed" while it may run.
import { describe, expect, inject, it } from 'vitest';
import { AVAX, avaxOf } from './fixture.js';
import { moveUntilDone, rewriteUtxos, transferUntil } from './lying-node.js';
import { holdingX, setUp, takesThenRejects } from './lying-node-sends.js';

describe('a node that keeps an X send it says it refused', () => {
  /** A move X → P whose export the node takes, holds and calls "Rejected" (lying-node-sends.ts takesThenRejects). */
  async function moveTakenThenRejected() {
    const set = await setUp();
    const release = takesThenRejects(set.node);
    expect(await moveUntilDone(set.wallet, 'X', 'P', AVAX)).toBe('failed');
    set.node.lies.clear();
    const pAvax = async () => BigInt((await set.wallet.balances.balancesRefresh()).balances.find((b) => b.chain === 'P')?.spendable ?? '0');
    return { ...set, pAvax, release };
  }

  /**
   * That move's retry (the same tx) started: once its export is journaled, the outbox's next write
   * (taking the first export out of the way) fails, as when the worker dies there. Its estimate and view.
   */
  async function retryStoppedBeforeOutOfTheWay({ wallet, stores }: Awaited<ReturnType<typeof moveTakenThenRejected>>) {
    const est = await wallet.transfers.transfersEstimate({ from: 'X', to: 'P', amount: AVAX.toString() });
    const write = stores.local.set.bind(stores.local);
    let journaled = false;
    stores.local.set = (items) => {
      const key = Object.keys(items).find((k) => k.startsWith('xpc.transfers.') || k.startsWith('xpc.outbox.'));
      if (key?.startsWith('xpc.transfers.') && JSON.stringify(items[key]).includes('"export-signed"')) journaled = true;
      else if (key?.startsWith('xpc.outbox.') && journaled) return (stores.local.set = write), Promise.reject(new Error('the worker stopped'));
      return write(items);
    };
    const retry = await wallet.transfers.transfersStart({ from: 'X', to: 'P', amount: AVAX.toString(), maxFee: (BigInt(est.exportFee) + BigInt(est.importFee)).toString() });
    return { est, retry };
  }

  it('a move\'s export taken, then called "Rejected": the next move takes its place, so when the node lets it go only one move runs', async () => {
    const { wallet, pAvax, release } = await moveTakenThenRejected();
    const { importFee } = await wallet.transfers.transfersEstimate({ from: 'X', to: 'P', amount: AVAX.toString() });
    expect(await moveUntilDone(wallet, 'X', 'P', AVAX)).toBe('completed');
    expect((await release()).error?.message).toMatch(/failed to get utxo .*not found/i);
    expect(await pAvax()).toBe(AVAX - BigInt(importFee));
    // Built on the same funds for the same amount, the retry's export is the first one itself: one move, one export.
    const moves = (await wallet.transfers.transfersList()).transfers;
    expect(moves.map((t) => t.state)).toEqual(['completed']);
    expect((await wallet.balances.activityList()).items.filter((i) => i.kind === 'export').map((i) => [i.txID, i.status])).toEqual([[moves[0]!.exportTxID, 'accepted']]);
  });

  it('a move\'s export taken, then called "Rejected": the same move retried through another entry for the same node is one move, not a failed one left on the first', async () => {
    const { wallet, pAvax, release } = await moveTakenThenRejected();
    const { importFee } = await wallet.transfers.transfersEstimate({ from: 'X', to: 'P', amount: AVAX.toString() });
    const first = (await wallet.networks.networksList()).selectedId;
    const second = await wallet.networks.networksAddCustom({ name: 'Test node again', url: inject('nodeUrl') });
    await wallet.networks.networksSelect({ id: second.id });
    expect(await moveUntilDone(wallet, 'X', 'P', AVAX)).toBe('completed');
    expect((await release()).error?.message).toMatch(/failed to get utxo .*not found/i);
    expect(await pAvax()).toBe(AVAX - BigInt(importFee));
    const moves = (await wallet.transfers.transfersList()).transfers;
    expect(moves.map((t) => t.state)).toEqual(['completed']);
    // Back on the first entry: its failed move was the same export, now the retry's: one move, the same there, never "failed".
    await wallet.networks.networksSelect({ id: first });
    expect((await wallet.transfers.transfersList()).transfers).toEqual(moves);
    expect((await wallet.balances.activityList()).items.filter((i) => i.txID === moves[0]!.exportTxID).map((i) => i.status)).toEqual(['accepted']);
  });

  it('a move\'s export taken, then called "Rejected": a retry of another amount takes its place; the first stays failed, never "may have gone through"', async () => {
    const { wallet, pAvax, release } = await moveTakenThenRejected();
    const { importFee } = await wallet.transfers.transfersEstimate({ from: 'X', to: 'P', amount: (2n * AVAX).toString() });
    expect(await moveUntilDone(wallet, 'X', 'P', 2n * AVAX)).toBe('completed');
    expect((await release()).error?.message).toMatch(/failed to get utxo .*not found/i);
    expect(await pAvax()).toBe(2n * AVAX - BigInt(importFee));
    const first = (await wallet.transfers.transfersList()).transfers.find((t) => t.state === 'failed');
    expect(first).toMatchObject({ exportKept: 'kept' });
    expect((await wallet.balances.activityList()).items.find((i) => i.txID === first!.exportTxID)).toMatchObject({ status: 'failed' });
  });

  it('a move\'s export taken, called "Rejected", then let go: a refresh finds it ran, and the move goes on to import its funds once', async () => {
    const { wallet, pAvax, release, send } = await moveTakenThenRejected();
    const { importFee } = await wallet.transfers.transfersEstimate({ from: 'X', to: 'P', amount: AVAX.toString() });
    const { result } = await release();
    const exportStatus = async () => (await wallet.balances.activityList()).items.find((i) => i.txID === result!.txID)?.status;
    expect(await exportStatus()).toBe('failed');
    for (let i = 0; i < 50 && (await exportStatus()) !== 'accepted'; i++) await wallet.balances.balancesRefresh();
    expect(await exportStatus()).toBe('accepted');
    await wallet.transfers.resumeTransfers();
    expect((await wallet.transfers.transfersList()).transfers.map((t) => t.state)).toEqual(['completed']);
    expect(await pAvax()).toBe(AVAX - BigInt(importFee));
    // Nothing is in the way any more: the next send goes out.
    await send();
  });

  it('a move\'s export taken, called "Rejected", then let go while another entry for the same node is used: that entry finds it ran, and the move goes on there', async () => {
    const { wallet, pAvax, release } = await moveTakenThenRejected();
    const { importFee } = await wallet.transfers.transfersEstimate({ from: 'X', to: 'P', amount: AVAX.toString() });
    const { result } = await release();
    const first = (await wallet.networks.networksList()).selectedId;
    const second = await wallet.networks.networksAddCustom({ name: 'Test node again', url: inject('nodeUrl') });
    await wallet.networks.networksSelect({ id: second.id });
    const exportStatus = async () => (await wallet.balances.activityList()).items.find((i) => i.txID === result!.txID)?.status;
    for (let i = 0; i < 50 && (await exportStatus()) !== 'accepted'; i++) await wallet.balances.balancesRefresh();
    expect(await exportStatus()).toBe('accepted');
    // Its move is this entry's too (one journal for the chains): it imports its funds from here, once.
    await wallet.transfers.resumeTransfers();
    expect((await wallet.transfers.transfersList()).transfers.map((t) => t.state)).toEqual(['completed']);
    expect(await pAvax()).toBe(AVAX - BigInt(importFee));
    await wallet.networks.networksSelect({ id: first });
    expect((await wallet.transfers.transfersList()).transfers.map((t) => t.state)).toEqual(['completed']);
  });

  it('a move\'s export taken, called "Rejected", then its funds hidden from the retry: the retry is stopped, and the first move shows it may have gone through', async () => {
    const { node, wallet, pAvax, release } = await moveTakenThenRejected();
    const { importFee } = await wallet.transfers.transfersEstimate({ from: 'X', to: 'P', amount: AVAX.toString() });
    expect((await wallet.transfers.transfersList()).transfers[0]).toMatchObject({ state: 'failed', exportKept: 'kept' });
    // The node now leaves out the 5 AVAX UTXO the first export spent, so the retry's selection cannot take it.
    node.lies.set('avm.getUTXOs', rewriteUtxos('avm', (utxos) => utxos.filter((u) => !(u.output.kind === 'TransferOutput' && u.output.amount === 5n * AVAX))));
    expect(await moveUntilDone(wallet, 'X', 'P', AVAX)).toBe('failed');
    const [first, retry] = (await wallet.transfers.transfersList()).transfers.slice().reverse();
    expect(retry).toMatchObject({ state: 'failed', error: expect.stringMatching(/may have gone through/) });
    expect(retry!.exportTxID).toBeUndefined();
    expect(first).toMatchObject({ state: 'failed', exportKept: 'unclear' });
    expect((await wallet.balances.activityList()).items.find((i) => i.txID === first!.exportTxID)).toMatchObject({ status: 'pending', checking: true });
    node.lies.clear();
    await release();
    const exportStatus = async () => (await wallet.balances.activityList()).items.find((i) => i.txID === first!.exportTxID)?.status;
    for (let i = 0; i < 50 && (await exportStatus()) !== 'accepted'; i++) await wallet.balances.balancesRefresh();
    await wallet.transfers.resumeTransfers();
    expect((await wallet.transfers.transfersList()).transfers.find((t) => t.id === first!.id)?.state).toBe('completed');
    expect(await pAvax()).toBe(AVAX - BigInt(importFee));
  });

  it('a move\'s export taken, called "Rejected": its retry (the same tx) stopped by a failed write before its move held it leaves the first export in the way, so a retry on other funds is stopped and only one move runs', async () => {
    const { node, wallet, stores, pAvax, release } = await moveTakenThenRejected();
    const est = await wallet.transfers.transfersEstimate({ from: 'X', to: 'P', amount: AVAX.toString() });
    // The retry's journal write after its first (the one holding its export, the first move's tx) fails, as when the worker dies there.
    const write = stores.local.set.bind(stores.local);
    let journalWrites = 0;
    stores.local.set = (items) => (Object.keys(items).some((k) => k.startsWith('xpc.transfers.')) && ++journalWrites === 2 ? Promise.reject(new Error('the worker stopped')) : write(items));
    const retry = await wallet.transfers.transfersStart({ from: 'X', to: 'P', amount: AVAX.toString(), maxFee: (BigInt(est.exportFee) + BigInt(est.importFee)).toString() });
    expect(await transferUntil(wallet, retry.id, (t) => t.paused !== undefined)).toMatchObject({ state: 'pending', paused: { message: 'the worker stopped' } });
    stores.local.set = write;
    // Run again with the 5 AVAX UTXO the first export spent hidden, the retry is built on other funds.
    node.lies.set('avm.getUTXOs', rewriteUtxos('avm', (utxos) => utxos.filter((u) => !(u.output.kind === 'TransferOutput' && u.output.amount === 5n * AVAX))));
    await wallet.transfers.resumeTransfers().catch(() => undefined);
    const first = (await wallet.transfers.transfersList()).transfers.find((t) => t.id !== retry.id);
    expect((await wallet.transfers.transfersList()).transfers.find((t) => t.id === retry.id)).toMatchObject({ state: 'failed', error: expect.stringMatching(/may have gone through/) });
    expect(first).toMatchObject({ state: 'failed', exportKept: 'unclear' });
    node.lies.clear();
    expect((await release()).error).toBeUndefined();
    const exportStatus = async () => (await wallet.balances.activityList()).items.find((i) => i.txID === first!.exportTxID)?.status;
    for (let i = 0; i < 50 && (await exportStatus()) !== 'accepted'; i++) await wallet.balances.balancesRefresh();
    await wallet.transfers.resumeTransfers();
    // One move's funds left the X-Chain, and arrived once.
    expect((await wallet.transfers.transfersList()).transfers.find((t) => t.id === first!.id)?.state).toBe('completed');
    expect(await pAvax()).toBe(AVAX - BigInt(est.importFee));
  });

  it('a move\'s export taken, called "Rejected": its retry (the same tx) journaled, then stopped before the first export is out of the way; the node lets it go and a refresh sees it: one move, finished once resumed', async () => {
    const set = await moveTakenThenRejected();
    const { wallet, pAvax, release } = set;
    const { est, retry } = await retryStoppedBeforeOutOfTheWay(set);
    expect(await transferUntil(wallet, retry.id, (t) => t.paused !== undefined)).toMatchObject({ state: 'export-signed', paused: { message: 'the worker stopped' } });
    // The failed move went in the write that journaled the retry: the export running now is the retry's alone.
    expect((await wallet.transfers.transfersList()).transfers.map((t) => t.id)).toEqual([retry.id]);
    const { result } = await release();
    const exportStatus = async () => (await wallet.balances.activityList()).items.filter((i) => i.txID === result!.txID).map((i) => i.status);
    for (let i = 0; i < 50 && (await exportStatus())[0] !== 'accepted'; i++) await wallet.balances.balancesRefresh();
    await wallet.transfers.resumeTransfers();
    const moves = (await wallet.transfers.transfersList()).transfers;
    expect(moves.map((t) => [t.id, t.state])).toEqual([[retry.id, 'completed']]);
    expect(await pAvax()).toBe(AVAX - BigInt(est.importFee));
    expect((await wallet.balances.activityList()).items.filter((i) => i.kind === 'export').map((i) => [i.txID, i.status])).toEqual([[moves[0]!.exportTxID, 'accepted']]);
  });

  it('a move\'s export taken, called "Rejected": while its retry (the same tx) is journaled but the first is not yet out of the way, a send never spends that export\'s funds; the move then finishes once', async () => {
    const set = await moveTakenThenRejected();
    const { wallet, pAvax, send } = set;
    const { est, retry } = await retryStoppedBeforeOutOfTheWay(set);
    await transferUntil(wallet, retry.id, (t) => t.paused !== undefined);
    // The export's funds are the move's: the send would have to spend them to take its place, so it is not sent.
    await expect(send()).rejects.toMatchObject({ code: 'refused-send-in-the-way' });
    await wallet.transfers.resumeTransfers();
    expect((await wallet.transfers.transfersList()).transfers.map((t) => [t.id, t.state])).toEqual([[retry.id, 'completed']]);
    expect(await pAvax()).toBe(AVAX - BigInt(est.importFee));
    await send();
  });

  it('a move\'s export taken, called "Rejected", then let go before the next send: that send is stopped with the news, and the move goes on', async () => {
    const { wallet, pAvax, release, send } = await moveTakenThenRejected();
    const { importFee } = await wallet.transfers.transfersEstimate({ from: 'X', to: 'P', amount: AVAX.toString() });
    await release();
    let stopped: unknown;
    for (let i = 0; i < 50 && !stopped; i++) stopped = await send().then(() => expect.unreachable('sent past an export that ran'), (e: unknown) => ((e as { code?: string }).code === 'earlier-send-went-through' ? e : undefined));
    expect(stopped).toBeDefined();
    await wallet.transfers.resumeTransfers();
    expect((await wallet.transfers.transfersList()).transfers.map((t) => t.state)).toEqual(['completed']);
    expect(await pAvax()).toBe(AVAX - BigInt(importFee));
  });

  it('a move next takes its place: when the node lets it go it cannot run, it is never listed as "may have gone through", and the next send goes out', async () => {
    const { node, wallet, bob, send } = await setUp();
    const release = holdingX(node);
    await expect(send()).rejects.toMatchObject({ code: 'tx-refused' });
    node.lies.clear();
    expect(await moveUntilDone(wallet, 'X', 'P', AVAX)).toBe('completed');
    // The move's export spent what the refused send spent.
    expect((await release()).error?.message).toMatch(/failed to get utxo .*not found/i);
    // No refresh first: the send's own look at refused sends finds it replaced by the move.
    const sent = await send();
    expect(await avaxOf(bob.engine, 'X')).toBe(AVAX);
    expect((await wallet.balances.activityList()).items.filter((i) => i.kind === 'send').map((i) => i.txID)).toEqual([sent.txID]);
  });
});

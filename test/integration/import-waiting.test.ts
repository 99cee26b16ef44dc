// "Import now" against the real node (src/background/waiting-imports.ts): a move whose import costs
// more than was approved waits and says why; Import now reviews every import it would make and,
// confirmed with those fees, finishes that move by its own run together with funds no move exported.
import { describe, expect, it } from 'vitest';
import { parseAddress } from '../../src/core/encoding.js';
import { makeOwners } from '../../src/core/tx/context.js';
import { buildXExport } from '../../src/core/tx/x.js';
import type { BalancesView } from '../../src/shared/messages.js';
import { AVAX, avaxOf, freshWallet } from './fixture.js';
import { hang, lyingNode, refreshUntilDecided, rpcError, rpcResult, transferUntil, txIdOfIssue } from './lying-node.js';
import { fundedWallet } from './wallet-fixture.js';

const pSpendable = (view: BalancesView, avax: string) => BigInt(view.balances.find((b) => b.chain === 'P' && b.assetID === avax)!.spendable);

/** Less than a P-Chain import's fee. */
const DUST = 100n;

/** Funds no move exported: `amount` sent from the genesis key's X-Chain to the account's atomic memory on `to`. */
async function exportToMe({ account, ctx, genesis }: Awaited<ReturnType<typeof fundedWallet>>, to: 'P' | 'C', amount = AVAX) {
  const me = makeOwners([parseAddress(to === 'P' ? account.pAddress : account.xAddress).bytes]);
  await genesis.issueAndWait(buildXExport({ ctx, pool: await genesis.spendable('X'), changeOwners: genesis.changeOwners, destination: to, amount, to: me }));
}

describe('Import now', () => {
  it('reviews funds no move exported and a parked move’s own, and imports exactly what was reviewed; a fee above it or a stale review signs nothing; dust is left waiting', async () => {
    const funded = await fundedWallet({ x: 10n * AVAX });
    const { wallet, avax } = funded;
    const amount = 2n * AVAX;
    const est = await wallet.transfers.transfersEstimate({ from: 'X', to: 'P', amount: amount.toString() });
    // Approved: the export's fee and one nAVAX less than the import's, as when the import's fee rose after the review.
    const maxFee = (BigInt(est.exportFee) + BigInt(est.importFee) - 1n).toString();
    const move = await wallet.transfers.transfersStart({ from: 'X', to: 'P', amount: amount.toString(), maxFee, maxExportFee: est.exportFee });
    const parked = await transferUntil(wallet, move.id, (t) => t.paused?.code === 'fee-above-approved');
    expect(parked.state).toBe('export-accepted');

    // Funds no move exported: 1 AVAX from the genesis key's X-Chain to this account's P-Chain.
    await exportToMe(funded, 'P');
    const waiting = [{ from: 'X', to: 'P', amount: (3n * AVAX).toString(), utxoCount: 2 }];
    expect((await wallet.balances.balancesRefresh()).waiting).toEqual(waiting);

    const review = await wallet.transfers.transfersEstimateImportWaiting();
    const expected = [
      { from: 'X', to: 'P', amount: (1n * AVAX).toString(), fee: expect.stringMatching(/^[1-9]\d*$/), otherAssets: false },
      { from: 'X', to: 'P', amount: amount.toString(), fee: est.importFee, otherAssets: false, moveID: move.id },
    ];
    expect(review.imports).toEqual(expected);
    expect(review.tooSmall).toEqual([]);
    expect(BigInt(review.fee)).toBe(BigInt(review.imports[0]!.fee) + BigInt(est.importFee));

    // Fees above the reviewed ones, or a review that is not the one shown: nothing is signed.
    await expect(wallet.transfers.transfersImportWaiting({ planID: review.planID, maxFee: (BigInt(review.fee) - 1n).toString() })).rejects.toMatchObject({ code: 'fee-above-approved' });
    await expect(wallet.transfers.transfersImportWaiting({ planID: review.planID, maxFee: review.fee })).rejects.toMatchObject({ code: 'review-expired' });
    const before = await wallet.balances.balancesRefresh();
    expect(before.waiting).toEqual(waiting);

    // Reviewed again; funds that arrive after the review are not in what the confirm imports.
    const again = await wallet.transfers.transfersEstimateImportWaiting();
    expect(again.imports).toEqual(expected);
    await exportToMe(funded, 'P', DUST);
    const done = await wallet.transfers.transfersImportWaiting({ planID: again.planID, maxFee: again.fee });
    expect(done).toEqual({ txIDs: [expect.any(String), expect.any(String)], failed: 0 });
    const finished = (await wallet.transfers.transfersList()).transfers.find((x) => x.id === move.id)!;
    expect(finished).toMatchObject({ state: 'completed', importFee: est.importFee, importTxIDs: [done.txIDs[1]] });
    expect(finished.paused).toBeUndefined();
    const after = await wallet.balances.balancesRefresh();
    expect(after.waiting).toEqual([{ from: 'X', to: 'P', amount: DUST.toString(), utxoCount: 1 }]);
    expect(pSpendable(after, avax)).toBe(pSpendable(before, avax) + 3n * AVAX - BigInt(again.fee));
    const items = (await wallet.balances.activityList()).items;
    expect(items.filter((i) => i.kind === 'import').map((i) => [i.txID, i.status]).sort()).toEqual(done.txIDs.map((id) => [id, 'accepted']).sort());
    // Each says what arrived (the move's as the journal lists it, the other as Import now did): together, what the balance gained.
    expect(items.filter((i) => i.kind === 'import').reduce((sum, i) => sum + BigInt(i.amount ?? 0), 0n)).toBe(pSpendable(after, avax) - pSpendable(before, avax));
    // Dust cannot pay its own import fee: it is named and left waiting, never topped up from the
    // wallet's P funds.
    const last = await wallet.transfers.transfersEstimateImportWaiting();
    expect(last).toMatchObject({ imports: [], fee: '0', tooSmall: [{ from: 'X', to: 'P', amount: DUST.toString(), utxoCount: 1 }] });
  });

  it('an import sent whose decision the node does not give in time is said to be sent and not confirmed, listed pending, and settled by a refresh', async () => {
    const node = lyingNode();
    const funded = await fundedWallet({}, { fetch: node.fetch, wait: { timeoutMs: 2_000, pollMs: 100 } });
    const { wallet, avax } = funded;
    await exportToMe(funded, 'P');
    const before = await wallet.balances.balancesRefresh();
    const review = await wallet.transfers.transfersEstimateImportWaiting();
    expect(review.imports).toHaveLength(1);
    node.lies.set('platform.getTxStatus', hang);
    const done = await wallet.transfers.transfersImportWaiting({ planID: review.planID, maxFee: review.fee });
    expect(done).toEqual({ txIDs: [], failed: 0, unconfirmed: 1 });
    const [pending] = (await wallet.balances.activityList()).items.filter((i) => i.kind === 'import');
    expect(pending).toMatchObject({ chain: 'P', status: 'pending', amount: (AVAX - BigInt(review.fee)).toString(), fee: review.fee });
    node.lies.delete('platform.getTxStatus');
    const after = await wallet.balances.balancesRefresh();
    expect(pSpendable(after, avax)).toBe(pSpendable(before, avax) + AVAX - BigInt(review.fee));
    expect((await wallet.balances.activityList()).items.find((i) => i.txID === pending!.txID)).toMatchObject({ status: 'accepted' });
  });

  it("an import is sent as every tx of the wallet's own: one swallowed and called committed is not said imported, even by a refresh, and is sent again once the node is honest; one that went through and is called dropped is said imported", async () => {
    const node = lyingNode();
    const funded = await fundedWallet({}, { fetch: node.fetch, wait: { timeoutMs: 5_000, pollMs: 100 } });
    const { wallet, avax } = funded;
    await exportToMe(funded, 'P');
    const before = await wallet.balances.balancesRefresh();

    // Swallowed, then called committed with its own bytes shown back: what it spends is still waiting.
    let held: string | undefined;
    node.lies.set('platform.issueTx', (call) => ((held = (call.params as { tx: string }).tx), Promise.resolve(rpcResult({ txID: txIdOfIssue(call) }))));
    node.lies.set('platform.getTxStatus', () => Promise.resolve(rpcResult({ status: 'Committed' })));
    node.lies.set('platform.getTx', async (_call, forward) => (held ? rpcResult({ tx: held, encoding: 'hex' }) : forward()));
    const swallowed = await wallet.transfers.transfersEstimateImportWaiting();
    expect(await wallet.transfers.transfersImportWaiting({ planID: swallowed.planID, maxFee: swallowed.fee })).toEqual({ txIDs: [], failed: 0, unconfirmed: 1 });
    const imports = async () => (await wallet.balances.activityList()).items.filter((i) => i.kind === 'import');
    const [pending] = await imports();
    expect(pending).toMatchObject({ chain: 'P', status: 'pending' });
    expect((await wallet.balances.balancesRefresh()).waiting).toEqual(before.waiting);
    expect(await imports()).toMatchObject([{ txID: pending!.txID, status: 'pending' }]);
    // Honest again: the refreshes send the same bytes, and it goes through once.
    node.lies.clear();
    expect(await refreshUntilDecided(wallet, pending!.txID)).toBe('accepted');
    const imported = await wallet.balances.balancesRefresh();
    expect(imported.waiting).toEqual([]);
    expect(pSpendable(imported, avax)).toBe(pSpendable(before, avax) + AVAX - BigInt(swallowed.fee));

    // Passed on, and called dropped once the chain has it: what it created is there.
    await exportToMe(funded, 'P');
    node.lies.set('platform.getTxStatus', async (_call, forward) => {
      const real = await forward();
      return (real.result as { status: string }).status === 'Committed' ? rpcResult({ status: 'Dropped' }) : real;
    });
    const review = await wallet.transfers.transfersEstimateImportWaiting();
    const done = await wallet.transfers.transfersImportWaiting({ planID: review.planID, maxFee: review.fee });
    expect(done).toEqual({ txIDs: [expect.any(String)], failed: 0 });
    node.lies.clear();
    const after = await wallet.balances.balancesRefresh();
    expect(after.waiting).toEqual([]);
    expect(pSpendable(after, avax)).toBe(pSpendable(imported, avax) + AVAX - BigInt(review.fee));
    expect((await imports()).map((i) => [i.txID, i.status])).toEqual([[done.txIDs[0], 'accepted'], [pending!.txID, 'accepted']]);
  });

  it('a P-Chain send the node refused, kept in the way of the next send, does not hold up Import now, which spends none of the P-Chain’s own funds; an import the node refuses is not kept in the way of the next send', async () => {
    const node = lyingNode();
    const funded = await fundedWallet({ p: 10n * AVAX }, { fetch: node.fetch, wait: { timeoutMs: 5_000, pollMs: 100 } });
    const { wallet } = funded;
    const bob = await freshWallet();
    const to = { addresses: [bob.engine.addresses('P')[0]!], threshold: 1 };
    const { fee } = await wallet.sends.sendEstimate({ chain: 'P', amount: AVAX.toString(), to });
    const sendP = () => wallet.sends.sendP({ amount: AVAX.toString(), to, maxFee: fee });
    node.lies.set('platform.issueTx', () => Promise.resolve(rpcError('mempool full')));
    await expect(sendP()).rejects.toMatchObject({ code: 'tx-refused' });
    await exportToMe(funded, 'P');
    const refused = await wallet.transfers.transfersEstimateImportWaiting();
    expect(await wallet.transfers.transfersImportWaiting({ planID: refused.planID, maxFee: refused.fee })).toEqual({ txIDs: [], failed: 1 });
    node.lies.clear();
    // More arrives: the next import takes both, a tx other than the refused one.
    await exportToMe(funded, 'P');
    const review = await wallet.transfers.transfersEstimateImportWaiting();
    expect(review.imports).toMatchObject([{ amount: (2n * AVAX).toString() }]);
    const done = await wallet.transfers.transfersImportWaiting({ planID: review.planID, maxFee: review.fee });
    expect(done).toEqual({ txIDs: [expect.any(String)], failed: 0 });
    // The refused send's place is taken by the next send, which the refused import does not stop; Bob is paid once.
    const paid = await sendP();
    expect(await refreshUntilDecided(wallet, paid.txID)).toBe('accepted');
    expect(await avaxOf(bob.engine, 'P')).toBe(AVAX);
    expect((await wallet.balances.activityList()).items.filter((i) => i.kind === 'import').map((i) => [i.txID, i.status])).toEqual([[done.txIDs[0], 'accepted']]);
  }, 60_000);

  it('C-Chain: an import the node swallowed, and the next one taking its funds with more, are tied: once the next is accepted the first reads as never run, not "may have gone through"', async () => {
    const node = lyingNode();
    const funded = await fundedWallet({}, { fetch: node.fetch, wait: { timeoutMs: 3_000, pollMs: 100 } });
    const { wallet } = funded;
    await exportToMe(funded, 'C');
    node.lies.set('avax.issueTx', (call) => Promise.resolve(rpcResult({ txID: txIdOfIssue(call) })));
    const first = await wallet.transfers.transfersEstimateImportWaiting();
    expect(first.imports).toMatchObject([{ from: 'X', to: 'C', amount: AVAX.toString() }]);
    expect(await wallet.transfers.transfersImportWaiting({ planID: first.planID, maxFee: first.fee })).toEqual({ txIDs: [], failed: 0, unconfirmed: 1 });
    const [swallowed] = (await wallet.balances.activityList()).items.filter((i) => i.kind === 'import');
    node.lies.clear();
    await exportToMe(funded, 'C');
    const next = await wallet.transfers.transfersEstimateImportWaiting();
    expect(next.imports).toMatchObject([{ from: 'X', to: 'C', amount: (2n * AVAX).toString() }]);
    const done = await wallet.transfers.transfersImportWaiting({ planID: next.planID, maxFee: next.fee });
    expect(done).toEqual({ txIDs: [expect.any(String)], failed: 0 });
    expect((await wallet.balances.balancesRefresh()).waiting).toEqual([]);
    const items = (await wallet.balances.activityList()).items.filter((i) => i.kind === 'import');
    expect(items.map((i) => [i.txID, i.status, i.replaced, i.checking])).toEqual([
      [done.txIDs[0], 'accepted', undefined, undefined],
      [swallowed!.txID, 'failed', true, undefined],
    ]);
  });
});

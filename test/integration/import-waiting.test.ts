// "Import now" against the real node (src/background/waiting-imports.ts): a move whose import costs
// more than was approved waits and says why; Import now reviews every import it would make and,
// confirmed with those fees, finishes that move by its own run together with funds no move exported.
import { describe, expect, it } from 'vitest';
import { parseAddress } from '../../src/core/encoding.js';
import { makeOwners } from '../../src/core/tx/context.js';
import { buildXExport } from '../../src/core/tx/x.js';
import type { BalancesView } from '../../src/shared/messages.js';
import { AVAX } from './fixture.js';
import { hang, lyingNode, transferUntil } from './lying-node.js';
import { fundedWallet } from './wallet-fixture.js';

const pSpendable = (view: BalancesView, avax: string) => BigInt(view.balances.find((b) => b.chain === 'P' && b.assetID === avax)!.spendable);

/** Less than a P-Chain import's fee. */
const DUST = 100n;

describe('Import now', () => {
  it('reviews funds no move exported and a parked move’s own, and imports exactly what was reviewed; a fee above it or a stale review signs nothing; dust is left waiting', async () => {
    const { wallet, account, ctx, avax, genesis } = await fundedWallet({ x: 10n * AVAX });
    const amount = 2n * AVAX;
    const est = await wallet.transfers.transfersEstimate({ from: 'X', to: 'P', amount: amount.toString() });
    // Approved: the export's fee and one nAVAX less than the import's, as when the import's fee rose after the review.
    const maxFee = (BigInt(est.exportFee) + BigInt(est.importFee) - 1n).toString();
    const move = await wallet.transfers.transfersStart({ from: 'X', to: 'P', amount: amount.toString(), maxFee, maxExportFee: est.exportFee });
    const parked = await transferUntil(wallet, move.id, (t) => t.paused?.code === 'fee-above-approved');
    expect(parked.state).toBe('export-accepted');

    // Funds no move exported: 1 AVAX from the genesis key's X-Chain to this account's P-Chain.
    const me = makeOwners([parseAddress(account.pAddress).bytes]);
    const exportToMe = async (amount: bigint) => genesis.issueAndWait(buildXExport({ ctx, pool: await genesis.spendable('X'), changeOwners: genesis.changeOwners, destination: 'P', amount, to: me }));
    await exportToMe(1n * AVAX);
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
    await exportToMe(DUST);
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
    const { wallet, account, ctx, avax, genesis } = await fundedWallet({}, { fetch: node.fetch, wait: { timeoutMs: 2_000, pollMs: 100 } });
    const me = makeOwners([parseAddress(account.pAddress).bytes]);
    await genesis.issueAndWait(buildXExport({ ctx, pool: await genesis.spendable('X'), changeOwners: genesis.changeOwners, destination: 'P', amount: AVAX, to: me }));
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
});

// "Import now" against the real node (src/background/waiting-imports.ts): a move whose import costs
// more than was approved waits and says why; Import now reviews every import it would make and,
// confirmed with those fees, finishes that move by its own run together with funds no move exported.
import { describe, expect, it } from 'vitest';
import type { Wallet } from '../../src/background/services/index.js';
import { parseAddress } from '../../src/core/encoding.js';
import { makeOwners } from '../../src/core/tx/context.js';
import { buildXExport } from '../../src/core/tx/x.js';
import type { BalancesView, TransferView } from '../../src/shared/messages.js';
import { AVAX } from './fixture.js';
import { fundedWallet } from './wallet-fixture.js';

const pSpendable = (view: BalancesView, avax: string) => BigInt(view.balances.find((b) => b.chain === 'P' && b.assetID === avax)!.spendable);

async function transferUntil(wallet: Wallet, id: string, done: (t: TransferView) => boolean): Promise<TransferView> {
  for (let i = 0; i < 300; i++) {
    const t = (await wallet.transfers.transfersList()).transfers.find((x) => x.id === id)!;
    if (done(t)) return t;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`transfer ${id} did not get there`);
}

describe('Import now', () => {
  it('reviews funds no move exported and a parked move’s own, and imports them at the reviewed fees, exactly; one nAVAX less signs nothing', async () => {
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
    await genesis.issueAndWait(buildXExport({ ctx, pool: await genesis.spendable('X'), changeOwners: genesis.changeOwners, destination: 'P', amount: 1n * AVAX, to: me }));
    const waiting = [{ from: 'X', to: 'P', amount: (3n * AVAX).toString(), utxoCount: 2 }];
    expect((await wallet.balances.balancesRefresh()).waiting).toEqual(waiting);

    const review = await wallet.transfers.transfersEstimateImportWaiting();
    expect(review.imports).toEqual([
      { from: 'X', to: 'P', amount: (1n * AVAX).toString(), fee: expect.stringMatching(/^[1-9]\d*$/), otherAssets: false },
      { from: 'X', to: 'P', amount: amount.toString(), fee: est.importFee, otherAssets: false, moveID: move.id },
    ]);
    expect(BigInt(review.fee)).toBe(BigInt(review.imports[0]!.fee) + BigInt(est.importFee));
    expect(review.tooSmall).toEqual([]);

    // Fees above the reviewed ones: nothing is signed, everything still waits.
    const below = (BigInt(review.fee) - 1n).toString();
    await expect(wallet.transfers.transfersImportWaiting({ maxFee: below })).rejects.toMatchObject({ code: 'fee-above-approved' });
    const before = await wallet.balances.balancesRefresh();
    expect(before.waiting).toEqual(waiting);

    const done = await wallet.transfers.transfersImportWaiting({ maxFee: review.fee });
    expect(done.txIDs).toHaveLength(2);
    const finished = (await wallet.transfers.transfersList()).transfers.find((x) => x.id === move.id)!;
    expect(finished).toMatchObject({ state: 'completed', importFee: est.importFee, importTxIDs: [done.txIDs[1]] });
    expect(finished.paused).toBeUndefined();
    const after = await wallet.balances.balancesRefresh();
    expect(after.waiting).toEqual([]);
    expect(pSpendable(after, avax)).toBe(pSpendable(before, avax) + 3n * AVAX - BigInt(review.fee));
    const items = (await wallet.balances.activityList()).items;
    expect(items.filter((i) => i.kind === 'import').map((i) => [i.txID, i.status]).sort()).toEqual(done.txIDs.map((id) => [id, 'accepted']).sort());
    // Nothing is left to import.
    expect(await wallet.transfers.transfersEstimateImportWaiting()).toEqual({ imports: [], fee: '0', tooSmall: [] });
  });
});

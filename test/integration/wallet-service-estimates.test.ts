// The wallet service's estimates against the real node: the fee each send, move and asset tx burns
// is the one estimated, maxAmount empties a chain, and one nAVAX less approved signs nothing.
import { describe, expect, it } from 'vitest';
import { AVAX, freshWallet, localNetwork, WEI_PER_NAVAX } from './fixture.js';
import { fundedWallet } from './wallet-fixture.js';
import { approved, spendable, waitForTransfer } from './wallet-service-kit.js';

describe('estimates against the real node', () => {
  it('send.estimate gives the fee the send burns, and a send of exactly maxAmount empties X and P', async () => {
    const { wallet, ctx, avax, account, genesis } = await fundedWallet({ x: 10n * AVAX, p: 4n * AVAX });
    const bob = await freshWallet();
    const bobX = { addresses: [bob.engine.addresses('X')[0]!], threshold: 1 };
    const bobP = { addresses: [bob.engine.addresses('P')[0]!], threshold: 1 };

    // X: a send with change, then a send of everything that is left.
    const est = await wallet.sends.sendEstimate({ chain: 'X', assetID: avax, amount: (3n * AVAX).toString(), to: bobX, memo: 'rent' });
    expect(est).toEqual({ fee: ctx.xTxFee.toString(), maxAmount: (10n * AVAX - ctx.xTxFee).toString() });
    const sent = await wallet.sends.sendX({ assetID: avax, amount: (3n * AVAX).toString(), to: bobX, memo: 'rent', maxFee: est.fee });
    expect(sent.fee).toBe(est.fee);
    expect(spendable(await wallet.balances.balancesRefresh(), 'X', avax)).toBe(7n * AVAX - BigInt(est.fee));
    const all = await wallet.sends.sendEstimate({ chain: 'X', assetID: avax, amount: '1', to: bobX });
    expect(BigInt(all.maxAmount)).toBe(7n * AVAX - 2n * ctx.xTxFee);
    const emptied = await wallet.sends.sendX({ assetID: avax, amount: all.maxAmount, to: bobX, maxFee: all.fee });
    expect(emptied.fee).toBe(all.fee);
    expect(spendable(await wallet.balances.balancesRefresh(), 'X', avax)).toBe(0n);
    await expect(wallet.sends.sendEstimate({ chain: 'X', assetID: avax, amount: '1', to: bobX })).rejects.toMatchObject({ code: 'insufficient-funds' });

    // P: the dynamic fee, estimated exactly before each send.
    const pEst = await wallet.sends.sendEstimate({ chain: 'P', amount: AVAX.toString(), to: bobP });
    expect(BigInt(pEst.fee)).toBeGreaterThan(0n);
    expect(BigInt(pEst.maxAmount)).toBeLessThan(4n * AVAX);
    const pSent = await wallet.sends.sendP({ amount: AVAX.toString(), to: bobP, maxFee: pEst.fee });
    expect(pSent.fee).toBe(pEst.fee);
    const pLeft = spendable(await wallet.balances.balancesRefresh(), 'P', avax);
    expect(pLeft).toBe(3n * AVAX - BigInt(pEst.fee));
    const pAll = await wallet.sends.sendEstimate({ chain: 'P', amount: '1', to: bobP });
    expect(BigInt(pAll.maxAmount)).toBeLessThan(pLeft);
    const pMaxEst = await wallet.sends.sendEstimate({ chain: 'P', amount: pAll.maxAmount, to: bobP });
    expect(BigInt(pMaxEst.maxAmount) + BigInt(pMaxEst.fee)).toBe(pLeft);
    const pEmptied = await wallet.sends.sendP({ amount: pAll.maxAmount, to: bobP, maxFee: pMaxEst.fee });
    expect(pEmptied.fee).toBe(pMaxEst.fee);
    expect(spendable(await wallet.balances.balancesRefresh(), 'P', avax)).toBe(0n);
    await expect(wallet.sends.sendEstimate({ chain: 'P', amount: '1', to: bobP })).rejects.toMatchObject({ code: 'insufficient-funds' });

    // C: the most the send can cost, and the wei it actually paid.
    await expect(wallet.sends.sendEstimate({ chain: 'C', to: bob.engine.evmAddress, amountWei: '1' })).rejects.toMatchObject({ code: 'insufficient-funds' });
    await genesis.sendC(account.cAddress, 2n * AVAX * WEI_PER_NAVAX);
    const cEst = await wallet.sends.sendEstimate({ chain: 'C', to: bob.engine.evmAddress, amountWei: (AVAX * WEI_PER_NAVAX).toString() });
    expect(BigInt(cEst.fee)).toBeGreaterThan(0n);
    expect(BigInt(cEst.fee) % 21_000n).toBe(0n);
    expect(BigInt(cEst.maxAmount)).toBe(2n * AVAX * WEI_PER_NAVAX - BigInt(cEst.fee));
    const cSent = await wallet.sends.sendC({ to: bob.engine.evmAddress, amountWei: (AVAX * WEI_PER_NAVAX).toString(), maxFeeWei: cEst.fee });
    expect(BigInt(cSent.fee)).toBeGreaterThan(0n);
    expect(BigInt(cSent.fee)).toBeLessThanOrEqual(BigInt(cEst.fee));
    expect(BigInt(cSent.fee) % 21_000n).toBe(0n);
    const cView = await wallet.balances.balancesRefresh();
    expect(spendable(cView, 'C', avax)).toBe(AVAX * WEI_PER_NAVAX - BigInt(cSent.fee));
    expect((await wallet.balances.activityList()).items[0]).toMatchObject({ txID: cSent.txHash, chain: 'C', fee: cSent.fee });
  });

  it('transfers.estimate gives the fees of the move that follows (X → P, X → C) and its maxAmount moves everything', async () => {
    const { wallet, ctx } = await fundedWallet({ x: 10n * AVAX });
    const est = await wallet.transfers.transfersEstimate({ from: 'X', to: 'P', amount: (2n * AVAX).toString() });
    expect(est.exportFee).toBe(ctx.xTxFee.toString());
    expect(est.maxAmount).toBe((10n * AVAX - ctx.xTxFee).toString());
    const toP = await waitForTransfer(wallet, (await wallet.transfers.transfersStart({ from: 'X', to: 'P', amount: (2n * AVAX).toString(), maxFee: approved(est) })).id);
    expect(toP).toMatchObject({ state: 'completed', exportFee: est.exportFee, importFee: est.importFee });

    const estC = await wallet.transfers.transfersEstimate({ from: 'X', to: 'C', amount: (3n * AVAX).toString() });
    expect(estC.exportFee).toBe(ctx.xTxFee.toString());
    const toC = await waitForTransfer(wallet, (await wallet.transfers.transfersStart({ from: 'X', to: 'C', amount: (3n * AVAX).toString(), maxFee: approved(estC) })).id);
    expect(toC).toMatchObject({ state: 'completed', exportFee: estC.exportFee, importFee: estC.importFee });

    // Everything on P goes back to X: the export of maxAmount leaves nothing behind.
    const back = await wallet.transfers.transfersEstimate({ from: 'P', to: 'X', amount: '1' });
    const backAll = await wallet.transfers.transfersEstimate({ from: 'P', to: 'X', amount: back.maxAmount });
    const moved = await waitForTransfer(wallet, (await wallet.transfers.transfersStart({ from: 'P', to: 'X', amount: back.maxAmount, maxFee: approved(backAll) })).id);
    expect(moved).toMatchObject({ state: 'completed', exportFee: backAll.exportFee, importFee: backAll.importFee });
    expect(spendable(await wallet.balances.balancesRefresh(), 'P', (await localNetwork()).identity.avaxAssetID)).toBe(0n);
    await expect(wallet.transfers.transfersEstimate({ from: 'P', to: 'X', amount: '1' })).rejects.toMatchObject({ code: 'insufficient-funds' });
  });

  it('never pays more than the approved fee: one nAVAX below is refused with nothing sent, the exact fee goes through', async () => {
    const { wallet, avax, account, genesis } = await fundedWallet({ x: 10n * AVAX, p: 4n * AVAX });
    const bob = await freshWallet();
    const bobX = { addresses: [bob.engine.addresses('X')[0]!], threshold: 1 };
    const bobP = { addresses: [bob.engine.addresses('P')[0]!], threshold: 1 };
    const before = await wallet.balances.balancesRefresh();
    const activityBefore = (await wallet.balances.activityList()).items.length;

    const xEst = await wallet.sends.sendEstimate({ chain: 'X', assetID: avax, amount: AVAX.toString(), to: bobX });
    const xBelow = (BigInt(xEst.fee) - 1n).toString();
    const xRefusal = await wallet.sends.sendX({ assetID: avax, amount: AVAX.toString(), to: bobX, maxFee: xBelow }).catch((e: unknown) => e);
    expect(xRefusal).toMatchObject({ code: 'fee-above-approved' });
    expect((xRefusal as Error).message).toContain(xEst.fee);
    expect((xRefusal as Error).message).toContain(xBelow);

    const pEst = await wallet.sends.sendEstimate({ chain: 'P', amount: AVAX.toString(), to: bobP });
    const pBelow = (BigInt(pEst.fee) - 1n).toString();
    const pRefusal = await wallet.sends.sendP({ amount: AVAX.toString(), to: bobP, maxFee: pBelow }).catch((e: unknown) => e);
    expect(pRefusal).toMatchObject({ code: 'fee-above-approved' });
    expect((pRefusal as Error).message).toContain(pEst.fee);

    // A move whose export alone costs more than approved fails before anything is signed.
    const tEst = await wallet.transfers.transfersEstimate({ from: 'X', to: 'P', amount: AVAX.toString() });
    const refusedMove = await waitForTransfer(wallet, (await wallet.transfers.transfersStart({ from: 'X', to: 'P', amount: AVAX.toString(), maxFee: (BigInt(tEst.exportFee) - 1n).toString() })).id);
    expect(refusedMove.state).toBe('failed');
    expect(refusedMove.exportTxID).toBeUndefined();
    expect(refusedMove.error).toContain(tEst.exportFee);

    // Nothing was sent: the balances and the activity are as they were.
    const unchanged = await wallet.balances.balancesRefresh();
    expect(spendable(unchanged, 'X', avax)).toBe(spendable(before, 'X', avax));
    expect(spendable(unchanged, 'P', avax)).toBe(spendable(before, 'P', avax));
    expect((await wallet.balances.activityList()).items).toHaveLength(activityBefore);

    // At exactly the estimated fee, both go through and pay it.
    expect((await wallet.sends.sendX({ assetID: avax, amount: AVAX.toString(), to: bobX, maxFee: xEst.fee })).fee).toBe(xEst.fee);
    expect((await wallet.sends.sendP({ amount: AVAX.toString(), to: bobP, maxFee: pEst.fee })).fee).toBe(pEst.fee);
    const after = await wallet.balances.balancesRefresh();
    expect(spendable(after, 'X', avax)).toBe(spendable(before, 'X', avax) - AVAX - BigInt(xEst.fee));
    expect(spendable(after, 'P', avax)).toBe(spendable(before, 'P', avax) - AVAX - BigInt(pEst.fee));

    // C: gas limit × max fee per gas one wei above what was approved is refused unsigned.
    await genesis.sendC(account.cAddress, 2n * AVAX * WEI_PER_NAVAX);
    const cBefore = spendable(await wallet.balances.balancesRefresh(), 'C', avax);
    const cEst = await wallet.sends.sendEstimate({ chain: 'C', to: bob.engine.evmAddress, amountWei: '1' });
    await expect(wallet.sends.sendC({ to: bob.engine.evmAddress, amountWei: '1', maxFeeWei: (BigInt(cEst.fee) - 1n).toString() })).rejects.toMatchObject({ code: 'fee-above-approved' });
    expect(spendable(await wallet.balances.balancesRefresh(), 'C', avax)).toBe(cBefore);
  });

  it('lists the NFTs and the mint rights the wallet holds; each asset tx burns the fee assets.fees gave, and one nAVAX less approved signs nothing', async () => {
    const { wallet, account, avax } = await fundedWallet({ x: 5n * AVAX });
    const me = { addresses: [account.xAddress], threshold: 1 };
    expect(await wallet.assets.assetsListNfts()).toEqual({ nfts: [] });
    expect(await wallet.assets.assetsMintRights()).toEqual({ rights: [] });
    const fees = await wallet.assets.assetsFees();
    const { ctx } = await localNetwork();
    expect(fees).toEqual({ createAsset: ctx.xCreateAssetTxFee.toString(), operation: ctx.xTxFee.toString() });
    const below = (fee: string) => (BigInt(fee) - 1n).toString();
    const xBefore = spendable(await wallet.balances.balancesRefresh(), 'X', avax);

    const refusedCreate = await wallet.assets.assetsCreate({ name: 'Pictures', symbol: 'PIC', denomination: 0, kind: 'nft', minters: [me], maxFee: below(fees.createAsset) }).catch((e: unknown) => e);
    expect(refusedCreate).toMatchObject({ code: 'fee-above-approved' });
    expect(await wallet.assets.assetsMintRights()).toEqual({ rights: [] });
    expect(spendable(await wallet.balances.balancesRefresh(), 'X', avax)).toBe(xBefore);

    const family = await wallet.assets.assetsCreate({ name: 'Pictures', symbol: 'PIC', denomination: 0, kind: 'nft', minters: [me, me], maxFee: fees.createAsset });
    const points = await wallet.assets.assetsCreate({ name: 'Points', symbol: 'PTS', denomination: 2, kind: 'variable', minters: [me], maxFee: fees.createAsset });
    expect([family.fee, points.fee]).toEqual([fees.createAsset, fees.createAsset]);
    // Each creation is listed with what it made (a review of the same asset again names it), the refused one not at all.
    const creations = (await wallet.balances.activityList()).items.filter((i) => i.kind === 'create-asset');
    expect(creations).toMatchObject([
      { txID: points.txID, status: 'accepted', created: { name: 'Points', symbol: 'PTS' } },
      { txID: family.txID, status: 'accepted', created: { name: 'Pictures', symbol: 'PIC' } },
    ]);
    const byKey = (r: { assetID: string; groupID?: number }) => `${r.assetID}/${r.groupID ?? '-'}`;
    const rights = (await wallet.assets.assetsMintRights()).rights.sort((a, b) => byKey(a).localeCompare(byKey(b)));
    expect(rights).toEqual(
      [
        { assetID: family.assetID, utxoID: expect.stringMatching(`^${family.txID}:\\d+$`), name: 'Pictures', symbol: 'PIC', denomination: 0, kind: 'nft', groupID: 0, threshold: 1, addresses: [account.xAddress] },
        { assetID: family.assetID, utxoID: expect.stringMatching(`^${family.txID}:\\d+$`), name: 'Pictures', symbol: 'PIC', denomination: 0, kind: 'nft', groupID: 1, threshold: 1, addresses: [account.xAddress] },
        { assetID: points.assetID, utxoID: expect.stringMatching(`^${points.txID}:\\d+$`), name: 'Points', symbol: 'PTS', denomination: 2, kind: 'variable', threshold: 1, addresses: [account.xAddress] },
      ].sort((a, b) => byKey(a).localeCompare(byKey(b))),
    );

    const payloadHex = Array.from(new TextEncoder().encode('a cat'), (b) => b.toString(16).padStart(2, '0')).join('');
    const group1 = rights.find((r) => r.groupID === 1)!.utxoID;
    const pointsRight = rights.find((r) => r.kind === 'variable')!.utxoID;
    await expect(wallet.assets.assetsMintNft({ assetID: family.assetID, utxoID: group1, groupID: 1, payloadHex, to: [me], maxFee: below(fees.operation) })).rejects.toMatchObject({ code: 'fee-above-approved' });
    await expect(wallet.assets.assetsMint({ assetID: points.assetID, utxoID: pointsRight, amount: '500', to: me, maxFee: below(fees.operation) })).rejects.toMatchObject({ code: 'fee-above-approved' });
    expect((await wallet.assets.assetsMintRights()).rights).toHaveLength(3);
    expect((await wallet.assets.assetsMintNft({ assetID: family.assetID, utxoID: group1, groupID: 1, payloadHex, to: [me], maxFee: fees.operation })).fee).toBe(fees.operation);
    expect((await wallet.assets.assetsMint({ assetID: points.assetID, utxoID: pointsRight, amount: '500', to: me, maxFee: fees.operation })).fee).toBe(fees.operation);
    const { nfts } = await wallet.assets.assetsListNfts();
    expect(nfts).toEqual([{ utxoID: expect.stringMatching(/:\d+$/), assetID: family.assetID, groupID: 1, payloadHex, name: 'Pictures', symbol: 'PIC' }]);
    // Minting a variable-cap asset keeps its right; an NFT group's right is spent by its mint.
    const after = (await wallet.assets.assetsMintRights()).rights;
    expect(after.map(byKey).sort()).toEqual([`${family.assetID}/0`, `${points.assetID}/-`].sort());

    const bob = await freshWallet();
    const toBob = { addresses: [bob.engine.addresses('X')[0]!], threshold: 1 };
    await expect(wallet.assets.assetsTransferNft({ utxoID: nfts[0]!.utxoID, to: toBob, maxFee: below(fees.operation) })).rejects.toMatchObject({ code: 'fee-above-approved' });
    expect((await wallet.assets.assetsListNfts()).nfts).toHaveLength(1);
    expect((await wallet.assets.assetsTransferNft({ utxoID: nfts[0]!.utxoID, to: toBob, maxFee: fees.operation })).fee).toBe(fees.operation);
    expect(await wallet.assets.assetsListNfts()).toEqual({ nfts: [] });
    // Two creations and three operations, nothing for the refused ones.
    expect(spendable(await wallet.balances.balancesRefresh(), 'X', avax)).toBe(xBefore - 2n * BigInt(fees.createAsset) - 3n * BigInt(fees.operation));
  });
});

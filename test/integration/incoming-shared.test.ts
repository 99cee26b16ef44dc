// Funds sent to the account on X and P, as Activity lists them, against the real node: only what
// the account's own keys can spend is news of money received.
import { describe, expect, it } from 'vitest';
import { parseAddress } from '../../src/core/encoding.js';
import { makeOwners } from '../../src/core/tx/context.js';
import { ownSpendable } from '../../src/popup/format.js';
import { lockedLine, sharedLine, totalAvaxWei } from '../../src/popup/screens/Home.js';
import { AVAX, freshKey, freshWallet, WEI_PER_NAVAX } from './fixture.js';
import { fundedWallet } from './wallet-fixture.js';

describe('funds received on X', () => {
  it('an output the account cannot spend alone (2-of-2 with a stranger) is neither a balance nor "Received"', async () => {
    const { wallet, account, ctx, avax, genesis } = await fundedWallet({ x: AVAX });
    const mine = parseAddress(account.xAddress).bytes;
    const shared = await genesis.issueAndWait(await genesis.buildXSend([{ assetID: ctx.avaxAssetID, amount: 1000n * AVAX, owners: makeOwners([mine, freshKey().shortId], 2) }]));
    const plain = await genesis.issueAndWait(await genesis.buildXSend([{ assetID: ctx.avaxAssetID, amount: 2n * AVAX, owners: makeOwners([mine]) }]));
    const view = await wallet.balances.balancesRefresh();
    expect(view.balances.find((b) => b.chain === 'X' && b.assetID === avax)).toMatchObject({ spendable: (3n * AVAX).toString(), locked: '0' });
    const received = (await wallet.balances.activityList()).items.filter((i) => i.kind === 'receive');
    expect(received.find((i) => i.txID === plain.txID)).toMatchObject({ amount: (2n * AVAX).toString() });
    expect(received.find((i) => i.txID === shared.txID)).toBeUndefined();
  });
});

describe('funds shared with a stranger (1-of-2: the account or the stranger)', () => {
  it('are shown apart on Home (not in the spendable figures or the total), said so in the receipt, and still spendable by a send', async () => {
    const { wallet, account, ctx, avax } = await fundedWallet({ x: 2n * AVAX, p: 3n * AVAX });
    const stranger = await freshWallet({ x: 20n * AVAX, p: 20n * AVAX });
    const strangerKey = stranger.receive[0]!.shortId;
    const both = (address: string) => makeOwners([parseAddress(address).bytes, strangerKey], 1);
    const xTx = await stranger.engine.issueAndWait(await stranger.engine.buildXSend([{ assetID: ctx.avaxAssetID, amount: 7n * AVAX, owners: both(account.xAddress) }]));
    const pTx = await stranger.engine.issueAndWait(await stranger.engine.buildPSend(5n * AVAX, both(account.pAddress)));
    const view = await wallet.balances.balancesRefresh();
    const x = view.balances.find((b) => b.chain === 'X' && b.assetID === avax)!;
    const p = view.balances.find((b) => b.chain === 'P')!;
    // The wallet can sign for all of it; the shared part is named apart.
    expect(x).toMatchObject({ spendable: (9n * AVAX).toString(), shared: (7n * AVAX).toString() });
    expect(p).toMatchObject({ spendable: (8n * AVAX).toString(), shared: (5n * AVAX).toString() });
    // Home: the plain figures and the all-chains total are the account's own; a line says the rest.
    expect(ownSpendable(x)).toBe(2n * AVAX);
    expect(ownSpendable(p)).toBe(3n * AVAX);
    expect(totalAvaxWei(view)).toBe(5n * AVAX * WEI_PER_NAVAX);
    expect(sharedLine(x)).toContain('7 AVAX shared: another key can also spend it');
    expect(sharedLine(p)).toContain('5 AVAX shared');
    // Activity: listed as received, with the shared part said.
    const received = (await wallet.balances.activityList()).items.filter((i) => i.kind === 'receive');
    expect(received.find((i) => i.txID === xTx.txID)).toMatchObject({ amount: (7n * AVAX).toString(), shared: (7n * AVAX).toString() });
    expect(received.find((i) => i.txID === pTx.txID)).toMatchObject({ amount: (5n * AVAX).toString(), shared: (5n * AVAX).toString() });

    // Still the account's to send: 8 AVAX out of 2 own + 7 shared (the change is the account's alone).
    const to = { addresses: [stranger.engine.addresses('X')[1]!], threshold: 1 };
    await wallet.sends.sendX({ assetID: avax, amount: (8n * AVAX).toString(), to, maxFee: ctx.xTxFee.toString() });
    const after = (await wallet.balances.balancesRefresh()).balances.find((b) => b.chain === 'X' && b.assetID === avax)!;
    expect(after.spendable).toBe((AVAX - ctx.xTxFee).toString());
    expect(after.shared).toBeUndefined();
  });

  it('when also time-locked, are shown in the locked line as shared and left out of the total', async () => {
    const { wallet, account, ctx, avax } = await fundedWallet({ x: 2n * AVAX });
    const stranger = await freshWallet({ x: 20n * AVAX });
    const strangerKey = stranger.receive[0]!.shortId;
    const inAnHour = BigInt(Math.floor(Date.now() / 1000) + 3600);
    const mine = parseAddress(account.xAddress).bytes;
    await stranger.engine.issueAndWait(
      await stranger.engine.buildXSend([
        { assetID: ctx.avaxAssetID, amount: 7n * AVAX, owners: makeOwners([mine, strangerKey], 1, inAnHour) },
        { assetID: ctx.avaxAssetID, amount: 4n * AVAX, owners: makeOwners([mine], 1, inAnHour) },
      ]),
    );
    const view = await wallet.balances.balancesRefresh();
    const x = view.balances.find((b) => b.chain === 'X' && b.assetID === avax)!;
    expect(x).toMatchObject({ spendable: (2n * AVAX).toString(), locked: (11n * AVAX).toString(), sharedLocked: (7n * AVAX).toString() });
    expect(x.shared).toBeUndefined();
    // The account's own: 2 spendable + 4 time-locked; the 7 the stranger can take at unlock are not.
    expect(totalAvaxWei(view)).toBe(6n * AVAX * WEI_PER_NAVAX);
    expect(lockedLine(x)).toBe('+ 11 AVAX time-locked: spendable once its lock time passes. 7 AVAX of it is shared: another key can take it once it unlocks, so your total leaves it out');
  });
});

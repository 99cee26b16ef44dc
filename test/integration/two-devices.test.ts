// One recovery phrase in two places at once: this wallet on a laptop and on a desktop (two
// backgrounds over their own storage), or this wallet beside another that hands out its own
// addresses (the web wallet, Core's accounts). Each refresh finds what the other left.
import { describe, expect, it } from 'vitest';
import { formatAddress, parseAddress } from '../../src/core/encoding.js';
import { deriveXpKey, generateMnemonic, HdRoot, mnemonicToSeed } from '../../src/core/keys.js';
import { makeOwners } from '../../src/core/tx/context.js';
import { AVAX, freshKey, genesisEngine, localNetwork } from './fixture.js';
import { phraseWallet } from './wallet-fixture.js';

/** A background with `mnemonic`, on the test node, refreshed once (its first scan). */
async function device(mnemonic: string) {
  const { wallet, account } = await phraseWallet(mnemonic);
  await wallet.balances.balancesRefresh();
  return { wallet, account };
}

describe('one recovery phrase on two devices', () => {
  it("shows on one device the change the other's sends left at change addresses it never handed out, and spends it", async () => {
    const { ctx, identity } = await localNetwork();
    const mnemonic = generateMnemonic(12);
    const laptop = await device(mnemonic);
    const genesis = await genesisEngine();
    await genesis.issueAndWait(await genesis.buildXSend([{ assetID: ctx.avaxAssetID, amount: 10n * AVAX, owners: makeOwners([parseAddress(laptop.account.xAddress).bytes]) }]));
    await laptop.wallet.balances.balancesRefresh();
    const desktop = await device(mnemonic);
    const xOf = (view: { balances: { chain: string; assetID: string; spendable: string }[] }) => view.balances.find((b) => b.chain === 'X' && b.assetID === identity.avaxAssetID)?.spendable;

    // Two sends on the desktop: the second's change is at change address 1, which the laptop never handed out.
    const stranger = { addresses: [formatAddress('X', ctx.hrp, freshKey().shortId)], threshold: 1 };
    for (let i = 0; i < 2; i++) {
      await desktop.wallet.sends.sendX({ assetID: identity.avaxAssetID, amount: AVAX.toString(), to: stranger, maxFee: ctx.xTxFee.toString() });
    }
    const left = (10n - 2n) * AVAX - 2n * ctx.xTxFee;
    expect(xOf(await desktop.wallet.balances.balancesRefresh())).toBe(left.toString());
    expect(xOf(await laptop.wallet.balances.balancesRefresh())).toBe(left.toString());
    // Listed as the account's own tx made elsewhere, and the laptop can spend it.
    const { items } = await laptop.wallet.balances.activityList();
    expect(items.filter((a) => a.kind === 'receive' && a.chain === 'X').at(0)).toMatchObject({ amount: left.toString(), ownKeys: true });
    await laptop.wallet.sends.sendX({ assetID: identity.avaxAssetID, amount: AVAX.toString(), to: stranger, maxFee: ctx.xTxFee.toString() });
    expect(xOf(await desktop.wallet.balances.balancesRefresh())).toBe((left - AVAX - ctx.xTxFee).toString());
  });

  it('shows funds another wallet received at a later receive address after the first scan (the web wallet, Core account 4)', async () => {
    const { ctx, identity } = await localNetwork();
    const mnemonic = generateMnemonic(12);
    const { wallet } = await device(mnemonic);
    const root = HdRoot.fromSeed(await mnemonicToSeed(mnemonic));
    const genesis = await genesisEngine();
    await genesis.issueAndWait(await genesis.buildXSend([{ assetID: ctx.avaxAssetID, amount: 3n * AVAX, owners: makeOwners([deriveXpKey(root, 0, 0, 3).shortId]) }]));
    const view = await wallet.balances.balancesRefresh();
    expect(view.balances.find((b) => b.chain === 'X' && b.assetID === identity.avaxAssetID)?.spendable).toBe((3n * AVAX).toString());
  });
});

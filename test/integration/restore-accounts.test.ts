// A restored phrase brings back the accounts it has used, found on the test node.
import { describe, expect, it } from 'vitest';
import { cacheKey } from '../../src/background/account-cache.js';
import { parseAddress } from '../../src/core/encoding.js';
import { formatEvmAddress } from '../../src/core/evm-address.js';
import { deriveEvmKey, deriveXpKey, HdRoot, mnemonicToSeed } from '../../src/core/keys.js';
import { makeOwners } from '../../src/core/tx/context.js';
import { AVAX, freshWallet, genesisEngine, localNetwork, WEI_PER_NAVAX } from './fixture.js';
import { phraseWallet } from './wallet-fixture.js';

describe('restoring a recovery phrase', () => {
  it('adds back each account after the first while it has been used (X/P funds, a C-Chain balance), stopping at the first unused one', async () => {
    const { ctx, identity } = await localNetwork();
    const { wallet, mnemonic } = await phraseWallet();

    // Account 2 holds X funds at its second receive address, Account 3 a C-Chain balance; Account 4
    // is unused, so Account 5's funds stay out of the list.
    const root = HdRoot.fromSeed(await mnemonicToSeed(mnemonic));
    const genesis = await genesisEngine();
    const toX = (account: number, index: number) => genesis.buildXSend([{ assetID: ctx.avaxAssetID, amount: 2n * AVAX, owners: makeOwners([deriveXpKey(root, account, 0, index).shortId]) }]);
    await genesis.issueAndWait(await toX(1, 1));
    await genesis.sendC(formatEvmAddress(deriveEvmKey(root, 2).evmAddress), AVAX * WEI_PER_NAVAX);
    await genesis.issueAndWait(await toX(4, 0));
    await wallet.accounts.walletLock();

    const status = await wallet.accounts.walletRestore({ password: 'a new password', mnemonic });
    expect(status.accountsNotSearched).toBeUndefined();
    const { accounts } = await wallet.accounts.accountsList();
    expect(accounts.map((a) => [a.name, a.index])).toEqual([
      ['Account 1', 0],
      ['Account 2', 1],
      ['Account 3', 2],
    ]);
    expect(parseAddress(accounts[1]!.xAddress).bytes).toEqual(deriveXpKey(root, 1, 0, 0).shortId);

    // Account 2 is back with its funds; "Add account" goes on with the next one.
    await wallet.accounts.accountsSelect({ id: accounts[1]!.id });
    const view = await wallet.balances.balancesRefresh();
    expect(view.balances.find((b) => b.chain === 'X' && b.assetID === identity.avaxAssetID)?.spendable).toBe((2n * AVAX).toString());
    expect((await wallet.accounts.accountsAdd({ name: 'Account 4' })).index).toBe(3);
  });

  it('finds the change of an account that has sent many times: change stays within the first gap of change addresses, where the scan looks', async () => {
    const { ctx, identity } = await localNetwork();
    const { wallet, stores, mnemonic, network, account } = await phraseWallet();
    const genesis = await genesisEngine();
    await genesis.issueAndWait(await genesis.buildXSend([{ assetID: ctx.avaxAssetID, amount: 10n * AVAX, owners: makeOwners([parseAddress(account.xAddress).bytes]) }]));
    await wallet.balances.balancesRefresh();
    // As after 18 sends, each spending the change of the one before: change addresses 0 to 17 empty.
    const key = cacheKey(network.id, account.id);
    await stores.local.set({ [key]: { ...((await stores.local.get([key]))[key] as object), changeNext: 18 } });
    const bob = await freshWallet();
    for (let i = 0; i < 3; i++) {
      await wallet.sends.sendX({ assetID: identity.avaxAssetID, amount: AVAX.toString(), to: { addresses: [bob.engine.addresses('X')[0]!], threshold: 1 }, maxFee: ctx.xTxFee.toString() });
    }
    expect(((await stores.local.get([key]))[key] as { changeNext: number }).changeNext).toBe(19);
    const left = (10n - 3n) * AVAX - 3n * ctx.xTxFee;

    await wallet.accounts.walletLock();
    await wallet.accounts.walletRestore({ password: 'a new password', mnemonic });
    const view = await wallet.balances.balancesRefresh();
    expect(view.balances.find((b) => b.chain === 'X' && b.assetID === identity.avaxAssetID)?.spendable).toBe(left.toString());
  });

  it('adds back an account whose funds are all at a later change address (where its sends left them)', async () => {
    const { ctx } = await localNetwork();
    const { wallet, mnemonic } = await phraseWallet();
    const root = HdRoot.fromSeed(await mnemonicToSeed(mnemonic));
    const genesis = await genesisEngine();
    await genesis.issueAndWait(await genesis.buildXSend([{ assetID: ctx.avaxAssetID, amount: 2n * AVAX, owners: makeOwners([deriveXpKey(root, 1, 1, 12).shortId]) }]));
    await wallet.accounts.walletLock();
    await wallet.accounts.walletRestore({ password: 'a new password', mnemonic });
    expect((await wallet.accounts.accountsList()).accounts.map((a) => a.index)).toEqual([0, 1]);
  });
});

// A damaged per-account cache (storage.local `xpc.cache.<network>.<account>`: bit rot, a truncated
// write, a version that kept it in another shape) must not lock the user out of the account: it is
// read as no cache, and the next refresh rebuilds it from the node, keeping the address indices it
// still holds. One damaged inside loses only what is damaged.
import { describe, expect, it } from 'vitest';
import { cacheKey, entryJournalKey } from '../../src/background/account-cache.js';
import { deriveXpKey, HdRoot, mnemonicToSeed } from '../../src/core/keys.js';
import { makeOwners } from '../../src/core/tx/context.js';
import { AVAX, genesisEngine, localNetwork } from './fixture.js';
import { moveUntilDone } from './lying-node.js';
import { fundedWallet, phraseWallet } from './wallet-fixture.js';

describe('a damaged account cache', () => {
  it('is rebuilt from the node: balances, a send estimate and the Activity list work again', async () => {
    const { wallet, stores, account, avax } = await fundedWallet({ x: 3n * AVAX });
    const { network } = await wallet.accounts.walletStatus();
    const key = cacheKey(network.id, account.id);
    expect((await stores.local.get([key]))[key]).toBeDefined();

    for (const damaged of ['{"pHeight":"12","receiveN', { pHeight: '12', balances: null }, [], { balances: {}, activity: 'x' }]) {
      await stores.local.set({ [key]: damaged });
      const view = await wallet.balances.balancesRefresh();
      expect(view.error).toBeUndefined();
      expect(view.balances.find((b) => b.chain === 'X' && b.assetID === avax)?.spendable).toBe((3n * AVAX).toString());
      const estimate = await wallet.sends.sendEstimate({ chain: 'X', assetID: avax, amount: AVAX.toString(), to: { addresses: [account.xAddress], threshold: 1 } });
      expect(BigInt(estimate.fee)).toBeGreaterThan(0n);
      expect(Array.isArray((await wallet.balances.activityList()).items)).toBe(true);
    }
  });

  it('damaged inside (an Activity item, the balances, a height): only what is damaged is dropped; refresh, sends and the rest of Activity work', async () => {
    const { wallet, stores, account, avax, ctx } = await fundedWallet({ x: 3n * AVAX });
    const { network } = await wallet.accounts.walletStatus();
    const key = cacheKey(network.id, account.id);
    const to = { addresses: [account.xAddress], threshold: 1 };
    const sent = await wallet.sends.sendX({ assetID: avax, amount: AVAX.toString(), to, maxFee: ctx.xTxFee.toString() });
    const c = (await stores.local.get([key]))[key] as { activity: unknown[]; balances: object };
    const damage = [
      { activity: [null, ...c.activity, { txID: 7 }] },
      { balances: { ...c.balances, balances: null } },
      { balances: { ...c.balances, balances: [null] } },
      { pHeight: 'x', heightsBefore: { X: 'x', P: '1' } },
      // Its status damaged: asked about again, never dropped (Sent before needs it).
      { activity: c.activity.map((a) => ({ ...(a as object), status: 'garbage' })) },
      // An ID no node can be asked about (the item is dropped); an amount or fee that is no number (dropped from the item).
      { activity: [{ txID: 'garbage', chain: 'X', kind: 'send', status: 'pending', createdAt: 1 }, { txID: [`0x${'ab'.repeat(32)}`], chain: 'C', kind: 'send', status: 'pending', createdAt: 1 }, ...c.activity.map((a) => ({ ...(a as object), amount: '-1', fee: 7 }))] },
    ];
    for (const damaged of damage) {
      await stores.local.set({ [key]: { ...c, ...damaged } });
      // What Home shows before the refresh: the last snapshot, or none.
      expect((await wallet.balances.balancesGet({})).balances.every((x) => x.chain !== undefined)).toBe(true);
      const view = await wallet.balances.balancesRefresh();
      expect(view.error).toBeUndefined();
      expect(view.balances.find((b) => b.chain === 'X' && b.assetID === avax)?.spendable).toBe((3n * AVAX - ctx.xTxFee).toString());
      const { items } = await wallet.balances.activityList();
      expect(items.find((i) => i.txID === sent.txID)).toMatchObject({ kind: 'send', status: 'accepted' });
      expect(items.map((i) => i.txID)).not.toContain('garbage');
      for (const i of items) for (const n of [i.amount, i.fee, i.shared]) expect(n === undefined || /^\d+$/.test(n)).toBe(true);
      for (const i of items) expect(typeof i.txID).toBe('string');
    }
    await wallet.sends.sendX({ assetID: avax, amount: AVAX.toString(), to, maxFee: ctx.xTxFee.toString() });
  });

  it('keeps the address indices it still holds: funds at a change address past 20 empty ones stay counted', async () => {
    const { ctx, identity } = await localNetwork();
    const { wallet, stores, mnemonic, network, account } = await phraseWallet();
    await wallet.balances.balancesRefresh();
    const key = cacheKey(network.id, account.id);
    // As after 30 sends: change addresses 0 to 29 handed out, the earlier ones spent since.
    const c = (await stores.local.get([key]))[key] as Record<string, unknown>;
    await stores.local.set({ [key]: { ...c, changeNext: 30 } });
    const root = HdRoot.fromSeed(await mnemonicToSeed(mnemonic));
    const genesis = await genesisEngine();
    await genesis.issueAndWait(await genesis.buildXSend([{ assetID: ctx.avaxAssetID, amount: 2n * AVAX, owners: makeOwners([deriveXpKey(root, 0, 1, 25).shortId]) }]));
    const xAvax = async () => (await wallet.balances.balancesRefresh()).balances.find((b) => b.chain === 'X' && b.assetID === identity.avaxAssetID)?.spendable;
    expect(await xAvax()).toBe((2n * AVAX).toString());
    // Only the Activity list is damaged; the indices are intact.
    const now = (await stores.local.get([key]))[key] as Record<string, unknown>;
    await stores.local.set({ [key]: { ...now, activity: 'x' } });
    expect(await xAvax()).toBe((2n * AVAX).toString());
  });

  it('a damaged move among the others (not an object, no state or imports, unreadable bytes) is skipped: the list, a C-Chain send, a new move and the refresh work', async () => {
    const { wallet, stores, account } = await fundedWallet({ x: 10n * AVAX });
    expect(await moveUntilDone(wallet, 'X', 'C', 3n * AVAX)).toBe('completed');
    const key = stores.local.keys().find((k) => k.startsWith('xpc.transfers.') && k.endsWith(account.id))!;
    const records = (await stores.local.get([key]))[key] as { id: string }[];
    const unreadable = { ...records[0], id: 'unreadable', from: 'C', state: 'export-signed', export: { chain: 'C', txID: 'x', signedHex: 'zz', fee: '1', accepted: false }, imports: [] };
    await stores.local.set({ [key]: [null, 7, { id: 'no-state', from: 'C' }, unreadable, ...records] });
    expect((await wallet.transfers.transfersList()).transfers.map((t) => t.id)).toContain(records[0]!.id);
    const to = `0x${'11'.repeat(20)}`;
    const est = await wallet.sends.sendEstimate({ chain: 'C', to, amountWei: '1' });
    expect((await wallet.sends.sendC({ to, amountWei: '1', maxFeeWei: est.fee })).txHash).toMatch(/^0x/);
    expect(await moveUntilDone(wallet, 'C', 'X', AVAX)).toBe('completed');
    expect((await wallet.balances.balancesRefresh()).error).toBeUndefined();
  });

  it('a damaged record of moves stops only moves: balances and sends still work', async () => {
    const { wallet, stores, account, avax } = await fundedWallet({ x: 3n * AVAX });
    const { network } = await wallet.accounts.walletStatus();
    await stores.local.set({ [entryJournalKey(network.id, account.id)]: 'x' });
    const view = await wallet.balances.balancesRefresh();
    expect(view.balances.find((b) => b.chain === 'X' && b.assetID === avax)?.spendable).toBe((3n * AVAX).toString());
    const estimate = await wallet.sends.sendEstimate({ chain: 'X', assetID: avax, amount: AVAX.toString(), to: { addresses: [account.xAddress], threshold: 1 } });
    expect(BigInt(estimate.fee)).toBeGreaterThan(0n);
  });
});

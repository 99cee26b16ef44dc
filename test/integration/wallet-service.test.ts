import { describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { memoryStores } from '../../src/background/storage.js';
import { VaultLockedError, WrongPasswordError } from '../../src/background/vault.js';
import type { Wallet } from '../../src/background/services/index.js';
import { cb58Encode, formatAddress, parseAddress } from '../../src/core/encoding.js';
import { generateMnemonic } from '../../src/core/keys.js';
import { makeOwners } from '../../src/core/tx/context.js';
import type { BalancesView } from '../../src/shared/messages.js';
import { AVAX, freshWallet, GENESIS_KEY, genesisEngine, localNetwork, WEI_PER_NAVAX } from './fixture.js';
import { fundedWallet, PASSWORD, startBackground } from './wallet-fixture.js';

function spendable(view: BalancesView, chain: 'X' | 'P' | 'C', assetID: string): bigint {
  return BigInt(view.balances.find((b) => b.chain === chain && b.assetID === assetID)?.spendable ?? '0');
}

/** What the user approves for a move: both estimated fees. */
/** Waits past the second a block was stamped in, so a time the wallet took itself cannot equal it. */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function approved(est: { exportFee: string; importFee: string }): string {
  return (BigInt(est.exportFee) + BigInt(est.importFee)).toString();
}

async function waitForTransfer(wallet: Wallet, id: string) {
  for (let i = 0; i < 200; i++) {
    const t = (await wallet.transfers.transfersList()).transfers.find((x) => x.id === id)!;
    if (t.state === 'completed' || t.state === 'failed') return t;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('transfer did not finish');
}

describe('the wallet service against the real node', () => {
  it('creates a wallet, shows exact balances, sends, moves funds, survives a worker restart and locks', async () => {
    const { ctx, identity, client } = await localNetwork();
    const avax = identity.avaxAssetID;
    const stores = memoryStores();
    let { wallet } = await startBackground(stores);
    expect((await wallet.accounts.walletStatus()).vault).toBe('none');

    const created = await wallet.accounts.walletCreate({ password: PASSWORD, mnemonic: generateMnemonic(24) });
    expect(created.vault).toBe('unlocked');
    // The atomic API under the seed documents' name `native`, which real nodes do not serve: refused
    // in words at the field, and nothing saved (it would otherwise fail every refresh as "unreachable").
    await expect(wallet.networks.networksAddCustom({ name: 'Wrong API', url: inject('nodeUrl'), atomicNamespace: 'native' })).rejects.toMatchObject({ code: 'validation', field: 'atomicNamespace' });
    expect((await wallet.networks.networksList()).networks.map((n) => n.name)).not.toContain('Wrong API');
    const network = await wallet.networks.networksAddCustom({ name: 'Test node', url: inject('nodeUrl') });
    const status = await wallet.networks.networksSelect({ id: network.id });
    const account = status.account!;
    expect(account.xAddress).toMatch(/^X-custom1/);
    expect(account.cAddress).toMatch(/^0x[0-9a-fA-F]{40}$/);

    // Fund it from the genesis key, as anyone paying this wallet would.
    const genesis = await genesisEngine();
    const me = makeOwners([parseAddress(account.xAddress).bytes]);
    await genesis.issueAndWait(await genesis.buildXSend([{ assetID: ctx.avaxAssetID, amount: 10n * AVAX, owners: me }]));
    await genesis.issueAndWait(await genesis.buildPSend(4n * AVAX, me));

    const first = await wallet.balances.balancesRefresh();
    expect(spendable(first, 'X', avax)).toBe(10n * AVAX);
    expect(spendable(first, 'P', avax)).toBe(4n * AVAX);
    expect(first.balances.find((b) => b.chain === 'X')).toMatchObject({ symbol: 'AVAX', denomination: 9, verified: true });

    // Send on X: exact to the fee; the activity list has it, accepted, with its fee.
    const bob = await freshWallet();
    const bobX = bob.engine.addresses('X')[0]!;
    const sent = await wallet.sends.sendX({ assetID: avax, amount: (3n * AVAX).toString(), to: { addresses: [bobX], threshold: 1 }, memo: 'thanks', maxFee: ctx.xTxFee.toString() });
    expect(BigInt(sent.fee)).toBe(ctx.xTxFee);
    const afterSend = await wallet.balances.balancesRefresh();
    expect(spendable(afterSend, 'X', avax)).toBe(7n * AVAX - ctx.xTxFee);
    const activity = (await wallet.balances.activityList()).items;
    expect(activity[0]).toMatchObject({ txID: sent.txID, kind: 'send', status: 'accepted', memo: 'thanks', to: bobX, fee: ctx.xTxFee.toString() });

    // A wrong-chain address is named before anything is built.
    await expect(wallet.sends.sendX({ assetID: avax, amount: '1', to: { addresses: [account.pAddress], threshold: 1 }, maxFee: ctx.xTxFee.toString() })).rejects.toThrow(/P-Chain address/);

    // Incoming funds the wallet did not create show up in the activity, at the time of their block
    // (the newest block holds the tx: nothing else runs on this node now), not when the wallet looked.
    const acceptedAt = async (chain: 'X' | 'P', txID: string) => {
      const block = await client.blocks[chain].summaryAt(await client.blocks[chain].height());
      expect(block.txIDs).toContain(txID);
      return block.timeMs;
    };
    const xReceipt = await genesis.issueAndWait(await genesis.buildXSend([{ assetID: ctx.avaxAssetID, amount: 1n * AVAX, owners: me }]));
    const xTime = await acceptedAt('X', xReceipt.txID);
    await sleep(1100);
    await wallet.balances.balancesRefresh();
    // Found by its ID: a block's time has whole seconds, so a send in the same second may list above it.
    const xItem = (await wallet.balances.activityList()).items.find((i) => i.txID === xReceipt.txID);
    expect(xItem).toMatchObject({ kind: 'receive', chain: 'X', txID: xReceipt.txID, amount: (1n * AVAX).toString(), status: 'accepted', createdAt: xTime });
    expect(xItem?.timeIsDiscovery).toBeUndefined();
    // Its sender: the key that signed the tx, recovered from the tx itself.
    expect(xItem?.from).toEqual([formatAddress('X', ctx.hrp, GENESIS_KEY.shortId)]);
    expect(xItem?.ownKeys).toBeUndefined();
    // On the P-Chain too (the P funds the wallet started with were its past, not listed as news).
    const pReceipt = await genesis.issueAndWait(await genesis.buildPSend(AVAX / 2n, me));
    const pTime = await acceptedAt('P', pReceipt.txID);
    await sleep(1100);
    await wallet.balances.balancesRefresh();
    const received = (await wallet.balances.activityList()).items.filter((i) => i.kind === 'receive');
    expect(received.find((i) => i.txID === pReceipt.txID)).toMatchObject({ kind: 'receive', chain: 'P', txID: pReceipt.txID, amount: (AVAX / 2n).toString(), status: 'accepted', createdAt: pTime });
    expect(received.filter((i) => i.chain === 'P')).toHaveLength(1);
    // On the C-Chain: AVAX another account sent, at its block's time, with its sender.
    const cValue = AVAX * WEI_PER_NAVAX / 4n;
    const { hash } = await genesis.sendC(account.cAddress, cValue);
    const receipt = await client.eth.getTransactionReceipt(hash);
    const cBlock = await client.eth.getBlockByNumber(receipt!.blockNumber);
    await wallet.balances.balancesRefresh();
    const cItem = (await wallet.balances.activityList()).items.find((i) => i.txID === hash);
    expect(cItem).toMatchObject({ kind: 'receive', chain: 'C', amount: cValue.toString(), status: 'accepted', createdAt: Number(cBlock!.timestamp) * 1000 });
    expect(cItem?.from?.map((a) => a.toLowerCase())).toEqual([genesis.evmAddress.toLowerCase()]);

    // A move X → P through the journal.
    const moveEst = await wallet.transfers.transfersEstimate({ from: 'X', to: 'P', amount: (2n * AVAX).toString() });
    const move = await wallet.transfers.transfersStart({ from: 'X', to: 'P', amount: (2n * AVAX).toString(), maxFee: (BigInt(moveEst.exportFee) + BigInt(moveEst.importFee)).toString() });
    const done = await waitForTransfer(wallet, move.id);
    expect(done.state).toBe('completed');
    const afterMove = await wallet.balances.balancesRefresh();
    expect(spendable(afterMove, 'X', avax)).toBe(8n * AVAX - ctx.xTxFee - 2n * AVAX - BigInt(done.exportFee!));
    expect(spendable(afterMove, 'P', avax)).toBe(4n * AVAX + AVAX / 2n + 2n * AVAX - BigInt(done.importFee!));
    // The move is in the activity: its import newest, then its export with the amount. The export's
    // X change came from the wallet's own tx: the refresh does not take it for a receipt.
    const afterMoveActivity = (await wallet.balances.activityList()).items;
    expect(afterMoveActivity.slice(0, 3)).toEqual([
      expect.objectContaining({ txID: done.importTxIDs[0], chain: 'P', kind: 'import', status: 'accepted', amount: (2n * AVAX - BigInt(done.importFee!)).toString(), fee: done.importFee }),
      expect.objectContaining({ txID: done.exportTxID, chain: 'X', kind: 'export', status: 'accepted', amount: (2n * AVAX).toString(), assetID: avax, fee: done.exportFee }),
      expect.objectContaining({ kind: 'receive', chain: 'C', txID: hash }),
    ]);
    expect(afterMoveActivity.filter((i) => i.txID === done.exportTxID)).toHaveLength(1);

    // The worker is stopped: everything in memory goes. The new one is still unlocked and shows
    // the last snapshot at once, without asking the node.
    ({ wallet } = await startBackground(stores));
    expect((await wallet.accounts.walletStatus()).vault).toBe('unlocked');
    const cached = await wallet.balances.balancesGet({});
    expect(cached.updatedAt).toBe(afterMove.updatedAt);
    expect(spendable(cached, 'P', avax)).toBe(spendable(afterMove, 'P', avax));

    // Locked means locked: no signing, and the next worker starts locked too.
    await wallet.accounts.walletLock();
    expect((await wallet.accounts.walletStatus()).vault).toBe('locked');
    await expect(wallet.sends.sendP({ amount: '1', to: { addresses: [account.pAddress], threshold: 1 }, maxFee: '1000000' })).rejects.toBeInstanceOf(VaultLockedError);
    const restarted = await startBackground(stores);
    wallet = restarted.wallet;
    expect(restarted.session.isUnlocked()).toBe(false);
    await expect(wallet.accounts.walletUnlock({ password: 'wrong password' })).rejects.toBeInstanceOf(WrongPasswordError);
    expect((await wallet.accounts.walletUnlock({ password: PASSWORD })).vault).toBe('unlocked');
  });

  it('keeps each network’s state apart: switching shows the other network’s own snapshot', async () => {
    const { identity, ctx } = await localNetwork();
    const stores = memoryStores();
    const { wallet } = await startBackground(stores);
    await wallet.accounts.walletCreate({ password: PASSWORD, mnemonic: generateMnemonic(12) });
    const a = await wallet.networks.networksAddCustom({ name: 'Node A', url: inject('nodeUrl') });
    const { account } = await wallet.networks.networksSelect({ id: a.id });
    const genesis = await genesisEngine();
    await genesis.issueAndWait(await genesis.buildXSend([{ assetID: ctx.avaxAssetID, amount: 2n * AVAX, owners: makeOwners([parseAddress(account!.xAddress).bytes]) }]));
    const onA = await wallet.balances.balancesRefresh();
    expect(spendable(onA, 'X', identity.avaxAssetID)).toBe(2n * AVAX);

    const b = await wallet.networks.networksAddCustom({ name: 'Node B', url: inject('nodeUrl') });
    await wallet.networks.networksSelect({ id: b.id });
    expect(await wallet.balances.balancesGet({})).toMatchObject({ updatedAt: 0, balances: [] });
    expect((await wallet.balances.activityList()).items).toEqual([]);
    await wallet.networks.networksSelect({ id: a.id });
    expect((await wallet.balances.balancesGet({})).updatedAt).toBe(onA.updatedAt);
  });

  it('wallet.open answers the status with the cached balances of the account it names, starting no refresh; locked, no balances', async () => {
    const { identity } = await localNetwork();
    const { wallet } = await fundedWallet({ x: 3n * AVAX });
    const cached = await wallet.balances.balancesGet({});
    const opened = await wallet.accounts.walletOpen();
    expect(opened.status).toEqual(await wallet.accounts.walletStatus());
    expect(opened.balances).toMatchObject({ updatedAt: cached.updatedAt, balances: cached.balances });
    expect(spendable(opened.balances!, 'X', identity.avaxAssetID)).toBe(3n * AVAX);
    // No refresh of its own: its work would compete with the popup's loading (the popup asks once painted).
    expect(opened.balances!.refreshing).toBe(false);
    expect((await wallet.balances.balancesGet({})).refreshing).toBe(false);
    // Read for an account or network no longer selected (switched in between): no balances.
    expect(await wallet.balances.balancesFor('another-account', opened.status.network.id)).toBeNull();
    expect(await wallet.balances.balancesFor(opened.status.account!.id, 'another-network')).toBeNull();
    await wallet.accounts.walletLock();
    expect(await wallet.accounts.walletOpen()).toEqual({ status: await wallet.accounts.walletStatus(), balances: null });
  });

  it('refuses a node it cannot reach, and stays where it was', async () => {
    const stores = memoryStores();
    const { wallet } = await startBackground(stores);
    await wallet.accounts.walletCreate({ password: PASSWORD, mnemonic: generateMnemonic(12) });
    const a = await wallet.networks.networksAddCustom({ name: 'Node A', url: inject('nodeUrl') });
    await wallet.networks.networksSelect({ id: a.id });
    const before = await wallet.networks.networksList();
    // Port 9 on loopback (discard): nothing answers JSON-RPC there.
    await expect(wallet.networks.networksAddCustom({ name: 'Nowhere', url: 'http://127.0.0.1:9' })).rejects.toMatchObject({ code: 'node-unreachable' });
    expect(await wallet.networks.networksList()).toEqual(before);
    expect((await wallet.accounts.walletStatus()).network.id).toBe(a.id);
  });

  it('drops a network’s cached state when its first blocks are others (a restarted local network), never for a height alone (a lagging node)', async () => {
    const stores = memoryStores();
    const { wallet } = await startBackground(stores);
    await wallet.accounts.walletCreate({ password: PASSWORD, mnemonic: generateMnemonic(12) });
    const network = await wallet.networks.networksAddCustom({ name: 'Test node', url: inject('nodeUrl') });
    const { account } = await wallet.networks.networksSelect({ id: network.id });
    await wallet.balances.balancesRefresh();
    const key = `xpc.cache.${network.id}.${account!.id}`;
    const cache = (await stores.local.get([key]))[key] as { pHeight: string; pBlocks?: string[]; activity: unknown[]; receiveNext: number; changeNext: number };
    // The genesis block was recorded by the first refresh.
    expect(cache.pBlocks?.length).toBeGreaterThanOrEqual(1);
    const ghost = { txID: cb58Encode(new Uint8Array(32).fill(7)), chain: 'X', kind: 'send', status: 'accepted', createdAt: 0 };
    // The stakes recorded on the chain go with it (finished: the refresh does not follow them).
    const stakesKey = `xpc.stakes.${network.id}.${account!.id}`;
    const stake = { txID: ghost.txID, kind: 'delegation', nodeID: 'NodeID-x', amount: '1', state: 'finished', settled: 'paid', rewardOwner: { addresses: [], threshold: 1 }, rewards: [], byWallet: true, createdAt: 0 };
    // Written when the chain was far higher, on this same chain: the node only lags. Nothing goes.
    // So does the token scan: its blocks are the chain's (kept, it would never read a new chain below them).
    const scanKey = `xpc.tokenscan.${network.id}.${account!.id}`;
    const scan = { fromBlock: '0', toBlock: '999999999', transfers: [] };
    await stores.local.set({ [key]: { ...cache, pHeight: '999999999', activity: [ghost] }, [stakesKey]: { version: 1, stakes: [stake] }, [scanKey]: scan });
    await wallet.balances.balancesRefresh();
    expect((await wallet.balances.activityList()).items.map((i) => i.txID)).toEqual([ghost.txID]);
    expect(await stores.local.get([stakesKey, scanKey])).toEqual({ [stakesKey]: { version: 1, stakes: [stake] }, [scanKey]: scan });
    // Written on another chain (another genesis): a restarted network.
    await stores.local.set({
      [key]: { ...cache, pHeight: '999999999', pBlocks: ['11111111111111111111111111111111LpoYY'], receiveNext: 4, changeNext: 3, activity: [ghost] },
    });
    await wallet.balances.balancesRefresh();
    expect((await wallet.balances.activityList()).items).toEqual([]);
    expect(await stores.local.get([stakesKey, scanKey])).toEqual({});
    // The wallet's own address indices are not part of what went stale.
    const after = (await stores.local.get([key]))[key] as { pHeight: string; receiveNext: number; changeNext: number };
    expect(after).toMatchObject({ receiveNext: 4, changeNext: 3 });
    expect(BigInt(after.pHeight)).toBeLessThan(999999999n);
  });
});

/** A fetch for the wallet that runs `hook.run` once, before the first call of `method` goes to the node. */
function onceBefore(method: string): { run?: () => Promise<unknown>; fetch: typeof fetch } {
  const hook: { run?: () => Promise<unknown>; fetch: typeof fetch } = {
    fetch: async (input, init) => {
      const run = hook.run;
      if (run && typeof init?.body === 'string' && init.body.includes(`"${method}"`)) {
        hook.run = undefined;
        await run();
      }
      return fetch(input, init);
    },
  };
  return hook;
}

describe('a send and a balance refresh that overlap', () => {
  it('the send keeps what a refresh saved while it waited for its tx', async () => {
    const whileWaiting = onceBefore('avm.getTxStatus');
    const { wallet, ctx, avax } = await fundedWallet({ x: 10n * AVAX }, { fetch: whileWaiting.fetch });
    const before = await wallet.balances.balancesGet({});
    let refreshed: BalancesView | undefined;
    whileWaiting.run = async () => {
      refreshed = await wallet.balances.balancesRefresh();
    };
    const bob = await freshWallet();
    const sent = await wallet.sends.sendX({ assetID: avax, amount: AVAX.toString(), to: { addresses: [bob.engine.addresses('X')[0]!], threshold: 1 }, maxFee: ctx.xTxFee.toString() });
    expect(refreshed!.updatedAt).toBeGreaterThan(before.updatedAt);
    expect((await wallet.balances.balancesGet({})).updatedAt).toBe(refreshed!.updatedAt);
    expect((await wallet.balances.activityList()).items.filter((i) => i.txID === sent.txID)).toEqual([expect.objectContaining({ kind: 'send', status: 'accepted' })]);
  });
});

describe('a refresh and a send that overlap', () => {
  it('a refresh that started before a send finished keeps the send, not a "Received" for its change', async () => {
    // The refresh's first question to the node (the P-Chain height) waits until the send is done.
    const whileRefreshing = onceBefore('platform.getHeight');
    const { wallet, ctx, avax } = await fundedWallet({ x: 10n * AVAX }, { fetch: whileRefreshing.fetch });
    const bob = await freshWallet();
    let sent: { txID: string } | undefined;
    whileRefreshing.run = async () => {
      sent = await wallet.sends.sendX({ assetID: avax, amount: AVAX.toString(), to: { addresses: [bob.engine.addresses('X')[0]!], threshold: 1 }, maxFee: ctx.xTxFee.toString() });
    };
    const refreshed = await wallet.balances.balancesRefresh();
    expect(sent).toBeDefined();
    // The refresh saw the node after the send: its balance, and the send as the send, once.
    expect(spendable(refreshed, 'X', avax)).toBe(10n * AVAX - AVAX - ctx.xTxFee);
    expect((await wallet.balances.activityList()).items.filter((i) => i.txID === sent!.txID)).toEqual([expect.objectContaining({ kind: 'send', status: 'accepted', amount: AVAX.toString() })]);
    expect((await wallet.balances.balancesGet({})).updatedAt).toBe(refreshed.updatedAt);
  });
});

describe('restore over a wallet with a move under way', () => {
  it('stops the move before replacing the vault: nothing of the old account is journaled afterwards', async () => {
    const { wallet, stores } = await fundedWallet({ x: 10n * AVAX });
    const est = await wallet.transfers.transfersEstimate({ from: 'X', to: 'P', amount: AVAX.toString() });
    await wallet.transfers.transfersStart({ from: 'X', to: 'P', amount: AVAX.toString(), maxFee: approved(est) });
    const journals = () => stores.local.keys().filter((k) => k.startsWith('xpc.transfers.'));
    expect(journals()).toHaveLength(1);
    const restore = { password: PASSWORD, mnemonic: generateMnemonic(12) };
    await expect(wallet.accounts.walletRestore(restore)).rejects.toMatchObject({ code: 'restore-would-drop', restoreLoss: { importedKeys: 0, unfinishedTransfers: 1 } });
    await wallet.accounts.walletRestore({ ...restore, confirmLoss: true });
    // Long enough for the move to have finished had it kept running.
    await new Promise((r) => setTimeout(r, 4_000));
    expect(journals()).toEqual([]);
  });
});

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

describe('funds from a tx only the account\'s own keys signed, made outside this list', () => {
  it('a send made through another network entry for the same node: its change is listed there as received from yourself, with its signer', async () => {
    const { wallet, account, ctx, avax } = await fundedWallet({ x: 3n * AVAX });
    const first = (await wallet.networks.networksList()).selectedId;
    const second = await wallet.networks.networksAddCustom({ name: 'Test node again', url: inject('nodeUrl') });
    // The second entry's first look: what is there is the past, not news.
    await wallet.networks.networksSelect({ id: second.id });
    await wallet.balances.balancesRefresh();
    await wallet.networks.networksSelect({ id: first });
    const bob = await freshWallet();
    const sent = await wallet.sends.sendX({ assetID: avax, amount: AVAX.toString(), to: { addresses: [bob.engine.addresses('X')[0]!], threshold: 1 }, maxFee: ctx.xTxFee.toString() });
    await wallet.networks.networksSelect({ id: second.id });
    await wallet.balances.balancesRefresh();
    const items = (await wallet.balances.activityList()).items.filter((i) => i.txID === sent.txID);
    expect(items).toMatchObject([{ kind: 'receive', ownKeys: true, amount: (2n * AVAX - ctx.xTxFee).toString(), from: [account.xAddress] }]);
  });
});

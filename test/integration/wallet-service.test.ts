// The wallet service against the real node: a wallet's whole life (create, fund, send, move, restart,
// lock), networks kept apart, wallet.open, an unreachable node, a restarted network's stale state.
import { describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { memoryStores } from '../../src/background/storage.js';
import { VaultLockedError, WrongPasswordError } from '../../src/background/vault.js';
import { cb58Encode, formatAddress, parseAddress } from '../../src/core/encoding.js';
import { generateMnemonic } from '../../src/core/keys.js';
import { makeOwners } from '../../src/core/tx/context.js';
import { AVAX, freshWallet, GENESIS_KEY, genesisEngine, localNetwork, WEI_PER_NAVAX } from './fixture.js';
import { fundedWallet, PASSWORD, startBackground } from './wallet-fixture.js';
import { spendable, waitForTransfer } from './wallet-service-kit.js';

/** Waits past the second a block was stamped in, so a time the wallet took itself cannot equal it. */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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

    // Each network has a name of its own: another's (in other letters), or a built-in one's, is refused and nothing is added.
    const before = (await wallet.networks.networksList()).networks.length;
    await expect(wallet.networks.networksAddCustom({ name: 'NODE  a', url: inject('nodeUrl') })).rejects.toMatchObject({ code: 'validation', field: 'name', message: expect.stringContaining('another network is named “Node A”') });
    await expect(wallet.networks.networksAddCustom({ name: 'local network', url: inject('nodeUrl') })).rejects.toMatchObject({ code: 'validation', field: 'name' });
    expect((await wallet.networks.networksList()).networks).toHaveLength(before);
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

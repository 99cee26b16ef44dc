import { describe, expect, it } from 'vitest';
import { toHex } from '../../src/core/bytes.js';
import { utxoId } from '../../src/core/codec/ids.js';
import { cb58Encode, parseId } from '../../src/core/encoding.js';
import { ValidationError } from '../../src/core/errors.js';
import { makeOwners } from '../../src/core/tx/context.js';
import { parseAddress } from '../../src/core/encoding.js';
import { fixedCapState, nftFamilyState, variableCapState } from '../../src/core/tx/x.js';
import { AVAX, avaxOf, freshWallet, localNetwork, spendableOf } from './fixture.js';
import { fundedWallet } from './wallet-fixture.js';

describe('the X-Chain asset studio against the real node', () => {
  it('creates a fixed-cap asset with several holders and the node describes it', async () => {
    const { ctx, client } = await localNetwork();
    const alice = await freshWallet({ x: 5n * AVAX });
    const bob = await freshWallet();
    const issued = await alice.engine.issueAndWait(
      await alice.engine.buildXCreateAsset({
        name: 'Fixed Supply', symbol: 'FIX', denomination: 6,
        initialStates: [fixedCapState([{ owners: alice.me, amount: 600n }, { owners: bob.me, amount: 400n }])],
      }),
    );
    const asset = parseId(issued.txID);
    expect(await client.avm.getAssetDescription(issued.txID)).toMatchObject({ name: 'Fixed Supply', symbol: 'FIX', denomination: 6 });
    expect(await spendableOf(alice.engine, 'X', asset)).toBe(600n);
    expect(await spendableOf(bob.engine, 'X', asset)).toBe(400n);
    expect(await avaxOf(alice.engine, 'X')).toBe(5n * AVAX - ctx.xCreateAssetTxFee);
  });

  it('creates a variable-cap asset, mints to another address, keeps the mint right, and refuses a mint without the minter key', async () => {
    const { ctx } = await localNetwork();
    const alice = await freshWallet({ x: 5n * AVAX });
    const bob = await freshWallet({ x: 1n * AVAX });
    const created = await alice.engine.issueAndWait(
      await alice.engine.buildXCreateAsset({ name: 'Points', symbol: 'PTS', denomination: 0, initialStates: [variableCapState([alice.me])] }),
    );
    const asset = parseId(created.txID);
    const mintRight = () => alice.engine.assetUtxos(asset).then((us) => us.find((u) => u.output.kind === 'MintOutput')!);

    await alice.engine.issueAndWait(await alice.engine.buildXMint(await mintRight(), 5_000n, bob.me));
    await alice.engine.issueAndWait(await alice.engine.buildXMint(await mintRight(), 7n, bob.me));
    expect(await spendableOf(bob.engine, 'X', asset)).toBe(5_007n);
    expect(await avaxOf(alice.engine, 'X')).toBe(5n * AVAX - ctx.xCreateAssetTxFee - 2n * ctx.xTxFee);

    // Bob holds tokens but not the mint right: refused before anything is signed.
    await expect(bob.engine.buildXMint(await mintRight(), 1n, bob.me)).rejects.toThrow(ValidationError);
  });

  it('creates an NFT family, mints with a 1024-byte payload, refuses 1025, and transfers the NFT', async () => {
    const alice = await freshWallet({ x: 5n * AVAX });
    const bob = await freshWallet();
    const created = await alice.engine.issueAndWait(
      await alice.engine.buildXCreateAsset({ name: 'Pictures', symbol: 'PIC', denomination: 0, initialStates: [nftFamilyState([alice.me, alice.me])] }),
    );
    const family = parseId(created.txID);
    const mintRights = (await alice.engine.assetUtxos(family)).filter((u) => u.output.kind === 'NftMintOutput');
    expect(mintRights).toHaveLength(2);

    const payload = Uint8Array.from({ length: 1024 }, (_, i) => i % 251);
    await expect(alice.engine.buildXNftMint(mintRights[0]!, new Uint8Array(1025), [alice.me])).rejects.toThrow(/1024/);
    await alice.engine.issueAndWait(await alice.engine.buildXNftMint(mintRights[0]!, payload, [alice.me]));

    const nft = (await alice.engine.assetUtxos(family)).find((u) => u.output.kind === 'NftTransferOutput')!;
    expect(nft.output.kind === 'NftTransferOutput' && toHex(nft.output.payload)).toBe(toHex(payload));
    await expect(bob.engine.buildXNftTransfer(nft, bob.me)).rejects.toThrow(ValidationError);
    await alice.engine.issueAndWait(await alice.engine.buildXNftTransfer(nft, makeOwners([bob.receive[0]!.shortId])));

    const bobs = (await bob.engine.assetUtxos(family)).filter((u) => u.output.kind === 'NftTransferOutput');
    expect(bobs).toHaveLength(1);
    expect(bobs[0]!.output.kind === 'NftTransferOutput' && toHex(bobs[0]!.output.payload)).toBe(toHex(payload));
    expect((await alice.engine.assetUtxos(family)).filter((u) => u.output.kind === 'NftTransferOutput')).toHaveLength(0);
  });

  it('a mint right the wallet holds only one of two keys of is never used: refused in words (no ID), nothing signed or spent', async () => {
    const { wallet, account, avax } = await fundedWallet({ x: 2n * AVAX });
    const bob = await freshWallet({ x: 5n * AVAX });
    const alice = parseAddress(account.xAddress).bytes;
    // Bob's asset: its mint right needs Bob and Alice both; Bob's family: group 0 is Alice's alone.
    const shared = await bob.engine.issueAndWait(
      await bob.engine.buildXCreateAsset({ name: 'Shared', symbol: 'SHR', denomination: 0, initialStates: [variableCapState([makeOwners([alice, bob.me.addresses[0]!], 2)])] }),
    );
    const family = await bob.engine.issueAndWait(await bob.engine.buildXCreateAsset({ name: 'Art', symbol: 'ART', denomination: 0, initialStates: [nftFamilyState([makeOwners([alice])])] }));
    await wallet.balances.balancesRefresh();
    const fees = await wallet.assets.assetsFees();
    const xAvax = async () => (await wallet.balances.balancesRefresh()).balances.find((b) => b.chain === 'X' && b.assetID === avax)?.spendable;
    const xBefore = await xAvax();
    expect((await wallet.assets.assetsMintRights()).rights.map((r) => `${r.symbol}/${r.groupID ?? '-'}`)).toEqual(['ART/0']);

    const me = { addresses: [account.xAddress], threshold: 1 };
    // Each named by its own UTXO: the shared right (Bob's key needed too), an AVAX UTXO, group 0's right asked for as group 1's.
    const { client } = await localNetwork();
    const held = (await client.getAllUtxos('X', [account.xAddress])).utxos;
    const idOf = (match: (u: (typeof held)[number]) => boolean) => utxoId(held.find(match)!);
    const [sharedRight, group0, avaxUtxo] = [shared.txID, family.txID].map((tx) => idOf((u) => cb58Encode(u.txID) === tx)).concat(idOf((u) => cb58Encode(u.assetID) === avax));
    // One at a time: each is asked only once the one before it has been answered.
    for (const refused of [
      () => wallet.assets.assetsMint({ assetID: shared.txID, utxoID: sharedRight!, amount: '5', to: me, maxFee: fees.operation }),
      () => wallet.assets.assetsMint({ assetID: avax, utxoID: avaxUtxo!, amount: '5', to: me, maxFee: fees.operation }),
      () => wallet.assets.assetsMintNft({ assetID: family.txID, utxoID: group0!, groupID: 1, payloadHex: '00', to: [me], maxFee: fees.operation }),
    ]) {
      const e = (await refused().catch((x: unknown) => x)) as ValidationError;
      expect(e).toBeInstanceOf(ValidationError);
      expect(e.message).toMatch(/^this wallet cannot sign for that (mint right|NFT mint right for group 1) of this asset \(it may have been used since the review\); nothing was signed$/);
    }
    const items = (await wallet.balances.activityList()).items;
    expect(items.filter((i) => i.kind === 'mint' || i.kind === 'nft-mint')).toEqual([]);
    expect(await xAvax()).toBe(xBefore);
  });

  it('two mint rights of one asset (one the wallet holds alone, one shared with another key): the mint spends the one listed and reviewed, or the one named; one used since is refused, nothing signed', async () => {
    const { wallet, account, genesis } = await fundedWallet({ x: 2n * AVAX });
    const { client } = await localNetwork();
    const alice = parseAddress(account.xAddress).bytes;
    // The shared minter set first: the first right a search meets may well be it.
    const created = await genesis.issueAndWait(
      await genesis.buildXCreateAsset({ name: 'Twin', symbol: 'TWN', denomination: 0, initialStates: [variableCapState([makeOwners([alice, new Uint8Array(20).fill(0x5a)]), makeOwners([alice])])] }),
    );
    await wallet.balances.balancesRefresh();
    const fees = await wallet.assets.assetsFees();
    const me = { addresses: [account.xAddress], threshold: 1 };
    /** The asset's mint rights on the node: the wallet's alone, and the shared one. */
    const onChain = async () => {
      const rights = (await client.getAllUtxos('X', [account.xAddress])).utxos.filter((u) => u.output.kind === 'MintOutput');
      const ids = (n: number) => rights.filter((u) => u.output.kind === 'MintOutput' && u.output.owners.addresses.length === n).map(utxoId);
      return { alone: ids(1), shared: ids(2) };
    };
    const before = await onChain();
    expect([before.alone.length, before.shared.length]).toEqual([1, 1]);

    // Listed (and so reviewed): one right, the one the wallet holds alone, by its UTXO.
    const { rights } = await wallet.assets.assetsMintRights();
    expect(rights.map((r) => [r.utxoID, r.threshold, r.addresses])).toEqual([[before.alone[0], 1, [account.xAddress]]]);
    await wallet.assets.assetsMint({ assetID: created.txID, utxoID: rights[0]!.utxoID, amount: '5', to: me, maxFee: fees.operation });
    const first = await onChain();
    expect(first.shared).toEqual(before.shared);
    expect(first.alone).not.toEqual(before.alone);

    // The shared one, named: that one is spent, the wallet's own kept.
    await wallet.assets.assetsMint({ assetID: created.txID, utxoID: before.shared[0]!, amount: '5', to: me, maxFee: fees.operation });
    const second = await onChain();
    expect(second.alone).toEqual(first.alone);
    expect(second.shared).not.toEqual(before.shared);

    // The right reviewed first is gone: refused in words, nothing signed or spent.
    const e = (await wallet.assets.assetsMint({ assetID: created.txID, utxoID: before.alone[0]!, amount: '5', to: me, maxFee: fees.operation }).catch((x: unknown) => x)) as ValidationError;
    expect(e).toBeInstanceOf(ValidationError);
    expect(e.message).toBe('this wallet cannot sign for that mint right of this asset (it may have been used since the review); nothing was signed');
    expect(await onChain()).toEqual(second);
    expect((await wallet.balances.activityList()).items.filter((i) => i.kind === 'mint')).toHaveLength(2);
  });
});

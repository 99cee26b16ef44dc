// The asset studio behind a node that invents what the wallet holds: a mint right or an NFT no
// transaction proves is never listed as the wallet's, nor used; the real ones still are.
import { describe, expect, it } from 'vitest';
import type { OutputOwners, Utxo } from '../../src/core/codec/index.js';
import { utxoId } from '../../src/core/codec/ids.js';
import { cb58Encode, parseAddress } from '../../src/core/encoding.js';
import { ValidationError } from '../../src/core/errors.js';
import { makeOwners } from '../../src/core/tx/context.js';
import { nftFamilyState } from '../../src/core/tx/x.js';
import { parseId } from '../../src/core/encoding.js';
import { AVAX } from './fixture.js';
import { lyingNode, refreshUntilDecided, rewriteUtxos } from './lying-node.js';
import { fundedWallet } from './wallet-fixture.js';

describe('the asset studio behind a lying node', () => {
  it('a made-up mint right (of AVAX, or of a real family) and a made-up NFT are not listed or used; the real right and NFT are', async () => {
    const node = lyingNode();
    const { wallet, account, avax, genesis } = await fundedWallet({ x: 1n * AVAX }, { fetch: node.fetch });
    const me = makeOwners([parseAddress(account.xAddress).bytes]);
    const family = await genesis.issueAndWait(await genesis.buildXCreateAsset({ name: 'Art', symbol: 'ART', denomination: 0, initialStates: [nftFamilyState([me, me])] }));
    const fees = await wallet.assets.assetsFees();
    const to = { addresses: [account.xAddress], threshold: 1 };
    const group0 = (await wallet.assets.assetsMintRights()).rights.find((r) => r.groupID === 0)!.utxoID;
    await wallet.assets.assetsMintNft({ assetID: family.txID, utxoID: group0, groupID: 0, payloadHex: '6869', to: [to], maxFee: fees.operation });
    // Recorded with its owner and its payload's SHA-256 ('hi'): the review of the same mint again names it.
    expect((await wallet.balances.activityList()).items.find((i) => i.kind === 'nft-mint')).toMatchObject({ assetID: family.txID, to: account.xAddress, payloadHash: '8f434346648f6b96df89dda901c5176b10a6d83961dd3c1ac88b59b2dc327aa4' });

    const fake = (u: Utxo, outputIndex: number, output: Utxo['output'], assetID = u.assetID): Utxo => ({ ...u, txID: new Uint8Array(32).fill(7), outputIndex, assetID, output });
    node.lies.set(
      'avm.getUTXOs',
      rewriteUtxos('avm', (utxos) => {
        const owners = (utxos[0]!.output as { owners: OutputOwners }).owners;
        const art = parseId(family.txID);
        const avaxUtxo = utxos.find((u) => u.output.kind === 'TransferOutput')!;
        return [
          ...utxos,
          fake(avaxUtxo, 0, { kind: 'MintOutput', owners }),
          fake(avaxUtxo, 1, { kind: 'NftMintOutput', groupID: 5, owners }, art),
          fake(avaxUtxo, 2, { kind: 'NftTransferOutput', groupID: 9, payload: new TextEncoder().encode('free AVAX at https://example.test'), owners }, art),
        ];
      }),
    );
    const rights = (await wallet.assets.assetsMintRights()).rights;
    expect(rights.map((r) => `${r.symbol}/${r.kind}/${r.groupID ?? '-'}`)).toEqual(['ART/nft/1']);
    const nfts = (await wallet.assets.assetsListNfts()).nfts;
    expect(nfts.map((n) => `${n.symbol}/${n.groupID}/${n.payloadHex}`)).toEqual(['ART/0/6869']);
    // Nor used, even named by its UTXO ID: refused in words before anything is signed.
    const madeUp = `${cb58Encode(new Uint8Array(32).fill(7))}:0`;
    const refused = (await wallet.assets.assetsMint({ assetID: avax, utxoID: madeUp, amount: '5', to, maxFee: fees.operation }).catch((e: unknown) => e)) as Error;
    expect(refused).toBeInstanceOf(ValidationError);
    expect(refused.message).toBe('this wallet cannot sign for that mint right of this asset (it may have been used since the review); nothing was signed');
    expect((await wallet.balances.activityList()).items.filter((i) => i.kind === 'mint')).toEqual([]);
  });

  it('a mint right the node lists again after the mint that spent it ran contradicts that mint: taken back and said so, its NFT not counted beside the right', async () => {
    const node = lyingNode();
    const { wallet, account, genesis } = await fundedWallet({ x: 1n * AVAX }, { fetch: node.fetch });
    const me = makeOwners([parseAddress(account.xAddress).bytes]);
    const family = await genesis.issueAndWait(await genesis.buildXCreateAsset({ name: 'Art', symbol: 'ART', denomination: 0, initialStates: [nftFamilyState([me])] }));
    const seen: Utxo[] = [];
    node.lies.set('avm.getUTXOs', rewriteUtxos('avm', (utxos) => (seen.push(...utxos), utxos)));
    const right = (await wallet.assets.assetsMintRights()).rights[0]!.utxoID;
    node.lies.delete('avm.getUTXOs');
    const spentRight = seen.find((u) => utxoId(u) === right)!;
    const fees = await wallet.assets.assetsFees();
    const minted = await wallet.assets.assetsMintNft({ assetID: family.txID, utxoID: right, groupID: 0, payloadHex: '6869', to: [{ addresses: [account.xAddress], threshold: 1 }], maxFee: fees.operation });
    expect((await wallet.balances.activityList()).items.find((i) => i.txID === minted.txID)?.status).toBe('accepted');
    // An NFT mint uses its group's right up: none is left.
    expect((await wallet.assets.assetsMintRights()).rights).toEqual([]);

    // Only the spent right listed again (the fee's funds are not): the mint is contradicted by what it consumed.
    node.lies.set('avm.getUTXOs', rewriteUtxos('avm', (utxos) => [...utxos, spentRight]));
    const lied = await wallet.balances.balancesRefresh();
    // The mint's outputs (its NFT, its change) are not counted while the right it consumed is listed.
    expect(lied.warnings).toEqual([
      expect.stringMatching(/^The node sent 2 entries for the X-Chain .*lists as unspent what the transaction that created it spent\): not counted/),
      expect.stringMatching(/^The node lists again funds that a transaction of this account spent/),
    ]);
    expect((await wallet.balances.activityList()).items.find((i) => i.txID === minted.txID)).toMatchObject({ status: 'pending', takenBack: true });
    expect((await wallet.assets.assetsMintRights()).rights.map((r) => r.utxoID)).toEqual([right]);
    expect((await wallet.assets.assetsListNfts()).nfts).toEqual([]);
    // The node honest again: the mint is followed anew and found accepted, its NFT back, the right gone.
    node.lies.delete('avm.getUTXOs');
    expect(await refreshUntilDecided(wallet, minted.txID)).toBe('accepted');
    expect((await wallet.assets.assetsMintRights()).rights).toEqual([]);
    expect((await wallet.assets.assetsListNfts()).nfts.map((n) => n.payloadHex)).toEqual(['6869']);
  });
});

// NFTs and mint rights whose owners carry a locktime, on the real node: one whose locktime has
// passed is listed and used like any other (the chain takes it once locktime ≤ its time); an NFT
// still locked is listed with when it unlocks and its send is refused in words, nothing issued.
import { describe, expect, it } from 'vitest';
import { utxoId } from '../../src/core/codec/ids.js';
import { cb58Encode, formatAddress, parseAddress, parseId } from '../../src/core/encoding.js';
import { ValidationError } from '../../src/core/errors.js';
import { makeOwners } from '../../src/core/tx/context.js';
import { nftFamilyState } from '../../src/core/tx/x.js';
import { AVAX, GENESIS_KEY, localNetwork } from './fixture.js';
import { fundedWallet } from './wallet-fixture.js';

describe('time-locked NFTs and mint rights against the real node', () => {
  it('a locktime passed: listed, sent and minted with; one far ahead: listed with lockedUntil, its send refused and nothing issued', async () => {
    const { wallet, account, genesis, avax } = await fundedWallet({ x: 2n * AVAX });
    const { client, ctx } = await localNetwork();
    const alice = parseAddress(account.xAddress).bytes;
    const now = BigInt(Math.floor(Date.now() / 1000));
    const [past, far] = [now - 5n, now + 365n * 86_400n];
    const theGenesis = makeOwners([GENESIS_KEY.shortId]);
    // Group 0 is the genesis key's; groups 1 and 2 are Alice's, locked until a moment past and a year ahead.
    const created = await genesis.issueAndWait(
      await genesis.buildXCreateAsset({ name: 'Later', symbol: 'LTR', denomination: 0, initialStates: [nftFamilyState([theGenesis, makeOwners([alice], 1, past), makeOwners([alice], 1, far)])] }),
    );
    const family = parseId(created.txID);
    const group0 = (await genesis.assetUtxos(family)).find((u) => u.output.kind === 'NftMintOutput' && u.output.groupID === 0)!;
    await genesis.issueAndWait(await genesis.buildXNftMint(group0, new Uint8Array([7]), [makeOwners([alice], 1, past), makeOwners([alice], 1, far)]));
    await wallet.balances.balancesRefresh();

    const mine = (await wallet.assets.assetsListNfts()).nfts.filter((n) => n.assetID === created.txID);
    expect(mine.map((n) => n.lockedUntil).sort()).toEqual([Number(far), undefined]);
    const open = mine.find((n) => n.lockedUntil === undefined)!;
    const locked = mine.find((n) => n.lockedUntil !== undefined)!;

    const fees = await wallet.assets.assetsFees();
    const toGenesis = { addresses: [formatAddress('X', ctx.hrp, GENESIS_KEY.shortId)], threshold: 1 };
    await wallet.assets.assetsTransferNft({ utxoID: open.utxoID, to: toGenesis, maxFee: fees.operation });
    const xAvax = async () => (await wallet.balances.balancesRefresh()).balances.find((b) => b.chain === 'X' && b.assetID === avax)?.spendable;
    const before = await xAvax();

    const e = (await wallet.assets.assetsTransferNft({ utxoID: locked.utxoID, to: toGenesis, maxFee: fees.operation }).catch((x: unknown) => x)) as ValidationError;
    expect(e).toBeInstanceOf(ValidationError);
    expect(e.message).toBe('this NFT is still time-locked: it can be sent once it unlocks (your NFT list says when); nothing was signed');

    // The node: the open NFT went to the genesis key, the locked one is still Alice's; one NFT send in Activity.
    const held = async (address: string) => (await client.getAllUtxos('X', [address])).utxos.filter((u) => cb58Encode(u.assetID) === created.txID && u.output.kind === 'NftTransferOutput').map(utxoId);
    expect(await held(account.xAddress)).toEqual([locked.utxoID]);
    expect(await held(toGenesis.addresses[0]!)).toEqual([expect.any(String)]);
    expect((await wallet.balances.activityList()).items.filter((i) => i.kind === 'nft-transfer')).toHaveLength(1);
    expect(await xAvax()).toBe(before);

    // Mint rights: group 1 (its locktime passed) is listed and mints; group 2 (a year ahead) is not listed.
    const rights = (await wallet.assets.assetsMintRights()).rights.filter((r) => r.assetID === created.txID);
    expect(rights.map((r) => r.groupID)).toEqual([1]);
    const me = { addresses: [account.xAddress], threshold: 1 };
    await wallet.assets.assetsMintNft({ assetID: created.txID, utxoID: rights[0]!.utxoID, groupID: 1, payloadHex: '01', to: [me], maxFee: fees.operation });
    expect((await held(account.xAddress)).length).toBe(2);
  });
});

// An NFT sent to the wallet in a 1-of-2 with a stranger's key is the wallet's only until that key
// moves it: the NFT list says so (`shared`), as Home does for shared funds, and the stranger can
// indeed take it back. One the wallet holds alone is not flagged; a 2-of-2 with the stranger is
// not the wallet's to send and is not listed.
import { describe, expect, it } from 'vitest';
import { parseAddress, parseId } from '../../src/core/encoding.js';
import { makeOwners } from '../../src/core/tx/context.js';
import { nftFamilyState } from '../../src/core/tx/x.js';
import { AVAX, freshWallet } from './fixture.js';
import { fundedWallet } from './wallet-fixture.js';

describe('an NFT another key can also send', () => {
  it('is listed as shared; the stranger can take it; one held alone is not flagged; a 2-of-2 is not listed', async () => {
    const { wallet, account, genesis } = await fundedWallet({ x: 1n * AVAX });
    const stranger = await freshWallet({ x: 1n * AVAX });
    const me = parseAddress(account.xAddress).bytes;
    const them = stranger.me.addresses[0]!;
    const g = genesis.changeOwners;
    const created = await genesis.issueAndWait(await genesis.buildXCreateAsset({ name: 'Tickets', symbol: 'TIX', denomination: 0, initialStates: [nftFamilyState([g, g, g])] }));
    const family = parseId(created.txID);
    const rights = (await genesis.assetUtxos(family)).filter((u) => u.output.kind === 'NftMintOutput');
    const groupOf = (u: (typeof rights)[number]) => (u.output.kind === 'NftMintOutput' ? u.output.groupID : -1);
    const owners = [makeOwners([me, them], 1), makeOwners([me]), makeOwners([me, them], 2)];
    for (const r of rights) await genesis.issueAndWait(await genesis.buildXNftMint(r, new TextEncoder().encode(`seat ${groupOf(r)}`), [owners[groupOf(r)]!]));

    const listed = (await wallet.assets.assetsListNfts()).nfts.map((n) => ({ group: n.groupID, shared: n.shared ?? false }));
    expect(listed.sort((a, b) => a.group - b.group)).toEqual([
      { group: 0, shared: true },
      { group: 1, shared: false },
    ]);

    // The warning is true: the stranger sends the shared one to itself, and it is gone from the list.
    const taken = (await stranger.engine.assetUtxos(family)).find((u) => u.output.kind === 'NftTransferOutput' && u.output.groupID === 0)!;
    await stranger.engine.issueAndWait(await stranger.engine.buildXNftTransfer(taken, stranger.me));
    expect((await wallet.assets.assetsListNfts()).nfts.map((n) => n.groupID)).toEqual([1]);
  });
});

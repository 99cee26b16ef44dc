// Which mint right a mint spends (src/background/services/assets.ts): the one assets.mintRights
// listed and the review named (its UTXO ID comes back with the mint), never another right of the
// same asset with a different minter set; one gone since the review is refused, nothing signed.
import { describe, expect, it } from 'vitest';
import { utxoId } from '../../src/core/codec/ids.js';
import type { Utxo } from '../../src/core/codec/types.js';
import { cb58Encode, formatAddress } from '../../src/core/encoding.js';
import { ValidationError } from '../../src/core/errors.js';
import { makeOwners } from '../../src/core/tx/context.js';
import { assetsService } from './assets-test-kit.js';
import { addr, ctx, id } from './x-test-kit.js';

const ME = addr(1);
const OTHER = addr(2);
const ASSET = id(40);
const ASSET_ID = cb58Encode(ASSET);
const x = (a: Uint8Array) => formatAddress('X', ctx.hrp, a);
const to = { addresses: [x(ME)], threshold: 1 };

/** A mint right of ASSET made by tx `n` (output 0). */
function right(n: number, owners: Uint8Array[], groupID?: number): Utxo {
  const o = makeOwners(owners);
  return { txID: id(n), outputIndex: 0, assetID: ASSET, output: groupID === undefined ? { kind: 'MintOutput', owners: o } : { kind: 'NftMintOutput', groupID, owners: o } };
}

const service = (utxos: Utxo[]) => assetsService({ me: ME, utxos });

describe('a mint spends the mint right its review named', () => {
  // The node lists the right shared with another key first: the old code minted with it whatever the review said.
  const shared = right(10, [ME, OTHER]);
  const alone = right(11, [ME]);

  it('lists one right per asset, the one the account holds alone, with its UTXO ID; the mint spends the right whose ID it is given', async () => {
    const { assets, built } = service([shared, alone]);
    const { rights } = await assets.assetsMintRights();
    expect(rights).toEqual([expect.objectContaining({ assetID: ASSET_ID, utxoID: utxoId(alone), threshold: 1, addresses: [x(ME)] })]);
    await assets.assetsMint({ assetID: ASSET_ID, utxoID: rights[0]!.utxoID, amount: '5', to, maxFee: '1000000' });
    await assets.assetsMint({ assetID: ASSET_ID, utxoID: utxoId(shared), amount: '5', to, maxFee: '1000000' });
    expect(built.map(utxoId)).toEqual([utxoId(alone), utxoId(shared)]);
  });

  it('a reviewed right no longer there (spent elsewhere) is refused in words and nothing is signed', async () => {
    const { assets, built, issue } = service([shared]);
    const e = (await assets.assetsMint({ assetID: ASSET_ID, utxoID: utxoId(alone), amount: '5', to, maxFee: '1000000' }).catch((x: unknown) => x)) as ValidationError;
    expect(e).toBeInstanceOf(ValidationError);
    expect(e.message).toBe('this wallet cannot sign for that mint right of this asset (it may have been used since the review); nothing was signed');
    expect([built, issue.mock.calls]).toEqual([[], []]);
  });

  it('an NFT group with two mint rights: the one named is spent, and one of another group is refused', async () => {
    const nftShared = right(12, [ME, OTHER], 0);
    const nftAlone = right(13, [ME], 0);
    const { assets, built, issue } = service([nftShared, nftAlone]);
    const { rights } = await assets.assetsMintRights();
    expect(rights.map((r) => r.utxoID)).toEqual([utxoId(nftAlone)]);
    await assets.assetsMintNft({ assetID: ASSET_ID, utxoID: utxoId(nftShared), groupID: 0, payloadHex: '00', to: [to], maxFee: '1000000' });
    expect(built.map(utxoId)).toEqual([utxoId(nftShared)]);
    await expect(assets.assetsMintNft({ assetID: ASSET_ID, utxoID: utxoId(nftAlone), groupID: 1, payloadHex: '00', to: [to], maxFee: '1000000' })).rejects.toThrow(/that NFT mint right for group 1/);
    expect(issue).toHaveBeenCalledTimes(1);
  });
});

// The asset studio's lists name each asset once, a few at a time (src/background/services/assets.ts
// namesOf): anyone can send NFTs or mint rights of hundreds of families, and asked one by one their
// creating txs would hold the NFT tab for minutes.
import { describe, expect, it } from 'vitest';
import type { Utxo } from '../../src/core/codec/types.js';
import { makeOwners } from '../../src/core/tx/context.js';
import { cb58Encode } from '../../src/core/encoding.js';
import { assetsService } from './assets-test-kit.js';
import { addr, id } from './x-test-kit.js';

const ME = addr(1);
const mine = makeOwners([ME]);
const FAMILIES = 40;
const nft = (family: number, n: number): Utxo => ({ txID: id(100 + family * 4 + n), outputIndex: 0, assetID: id(family + 1), output: { kind: 'NftTransferOutput', groupID: 0, payload: new Uint8Array([n]), owners: mine } });
const right = (family: number): Utxo => ({ txID: id(300 + family), outputIndex: 0, assetID: id(family + 1), output: { kind: 'NftMintOutput', groupID: 0, owners: mine } });

function service(utxos: Utxo[]) {
  const asked: string[] = [];
  let inFlight = 0;
  let most = 0;
  // A node that takes a moment per creating tx.
  const networks = {
    assetDescriptionOrUnknown: async (_p: unknown, assetID: string) => {
      asked.push(assetID);
      most = Math.max(most, ++inFlight);
      await new Promise((r) => setTimeout(r, 2));
      inFlight--;
      return { name: `Family ${assetID.slice(0, 4)}`, symbol: 'F', denomination: 0 };
    },
  };
  return { assets: assetsService({ me: ME, utxos, networks }).assets, asked, most: () => most };
}

describe('the NFT list and the mint rights name each asset once, 8 at a time', () => {
  it('NFTs of 40 families, 2 each: 40 lookups, never more than 8 at once, each NFT named by its family', async () => {
    const held = Array.from({ length: FAMILIES }, (_, f) => [nft(f, 0), nft(f, 1)]).flat();
    const { assets, asked, most } = service(held);
    const { nfts } = await assets.assetsListNfts();
    expect(nfts).toHaveLength(2 * FAMILIES);
    expect(asked).toHaveLength(FAMILIES);
    expect(new Set(asked).size).toBe(FAMILIES);
    expect(most()).toBe(8);
    expect(nfts.every((n) => n.name === `Family ${n.assetID.slice(0, 4)}`)).toBe(true);
  });

  it('mint rights of 40 families: the same', async () => {
    const { assets, asked, most } = service(Array.from({ length: FAMILIES }, (_, f) => right(f)));
    const { rights } = await assets.assetsMintRights();
    expect(rights.map((r) => r.assetID).sort()).toEqual(Array.from({ length: FAMILIES }, (_, f) => cb58Encode(id(f + 1))).sort());
    expect(asked).toHaveLength(FAMILIES);
    expect(most()).toBe(8);
    expect(rights.every((r) => r.name === `Family ${r.assetID.slice(0, 4)}`)).toBe(true);
  });
});

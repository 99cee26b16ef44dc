// An NFT or mint right whose owners carry a locktime (src/core/tx/x.ts, src/background/services/
// assets.ts): the chain lets it be spent once locktime ≤ its time (secp256k1fx: locked while
// locktime > now), so one whose locktime has passed is listed and used like any other, and one
// still locked is listed with when it unlocks and never sent before then, nothing signed.
import { describe, expect, it } from 'vitest';
import { utxoId } from '../../src/core/codec/ids.js';
import type { Utxo } from '../../src/core/codec/types.js';
import { cb58Encode, formatAddress } from '../../src/core/encoding.js';
import { ValidationError } from '../../src/core/errors.js';
import { makeOwners } from '../../src/core/tx/context.js';
import { ownedAddressSet, spendableUtxos } from '../../src/core/tx/utxos.js';
import { buildXMint, buildXNftMint, buildXNftTransfer } from '../../src/core/tx/x.js';
import { assetsService } from './assets-test-kit.js';
import { addr, ctx, id } from './x-test-kit.js';

const ME = addr(1);
const NOW = 1_800_000_000n;
const ASSET = id(40);
const owned = ownedAddressSet([ME]);
const mine = makeOwners([ME]);
const fee: Utxo = { txID: id(5), outputIndex: 0, assetID: ctx.avaxAssetID, output: { kind: 'TransferOutput', amount: 50_000_000n, owners: mine } };
const pool = spendableUtxos([fee], owned, NOW);
const x = (a: Uint8Array) => formatAddress('X', ctx.hrp, a);

const nft = (n: number, locktime: bigint): Utxo => ({ txID: id(n), outputIndex: 0, assetID: ASSET, output: { kind: 'NftTransferOutput', groupID: 0, payload: new Uint8Array([n]), owners: makeOwners([ME], 1, locktime) } });
const mintRight = (n: number, locktime: bigint): Utxo => ({ txID: id(n), outputIndex: 0, assetID: ASSET, output: { kind: 'MintOutput', owners: makeOwners([ME], 1, locktime) } });
const nftRight = (n: number, locktime: bigint): Utxo => ({ txID: id(n), outputIndex: 0, assetID: ASSET, output: { kind: 'NftMintOutput', groupID: n, owners: makeOwners([ME], 1, locktime) } });

describe('the builders judge a locktime at the chain time they are given', () => {
  const base = { ctx, pool, changeOwners: mine, owned, now: NOW };
  const all = (lock: bigint) => [
    () => buildXNftTransfer({ ...base, nftUtxo: nft(10, lock), to: mine }),
    () => buildXMint({ ...base, mintUtxo: mintRight(11, lock), amount: 5n, to: mine }),
    () => buildXNftMint({ ...base, mintUtxo: nftRight(12, lock), payload: new Uint8Array([1]), to: [mine] }),
  ];

  it('a locktime passed, or equal to now (the boundary), builds; one a second later is refused in words', () => {
    for (const lock of [1n, NOW - 1n, NOW]) for (const build of all(lock)) expect(build().tx.operations).toHaveLength(1);
    for (const build of all(NOW + 1n)) expect(build).toThrow(/is time-locked/);
    expect(all(NOW + 1n)[0]).toThrow(ValidationError);
  });

  it('without a chain time, any locktime is refused (the careful side)', () => {
    expect(() => buildXNftTransfer({ ctx, pool, changeOwners: mine, owned, nftUtxo: nft(10, 1n), to: mine })).toThrow(/is time-locked/);
    expect(buildXNftTransfer({ ctx, pool, changeOwners: mine, owned, nftUtxo: nft(10, 0n), to: mine }).tx.operations).toHaveLength(1);
  });
});

const service = (utxos: Utxo[], unproven: Utxo[] = []) => assetsService({ me: ME, utxos, unproven, now: NOW });

describe('the asset studio lists and uses time-locked NFTs and mint rights by the chain time', () => {
  const to = { addresses: [x(ME)], threshold: 1 };
  const passed = nft(20, NOW - 5n);
  const boundary = nft(21, NOW);
  const future = nft(22, NOW + 3600n);
  const unproven = nft(23, NOW - 5n);

  it('lists every proven NFT: one still locked with when it unlocks, the others sendable; an unproven one is still left out', async () => {
    const { assets } = service([passed, boundary, future, unproven], [unproven]);
    const { nfts } = await assets.assetsListNfts();
    expect(nfts.map((n) => [n.utxoID, n.lockedUntil])).toEqual([
      [utxoId(passed), undefined],
      [utxoId(boundary), undefined],
      [utxoId(future), Number(NOW + 3600n)],
    ]);
  });

  it('sends an NFT whose locktime has passed; refuses one still locked in words, nothing built or signed', async () => {
    const { assets, built, issue } = service([passed, future]);
    await assets.assetsTransferNft({ utxoID: utxoId(passed), to, maxFee: '1000000' });
    const e = (await assets.assetsTransferNft({ utxoID: utxoId(future), to, maxFee: '1000000' }).catch((x: unknown) => x)) as ValidationError;
    expect(e).toBeInstanceOf(ValidationError);
    expect(e.message).toBe('this NFT is still time-locked: it can be sent once it unlocks (your NFT list says when); nothing was signed');
    expect(built).toEqual([passed]);
    expect(issue).toHaveBeenCalledTimes(1);
  });

  it('refuses an NFT no transaction proves, named by its ID though the list never offers it: nothing built or signed', async () => {
    const { assets, built, issue } = service([unproven], [unproven]);
    await expect(assets.assetsTransferNft({ utxoID: utxoId(unproven), to, maxFee: '1000000' })).rejects.toThrow('this wallet does not hold that NFT');
    expect(built).toEqual([]);
    expect(issue).not.toHaveBeenCalled();
  });

  it('lists and mints with a mint right whose locktime has passed (or is now); one still locked is neither listed nor used', async () => {
    const rights = [mintRight(30, NOW - 5n), nftRight(1, NOW), nftRight(2, NOW + 1n)];
    const { assets, built, issue } = service(rights);
    expect((await assets.assetsMintRights()).rights.map((r) => r.utxoID)).toEqual([utxoId(rights[0]!), utxoId(rights[1]!)]);
    await assets.assetsMint({ assetID: cb58Encode(ASSET), utxoID: utxoId(rights[0]!), amount: '5', to, maxFee: '1000000' });
    await assets.assetsMintNft({ assetID: cb58Encode(ASSET), utxoID: utxoId(rights[1]!), groupID: 1, payloadHex: '00', to: [to], maxFee: '1000000' });
    await expect(assets.assetsMintNft({ assetID: cb58Encode(ASSET), utxoID: utxoId(rights[2]!), groupID: 2, payloadHex: '00', to: [to], maxFee: '1000000' })).rejects.toThrow(/nothing was signed/);
    expect(built).toEqual(rights.slice(0, 2));
    expect(issue).toHaveBeenCalledTimes(2);
  });
});

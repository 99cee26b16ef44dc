// The X-Chain builders (src/core/tx/x.ts): which UTXOs are spendable, sends (fee, change, inputs
// chosen, size limit and split), assets created and minted, and an export and import from X.
import { describe, expect, it } from 'vitest';
import { toHex } from '../../src/core/bytes.js';
import { decodeUnsignedTx, encodeUnsignedTx, type Utxo } from '../../src/core/codec/index.js';
import { FeeFundsError, InsufficientFundsError, TxTooLargeError, ValidationError } from '../../src/core/errors.js';
import { makeOwners, MAX_XP_TX_SIZE } from '../../src/core/tx/context.js';
import { addr, ctx, id } from './x-test-kit.js';
import { expectedSignedSize } from '../../src/core/tx/built.js';
import {
  buildXCreateAsset,
  buildXExport,
  buildXImport,
  buildXMint,
  buildXNftMint,
  buildXSend,
  buildXSendSplit,
  fixedCapState,
  nftFamilyState,
  variableCapState,
} from '../../src/core/tx/x.js';
import { classifyUtxo, ownedAddressSet, spendableUtxos } from '../../src/core/tx/utxos.js';
import { burned, me, mine, other, owned, theirs, utxo } from './builders-test-kit.js';

describe('UTXO classification', () => {
  it('separates spendable, time-locked, stakeable-locked and foreign UTXOs', () => {
    const now = 1_000n;
    expect(classifyUtxo(utxo(5n), owned, now).state).toBe('spendable');
    expect(classifyUtxo(utxo(5n, { owners: makeOwners([me], 1, 2_000n) }), owned, now)).toMatchObject({ state: 'locked', until: 2_000n });
    expect(classifyUtxo(utxo(5n, { stakeableUntil: 2_000n }), owned, now)).toMatchObject({ state: 'stakeable-locked', amount: 5n });
    expect(classifyUtxo(utxo(5n, { stakeableUntil: 500n }), owned, now).state).toBe('spendable');
    expect(classifyUtxo(utxo(5n, { owners: theirs }), owned, now).state).toBe('not-spendable');
    // A 2-of-2 with only one of our keys cannot be spent; 1-of-2 can, with our index.
    expect(classifyUtxo(utxo(5n, { owners: makeOwners([me, other], 2) }), owned, now).state).toBe('not-spendable');
    const oneOfTwo = classifyUtxo(utxo(5n, { owners: makeOwners([other, me], 1) }), owned, now);
    expect(oneOfTwo.state === 'spendable' && oneOfTwo.spendable.sigIndices).toEqual([0]);
  });

  it('counts a stakeable-locked (vesting) UTXO only when our keys meet its threshold', () => {
    const now = 1_000n;
    // A 2-of-2 vesting output with one key of ours: not the account's to stake, nor to count.
    expect(classifyUtxo(utxo(5n, { stakeableUntil: 2_000n, owners: makeOwners([me, other], 2) }), owned, now).state).toBe('not-spendable');
    expect(classifyUtxo(utxo(5n, { stakeableUntil: 2_000n, owners: theirs }), owned, now).state).toBe('not-spendable');
    expect(classifyUtxo(utxo(5n, { stakeableUntil: 2_000n, owners: makeOwners([other, me], 1) }), owned, now)).toMatchObject({ state: 'stakeable-locked', until: 2_000n, amount: 5n });
  });

  it('classifies UTXOs that share address objects one by one, as the decoder shares them', () => {
    // spendableUtxos remembers per address object whether it is ours: a shared foreign address
    // must stay foreign in every owner set, and a copy of our address (another object) stays ours.
    const copyOfMe = Uint8Array.from(me);
    const foreign = addr(0x05);
    const utxos = [
      // Ours second, after a foreign address seen here first: each answer kept under its own address.
      utxo(6n, { owners: makeOwners([me, foreign], 1) }),
      utxo(1n, { owners: theirs }),
      utxo(2n, { owners: makeOwners([other, me], 2) }),
      utxo(3n, { owners: makeOwners([other, me], 1) }),
      utxo(4n, { owners: makeOwners([copyOfMe]) }),
      utxo(5n, { owners: theirs }),
      utxo(7n, { owners: makeOwners([foreign, addr(0x44)], 1) }),
    ];
    const indices = (ownedNow: ReadonlySet<string>) => spendableUtxos(utxos, ownedNow, 0n).map((s) => [s.amount, s.sigIndices]);
    expect(indices(owned)).toEqual([
      [6n, [1]],
      [3n, [0]],
      [4n, [0]],
    ]);
    // Another pass, other keys: nothing remembered from the first.
    expect(indices(ownedAddressSet([other, addr(0x44)]))).toEqual([
      [1n, [0]],
      [3n, [1]],
      [5n, [0]],
      [7n, [1]],
    ]);
  });
});

describe('X-Chain send', () => {
  it('pays exactly the static fee, returns change to the change owners and sorts everything', () => {
    const pool = spendableUtxos([utxo(3_000_000n), utxo(10_000_000n), utxo(500n, { asset: id(7) })], owned, 0n);
    const { tx, fee, spent } = buildXSend({
      ctx,
      pool,
      changeOwners: makeOwners([addr(0x33)]),
      payments: [
        { assetID: ctx.avaxAssetID, amount: 4_000_000n, owners: theirs },
        { assetID: id(7), amount: 200n, owners: theirs },
      ],
      memo: new TextEncoder().encode('hello'),
    });
    expect(fee).toBe(ctx.xTxFee);
    expect(burned(tx, ctx.avaxAssetID)).toBe(ctx.xTxFee);
    expect(burned(tx, id(7))).toBe(0n);
    // Largest first: the 10 AVAX-ish UTXO alone covers 4 + fee.
    expect(spent.map((u) => u.output.kind === 'TransferOutput' && u.output.amount)).toContain(10_000_000n);
    const change = tx.outputs.filter((o) => o.output.kind === 'TransferOutput' && toHex(o.output.owners.addresses[0]!) === toHex(addr(0x33)));
    expect(change.map((c) => (c.output.kind === 'TransferOutput' ? c.output.amount : 0n)).sort()).toEqual([300n, 5_000_000n]);
    expect(decodeUnsignedTx(encodeUnsignedTx(tx), 'avm')).toEqual(tx);
    const sortedAssets = tx.outputs.map((o) => toHex(o.assetID));
    expect([...sortedAssets].sort()).toEqual(sortedAssets);
  });

  it('spends proven UTXOs before a larger unproven one, and the unproven one only when needed', () => {
    const [big, small, other] = spendableUtxos([utxo(50_000_000n), utxo(3_000_000n), utxo(4_000_000n)], owned, 0n);
    const pool = [{ ...big!, unproven: true }, small!, other!];
    const spentAmounts = (amount: bigint) =>
      buildXSend({ ctx, pool, changeOwners: makeOwners([addr(0x33)]), payments: [{ assetID: ctx.avaxAssetID, amount, owners: theirs }] }).spent.map((u) =>
        u.output.kind === 'TransferOutput' ? u.output.amount : 0n,
      );
    expect(spentAmounts(5_000_000n).sort()).toEqual([3_000_000n, 4_000_000n]);
    expect(spentAmounts(10_000_000n)).toContain(50_000_000n);
  });

  it('always spends the UTXOs marked first (a refused send\'s inputs), even when others would cover the payment', () => {
    const [big, small, refusedOne] = spendableUtxos([utxo(50_000_000n), utxo(3_000_000n), utxo(2_000_000n)], owned, 0n);
    const pool = [big!, small!, { ...refusedOne!, first: true }];
    const { spent } = buildXSend({ ctx, pool, changeOwners: makeOwners([addr(0x33)]), payments: [{ assetID: ctx.avaxAssetID, amount: 1_000n, owners: theirs }] });
    expect(spent.map((u) => (u.output.kind === 'TransferOutput' ? u.output.amount : 0n)).sort()).toEqual([2_000_000n]);
    const more = buildXSend({ ctx, pool, changeOwners: makeOwners([addr(0x33)]), payments: [{ assetID: ctx.avaxAssetID, amount: 10_000_000n, owners: theirs }] });
    expect(more.spent.map((u) => (u.output.kind === 'TransferOutput' ? u.output.amount : 0n)).sort()).toEqual([2_000_000n, 50_000_000n]);
  });

  it('names the asset, the amount needed and the amount spendable when funds are short', () => {
    const pool = spendableUtxos([utxo(2_000_000n), utxo(9n, { stakeableUntil: 99n })], owned, 0n);
    try {
      buildXSend({ ctx, pool, changeOwners: mine, payments: [{ assetID: ctx.avaxAssetID, amount: 1_500_000n, owners: theirs }] });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(InsufficientFundsError);
      expect(e).toMatchObject({ needed: 2_500_000n, spendable: 2_000_000n });
    }
  });

  it('says the fee is short, not the amount, when another asset is sent without the AVAX for its fee', () => {
    const pool = spendableUtxos([utxo(500_000n), utxo(500n, { asset: id(7) })], owned, 0n);
    const send = (assetID: Uint8Array, amount: bigint) => () => buildXSend({ ctx, pool, changeOwners: mine, payments: [{ assetID, amount, owners: theirs }] });
    expect(send(id(7), 200n)).toThrow(FeeFundsError);
    expect(send(id(7), 200n)).toThrow(expect.objectContaining({ code: 'insufficient-funds', field: 'fee', needed: ctx.xTxFee, spendable: 500_000n }));
    // Sending AVAX itself: the amount and its fee together are short, as before.
    expect(send(ctx.avaxAssetID, 1n)).toThrow(InsufficientFundsError);
    expect(send(ctx.avaxAssetID, 1n)).not.toThrow(FeeFundsError);
  });

  it('refuses memos over 256 bytes and zero amounts', () => {
    const pool = spendableUtxos([utxo(9_000_000n)], owned, 0n);
    const send = (memo: Uint8Array, amount = 1n) =>
      buildXSend({ ctx, pool, changeOwners: mine, memo, payments: [{ assetID: ctx.avaxAssetID, amount, owners: theirs }] });
    expect(send(new Uint8Array(256)).tx.memo.length).toBe(256);
    expect(() => send(new Uint8Array(257))).toThrow(ValidationError);
    expect(() => send(new Uint8Array(), 0n)).toThrow(ValidationError);
  });

  it('refuses one tx over 64 KiB and splits a large send into several fitting txs', () => {
    const many = Array.from({ length: 1000 }, () => utxo(2_000_000n));
    const pool = spendableUtxos(many, owned, 0n);
    const amount = 1_500_000_000n; // needs ~750 inputs
    expect(() =>
      buildXSend({ ctx, pool, changeOwners: mine, payments: [{ assetID: ctx.avaxAssetID, amount, owners: theirs }] }),
    ).toThrow(TxTooLargeError);
    const txs = buildXSendSplit({ ctx, pool, changeOwners: mine, amount, owners: theirs });
    expect(txs.length).toBeGreaterThan(1);
    const sent = txs.reduce(
      (s, b) => s + b.tx.outputs.filter((o) => o.output.kind === 'TransferOutput' && toHex(o.output.owners.addresses[0]!) === toHex(other)).reduce((t, o) => t + (o.output.kind === 'TransferOutput' ? o.output.amount : 0n), 0n),
      0n,
    );
    expect(sent).toBe(amount);
    const seen = new Set<string>();
    for (const b of txs) {
      expect(expectedSignedSize(b.tx)).toBeLessThanOrEqual(MAX_XP_TX_SIZE);
      expect(b.fee).toBe(ctx.xTxFee);
      for (const u of b.spent) {
        const key = toHex(u.txID);
        expect(seen.has(key)).toBe(false);
        seen.add(key);
      }
    }
    // All but one fee asked for (one tx would be too large): short by the other txs' fees, so that much less goes through.
    const all = 2_000_000_000n - ctx.xTxFee;
    let short = 0n;
    expect(() => {
      try {
        buildXSendSplit({ ctx, pool, changeOwners: mine, amount: all, owners: theirs });
      } catch (e) {
        short = BigInt(/(\d+) nAVAX short/.exec((e as Error).message)![1]!);
        throw e;
      }
    }).toThrow(ValidationError);
    expect(short > 0n && short % ctx.xTxFee === 0n).toBe(true);
    expect(buildXSendSplit({ ctx, pool, changeOwners: mine, amount: all - short, owners: theirs })).toHaveLength(Number(short / ctx.xTxFee) + 1);
  });
});

describe('X-Chain assets', () => {
  const pool = spendableUtxos([utxo(50_000_000n)], owned, 0n);

  it('creates fixed-cap, variable-cap and NFT assets paying the creation fee', () => {
    const fixed = buildXCreateAsset({
      ctx, pool, changeOwners: mine, name: 'Gold Coin', symbol: 'GLD', denomination: 2,
      initialStates: [fixedCapState([{ owners: theirs, amount: 100n }, { owners: mine, amount: 50n }])],
    });
    expect(fixed.fee).toBe(ctx.xCreateAssetTxFee);
    expect(burned(fixed.tx, ctx.avaxAssetID)).toBe(ctx.xCreateAssetTxFee);
    const variable = buildXCreateAsset({
      ctx, pool, changeOwners: mine, name: 'Var', symbol: 'VAR', denomination: 0,
      initialStates: [variableCapState([makeOwners([me, other], 1)])],
    });
    expect(variable.tx.initialStates[0]!.outputs[0]!.kind).toBe('MintOutput');
    const nft = buildXCreateAsset({
      ctx, pool, changeOwners: mine, name: 'Art', symbol: 'ART', denomination: 0,
      initialStates: [nftFamilyState([mine, mine])],
    });
    expect(nft.tx.initialStates[0]).toMatchObject({ fxIndex: 1 });
    expect(nft.tx.initialStates[0]!.outputs.map((o) => (o.kind === 'NftMintOutput' ? o.groupID : -1)).sort()).toEqual([0, 1]);
  });

  it('applies the node rules for names, symbols and denominations', () => {
    const make = (name: string, symbol: string, denomination = 0) =>
      buildXCreateAsset({ ctx, pool, changeOwners: mine, name, symbol, denomination, initialStates: [fixedCapState([{ owners: mine, amount: 1n }])] });
    expect(() => make('', 'A')).toThrow(/name/);
    expect(() => make(' lead', 'A')).toThrow(/space/);
    expect(() => make('x'.repeat(129), 'A')).toThrow(/name/);
    expect(() => make('Émile', 'A')).toThrow(/letters/);
    expect(() => make('Ok', '')).toThrow(/symbol/);
    expect(() => make('Ok', 'abc')).toThrow(/capital/);
    expect(() => make('Ok', 'ABCDE')).toThrow(/symbol/);
    expect(() => make('Ok', 'OK', 33)).toThrow(/denomination/);
    expect(make('x'.repeat(128), 'ABCD', 32).tx.name.length).toBe(128);
  });

  it('mints with the minter key, keeps the mint right, and refuses without it', () => {
    const mintUtxo: Utxo = { txID: id(60), outputIndex: 1, assetID: id(61), output: { kind: 'MintOutput', owners: mine } };
    const minted = buildXMint({ ctx, pool, changeOwners: mine, mintUtxo, owned, amount: 77n, to: theirs });
    const op = minted.tx.operations[0]!;
    expect(op.op).toMatchObject({ kind: 'SecpMintOperation', mintInput: [0], transferOutput: { amount: 77n } });
    expect(minted.spent).toContain(mintUtxo);
    const foreign: Utxo = { ...mintUtxo, output: { kind: 'MintOutput', owners: theirs } };
    expect(() => buildXMint({ ctx, pool, changeOwners: mine, mintUtxo: foreign, owned, amount: 1n, to: mine })).toThrow(/keys of the minter/);
  });

  it('mints NFTs with payloads up to 1024 bytes and refuses 1025', () => {
    const mintUtxo: Utxo = { txID: id(70), outputIndex: 0, assetID: id(71), output: { kind: 'NftMintOutput', groupID: 3, owners: mine } };
    const ok = buildXNftMint({ ctx, pool, changeOwners: mine, mintUtxo, owned, payload: new Uint8Array(1024), to: [theirs, mine] });
    expect(ok.tx.operations[0]!.op).toMatchObject({ kind: 'NftMintOperation', groupID: 3 });
    expect(() => buildXNftMint({ ctx, pool, changeOwners: mine, mintUtxo, owned, payload: new Uint8Array(1025), to: [theirs] })).toThrow(/1024/);
  });
});

describe('cross-chain from X', () => {
  it('exports AVAX to P with the exported output after the change, and imports paying the fee from the import', () => {
    const pool = spendableUtxos([utxo(20_000_000n)], owned, 0n);
    const exp = buildXExport({ ctx, pool, changeOwners: mine, destination: 'P', amount: 5_000_000n, to: mine });
    expect(exp.tx.destinationChain).toEqual(ctx.pChainID);
    expect(burned(exp.tx, ctx.avaxAssetID, 0n, 5_000_000n)).toBe(ctx.xTxFee);
    const [imp] = buildXImport({ ctx, pool: [], changeOwners: mine, source: 'C', atomicUtxos: spendableUtxos([utxo(3_000_000n)], owned, 0n), to: mine });
    expect(imp!.tx.outputs[0]!.output).toMatchObject({ amount: 2_000_000n });
    expect(imp!.tx.sourceChain).toEqual(ctx.cChainID);
  });

  it("pays a split import's fees from different UTXOs of the wallet, never one twice", () => {
    const dust = spendableUtxos(Array.from({ length: 900 }, () => utxo(100n)), owned, 0n);
    const pool = spendableUtxos([utxo(5_000_000n), utxo(4_000_000n), utxo(3_000_000n)], owned, 0n);
    const imports = buildXImport({ ctx, pool, changeOwners: mine, source: 'P', atomicUtxos: dust, to: mine });
    expect(imports.length).toBeGreaterThan(1);
    const paidWith = imports.flatMap((imp) => imp.tx.inputs.map((i) => toHex(i.txID)));
    expect(paidWith).toHaveLength(imports.length);
    expect(new Set(paidWith).size).toBe(imports.length);
  });
});

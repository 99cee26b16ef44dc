// The asset builders refuse in words what the node would refuse (an initial holder of zero, an
// amount past a u64), and a mint keeps the mint right with exactly the minter set it came from,
// other members and threshold included (secp256k1fx MintOperation: the new MintOutput is the tx's).
import { describe, expect, it } from 'vitest';
import { MAX_U64 } from '../../src/core/codec/io.js';
import type { Utxo } from '../../src/core/codec/types.js';
import { ValidationError } from '../../src/core/errors.js';
import { makeOwners } from '../../src/core/tx/context.js';
import { ownedAddressSet, spendableUtxos } from '../../src/core/tx/utxos.js';
import { buildXCreateAsset, buildXMint, fixedCapState, variableCapState } from '../../src/core/tx/x.js';
import { addr, ctx, id } from './x-test-kit.js';

const me = addr(0x11);
const owned = ownedAddressSet([me, addr(0x12)]);
const mine = makeOwners([me]);
const theirs = makeOwners([addr(0x22)]);
const fee: Utxo = { txID: id(5), outputIndex: 0, assetID: ctx.avaxAssetID, output: { kind: 'TransferOutput', amount: 50_000_000n, owners: mine } };
const pool = spendableUtxos([fee], owned, 0n);

describe('asset builders', () => {
  it('a variable-cap asset with an initial holder of zero, or past a u64, is refused before signing (the node refuses an output of zero)', () => {
    const create = (amount: bigint) =>
      buildXCreateAsset({ ctx, pool, changeOwners: mine, name: 'Points', symbol: 'PTS', denomination: 0, initialStates: [variableCapState([mine], [{ owners: theirs, amount }])] });
    expect(() => create(0n)).toThrow(ValidationError);
    expect(() => create(0n)).toThrow(/more than zero/);
    expect(() => create(MAX_U64 + 1n)).toThrow(/more than one X-Chain output can hold/);
    expect(() => fixedCapState([{ owners: theirs, amount: MAX_U64 + 1n }])).toThrow(/more than one X-Chain output can hold/);
    const ok = create(MAX_U64);
    expect(ok.tx.initialStates[0]!.outputs).toContainEqual({ kind: 'TransferOutput', amount: MAX_U64, owners: theirs });
  });

  it('a mint keeps the right with the same minter set (2 of 3, two of them other people) and refuses past a u64', () => {
    const minters = makeOwners([me, addr(0x12), addr(0x33)], 2);
    const mintUtxo: Utxo = { txID: id(60), outputIndex: 1, assetID: id(61), output: { kind: 'MintOutput', owners: minters } };
    const minted = buildXMint({ ctx, pool, changeOwners: mine, mintUtxo, owned, amount: MAX_U64, to: theirs });
    const op = minted.tx.operations[0]!.op;
    expect(op.kind === 'SecpMintOperation' && op.mintOutput).toEqual(minters);
    expect(op.kind === 'SecpMintOperation' && op.mintInput).toHaveLength(2);
    expect(() => buildXMint({ ctx, pool, changeOwners: mine, mintUtxo, owned, amount: MAX_U64 + 1n, to: theirs })).toThrow(/more than one X-Chain output can hold/);
  });
});

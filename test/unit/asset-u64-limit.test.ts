// One X-Chain asset held above a u64 in total (18 decimals, two mints of 10 tokens: 2 × 10^19
// base units, u64 max ≈ 1.8447 × 10^19). The node adds a tx's inputs of one asset in a u64 and
// refuses one whose sum goes over (docs/protocol.md §X): selection stays within it or says so in
// words, and "send the maximum" never asks for more than one tx can carry.
import { describe, expect, it } from 'vitest';
import type { AccountEngines } from '../../src/background/account-engines.js';
import type { Delivery } from '../../src/background/delivery.js';
import { largestAmount } from '../../src/background/max-amount.js';
import { SendsService } from '../../src/background/services/sends.js';
import { toHex } from '../../src/core/bytes.js';
import { encodeUnsignedTx, type Utxo } from '../../src/core/codec/index.js';
import { cb58Encode, formatAddress } from '../../src/core/encoding.js';
import { AssetLimitError, InsufficientFundsError, ValidationError } from '../../src/core/errors.js';
import { MAX_U64 } from '../../src/core/codec/io.js';
import { makeOwners } from '../../src/core/tx/context.js';
import { addr, ctx, id } from './x-test-kit.js';
import { fund } from '../../src/core/tx/fund.js';
import { ownedAddressSet, type SpendableUtxo, spendableUtxos } from '../../src/core/tx/utxos.js';
import { buildXSend } from '../../src/core/tx/x.js';
import { plainError } from '../../src/popup/errors.js';

const TOKEN = 10n ** 18n;

const asset = id(7);
const me = addr(0x11);
const mine = makeOwners([me]);
const theirs = makeOwners([addr(0x22)]);
const changeOwners = makeOwners([addr(0x33)]);

let nextTx = 100;
function utxo(amount: bigint, assetID = asset): Utxo {
  return { txID: id(nextTx++), outputIndex: 0, assetID, output: { kind: 'TransferOutput', amount, owners: mine } };
}

/** The asset's UTXOs, and AVAX for the fee. */
function poolOf(...amounts: bigint[]): SpendableUtxo[] {
  return spendableUtxos([...amounts.map((a) => utxo(a)), utxo(50_000_000n, ctx.avaxAssetID)], ownedAddressSet([me]), 0n);
}

const send = (pool: readonly SpendableUtxo[], amount: bigint) => buildXSend({ ctx, pool, changeOwners, payments: [{ assetID: asset, amount, owners: theirs }] });

/** What the tx spends of the asset, UTXO by UTXO, and in all. */
function spentOfAsset(tx: ReturnType<typeof send>['tx']): { amounts: bigint[]; sum: bigint } {
  const amounts = tx.inputs.filter((i) => toHex(i.assetID) === toHex(asset)).map((i) => (i.input.kind === 'TransferInput' ? i.input.amount : 0n));
  return { amounts: amounts.sort((a, b) => (a === b ? 0 : a > b ? -1 : 1)), sum: amounts.reduce((s, a) => s + a, 0n) };
}

const largest = (pool: readonly SpendableUtxo[]) => largestAmount({ pool, assetID: asset, feesFor: () => [0n], build: (amount) => send(pool, amount) });

describe('one asset held above a u64', () => {
  it('sends up to one UTXO of it with that UTXO alone', () => {
    const built = send(poolOf(10n * TOKEN, 10n * TOKEN), 10n * TOKEN);
    expect(spentOfAsset(built.tx).amounts).toEqual([10n * TOKEN]);
    expect(encodeUnsignedTx(built.tx).length).toBeGreaterThan(0);
  });

  it('refuses, in words, an amount whose inputs would add up above a u64 (15 of 10 + 10), instead of a tx the node refuses', () => {
    const pool = poolOf(10n * TOKEN, 10n * TOKEN);
    let error: unknown;
    try {
      send(pool, 15n * TOKEN);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AssetLimitError);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ field: 'amount', most: 10n * TOKEN, assetID: cb58Encode(asset) });
    expect((error as Error).message).not.toMatch(/u64/);
    // The popup's sentence carries no base units or asset ID.
    expect(plainError('validation', (error as Error).message).text).toBe('This is more of the asset than one transaction can carry: send less, and the rest in another transaction');
  });

  it('still says "not enough funds" when the wallet holds less than the amount', () => {
    expect(() => send(poolOf(10n * TOKEN), 15n * TOKEN)).toThrow(InsufficientFundsError);
  });

  it('passes by a UTXO that would take the sum over a u64 for smaller ones that fit', () => {
    const built = send(poolOf(15n * TOKEN, 5n * TOKEN, 2n * TOKEN), 16n * TOKEN);
    const spent = spentOfAsset(built.tx);
    expect(spent.amounts).toEqual([15n * TOKEN, 2n * TOKEN]);
    expect(spent.sum).toBeLessThanOrEqual(MAX_U64);
  });

  it('leaves out the largest UTXO when only the others fit together (9 + 9 rather than 10 + 9 + 9)', () => {
    const built = send(poolOf(10n * TOKEN, 9n * TOKEN, 9n * TOKEN), 18n * TOKEN);
    expect(spentOfAsset(built.tx).amounts).toEqual([9n * TOKEN, 9n * TOKEN]);
  });

  it("counts an import's value of the asset with the picked inputs", () => {
    const pool = poolOf(10n * TOKEN, 6n * TOKEN);
    const funding = fund({
      pool,
      needs: new Map([[toHex(asset), 15n * TOKEN]]),
      credit: new Map([[toHex(asset), 10n * TOKEN]]),
      avaxAssetID: ctx.avaxAssetID,
      changeOwners,
      fee: () => ctx.xTxFee,
    });
    const picked = funding.inputs.filter((i) => toHex(i.assetID) === toHex(asset)).map((i) => (i.input.kind === 'TransferInput' ? i.input.amount : 0n));
    // 10 imported + 6 picked: 16 tokens, within a u64 (10 + 10 would not be).
    expect(picked).toEqual([6n * TOKEN]);
  });

  it('gives the most one tx can carry as the maximum, not a failure for every amount', () => {
    expect(largest(poolOf(10n * TOKEN, 10n * TOKEN))).toBe(10n * TOKEN);
    expect(largest(poolOf(15n * TOKEN, 5n * TOKEN, 2n * TOKEN))).toBe(17n * TOKEN);
    // Below the limit nothing changes: every UTXO.
    expect(largest(poolOf(5n * TOKEN, 4n * TOKEN, 3n))).toBe(9n * TOKEN + 3n);
  });

  it('fails the maximum in words when refused sends force inputs above a u64', () => {
    // Both UTXOs are inputs of refused sends, which every new selection must share.
    const pool = poolOf(10n * TOKEN, 10n * TOKEN).map((s) => (toHex(s.utxo.assetID) === toHex(asset) ? { ...s, first: true } : s));
    expect(() => largest(pool)).toThrow(AssetLimitError);
  });

  it('answers send.estimate for such an asset, with the most one tx can carry', async () => {
    const pool = poolOf(10n * TOKEN, 10n * TOKEN);
    const engine = { ctx, changeOwners, spendable: async () => pool };
    const engines = { open: async () => ({ engine }) } as unknown as AccountEngines;
    const sends = new SendsService(engines, {} as Delivery);
    const to = { addresses: [formatAddress('X', ctx.hrp, addr(0x22))], threshold: 1 };
    const estimate = await sends.sendEstimate({ chain: 'X', assetID: cb58Encode(asset), amount: (1n * TOKEN).toString(), to });
    expect(estimate).toEqual({ fee: ctx.xTxFee.toString(), maxAmount: (10n * TOKEN).toString() });
    await expect(sends.sendEstimate({ chain: 'X', assetID: cb58Encode(asset), amount: (15n * TOKEN).toString(), to })).rejects.toBeInstanceOf(AssetLimitError);
  });
});

// "Max" (the largest amount one tx can carry) with more UTXOs than fit one tx: exactly as many as
// the tx holds; and when the largest of them are unproven (staking rewards, genesis allocations:
// docs/proofs.md) among many small proven ones, the rewards are sendable (selection then takes the
// largest first) and an estimate never fails for every amount.
import { describe, expect, it } from 'vitest';
import type { AccountEngines } from '../../src/background/account-engines.js';
import type { Delivery } from '../../src/background/delivery.js';
import { largestAmount } from '../../src/background/max-amount.js';
import { SendsService } from '../../src/background/services/sends.js';
import { TransfersService } from '../../src/background/services/transfers.js';
import { memoryStores } from '../../src/background/storage.js';
import type { Utxo } from '../../src/core/codec/index.js';
import { cb58Encode, formatAddress } from '../../src/core/encoding.js';
import { InsufficientFundsError, TxTooLargeError } from '../../src/core/errors.js';
import { makeOwners } from '../../src/core/tx/context.js';
import { ownedAddressSet, type SpendableUtxo, spendableUtxos } from '../../src/core/tx/utxos.js';
import { buildXSend } from '../../src/core/tx/x.js';
import { addr, ctx, id } from './x-test-kit.js';

const me = addr(0x11);
const mine = makeOwners([me]);
const theirs = makeOwners([addr(0x22)]);
const changeOwners = makeOwners([addr(0x33)]);

let nextTx = 2000;
function utxo(amount: bigint): Utxo {
  return { txID: id(nextTx++), outputIndex: 0, assetID: ctx.avaxAssetID, output: { kind: 'TransferOutput', amount, owners: mine } };
}

/** 10 large unproven UTXOs (1,000 AVAX each) and 600 small proven ones (0.001 AVAX): more than one tx holds. */
function rewardsAndDust(): SpendableUtxo[] {
  const pool = spendableUtxos([...Array.from({ length: 10 }, () => utxo(1_000_000_000_000n)), ...Array.from({ length: 600 }, () => utxo(1_000_000n))], ownedAddressSet([me]), 0n);
  for (const s of pool.slice(0, 10)) s.unproven = true;
  return pool;
}

const send = (pool: readonly SpendableUtxo[], amount: bigint) => buildXSend({ ctx, pool, changeOwners, payments: [{ assetID: ctx.avaxAssetID, amount, owners: theirs }] });

describe('Max with unproven UTXOs among more than one tx holds', () => {
  it('is an amount the send builds, and the most it can carry: the rewards and as much dust as the tx still holds', () => {
    const pool = rewardsAndDust();
    const max = largestAmount({ pool, assetID: ctx.avaxAssetID, feesFor: () => [ctx.xTxFee], build: (a) => send(pool, a) });
    // Proven first would spend the dust alone (0.4 AVAX): the 10,000 AVAX of rewards could never be sent.
    expect(max).toBe(10n * 1_000_000_000_000n + 396n * 1_000_000n - ctx.xTxFee);
    const built = send(pool, max);
    // Nothing comes back: the inputs are spent whole, less the fee.
    expect(built.tx.outputs).toHaveLength(1);
    expect(built.fee).toBe(ctx.xTxFee);
    expect(() => send(pool, max + 1n)).toThrow(TxTooLargeError);
  });

  it('a send of more than the dust spends the rewards, not the dust first (proven first took every dust input, too many for one tx)', () => {
    const pool = rewardsAndDust();
    const built = send(pool, 2_500_000_000_000n);
    expect(built.spent).toHaveLength(3);
    // A small send still spends proven inputs first.
    expect(send(pool, 5_000_000n).spent.every((u) => u.output.kind === 'TransferOutput' && u.output.amount === 1_000_000n)).toBe(true);
  });

  it('with many equal UTXOs, takes as many as the tx holds (it left about 6 out: 1.5% of what one tx can carry)', () => {
    const pool = spendableUtxos(Array.from({ length: 600 }, () => utxo(1_000_000_000n)), ownedAddressSet([me]), 0n);
    const max = largestAmount({ pool, assetID: ctx.avaxAssetID, feesFor: () => [ctx.xTxFee], build: (a) => send(pool, a) });
    expect(send(pool, max).tx.outputs).toHaveLength(1);
    expect(() => send(pool, max + 1n)).toThrow(TxTooLargeError);
    expect(max).toBe(406n * 1_000_000_000n - ctx.xTxFee);
  });

  it('send.estimate answers for a small amount (it failed for every amount)', async () => {
    const pool = rewardsAndDust();
    const engine = { ctx, changeOwners, spendable: async () => pool };
    const engines = { open: async () => ({ engine }) } as unknown as AccountEngines;
    const sends = new SendsService(engines, {} as Delivery);
    const to = { addresses: [formatAddress('X', ctx.hrp, addr(0x22))], threshold: 1 };
    const estimate = await sends.sendEstimate({ chain: 'X', assetID: cb58Encode(ctx.avaxAssetID), amount: '5000000', to });
    expect(estimate.fee).toBe(ctx.xTxFee.toString());
    expect(() => send(pool, BigInt(estimate.maxAmount))).not.toThrow();
    // 610 UTXOs do not fit one tx: Max is less than all of it, and the estimate says so.
    expect(estimate.maxOneTx).toBe(true);
    const few = spendableUtxos(Array.from({ length: 20 }, () => utxo(1_000_000_000n)), ownedAddressSet([me]), 0n);
    const fewEngines = { open: async () => ({ engine: { ...engine, spendable: async () => few } }) } as unknown as AccountEngines;
    const all = await new SendsService(fewEngines, {} as Delivery).sendEstimate({ chain: 'X', assetID: cb58Encode(ctx.avaxAssetID), amount: '5000000', to });
    expect(all).toEqual({ fee: ctx.xTxFee.toString(), maxAmount: (20_000_000_000n - ctx.xTxFee).toString() });
    // 403 fit one tx all the same (past packInputs' spare room): Max is everything, nothing said.
    const justFit = spendableUtxos(Array.from({ length: 403 }, () => utxo(1_000_000_000n)), ownedAddressSet([me]), 0n);
    const justFitEngines = { open: async () => ({ engine: { ...engine, spendable: async () => justFit } }) } as unknown as AccountEngines;
    const whole = await new SendsService(justFitEngines, {} as Delivery).sendEstimate({ chain: 'X', assetID: cb58Encode(ctx.avaxAssetID), amount: '5000000', to });
    expect(whole).toEqual({ fee: ctx.xTxFee.toString(), maxAmount: (403_000_000_000n - ctx.xTxFee).toString() });
  });

  it("a move's estimate says the same of an export's Max: all the UTXOs do not fit one export", async () => {
    const estimateOf = async (pool: SpendableUtxo[]) => {
      const engine = { ctx, changeOwners, spendable: async () => pool, buildExport: async () => ({ fee: ctx.xTxFee }), estimateImportFee: async () => 1_000n };
      const service = new TransfersService({ open: async () => ({ engine }) } as never, {} as never, memoryStores().local);
      return service.transfersEstimate({ from: 'X', to: 'P', amount: '1000000' });
    };
    expect(await estimateOf(rewardsAndDust())).toMatchObject({ maxOneTx: true });
    const few = spendableUtxos(Array.from({ length: 20 }, () => utxo(1_000_000_000n)), ownedAddressSet([me]), 0n);
    expect(await estimateOf(few)).toEqual({ exportFee: ctx.xTxFee.toString(), importFee: '1000', maxAmount: (20_000_000_000n - ctx.xTxFee).toString() });
  });

  it('builds each candidate amount once: without unproven UTXOs both orders give the same candidates, and its tries are not spent twice on them', () => {
    const pool = spendableUtxos(Array.from({ length: 40 }, (_, i) => utxo(BigInt(i + 1) * 1_000_000_000n)), ownedAddressSet([me]), 0n);
    const built: bigint[] = [];
    // Refused above 610 AVAX (the 20 largest) for a reason other than size: 20 larger candidates fail first.
    const max = largestAmount({
      pool,
      assetID: ctx.avaxAssetID,
      feesFor: () => [ctx.xTxFee],
      build: (a) => {
        built.push(a);
        if (a > 610_000_000_000n) throw new InsufficientFundsError('AVAX', a, 610_000_000_000n);
        return send(pool, a);
      },
    });
    expect(new Set(built).size).toBe(built.length);
    expect(max).toBe(610_000_000_000n - ctx.xTxFee);
  });
});

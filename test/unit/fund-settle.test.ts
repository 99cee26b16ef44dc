// The funding loop when selection flips between input sets as the fee moves the target: many small
// proven UTXOs and one large unproven one (a staking reward). Over 256 inputs, selection takes the
// large one; the fee of 256 inputs then lifts the target over that line and the fee of one input
// brings it back. The tx must pay the fee of the inputs it has, not the fee of the other set.
import { describe, expect, it } from 'vitest';
import type { Utxo } from '../../src/core/codec/index.js';
import { amountOf } from '../../src/core/codec/rules.js';
import { type PFeeContext, pTxFee } from '../../src/core/fees.js';
import { makeOwners } from '../../src/core/tx/context.js';
import { buildPSend } from '../../src/core/tx/p.js';
import { ownedAddressSet, PROVEN_FIRST_MAX_INPUTS, spendableUtxos } from '../../src/core/tx/utxos.js';
import { addr, ctx, id } from './x-test-kit.js';

const me = addr(0x11);
const mine = makeOwners([me]);
const DUST = 10_000_000n;
const REWARD = 100_000_000_000n;
const fee: PFeeContext = { weights: [1n, 1000n, 1000n, 4n], gasPriceNavax: 10n };

function pool() {
  const utxos: Utxo[] = [REWARD, ...Array.from({ length: 300 }, () => DUST)].map((amount, i) => ({ txID: id(3000 + i), outputIndex: 0, assetID: ctx.avaxAssetID, output: { kind: 'TransferOutput', amount, owners: mine } }));
  const spendable = spendableUtxos(utxos, ownedAddressSet([me]), 0n);
  spendable[0]!.unproven = true;
  return spendable;
}

describe('a P-Chain send whose selection flips with the fee', () => {
  it('pays the fee of the inputs it spends, never the fee of the set it did not pick (the difference burned)', () => {
    const p = pool();
    const line = BigInt(PROVEN_FIRST_MAX_INPUTS) * DUST;
    let flipped = 0;
    // Amounts around the line where the fee of 256 inputs takes the target over it.
    for (let amount = line - 12_000_000n; amount <= line; amount += 250_000n) {
      const built = buildPSend({ ctx, fee, pool: p, changeOwners: mine, amount, to: makeOwners([addr(0x22)]) });
      expect(built.fee, `amount ${amount}`).toBe(pTxFee(built.tx, fee));
      const outputs = built.tx.outputs.reduce((s, o) => s + amountOf(o.output), 0n);
      const inputs = built.tx.inputs.reduce((s, i) => s + (i.input.kind === 'TransferInput' ? i.input.amount : 0n), 0n);
      expect(inputs - outputs).toBe(built.fee);
      if (built.spent.length < 10) flipped++;
    }
    // The window holds amounts that end on the large input (the case this is about).
    expect(flipped).toBeGreaterThan(0);
  });
});

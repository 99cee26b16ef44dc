// The P-Chain and C-Chain builders: the P-Chain's dynamic fee (exact for sends, exports and
// imports; a change output not worth its fee dropped) and the C-Chain's atomic export and import.
import { describe, expect, it } from 'vitest';
import { toHex } from '../../src/core/bytes.js';
import { encodeUnsignedTx, type PTx } from '../../src/core/codec/index.js';
import { InsufficientFundsError, ValidationError } from '../../src/core/errors.js';
import { pTxComplexity, pTxFee, pGas, atomicTxGas, atomicTxFee } from '../../src/core/fees.js';
import { addr, ctx, id } from './x-test-kit.js';
import { expectedSignedSize } from '../../src/core/tx/built.js';
import { buildPExport, buildPImport, buildPSend } from '../../src/core/tx/p.js';
import { buildCExport, buildCImport } from '../../src/core/tx/c.js';
import { spendableUtxos } from '../../src/core/tx/utxos.js';
import { burned, mine, owned, theirs, utxo } from './builders-test-kit.js';

describe('P-Chain dynamic fee', () => {
  it('reproduces the worked complexity (1 input, 2 one-address outputs → gas 5179)', () => {
    const tx: PTx = {
      vm: 'pvm', kind: 'BaseTx', networkID: 1, blockchainID: ctx.pChainID, memo: new Uint8Array(),
      outputs: [
        { assetID: ctx.avaxAssetID, output: { kind: 'TransferOutput', amount: 1n, owners: mine } },
        { assetID: ctx.avaxAssetID, output: { kind: 'TransferOutput', amount: 2n, owners: theirs } },
      ],
      inputs: [{ txID: id(5), outputIndex: 0, assetID: ctx.avaxAssetID, input: { kind: 'TransferInput', amount: 4n, sigIndices: [0] } }],
    };
    const c = pTxComplexity(tx);
    expect(c).toEqual([379n, 1n, 3n, 200n]);
    expect(pGas(c, [1n, 1000n, 1000n, 4n])).toBe(5179n);
    // Bandwidth is the real signed size.
    expect(expectedSignedSize(tx)).toBe(379);
  });

  it('funds sends, exports and imports with exactly the fee of the final tx', () => {
    const fee = { weights: [1n, 1000n, 1000n, 4n] as const, gasPriceNavax: 3n };
    const pool = spendableUtxos([utxo(9_000_000n), utxo(1_000n, { stakeableUntil: 10n ** 12n })], owned, 0n);
    const send = buildPSend({ ctx, fee, pool, changeOwners: mine, amount: 1_000_000n, to: theirs });
    expect(send.fee).toBe(pTxFee(send.tx, fee));
    expect(burned(send.tx, ctx.avaxAssetID)).toBe(send.fee);
    const exp = buildPExport({ ctx, fee, pool, changeOwners: mine, destination: 'C', amount: 2_000_000n, to: mine });
    expect(exp.fee).toBe(pTxFee(exp.tx, fee));
    expect(burned(exp.tx, ctx.avaxAssetID, 0n, 2_000_000n)).toBe(exp.fee);
    expect(exp.tx.destinationChain).toEqual(ctx.cChainID);
    const atomic = spendableUtxos([utxo(5_000_000n)], owned, 0n);
    const [imp] = buildPImport({ ctx, fee, pool: [], changeOwners: mine, source: 'X', atomicUtxos: atomic, to: mine });
    expect(imp!.fee).toBe(pTxFee(imp!.tx, fee));
    expect(imp!.tx.outputs[0]!.output).toMatchObject({ amount: 5_000_000n - imp!.fee });
  });

  it('imports every atomic AVAX UTXO, their sum less the fee, and refuses any other asset', () => {
    const fee = { weights: [1n, 1000n, 1000n, 4n] as const, gasPriceNavax: 3n };
    const atomic = spendableUtxos([utxo(5_000_000n), utxo(3_000_000n), utxo(2_000_000n)], owned, 0n);
    const [imp, more] = buildPImport({ ctx, fee, pool: [], changeOwners: mine, source: 'X', atomicUtxos: atomic, to: mine });
    expect(more).toBeUndefined();
    expect(imp!.tx.importedInputs).toHaveLength(3);
    expect(imp!.tx.inputs).toHaveLength(0);
    expect(imp!.tx.outputs).toHaveLength(1);
    expect(imp!.tx.outputs[0]!.output).toMatchObject({ amount: 10_000_000n - imp!.fee, owners: mine });
    expect(imp!.fee).toBe(pTxFee(imp!.tx, fee));

    const token = spendableUtxos([utxo(5_000_000n), utxo(7n, { asset: id(77) })], owned, 0n);
    const refused = (() => {
      try {
        buildPImport({ ctx, fee, pool: [], changeOwners: mine, source: 'X', atomicUtxos: token, to: mine });
      } catch (e) {
        return e;
      }
    })();
    expect(refused).toBeInstanceOf(ValidationError);
    expect(refused).toMatchObject({ field: 'atomicUtxos', message: 'only AVAX can be imported into the P-Chain' });
  });

  it('splits an import past the size limit into txs that each credit only their own UTXOs', () => {
    const fee = { weights: [1n, 1000n, 1000n, 4n] as const, gasPriceNavax: 3n };
    const atomic = spendableUtxos(Array.from({ length: 450 }, (_, i) => utxo(1_000_000n + BigInt(i))), owned, 0n);
    const imports = buildPImport({ ctx, fee, pool: [], changeOwners: mine, source: 'X', atomicUtxos: atomic, to: mine });
    expect(imports.length).toBeGreaterThan(1);
    const taken = new Set<string>();
    for (const imp of imports) {
      const credited = imp.tx.importedInputs.reduce((sum, i) => sum + (i.input.kind === 'TransferInput' ? i.input.amount : 0n), 0n);
      expect(imp.tx.outputs).toHaveLength(1);
      expect(imp.tx.outputs[0]!.output).toMatchObject({ amount: credited - imp.fee });
      expect(imp.fee).toBe(pTxFee(imp.tx, fee));
      for (const i of imp.tx.importedInputs) taken.add(toHex(i.txID));
    }
    expect(taken.size).toBe(450);
  });

  it("funds a split import's fees from the wallet without spending one of its UTXOs twice; a group it can no longer pay for is left for later", () => {
    const fee = { weights: [1n, 1000n, 1000n, 4n] as const, gasPriceNavax: 3n };
    // Dust that cannot pay its own fee, in more than one tx.
    const dust = () => spendableUtxos(Array.from({ length: 450 }, () => utxo(100n)), owned, 0n);
    const inputsOf = (imports: { tx: { inputs: { txID: Uint8Array }[] } }[]) => imports.flatMap((imp) => imp.tx.inputs.map((i) => toHex(i.txID)));
    const twoToPay = buildPImport({ ctx, fee, pool: spendableUtxos([utxo(9_000_000n), utxo(8_000_000n)], owned, 0n), changeOwners: mine, source: 'X', atomicUtxos: dust(), to: mine });
    expect(twoToPay).toHaveLength(2);
    expect(inputsOf(twoToPay)).toHaveLength(2);
    expect(new Set(inputsOf(twoToPay)).size).toBe(2);
    for (const imp of twoToPay) expect(imp.fee).toBe(pTxFee(imp.tx, fee));

    const oneToPay = buildPImport({ ctx, fee, pool: spendableUtxos([utxo(9_000_000n)], owned, 0n), changeOwners: mine, source: 'X', atomicUtxos: dust(), to: mine });
    expect(oneToPay).toHaveLength(1);
    expect(inputsOf(oneToPay)).toHaveLength(1);
    // Nothing at all to pay with: the fee's shortage is said.
    expect(() => buildPImport({ ctx, fee, pool: [], changeOwners: mine, source: 'X', atomicUtxos: dust(), to: mine })).toThrow(InsufficientFundsError);
  });
});

describe('C-Chain atomic', () => {
  it('computes the export fee from gas and base fee, debiting amount + fee with the nonce', () => {
    const built = buildCExport({
      ctx, from: addr(0x44), nonce: 7n, balanceWei: 10n ** 18n, destination: 'X', amount: 1_000_000n, to: mine, baseFeeWei: 25_000_000_000n,
    });
    const gas = atomicTxGas(built.tx);
    expect(gas).toBe(BigInt(encodeUnsignedTx(built.tx).length) + 1000n + 10_000n);
    expect(built.fee).toBe(atomicTxFee(gas, 25_000_000_000n));
    expect(built.tx.ins[0]).toMatchObject({ amount: 1_000_000n + built.fee, nonce: 7n });
    expect(() =>
      buildCExport({ ctx, from: addr(0x44), nonce: 0n, balanceWei: 1_000_000n * 10n ** 9n, destination: 'P', amount: 1_000_000n, to: mine, baseFeeWei: 1n }),
    ).toThrow(InsufficientFundsError);
  });

  it('matches the known 1-in/1-out gas of 11 230 and splits imports under 100 000 gas', () => {
    const [one] = buildCImport({ ctx, source: 'X', atomicUtxos: spendableUtxos([utxo(10_000_000n)], owned, 0n), to: addr(0x44), baseFeeWei: 25_000_000_000n });
    expect(atomicTxGas(one!.tx)).toBe(11_230n);
    expect(one!.fee).toBe(280_750n);
    const many = spendableUtxos(Array.from({ length: 200 }, () => utxo(10_000_000n)), owned, 0n);
    const txs = buildCImport({ ctx, source: 'P', atomicUtxos: many, to: addr(0x44), baseFeeWei: 1n });
    expect(txs.length).toBeGreaterThan(2);
    expect(txs.reduce((n, t) => n + t.tx.importedInputs.length, 0)).toBe(200);
    for (const t of txs) expect(atomicTxGas(t.tx)).toBeLessThanOrEqual(100_000n);
  });

  it('pays the fee reviewed instead of a costlier one of now only while it still pays the floor per gas; imports share it by gas', () => {
    const export_ = (baseFeeWei: bigint, cap?: { maxFee: bigint; floorBaseFeeWei: bigint }) =>
      buildCExport({ ctx, from: addr(0x44), nonce: 0n, balanceWei: 10n ** 18n, destination: 'X', amount: 1_000_000n, to: mine, baseFeeWei, cap });
    const [reviewedAt, now] = [25_000_000_000n, 30_000_000_000n];
    const gas = atomicTxGas(export_(1n).tx);
    const maxFee = atomicTxFee(gas, reviewedAt);
    // What the node takes the reviewed fee to pay per gas.
    const perGas = (maxFee * 1_000_000_000n) / gas;
    expect(export_(now, { maxFee, floorBaseFeeWei: perGas }).fee).toBe(maxFee);
    expect(export_(now, { maxFee, floorBaseFeeWei: perGas + 1n }).fee).toBe(atomicTxFee(gas, now));
    // Cheaper now than reviewed: the fee of now.
    expect(export_(1_000_000_000n, { maxFee, floorBaseFeeWei: 1n }).fee).toBe(atomicTxFee(gas, 1_000_000_000n));
    // A balance that pays the reviewed fee, but not the fee of now, is enough.
    const tight = buildCExport({ ctx, from: addr(0x44), nonce: 0n, balanceWei: (1_000_000n + maxFee) * 10n ** 9n, destination: 'X', amount: 1_000_000n, to: mine, baseFeeWei: now, cap: { maxFee, floorBaseFeeWei: 1n } });
    expect(tight.tx.ins[0]!.amount).toBe(1_000_000n + maxFee);

    const many = spendableUtxos(Array.from({ length: 200 }, () => utxo(10_000_000n)), owned, 0n);
    const allGas = buildCImport({ ctx, source: 'P', atomicUtxos: many, to: addr(0x44), baseFeeWei: 1n }).reduce((g, t) => g + atomicTxGas(t.tx), 0n);
    const reviewed = atomicTxFee(allGas, reviewedAt);
    const txs = buildCImport({ ctx, source: 'P', atomicUtxos: many, to: addr(0x44), baseFeeWei: now, cap: { maxFee: reviewed, floorBaseFeeWei: 24_000_000_000n } });
    const paid = txs.reduce((f, t) => f + t.fee, 0n);
    expect(paid).toBeLessThanOrEqual(reviewed);
    expect(paid).toBeGreaterThan(reviewed - BigInt(txs.length));
    for (const t of txs) expect((t.fee * 1_000_000_000n) / atomicTxGas(t.tx)).toBeGreaterThanOrEqual(24_000_000_000n);
  });

  it('refuses non-AVAX imports', () => {
    const odd = spendableUtxos([utxo(10n, { asset: id(8) })], owned, 0n);
    expect(() => buildCImport({ ctx, source: 'X', atomicUtxos: odd, to: addr(1), baseFeeWei: 1n })).toThrow(/only AVAX/);
  });
});

describe('a change output worth less than its own fee', () => {
  it('is dropped and the leftover burned, so a P send of everything after the no-change fee builds', () => {
    const fee = { weights: [1n, 1000n, 1000n, 4n] as const, gasPriceNavax: 1n };
    const pool = spendableUtxos([utxo(10_000_000n)], owned, 0n);
    const noChange = buildPSend({ ctx, fee, pool, changeOwners: mine, amount: 1n, to: theirs });
    // The largest send: everything minus the fee of a tx with no change output.
    const feeWithoutChange = noChange.fee - 1_080n; // one 1-address output: 80 bytes + 1000 DBWrite gas at price 1
    const max = buildPSend({ ctx, fee, pool, changeOwners: mine, amount: 10_000_000n - feeWithoutChange, to: theirs });
    expect(max.tx.outputs).toHaveLength(1);
    expect(max.fee).toBe(feeWithoutChange);
    expect(max.fee).toBe(pTxFee(max.tx, fee));
    // A few nAVAX less leaves a leftover too small to pay for its change output: it is burned.
    const almost = buildPSend({ ctx, fee, pool, changeOwners: mine, amount: 10_000_000n - feeWithoutChange - 5n, to: theirs });
    expect(almost.tx.outputs).toHaveLength(1);
    expect(almost.fee).toBe(feeWithoutChange + 5n);
    expect(burned(almost.tx, ctx.avaxAssetID)).toBe(almost.fee);
  });
});

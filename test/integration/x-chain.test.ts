import { describe, expect, it } from 'vitest';
import { parseId } from '../../src/core/encoding.js';
import { decodeSignedTx, type XBaseTx } from '../../src/core/codec/index.js';
import { makeOwners } from '../../src/core/tx/context.js';
import { fixedCapState } from '../../src/core/tx/x.js';
import { AVAX, avaxOf, freshWallet, genesisEngine, localNetwork, spendableOf } from './fixture.js';

describe('X-Chain sends against the real node', () => {
  it('sends AVAX: the recipient gets the amount, the sender pays amount + the static fee, change comes back', async () => {
    const { ctx, client } = await localNetwork();
    const alice = await freshWallet({ x: 10n * AVAX });
    const bob = await freshWallet();
    expect(await avaxOf(alice.engine, 'X')).toBe(10n * AVAX);

    const built = await alice.engine.buildXSend([{ assetID: ctx.avaxAssetID, amount: 3n * AVAX, owners: bob.me }]);
    expect(built.fee).toBe(ctx.xTxFee);
    const issued = await alice.engine.issueAndWait(built);
    expect(await client.avm.getTxStatus(issued.txID)).toBe('Accepted');

    expect(await avaxOf(bob.engine, 'X')).toBe(3n * AVAX);
    expect(await avaxOf(alice.engine, 'X')).toBe(7n * AVAX - ctx.xTxFee);
    // The change went to the wallet's change address, not back to the receive address.
    const aliceUtxos = await alice.engine.utxos('X');
    expect(aliceUtxos).toHaveLength(1);
    const out = aliceUtxos[0]!.output;
    expect(out.kind === 'TransferOutput' && out.owners.addresses[0]).toEqual(alice.change[0]!.shortId);
  });

  it('sends another asset and AVAX to several owners in one tx, and the memo round-trips through the node', async () => {
    const { ctx, client } = await localNetwork();
    const alice = await freshWallet({ x: 20n * AVAX });
    const bob = await freshWallet();
    const carol = await freshWallet();
    const created = await alice.engine.issueAndWait(
      await alice.engine.buildXCreateAsset({
        name: 'Test Token', symbol: 'TTK', denomination: 3,
        initialStates: [fixedCapState([{ owners: alice.me, amount: 1_000_000n }])],
      }),
    );
    const token = parseId(created.txID);
    const memo = new TextEncoder().encode('rent for March — ✓');
    const issued = await alice.engine.issueAndWait(
      await alice.engine.buildXSend(
        [
          { assetID: token, amount: 250_000n, owners: bob.me },
          { assetID: token, amount: 1n, owners: carol.me },
          { assetID: ctx.avaxAssetID, amount: 2n * AVAX, owners: carol.me },
          { assetID: ctx.avaxAssetID, amount: 1n * AVAX, owners: makeOwners([bob.receive[1]!.shortId, carol.receive[0]!.shortId], 1) },
        ],
        memo,
      ),
    );
    expect(await spendableOf(bob.engine, 'X', token)).toBe(250_000n);
    expect(await spendableOf(carol.engine, 'X', token)).toBe(1n);
    expect(await spendableOf(alice.engine, 'X', token)).toBe(749_999n);
    // The 1-of-2 output counts as spendable for both of its owners.
    expect(await avaxOf(carol.engine, 'X')).toBe(3n * AVAX);
    expect(await avaxOf(bob.engine, 'X')).toBe(1n * AVAX);
    expect(await avaxOf(alice.engine, 'X')).toBe(20n * AVAX - ctx.xCreateAssetTxFee - 3n * AVAX - ctx.xTxFee);

    const fromNode = decodeSignedTx(await client.avm.getTx(issued.txID), 'avm').unsigned as XBaseTx;
    expect(new TextDecoder().decode(fromNode.memo)).toBe('rent for March — ✓');
    expect(fromNode.outputs).toHaveLength(issued.tx.kind === 'BaseTx' ? issued.tx.outputs.length : -1);
  });

  it('counts only the owner sets its keys meet, when many UTXOs share the same foreign addresses', async () => {
    const { ctx } = await localNetwork();
    const genesis = await genesisEngine();
    const w = await freshWallet();
    const mine = w.receive[0]!.shortId;
    // Foreign owners that sort before and after any real address; the node's answer repeats each
    // in several UTXOs (its reader shares one array per address), in an order the node picks.
    const low = new Uint8Array(20);
    const high = new Uint8Array(20).fill(0xff);
    const pay = (amount: bigint, owners: ReturnType<typeof makeOwners>) => ({ assetID: ctx.avaxAssetID, amount, owners });
    await genesis.issueAndWait(
      await genesis.buildXSend([
        pay(1n * AVAX, makeOwners([low, mine], 1)),
        pay(2n * AVAX, makeOwners([low, mine], 2)),
        pay(4n * AVAX, makeOwners([low, mine], 2)),
        pay(8n * AVAX, makeOwners([mine, high], 1)),
        pay(16n * AVAX, makeOwners([mine, high], 2)),
        pay(32n * AVAX, makeOwners([mine, high], 2)),
      ]),
    );
    expect(await avaxOf(w.engine, 'X')).toBe(9n * AVAX);
    const pool = await w.engine.spendable('X');
    expect(pool.map((s) => [s.amount, s.sigIndices]).sort((a, b) => (a[0]! < b[0]! ? -1 : 1))).toEqual([
      [1n * AVAX, [1]],
      [8n * AVAX, [0]],
    ]);
  });
});

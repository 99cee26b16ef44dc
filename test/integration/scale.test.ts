import { describe, expect, it } from 'vitest';
import type { WalletEngine } from '../../src/core/engine.js';
import { xParams } from '../../src/core/engine-types.js';
import { makeOwners } from '../../src/core/tx/context.js';
import type { OutputOwners } from '../../src/core/codec/types.js';
import { buildXSendSplit } from '../../src/core/tx/x.js';
import { AVAX, avaxOf, freshWallet, genesisEngine, localNetwork } from './fixture.js';

const UTXO_COUNT = 2_600;

/** `amount` of AVAX in as many txs as its inputs need, each paying its own fee (the wallet's own sends never split). */
const splitSend = async (engine: WalletEngine, amount: bigint, owners: OutputOwners) => buildXSendSplit({ ...(await xParams(engine)), amount, owners });
const PER_TX = 650; // outputs per funding tx: ~52 KB signed, under the 64 KiB mempool limit
const UNIT = 10_000_000n; // 0.01 AVAX per UTXO

describe('an address holding thousands of UTXOs', () => {
  it(`balances ${UTXO_COUNT} UTXOs exactly from paginated getUTXOs and sends most of it in several txs`, async () => {
    const { ctx, client } = await localNetwork();
    const genesis = await genesisEngine();
    const w = await freshWallet();
    const bob = await freshWallet();
    for (let sent = 0; sent < UTXO_COUNT; sent += PER_TX) {
      const payments = Array.from({ length: PER_TX }, () => ({ assetID: ctx.avaxAssetID, amount: UNIT, owners: w.me }));
      await genesis.issueAndWait(await genesis.buildXSend(payments));
    }

    const page = await client.getAllUtxos('X', w.engine.addresses('X'));
    expect(page.utxos).toHaveLength(UTXO_COUNT);
    expect(page.dropped).toHaveLength(0);
    // ceil(2600 / 1024) = 3 pages for the one batch of addresses.
    expect(page.requests).toBe(3);
    const total = UNIT * BigInt(UTXO_COUNT);
    expect(await avaxOf(w.engine, 'X')).toBe(total);

    // Most of it: more inputs than one tx can hold, so the wallet splits the send.
    const amount = total - 2n * AVAX;
    const txs = await splitSend(w.engine, amount, bob.me);
    expect(txs.length).toBeGreaterThan(1);
    const fees = txs.reduce((s, t) => s + t.fee, 0n);
    for (const t of txs) await w.engine.issueAndWait(t);
    expect(await avaxOf(bob.engine, 'X')).toBe(amount);
    expect(await avaxOf(w.engine, 'X')).toBe(total - amount - fees);

    // More than is there, after the fees of the txs it would take: a clear refusal.
    await expect(splitSend(w.engine, 2n * AVAX, makeOwners([bob.receive[0]!.shortId]))).rejects.toThrow(/insufficient|short/);
  });
});

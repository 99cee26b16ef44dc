// UTXOs proven against the txs that created them, on the real Helicon node: what is proven, what
// cannot be, what a consistent lie about a UTXO looks like once its tx is read, and the cache.
import { describe, expect, it } from 'vitest';
import { encodeUtxo, type Utxo } from '../../src/core/codec/index.js';
import { memoryProofCache, proveUtxos, provenAsset, type ReadUtxo } from '../../src/core/proof.js';
import type { ChainAlias } from '../../src/core/node.js';
import { fixedCapState } from '../../src/core/tx/x.js';
import { AVAX, freshWallet, genesisEngine, localNetwork } from './fixture.js';

async function readUtxos(chain: ChainAlias, addresses: string[], sourceChain?: ChainAlias): Promise<ReadUtxo[]> {
  const { client } = await localNetwork();
  const r = await client.getAllUtxos(chain, addresses, sourceChain ? { sourceChain } : {});
  return r.utxos.map((utxo, i) => ({ utxo, bytes: r.encoded[i]!, digest: r.digests[i]! }));
}

/** A UTXO as a lying node could send it: changed, re-encoded, its checksum valid. */
function forged(r: ReadUtxo, change: (u: Utxo) => Utxo): ReadUtxo {
  const utxo = change(r.utxo);
  return { utxo, bytes: encodeUtxo(utxo, 'avm') };
}

describe('UTXOs proven by their creating tx (real node)', () => {
  it('X: UTXOs from sends and from the genesis asset tx are proven; a second read asks the node for no tx', async () => {
    const { client, ctx } = await localNetwork();
    const w = await freshWallet({ x: 3n * AVAX });
    const genesis = await genesisEngine();
    await genesis.issueAndWait(await genesis.buildXSend([{ assetID: w.engine.ctx.avaxAssetID, amount: 2n * AVAX, owners: w.me }]));
    const read = await readUtxos('X', w.engine.addresses('X'));
    expect(read).toHaveLength(2);
    const cache = memoryProofCache();
    const first = await proveUtxos(client, 'X', read, { network: ctx, cache });
    expect(first).toMatchObject({ unproven: [], disproven: [], txsRead: 2 });
    expect(first.utxos).toHaveLength(2);
    expect(cache.size).toBe(2);
    const again = await proveUtxos(client, 'X', read, { network: ctx, cache });
    expect(again).toMatchObject({ unproven: [], disproven: [], txsRead: 0 });

    // The genesis key's X UTXOs come from the AVAX CreateAssetTx itself: proven too.
    const fromGenesis = await readUtxos('X', genesis.addresses('X'));
    expect((await proveUtxos(client, 'X', fromGenesis, { network: ctx, cache: memoryProofCache() })).unproven).toEqual([]);
  });

  it('P: genesis allocations (no tx) are unproven and counted apart; P UTXOs from txs are proven', async () => {
    const genesis = await genesisEngine();
    const [avax] = (await genesis.balances('P')).filter((b) => b.assetID.every((v, i) => v === genesis.ctx.avaxAssetID[i]));
    expect(avax!.unproven).toBeGreaterThan(0n);
    expect(avax!.unproven).toBeLessThanOrEqual(avax!.spendable + avax!.locked + avax!.lockedStakeable);

    const w = await freshWallet({ p: 2n * AVAX });
    const [mine] = await w.engine.balances('P');
    expect(mine).toMatchObject({ spendable: 2n * AVAX, unproven: 0n });
  });

  it('atomic UTXOs are proven by the export on the other chain (X → C from an X tx, C → P from a C atomic tx)', async () => {
    const { client, ctx } = await localNetwork();
    const w = await freshWallet({ x: 5n * AVAX });
    await w.engine.issueAndWait(await w.engine.buildExport('X', 'C', 2n * AVAX));
    const onC = await readUtxos('C', w.engine.addresses('C'), 'X');
    expect(onC.length).toBeGreaterThan(0);
    expect(await proveUtxos(client, 'C', onC, { network: ctx, sourceChain: 'X', cache: memoryProofCache() })).toMatchObject({ unproven: [], disproven: [] });

    for (const tx of await w.engine.buildImports('C', 'X')) await w.engine.issueAndWait(tx);
    // Helicon executes C-Chain blocks after accepting them: the imported balance shows a moment later.
    await expect.poll(() => w.engine.cBalanceWei(), { timeout: 15_000 }).toBeGreaterThan(0n);
    await w.engine.issueAndWait(await w.engine.buildExport('C', 'P', AVAX));
    const onP = await readUtxos('P', w.engine.addresses('P'), 'C');
    expect(onP.length).toBeGreaterThan(0);
    expect(await proveUtxos(client, 'P', onP, { network: ctx, sourceChain: 'C', cache: memoryProofCache() })).toMatchObject({ unproven: [], disproven: [] });
  });

  it('consistent lies: a rewritten amount or a made-up index is disproven by the real tx; a made-up tx is unproven', async () => {
    const { client, ctx } = await localNetwork();
    const w = await freshWallet({ x: 10n * AVAX });
    const [real] = await readUtxos('X', w.engine.addresses('X'));
    const inflate = (u: Utxo): Utxo => (u.output.kind === 'TransferOutput' ? { ...u, output: { ...u.output, amount: u.output.amount * 100n } } : u);
    const inflated = forged(real!, inflate);
    const extraIndex = forged(real!, (u) => ({ ...u, outputIndex: 7 }));
    const madeUpTx = forged(real!, (u) => ({ ...u, txID: new Uint8Array(32).fill(9) }));
    const checked = await proveUtxos(client, 'X', [real!, inflated, extraIndex, madeUpTx], { network: ctx, cache: memoryProofCache() });
    expect(checked.utxos).toEqual([real!.utxo, madeUpTx.utxo]);
    expect(checked.unproven).toEqual([madeUpTx.utxo]);
    expect(checked.disproven.map((d) => d.reason)).toEqual([
      'disproven: its transaction created a different output at this index',
      'disproven: its transaction created no such output',
    ]);
  });

  it("an asset's name, symbol and decimals come from its CreateAssetTx", async () => {
    const { client } = await localNetwork();
    const w = await freshWallet({ x: 5n * AVAX });
    const created = await w.engine.issueAndWait(
      await w.engine.buildXCreateAsset({ name: 'Proof Token', symbol: 'PRF', denomination: 4, initialStates: [fixedCapState([{ owners: w.me, amount: 10_000n }])] }),
    );
    expect(await provenAsset(client, created.txID)).toEqual({ name: 'Proof Token', symbol: 'PRF', denomination: 4 });
    await expect(provenAsset(client, (await w.engine.issueAndWait(await w.engine.buildXSend([{ assetID: w.engine.ctx.avaxAssetID, amount: AVAX, owners: w.me }]))).txID)).rejects.toMatchObject({ code: 'validation' });
  });

  it('an export to another chain does not prove a UTXO in this chain\'s atomic memory; past the time budget nothing more is read', async () => {
    const { client, ctx } = await localNetwork();
    const w = await freshWallet({ x: 5n * AVAX });
    await w.engine.issueAndWait(await w.engine.buildExport('X', 'P', AVAX));
    const onP = await readUtxos('P', w.engine.addresses('P'), 'X');
    expect(onP.length).toBe(1);
    // The same bytes, claimed to wait on the C-Chain: the export says P.
    const asIfOnC = await proveUtxos(client, 'C', onP, { network: ctx, sourceChain: 'X', cache: memoryProofCache() });
    expect(asIfOnC.disproven.map((d) => d.reason)).toEqual(['disproven: its transaction is for another network or chain']);
    const late = await proveUtxos(client, 'P', onP, { network: ctx, sourceChain: 'X', cache: memoryProofCache(), budgetMs: 0 });
    expect(late).toMatchObject({ txsRead: 0, disproven: [] });
    expect(late.unproven).toHaveLength(1);
  });
});

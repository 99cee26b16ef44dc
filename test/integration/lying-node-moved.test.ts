// A move between chains that ran, behind a node that lists its export's input again afterwards
// (a lagging backend, or a lie), on the Helicon test node: the funds count once, where they arrived.
import { describe, expect, inject, it } from 'vitest';
import { utxoId } from '../../src/core/codec/ids.js';
import type { Utxo } from '../../src/core/codec/index.js';
import type { AssetBalanceView, BalancesView } from '../../src/shared/messages.js';
import { AVAX, freshWallet } from './fixture.js';
import { lyingNode, moveUntilDone, refreshUntilDecided, rewriteUtxos } from './lying-node.js';
import { fundedWallet } from './wallet-fixture.js';

const row = (view: BalancesView, chain: string, assetID: string): AssetBalanceView | undefined => view.balances.find((b) => b.chain === chain && b.assetID === assetID);

/** A wallet that moved 2 AVAX from X to P, the move completed, and a node that can list the export's input again (`relist`). */
async function movedFromX() {
  const node = lyingNode();
  const { wallet, avax } = await fundedWallet({ x: 10n * AVAX }, { fetch: node.fetch });
  // What the X-Chain lists before the move: the funds its export will spend.
  const before: Utxo[] = [];
  node.lies.set('avm.getUTXOs', rewriteUtxos('avm', (utxos) => (before.push(...utxos), utxos)));
  await wallet.balances.balancesRefresh();
  node.lies.delete('avm.getUTXOs');
  expect(before.length).toBeGreaterThan(0);
  expect(await moveUntilDone(wallet, 'X', 'P', 2n * AVAX)).toBe('completed');
  const honest = await wallet.balances.balancesRefresh();
  // The node lists the export's input again beside what it lists now.
  const relist = () => node.lies.set('avm.getUTXOs', rewriteUtxos('avm', (utxos) => [...utxos, ...before.filter((b) => !utxos.some((u) => utxoId(u) === utxoId(b)))]));
  return { node, wallet, avax, relist, xAfter: BigInt(row(honest, 'X', avax)!.spendable), pAfter: BigInt(row(honest, 'P', avax)!.spendable) };
}

describe("a move whose import ran, its export's input listed again on its chain", () => {
  it('counts the funds once, on the chain they arrived on: the input listed again is left out, said so, and never selected by a send', async () => {
    const { node, wallet, avax, relist, xAfter, pAfter } = await movedFromX();
    expect(xAfter).toBeLessThan(8n * AVAX);
    expect(pAfter).toBeGreaterThan(AVAX);

    relist();
    const lied = await wallet.balances.balancesRefresh();
    expect(BigInt(row(lied, 'X', avax)!.spendable)).toBe(xAfter);
    expect(BigInt(row(lied, 'P', avax)!.spendable)).toBe(pAfter);
    expect(lied.warnings).toEqual([expect.stringMatching(/X-Chain .*a move between chains spent it, and its funds arrived on the other chain\): not counted/)]);
    // A send on X, the node still listing the input: it never selects it (the node would refuse it as spent).
    const to = { addresses: [(await freshWallet()).engine.addresses('X')[0]!], threshold: 1 };
    const { fee } = await wallet.sends.sendEstimate({ chain: 'X', assetID: avax, amount: AVAX.toString(), to });
    const sent = await wallet.sends.sendX({ assetID: avax, amount: AVAX.toString(), to, maxFee: fee });
    expect(await refreshUntilDecided(wallet, sent.txID)).toBe('accepted');
    node.lies.delete('avm.getUTXOs');
    const again = await wallet.balances.balancesRefresh();
    expect(BigInt(row(again, 'X', avax)!.spendable)).toBe(xAfter - AVAX - BigInt(fee));
    expect(again.warnings).toBeUndefined();
  });

  it("counts them once through another network entry for the same chains, whose spent book never saw the move: the move's record names the export's input", async () => {
    const { wallet, avax, relist, xAfter } = await movedFromX();
    const second = await wallet.networks.networksAddCustom({ name: 'Test node again', url: inject('nodeUrl') });
    await wallet.networks.networksSelect({ id: second.id });
    relist();
    const lied = await wallet.balances.balancesRefresh();
    expect(BigInt(row(lied, 'X', avax)!.spendable)).toBe(xAfter);
    expect(lied.warnings).toEqual([expect.stringMatching(/X-Chain .*a move between chains spent it, and its funds arrived on the other chain\): not counted/)]);
  });
});

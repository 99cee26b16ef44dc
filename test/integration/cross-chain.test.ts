import { describe, expect, it } from 'vitest';
import type { Issued, WalletEngine } from '../../src/core/engine.js';
import { buildWaitingImports, waitingFunds } from '../../src/core/waiting-funds.js';
import { AVAX, avaxOf, freshWallet, localNetwork, WEI_PER_NAVAX } from './fixture.js';

type Chain = 'X' | 'P' | 'C';

async function balanceOf(engine: WalletEngine, chain: Chain): Promise<bigint> {
  // C is compared in nAVAX: the wallet's C balance only changes by whole nAVAX here.
  return chain === 'C' ? (await engine.cBalanceWei()) / WEI_PER_NAVAX : avaxOf(engine, chain);
}

/** Moves `amount` and checks both balances to the unit: source −(amount + export fee), destination +(amount − import fee). */
async function moveExactly(engine: WalletEngine, from: Chain, to: Chain, amount: bigint) {
  const { client } = await localNetwork();
  const [fromBefore, toBefore] = [await balanceOf(engine, from), await balanceOf(engine, to)];
  const { exported, imported } = await engine.move(from, to, amount);
  expect(imported).toHaveLength(1);
  const importFee = imported[0]!.fee;
  expect(await balanceOf(engine, from)).toBe(fromBefore - amount - exported.fee);
  expect(await balanceOf(engine, to)).toBe(toBefore + amount - importFee);
  // Both halves are final on their chains' status APIs.
  for (const tx of [exported, ...imported]) {
    if (tx.chain === 'X') expect(await client.avm.getTxStatus(tx.txID)).toBe('Accepted');
    if (tx.chain === 'P') expect((await client.platform.getTxStatus(tx.txID)).status).toBe('Committed');
    if (tx.chain === 'C') expect((await client.atomic.findExecutedAtomicTx(tx.txID))?.blockHeight).toBeGreaterThan(0n);
  }
  // Nothing is left waiting in atomic memory.
  expect(await engine.atomicSpendable(to, from)).toHaveLength(0);
  return { exportFee: exported.fee, importFee };
}

describe('all six cross-chain moves against the real node', () => {
  it('X → P and P → X', async () => {
    const { ctx } = await localNetwork();
    const w = await freshWallet({ x: 10n * AVAX });
    const there = await moveExactly(w.engine, 'X', 'P', 4n * AVAX);
    expect(there.exportFee).toBe(ctx.xTxFee);
    const back = await moveExactly(w.engine, 'P', 'X', 1n * AVAX);
    expect(back.importFee).toBe(ctx.xTxFee);
  });

  it('X → C and C → X', async () => {
    const w = await freshWallet({ x: 10n * AVAX });
    await moveExactly(w.engine, 'X', 'C', 3n * AVAX);
    await moveExactly(w.engine, 'C', 'X', 1n * AVAX);
  });

  it('P → C and C → P', async () => {
    const w = await freshWallet({ p: 10n * AVAX });
    await moveExactly(w.engine, 'P', 'C', 3n * AVAX);
    await moveExactly(w.engine, 'C', 'P', 1n * AVAX);
  });
});

describe('funds waiting in atomic memory', () => {
  it('are found on every chain and imported in one go (the imports Import now builds), exactly', async () => {
    const { ctx } = await localNetwork();
    const w = await freshWallet({ x: 10n * AVAX, p: 10n * AVAX });
    // Three exports that nobody imports (a crash, another wallet, a manual export).
    const toP = await w.engine.issueAndWait(await w.engine.buildExport('X', 'P', 1n * AVAX));
    const toC = await w.engine.issueAndWait(await w.engine.buildExport('X', 'C', 2n * AVAX));
    const toX = await w.engine.issueAndWait(await w.engine.buildExport('P', 'X', 3n * AVAX));
    const { waiting, moving } = await waitingFunds(w.engine);
    expect(waiting.map((f) => `${f.from}→${f.to}:${f.amount}`).sort()).toEqual([`P→X:${3n * AVAX}`, `X→C:${2n * AVAX}`, `X→P:${1n * AVAX}`]);
    expect(moving.size).toBe(0);
    // One a move under way exported is its own (not offered to import): counted as moving instead.
    const left = await waitingFunds(w.engine, new Set([toC.txID]));
    expect(left.waiting.map((f) => `${f.from}→${f.to}`).sort()).toEqual(['P→X', 'X→P']);
    expect([...left.moving.values()]).toEqual([2n * AVAX]);

    const beforeX = await avaxOf(w.engine, 'X');
    const imported: Issued[] = [];
    for (const i of (await buildWaitingImports(w.engine)).imports) imported.push(await w.engine.issueAndWait(i.built));
    expect(imported).toHaveLength(3);
    const feeOn = (chain: Chain) => imported.filter((i) => i.chain === chain).reduce((s, i) => s + i.fee, 0n);
    expect(await waitingFunds(w.engine)).toEqual({ waiting: [], moving: new Map() });
    expect(await avaxOf(w.engine, 'X')).toBe(beforeX + 3n * AVAX - feeOn('X'));
    expect(await avaxOf(w.engine, 'P')).toBe(10n * AVAX - 3n * AVAX - toX.fee + 1n * AVAX - feeOn('P'));
    expect((await w.engine.cBalanceWei()) / WEI_PER_NAVAX).toBe(2n * AVAX - feeOn('C'));
    expect(beforeX).toBe(10n * AVAX - 3n * AVAX - toP.fee - toC.fee);
    expect(feeOn('X')).toBe(ctx.xTxFee);
  });
});

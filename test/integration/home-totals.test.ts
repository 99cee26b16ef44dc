// What Home's all-chains total counts, against the Helicon test node: every nAVAX once, whatever
// the node has decided so far about the account's own txs.
import { describe, expect, inject, it } from 'vitest';
import { totalAvaxWei } from '../../src/popup/screens/Home.js';
import { WEI_PER_NAVAX } from '../../src/core/amount.js';
import { AVAX } from './fixture.js';
import { lyingNode, refreshUntilDecided, rpcResult, transferUntil, txIdOfIssue } from './lying-node.js';
import { delegationBehindLyingNode } from './pvm-kit.js';
import { fundedWallet } from './wallet-fixture.js';

describe("Home's all-chains total", () => {
  it('counts a delegation sent and not yet run once: its funds are still spendable, so it is not staked too; once it runs, staked', async () => {
    const { node, wallet, base, review } = await delegationBehindLyingNode();
    // The node says it took the tx and keeps calling it processing, but holds it back: nothing ran.
    let held: string | undefined;
    node.lies.set('platform.issueTx', (call) => ((held = (call.params as { tx: string }).tx), Promise.resolve(rpcResult({ txID: txIdOfIssue(call) }))));
    node.lies.set('platform.getTxStatus', () => Promise.resolve(rpcResult({ status: 'Processing' })));
    const sent = await wallet.staking.stakingDelegate({ ...base, maxFee: review.fee });
    expect(sent.status).toBe('pending');
    const waiting = await wallet.balances.balancesRefresh();
    const p = waiting.balances.find((b) => b.chain === 'P')!;
    // What it would spend is still the account's, spendable: counted there, and only there.
    expect(p.spendable).toBe((30n * AVAX).toString());
    expect(p.staked).toBeUndefined();
    expect(totalAvaxWei(waiting)).toBe(30n * AVAX * WEI_PER_NAVAX);
    // My stakes lists it waiting, and counts nothing as staked yet.
    const mine = await wallet.staking.stakingMine();
    expect(mine.stakes[0]).toMatchObject({ txID: sent.txID, state: 'pending' });
    expect(mine.totals.staked).toBe('0');
    // It runs: the stake leaves the balance and is counted as staked.
    node.lies.clear();
    const r = await fetch(`${inject('nodeUrl')}/ext/bc/P`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'platform.issueTx', params: { tx: held, encoding: 'hex' } }) });
    expect(((await r.json()) as { result?: { txID: string } }).result?.txID).toBe(sent.txID);
    expect(await refreshUntilDecided(wallet, sent.txID)).toBe('accepted');
    const ran = await wallet.balances.balancesRefresh();
    expect(ran.balances.find((b) => b.chain === 'P')!.staked).toEqual([{ amount: base.amount, unlocksAt: base.end }]);
    expect(totalAvaxWei(ran)).toBe((30n * AVAX - BigInt(sent.fee)) * WEI_PER_NAVAX);
    expect((await wallet.staking.stakingMine()).totals.staked).toBe(base.amount);
  });

  it('counts what a move under way carries between chains (exported, its import not run yet), once, and says so', async () => {
    const node = lyingNode();
    const { wallet } = await fundedWallet({ x: 10n * AVAX }, { fetch: node.fetch, wait: { timeoutMs: 1_500, pollMs: 100 } });
    // The P-Chain import is taken and held back: the exported funds stay in atomic memory.
    let held: string | undefined;
    node.lies.set('platform.issueTx', (call) => ((held = (call.params as { tx: string }).tx), Promise.resolve(rpcResult({ txID: txIdOfIssue(call) }))));
    node.lies.set('platform.getTxStatus', () => Promise.resolve(rpcResult({ status: 'Processing' })));
    const est = await wallet.transfers.transfersEstimate({ from: 'X', to: 'P', amount: (4n * AVAX).toString() });
    const move = await wallet.transfers.transfersStart({ from: 'X', to: 'P', amount: (4n * AVAX).toString(), maxFee: (BigInt(est.exportFee) + BigInt(est.importFee)).toString() });
    const signed = await transferUntil(wallet, move.id, (t) => t.state === 'import-signed' && held !== undefined);
    const moving = await wallet.balances.balancesRefresh();
    expect(moving.moving).toBe((4n * AVAX).toString());
    expect(moving.waiting).toEqual([]);
    expect(totalAvaxWei(moving)).toBe((10n * AVAX - BigInt(signed.exportFee!)) * WEI_PER_NAVAX);
    // The import runs: on the P-Chain, no longer moving.
    node.lies.clear();
    const r = await fetch(`${inject('nodeUrl')}/ext/bc/P`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'platform.issueTx', params: { tx: held, encoding: 'hex' } }) });
    expect(((await r.json()) as { result?: { txID: string } }).result?.txID).toBeDefined();
    const done = await transferUntil(wallet, move.id, (t) => t.state === 'completed');
    const arrived = await wallet.balances.balancesRefresh();
    expect(arrived.moving).toBeUndefined();
    expect(totalAvaxWei(arrived)).toBe((10n * AVAX - BigInt(done.exportFee!) - BigInt(done.importFee!)) * WEI_PER_NAVAX);
  });

  it('counts a delegation that ran as staked while the node still calls it processing (its funds have left the balance)', async () => {
    const { node, wallet, base, review } = await delegationBehindLyingNode();
    // The tx reaches the node and runs; the node's status answer lags (or lies): still processing.
    node.lies.set('platform.getTxStatus', () => Promise.resolve(rpcResult({ status: 'Processing' })));
    const sent = await wallet.staking.stakingDelegate({ ...base, maxFee: review.fee });
    expect(sent.status).toBe('pending');
    const view = await wallet.balances.balancesRefresh();
    const p = view.balances.find((b) => b.chain === 'P')!;
    expect(p.spendable).toBe((5n * AVAX - BigInt(sent.fee)).toString());
    // What it spends is gone: Activity settles it as run (the stake book still says pending), and what it staked counts, once.
    expect(p.staked).toEqual([{ amount: base.amount, unlocksAt: base.end }]);
    expect(totalAvaxWei(view)).toBe((30n * AVAX - BigInt(sent.fee)) * WEI_PER_NAVAX);
  });
});

// Staking behind a node that lies (test/integration/lying-node.ts), on the Helicon test node: what
// My stakes says of a delegation must follow what the wallet checked, not a status the node made up.
import { describe, expect, inject, it } from 'vitest';
import { refreshUntilDecided, rpcError, rpcResult } from './lying-node.js';
import { delegationBehindLyingNode } from './pvm-kit.js';

describe('a delegation behind a node that lies about its status', () => {
  it('a delegation the node calls dropped while it went through is never shown failed: active once the refresh proves it', async () => {
    const { node, wallet, base, review } = await delegationBehindLyingNode();
    // The node takes the tx but keeps saying it is processing: the wait ends undecided.
    node.lies.set('platform.getTxStatus', () => Promise.resolve(rpcResult({ status: 'Processing' })));
    const sent = await wallet.staking.stakingDelegate({ ...base, maxFee: review.fee });
    expect(sent.status).toBe('pending');
    // Then it says the tx was dropped: only its word, while what the tx spends is gone.
    node.lies.set('platform.getTxStatus', () => Promise.resolve(rpcResult({ status: 'Dropped', reason: 'made up' })));
    expect((await wallet.staking.stakingMine()).stakes[0]).toMatchObject({ txID: sent.txID, state: 'pending' });
    // Honest again: the refresh proves the tx accepted (Activity), and My stakes says so too.
    node.lies.clear();
    expect(await refreshUntilDecided(wallet, sent.txID)).toBe('accepted');
    const mine = await wallet.staking.stakingMine();
    expect(mine.stakes[0]).toMatchObject({ txID: sent.txID, state: 'active', amount: base.amount });
    expect(mine.totals.staked).toBe(base.amount);
  });
});

describe('a delegation the node refused and then holds', () => {
  it('waits in My stakes as Activity lists it (pending, nothing counted staked) while the node holds it, and is active once it ran', async () => {
    const { node, wallet, base, review } = await delegationBehindLyingNode();
    // The node keeps the tx without running it, answers an error and calls it dropped: refused, nothing paid.
    let held: string | undefined;
    node.lies.set('platform.issueTx', (call) => ((held ??= (call.params as { tx: string }).tx), Promise.resolve(rpcError('mempool full'))));
    node.lies.set('platform.getTxStatus', () => Promise.resolve(rpcResult({ status: 'Dropped', reason: 'made up' })));
    await expect(wallet.staking.stakingDelegate({ ...base, maxFee: review.fee })).rejects.toMatchObject({ code: 'tx-refused' });
    const refused = (await wallet.staking.stakingMine()).stakes[0]!;
    expect(refused).toMatchObject({ state: 'failed' });
    const { txID } = refused;
    // Then it says it holds it: Activity lists it pending (it may go through), and so does My stakes;
    // its funds are still in the balance, so nothing is counted as staked.
    node.lies.set('platform.getTxStatus', () => Promise.resolve(rpcResult({ status: 'Processing' })));
    await wallet.balances.balancesRefresh();
    expect((await wallet.balances.activityList()).items.find((i) => i.txID === txID)).toMatchObject({ status: 'pending' });
    const waiting = await wallet.staking.stakingMine();
    expect(waiting.stakes[0]).toMatchObject({ txID, state: 'pending' });
    expect(waiting.totals.staked).toBe('0');
    expect((await wallet.balances.balancesRefresh()).balances.find((b) => b.chain === 'P')?.staked).toBeUndefined();
    // It lets it go: active in both, counted as staked.
    node.lies.clear();
    const r = await fetch(`${inject('nodeUrl')}/ext/bc/P`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'platform.issueTx', params: { tx: held, encoding: 'hex' } }) });
    expect(((await r.json()) as { result?: { txID: string } }).result?.txID).toBe(txID);
    expect(await refreshUntilDecided(wallet, txID)).toBe('accepted');
    const mine = await wallet.staking.stakingMine();
    expect(mine.stakes[0]).toMatchObject({ txID, state: 'active' });
    expect(mine.totals.staked).toBe(base.amount);
  });
});

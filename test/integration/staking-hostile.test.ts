// Staking behind a node that lies (test/integration/lying-node.ts), on the Helicon test node: what
// My stakes says of a delegation must follow what the wallet checked, not a status the node made up.
import { describe, expect, inject, it, vi } from 'vitest';
import { inputIds } from '../../src/core/tx-fate.js';
import { fromHex } from '../../src/core/bytes.js';
import { decodeSignedTx } from '../../src/core/codec/index.js';
import { formatNodeId, parseAddress } from '../../src/core/encoding.js';
import { makeOwners } from '../../src/core/tx/context.js';
import { AVAX, avaxOf, freshWallet, testNodeOutboxKey } from './fixture.js';
import { lyingNode, refreshUntilDecided, rewriteUtxos, rpcError, rpcResult, txIdOfIssue } from './lying-node.js';
import { delegationBehindLyingNode, freshBlsKey, freshNodeId, hex0x, nodeTxBytes, pChainTime, pRpc } from './pvm-kit.js';
import { fundedWallet } from './wallet-fixture.js';

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

describe('a node whose clock runs far ahead of the computer’s', () => {
  it('stakes nothing: the review and the stake are refused in words, as each would count its end from that time; the staking screens still open', async () => {
    const { node, wallet, base, review } = await delegationBehindLyingNode();
    const ahead = new Date(Date.now() + 300 * 86_400_000).toISOString();
    node.lies.set('platform.getTimestamp', () => Promise.resolve(rpcResult({ timestamp: ahead })));
    const clockAhead = { code: 'staking-rule', rule: 'clock-ahead', message: expect.stringMatching(/(300 days|299 days 23 hours) later than this computer's clock/) }; // read a moment apart
    await expect(wallet.staking.stakingParams()).resolves.toBeDefined();
    await expect(wallet.staking.stakingEstimateDelegation(base)).rejects.toMatchObject(clockAhead);
    await expect(wallet.staking.stakingDelegate({ ...base, maxFee: review.fee })).rejects.toMatchObject(clockAhead);
    expect(node.calls).not.toContain('platform.issueTx');
    // The node's own time again: the same delegation goes through.
    node.lies.clear();
    const sent = await wallet.staking.stakingDelegate({ ...base, maxFee: review.fee });
    expect(await refreshUntilDecided(wallet, sent.txID)).toBe('accepted');
  });
});

describe('a node claiming a P-Chain time far ahead, for time-locked funds', () => {
  it('does not make them spendable: a lock is judged ended no later than an hour past this computer\'s clock', async () => {
    const node = lyingNode();
    const { wallet, account, genesis } = await fundedWallet({ p: 2n * AVAX }, { fetch: node.fetch });
    const in30Days = BigInt(Math.floor(Date.now() / 1000) + 30 * 86_400);
    await genesis.issueAndWait(await genesis.buildPSend(5n * AVAX, makeOwners([parseAddress(account.pAddress).bytes], 1, in30Days)));
    const ahead = new Date(Date.now() + 300 * 86_400_000).toISOString();
    node.lies.set('platform.getTimestamp', () => Promise.resolve(rpcResult({ timestamp: ahead })));
    const p = (await wallet.balances.balancesRefresh()).balances.find((b) => b.chain === 'P' && b.verified)!;
    expect(p).toMatchObject({ spendable: (2n * AVAX).toString(), locked: (5n * AVAX).toString() });
    // Nor spent: a send of more than the unlocked part is short of funds, and nothing goes out.
    await expect(wallet.sends.sendEstimate({ chain: 'P', amount: (3n * AVAX).toString(), to: { addresses: [account.pAddress], threshold: 1 } })).rejects.toMatchObject({ code: 'insufficient-funds' });
    expect(node.calls).not.toContain('platform.issueTx');
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

/**
 * A delegation the node took and kept without running it (the wait ends undecided), then out of
 * the outbox (another network entry for the chain followed it), the node saying committed and
 * serving the kept bytes, which hash to the tx's ID.
 */
async function delegationKeptOutOfOutbox() {
  const { node, wallet, stores, account, base, review } = await delegationBehindLyingNode();
  let held: string | undefined;
  node.lies.set('platform.issueTx', (call) => ((held ??= (call.params as { tx: string }).tx), Promise.resolve(rpcResult({ txID: txIdOfIssue(call) }))));
  node.lies.set('platform.getTxStatus', () => Promise.resolve(rpcResult({ status: 'Processing' })));
  const sent = await wallet.staking.stakingDelegate({ ...base, maxFee: review.fee });
  expect(sent.status).toBe('pending');
  await stores.local.remove([await testNodeOutboxKey(account.id)]);
  node.lies.set('platform.getTxStatus', () => Promise.resolve(rpcResult({ status: 'Committed' })));
  node.lies.set('platform.getTx', (call, forward) => ((call.params as { txID: string }).txID === sent.txID ? Promise.resolve(rpcResult({ tx: held, encoding: 'hex' })) : forward()));
  return { node, wallet, stores, account, base, sent, held: held! };
}

/** Sends kept bytes (API hex) to the real node, which runs them. */
async function runOnNode(tx: string): Promise<void> {
  const r = await fetch(`${inject('nodeUrl')}/ext/bc/P`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'platform.issueTx', params: { tx, encoding: 'hex' } }) });
  expect(((await r.json()) as { result?: { txID: string } }).result?.txID).toBeDefined();
}

describe('a delegation out of the outbox that the node calls committed, serving the bytes it kept and never ran', () => {
  it('is not counted as staked while what it spends is unspent: pending in Activity and My stakes; active once it ran', async () => {
    const { node, wallet, base, sent, held } = await delegationKeptOutOfOutbox();
    await wallet.balances.balancesRefresh();
    // Activity too: still being checked, not accepted on the node's word.
    expect((await wallet.balances.activityList()).items.find((i) => i.txID === sent.txID)).toMatchObject({ status: 'pending', checking: true });
    const waiting = await wallet.staking.stakingMine();
    expect(waiting.stakes[0]).toMatchObject({ txID: sent.txID, state: 'pending' });
    expect(waiting.totals.staked).toBe('0');
    // It lets it go: what it spends is spent, and the stake is active, counted as staked.
    node.lies.clear();
    await runOnNode(held);
    expect(await refreshUntilDecided(wallet, sent.txID)).toBe('accepted');
    const mine = await wallet.staking.stakingMine();
    expect(mine.stakes[0]).toMatchObject({ txID: sent.txID, state: 'active' });
    expect(mine.totals.staked).toBe(base.amount);
  });
});

/**
 * delegationKeptOutOfOutbox, whose input the node leaves out of one read (taken as run: the wallet
 * cannot tell) and then lists again (taken back).
 */
async function takenBackDelegation() {
  const kept = await delegationKeptOutOfOutbox();
  const { node, wallet, stores, account, sent } = kept;
  const outboxKey = await testNodeOutboxKey(account.id);
  const outboxHolds = async () => ((await stores.local.get([outboxKey]))[outboxKey] as { txID: string; voided?: boolean; takenBack?: boolean }[] | undefined)?.filter((e) => e.txID === sent.txID) ?? [];
  const activity = async () => (await wallet.balances.activityList()).items.find((i) => i.txID === sent.txID);
  node.lies.set('platform.getUTXOs', rewriteUtxos('pvm', () => []));
  await wallet.balances.balancesRefresh();
  expect(await activity()).toMatchObject({ status: 'accepted' });
  expect((await wallet.staking.stakingMine()).stakes[0]).toMatchObject({ txID: sent.txID, state: 'active' });
  node.lies.delete('platform.getUTXOs');
  const view = await wallet.balances.balancesRefresh();
  return { ...kept, view, activity, outboxHolds };
}

describe('a delegation out of the outbox that the node calls committed, whose input it leaves out of one read and then lists again', () => {
  it('is taken as run once (the wallet cannot tell), then taken back when its funds show again: spendable, not staked too, said so; active once it really runs', async () => {
    const { node, wallet, base, sent, held, view, activity, outboxHolds } = await takenBackDelegation();
    // The node lists the delegation's input again (it never ran it): its funds count once, as spendable.
    expect(view.balances.find((b) => b.chain === 'P')).toMatchObject({ spendable: (30n * AVAX).toString() });
    expect(view.balances.find((b) => b.chain === 'P')?.staked).toBeUndefined();
    expect(view.warnings).toEqual([expect.stringMatching(/^The node lists again funds that a transaction of this account spent, though it had shown it accepted .*counted as spendable until then, not as staked\.$/)]);
    expect(await activity()).toMatchObject({ status: 'pending', checking: true, takenBack: true });
    const reopened = await wallet.staking.stakingMine();
    expect(reopened.stakes[0]).toMatchObject({ txID: sent.txID, state: 'pending' });
    expect(reopened.totals.staked).toBe('0');
    // Held again as a refused tx is, from the node's bytes: the next P-Chain send spends what it spends, so never both run.
    expect(await outboxHolds()).toEqual([expect.objectContaining({ voided: true, takenBack: true })]);
    // It lets it go: accepted again, from what it spends being spent, and counted as staked alone.
    node.lies.clear();
    await runOnNode(held);
    // A P-Chain send before any refresh finds it ran: listed accepted, no longer being checked, and the send goes out, not stopped.
    const to = { addresses: [(await freshWallet()).engine.addresses('P')[0]!], threshold: 1 };
    const amount = (AVAX / 10n).toString();
    const { fee } = await wallet.sends.sendEstimate({ chain: 'P', amount, to });
    expect((await wallet.sends.sendP({ amount, to, maxFee: fee })).txID).toEqual(expect.any(String));
    const decided = await activity();
    expect(decided).toMatchObject({ status: 'accepted' });
    expect(decided?.checking).toBeUndefined();
    expect(decided?.takenBack).toBeUndefined();
    expect(await refreshUntilDecided(wallet, sent.txID)).toBe('accepted');
    const after = await wallet.balances.balancesRefresh();
    expect(after.warnings).toBeUndefined();
    expect((await wallet.staking.stakingMine()).totals.staked).toBe(base.amount);
    expect(BigInt(after.balances.find((b) => b.chain === 'P')!.spendable)).toBeLessThan(5n * AVAX);
    // Decided, it leaves the outbox: no send is stopped for it (it was never taken for refused).
    expect(await outboxHolds()).toEqual([]);
  });

  it('accepted and taken back in one refresh (its input hidden from the check, listed to the balance) stays taken back: pending, checked, staked nowhere, said so', async () => {
    const { node, wallet, sent, held } = await delegationKeptOutOfOutbox();
    // The first UTXO read after the node serves the delegation's bytes (the check of what it spends) lists nothing; later ones are true.
    let hideNext = false;
    let hidden = false;
    node.lies.set('platform.getTx', (call, forward) => ((call.params as { txID: string }).txID === sent.txID ? ((hideNext = !hidden), Promise.resolve(rpcResult({ tx: held, encoding: 'hex' }))) : forward()));
    node.lies.set('platform.getUTXOs', rewriteUtxos('pvm', (utxos) => (hideNext ? ((hideNext = false), (hidden = true), []) : utxos)));
    const view = await wallet.balances.balancesRefresh();
    expect(view.warnings).toEqual([expect.stringMatching(/^The node lists again funds that a transaction of this account spent/)]);
    expect(view.balances.find((b) => b.chain === 'P')?.staked).toBeUndefined();
    expect((await wallet.balances.activityList()).items.find((i) => i.txID === sent.txID)).toMatchObject({ status: 'pending', checking: true, takenBack: true });
    const mine = await wallet.staking.stakingMine();
    expect(mine.stakes[0]).toMatchObject({ txID: sent.txID, state: 'pending' });
    expect(mine.totals.staked).toBe('0');
  });

  it('whose place the next P-Chain send takes (spending its input) is failed once that send ran, though the node still calls it committed: never staked, never "being checked" for good', async () => {
    const { node, wallet, sent, activity, outboxHolds } = await takenBackDelegation();
    expect(await activity()).toMatchObject({ status: 'pending', takenBack: true });
    // The node still says committed of every tx, and serves the bytes it never ran; it runs what it
    // is sent now, and the send spends what the delegation spends.
    node.lies.delete('platform.issueTx');
    const to = { addresses: [(await freshWallet()).engine.addresses('P')[0]!], threshold: 1 };
    const amount = (AVAX / 10n).toString();
    const { fee } = await wallet.sends.sendEstimate({ chain: 'P', amount, to });
    const send = await wallet.sends.sendP({ amount, to, maxFee: fee });
    expect(await refreshUntilDecided(wallet, send.txID)).toBe('accepted');
    expect(await refreshUntilDecided(wallet, sent.txID)).toBe('failed');
    const item = await activity();
    expect(item).toMatchObject({ status: 'failed', replaced: true });
    expect(item?.checking).toBeUndefined();
    expect(await outboxHolds()).toEqual([]);
    await wallet.balances.balancesRefresh();
    const mine = await wallet.staking.stakingMine();
    expect(mine.stakes.find((s) => s.txID === sent.txID)).toMatchObject({ state: 'failed' });
    expect(mine.totals.staked).toBe('0');
    expect((await wallet.balances.balancesRefresh()).balances.find((b) => b.chain === 'P')?.staked).toBeUndefined();
  });
  it('whose place a send took is failed by the next P-Chain send before any refresh (the node calling it committed), and the item leaves "being checked"', async () => {
    const { node, wallet, activity, outboxHolds } = await takenBackDelegation();
    node.lies.delete('platform.issueTx');
    const to = { addresses: [(await freshWallet()).engine.addresses('P')[0]!], threshold: 1 };
    const amount = (AVAX / 10n).toString();
    const { fee } = await wallet.sends.sendEstimate({ chain: 'P', amount, to });
    const first = await wallet.sends.sendP({ amount, to, maxFee: fee });
    // Run by the node (asked directly, no refresh), then the next send looks at what the first replaced.
    await vi.waitFor(async () => expect((await pRpc<{ status: string }>('platform.getTxStatus', { txID: first.txID })).status).toBe('Committed'), { timeout: 15_000, interval: 200 });
    const { fee: fee2 } = await wallet.sends.sendEstimate({ chain: 'P', amount, to });
    await wallet.sends.sendP({ amount, to, maxFee: fee2 });
    const item = await activity();
    expect(item).toMatchObject({ status: 'failed', replaced: true });
    expect(item?.checking).toBeUndefined();
    expect(item?.takenBack).toBeUndefined();
    expect(await outboxHolds()).toEqual([]);
  });
});

describe('an auto-renewed validation the node lost', () => {
  it('is never sent again once past its sendBefore: failed in Activity and My stakes, not pending for good, and the next P-Chain send takes its place', async () => {
    const node = lyingNode();
    const { wallet, genesis, account } = await fundedWallet({ p: 2_010n * AVAX }, { fetch: node.fetch, wait: { timeoutMs: 1_500, pollMs: 100 } });
    // A second, smaller piece: a send would not have to spend what the lost validation spends.
    await genesis.issueAndWait(await genesis.buildPSend(5n * AVAX, makeOwners([parseAddress(account.pAddress).bytes])));
    await wallet.balances.balancesRefresh();
    const bls = freshBlsKey();
    const base = { nodeID: formatNodeId(freshNodeId()), publicKey: hex0x(bls.publicKey), proofOfPossession: hex0x(bls.proofOfPossession), amount: (2_000n * AVAX).toString(), delegationFee: 20_000, autoRenew: { period: 60, restakeShares: 0 } };
    const review = await wallet.staking.stakingEstimateValidation(base);
    // The node answers with its ID and forgets it (a restart, a full mempool): it never knows the tx.
    let lost: string | undefined;
    node.lies.set('platform.issueTx', (call) => ((lost = (call.params as { tx: string }).tx), Promise.resolve(rpcResult({ txID: txIdOfIssue(call) }))));
    const sent = await wallet.staking.stakingValidate({ ...base, maxFee: review.fee });
    expect(sent.status).toBe('pending');
    const item = (await wallet.balances.activityList()).items.find((i) => i.txID === sent.txID)!;
    // Past it (this network's 5 s margin), a refresh does not send it again: it did not run.
    await new Promise((r) => setTimeout(r, Math.max(0, item.sendBefore! * 1000 - Date.now()) + 1_000));
    node.lies.clear();
    await wallet.balances.balancesRefresh();
    expect((await wallet.balances.activityList()).items.find((i) => i.txID === sent.txID)).toMatchObject({ status: 'failed' });
    expect((await wallet.staking.stakingMine()).stakes[0]).toMatchObject({ txID: sent.txID, state: 'failed' });
    // Anyone holding its bytes could still send them: the next send spends what it spends, so it never can.
    const bob = await freshWallet();
    const to = { addresses: [bob.engine.addresses('P')[0]!], threshold: 1 };
    const { fee } = await wallet.sends.sendEstimate({ chain: 'P', amount: AVAX.toString(), to });
    const paid = await wallet.sends.sendP({ amount: AVAX.toString(), to, maxFee: fee });
    expect(await refreshUntilDecided(wallet, paid.txID)).toBe('accepted');
    expect(await avaxOf(bob.engine, 'P')).toBe(AVAX);
    const inputsOf = (bytes: Uint8Array) => inputIds(decodeSignedTx(bytes, 'pvm').unsigned);
    const lostInputs = inputsOf(fromHex(lost!.slice(2)).slice(0, -4));
    expect(inputsOf(await nodeTxBytes(paid.txID)).some((id) => lostInputs.includes(id))).toBe(true);
    const late = await fetch(`${inject('nodeUrl')}/ext/bc/P`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'platform.issueTx', params: { tx: lost, encoding: 'hex' } }) });
    expect(((await late.json()) as { error?: unknown }).error).toBeDefined();
    expect((await wallet.staking.stakingMine()).stakes[0]).toMatchObject({ txID: sent.txID, state: 'failed' });
  }, 60_000);
});

describe("a change to an auto-renewed validator the node lost, with this computer's clock behind the chain's", () => {
  it("is never sent again once the chain's time passed its sendBefore: failed, though this computer's clock says there is an hour left", async () => {
    const node = lyingNode();
    const { wallet } = await fundedWallet({ p: 2_010n * AVAX }, { fetch: node.fetch, wait: { timeoutMs: 1_500, pollMs: 100 } });
    const bls = freshBlsKey();
    const nodeID = formatNodeId(freshNodeId());
    const base = { nodeID, publicKey: hex0x(bls.publicKey), proofOfPossession: hex0x(bls.proofOfPossession), amount: (2_000n * AVAX).toString(), delegationFee: 20_000, autoRenew: { period: 30, restakeShares: 0 } };
    const added = await wallet.staking.stakingValidate({ ...base, maxFee: (await wallet.staking.stakingEstimateValidation(base)).fee });
    expect(await refreshUntilDecided(wallet, added.txID)).toBe('accepted');
    const realNow = Date.now.bind(Date);
    const clock = vi.spyOn(Date, 'now').mockImplementation(() => realNow() - 3_600_000);
    try {
      const stop = { txID: added.txID, period: 0, restakeShares: 0 };
      const review = await wallet.staking.stakingEstimateAutoRenew(stop);
      // The node answers with its ID and forgets it (a restart, a full mempool): it never knows the tx.
      node.lies.set('platform.issueTx', (call) => Promise.resolve(rpcResult({ txID: txIdOfIssue(call) })));
      const sent = await wallet.staking.stakingSetAutoRenew({ ...stop, takesEffect: review.takesEffect, maxFee: review.fee });
      expect(sent.status).toBe('pending');
      expect((await wallet.balances.activityList()).items.find((i) => i.txID === sent.txID)).toMatchObject({ sendBefore: review.takesEffect - 5 });
      // The cycle ends: the chain's next block is past it (the node removes the validator, which never ran).
      await new Promise((r) => setTimeout(r, Math.max(0, review.takesEffect * 1000 - realNow()) + 1_000));
      for (let i = 0; i < 50 && (await pChainTime()) < BigInt(review.takesEffect); i++) await new Promise((r) => setTimeout(r, 200));
      expect(await pChainTime()).toBeGreaterThanOrEqual(BigInt(review.takesEffect));
      node.lies.clear();
      const issued = () => node.calls.filter((m) => m === 'platform.issueTx').length;
      const before = issued();
      await wallet.balances.balancesRefresh();
      expect(issued(), 'sent again past its cycle').toBe(before);
      expect((await wallet.balances.activityList()).items.find((i) => i.txID === sent.txID)).toMatchObject({ status: 'failed' });
      expect((await pRpc<{ status: string }>('platform.getTxStatus', { txID: sent.txID })).status).toBe('Unknown');
    } finally {
      clock.mockRestore();
    }
  }, 90_000);
});

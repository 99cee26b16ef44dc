// Following the account's stakes (src/background/stake-follow.ts, stake-book.ts, staking-csv.ts)
// with the chain's answers scripted from what the Helicon test node recorded: a sent stake until it
// is committed or refused, a delegation until its reward tx is decided, every cycle of an
// auto-renewed validator (also those the wallet did not see), what is staked in the balance, and the
// CSV's lines for rewards and activity.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { listedStates, StakeBook, stakedAmounts, type StakeRecord } from '../../src/background/stake-book.js';
import { followStakes, hasOpenStakes, type FollowInput } from '../../src/background/stake-follow.js';
import { stakingCsv } from '../../src/background/staking-csv.js';
import { myStakeView } from '../../src/background/staking-views.js';
import { memoryStores } from '../../src/background/storage.js';
import { decodeUtxo } from '../../src/core/codec/codec.js';
import type { Utxo } from '../../src/core/codec/types.js';
import { fromApiHex, parseId } from '../../src/core/encoding.js';
import type { TxState } from '../../src/core/engine.js';
import type { NodeClient } from '../../src/core/node.js';
import type { CurrentValidator } from '../../src/core/node/validators.js';
import { rewardTxIdOf } from '../../src/core/staking/rewards.js';

const REWARDS = JSON.parse(readFileSync(new URL('./fixtures/reward-utxos.json', import.meta.url), 'utf8')) as Record<string, { stakeTxID: string; result: { utxos: string[] } }>;
const utxosOf = (key: string): Utxo[] => REWARDS[key]!.result.utxos.map((h) => decodeUtxo(fromApiHex(h), 'pvm'));
const ME = 'P-custom18jma8ppw3nhx5r4ap8clazz0dps7rv5u9xde7p';
const NODE = 'NodeID-BqUj8Y8GtNthdgxRD3z9NKWy3ru3K338C';
const AUTO_TX = REWARDS['autoRenewedCycle']!.stakeTxID;
const DELEGATION_TX = REWARDS['delegation']!.stakeTxID;

function record(patch: Partial<StakeRecord>): StakeRecord {
  return { txID: 'tx', kind: 'delegation', nodeID: NODE, amount: '25000000000', state: 'active', rewardOwner: { addresses: [ME], threshold: 1 }, rewards: [], byWallet: true, createdAt: 0, ...patch };
}

/** A chain scripted per tx ID: its state, and the reward UTXOs listed under an ID. */
function input(states: Record<string, TxState>, rewardUtxos: Record<string, Utxo[]>, patch: Partial<FollowInput> = {}): FollowInput & { asked: string[] } {
  const asked: string[] = [];
  const node = { platform: { getRewardUtxos: async (txID: string) => (asked.push(txID), rewardUtxos[txID] ?? []) } } as unknown as NodeClient;
  // What each tx spends is spent (it ran) unless a test says otherwise.
  return { node, hrp: 'custom', mine: new Set([ME]), now: 1795583200, validators: [], withDelegators: new Map(), txState: async (txID) => states[txID] ?? 'unknown', outbox: new Set(['c']), ran: async () => true, asked, ...patch };
}

const validator = (patch: Partial<CurrentValidator>): CurrentValidator => ({
  txID: AUTO_TX, nodeID: NODE, start: 1795583192n, end: 1795583492n, weight: 2_000_000_708_961n, potentialReward: 1_417_497n, accruedDelegateeReward: 0n,
  delegationFee: 30_000, uptime: 100, connected: true, delegatorCount: 0, delegatorWeight: 0n, ...patch,
});

describe('following stakes', () => {
  it('moves a sent stake to active once committed, or to failed when refused or never sent; nothing is asked of a stake still pending', async () => {
    // c: in the outbox; d: written a moment ago, its outbox entry still to come; e: neither (the send gave up, or a worker stopped first).
    const stakes = [
      record({ txID: 'a', state: 'pending', end: 1795583300 }),
      record({ txID: 'b', state: 'pending' }),
      record({ txID: 'c', state: 'pending' }),
      record({ txID: 'd', state: 'pending', createdAt: Date.now() }),
      record({ txID: 'e', state: 'pending' }),
    ];
    // Recorded: the node listed this 25 AVAX delegation's reward as 7,087 nAVAX; its validator keeps 3%.
    const chain = input({ a: 'accepted', b: 'failed' }, {}, { withDelegators: new Map([[NODE, validator({ delegators: [{ txID: 'a', nodeID: NODE, start: 1795582892n, end: 1795583012n, weight: 25n, potentialReward: 7_087n }] })]]) });
    await followStakes(stakes, chain);
    expect(stakes.map((s) => s.state)).toEqual(['active', 'failed', 'pending', 'pending', 'failed']);
    // What the delegator is paid (the next test's reward UTXO: 6,874), not the node's whole reward.
    expect(stakes[0]).toMatchObject({ start: 1795582892, end: 1795583012, potentialReward: '6874' });
    expect(hasOpenStakes(stakes)).toBe(true);
  });

  it('asks again about one the node refused while its outbox entry says it may still run: active if it ran, else still failed', async () => {
    // c: refused, still in the outbox (the node may run it yet); f: refused, no longer there; g: found by the follow, not the wallet's.
    const stakes = [record({ txID: 'c', state: 'failed', end: 1795583300 }), record({ txID: 'f', state: 'failed' }), record({ txID: 'g', state: 'failed', byWallet: false })];
    // The node's "committed" (with the bytes it refused, which it may have kept) is believed only once what the tx spends is spent.
    const checkedOnly: string[] = [];
    let spent = false;
    const ran = async (txID: string) => (checkedOnly.push(txID), spent);
    await followStakes(stakes, input({ c: 'accepted', f: 'accepted', g: 'accepted' }, {}, { outbox: new Set(['c', 'g']), ran }));
    expect(stakes.map((s) => s.state)).toEqual(['failed', 'failed', 'failed']);
    expect(checkedOnly).toEqual(['c']);
    spent = true;
    await followStakes(stakes, input({ c: 'accepted', f: 'accepted', g: 'accepted' }, {}, { outbox: new Set(['c', 'g']), ran }));
    expect(stakes.map((s) => s.state)).toEqual(['active', 'failed', 'failed']);
    const refused = [record({ txID: 'c', state: 'failed' })];
    await followStakes(refused, input({}, {}));
    expect(refused[0]!.state).toBe('failed');
  });

  it('takes Activity’s checked word over the node’s: a refused stake Activity found accepted is active; a failure Activity lists pending waits, in the outbox or out of it', async () => {
    // f: refused, out of the outbox, then found to have run (Activity: accepted); c: the node says
    // failed while Activity lists it pending and the outbox follows it; b: the same, out of the
    // outbox (Activity keeps it pending, checking: without its bytes a failure is not checked).
    const stakes = [record({ txID: 'f', state: 'failed', end: 1795583300 }), record({ txID: 'c', state: 'pending' }), record({ txID: 'b', state: 'pending' })];
    const listed = new Map([['f', 'accepted'], ['c', 'pending'], ['b', 'pending']]);
    expect(hasOpenStakes(stakes.slice(0, 1), listed)).toBe(true);
    // A refused one Activity lists pending again (the node holds it) is followed after a refresh too; one it lists failed is not.
    expect(hasOpenStakes([record({ txID: 'r', state: 'failed' })], new Map([['r', 'pending']]))).toBe(true);
    expect(hasOpenStakes([record({ txID: 'r', state: 'failed' })], new Map([['r', 'failed']]))).toBe(false);
    await followStakes(stakes, input({ f: 'failed', c: 'failed', b: 'failed' }, {}, { listed }));
    expect(stakes.map((s) => s.state)).toEqual(['active', 'pending', 'pending']);
    // Nor the node's "unknown", past the grace a stake has to reach the outbox.
    const unknown = [record({ txID: 'u', state: 'pending', createdAt: Date.now() - 3_600_000 })];
    await followStakes(unknown, input({ u: 'unknown' }, {}, { listed: new Map([['u', 'pending']]) }));
    expect(unknown[0]!.state).toBe('pending');
    await followStakes(unknown, input({ u: 'unknown' }, {}, { listed: new Map() }));
    expect(unknown[0]!.state).toBe('failed');
    // Past its end and not run by the node's word (unknown, failed), a delegation never can be:
    // failed, though Activity still lists it pending. One the node still holds (processing) waits
    // an hour more (the time used may run up to an hour ahead of the chain's), then fails too.
    const late = [record({ txID: 'l', state: 'pending', end: 1_000 }), record({ txID: 'k', state: 'pending', end: 1_000 }), record({ txID: 'j', state: 'pending', end: 1_000 })];
    const lateListed = new Map([['l', 'pending'], ['k', 'pending'], ['j', 'pending']]);
    await followStakes(late, input({ l: 'unknown', k: 'processing', j: 'failed' }, {}, { now: 999, listed: lateListed }));
    expect(late.map((s) => s.state)).toEqual(['pending', 'pending', 'pending']);
    await followStakes(late, input({ l: 'unknown', k: 'processing', j: 'failed' }, {}, { now: 1_000, listed: lateListed }));
    expect(late.map((s) => s.state)).toEqual(['failed', 'pending', 'failed']);
    await followStakes(late, input({ l: 'unknown', k: 'processing', j: 'failed' }, {}, { now: 4_599, listed: lateListed }));
    expect(late[1]!.state).toBe('pending');
    await followStakes(late, input({ l: 'unknown', k: 'processing', j: 'failed' }, {}, { now: 4_600, listed: lateListed }));
    expect(late[1]!.state).toBe('failed');
  });

  it("fails a stake of its own whose tx Activity lists as replaced (a send of the wallet's took its place), whatever the node says", async () => {
    const stakes = [record({ txID: 'r', state: 'pending', end: 2e9 }), record({ txID: 'a', state: 'active', end: 2e9 }), record({ txID: 'o', state: 'pending', end: 2e9, byWallet: false })];
    const listed = listedStates([
      { txID: 'r', status: 'failed', replaced: true },
      { txID: 'a', status: 'failed', replaced: true },
      { txID: 'o', status: 'failed', replaced: true },
    ]);
    await followStakes(stakes, input({ r: 'accepted', a: 'accepted', o: 'accepted' }, {}, { listed, ran: async () => true, now: 0 }));
    expect(stakes.map((s) => s.state)).toEqual(['failed', 'failed', expect.not.stringMatching(/^failed$/)]);
    expect(hasOpenStakes(stakes.slice(0, 2), listed)).toBe(false);
  });

  it('follows an active stake of its own that Activity lists pending again (taken back: its funds listed again) as sent: active only once it ran', async () => {
    const stakes = [record({ txID: 'a', state: 'active', end: 2e9 }), record({ txID: 'b', state: 'active', end: 2e9 }), record({ txID: 'f', state: 'active', end: 2e9, byWallet: false })];
    const listed = new Map([['a', 'pending'], ['b', 'pending'], ['f', 'pending']]);
    const ran = async (txID: string) => txID === 'b';
    await followStakes(stakes, input({ a: 'accepted', b: 'accepted', f: 'accepted' }, {}, { listed, ran, now: 0 }));
    expect(stakes.map((s) => s.state)).toEqual(['pending', 'active', 'active']);
  });

  it("takes no 'committed' of the node's while Activity lists the stake pending and the outbox follows it (what it spends may be unspent yet): not staked twice in the balance", async () => {
    // c: the node says committed (and has the bytes the wallet sent it) while Activity's check of its
    // inputs still says pending, and they are unspent yet; b: the same, out of the outbox, its inputs spent.
    const stakes = [record({ txID: 'c', state: 'pending', end: 1795583300 }), record({ txID: 'b', state: 'pending', end: 1795583300 })];
    await followStakes(stakes, input({ c: 'accepted', b: 'accepted' }, {}, { listed: new Map([['c', 'pending'], ['b', 'pending']]), ran: async (txID) => txID === 'b' }));
    expect(stakes.map((s) => s.state)).toEqual(['pending', 'active']);
    expect(stakedAmounts(stakes, 1795583200, new Map([['c', 'pending']])).map((a) => a.amount)).toEqual(['25000000000']);
    // Out of the outbox, the node's "committed" still needs what the tx spends spent (`ran`, from the node's hash-checked bytes).
    const unproven = [record({ txID: 'b', state: 'pending', end: 1795583300 })];
    await followStakes(unproven, input({ b: 'accepted' }, {}, { ran: async () => false }));
    await followStakes(unproven, input({ b: 'accepted' }, {}, { ran: undefined }));
    expect(unproven[0]!.state).toBe('pending');
    // Once Activity finds it accepted (its inputs spent), it is active.
    await followStakes(stakes, input({}, {}, { listed: new Map([['c', 'accepted']]) }));
    expect(stakes[0]!.state).toBe('active');
  });

  it('takes Activity’s failed for a stake the outbox still holds (lost and past its sendBefore: kept voided), which the node does not know: failed, not pending for good; active if it ran after all', async () => {
    const stakes = [record({ txID: 'c', state: 'pending', end: 1795583300 })];
    await followStakes(stakes, input({}, {}, { listed: new Map([['c', 'failed']]) }));
    expect(stakes[0]!.state).toBe('failed');
    await followStakes(stakes, input({}, {}, { listed: new Map([['c', 'accepted']]) }));
    expect(stakes[0]!.state).toBe('active');
    // Out of the outbox (another network entry for the chain told a send of it), Activity's failed is old: the node is asked.
    const gone = [record({ txID: 'g', state: 'pending', end: 1795583300 })];
    await followStakes(gone, input({ g: 'accepted' }, {}, { listed: new Map([['g', 'failed']]), ran: async () => false }));
    expect(gone[0]!.state).toBe('pending');
    await followStakes(gone, input({ g: 'accepted' }, {}, { listed: new Map([['g', 'failed']]) }));
    expect(gone[0]!.state).toBe('active');
  });

  it('finishes a delegation at its end and records its reward once its reward tx is committed, as much as the node paid', async () => {
    const stakes = [record({ txID: DELEGATION_TX, end: 1795583012 })];
    const rewardTx = rewardTxIdOf('delegation', DELEGATION_TX);
    expect(await followStakes(stakes, input({}, {}))).toEqual([]);
    expect(stakes[0]).toMatchObject({ state: 'finished' });
    expect(stakes[0]!.settled).toBeUndefined();
    const chain = input({ [rewardTx]: 'accepted' }, { [DELEGATION_TX]: utxosOf('delegation') });
    const found = await followStakes(stakes, chain);
    expect(chain.asked).toEqual([DELEGATION_TX]);
    expect(found.map((f) => [f.rewardTxID, f.paidAt])).toEqual([[rewardTx, 1795583012]]);
    expect(stakes[0]).toMatchObject({ settled: 'paid', rewards: [{ txID: rewardTx, kind: 'delegation', amount: '6874', paidAt: 1795583012, to: ME, yours: true }] });
    expect(hasOpenStakes(stakes)).toBe(false);
    // Settled: nothing more is asked.
    expect(await followStakes(stakes, chain)).toEqual([]);
  });

  it('counts as its reward only what its reward tx paid: a UTXO of another tx the node lists there is not', async () => {
    const stakes = [record({ txID: DELEGATION_TX, state: 'finished', end: 1795583012 })];
    const [paid] = utxosOf('delegation');
    const another = { ...paid!, txID: parseId(AUTO_TX) };
    await followStakes(stakes, input({ [rewardTxIdOf('delegation', DELEGATION_TX)]: 'accepted' }, { [DELEGATION_TX]: [paid!, another] }));
    expect(stakes[0]!.rewards.map((r) => r.amount)).toEqual(['6874']);
  });

  it('a stake whose reward owner has no address (the chain takes one) is settled, not an error that stops every stake', async () => {
    const stakes = [record({ txID: DELEGATION_TX, state: 'finished', end: 1795583012, rewardOwner: { addresses: [], threshold: 0 } })];
    await followStakes(stakes, input({ [rewardTxIdOf('delegation', DELEGATION_TX)]: 'accepted' }, { [DELEGATION_TX]: utxosOf('delegation') }));
    expect(stakes[0]).toMatchObject({ settled: 'paid', rewards: [{ amount: '6874', yours: true }] });
  });

  it('one record the follow cannot read (a damaged address) is left for the next look; the others go on', async () => {
    const damaged = record({ txID: AUTO_TX, state: 'finished', end: 1795583012, rewardOwner: { addresses: ['P-custom1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq'], threshold: 1 } });
    const stakes = [damaged, record({ txID: DELEGATION_TX, state: 'finished', end: 1795583012 })];
    const rewards = { [DELEGATION_TX]: utxosOf('delegation'), [AUTO_TX]: utxosOf('delegation') };
    await followStakes(stakes, input({ [rewardTxIdOf('delegation', DELEGATION_TX)]: 'accepted', [rewardTxIdOf('delegation', AUTO_TX)]: 'accepted' }, rewards));
    expect(stakes[1]).toMatchObject({ settled: 'paid', rewards: [{ amount: '6874' }] });
    expect(stakes[0]!.settled).toBeUndefined();
  });

  it('records an aborted delegation as not paid, with no reward', async () => {
    const stakes = [record({ txID: DELEGATION_TX, state: 'finished', end: 1795583012 })];
    await followStakes(stakes, input({ [rewardTxIdOf('delegation', DELEGATION_TX)]: 'failed' }, { [DELEGATION_TX]: utxosOf('delegation') }));
    expect(stakes[0]).toMatchObject({ settled: 'not-paid', rewards: [] });
  });

  it('settles each cycle of an auto-renewed validator: the one it saw end, the ones it missed, the last when it left', async () => {
    const first = rewardTxIdOf('auto-renewed', AUTO_TX, 1795583192n);
    const stakes = [record({ txID: AUTO_TX, kind: 'auto-renewed', start: 1795582892, end: 1795583192, nextPeriod: 300, restakeShares: 500_000, delegationFeeOwner: { addresses: [ME], threshold: 1 } })];
    // Seen in its second cycle: the first has ended, and its reward tx paid a validation reward and fees.
    const found = await followStakes(stakes, input({ [first]: 'accepted' }, { [first]: utxosOf('autoRenewedCycle') }, { validators: [validator({})] }));
    expect(found.map((f) => f.rewardTxID)).toEqual([first]);
    expect(stakes[0]).toMatchObject({ state: 'active', start: 1795583192, end: 1795583492, amount: '2000000708961', cyclesToSettle: [] });
    expect(stakes[0]!.rewards.map((r) => [r.kind, r.amount])).toEqual([['validation', '708748'], ['delegation-fees', '213']]);
    // Not seen for two cycles, then seen in a later one: both cycles in between are looked at, and
    // one whose reward tx is not decided yet (the chain's time at its end) waits for the next look.
    const cycle = (end: number) => rewardTxIdOf('auto-renewed', AUTO_TX, BigInt(end));
    const later = validator({ start: 1795584092n, end: 1795584392n });
    const chain = input({ [cycle(1795583492)]: 'accepted', [cycle(1795583792)]: 'accepted' }, {}, { now: 1795584092, validators: [later] });
    const between = await followStakes(stakes, chain);
    expect(between.map((f) => f.rewardTxID)).toEqual([cycle(1795583492), cycle(1795583792)]);
    expect(stakes[0]!.cyclesToSettle).toEqual([1795584092]);
    // Gone from the list after its end: its last cycles are settled, then it is finished.
    const ended = { [cycle(1795584092)]: 'accepted', [cycle(1795584392)]: 'processing' } as const;
    await followStakes(stakes, input(ended, {}, { now: 1795584400 }));
    expect(stakes[0]).toMatchObject({ state: 'finished', cyclesToSettle: [1795584392] });
    expect(stakes[0]!.settled).toBeUndefined();
    await followStakes(stakes, input({ ...ended, [cycle(1795584392)]: 'accepted' }, {}, { now: 1795584400 }));
    expect(stakes[0]).toMatchObject({ state: 'finished', cyclesToSettle: [], settled: 'paid' });
  });

  it('an auto-renewed validator aborted at a cycle’s end and looked at cycles later is settled not paid; the cycles it never had are not waited for', async () => {
    const end = 1795583492;
    const stakes = [record({ txID: AUTO_TX, kind: 'auto-renewed', start: 1795583192, end, nextPeriod: 300, restakeShares: 0, delegationFeeOwner: { addresses: [ME], threshold: 1 } })];
    // Gone from the list three cycles later: the validator was removed at `end` (uptime too low).
    const chain = input({ [rewardTxIdOf('auto-renewed', AUTO_TX, BigInt(end))]: 'failed' }, {}, { now: end + 950 });
    await followStakes(stakes, chain);
    expect(stakes[0]).toMatchObject({ state: 'finished', cyclesToSettle: [], settled: 'not-paid' });
    expect(hasOpenStakes(stakes)).toBe(false);
    // Its period changed unseen: the stepped cycle ends (guesses) with no reward tx are waited for
    // an hour past (a lagging node may not know a decided one yet), then dropped; the end it was
    // seen at is never dropped, and settles it.
    const changed = [record({ txID: AUTO_TX, kind: 'auto-renewed', start: 1795583192, end, nextPeriod: 300 })];
    const seenEnd = { [rewardTxIdOf('auto-renewed', AUTO_TX, BigInt(end))]: 'accepted' } as const;
    await followStakes(changed, input(seenEnd, {}, { now: end + 950 }));
    expect(changed[0]).toMatchObject({ state: 'finished', cyclesToSettle: [end + 300, end + 600, end + 900], steppedEnds: [end + 300, end + 600, end + 900] });
    expect(changed[0]!.settled).toBeUndefined();
    await followStakes(changed, input(seenEnd, {}, { now: end + 900 + 3_601 }));
    expect(changed[0]).toMatchObject({ state: 'finished', cyclesToSettle: [], settled: 'paid' });
    expect(changed[0]!.steppedEnds).toBeUndefined();
    // Sent by this wallet and next seen two cycles later: the first end it recorded was the
    // review's guess (the cycle counts from the accepting block); never a reward tx, it is dropped.
    const guessed = [record({ txID: AUTO_TX, kind: 'auto-renewed', start: 1795583190, end: end - 2, nextPeriod: 300, steppedEnds: [end - 2] })];
    const cycles = { [rewardTxIdOf('auto-renewed', AUTO_TX, BigInt(end))]: 'accepted', [rewardTxIdOf('auto-renewed', AUTO_TX, BigInt(end + 300))]: 'accepted' } as const;
    const found = await followStakes(guessed, input(cycles, {}, { now: end + 600 + 3_601, validators: [validator({ start: BigInt(end + 600), end: BigInt(end + 900) })] }));
    // The real cycles, stepped back from the start seen, are settled; the guess is gone.
    expect(found.map((f) => f.paidAt)).toEqual([end, end + 300]);
    expect(guessed[0]).toMatchObject({ state: 'active', cyclesToSettle: [end + 600] });
    expect(guessed[0]!.steppedEnds).toBeUndefined();
    // The guess is kept through looks made while the stake is pending, and a guess later than the
    // real first end (the computer's clock a little fast) does not lose that end.
    const late = [record({ txID: AUTO_TX, kind: 'auto-renewed', state: 'pending', start: 1795583194, end: end + 2, nextPeriod: 300, steppedEnds: [end + 2] })];
    await followStakes(late, input({}, {}, { now: end - 250, outbox: new Set([AUTO_TX]) }));
    expect(late[0]).toMatchObject({ state: 'pending', steppedEnds: [end + 2] });
    const seenLater = input({ [AUTO_TX]: 'accepted', ...cycles }, {}, { now: end + 300 + 3_601, validators: [validator({ start: BigInt(end + 300), end: BigInt(end + 600) })] });
    expect((await followStakes(late, seenLater)).map((f) => f.paidAt)).toEqual([end, end + 300]);
    expect(late[0]).toMatchObject({ state: 'active', cyclesToSettle: [] });
    expect(late[0]!.steppedEnds).toBeUndefined();
    // Sent by this wallet and gone from the list before it was ever seen (aborted while the wallet
    // was closed): its exact ends cannot be known, so the book says it cannot tell, and stops asking.
    const unseen = [record({ txID: AUTO_TX, kind: 'auto-renewed', start: 1795583190, end: end - 2, nextPeriod: 300, steppedEnds: [end - 2] })];
    await followStakes(unseen, input({}, {}, { now: end + 950 }));
    expect(unseen[0]).toMatchObject({ state: 'finished', settled: 'unknown' });
    expect(unseen[0]!.steppedEnds).toBeUndefined();
    expect(hasOpenStakes(unseen)).toBe(false);
    // Seen in its first cycle: the guess is forgotten.
    const first = [record({ txID: AUTO_TX, kind: 'auto-renewed', start: 1795583190, end: 1795583490, nextPeriod: 300, steppedEnds: [1795583490] })];
    await followStakes(first, input({}, {}, { validators: [validator({})] }));
    expect(first[0]).toMatchObject({ state: 'active', end: 1795583492, cyclesToSettle: [] });
    expect(first[0]!.steppedEnds ?? []).toEqual([]);
    // A seen end the node does not know (a lagging node) is asked about again, however long past.
    const lagging = [record({ txID: AUTO_TX, kind: 'auto-renewed', start: 1795583192, end, nextPeriod: 0 })];
    await followStakes(lagging, input({}, {}, { now: end + 10 * 3_600 }));
    expect(lagging[0]).toMatchObject({ state: 'finished', cyclesToSettle: [end] });
    expect(lagging[0]!.settled).toBeUndefined();
  });

  it('counts in the balance only what the account staked itself and is still locked, with when it comes back', () => {
    const stakes = [
      record({ txID: 'a', end: 200 }),
      record({ txID: 'b', end: 50 }),
      record({ txID: 'c', state: 'pending', end: 300 }),
      record({ txID: 'd', kind: 'auto-renewed', nextPeriod: 60, end: 120 }),
      record({ txID: 'e', kind: 'auto-renewed', nextPeriod: 0, end: 120 }),
      record({ txID: 'f', byWallet: false, end: 500 }),
      record({ txID: 'g', state: 'finished', end: 20 }),
    ];
    // The pending one counts once Activity says its tx ran.
    expect(stakedAmounts(stakes, 100, new Map([['c', 'accepted']]))).toEqual([
      { amount: '25000000000', unlocksAt: 200 },
      { amount: '25000000000', unlocksAt: 300 },
      { amount: '25000000000', unlocksAt: null },
      { amount: '25000000000', unlocksAt: 120 },
    ]);
    // Still pending in the book past its end (the wallet closed meanwhile): its funds are back as
    // UTXOs, no longer staked (the end is fixed in its tx).
    expect(stakedAmounts([record({ txID: 'c', state: 'pending', end: 300 })], 301, new Map([['c', 'accepted']]))).toEqual([]);
  });

  it('settles an auto-renewed validator accepted long after its review (re-sent later): its first start is no cycle end', async () => {
    const P = 172_800; // mainnet's shortest cycle, 48 h
    const review = 1_800_000_000;
    const T0 = review + 25 * 3600; // accepted 25 h late: more than half a cycle after the guess
    const stakes = [record({ txID: AUTO_TX, kind: 'auto-renewed', state: 'pending', start: review, end: review + P, nextPeriod: P, restakeShares: 0, steppedEnds: [review + P] })];
    const authority = { addresses: [ME], threshold: 1, locktime: 0n };
    await followStakes(stakes, input({ [AUTO_TX]: 'accepted' }, {}, { now: T0 + 60, validators: [validator({ start: BigInt(T0), end: BigInt(T0 + P), autoRenew: { authority, nextPeriod: 0n, restakeShares: 0 } })] }));
    // It stopped after its first cycle, whose reward tx was committed; T0 never had one.
    const paid = input({ [rewardTxIdOf('auto-renewed', AUTO_TX, BigInt(T0 + P))]: 'accepted' }, {}, { now: T0 + P + 2 * 3600 });
    expect((await followStakes(stakes, paid)).map((f) => f.paidAt)).toEqual([T0 + P]);
    expect(stakes[0]).toMatchObject({ state: 'finished', settled: 'paid', cyclesToSettle: [] });
    expect(hasOpenStakes(stakes)).toBe(false);
  });

  it('records who may change an auto-renewed validator, and My stakes says whether the account can (its keys meet the threshold)', async () => {
    const OTHER = 'P-custom1q9fcde2yflazzvsgwgvj5j64u8hdvhecc2q66h';
    const seen = async (addresses: string[], threshold: number) => {
      const stakes = [record({ txID: AUTO_TX, kind: 'auto-renewed', byWallet: false, end: 1795583492, nextPeriod: 300 })];
      await followStakes(stakes, input({}, {}, { validators: [validator({ autoRenew: { authority: { addresses, threshold, locktime: 0n }, nextPeriod: 300n, restakeShares: 0 } })] }));
      expect(stakes[0]!.authority).toEqual({ addresses, threshold });
      return myStakeView(stakes[0]!, new Set([ME])).autoRenew;
    };
    expect(await seen([OTHER], 1)).toEqual({ nextPeriod: 300, restakeShares: 0, yours: false });
    expect(await seen([OTHER, ME], 1)).toMatchObject({ yours: true });
    expect(await seen([OTHER, ME], 2)).toMatchObject({ yours: false });
    // Not seen in the list yet: not known, the action stays (the review says it in words if not).
    expect(myStakeView(record({ kind: 'auto-renewed', nextPeriod: 300 }), new Set([ME])).autoRenew).toEqual({ nextPeriod: 300, restakeShares: 0 });
  });

  it('tells an aborted cycle’s lone reward UTXO by whether an earlier cycle restaked: the restaked reward, else the fees', async () => {
    const [, fees] = utxosOf('autoRenewedCycle');
    const [first, second] = [1795583192, 1795583492];
    const aborted = rewardTxIdOf('auto-renewed', AUTO_TX, BigInt(second));
    const abortedUtxos = { [aborted]: [{ ...fees!, txID: parseId(aborted), outputIndex: 0 }] };
    const chain = input({ [rewardTxIdOf('auto-renewed', AUTO_TX, BigInt(first))]: 'accepted', [rewardTxIdOf('auto-renewed', AUTO_TX, BigInt(second))]: 'failed' }, abortedUtxos, { now: second + 10 });
    const kinds = async (restakeShares: number) => {
      const stakes = [record({ txID: AUTO_TX, kind: 'auto-renewed', state: 'finished', nextPeriod: 300, restakeShares, cyclesToSettle: [first, second] })];
      await followStakes(stakes, chain);
      return stakes[0]!.rewards.map((r) => r.kind);
    };
    expect(await kinds(500_000)).toEqual(['validation']);
    expect(await kinds(0)).toEqual(['delegation-fees']);
  });

  it('keeps the book per account and network, and refuses one it cannot read instead of taking it for empty', async () => {
    const { local } = memoryStores();
    const book = new StakeBook(local, 'xpc.stakes.n.a');
    expect(await book.list()).toEqual([]);
    await book.put(record({ txID: 'a' }));
    await book.put(record({ txID: 'a', amount: '1' }));
    expect((await book.list()).map((s) => [s.txID, s.amount])).toEqual([['a', '1']]);
    await local.set({ 'xpc.stakes.n.a': { version: 9, stakes: 'x' } });
    await expect(book.list()).rejects.toMatchObject({ code: 'storage-corrupt' });
  });
});

describe('the CSV of rewards and activity', () => {
  it('a C-Chain token item is in the token’s own unit, named by symbol and contract, never as AVAX; an NFT by its ID', () => {
    const T = '0x1CB79692389258FD0da4911A4947dF2C51DC7A47';
    const { csv } = stakingCsv(
      [],
      { items: [
        { txID: '0xt1', chain: 'C', kind: 'send', status: 'accepted', amount: '2500000', fee: '21000000000000', createdAt: 1_000, token: { address: T, symbol: 'TUSD', decimals: 6, standard: 'erc20' } },
        { txID: '0xt2', chain: 'C', kind: 'send', status: 'accepted', amount: '1', createdAt: 2_000, token: { address: T, symbol: 'NFT', decimals: 0, standard: 'erc721', tokenId: '7' } },
      ] },
      'AVAXID',
    );
    const lines = csv.split('\r\n');
    expect(lines[1]).toBe(`1970-01-01T00:00:01.000Z,0xt1,send,2.5,TUSD (${T}),0.000021`);
    expect(lines[2]).toBe(`1970-01-01T00:00:02.000Z,0xt2,send,1,NFT (${T}) #7,`);
  });

  it('writes rewards from the book and activity in its asset’s unit (named by the background, held or not), oldest first, leaving Activity’s reward items to the book', () => {
    const stakes = [record({ rewards: [{ txID: 'r1', kind: 'delegation', amount: '6874', paidAt: 1_000, to: ME, yours: true }, { txID: 'r1', kind: 'delegation-fees', amount: '5', paidAt: 1_000, to: 'P-custom1other', yours: false }] })];
    const { csv, rows } = stakingCsv(
      stakes,
      { items: [
        { txID: '0xabc', chain: 'C', kind: 'send', status: 'accepted', amount: '1000000000000000000', fee: '21000000000000', createdAt: 500_000 },
        { txID: 'r1', chain: 'P', kind: 'staking-reward', status: 'accepted', amount: '6874', createdAt: 1_000_000 },
        { txID: 'm', chain: 'X', kind: 'mint', status: 'failed', assetID: 'GOLD', amount: '150', fee: '1000000', createdAt: 2_000_000, assetInfo: { symbol: 'GLD', denomination: 2 } },
        { txID: 'u', chain: 'X', kind: 'receive', status: 'accepted', assetID: 'FOO', amount: '250', createdAt: 2_500_000 },
        { txID: 'x', chain: 'X', kind: 'receive', status: 'accepted', assetID: 'AVAXID', amount: '5', createdAt: 3_000_000 },
        { txID: 'cfg', chain: 'P', kind: 'staking-config', status: 'accepted', fee: '12691', nodeID: 'NodeID-x', createdAt: 3_500_000 },
      ] },
      'AVAXID',
    );
    expect(rows).toBe(6);
    expect(csv.split('\r\n')).toEqual([
      'date,txID,kind,amount,asset,fee',
      '1970-01-01T00:08:20.000Z,0xabc,send,1,AVAX,0.000021',
      '1970-01-01T00:16:40.000Z,r1,staking-reward,0.000006874,AVAX,',
      // Another asset by its symbol and ID, from its creating tx (held or not); one not named, in its smallest units.
      '1970-01-01T00:33:20.000Z,m,mint (failed),1.5,GLD (GOLD),0.001',
      '1970-01-01T00:41:40.000Z,u,receive,250,smallest units of FOO,',
      '1970-01-01T00:50:00.000Z,x,receive,0.000000005,AVAX,',
      // A change of auto-renewal moves nothing: 0 AVAX, and the fee it paid.
      '1970-01-01T00:58:20.000Z,cfg,staking-config,0,AVAX,0.000012691',
      '',
    ]);
  });
});

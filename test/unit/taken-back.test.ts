// A tx taken back (the node had shown it accepted, then listed its funds again): what the refresh
// does with it (reopenContradicted in src/background/settle-activity.ts), how its own save keeps the
// take-back (mergeRefresh), and that its stake never counts as staked while Activity lists it so.
import { sha256 } from '@noble/hashes/sha2.js';
import { describe, expect, it } from 'vitest';
import { decideItem, emptyCache, mergeRefresh } from '../../src/background/account-cache.js';
import { Outbox } from '../../src/background/outbox.js';
import { forgetTakenBack, reopenContradicted } from '../../src/background/settle-activity.js';
import { listedStates, locksFunds, StakeBook, type StakeRecord } from '../../src/background/stake-book.js';
import { memoryStores } from '../../src/background/storage.js';
import { utxoId } from '../../src/core/codec/ids.js';
import { encodeUtxo } from '../../src/core/codec/index.js';
import { WalletEngine } from '../../src/core/engine.js';
import type { SpentRecord } from '../../src/core/engine-types.js';
import { RpcError } from '../../src/core/errors.js';
import type { NodeClient } from '../../src/core/node.js';
import type { ActivityItem } from '../../src/shared/messages.js';
import { pTx } from './outbox-test-kit.js';
import { ctx, ewoq, second, utxo } from './pvm-test-kit.js';

const stake = (txID: string, state: StakeRecord['state']): StakeRecord => ({
  txID,
  kind: 'delegation',
  nodeID: 'NodeID-BqUj8Y8GtNthdgxRD3z9NKWy3ru3K338C',
  amount: '25000000000',
  state,
  rewardOwner: { addresses: ['P-custom18jma8ppw3nhx5r4ap8clazz0dps7rv5u9xde7p'], threshold: 1 },
  rewards: [],
  byWallet: true,
  createdAt: 1,
});

describe('a tx taken back: its funds listed again after the node showed it accepted', () => {
  async function setUp() {
    const u = utxo(2_000_000n);
    const { bytes, txID } = pTx([u]);
    // The spent book as it stands once the tx was taken as accepted.
    const noted = new Map([
      [utxoId(u), txID],
      [txID, txID],
    ]);
    const spent: SpentRecord = {
      spenderOf: (id) => noted.get(id),
      note: () => undefined,
      forget: (t) => {
        for (const [id, by] of noted) if (by === t) noted.delete(id);
      },
    };
    const node = { givesBytes: false };
    const fake = {
      platform: { getTx: async () => (node.givesBytes ? bytes : Promise.reject(new RpcError('platform.getTx', -32000, 'not found'))) },
      avm: { getTx: () => Promise.reject(new RpcError('avm.getTx', -32000, 'not found')) },
      getAllUtxos: async () => {
        const encoded = [encodeUtxo(u, 'pvm')];
        return { utxos: [u], encoded, digests: encoded.map((b) => sha256(b)), dropped: [] };
      },
      provesAccepted: async () => true,
    };
    const engine = new WalletEngine(fake as unknown as NodeClient, ctx, { xp: [ewoq], evm: second, change: ewoq.shortId }, { evmChainId: 1n, spent });
    const local = memoryStores().local;
    const stakes = new StakeBook(local, 'stakes');
    await stakes.put(stake(txID, 'active'));
    const outbox = new Outbox(local, 'outbox');
    const cache = emptyCache();
    cache.activity = [{ txID, chain: 'P', kind: 'delegate', status: 'accepted', createdAt: 1 } as ActivityItem];
    return { engine, node, noted, stakes, outbox, cache, txID };
  }

  it('is listed pending, checked, taken back; its stake is pending and counts as staked nowhere; it is held in the outbox once the node gives its bytes; what it spent is forgotten only when asked', async () => {
    const { engine, node, noted, stakes, outbox, cache, txID } = await setUp();
    await engine.utxos('P');
    expect([...engine.contradicted]).toEqual([txID]);

    const first = await reopenContradicted(engine, cache, stakes, outbox, async () => cache.activity);
    expect(first.reopened).toEqual([txID]);
    expect(first.warning).toMatch(/lists again funds that a transaction of this account spent/);
    expect(cache.activity[0]).toMatchObject({ status: 'pending', checking: true, takenBack: true });
    expect((await stakes.list()).map((s) => s.state)).toEqual(['pending']);
    // The node would not give its bytes: nothing held yet, and the note stays until the cache is saved.
    expect(await outbox.list()).toEqual([]);
    expect(noted.get(txID)).toBe(txID);
    forgetTakenBack(engine, cache.activity);
    expect(noted.size).toBe(0);

    // The next refresh asks for its bytes again, though nothing contradicts it any more; not while a
    // send has decided it meanwhile (Activity as saved: failed, its place taken).
    node.givesBytes = true;
    const next = new WalletEngine(engine.node, ctx, { xp: [ewoq], evm: second, change: ewoq.shortId }, { evmChainId: 1n });
    const decided = [{ ...cache.activity[0]!, status: 'failed' as const, replaced: true as const }];
    expect(await reopenContradicted(next, cache, stakes, outbox, async () => decided)).toEqual({ reopened: [] });
    expect(await outbox.list()).toEqual([]);
    const retried = await reopenContradicted(next, cache, stakes, outbox, async () => cache.activity);
    expect(retried).toEqual({ reopened: [] });
    expect((await outbox.list()).map((e) => [e.txID, e.voided, e.takenBack, e.surfaced, e.item.checking, e.item.takenBack])).toEqual([[txID, true, true, true, undefined, undefined]]);
  });

  it("keeps the take-back over the 'accepted' the same refresh saved before it (settled and taken back in one refresh)", () => {
    const txID = 'tx1';
    const startedWith = new Map<string, ActivityItem['status']>([[txID, 'pending']]);
    const stored = emptyCache();
    // The refresh's first save wrote what it settled: accepted.
    stored.activity = [{ txID, chain: 'P', kind: 'send', status: 'accepted', createdAt: 1 }];
    const refreshed = emptyCache();
    refreshed.activity = [{ txID, chain: 'P', kind: 'send', status: 'pending', checking: true, takenBack: true, createdAt: 1 }];
    // Without the refresh's own "accepted" in startedWith, the stored acceptance would win.
    const lost = structuredClone(stored);
    mergeRefresh(lost, refreshed, startedWith);
    expect(lost.activity[0]!.status).toBe('accepted');
    startedWith.set(txID, 'accepted');
    mergeRefresh(stored, refreshed, startedWith);
    expect(stored.activity[0]).toMatchObject({ status: 'pending', checking: true, takenBack: true });
  });

  it('a stake whose tx Activity lists as taken back locks no funds, whatever state a look wrote', () => {
    const listed = listedStates([
      { txID: 'back', status: 'pending', takenBack: true },
      { txID: 'ran', status: 'accepted' },
      { txID: 'sent', status: 'pending' },
    ]);
    expect(locksFunds(stake('back', 'active'), listed)).toBe(false);
    expect(locksFunds(stake('back', 'pending'), listed)).toBe(false);
    expect(locksFunds(stake('ran', 'active'), listed)).toBe(true);
    expect(locksFunds(stake('ran', 'pending'), listed)).toBe(true);
    // A site's stake that ran is active before Activity settles it again: it counts.
    expect(locksFunds(stake('sent', 'active'), listed)).toBe(true);
    expect(locksFunds(stake('sent', 'pending'), listed)).toBe(false);
    // Nor one whose tx Activity decided never ran, made active by a look while it was taken back.
    const never = listedStates([
      { txID: 'failed', status: 'failed' },
      { txID: 'replaced', status: 'failed', replaced: true },
    ]);
    expect(locksFunds(stake('failed', 'active'), never)).toBe(false);
    expect(locksFunds(stake('replaced', 'active'), never)).toBe(false);
  });

  it('once decided, an item is no longer checked nor taken back; accepted, nothing replaced it; replaced, it failed', () => {
    const item = (): ActivityItem => ({ txID: 't', chain: 'P', kind: 'delegate', status: 'pending', checking: true, takenBack: true, replaced: true, createdAt: 1 });
    const accepted = item();
    decideItem(accepted, 'accepted', true);
    expect(accepted).toEqual({ txID: 't', chain: 'P', kind: 'delegate', status: 'accepted', createdAt: 1 });
    const failed = item();
    decideItem(failed, 'failed');
    expect(failed).toEqual({ txID: 't', chain: 'P', kind: 'delegate', status: 'failed', replaced: true, createdAt: 1 });
    const replaced = { ...item(), replaced: undefined };
    decideItem(replaced, 'replaced');
    expect(replaced).toMatchObject({ status: 'failed', replaced: true });
    expect(replaced).not.toHaveProperty('checking');
    expect(replaced).not.toHaveProperty('takenBack');
    // Still pending: the take-back stands, and it is checked only when asked.
    const unclear = item();
    decideItem(unclear, 'pending', true);
    expect(unclear).toMatchObject({ status: 'pending', checking: true, takenBack: true });
    const waiting = item();
    decideItem(waiting, 'pending');
    expect(waiting).not.toHaveProperty('checking');
    expect(waiting.takenBack).toBe(true);
  });
});

// Funds received, found as UTXOs a refresh had not seen: the wallet's past is never news, whether
// or not its proofs were made on the first look; a receipt is listed only once its tx proves it.
import { describe, expect, it, vi } from 'vitest';
import { addActivity, emptyCache, MAX_OWN_ACTIVITY, MAX_RECEIPTS, mergeRefresh } from '../../src/background/account-cache.js';
import { KEEP_MISSING_UTXOS, MAX_KNOWN_UTXOS, noteIncoming, sharedBeyond, spendableBy } from '../../src/background/incoming-utxos.js';
import { utxoId } from '../../src/core/codec/ids.js';
import type { Utxo } from '../../src/core/codec/types.js';
import { cb58Encode, formatAddress } from '../../src/core/encoding.js';
import type { ActivityItem } from '../../src/shared/messages.js';

function utxo(n: number): Utxo {
  return {
    txID: new Uint8Array(32).fill(n),
    outputIndex: 0,
    assetID: new Uint8Array(32).fill(200),
    output: { kind: 'TransferOutput', amount: BigInt(n) * 1000n, owners: { locktime: 0n, threshold: 1, addresses: [new Uint8Array(20).fill(9)] } },
  };
}

const NONE = new Set<string>();

/** The account's keys (utxo(n) pays ME) and a stranger's. */
const ME = new Uint8Array(20).fill(9);
const ALSO_ME = new Uint8Array(20).fill(10);
const STRANGER = new Uint8Array(20).fill(11);

/** utxo(n) owned `threshold`-of `addresses` instead, at `outputIndex`. */
function ownedBy(n: number, threshold: number, addresses: Uint8Array[], outputIndex = 0): Utxo {
  const u = utxo(n);
  return { ...u, outputIndex, output: { ...(u.output as Extract<Utxo['output'], { kind: 'TransferOutput' }>), owners: { locktime: 0n, threshold, addresses } } };
}

describe('noteIncoming', () => {
  it('records every UTXO of the first look as known, proven or not: one proven later is not listed as received', () => {
    const cache = emptyCache();
    const [past, slow, fresh] = [utxo(1), utxo(2), utxo(3)];
    // First look: `slow`'s proof did not come in time (a getTx timeout, the budget spent).
    expect(noteIncoming(cache, [past, slow], 'X', NONE, (u) => u !== slow)).toEqual([]);
    expect(cache.knownUtxos).toEqual([utxoId(past), utxoId(slow)]);
    cache.balances.updatedAt = 1;
    // Next refresh: `slow` is proven now, and `fresh` arrived meanwhile.
    const received = noteIncoming(cache, [past, slow, fresh], 'X', NONE, () => true);
    expect(received.map((r) => r.txID)).toEqual([cb58Encode(fresh.txID)]);
    expect(cache.activity.map((a) => a.txID)).toEqual([cb58Encode(fresh.txID)]);
  });

  it('lists a new UTXO only once its tx proves it, and then once', () => {
    const cache = emptyCache();
    noteIncoming(cache, [utxo(1)], 'P', NONE, () => true);
    cache.balances.updatedAt = 1;
    const late = utxo(4);
    expect(noteIncoming(cache, [utxo(1), late], 'P', NONE, (u) => u !== late)).toEqual([]);
    expect(cache.knownPUtxos).toEqual([utxoId(utxo(1))]);
    expect(noteIncoming(cache, [utxo(1), late], 'P', NONE, () => true).map((r) => r.txID)).toEqual([cb58Encode(late.txID)]);
    expect(noteIncoming(cache, [utxo(1), late], 'P', NONE, () => true)).toEqual([]);
    expect(cache.activity).toHaveLength(1);
  });

  it('lists a tx paying several of the wallet\'s addresses once per asset, the outputs of each asset added up', () => {
    const cache = emptyCache();
    noteIncoming(cache, [], 'X', NONE, () => true);
    cache.balances.updatedAt = 1;
    const first = utxo(7);
    const second: Utxo = { ...utxo(7), outputIndex: 1, output: { ...first.output, amount: 2000n } as Utxo['output'] };
    const other: Utxo = { ...utxo(7), outputIndex: 2, assetID: new Uint8Array(32).fill(201), output: { ...first.output, amount: 100n } as Utxo['output'] };
    const received = noteIncoming(cache, [first, other, second], 'X', NONE, () => true);
    expect(received.map((r) => [r.txID, r.assetID, r.amount])).toEqual([
      [cb58Encode(first.txID), cb58Encode(first.assetID), '9000'],
      [cb58Encode(first.txID), cb58Encode(other.assetID), '100'],
    ]);
    expect(cache.activity).toHaveLength(2);
    expect(cache.knownUtxos).toEqual([utxoId(first), utxoId(other), utxoId(second)]);
  });

  it('another asset of a tx already listed as received, proven only in a later look, is listed then (once)', () => {
    const cache = emptyCache();
    noteIncoming(cache, [], 'X', NONE, () => true);
    cache.balances.updatedAt = 1;
    const avax = utxo(8);
    const token: Utxo = { ...utxo(8), outputIndex: 1, assetID: new Uint8Array(32).fill(201), output: { ...avax.output, amount: 100n } as Utxo['output'] };
    expect(noteIncoming(cache, [avax, token], 'X', NONE, (u) => u !== token).map((r) => r.assetID)).toEqual([cb58Encode(avax.assetID)]);
    expect(noteIncoming(cache, [avax, token], 'X', NONE, () => true).map((r) => [r.assetID, r.amount])).toEqual([[cb58Encode(token.assetID), '100']]);
    // Forgotten, then seen again: a receipt already listed is not listed twice.
    cache.knownUtxos = [];
    expect(noteIncoming(cache, [avax, token], 'X', NONE, () => true)).toEqual([]);
    expect(cache.activity).toHaveLength(2);
  });

  it('an output the account cannot spend alone (2-of-2 with a stranger) is recorded, never listed; one both its keys own is', () => {
    const cache = emptyCache();
    noteIncoming(cache, [], 'X', NONE, () => true);
    cache.balances.updatedAt = 1;
    const ours = spendableBy([formatAddress('X', 'custom', ME), formatAddress('X', 'custom', ALSO_ME)]);
    const shared = ownedBy(20, 2, [ME, STRANGER]);
    const both = ownedBy(21, 2, [ME, ALSO_ME]);
    expect(noteIncoming(cache, [shared, both], 'X', NONE, () => true, ours).map((r) => r.txID)).toEqual([cb58Encode(both.txID)]);
    expect(cache.knownUtxos).toEqual([utxoId(shared), utxoId(both)]);
    expect(noteIncoming(cache, [shared, both], 'X', NONE, () => true, ours)).toEqual([]);
  });

  it('an unproven output whose owners say it is not ours is not recorded: a node that made them up cannot hide the real receipt', () => {
    const cache = emptyCache();
    noteIncoming(cache, [], 'X', NONE, () => true);
    cache.balances.updatedAt = 1;
    const ours = spendableBy([formatAddress('X', 'custom', ME)]);
    const real = utxo(30);
    // The same UTXO ID with its owners rewritten to 2-of-2 with a stranger, and no tx shown for it.
    const madeUp = ownedBy(30, 2, [ME, STRANGER]);
    expect(noteIncoming(cache, [madeUp], 'X', NONE, () => false, ours)).toEqual([]);
    expect(cache.knownUtxos).not.toContain(utxoId(real));
    expect(noteIncoming(cache, [real], 'X', NONE, () => true, ours).map((r) => r.txID)).toEqual([cb58Encode(real.txID)]);
  });

  it('a receipt says how much of it another key can also spend alone (1-of-2 with a stranger); keys all the account\'s stay plain', () => {
    const cache = emptyCache();
    noteIncoming(cache, [], 'X', NONE, () => true);
    cache.balances.updatedAt = 1;
    const other = new Uint8Array(20).fill(12);
    const mine = [formatAddress('X', 'custom', ME), formatAddress('X', 'custom', ALSO_ME)];
    const shared = sharedBeyond(mine);
    // Who can spend what: only owner sets the stranger's keys meet alone are shared.
    expect(shared(ownedBy(1, 1, [ME, STRANGER]))).toBe(true);
    expect(shared(ownedBy(1, 2, [ME, ALSO_ME, STRANGER, other]))).toBe(true);
    expect(shared(ownedBy(1, 1, [ME, ALSO_ME]))).toBe(false);
    expect(shared(ownedBy(1, 2, [ME, ALSO_ME, STRANGER]))).toBe(false);
    expect(shared(ownedBy(1, 2, [ME, STRANGER]))).toBe(false); // not the account's alone either: no balance
    // One tx: 30 000 shared (1-of-2) and 30 000 plain to two addresses of the account: one receipt, its shared part said.
    const lure = ownedBy(30, 1, [ME, STRANGER]);
    const plain = ownedBy(30, 1, [ALSO_ME], 1);
    const only = ownedBy(31, 1, [ME]);
    const received = noteIncoming(cache, [lure, plain, only], 'X', NONE, () => true, spendableBy(mine), shared);
    expect(received.map((r) => [r.amount, r.shared])).toEqual([
      ['60000', '30000'],
      ['31000', undefined],
    ]);
  });

  it('an NFT received first does not hide the AVAX of the same tx', () => {
    const cache = emptyCache();
    noteIncoming(cache, [], 'X', NONE, () => true);
    cache.balances.updatedAt = 1;
    const nft: Utxo = { ...utxo(8), assetID: new Uint8Array(32).fill(202), output: { kind: 'NftTransferOutput', groupID: 0, payload: new Uint8Array(0), owners: { locktime: 0n, threshold: 1, addresses: [new Uint8Array(20).fill(9)] } } };
    const avax: Utxo = { ...utxo(8), outputIndex: 1 };
    const received = noteIncoming(cache, [nft, avax], 'X', NONE, () => true);
    expect(received.map((r) => [r.assetID, r.amount])).toEqual([
      [cb58Encode(nft.assetID), undefined],
      [cb58Encode(avax.assetID), '8000'],
    ]);
  });

  it('a refresh saved over storage keeps every asset of a receipt, and a record of the tx written meanwhile replaces them all once', () => {
    const cache = emptyCache();
    noteIncoming(cache, [], 'X', NONE, () => true);
    cache.balances.updatedAt = 1;
    const other: Utxo = { ...utxo(9), outputIndex: 1, assetID: new Uint8Array(32).fill(201) };
    const refreshed = structuredClone(cache);
    noteIncoming(refreshed, [utxo(9), other], 'X', NONE, () => true);
    const stored = structuredClone(cache);
    mergeRefresh(stored, refreshed, new Map());
    expect(stored.activity.map((a) => a.assetID)).toEqual([cb58Encode(other.assetID), cb58Encode(utxo(9).assetID)]);
    const sent: ActivityItem = { txID: cb58Encode(utxo(9).txID), chain: 'X', kind: 'send', status: 'pending', createdAt: 2 };
    const withSend = { ...structuredClone(cache), activity: [sent] };
    mergeRefresh(withSend, refreshed, new Map());
    // The receipts show the tx was accepted: the send says so, once.
    expect(withSend.activity).toEqual([{ ...sent, status: 'accepted' }]);
  });

  it("records the outputs of the wallet's own txs and moves as known, never as received", () => {
    const cache = emptyCache();
    noteIncoming(cache, [], 'X', NONE, () => true);
    cache.balances.updatedAt = 1;
    const change = utxo(5);
    const moved = utxo(6);
    cache.activity.push({ txID: cb58Encode(change.txID), chain: 'X', kind: 'send', status: 'accepted', createdAt: 0 });
    expect(noteIncoming(cache, [change, moved], 'X', new Set([cb58Encode(moved.txID)]), () => false)).toEqual([]);
    expect(cache.knownUtxos).toEqual([utxoId(change), utxoId(moved)]);
  });

  it('a node answering in part (here: nothing) once does not make the wallet\'s past news when the UTXOs show again', () => {
    const cache = emptyCache();
    noteIncoming(cache, [utxo(1), utxo(2)], 'X', NONE, () => true);
    cache.balances.updatedAt = 1;
    expect(noteIncoming(cache, [], 'X', NONE, () => true)).toEqual([]);
    expect(noteIncoming(cache, [utxo(2)], 'X', NONE, () => true)).toEqual([]);
    expect(noteIncoming(cache, [utxo(1), utxo(2)], 'X', NONE, () => true)).toEqual([]);
    expect(cache.activity).toEqual([]);
  });

  it('keeps as many known UTXOs as it knew, up to MAX_KNOWN_UTXOS: a node leaving most of them out once makes none of them news', () => {
    const cache = emptyCache();
    const all = Array.from({ length: 400 }, (_, i) => ({ ...utxo(5), outputIndex: i }));
    noteIncoming(cache, all, 'X', NONE, () => true);
    cache.balances.updatedAt = 1;
    expect(noteIncoming(cache, all.slice(0, 100), 'X', NONE, () => true)).toEqual([]);
    expect(noteIncoming(cache, all, 'X', NONE, () => true)).toEqual([]);
    // Each refresh: the last UTXO spent, a new one received: what it keeps stays bounded.
    for (let n = 0; n < 300; n++) noteIncoming(cache, [{ ...utxo(6), outputIndex: n }], 'X', NONE, () => false);
    expect(cache.knownUtxos!.length).toBeLessThanOrEqual(MAX_KNOWN_UTXOS);
  });

  it('shrinks back to MAX_KNOWN_UTXOS after a flood (spam dust, a lying node\'s made-up UTXOs) is gone', () => {
    const cache = emptyCache();
    noteIncoming(cache, [utxo(1)], 'P', NONE, () => true);
    cache.balances.updatedAt = 1;
    const flood = Array.from({ length: MAX_KNOWN_UTXOS + 1000 }, (_, i) => ({ ...utxo(2), outputIndex: i }));
    noteIncoming(cache, [utxo(1), ...flood], 'P', NONE, () => true);
    expect(cache.knownPUtxos).toHaveLength(MAX_KNOWN_UTXOS + 1001);
    noteIncoming(cache, [utxo(1)], 'P', NONE, () => true);
    expect(cache.knownPUtxos).toHaveLength(MAX_KNOWN_UTXOS);
    // The newest of the missing ones stay.
    expect(cache.knownPUtxos!.slice(0, 2)).toEqual([utxoId(utxo(1)), utxoId(flood[0]!)]);
    // A wallet holding more than that keeps what it holds, and up to KEEP_MISSING_UTXOS more.
    const more = Array.from({ length: 300 }, (_, i) => ({ ...utxo(3), outputIndex: i }));
    noteIncoming(cache, [...more, ...flood], 'P', NONE, () => true);
    noteIncoming(cache, flood, 'P', NONE, () => true);
    expect(cache.knownPUtxos).toHaveLength(flood.length + KEEP_MISSING_UTXOS);
  });
});

describe('the activity list\'s size', () => {
  /** A tx ID per number, as a refresh would see it. */
  const dust = (n: number): Utxo => ({ ...utxo(1), txID: Uint8Array.from({ length: 32 }, (_, i) => (i < 2 ? (n >> (8 * i)) & 0xff : 3)), assetID: new Uint8Array(32).fill(201) });

  it('a flood of funds received (spam dust) never pushes out what the wallet signed, and what goes is noted', () => {
    const cache = emptyCache();
    noteIncoming(cache, [], 'X', NONE, () => true);
    cache.balances.updatedAt = 1;
    addActivity(cache, { txID: 'my-send', chain: 'X', kind: 'send', status: 'accepted', createdAt: 1000 });
    const flood = Array.from({ length: MAX_RECEIPTS + 10 }, (_, i) => dust(i));
    const now = vi.spyOn(Date, 'now').mockReturnValue(5_000);
    noteIncoming(cache, flood.slice(0, 10), 'X', NONE, () => true);
    now.mockReturnValue(6_000);
    noteIncoming(cache, flood, 'X', NONE, () => true);
    now.mockRestore();
    expect(cache.activity.filter((a) => a.kind === 'receive')).toHaveLength(MAX_RECEIPTS);
    expect(cache.activity.filter((a) => a.createdAt === 5_000)).toEqual([]);
    expect(cache.activity.some((a) => a.txID === 'my-send')).toBe(true);
    // The oldest receipts went: the list says up to when.
    expect(cache.trimmed).toEqual({ received: 5_000 });
  });

  it('keeps the newest MAX_OWN_ACTIVITY of the wallet\'s own items, and a refresh saved over storage keeps what it noted', () => {
    const cache = emptyCache();
    for (let i = 0; i <= MAX_OWN_ACTIVITY; i++) addActivity(cache, { txID: `s${i}`, chain: 'X', kind: 'send', status: 'accepted', createdAt: 10 + i });
    expect(cache.activity).toHaveLength(MAX_OWN_ACTIVITY);
    expect(cache.activity.at(-1)!.txID).toBe('s1');
    expect(cache.trimmed).toEqual({ own: 10 });
    const stored = { ...emptyCache(), activity: cache.activity.slice() };
    mergeRefresh(stored, { ...cache, trimmed: { own: 10, received: 5 } }, new Map(cache.activity.map((a) => [a.txID, a.status])));
    expect(stored.trimmed).toEqual({ own: 10, received: 5 });
    expect(stored.activity).toHaveLength(MAX_OWN_ACTIVITY);
  });
});

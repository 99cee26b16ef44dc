// A refused site tx that no send can take the place of (it spends only a UTXO shared 2 of 2 with a
// stranger): kept, voided, in nobody's way, only to be watched (watchedOnly in
// src/background/outbox.ts), so that if it runs after all Activity lists it and the next send is
// told; let go a week after it was signed unless it ran. Against a scripted node (the same on the
// real node: test/integration/site-tx-refused.test.ts).
import { describe, expect, it } from 'vitest';
import { keptInTheWay, keptWhenRefused, Outbox, type OutboxEntry, outboxEntry, sendsInTheWay, watchedOnly } from '../../src/background/outbox.js';
import { sendOnce, WATCHED_REFUSAL } from '../../src/background/outbox-send.js';
import { type Settled, settleOutbox } from '../../src/background/outbox-settle.js';
import { conflictsOf, settleRefused, spendsOf } from '../../src/background/refused.js';
import { memoryStores } from '../../src/background/storage.js';
import { utxoId } from '../../src/core/codec/ids.js';
import type { Utxo } from '../../src/core/codec/index.js';
import type { SelectableInput } from '../../src/core/external-tx.js';
import { RpcError } from '../../src/core/errors.js';
import { keyPairFromSecret } from '../../src/core/keys.js';
import { makeOwners } from '../../src/core/tx/context.js';
import { decodeChainTx } from '../../src/core/tx-fate.js';
import { engineOn, item, pImportTx, pTx } from './outbox-test-kit.js';
import { ewoq, utxo } from './pvm-test-kit.js';

const stranger = keyPairFromSecret(new Uint8Array(32).fill(31));
const shared = utxo(7_000_000n, makeOwners([ewoq.shortId, stranger.shortId], 2));
const own = utxo(5_000_000n);
const WEEK = 7 * 24 * 3600_000;
const refusedByNode = () => Promise.reject(new RpcError('platform.issueTx', -32000, 'insufficient fee'));

/** A site's P-Chain tx spending `spent`, as the outbox keeps it (`selectable` recorded at signing; none: the wallet's own). */
function siteEntry(spent: Utxo[], selectable?: SelectableInput[], voided = false): OutboxEntry {
  const { bytes, txID } = pTx(spent);
  return { ...outboxEntry('P', txID, bytes, item(txID), selectable), ...(voided ? { voided: true } : {}) };
}

async function outboxOf(...entries: OutboxEntry[]): Promise<Outbox> {
  const outbox = new Outbox(memoryStores().local, 'watched');
  for (const e of entries) await outbox.put(e);
  return outbox;
}

const settle = async (engine: ReturnType<typeof engineOn>, outbox: Outbox) => {
  let settled: ReadonlyMap<string, Settled> = new Map();
  await settleOutbox(engine, outbox, async (s) => void (settled = s), () => undefined);
  return settled;
};

describe('a refused site tx kept only to be watched', () => {
  it('is one spending funds of its chain none of which a send could select; not one with such an input, nor the wallet’s own, nor an import', () => {
    const watched = siteEntry([shared], []);
    expect([keptInTheWay(watched), watchedOnly(watched), keptWhenRefused(watched)]).toEqual([false, true, true]);
    const withOwn = siteEntry([shared, own], [{ id: utxoId(own) }]);
    expect([keptInTheWay(withOwn), watchedOnly(withOwn)]).toEqual([true, false]);
    // The wallet's own (no record), and a damaged record: judged by every input, in the way.
    expect([keptInTheWay(siteEntry([shared])), watchedOnly(siteEntry([shared]))]).toEqual([true, false]);
    expect(watchedOnly({ ...watched, selectable: [{ id: 'not an input of it:0' }] })).toBe(false);
    // An import spends none of its chain's funds: neither in the way nor watched, as before.
    const imported = pImportTx([own]);
    expect(keptWhenRefused({ ...outboxEntry('P', imported.txID, imported.bytes, item(imported.txID), []) })).toBe(false);
  });

  it('refused, it is kept voided and the refusal says no send can take its place; it stops no send, and reading the outbox keeps it', async () => {
    const entry = siteEntry([shared], []);
    const outbox = await outboxOf(entry);
    const engine = engineOn({ status: () => 'Unknown', utxos: () => [shared, own], issue: refusedByNode });
    const refusal = (await sendOnce(engine, outbox, entry, 50).catch((e: unknown) => e)) as Error & { code: string };
    expect(refusal).toMatchObject({ code: 'tx-refused', message: expect.stringContaining('insufficient fee') });
    expect(refusal.message.endsWith(`; nothing was paid. ${WATCHED_REFUSAL}`)).toBe(true);
    expect(await outbox.list()).toEqual([{ ...entry, voided: true }]);
    const live = await settleRefused(engine, outbox, 'P', false, async () => undefined, () => undefined);
    expect(conflictsOf(live, 'P', spendsOf(decodeChainTx('P', pTx([own]).bytes)))).toEqual([]);
    // A new tx spending the shared UTXO too takes its place.
    expect(conflictsOf(live, 'P', spendsOf(decodeChainTx('P', pTx([shared, own]).bytes)))).toEqual([entry.txID]);
  });

  it('once it ran, Activity is told, and the next send on its chain is stopped once with the news', async () => {
    const entry = siteEntry([shared], [], true);
    const outbox = await outboxOf(entry);
    const engine = engineOn({ status: () => 'Committed', utxos: () => [own], issue: async () => entry.txID });
    expect((await settle(engine, outbox)).get(entry.txID)).toBe('accepted');
    expect(await outbox.list()).toMatchObject([{ txID: entry.txID, ran: true }]);
    const listed: string[] = [];
    await expect(settleRefused(engine, outbox, 'P', false, async (a) => void listed.push(`${a.txID} ${a.status}`), () => undefined)).rejects.toMatchObject({ code: 'earlier-send-went-through' });
    expect(listed).toEqual([`${entry.txID} accepted`]);
    expect(await outbox.list()).toEqual([]);
  });

  it("a site's export that ran stays until the next send is told, as a send does; a move's kept export (no site's record) goes once its move was told", async () => {
    const asExport = (e: OutboxEntry): OutboxEntry => ({ ...e, item: { ...e.item, kind: 'export' } });
    const sites = asExport(siteEntry([shared], [], true));
    const moves = asExport(siteEntry([own], undefined, true));
    const outbox = await outboxOf(sites, moves);
    const engine = engineOn({ status: () => 'Committed', utxos: () => [], issue: refusedByNode });
    await settle(engine, outbox);
    await settle(engine, outbox);
    expect((await outbox.list()).map((e) => [e.txID, e.ran])).toEqual([[sites.txID, true]]);
  });

  it('is let go a week after it was signed, unless it ran; a tx kept in the way is never let go by age', async () => {
    const young = { ...siteEntry([shared], [], true), createdAt: Date.now() - WEEK + 60_000 };
    const old = { ...siteEntry([utxo(8_000_000n, makeOwners([ewoq.shortId, stranger.shortId], 2))], [], true), createdAt: 0 };
    const inTheWay = { ...siteEntry([own], [{ id: utxoId(own) }], true), createdAt: 0 };
    const outbox = await outboxOf(young, old, inTheWay);
    const engine = engineOn({ status: () => 'Unknown', utxos: () => [shared, own, utxo(8_000_000n, makeOwners([ewoq.shortId, stranger.shortId], 2))], issue: refusedByNode });
    await settle(engine, outbox);
    expect((await outbox.list()).map((e) => e.txID)).toEqual([young.txID, inTheWay.txID]);
    // Old, but it ran: kept until the next send is told.
    const ran = { ...siteEntry([shared], [], true), createdAt: 0 };
    const ranBox = await outboxOf(ran);
    await settle(engineOn({ status: () => 'Committed', utxos: () => [], issue: refusedByNode }), ranBox);
    expect(await ranBox.list()).toMatchObject([{ txID: ran.txID, ran: true }]);
  });

  it("what it spends gone without proof it ran (the site's own retry signed elsewhere, or a node behind on its status): watched on quietly, never listed as 'may have gone through', no send stopped; proven run later, listed", async () => {
    const entry = siteEntry([shared], [], true);
    let status = 'Unknown';
    const engine = engineOn({ status: () => status, utxos: () => [own], issue: refusedByNode });
    const outbox = await outboxOf(entry);
    const listed: string[] = [];
    expect(await settleRefused(engine, outbox, 'P', false, async (a) => void listed.push(a.txID), () => undefined)).toEqual([]);
    expect((await settle(engine, outbox)).has(entry.txID)).toBe(false);
    expect([listed, await outbox.list()]).toEqual([[], [entry]]);
    // The node catches up: it ran, and is news.
    status = 'Committed';
    expect((await settle(engine, outbox)).get(entry.txID)).toBe('accepted');
    // A week on, unproven, it is let go unlisted.
    status = 'Unknown';
    const old = await outboxOf({ ...entry, createdAt: 0 });
    expect((await settle(engine, old)).has(entry.txID)).toBe(false);
    expect(await old.list()).toEqual([]);
  });

  it('one the node holds ("Processing") is watched on, neither listed nor stopping a send: only a run is news', async () => {
    const entry = siteEntry([shared], [], true);
    const engine = engineOn({ status: () => 'Processing', utxos: () => [shared, own], issue: refusedByNode });
    const outbox = await outboxOf(entry);
    const listed: string[] = [];
    await settleRefused(engine, outbox, 'P', false, async (a) => void listed.push(a.txID), () => undefined);
    expect((await settle(engine, outbox)).has(entry.txID)).toBe(false);
    expect(listed).toEqual([]);
    expect(await outbox.list()).toEqual([entry]);
  });

  it('is not counted among the sends a restore or a network removal would forget at the risk of paying twice: it keeps no send from anything', async () => {
    const { local } = memoryStores();
    const inTheWay = siteEntry([own], [{ id: utxoId(own) }], true);
    await local.set({ k: [siteEntry([shared], [], true), inTheWay] });
    expect(await sendsInTheWay(local, ['k'])).toEqual([inTheWay.txID]);
  });

  it('the same bytes signed again (a site sending them itself) are never marked their own successor; another tx spending its UTXO is', async () => {
    const entry = siteEntry([shared], [], true);
    const outbox = await outboxOf(entry);
    await outbox.markReplaced([entry.txID], entry.txID);
    expect(await outbox.list()).toEqual([entry]);
    await outbox.markReplaced([entry.txID], 'a retry');
    expect(await outbox.list()).toEqual([{ ...entry, replacedBy: 'a retry' }]);
  });

  it('taken by the node, then called failed while what it spends is unspent: kept voided and watched, not dropped', async () => {
    const entry = siteEntry([shared], []);
    const outbox = await outboxOf(entry);
    const engine = engineOn({ status: () => 'Dropped', utxos: () => [shared], issue: async () => entry.txID });
    expect((await settle(engine, outbox)).get(entry.txID)).toBe('failed');
    expect(await outbox.list()).toMatchObject([{ txID: entry.txID, voided: true }]);
  });
});

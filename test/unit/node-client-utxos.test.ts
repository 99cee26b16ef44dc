// NodeClient.getAllUtxos against a fake node that pages, repeats, lies about its pages or sends
// UTXOs that are not ours (node-client-fixtures.ts).
import { describe, expect, it } from 'vitest';
import { concatBytes, fromHex } from '../../src/core/bytes.js';
import { cb58Encode, formatAddress, toApiHex } from '../../src/core/encoding.js';
import { AbortedError, NodeResponseError, ValidationError } from '../../src/core/errors.js';
import { MAX_UTXO_PAGES, MAX_UTXO_READ_BYTES, NodeClient, UTXO_PLAIN_BYTES } from '../../src/core/node.js';
import { AVAX_API, client, fakeNode, ME, ME_X, pagingRoute, txIdOf, utxoBytes, type UtxoSpec, utxoHex } from './node-client-fixtures.js';

const STRANGER = fromHex('ee'.repeat(20));

function idOf(s: UtxoSpec): string {
  return `${cb58Encode(txIdOf(s.tx))}:${s.index ?? 0}`;
}

describe('getAllUtxos', () => {
  it('pages with startIndex = endIndex until a short page, counting round trips', async () => {
    const specs = [1, 2, 3, 4, 5].map((tx) => ({ tx }));
    const { url, calls } = await fakeNode(pagingRoute(specs.map(utxoHex)));
    const r = await client(url).getAllUtxos('X', [ME_X], { limit: 2 });
    expect(r.utxos.map((u) => `${cb58Encode(u.txID)}:${u.outputIndex}`)).toEqual(specs.map(idOf));
    expect(r.dropped).toEqual([]);
    expect(r.requests).toBe(3);
    expect(calls.map((c) => (c.params as { startIndex?: unknown }).startIndex)).toEqual([
      undefined,
      { address: ME_X, utxo: 'u1' },
      { address: ME_X, utxo: 'u3' },
    ]);
    expect(calls.every((c) => c.method === 'avm.getUTXOs' && c.path === '/ext/bc/X')).toBe(true);
    expect((calls[0]!.params as { limit: number }).limit).toBe(2);
  });

  it('asks once more when the last page is exactly full', async () => {
    const { url } = await fakeNode(pagingRoute([1, 2, 3, 4].map((tx) => utxoHex({ tx }))));
    const r = await client(url).getAllUtxos('X', [ME_X], { limit: 2 });
    expect(r.utxos).toHaveLength(4);
    expect(r.requests).toBe(3);
  });

  it('a failure of the page asked for while the one before was read fails the whole read', async () => {
    const pages = pagingRoute([1, 2, 3].map((tx) => utxoHex({ tx })));
    const { url, calls } = await fakeNode((c) => ((c.params as { startIndex?: unknown }).startIndex ? { error: { code: -32000, message: 'database closed' } } : pages(c)));
    await expect(client(url).getAllUtxos('X', [ME_X], { limit: 2 })).rejects.toThrow(/database closed/);
    expect(calls).toHaveLength(2);
  });

  it('uses the full page size of 1024 by default', async () => {
    const { url, calls } = await fakeNode(pagingRoute([]));
    await client(url).getAllUtxos('X', [ME_X]);
    expect((calls[0]!.params as { limit: number }).limit).toBe(1024);
  });

  it('de-duplicates UTXOs repeated across pages', async () => {
    const a = utxoHex({ tx: 1 });
    const b = utxoHex({ tx: 2 });
    const { url } = await fakeNode(pagingRoute([a, b, b, a, utxoHex({ tx: 3 })]));
    const r = await client(url).getAllUtxos('X', [ME_X], { limit: 2 });
    expect(r.utxos.map((u) => u.txID[0])).toEqual([txIdOf(1)[0], txIdOf(2)[0], txIdOf(3)[0]]);
    expect(r.dropped).toEqual([]);
  });

  it('drops a UTXO with a bad checksum and reports it', async () => {
    const good = utxoHex({ tx: 1 });
    const bad = utxoHex({ tx: 2 }).slice(0, -2) + '00';
    const { url } = await fakeNode(pagingRoute([good, bad]));
    const r = await client(url).getAllUtxos('X', [ME_X]);
    expect(r.utxos).toHaveLength(1);
    expect(r.dropped).toHaveLength(1);
    expect(r.dropped[0]!.reason).toMatch(/checksum/);
    expect(r.dropped[0]!.id).toBeUndefined();
  });

  it('drops a UTXO owned by someone else, naming it', async () => {
    const theirs = { tx: 9, owners: [STRANGER] };
    const { url } = await fakeNode(pagingRoute([utxoHex({ tx: 1 }), utxoHex(theirs)]));
    const r = await client(url).getAllUtxos('X', [ME_X]);
    expect(r.utxos).toHaveLength(1);
    expect(r.dropped).toEqual([{ id: idOf(theirs), reason: 'owned by none of the requested addresses' }]);
  });

  it('keeps a UTXO we co-own with others', async () => {
    const owners = [ME, STRANGER]; // ascending
    const { url } = await fakeNode(pagingRoute([utxoHex({ tx: 1, owners })]));
    const r = await client(url).getAllUtxos('X', [ME_X]);
    expect(r.utxos).toHaveLength(1);
  });

  it('drops undecodable bytes (trailing garbage, a P-only type on X)', async () => {
    const trailing = toApiHex(concatBytes(utxoBytes({ tx: 1 }), new Uint8Array([0])));
    const locked = utxoHex({ tx: 2, stakeableLocktime: 1n << 40n });
    const { url } = await fakeNode(pagingRoute([trailing, locked, utxoHex({ tx: 3 })]));
    const r = await client(url).getAllUtxos('X', [ME_X]);
    expect(r.utxos).toHaveLength(1);
    expect(r.dropped.map((d) => d.reason)).toEqual([expect.stringMatching(/undecodable/), expect.stringMatching(/undecodable/)]);
  });

  it('reads StakeableLockOut owners on P (output.output.owners)', async () => {
    const mine = { tx: 1, stakeableLocktime: 1n << 40n };
    const theirs = { tx: 2, stakeableLocktime: 1n << 40n, owners: [STRANGER] };
    const { url, calls } = await fakeNode(pagingRoute([utxoHex(mine), utxoHex(theirs)]));
    const r = await client(url).getAllUtxos('P', [ME_X]);
    expect(r.utxos).toHaveLength(1);
    expect(r.utxos[0]!.output.kind).toBe('StakeableLockOut');
    expect(r.dropped).toEqual([{ id: idOf(theirs), reason: 'owned by none of the requested addresses' }]);
    expect(calls[0]!.method).toBe('platform.getUTXOs');
    expect((calls[0]!.params as { addresses: string[] }).addresses).toEqual(['P-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u']);
  });

  it('drops both copies when the node sends two different bodies under one UTXO ID', async () => {
    const a = utxoHex({ tx: 1, amount: 5n });
    const b = utxoHex({ tx: 1, amount: 6n });
    const { url } = await fakeNode(pagingRoute([a, b, utxoHex({ tx: 2 })]));
    const r = await client(url).getAllUtxos('X', [ME_X]);
    expect(r.utxos).toHaveLength(1);
    expect(r.dropped).toEqual([{ id: idOf({ tx: 1 }), reason: 'the node sent two different UTXOs with this ID' }]);
  });

  it('batches more than 1024 addresses and de-duplicates across batches', async () => {
    const addrs = Array.from({ length: 1500 }, (_, i) => {
      const b = new Uint8Array(20);
      new DataView(b.buffer).setUint32(16, i + 1);
      return formatAddress('X', 'local', b);
    });
    addrs.push(ME_X, ME_X); // repeated: sent once
    const shared = utxoHex({ tx: 1 });
    const { url, calls } = await fakeNode(pagingRoute([shared]));
    const r = await client(url).getAllUtxos('X', addrs);
    expect(calls.map((c) => (c.params as { addresses: string[] }).addresses.length)).toEqual([1024, 477]);
    expect(r.requests).toBe(2);
    expect(r.utxos).toHaveLength(1);
  });

  it('sends no request for no addresses', async () => {
    const { url, calls } = await fakeNode(pagingRoute([]));
    expect(await client(url).getAllUtxos('X', [])).toEqual({ utxos: [], encoded: [], digests: [], dropped: [], requests: 0 });
    expect(calls).toHaveLength(0);
  });

  it('checks its arguments', async () => {
    const n = client('http://127.0.0.1:1');
    await expect(n.getAllUtxos('C', [ME_X])).rejects.toBeInstanceOf(ValidationError);
    await expect(n.getAllUtxos('X', [ME_X], { limit: 1025 })).rejects.toBeInstanceOf(ValidationError);
    await expect(n.getAllUtxos('X', [ME_X], { limit: 0 })).rejects.toBeInstanceOf(ValidationError);
  });

  it('refuses a page whose numFetched disagrees with its UTXOs', async () => {
    const { url } = await fakeNode(() => ({
      result: { numFetched: '5', utxos: [utxoHex({ tx: 1 })], endIndex: { address: ME_X, utxo: 'x' }, encoding: 'hex' },
    }));
    await expect(client(url).getAllUtxos('X', [ME_X])).rejects.toBeInstanceOf(NodeResponseError);
  });

  it('refuses a page longer than the limit', async () => {
    const { url } = await fakeNode(() => ({
      result: { numFetched: '2', utxos: [utxoHex({ tx: 1 }), utxoHex({ tx: 2 })], endIndex: { address: ME_X, utxo: 'x' }, encoding: 'hex' },
    }));
    await expect(client(url).getAllUtxos('X', [ME_X], { limit: 1 })).rejects.toBeInstanceOf(NodeResponseError);
  });

  it('stops a node that pages in a circle', async () => {
    const { url, calls } = await fakeNode(() => ({
      result: { numFetched: '1', utxos: [utxoHex({ tx: 1 })], endIndex: { address: ME_X, utxo: 'same' }, encoding: 'hex' },
    }));
    await expect(client(url).getAllUtxos('X', [ME_X], { limit: 1 })).rejects.toThrow(/circle/);
    expect(calls).toHaveLength(2);
  });

  it('stops a node that pages on with full pages of junk, each with a new end index', async () => {
    let n = 0;
    const { url, calls } = await fakeNode(() => {
      n++;
      const utxos = [utxoHex({ tx: 2 * n, owners: [STRANGER] }), utxoHex({ tx: 2 * n + 1 }).slice(0, -2) + '00'];
      return { result: { numFetched: '2', utxos, endIndex: { address: ME_X, utxo: `u${n}` }, encoding: 'hex' } };
    });
    await expect(client(url).getAllUtxos('X', [ME_X], { limit: 2 })).rejects.toThrow(/no new UTXO/);
    // The first page says it; at most the page already on the wire follows it.
    expect(calls.length).toBeLessThanOrEqual(2);
  });

  it('a read that stops drops the page already on the wire (its request is aborted, not downloaded)', async () => {
    const junk = [utxoHex({ tx: 2, owners: [STRANGER] }), utxoHex({ tx: 3 }).slice(0, -2) + '00'];
    const { url } = await fakeNode((c) => ((c.params as { startIndex?: unknown }).startIndex ? { hang: true } : { result: { numFetched: '2', utxos: junk, endIndex: { address: ME_X, utxo: 'u1' }, encoding: 'hex' } }));
    const signals: AbortSignal[] = [];
    const watched = new NodeClient({ url, atomicApi: AVAX_API, fetch: (input, init) => (signals.push(init.signal!), fetch(input, init)) });
    await expect(watched.getAllUtxos('X', [ME_X], { limit: 2 })).rejects.toThrow(/no new UTXO/);
    expect(signals).toHaveLength(2);
    expect(signals[1]!.aborted).toBe(true);
  });

  it(`stops a node that pages on past ${MAX_UTXO_PAGES} pages, even with something new on each`, async () => {
    let n = 0;
    const { url, calls } = await fakeNode(() => {
      n++;
      const utxos = [utxoHex({ tx: n }), utxoHex({ tx: 100_000 + n, owners: [STRANGER] })];
      return { result: { numFetched: '2', utxos, endIndex: { address: ME_X, utxo: `u${n}` }, encoding: 'hex' } };
    });
    await expect(client(url).getAllUtxos('X', [ME_X], { limit: 2 })).rejects.toThrow(new RegExp(`more than ${MAX_UTXO_PAGES} pages`));
    expect(calls).toHaveLength(MAX_UTXO_PAGES);
  });

  it(`stops a read once the UTXOs it keeps are ${MAX_UTXO_READ_BYTES} bytes over ${UTXO_PLAIN_BYTES} each (valid ones a node made up with a hundred owner addresses each), long before ${MAX_UTXO_PAGES} pages`, async () => {
    const owners = [ME, ...Array.from({ length: 99 }, (_, i) => txIdOf(1_000_000 + i).slice(0, 20))].sort((a, b) => toApiHex(a).localeCompare(toApiHex(b)));
    const over = utxoBytes({ tx: 0, owners }).length - UTXO_PLAIN_BYTES;
    const all = Array.from({ length: Math.ceil(MAX_UTXO_READ_BYTES / over) + 2000 }, (_, i) => utxoHex({ tx: i, owners }));
    const { url, calls } = await fakeNode(pagingRoute(all));
    await expect(client(url).getAllUtxos('X', [ME_X])).rejects.toThrow(/owner lists far longer than any wallet's/);
    expect(calls.length).toBeLessThanOrEqual(Math.ceil(MAX_UTXO_READ_BYTES / over / 1024) + 1);
    // Ordinary UTXOs count nothing towards it (the page limit bounds them): a plain one is far under.
    expect(utxoBytes({ tx: 0 }).length).toBeLessThan(UTXO_PLAIN_BYTES);
  }, 60_000);

  it('reads on through full pages of repeats alone (a UTXO two of the addresses own is listed under each)', async () => {
    const a = utxoHex({ tx: 1 });
    const b = utxoHex({ tx: 2 });
    const { url } = await fakeNode(pagingRoute([a, b, a, b, b, a, utxoHex({ tx: 3 })]));
    const r = await client(url).getAllUtxos('X', [ME_X], { limit: 2 });
    expect(r.utxos).toHaveLength(3);
    expect(r.requests).toBe(4);
  });

  it('can be cancelled', async () => {
    const { url } = await fakeNode(() => ({ hang: true }));
    const c = new AbortController();
    const p = client(url).getAllUtxos('X', [ME_X], { signal: c.signal });
    setTimeout(() => c.abort(), 30);
    await expect(p).rejects.toBeInstanceOf(AbortedError);
  });
});

// getAllUtxos against a fake X-Chain whose getUTXOs plays avax.GetPaginatedUTXOs step for step
// (vms/components/avax/utxo_fetching.go) over UTXOs that several of the queried addresses own.
// Within one call the node lists a shared UTXO under the first of its owners and skips it,
// uncounted, under the others; later calls list it again. Every UTXO must still be read once.
import { describe, expect, it } from 'vitest';
import { type Bytes, byteKey, concatBytes, toHex } from '../../src/core/bytes.js';
import { formatAddress, parseAddress, toApiHex } from '../../src/core/encoding.js';
import { LOCAL } from '../../src/core/network.js';
import { NodeClient } from '../../src/core/node.js';
import type { FetchLike } from '../../src/core/rpc.js';

const ASSET = new Uint8Array(32).fill(7);

function be(n: number, size: 4 | 8): Bytes {
  const b = new Uint8Array(size);
  const v = new DataView(b.buffer);
  if (size === 4) v.setUint32(0, n);
  else v.setBigUint64(0, BigInt(n));
  return b;
}

function address(first: number): Bytes {
  return new Uint8Array(20).fill(first);
}

interface Fake {
  id: string; // the node's UTXO ID: here any string, ordered as the node orders its index
  owners: Bytes[]; // ascending
  hex: string;
}

function utxo(n: number, owners: Bytes[]): Fake {
  const txID = new Uint8Array(32);
  new DataView(txID.buffer).setUint32(28, n + 1);
  const sorted = [...owners].sort((a, b) => (toHex(a) < toHex(b) ? -1 : 1));
  const out = concatBytes(be(7, 4), be(1000 + n, 8), be(0, 8), be(1, 4), be(sorted.length, 4), ...sorted);
  const bytes = concatBytes(new Uint8Array(2), txID, be(0, 4), ASSET, out);
  // Mixed into the ID order so that shared UTXOs fall among each owner's first ones and later ones.
  return { id: ((n * 7919) % 10007).toString().padStart(6, '0'), owners: sorted, hex: toApiHex(bytes) };
}

/** getUTXOs as GetPaginatedUTXOs: `skips` counts IDs passed over as already listed in the call. */
function node(all: Fake[]): { fetch: FetchLike; stats: { calls: number; skips: number } } {
  const index = new Map<string, Fake[]>();
  for (const u of all) for (const o of u.owners) index.set(toHex(o), [...(index.get(toHex(o)) ?? []), u]);
  for (const list of index.values()) list.sort((a, b) => (a.id < b.id ? -1 : 1));
  const stats = { calls: 0, skips: 0 };
  const fetch: FetchLike = async (_url, init) => {
    stats.calls++;
    const body = JSON.parse(init.body as string) as { id: number; params: { addresses: string[]; limit: number; startIndex?: { address: string; utxo: string } } };
    const p = body.params;
    const addrs = p.addresses.map((a) => toHex(parseAddress(a).bytes)).sort();
    let lastAddr = p.startIndex ? toHex(parseAddress(p.startIndex.address).bytes) : '00'.repeat(20);
    let lastId = p.startIndex?.utxo ?? '';
    let limit = p.limit;
    const searchSize = limit;
    const utxos: string[] = [];
    const seen = new Set<string>();
    done: for (const addr of addrs) {
      if (addr < lastAddr) continue;
      const start = addr === lastAddr ? lastId : '';
      lastAddr = addr;
      for (const u of (index.get(addr) ?? []).filter((x) => x.id > start).slice(0, searchSize)) {
        lastId = u.id;
        if (seen.has(u.id)) {
          stats.skips++;
          continue;
        }
        utxos.push(u.hex);
        seen.add(u.id);
        if (--limit <= 0) break done;
      }
    }
    const endIndex = { address: formatAddress('X', 'custom', Uint8Array.from(Buffer.from(lastAddr, 'hex'))), utxo: lastId };
    const result = { numFetched: String(utxos.length), utxos, endIndex, encoding: 'hex' };
    return new Response(JSON.stringify({ jsonrpc: '2.0', id: body.id, result }));
  };
  return { fetch, stats };
}

async function readAll(all: Fake[], owners: Bytes[], limit: number) {
  const fake = node(all);
  const client = new NodeClient({ url: 'http://127.0.0.1:1', atomicApi: LOCAL.atomicApi, fetch: fake.fetch });
  const r = await client.getAllUtxos('X', owners.map((o) => formatAddress('X', 'custom', o)), { limit });
  return { ids: r.utxos.map((u) => byteKey(u.txID)).sort(), requests: r.requests, stats: fake.stats };
}

const idsOf = (all: Fake[]) => all.map((u) => byteKey(parseTx(u.hex))).sort();
const parseTx = (hex: string) => Uint8Array.from(Buffer.from(hex.slice(2 + 4, 2 + 4 + 64), 'hex'));

describe('getAllUtxos over UTXOs two of the addresses own (the node skips repeats within a call)', () => {
  const [A, B, C] = [address(1), address(2), address(3)];

  it('a later address with more than a page, some of its first ones listed under an earlier one: all read', async () => {
    for (const limit of [2, 3, 4, 5, 8]) {
      // A's UTXOs all shared and fewer than a page: the first call goes on to B and skips them there.
      const all = [
        ...Array.from({ length: limit - 1 }, (_, i) => utxo(i, [A, B])),
        ...Array.from({ length: 4 * limit + 1 }, (_, i) => utxo(100 + i, [B])),
      ];
      const r = await readAll(all, [A, B], limit);
      expect(r.stats.skips, `limit ${limit}`).toBeGreaterThan(0);
      expect(r.ids, `limit ${limit}`).toEqual(idsOf(all));
    }
  });

  it('random owner sets over three addresses, at every small limit', async () => {
    let seed = 12345;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    let skips = 0;
    for (let round = 0; round < 30; round++) {
      const all = Array.from({ length: 5 + rand(40) }, (_, i) => {
        const owners = [A, B, C].filter(() => rand(2) === 0);
        return utxo(i, owners.length ? owners : [[A, B, C][rand(3)]!]);
      });
      for (let limit = 1; limit <= 7; limit++) {
        const r = await readAll(all, [C, A, B], limit);
        expect(r.ids, `round ${round}, limit ${limit}`).toEqual(idsOf(all));
        skips += r.stats.skips;
      }
    }
    expect(skips).toBeGreaterThan(100);
  });

  it('with nothing shared, one call per page', async () => {
    const all = Array.from({ length: 11 }, (_, i) => utxo(i, [i % 2 ? A : B]));
    const r = await readAll(all, [A, B], 4);
    expect(r.ids).toEqual(idsOf(all));
    expect([r.requests, r.stats.calls, r.stats.skips]).toEqual([3, 3, 0]);
  });
});

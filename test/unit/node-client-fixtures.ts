// Shared by the node-client*.test.ts files: a scriptable fake node on loopback (node:http), closed
// after each test of the file that imports it, and UTXOs written by hand per wire-format.md §4.6.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sha256 } from '@noble/hashes/sha2.js';
import { afterEach } from 'vitest';
import { type Bytes, concatBytes, fromHex } from '../../src/core/bytes.js';
import { toApiHex } from '../../src/core/encoding.js';
import { NodeClient, type AtomicApiConfig } from '../../src/core/node.js';

// ---- a scriptable fake node ----

interface Call {
  path: string;
  method: string;
  params: unknown;
  id: unknown;
}

type Answer =
  | { result: unknown }
  | { error: { code: number; message: string; data?: unknown } }
  | { raw: string; status?: number }
  | { hang: true };

export type Route = (call: Call) => Answer | undefined;

const closers: Array<() => Promise<void>> = [];

afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

export async function fakeNode(route: Route): Promise<{ url: string; calls: Call[]; gets: string[] }> {
  const calls: Call[] = [];
  const gets: string[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      const path = req.url ?? '';
      if (req.method === 'GET') {
        gets.push(path);
        const a = route({ path, method: 'GET', params: undefined, id: undefined });
        return send(res, undefined, a);
      }
      const body = JSON.parse(raw) as { id: unknown; method: string; params: unknown };
      const call: Call = { path, method: body.method, params: body.params, id: body.id };
      calls.push(call);
      send(res, body.id, route(call));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(
    () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, calls, gets };
}

function send(res: ServerResponse, id: unknown, a: Answer | undefined): void {
  if (a && 'hang' in a) return;
  if (a && 'raw' in a) {
    res.writeHead(a.status ?? 200, { 'content-type': 'application/json' });
    res.end(a.raw);
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json' });
  if (!a) {
    res.end(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32601, message: 'method not found' } }));
  } else if ('error' in a) {
    res.end(JSON.stringify({ jsonrpc: '2.0', id, error: a.error }));
  } else {
    res.end(JSON.stringify({ jsonrpc: '2.0', id, result: a.result }));
  }
}

export const AVAX_API: AtomicApiConfig = { namespace: 'avax', path: '/ext/bc/C/avax' };

export function client(url: string, atomicApi: AtomicApiConfig = AVAX_API, timeoutMs?: number): NodeClient {
  return new NodeClient(timeoutMs === undefined ? { url, atomicApi } : { url, atomicApi, timeoutMs });
}

// ---- UTXO fixtures, written by hand per wire-format.md §4.6 ----

export const ME = fromHex('3cb7d3842e8cee6a0ebd09f1fe884f6861e1b29c'); // the ewoq key's short ID
export const ME_X = 'X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u';
export const ASSET = fromHex('dbcf890f77f49b96857648b72b77f9f82937f28a68704af05da0dc12ba53f2db');

function u32(n: number): Bytes {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, n);
  return b;
}
function u64(n: bigint): Bytes {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, n);
  return b;
}
export function txIdOf(seed: number): Bytes {
  return sha256(u32(seed));
}

export interface UtxoSpec {
  tx: number;
  index?: number;
  amount?: bigint;
  owners?: Bytes[];
  stakeableLocktime?: bigint;
}

export function utxoBytes(s: UtxoSpec): Bytes {
  const owners = s.owners ?? [ME];
  const transferOut = concatBytes(
    u32(7),
    u64(s.amount ?? 1000n),
    u64(0n),
    u32(1),
    u32(owners.length),
    ...owners,
  );
  const output = s.stakeableLocktime === undefined ? transferOut : concatBytes(u32(22), u64(s.stakeableLocktime), transferOut);
  return concatBytes(new Uint8Array([0, 0]), txIdOf(s.tx), u32(s.index ?? 0), ASSET, output);
}

export function utxoHex(s: UtxoSpec): string {
  return toApiHex(utxoBytes(s));
}

/** A node whose getUTXOs pages through `all` with limit/startIndex semantics like the real one. */
export function pagingRoute(all: string[], opts: { prefix?: string } = {}): Route {
  return (c) => {
    if (!c.method.endsWith('.getUTXOs')) return undefined;
    if (opts.prefix && !c.method.startsWith(opts.prefix)) return undefined;
    const p = c.params as { limit: number; startIndex?: { address: string; utxo: string }; addresses: string[] };
    const start = p.startIndex ? Number(p.startIndex.utxo.slice(1)) + 1 : 0;
    const page = all.slice(start, start + p.limit);
    const end = start + page.length - 1;
    return {
      result: {
        numFetched: String(page.length),
        utxos: page,
        endIndex: { address: p.addresses[p.addresses.length - 1], utxo: `u${Math.max(end, start - 1)}` },
        encoding: 'hex',
      },
    };
  };
}

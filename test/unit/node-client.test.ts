// NodeClient against a fake node on loopback (node:http) that tells the truth, fails, or lies.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sha256 } from '@noble/hashes/sha2.js';
import { afterEach, describe, expect, it } from 'vitest';
import { type Bytes, concatBytes, fromHex } from '../../src/core/bytes.js';
import { cb58Encode, formatAddress, toApiHex } from '../../src/core/encoding.js';
import {
  AbortedError,
  NodeResponseError,
  NodeUnreachableError,
  RpcError,
  TimeoutError,
  ValidationError,
} from '../../src/core/errors.js';
import { NodeClient, type AtomicApiConfig, MAX_UTXO_PAGES } from '../../src/core/node.js';

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

type Route = (call: Call) => Answer | undefined;

const closers: Array<() => Promise<void>> = [];

afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

async function fakeNode(route: Route): Promise<{ url: string; calls: Call[]; gets: string[] }> {
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

const AVAX_API: AtomicApiConfig = { namespace: 'avax', path: '/ext/bc/C/avax' };

function client(url: string, atomicApi: AtomicApiConfig = AVAX_API, timeoutMs?: number): NodeClient {
  return new NodeClient(timeoutMs === undefined ? { url, atomicApi } : { url, atomicApi, timeoutMs });
}

// ---- UTXO fixtures, written by hand per wire-format.md §4.6 ----

const ME = fromHex('3cb7d3842e8cee6a0ebd09f1fe884f6861e1b29c'); // the ewoq key's short ID
const ME_X = 'X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u';
const STRANGER = fromHex('ee'.repeat(20));
const ASSET = fromHex('dbcf890f77f49b96857648b72b77f9f82937f28a68704af05da0dc12ba53f2db');

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
function txIdOf(seed: number): Bytes {
  return sha256(u32(seed));
}

interface UtxoSpec {
  tx: number;
  index?: number;
  amount?: bigint;
  owners?: Bytes[];
  stakeableLocktime?: bigint;
}

function utxoBytes(s: UtxoSpec): Bytes {
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

function utxoHex(s: UtxoSpec): string {
  return toApiHex(utxoBytes(s));
}

function idOf(s: UtxoSpec): string {
  return `${cb58Encode(txIdOf(s.tx))}:${s.index ?? 0}`;
}

/** A node whose getUTXOs pages through `all` with limit/startIndex semantics like the real one. */
function pagingRoute(all: string[], opts: { prefix?: string } = {}): Route {
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

// ---------------------------------------------------------------------------------------------

describe('info', () => {
  it('parses network ID, blockchain IDs, version and bootstrap state', async () => {
    const { url, calls } = await fakeNode((c) => {
      switch (c.method) {
        case 'info.getNetworkID':
          return { result: { networkID: '12345' } };
        case 'info.getBlockchainID':
          return { result: { blockchainID: '11111111111111111111111111111111LpoYY' } };
        case 'info.getNodeVersion':
          return { result: { version: 'avalanchego/1.15.0', databaseVersion: 'v1.4.5', rpcProtocolVersion: '46', gitCommit: '', vmVersions: { avm: 'x' } } };
        case 'info.isBootstrapped':
          return { result: { isBootstrapped: true } };
      }
      return undefined;
    });
    const n = client(url);
    expect(await n.info.getNetworkID()).toBe(12345);
    expect(await n.info.getBlockchainID('P')).toBe('11111111111111111111111111111111LpoYY');
    expect((await n.info.getNodeVersion()).version).toBe('avalanchego/1.15.0');
    expect(await n.info.isBootstrapped('X')).toBe(true);
    expect(calls.map((c) => c.path)).toEqual(['/ext/info', '/ext/info', '/ext/info', '/ext/info']);
    expect(calls[1]!.params).toEqual({ alias: 'P' });
    expect(calls[3]!.params).toEqual({ chain: 'X' });
    expect(n.requestCount).toBe(4);
  });

  it('refuses a blockchain ID that is not CB58', async () => {
    const { url } = await fakeNode(() => ({ result: { blockchainID: 'not-an-id' } }));
    await expect(client(url).info.getBlockchainID('X')).rejects.toBeInstanceOf(NodeResponseError);
  });
});

describe('avm', () => {
  it('issueTx sends hex WITH checksum and checks the returned tx ID against the bytes', async () => {
    const tx = fromHex('000102');
    const honestId = cb58Encode(sha256(tx));
    const { url, calls } = await fakeNode(() => ({ result: { txID: honestId } }));
    await expect(client(url).avm.issueTx(tx)).resolves.toBe(honestId);
    expect(calls[0]!.path).toBe('/ext/bc/X');
    expect(calls[0]!.method).toBe('avm.issueTx');
    expect(calls[0]!.params).toEqual({ tx: '0x000102b85b53fc', encoding: 'hex' }); // wire-format §10.3
  });

  it('issueTx refuses a tx ID that does not match the submitted bytes', async () => {
    const { url } = await fakeNode(() => ({ result: { txID: cb58Encode(sha256(fromHex('ff'))) } }));
    await expect(client(url).avm.issueTx(fromHex('000102'))).rejects.toBeInstanceOf(NodeResponseError);
  });

  it('issueTx passes a node rejection through as RpcError', async () => {
    const { url } = await fakeNode(() => ({ error: { code: -32000, message: 'unknown codec version' } }));
    const err = await client(url).avm.issueTx(fromHex('000102')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RpcError);
    expect((err as RpcError).rpcMessage).toBe('unknown codec version');
  });

  it('getTx verifies the checksum and that the bytes hash to the tx ID', async () => {
    const tx = fromHex('00000000000a');
    const id = cb58Encode(sha256(tx));
    const good = await fakeNode(() => ({ result: { tx: toApiHex(tx), encoding: 'hex' } }));
    expect(await client(good.url).avm.getTx(id)).toEqual(tx);
    expect(good.calls[0]!.params).toEqual({ txID: id, encoding: 'hex' });

    const badSum = await fakeNode(() => ({ result: { tx: '0x00000000000a00000000', encoding: 'hex' } }));
    await expect(client(badSum.url).avm.getTx(id)).rejects.toBeInstanceOf(NodeResponseError);

    const other = await fakeNode(() => ({ result: { tx: toApiHex(fromHex('01')), encoding: 'hex' } }));
    await expect(client(other.url).avm.getTx(id)).rejects.toThrow(/do not hash/);
  });

  it('getTxFee turns decimal strings into bigints', async () => {
    const { url } = await fakeNode(() => ({ result: { txFee: '1000000', createAssetTxFee: '10000000' } }));
    expect(await client(url).avm.getTxFee()).toEqual({ txFee: 1_000_000n, createAssetTxFee: 10_000_000n });
  });

  it('getTxFee refuses negative or fractional fees', async () => {
    const { url } = await fakeNode(() => ({ result: { txFee: '-1', createAssetTxFee: '1.5' } }));
    await expect(client(url).avm.getTxFee()).rejects.toBeInstanceOf(NodeResponseError);
  });

  it('getAssetDescription returns a numeric denomination', async () => {
    const assetID = cb58Encode(ASSET);
    const { url, calls } = await fakeNode(() => ({ result: { assetID, name: 'Avalanche', symbol: 'AVAX', denomination: '9' } }));
    expect(await client(url).avm.getAssetDescription('AVAX')).toEqual({ assetID, name: 'Avalanche', symbol: 'AVAX', denomination: 9 });
    expect(calls[0]!.params).toEqual({ assetID: 'AVAX' });
  });

  it('getTxStatus refuses an unknown status word', async () => {
    const { url } = await fakeNode(() => ({ result: { status: 'Maybe' } }));
    await expect(client(url).avm.getTxStatus(cb58Encode(ASSET))).rejects.toBeInstanceOf(NodeResponseError);
  });
});

describe('platform', () => {
  it('fee config and fee state as bigints', async () => {
    const { url } = await fakeNode((c) => {
      if (c.method === 'platform.getFeeConfig') {
        return {
          result: { weights: [1, 1000, 1000, 4], maxCapacity: 1000000, maxPerSecond: 100000, targetPerSecond: 50000, minPrice: 1, excessConversionConstant: 2164043 },
        };
      }
      if (c.method === 'platform.getFeeState') return { result: { capacity: 0, excess: 0, price: 1, timestamp: '2026-10-03T04:00:00Z' } };
      return undefined;
    });
    const n = client(url);
    const cfg = await n.platform.getFeeConfig();
    expect(cfg.weights).toEqual([1n, 1000n, 1000n, 4n]);
    expect(cfg.excessConversionConstant).toBe(2164043n);
    expect(await n.platform.getFeeState()).toEqual({ capacity: 0n, excess: 0n, price: 1n, timestamp: '2026-10-03T04:00:00Z' });
  });

  it('refuses fee config with the wrong number of weights and a zero price', async () => {
    const { url } = await fakeNode((c) =>
      c.method === 'platform.getFeeConfig'
        ? { result: { weights: [1, 2, 3], maxCapacity: 1, maxPerSecond: 1, targetPerSecond: 1, minPrice: 1, excessConversionConstant: 1 } }
        : { result: { capacity: 0, excess: 0, price: 0, timestamp: '2026-10-03T04:00:00Z' } },
    );
    await expect(client(url).platform.getFeeConfig()).rejects.toBeInstanceOf(NodeResponseError);
    await expect(client(url).platform.getFeeState()).rejects.toBeInstanceOf(NodeResponseError);
  });

  it('getTxStatus returns the reason of a Dropped tx', async () => {
    const { url, calls } = await fakeNode(() => ({ result: { status: 'Dropped', reason: 'failed to verify: insufficient funds' } }));
    expect(await client(url).platform.getTxStatus(cb58Encode(ASSET))).toEqual({ status: 'Dropped', reason: 'failed to verify: insufficient funds' });
    expect(calls[0]!.path).toBe('/ext/bc/P');
  });

  it('height, timestamp and staking asset', async () => {
    const assetID = cb58Encode(ASSET);
    const { url } = await fakeNode((c) => {
      if (c.method === 'platform.getHeight') return { result: { height: '42' } };
      if (c.method === 'platform.getTimestamp') return { result: { timestamp: '2026-10-03T04:00:00Z' } };
      if (c.method === 'platform.getStakingAssetID') return { result: { assetID } };
      return undefined;
    });
    const n = client(url);
    expect(await n.platform.getHeight()).toBe(42n);
    expect(await n.platform.getTimestamp()).toBe('2026-10-03T04:00:00Z');
    expect(await n.platform.getStakingAssetID()).toBe(assetID);
  });
});

describe('atomic API namespace', () => {
  it("a node configured with 'native' gets native.getUTXOs at /ext/bc/C/native", async () => {
    const { url, calls } = await fakeNode(pagingRoute([utxoHex({ tx: 1 })], { prefix: 'native.' }));
    const n = client(url, { namespace: 'native', path: '/ext/bc/C/native' });
    const r = await n.getAllUtxos('C', [ME_X], { sourceChain: 'X' });
    expect(r.utxos).toHaveLength(1);
    expect(calls[0]!.path).toBe('/ext/bc/C/native');
    expect(calls[0]!.method).toBe('native.getUTXOs');
    expect(calls[0]!.params).toMatchObject({ sourceChain: 'X', encoding: 'hex', addresses: ['C-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u'] });
  });

  it("with 'avax' it is avax.getUTXOs at /ext/bc/C/avax, and issueTx/status follow", async () => {
    const tx = fromHex('0000aa');
    const id = cb58Encode(sha256(tx));
    const { url, calls } = await fakeNode((c) => {
      if (c.method === 'avax.issueTx') return { result: { txID: id } };
      if (c.method === 'avax.getAtomicTx') return { result: { tx: toApiHex(tx), encoding: 'hex', blockHeight: '7' } };
      return pagingRoute([], { prefix: 'avax.' })(c);
    });
    const n = client(url, AVAX_API);
    await n.getAllUtxos('C', [ME_X], { sourceChain: 'P' });
    await n.atomic.issueTx(tx);
    expect(await n.atomic.findExecutedAtomicTx(id)).toEqual({ tx, blockHeight: 7n });
    expect(calls.map((c) => `${c.path} ${c.method}`)).toEqual([
      '/ext/bc/C/avax avax.getUTXOs',
      '/ext/bc/C/avax avax.issueTx',
      '/ext/bc/C/avax avax.getAtomicTx',
    ]);
  });

  it('refuses a nonsense namespace or path', () => {
    expect(() => client('http://127.0.0.1:1', { namespace: 'a.b', path: '/ext/bc/C/avax' })).toThrow(ValidationError);
    expect(() => client('http://127.0.0.1:1', { namespace: 'avax', path: 'ext/bc/C/avax' })).toThrow(ValidationError);
  });
});

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

describe('waitForTx', () => {
  const ID = cb58Encode(sha256(fromHex('01')));

  /** The tx itself, as a node that has it returns it: bytes that hash to ID. */
  const withTx =
    (status: Route): Route =>
    (c) =>
      c.method.endsWith('.getTx') ? { result: { tx: toApiHex(fromHex('01')), encoding: 'hex' } } : status(c);

  it('X: keeps polling through Unknown until Accepted, proven by the tx bytes', async () => {
    let n = 0;
    const { url, calls } = await fakeNode(withTx(() => ({ result: { status: ++n < 3 ? 'Unknown' : 'Accepted' } })));
    const r = await client(url).waitForTx('X', ID, { pollMs: 5, timeoutMs: 5000 });
    expect(r).toEqual({ chain: 'X', txID: ID, accepted: true, status: 'Accepted' });
    expect(calls.map((c) => c.method)).toEqual(['avm.getTxStatus', 'avm.getTxStatus', 'avm.getTxStatus', 'avm.getTx']);
  });

  it('X and P: an "accepted" without the tx bytes is not final; bytes of another tx are a lie', async () => {
    for (const [chain, status] of [['X', 'Accepted'], ['P', 'Committed']] as const) {
      const claim = await fakeNode((c) => (c.method.endsWith('.getTx') ? { error: { code: -32000, message: 'not found' } } : { result: { status } }));
      await expect(client(claim.url).waitForTx(chain, ID, { pollMs: 5, timeoutMs: 60 })).rejects.toThrow(/returns no bytes for it/);
      const lie = await fakeNode((c) => (c.method.endsWith('.getTx') ? { result: { tx: toApiHex(fromHex('02')), encoding: 'hex' } } : { result: { status } }));
      await expect(client(lie.url).waitForTx(chain, ID, { pollMs: 5 })).rejects.toThrow(/do not hash/);
    }
  });

  it('P: Committed is success; Dropped is a final failure with its reason', async () => {
    const ok = await fakeNode(withTx(() => ({ result: { status: 'Committed' } })));
    expect((await client(ok.url).waitForTx('P', ID, { pollMs: 5 })).accepted).toBe(true);
    const dropped = await fakeNode(() => ({ result: { status: 'Dropped', reason: 'insufficient funds' } }));
    expect(await client(dropped.url).waitForTx('P', ID, { pollMs: 5 })).toEqual({
      chain: 'P',
      txID: ID,
      accepted: false,
      status: 'Dropped',
      reason: 'insufficient funds',
    });
  });

  it('P: times out with the last status and reason in the message', async () => {
    const { url } = await fakeNode(() => ({ result: { status: 'Processing', reason: 'waiting for a block' } }));
    const err = await client(url).waitForTx('P', ID, { pollMs: 10, timeoutMs: 120 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    expect((err as Error).message).toMatch(/Processing \(waiting for a block\)/);
  });

  it('rides out an unreachable poll, but not an RPC error', async () => {
    let n = 0;
    const flaky = await fakeNode(withTx(() => (++n === 1 ? { raw: 'garbage' } : { result: { status: 'Accepted' } })));
    expect((await client(flaky.url).waitForTx('X', ID, { pollMs: 5 })).accepted).toBe(true);
    const broken = await fakeNode(() => ({ error: { code: -32000, message: 'bad txID' } }));
    await expect(client(broken.url).waitForTx('X', ID, { pollMs: 5 })).rejects.toBeInstanceOf(RpcError);
  });

  it('C atomic (Helicon): accepted only when getAtomicTx returns the hash-checked tx with its height; "not found" is never failure', async () => {
    let polls = 0;
    let latest = 11;
    // Under async execution the node says "not found" until the block holding the tx executed; and
    // the latest state (what balances are read from) shows that block a moment later still.
    const acc = await fakeNode((call) => {
      if (call.method === 'eth_blockNumber') return { result: `0x${(latest++).toString(16)}` };
      return ++polls < 3 ? { error: { code: -32000, message: 'fetching tx: reading tx: not found' } } : { result: { tx: toApiHex(fromHex('01')), encoding: 'hex', blockHeight: '12' } };
    });
    const r = await client(acc.url).waitForTx('C', ID, { pollMs: 5 });
    expect(r).toMatchObject({ accepted: true, status: 'Accepted', blockHeight: 12n });
    expect(acc.calls.map((c) => c.method)).toEqual(['avax.getAtomicTx', 'avax.getAtomicTx', 'avax.getAtomicTx', 'eth_blockNumber', 'avax.getAtomicTx', 'eth_blockNumber']);

    // Found but without a height (pre-Helicon: accepted, not yet in state) is not final either.
    const noHeight = await fakeNode(() => ({ result: { tx: toApiHex(fromHex('01')), encoding: 'hex' } }));
    await expect(client(noHeight.url).waitForTx('C', ID, { pollMs: 5, timeoutMs: 50 })).rejects.toThrow(/not final.*not executed yet/);
    // Never found: a timeout naming what the node said, never a failure.
    const never = await fakeNode(() => ({ error: { code: -32000, message: 'fetching tx: reading tx: not found' } }));
    await expect(client(never.url).waitForTx('C', ID, { pollMs: 5, timeoutMs: 50 })).rejects.toBeInstanceOf(TimeoutError);
    // Bytes that do not hash to the ID are a lie, not an acceptance.
    const lie = await fakeNode(() => ({ result: { tx: toApiHex(fromHex('02')), encoding: 'hex', blockHeight: '12' } }));
    await expect(client(lie.url).waitForTx('C', ID, { pollMs: 5 })).rejects.toThrow(/do not hash/);
    // Any other RPC error is not "not found".
    const broken = await fakeNode(() => ({ error: { code: -32000, message: 'database closed' } }));
    await expect(client(broken.url).waitForTx('C', ID, { pollMs: 5 })).rejects.toBeInstanceOf(RpcError);
  });

  it('C EVM (0x hash): waits for a receipt and reads its status', async () => {
    const hash = '0x' + 'ab'.repeat(32);
    let n = 0;
    const receipt = {
      transactionHash: hash,
      blockHash: '0x' + '01'.repeat(32),
      blockNumber: '0x10',
      status: '0x0',
      gasUsed: '0x5208',
      effectiveGasPrice: '0x1',
      from: '0x' + '02'.repeat(20),
      to: '0x' + '03'.repeat(20),
      contractAddress: null,
    };
    const { url, calls } = await fakeNode((call) => (call.method === 'eth_blockNumber' ? { result: '0x10' } : { result: ++n < 2 ? null : receipt }));
    const r = await client(url).waitForTx('C', hash, { pollMs: 5 });
    expect(r).toMatchObject({ accepted: false, status: 'Reverted', blockHeight: 16n });
    expect(r.receipt?.gasUsed).toBe(21000n);
    // Final once the latest state (block 16 here) holds the receipt's block.
    expect(calls.map((c) => `${c.path} ${c.method}`)).toEqual(['/ext/bc/C/rpc eth_getTransactionReceipt', '/ext/bc/C/rpc eth_getTransactionReceipt', '/ext/bc/C/rpc eth_blockNumber']);
  });

  it('stops at once on abort', async () => {
    const { url } = await fakeNode(() => ({ result: { status: 'Unknown' } }));
    const c = new AbortController();
    const p = client(url).waitForTx('X', ID, { pollMs: 1000, timeoutMs: 60_000, signal: c.signal });
    setTimeout(() => c.abort(), 50);
    await expect(p).rejects.toBeInstanceOf(AbortedError);
  });

  it('refuses a malformed tx ID', async () => {
    await expect(client('http://127.0.0.1:1').waitForTx('X', 'nope')).rejects.toBeInstanceOf(ValidationError);
  });
});

describe('eth', () => {
  it('decodes quantities and passes params positionally', async () => {
    const { url, calls } = await fakeNode((c) => {
      const r: Record<string, unknown> = {
        eth_chainId: '0xa868',
        eth_getBalance: '0x295be96e64066972000000',
        eth_getTransactionCount: '0x3',
        eth_baseFee: '0x1',
        eth_maxPriorityFeePerGas: '0x0',
        eth_estimateGas: '0x5208',
        eth_blockNumber: '0x2',
        eth_sendRawTransaction: '0x' + '11'.repeat(32),
        net_version: '43112',
      };
      return c.method in r ? { result: r[c.method] } : undefined;
    });
    const n = client(url);
    const addr = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';
    expect(await n.eth.chainId()).toBe(43112n);
    expect(await n.eth.getBalance(addr)).toBe(50_000_000n * 10n ** 18n);
    expect(await n.eth.getTransactionCount(addr, 5n)).toBe(3n);
    expect(await n.eth.baseFee()).toBe(1n);
    expect(await n.eth.maxPriorityFeePerGas()).toBe(0n);
    expect(await n.eth.estimateGas({ from: addr, to: addr, value: '0x1' })).toBe(21000n);
    expect(await n.eth.blockNumber()).toBe(2n);
    expect(await n.eth.sendRawTransaction(fromHex('02f8'))).toBe('0x' + '11'.repeat(32));
    expect(await n.eth.ethCall('net_version')).toBe('43112');
    expect(calls.find((c) => c.method === 'eth_getTransactionCount')!.params).toEqual([addr, '0x5']);
    expect(calls.find((c) => c.method === 'eth_sendRawTransaction')!.params).toEqual(['0x02f8']);
    expect(calls.every((c) => c.path === '/ext/bc/C/rpc')).toBe(true);
  });

  it('refuses a receipt for another transaction and a block of another height', async () => {
    const { url } = await fakeNode((c) => {
      if (c.method === 'eth_getTransactionReceipt') {
        return {
          result: {
            transactionHash: '0x' + 'cd'.repeat(32),
            blockHash: '0x' + '01'.repeat(32),
            blockNumber: '0x1',
            status: '0x1',
            gasUsed: '0x1',
            from: '0x' + '02'.repeat(20),
            to: null,
          },
        };
      }
      return {
        result: {
          number: '0x5',
          hash: '0x' + '01'.repeat(32),
          parentHash: '0x' + '00'.repeat(32),
          timestamp: '0x0',
          gasLimit: '0x1',
          gasUsed: '0x0',
          transactions: [],
        },
      };
    });
    await expect(client(url).eth.getTransactionReceipt('0x' + 'ab'.repeat(32))).rejects.toBeInstanceOf(NodeResponseError);
    await expect(client(url).eth.getBlockByNumber(4n)).rejects.toBeInstanceOf(NodeResponseError);
    expect((await client(url).eth.getBlockByNumber('latest'))?.number).toBe(5n);
  });
});

describe('health', () => {
  it('200 is healthy, 503 unhealthy with the details', async () => {
    let up = false;
    const { url, gets } = await fakeNode(() =>
      up
        ? { raw: JSON.stringify({ checks: { bootstrapped: { message: [] } }, healthy: true }), status: 200 }
        : { raw: JSON.stringify({ checks: { bootstrapped: { error: 'not yet run' } }, healthy: false }), status: 503 },
    );
    const n = client(url);
    const down = await n.health.readiness();
    expect(down).toMatchObject({ healthy: false, status: 503 });
    expect(down.checks['bootstrapped']).toEqual({ error: 'not yet run' });
    up = true;
    expect((await n.health.health()).healthy).toBe(true);
    expect(gets).toEqual(['/ext/health/readiness', '/ext/health']);
  });

  it('refuses a status that contradicts the body, and other statuses', async () => {
    const liar = await fakeNode(() => ({ raw: JSON.stringify({ healthy: false, checks: {} }), status: 200 }));
    await expect(client(liar.url).health.health()).rejects.toBeInstanceOf(NodeResponseError);
    const gone = await fakeNode(() => ({ raw: '{}', status: 404 }));
    await expect(client(gone.url).health.health()).rejects.toBeInstanceOf(NodeUnreachableError);
  });
});

describe('index', () => {
  it('talks to /ext/index/{chain}/{kind} and decodes containers', async () => {
    const bytes = fromHex('00000001');
    const id = cb58Encode(sha256(bytes));
    const { url, calls } = await fakeNode((c) => ({
      result: { id, bytes: toApiHex(bytes), timestamp: '2026-11-22T00:00:00Z', encoding: 'hex', index: c.method === 'index.getLastAccepted' ? '3' : '1' },
    }));
    const n = client(url);
    expect(await n.index('X/tx').getLastAccepted()).toEqual({ id, bytes, timestamp: '2026-11-22T00:00:00Z', index: 3n });
    expect((await n.index('P/block').getContainerByIndex(1)).index).toBe(1n);
    await expect(n.index('C/block').getContainerByIndex(2)).rejects.toBeInstanceOf(NodeResponseError);
    expect(calls.map((c) => c.path)).toEqual(['/ext/index/X/tx', '/ext/index/P/block', '/ext/index/C/block']);
    expect(calls[1]!.params).toEqual({ index: 1, encoding: 'hex' });
  });
});

describe('timeouts', () => {
  it('a client-wide timeout applies to every call', async () => {
    const { url } = await fakeNode(() => ({ hang: true }));
    await expect(client(url, AVAX_API, 100).info.getNetworkID()).rejects.toBeInstanceOf(TimeoutError);
  });
});

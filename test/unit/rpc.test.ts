// The JSON-RPC transport against a real HTTP server on loopback that misbehaves on purpose.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { AbortedError, NodeResponseError, NodeUnreachableError, RpcError, TimeoutError } from '../../src/core/errors.js';
import { JsonRpcEndpoint, MAX_ANSWER_BYTES, g, getJson, sleep } from '../../src/core/rpc.js';

interface Seen {
  url: string;
  method: string;
  headers: IncomingMessage['headers'];
  body: { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown };
}

type Handler = (seen: Seen, res: ServerResponse) => void;

const servers: Array<() => Promise<void>> = [];

async function serve(handler: Handler): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      let body: Seen['body'];
      try {
        body = raw ? (JSON.parse(raw) as Seen['body']) : {};
      } catch {
        body = {};
      }
      const s: Seen = { url: req.url ?? '', method: req.method ?? '', headers: req.headers, body };
      seen.push(s);
      handler(s, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, seen };
}

function json(res: ServerResponse, value: unknown, status = 200): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}

function reply(seen: Seen, res: ServerResponse, result: unknown): void {
  json(res, { jsonrpc: '2.0', id: seen.body.id, result });
}

afterEach(async () => {
  while (servers.length) await servers.pop()!();
});

describe('JsonRpcEndpoint', () => {
  it('sends a JSON-RPC 2.0 POST and returns the result', async () => {
    const { url, seen } = await serve((s, res) => reply(s, res, { networkID: '12345' }));
    const rpc = new JsonRpcEndpoint(url + '/ext/info');
    const result = await rpc.call('info.getNetworkID', {}, g.object({ networkID: g.uintNumber }));
    expect(result).toEqual({ networkID: 12345 });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.method).toBe('POST');
    expect(seen[0]!.url).toBe('/ext/info');
    expect(seen[0]!.headers['content-type']).toBe('application/json');
    expect(seen[0]!.body).toMatchObject({ jsonrpc: '2.0', method: 'info.getNetworkID', params: {} });
    expect(typeof seen[0]!.body.id).toBe('number');
    expect(rpc.requests).toBe(1);
  });

  it('uses a fresh id for every call', async () => {
    const { url, seen } = await serve((s, res) => reply(s, res, 1));
    const rpc = new JsonRpcEndpoint(url);
    await rpc.callRaw('a', {});
    await rpc.callRaw('b', {});
    expect(seen[0]!.body.id).not.toBe(seen[1]!.body.id);
  });

  it('accepts a null result (e.g. a receipt not yet mined)', async () => {
    const { url } = await serve((s, res) => reply(s, res, null));
    await expect(new JsonRpcEndpoint(url).callRaw('eth_getTransactionReceipt', ['0x00'])).resolves.toBeNull();
  });

  it('turns a JSON-RPC error object into RpcError with code, message and data', async () => {
    const { url } = await serve((s, res) =>
      json(res, { jsonrpc: '2.0', id: s.body.id, error: { code: -32000, message: 'couldn\'t get tx: not found', data: { why: 'x' } } }),
    );
    const err = await new JsonRpcEndpoint(url).callRaw('platform.getTx', {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RpcError);
    const e = err as RpcError;
    expect(e.rpcCode).toBe(-32000);
    expect(e.rpcMessage).toBe("couldn't get tx: not found");
    expect(e.data).toEqual({ why: 'x' });
    expect(e.method).toBe('platform.getTx');
  });

  it('reports an RPC error even when it comes with HTTP 500', async () => {
    const { url } = await serve((s, res) => json(res, { jsonrpc: '2.0', id: s.body.id, error: { code: -32601, message: 'no such method' } }, 500));
    await expect(new JsonRpcEndpoint(url).callRaw('avm.nope', {})).rejects.toBeInstanceOf(RpcError);
  });

  it('accepts an error with id null (a parse error) but not one with a foreign id', async () => {
    const a = await serve((_s, res) => json(res, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } }));
    await expect(new JsonRpcEndpoint(a.url).callRaw('x', {})).rejects.toBeInstanceOf(RpcError);
    const b = await serve((_s, res) => json(res, { jsonrpc: '2.0', id: 'someone-else', error: { code: -1, message: 'm' } }));
    await expect(new JsonRpcEndpoint(b.url).callRaw('x', {})).rejects.toBeInstanceOf(NodeResponseError);
  });

  it('rejects a response that carries the wrong id', async () => {
    const { url } = await serve((s, res) => json(res, { jsonrpc: '2.0', id: Number(s.body.id) + 1, result: 'x' }));
    const err = await new JsonRpcEndpoint(url).callRaw('m', {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NodeResponseError);
    expect((err as Error).message).toMatch(/id/);
  });

  it('rejects a response with neither result nor error', async () => {
    const { url } = await serve((s, res) => json(res, { jsonrpc: '2.0', id: s.body.id }));
    await expect(new JsonRpcEndpoint(url).callRaw('m', {})).rejects.toBeInstanceOf(NodeResponseError);
  });

  it('rejects a wrong jsonrpc version', async () => {
    const { url } = await serve((s, res) => json(res, { jsonrpc: '1.0', id: s.body.id, result: 1 }));
    await expect(new JsonRpcEndpoint(url).callRaw('m', {})).rejects.toBeInstanceOf(NodeResponseError);
  });

  it('rejects a malformed error object', async () => {
    const { url } = await serve((s, res) => json(res, { jsonrpc: '2.0', id: s.body.id, error: { code: 'bad', message: 3 } }));
    await expect(new JsonRpcEndpoint(url).callRaw('m', {})).rejects.toBeInstanceOf(NodeResponseError);
  });

  it('rejects 2xx JSON that is not a JSON-RPC response', async () => {
    const { url } = await serve((_s, res) => json(res, { hello: 'world' }));
    await expect(new JsonRpcEndpoint(url).callRaw('m', {})).rejects.toBeInstanceOf(NodeResponseError);
  });

  it('treats garbage (non-JSON) as an unreachable node', async () => {
    const { url } = await serve((_s, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"jsonrpc":"2.0","result":');
    });
    const err = await new JsonRpcEndpoint(url).callRaw('m', {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NodeUnreachableError);
    expect((err as Error).message).toMatch(/not JSON/);
  });

  it('treats a non-2xx answer without a JSON-RPC body (proxy error page, 404) as unreachable', async () => {
    const html = await serve((_s, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html><body>Bad Gateway</body></html>');
    });
    await expect(new JsonRpcEndpoint(html.url).callRaw('m', {})).rejects.toBeInstanceOf(NodeUnreachableError);
    const notFound = await serve((_s, res) => json(res, { message: 'not found' }, 404));
    const err = await new JsonRpcEndpoint(notFound.url).callRaw('m', {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NodeUnreachableError);
    expect((err as Error).message).toMatch(/HTTP 404/);
  });

  it('checks the shape of the result with the guard', async () => {
    const { url } = await serve((s, res) => reply(s, res, { networkID: -5 }));
    const err = await new JsonRpcEndpoint(url)
      .call('info.getNetworkID', {}, g.object({ networkID: g.uintNumber }))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NodeResponseError);
    expect((err as Error).message).toMatch(/info\.getNetworkID result\.networkID/);
  });

  it('times out when the node never answers', async () => {
    const { url } = await serve(() => {
      /* hang */
    });
    const started = Date.now();
    const err = await new JsonRpcEndpoint(url, { timeoutMs: 150 }).callRaw('m', {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('stops reading an answer past the size cap: streamed without a length, or declared too long', async () => {
    let written = 0;
    const { url } = await serve((_s, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"jsonrpc":"2.0","id":1,"result":"');
      const chunk = 'a'.repeat(1024 * 1024);
      // Streams until the client hangs up (or 64 MB, far past the cap).
      const more = () => {
        while (written < 64 && res.write(chunk)) written++;
        if (written < 64 && !res.destroyed) res.once('drain', more);
      };
      res.on('close', () => (written = 64));
      more();
    });
    const err = await new JsonRpcEndpoint(url).callRaw('m', {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NodeResponseError);
    expect((err as Error).message).toMatch(new RegExp(`larger than ${MAX_ANSWER_BYTES / (1024 * 1024)} MB`));

    const declared = await serve((_s, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(MAX_ANSWER_BYTES + 1) });
      res.write('{');
    });
    await expect(new JsonRpcEndpoint(declared.url).callRaw('m', {})).rejects.toBeInstanceOf(NodeResponseError);
  });

  it('times out when the body stalls half-way', async () => {
    const { url } = await serve((_s, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"jsonrpc":"2.0",');
    });
    await expect(new JsonRpcEndpoint(url).callRaw('m', {}, { timeoutMs: 150 })).rejects.toBeInstanceOf(TimeoutError);
  });

  it('cancels with AbortSignal, before or during the call', async () => {
    const { url, seen } = await serve(() => {
      /* hang */
    });
    const rpc = new JsonRpcEndpoint(url);
    const pre = new AbortController();
    pre.abort();
    await expect(rpc.callRaw('m', {}, { signal: pre.signal })).rejects.toBeInstanceOf(AbortedError);
    expect(seen).toHaveLength(0);

    const during = new AbortController();
    const p = rpc.callRaw('m', {}, { signal: during.signal });
    setTimeout(() => during.abort(), 50);
    await expect(p).rejects.toBeInstanceOf(AbortedError);
  });

  it('reports a refused connection as unreachable', async () => {
    const { url } = await serve((s, res) => reply(s, res, 1));
    await servers.pop()!(); // closed: the port now refuses
    const err = await new JsonRpcEndpoint(url).callRaw('m', {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NodeUnreachableError);
    expect((err as NodeUnreachableError).url).toBe(url);
  });

  it('reports a reset connection as unreachable', async () => {
    const { url } = await serve((_s, res) => res.socket?.destroy());
    await expect(new JsonRpcEndpoint(url).callRaw('m', {})).rejects.toBeInstanceOf(NodeUnreachableError);
  });
});

describe('getJson', () => {
  it('returns the status and body of a JSON answer, whatever the status', async () => {
    const { url } = await serve((_s, res) => json(res, { healthy: false, checks: {} }, 503));
    await expect(getJson(url + '/ext/health')).resolves.toEqual({ status: 503, body: { healthy: false, checks: {} } });
  });

  it('refuses a non-JSON body', async () => {
    const { url } = await serve((_s, res) => {
      res.writeHead(200);
      res.end('OK');
    });
    await expect(getJson(url)).rejects.toBeInstanceOf(NodeUnreachableError);
  });
});

describe('guards', () => {
  it('uint takes decimal strings and safe numbers only', () => {
    expect(g.uint('0', 'p')).toBe(0n);
    expect(g.uint('18446744073709551615', 'p')).toBe(18446744073709551615n);
    expect(g.uint(42, 'p')).toBe(42n);
    for (const bad of ['-1', '01', '1.5', 'abc', '', '18446744073709551616', -1, 1.5, 2 ** 60, null, true]) {
      expect(() => g.uint(bad, 'p')).toThrow(NodeResponseError);
    }
  });

  it('quantity takes canonical 0x hex', () => {
    expect(g.quantity('0x0', 'p')).toBe(0n);
    expect(g.quantity('0xa868', 'p')).toBe(43112n);
    for (const bad of ['0x', '0x00', 'a868', 12, '0xzz']) expect(() => g.quantity(bad, 'p')).toThrow(NodeResponseError);
  });

  it('data checks hex and length', () => {
    expect(g.data(2)('0xabcd', 'p')).toBe('0xabcd');
    expect(() => g.data(2)('0xabc', 'p')).toThrow(NodeResponseError);
    expect(() => g.data(2)('0xabcdef', 'p')).toThrow(NodeResponseError);
  });

  it('object reports the path of the bad field', () => {
    const guard = g.object({ a: g.object({ b: g.array(g.string) }) });
    expect(() => guard({ a: { b: ['x', 3] } }, 'r')).toThrow(/r\.a\.b\[1\]/);
    expect(() => guard([], 'r')).toThrow(NodeResponseError);
  });

  it('oneOf refuses unknown words', () => {
    expect(g.oneOf('A', 'B')('A', 'p')).toBe('A');
    expect(() => g.oneOf('A', 'B')('C', 'p')).toThrow(NodeResponseError);
  });
});

describe('sleep', () => {
  it('is cut short by an abort', async () => {
    const c = new AbortController();
    const p = sleep(10_000, c.signal);
    c.abort();
    await expect(p).rejects.toBeInstanceOf(AbortedError);
  });
});

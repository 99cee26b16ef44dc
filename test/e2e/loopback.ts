// Loopback servers of the real-browser suite: a counting JSON-RPC proxy in front of the local node
// (which can also hold, rewrite or drop calls, or play a stopped or hung node) and a plain web page.
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { encodeUtxo } from '../../src/core/codec/index.js';
import { parseAddress, parseId, toApiHex } from '../../src/core/encoding.js';
import { makeOwners } from '../../src/core/tx/context.js';

function listen(server: Server): Promise<string> {
  return new Promise((resolveUrl, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolveUrl(`http://127.0.0.1:${port}`);
    });
  });
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((r) => server.close(() => r()));
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolveBody, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolveBody(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export interface RpcProxy {
  /** The URL the wallet is given instead of the node's own. */
  url: string;
  /** How many JSON-RPC calls of `method` went through so far. */
  count(method: string): number;
  /**
   * Catches the next call of `method` to `path` (e.g. '/ext/bc/C/avax', 'avax.issueTx'): it never
   * reaches the node and gets no answer, as if the node hung. Resolves with its JSON-RPC params
   * once it arrives; `dropHeld()` then closes its connection without an answer.
   */
  holdNext(path: string, method: string): Promise<unknown>;
  dropHeld(): void;
  /**
   * Rewrites the node's result of every later call of `method` with `change` (params: the call's),
   * as a lying node would; `undefined` stops it.
   */
  rewrite(method: string, change: ((result: unknown, params: unknown) => unknown) | undefined): void;
  /**
   * 'down': every request's connection is closed at once, as by a stopped node; 'hang': requests
   * are taken and never answered, as by a hung one; 'up' (the start): passed on. Leaving 'hang'
   * closes the requests it held.
   */
  setMode(mode: 'up' | 'down' | 'hang'): void;
  close(): Promise<void>;
}

/**
 * A pass-through proxy for the node's HTTP API that counts the JSON-RPC methods it sees. The
 * wallet's background asks for the node's identity (info.getNetworkID, …) once per life of the
 * background, so a new identity call after a pause shows that a fresh background is answering.
 */
export async function startRpcProxy(targetUrl: string): Promise<RpcProxy> {
  const target = new URL(targetUrl);
  const counts = new Map<string, number>();
  /** What each call is, for counting and catching: one entry per call of a batch. */
  const callsIn = (body: Buffer): { method: string; params: unknown }[] => {
    try {
      const parsed = JSON.parse(body.toString('utf8')) as unknown;
      return (Array.isArray(parsed) ? parsed : [parsed]).flatMap((call) => {
        const { method, params } = (call ?? {}) as { method?: unknown; params?: unknown };
        return typeof method === 'string' ? [{ method, params }] : [];
      });
    } catch {
      return []; // not JSON: nothing to count
    }
  };
  let wanted: { path: string; method: string; caught: (params: unknown) => void } | undefined;
  const held: ServerResponse[] = [];
  const rewrites = new Map<string, (result: unknown, params: unknown) => unknown>();
  let mode: 'up' | 'down' | 'hang' = 'up';
  const hung: ServerResponse[] = [];
  const server = createServer((req, res) => {
    if (mode === 'down') {
      req.socket.destroy();
      return;
    }
    if (mode === 'hang') {
      hung.push(res);
      return;
    }
    readBody(req).then(
      (body) => {
        const calls = callsIn(body);
        for (const { method } of calls) counts.set(method, (counts.get(method) ?? 0) + 1);
        const catching = wanted && req.url === wanted.path ? calls.find((c) => c.method === wanted!.method) : undefined;
        if (wanted && catching) {
          held.push(res);
          wanted.caught(catching.params);
          wanted = undefined;
          return;
        }
        const upstream = httpRequest(
          { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: { ...req.headers, host: target.host } },
          (answer) => {
            const change = calls.length === 1 ? rewrites.get(calls[0]!.method) : undefined;
            if (!change) {
              res.writeHead(answer.statusCode ?? 502, answer.headers);
              answer.pipe(res);
              return;
            }
            readBody(answer).then((raw) => {
              const parsed = JSON.parse(raw.toString('utf8')) as { result?: unknown };
              const out = Buffer.from(JSON.stringify(parsed.result === undefined ? parsed : { ...parsed, result: change(parsed.result, calls[0]!.params) }));
              res.writeHead(answer.statusCode ?? 502, { 'content-type': 'application/json', 'content-length': String(out.length) });
              res.end(out);
            }, () => res.destroy());
          },
        );
        upstream.on('error', (e) => {
          res.writeHead(502, { 'content-type': 'text/plain' });
          res.end(`proxy: ${e.message}`);
        });
        upstream.end(body);
      },
      () => res.destroy(),
    );
  });
  const url = await listen(server);
  return {
    url,
    count: (method) => counts.get(method) ?? 0,
    holdNext: (path, method) => {
      if (wanted) throw new Error(`the proxy already waits for ${wanted.method} on ${wanted.path}`);
      return new Promise((caught) => (wanted = { path, method, caught }));
    },
    dropHeld: () => {
      for (const res of held.splice(0)) res.destroy();
    },
    rewrite: (method, change) => {
      if (change) rewrites.set(method, change);
      else rewrites.delete(method);
    },
    setMode: (next) => {
      mode = next;
      if (next !== 'hang') for (const res of hung.splice(0)) res.destroy();
    },
    close: () => closeServer(server),
  };
}

/**
 * A lie for `RpcProxy.rewrite('avm.getUTXOs', …)`: the X-Chain UTXOs, plus one of `amount` of
 * `assetID` to `ownerX` under a tx that does not exist (valid bytes and checksum, count kept).
 */
export function madeUpUtxo(ownerX: string, assetID: string, amount: bigint): (result: unknown, params: unknown) => unknown {
  const utxo = { txID: new Uint8Array(32).fill(7), outputIndex: 0, assetID: parseId(assetID), output: { kind: 'TransferOutput' as const, amount, owners: makeOwners([parseAddress(ownerX).bytes]) } };
  const hex = toApiHex(encodeUtxo(utxo, 'avm'));
  return (result, params) => {
    const page = result as { utxos: string[]; numFetched: string };
    if ((params as { sourceChain?: string }).sourceChain) return page;
    return { ...page, utxos: [...page.utxos, hex], numFetched: String(page.utxos.length + 1) };
  };
}

export interface WebPage {
  url: string;
  close(): Promise<void>;
}

/** An ordinary web page on loopback (what a dapp or any site is to the extension). */
export async function startWebPage(): Promise<WebPage> {
  const html = '<!doctype html><html><head><meta charset="utf-8"><title>plain web page</title></head><body><p id="page">a plain web page</p></body></html>';
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html);
  });
  const url = await listen(server);
  return { url: `${url}/`, close: () => closeServer(server) };
}

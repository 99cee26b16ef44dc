// What both browsers' request fuzz shares: the fuzz page (fuzz/page.ts bundled with esbuild and
// inlined into one page on http://127.0.0.1:<port>/), the seed (XPC_FUZZ_SEED replays a run),
// a watcher that rejects whatever approval the fuzz makes the wallet ask for (so every request
// can end in bounded time), and the check of the outcomes.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { build } from 'esbuild';
import { expect } from 'vitest';
import type { FuzzOptions, FuzzOutcome } from './fuzz/page.js';
import { REPO_ROOT, type Call } from './harness.js';

export type { FuzzOptions, FuzzOutcome };

/** The run's seed: XPC_FUZZ_SEED when given (to replay a failure), a fresh one otherwise. */
export function fuzzSeed(): number {
  const given = process.env['XPC_FUZZ_SEED'];
  if (given !== undefined && given !== '') {
    const seed = Number(given);
    if (!Number.isInteger(seed) || seed < 0 || seed >= 2 ** 32) throw new Error(`XPC_FUZZ_SEED must be an integer in [0, 2^32), not ${given}`);
    return seed;
  }
  return Math.floor(Math.random() * 2 ** 32);
}

export interface FuzzServer {
  url: string;
  close(): Promise<void>;
}

/** Serves the fuzz page at / on 127.0.0.1 (where the wallet's content scripts run). */
export async function startFuzzPage(): Promise<FuzzServer> {
  const result = await build({
    entryPoints: [join(REPO_ROOT, 'test/e2e/fuzz/page.ts')],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  const script = result.outputFiles[0]?.text ?? '';
  if (script === '' || /<\/script/i.test(script)) throw new Error('the fuzz page bundle is empty or cannot be inlined');
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>XPC fuzz page</title><script>${script}</script></head><body><p>a hostile page</p></body></html>`;
  const server = createServer((req, res) => {
    if (req.url === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(html);
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(() => r()));
    },
  };
}

/** Runs IN THE FUZZ PAGE (pass it to page.evaluate): window.fuzz.run(options). */
export function runFuzzInPage(options: FuzzOptions): Promise<FuzzOutcome[]> {
  return (globalThis as unknown as { fuzz: { run(o: FuzzOptions): Promise<FuzzOutcome[]> } }).fuzz.run(options);
}

/**
 * Rejects every approval the wallet waits for, through the wallet protocol (as the approval
 * window's Reject does), until stopped: a request that asks the user then ends too.
 */
export function rejectApprovalsWhileRunning(call: Call): { stop(): Promise<number> } {
  let running = true;
  let rejected = 0;
  const loop = (async () => {
    while (running) {
      const { approvals } = await call('approvals.list', {}).catch(() => ({ approvals: [] as { id: string }[] }));
      for (const a of approvals) {
        await call('approvals.decide', { id: a.id, approved: false }).then(
          () => rejected++,
          () => undefined,
        );
      }
      await new Promise((r) => setTimeout(r, 150));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return rejected;
    },
  };
}

/** Every request was answered in time: a result, or an Error with an integer code (a JSON-RPC error). */
export function expectAllAnswered(outcomes: FuzzOutcome[], options: FuzzOptions, browser: string): void {
  expect(outcomes).toHaveLength(options.count);
  const bad = outcomes.filter((o) => o.answer === 'none' || o.answer === 'thrown');
  const replay = `replay with XPC_FUZZ_SEED=${options.seed}`;
  const lines = bad.map((o) => `#${o.index} ${o.answer === 'none' ? `no answer within ${options.answerWithinMs} ms` : `not a JSON-RPC error: code ${String(o.code)} ${o.message ?? ''}`}: ${o.sent}`);
  expect(lines, `${browser}: requests not answered properly (${replay})`).toEqual([]);
}

/** One line per answer kind and code: what the run exercised. */
export function fuzzSummary(outcomes: FuzzOutcome[]): string {
  const counts = new Map<string, number>();
  for (const o of outcomes) {
    const key = o.answer === 'error' ? `error ${String(o.code)}` : o.answer;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const slowest = Math.max(0, ...outcomes.map((o) => o.ms));
  return `${[...counts].map(([k, n]) => `${k}: ${n}`).join(', ')}; slowest ${slowest} ms`;
}

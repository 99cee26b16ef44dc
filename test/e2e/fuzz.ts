// What both browsers' request fuzz shares: the fuzz page (fuzz/page.ts bundled with esbuild and
// inlined into one page on http://127.0.0.1:<port>/), the seed (XPC_FUZZ_SEED replays a run),
// a watcher that rejects whatever approval the fuzz makes the wallet ask for (so every request
// can end in bounded time), and the check of the outcomes.
import { expect } from 'vitest';
import type { FuzzOptions, FuzzOutcome } from './fuzz/page.js';
import { bundlePageScript, CHAIN_ID_HEX, servePage } from './dapp.js';
import { type ConsoleLog } from './artifacts.js';
import { type Call } from './harness.js';

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
  const script = await bundlePageScript('test/e2e/fuzz/page.ts');
  return servePage(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>XPC fuzz page</title><script>${script}</script></head><body><p>a hostile page</p></body></html>`);
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

/** What both drivers' pages offer the fuzz steps: evaluate a function in the page with one argument. */
export type EvaluateInPage = (fn: (arg: never) => unknown, arg: unknown) => Promise<unknown>;

/** The fuzz round both browsers run: seeded requests, approvals rejected meanwhile, every one answered. */
export async function fuzzRound(evaluate: EvaluateInPage, call: Call, log: ConsoleLog, seed: number, browser: string): Promise<void> {
  const options: FuzzOptions = { seed, count: 300, concurrency: 8, answerWithinMs: 20_000 };
  const tag = `[e2e ${browser.toLowerCase()} fuzz]`;
  console.log(`${tag} seed ${seed} (XPC_FUZZ_SEED=${seed} replays it)`);
  const watcher = rejectApprovalsWhileRunning(call);
  let outcomes: FuzzOutcome[];
  try {
    outcomes = (await evaluate(runFuzzInPage, options)) as FuzzOutcome[];
  } finally {
    log.add('test', `approvals rejected during the fuzz: ${await watcher.stop()}`);
  }
  console.log(`${tag} ${fuzzSummary(outcomes)}`);
  expectAllAnswered(outcomes, options, browser);
}

/** After the fuzz the page still gets answers, and no request got the site connected. */
export async function expectPageStillAnswered(evaluate: EvaluateInPage): Promise<void> {
  const answer = await evaluate(async () => {
    const p = (globalThis as unknown as { xpcWallet: { request(a: unknown): Promise<unknown> } }).xpcWallet;
    return [await p.request({ method: 'eth_chainId' }), await p.request({ method: 'eth_accounts' })];
  }, undefined);
  expect(answer).toEqual([CHAIN_ID_HEX, []]);
}

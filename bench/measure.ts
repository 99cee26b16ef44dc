// Side-by-side timing. Every contender of a case runs in the same rounds, in rotating order, so
// drift (CPU frequency, GC pressure, a noisy neighbour) hits all of them alike; ratios come from
// the same run and absolute times are informative only.

/** Something to time: sync or async; its result is kept so the work cannot be optimised away. */
export type Job = () => unknown;

export interface Stats {
  samples: number;
  /** Milliseconds. */
  median: number;
  p10: number;
  p90: number;
  /** Median absolute deviation, ms. */
  mad: number;
}

export interface Budget {
  /** Untimed runs of each contender before measuring (JIT, caches, lazy tables). */
  warmup: number;
  /** Stop once every contender has this many samples and the time budget is spent… */
  minSamples: number;
  /** …or at this many samples, whichever comes first. */
  maxSamples: number;
  /** Wall-clock budget for the measured rounds of one case, ms. */
  budgetMs: number;
}

export const DEFAULT_BUDGET: Budget = { warmup: 5, minSamples: 15, maxSamples: 400, budgetMs: 2_500 };

let sink: unknown;
/** Keeps results reachable so V8 cannot drop the work that produced them. */
export function consume(value: unknown): void {
  sink = value;
}
export function sinkValue(): unknown {
  return sink;
}

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

export function statsOf(samplesMs: number[]): Stats {
  const sorted = [...samplesMs].sort((a, b) => a - b);
  const median = quantile(sorted, 0.5);
  const deviations = sorted.map((x) => Math.abs(x - median)).sort((a, b) => a - b);
  return { samples: sorted.length, median, p10: quantile(sorted, 0.1), p90: quantile(sorted, 0.9), mad: quantile(deviations, 0.5) };
}

async function timeOnce(job: Job): Promise<number> {
  // Drop the previous result first: otherwise it stays live while this job runs, and a big one
  // (100,000 decoded UTXOs) makes this job pay for GC of the last job's data.
  sink = undefined;
  const start = process.hrtime.bigint();
  const result = job();
  // Only async jobs pay for an await; a sync job is timed without a microtask hop.
  consume(result instanceof Promise ? await result : result);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

export interface Comparison<K extends string> {
  stats: Record<K, Stats>;
  /** Per-round ratios `a / b` for each requested pair, so the ratio has its own spread. */
  pairRatios: (a: K, b: K) => Stats;
  rounds: number;
  wallMs: number;
}

/** Times every job of `jobs` round by round until the budget is met. */
export async function compare<K extends string>(jobs: Record<K, Job>, budget: Budget = DEFAULT_BUDGET): Promise<Comparison<K>> {
  const names = Object.keys(jobs) as K[];
  for (let i = 0; i < budget.warmup; i++) for (const n of names) await timeOnce(jobs[n]);
  const samples = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<K, number[]>;
  const started = performance.now();
  let rounds = 0;
  while (rounds < budget.maxSamples && (rounds < budget.minSamples || performance.now() - started < budget.budgetMs)) {
    // Rotate who goes first so no contender always runs right after another one's garbage.
    for (let j = 0; j < names.length; j++) {
      const n = names[(rounds + j) % names.length]!;
      samples[n].push(await timeOnce(jobs[n]));
    }
    rounds++;
  }
  const wallMs = performance.now() - started;
  const stats = Object.fromEntries(names.map((n) => [n, statsOf(samples[n])])) as Record<K, Stats>;
  return {
    stats,
    rounds,
    wallMs,
    pairRatios: (a, b) => statsOf(samples[a].map((x, i) => x / samples[b][i]!)),
  };
}

/** "1.23 ms (p10–p90 1.20–1.31, n=40)" with units scaled to the value. */
export function fmtStats(s: Stats): string {
  return `${fmtMs(s.median)} (p10–p90 ${fmtMs(s.p10)}–${fmtMs(s.p90)}, n=${s.samples})`;
}

export function fmtMs(ms: number): string {
  const [v, u] = ms >= 1000 ? [ms / 1000, 's'] : ms >= 1 ? [ms, 'ms'] : [ms * 1000, 'µs'];
  return `${v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2)} ${u}`;
}

export function fmtRatio(r: Stats | number): string {
  const x = (v: number): string => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));
  if (typeof r === 'number') return `${x(r)}×`;
  return `${x(r.median)}× (${x(r.p10)}–${x(r.p90)})`;
}

export function fmtBytes(n: number): string {
  if (n >= 1024 * 1024) return `${(n / 1024 / 1024).toFixed(2)} MiB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${n} B`;
}

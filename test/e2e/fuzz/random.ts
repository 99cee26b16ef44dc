// The fuzz's seeded randomness and the values it builds (page code, bundled into the fuzz page).
// Every request has its own generator, seeded from the run's seed and the request's index, so a
// failing request can be rebuilt alone from the two numbers the test prints.

export interface Random {
  /** 0 ≤ n < max. */
  int(max: number): number;
  pick<T>(choices: readonly T[]): T;
  /** `length` UTF-16 code units, from a mix of ASCII, other scripts, emoji halves and controls. */
  string(length: number): string;
  /** Any params a page can hand to request(): JSON or not, small or huge, shallow or deep. */
  params(dom: Node): unknown;
  /** Params window.postMessage can carry and a receiving world can read (what a page could post itself). */
  plainParams(): unknown;
}

/** A Weyl sequence through a 32-bit mixing function: small, fast, good enough to fuzz with. */
export function makeRandom(seed: number, index: number): Random {
  let state = mix((seed >>> 0) ^ mix(index + 0x51ed27));
  const next = (): number => {
    state = (state + 0x9e3779b9) | 0;
    return mix(state);
  };
  const int = (max: number): number => Math.floor((next() / 2 ** 32) * max);
  const pick = <T>(choices: readonly T[]): T => choices[int(choices.length)]!;
  const r: Random = {
    int,
    pick,
    string: (length) => randomString(r, length),
    params: (dom) => randomParams(r, dom),
    plainParams: () => plainParams(r),
  };
  return r;
}

function mix(x: number): number {
  let z = x | 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

const ALPHABETS = ['abcxyz0189', 'ÄÖüßéñ', 'Ωжщ', '中文字', 'עברית', '\u0000\u0007\n\t\r', '\u200b\u200e\u202e\ufeff', '"\\\'<>&{}[]', '\ud83e\udd8a', '\ud800', '\udfff'];

function randomString(r: Random, length: number): string {
  if (length > 256) {
    // Long strings repeat a random chunk: building megabytes one unit at a time is slow.
    const chunk = randomString(r, 64);
    return chunk.repeat(Math.ceil(length / 64)).slice(0, length);
  }
  let s = '';
  while (s.length < length) s += r.pick(ALPHABETS)[r.int(4)] ?? 'a';
  return s.slice(0, length);
}

function leaf(r: Random): unknown {
  return r.pick([
    () => r.int(1_000_000),
    () => r.pick([0, -0, -1, 1.5, 2 ** 53 + 2, 1e308, -1e-308]),
    () => r.string(r.int(40)),
    () => `0x${'0123456789abcdef'.repeat(3).slice(0, r.int(48))}`,
    () => r.pick([true, false, null]),
    () => r.pick(['latest', 'pending', 'earliest', '0x0', '0x', '0xZZ']),
    () => ({}),
    () => [],
  ])();
}

/** A JSON tree of modest size. */
function tree(r: Random, depth: number): unknown {
  if (depth <= 0 || r.int(3) === 0) return leaf(r);
  const width = r.int(5);
  if (r.int(2) === 0) return Array.from({ length: width }, () => tree(r, depth - 1));
  const o: Record<string, unknown> = {};
  for (let i = 0; i < width; i++) o[r.pick(['to', 'from', 'data', 'value', 'gas', 'chainId', 'domain', 'types', '__proto__', 'constructor', r.string(6)])] = tree(r, depth - 1);
  return o;
}

/** `levels` nested arrays and/or objects around a leaf. */
function chain(r: Random, levels: number, shape: 'array' | 'object' | 'mixed'): unknown {
  let v: unknown = leaf(r);
  for (let i = 0; i < levels; i++) v = shape === 'array' || (shape === 'mixed' && i % 2 === 0) ? [v] : { k: v };
  return v;
}

/** Values structured clone or JSON cannot carry, or that fight back when read. */
function hostile(r: Random, dom: Node): unknown {
  return r.pick([
    () => 10n ** 30n,
    () => () => 1,
    () => Symbol('s'),
    () => {
      const a: unknown[] = [1];
      a.push(a);
      return a;
    },
    () => {
      const o: Record<string, unknown> = { a: 1 };
      o.self = { back: o };
      return o;
    },
    () => new Map([[1, 2]]),
    () => new Set(['x']),
    () => new Date(),
    () => /x+/g,
    () => new Uint8Array(r.int(64)),
    () => new ArrayBuffer(8),
    () => dom,
    () => new Error('an error as params'),
    () => [NaN, Infinity, -Infinity, undefined],
    // eslint-disable-next-line no-sparse-arrays
    () => [1, , 3],
    () =>
      Object.defineProperty({}, 'boom', {
        enumerable: true,
        get() {
          throw new Error('getter throws');
        },
      }),
    () => new Proxy({}, {}),
    () => ({ toJSON: () => ({ huge: 'x'.repeat(2_000_000) }) }),
    () => JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"x": 1}}}') as unknown,
    () => Object.create(null) as unknown,
  ])();
}

function randomParams(r: Random, dom: Node): unknown {
  const roll = r.int(100);
  if (roll < 8) return r.pick([null, 0, 'eth_chainId', true, 1n]);
  if (roll < 40) return [tree(r, 1 + r.int(4))];
  if (roll < 48) return r.int(2) === 0 ? [] : {};
  if (roll < 65) return [chain(r, r.pick([50, 100, 101, 500, 1_000, 2_000, 2_050, 2_400, 2_500, 3_000, 5_000, 20_000]), r.pick(['array', 'object', 'mixed'] as const))];
  if (roll < 72) return [r.string(r.pick([100_000, 1_048_000, 1_048_577, 3_000_000]))];
  if (roll < 76) return r.int(2) === 0 ? new Array<number>(100_000 + r.int(100_000)).fill(0) : Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`k${i}`, i]));
  if (roll < 92) return [hostile(r, dom), tree(r, 2)];
  return [r.string(r.int(2_000))];
}

function plainParams(r: Random): unknown {
  const roll = r.int(10);
  if (roll < 4) return [tree(r, 1 + r.int(4))];
  if (roll < 6) return [chain(r, r.pick([10, 100, 500, 900]), r.pick(['array', 'object', 'mixed'] as const))];
  if (roll < 7) return [10n ** 20n, new Map([[1, 2]]), new Date(0)];
  if (roll < 8) return r.pick([null, 5, 'x', undefined]);
  return [r.string(r.pick([10, 1_000, 1_048_577]))];
}

/** A short, total description of any value (cycles, proxies and throwing getters included). */
export function describeValue(value: unknown, level = 0): string {
  try {
    if (typeof value === 'string') return value.length > 24 ? `string(${value.length})` : JSON.stringify(value);
    if (typeof value === 'bigint') return `bigint(${value.toString().length} digits)`;
    if (typeof value === 'symbol' || typeof value === 'function') return typeof value;
    if (typeof value !== 'object' || value === null) return String(value);
    const depth = depthOf(value);
    const kind = Array.isArray(value) ? `array(${value.length})` : (Object.getPrototypeOf(value) as { constructor?: { name?: string } } | null)?.constructor?.name ?? 'object';
    if (level >= 2 || (level === 1 && depth > 3)) return `${kind}${depth > 1 ? ` depth ${depth}` : ''}`;
    const parts = Object.keys(value)
      .slice(0, 4)
      .map((k) => `${k.slice(0, 12)}: ${describeValue((value as Record<string, unknown>)[k], level + 1)}`);
    return `${kind}{${parts.join(', ')}}`;
  } catch (_e) {
    return 'unreadable';
  }
}

/** Nesting depth, without recursion, stopping after 50,000 objects (a cycle counts once). */
function depthOf(value: object): number {
  const seen = new Set<object>();
  const stack: [unknown, number][] = [[value, 1]];
  let max = 0;
  while (stack.length > 0 && seen.size < 50_000) {
    const [v, d] = stack.pop()!;
    if (typeof v !== 'object' || v === null || seen.has(v)) continue;
    seen.add(v);
    max = Math.max(max, d);
    for (const child of Array.isArray(v) ? v.slice(0, 1_000) : Object.values(v).slice(0, 1_000)) stack.push([child, d + 1]);
  }
  return max;
}

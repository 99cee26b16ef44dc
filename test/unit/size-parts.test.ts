import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SourceMapGenerator } from 'source-map-js';
import { afterEach, describe, expect, it } from 'vitest';
import { attributeBytes, measureParts, PART_RULES, ruleOf, sizePartsReport, smallestRemoval, sourceKey, type PartSize } from '../../bench/size-parts.js';

const bytes = (s: string): number => Buffer.byteLength(s);

// A hand-made chunk of two sources: bundler glue first (no mapping), a.ts with a two-byte
// character, b.ts whose template string runs onto a second line that has no mapping of its own,
// then an export statement the map marks as no one's.
const GLUE = 'import{x}from"./c.js";';
const A = 'const a="é";';
const B_LINE_1 = 'const b=`w1';
const B_LINE_2 = 'w2`;';
const EXPORT = 'export{a,b};';
const CODE = `${GLUE}${A}${B_LINE_1}\n${B_LINE_2}${EXPORT}`;

function chunkMap(): string {
  const g = new SourceMapGenerator({ file: 'chunk.js' });
  const at = (column: number, line = 1) => ({ line, column });
  const original = { line: 1, column: 0 };
  g.addMapping({ generated: at(GLUE.length), source: '../../../work/x/src/a.ts', original });
  g.addMapping({ generated: at(GLUE.length + 6), source: '../../../work/x/src/a.ts', original: { line: 1, column: 6 } });
  // Columns count UTF-16 units: "é" is one unit here and two bytes in the file.
  g.addMapping({ generated: at(GLUE.length + A.length), source: '../../../work/x/node_modules/lib/b.js', original });
  g.addMapping({ generated: at(B_LINE_2.length, 2) }); // the export: a mapping with no source
  return g.toString();
}

describe('size by part: attributing a chunk through its source map', () => {
  it('gives each source the bytes of its spans, across line ends, in UTF-8 bytes', () => {
    const a = attributeBytes(CODE, chunkMap());
    expect(Object.fromEntries(a.bySource)).toEqual({
      '../../../work/x/src/a.ts': bytes(A),
      '../../../work/x/node_modules/lib/b.js': bytes(B_LINE_1) + 1 + bytes(B_LINE_2),
    });
    expect(bytes(A)).toBe(A.length + 1);
  });

  it('counts the bytes before the first mapping and after a mapping with no source as unattributed', () => {
    const a = attributeBytes(CODE, chunkMap());
    expect(a.unattributed).toBe(bytes(GLUE) + bytes(EXPORT));
    expect(a.total).toBe(bytes(CODE));
    expect([...a.bySource.values()].reduce((n, x) => n + x, a.unattributed)).toBe(a.total);
  });

  it('keys sources by their tail: the last node_modules, or src/', () => {
    expect(sourceKey('../../../work/wt/src/background/vault.ts')).toBe('src/background/vault.ts');
    expect(sourceKey('../../../src/content/relay.ts')).toBe('src/content/relay.ts');
    expect(sourceKey('../../../../main/node_modules/a/node_modules/@noble/hashes/sha2.js')).toBe('node_modules/@noble/hashes/sha2.js');
    expect(sourceKey('../../../@crx/manifest')).toBe('@crx/manifest');
  });
});

describe('size by part: a build folder', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('counts every file but the maps, JS by source and the rest whole, and the rows sum to the folder', () => {
    dir = mkdtempSync(join(tmpdir(), 'xpc-size-parts-test-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'assets', 'chunk.js'), CODE);
    writeFileSync(join(dir, 'assets', 'chunk.js.map'), chunkMap());
    writeFileSync(join(dir, 'loader.js'), "import './assets/chunk.js';\n");
    writeFileSync(join(dir, 'manifest.json'), '{"manifest_version":3}');
    writeFileSync(join(dir, 'assets', 'styles.css'), 'p{color:red}');
    const m = measureParts(dir);
    const part = (name: string): number | undefined => m.parts.find((p) => p.part === name)?.bytes;
    expect(m.problems).toEqual([]);
    expect(m.unpacked).toBe(bytes(CODE) + bytes("import './assets/chunk.js';\n") + bytes('{"manifest_version":3}') + bytes('p{color:red}'));
    expect(m.parts.reduce((n, p) => n + p.bytes, 0)).toBe(m.unpacked);
    expect(part('other own code')).toBe(bytes(A)); // src/a.ts matches no feature
    expect(part('other libraries')).toBe(bytes(B_LINE_1) + 1 + bytes(B_LINE_2));
    expect(part('loader stubs (JS without a source map)')).toBe(bytes("import './assets/chunk.js';\n"));
    expect(part('popup styles (CSS)')).toBe(bytes('p{color:red}'));
    expect(m.parts.find((p) => p.part.startsWith('chunk glue'))?.bytes).toBe(bytes(GLUE) + bytes(EXPORT));
  });
});

describe('size by part: the part rules', () => {
  // One source per rule, as sourceKey gives it; every rule must have one.
  const examples: Record<string, string> = {
    '@noble/curves': 'node_modules/@noble/curves/abstract/weierstrass.js',
    'micro-eth-signer': 'node_modules/micro-eth-signer/index.js',
    'micro-packed': 'node_modules/micro-packed/index.js',
    '@noble/hashes': 'node_modules/@noble/hashes/sha2.js',
    '@noble/secp256k1': 'node_modules/@noble/secp256k1/index.js',
    '@scure/bip39': 'node_modules/@scure/bip39/wordlists/english.js',
    '@scure/bip32': 'node_modules/@scure/bip32/index.js',
    '@scure/base': 'node_modules/@scure/base/index.js',
    preact: 'node_modules/preact/dist/preact.module.js',
    'webextension-polyfill': 'node_modules/webextension-polyfill/dist/browser-polyfill.js',
    bs58: 'node_modules/bs58/src/esm/index.js',
    'base-x': 'node_modules/base-x/src/esm/index.js',
    bech32: 'node_modules/bech32/dist/index.js',
    uqr: 'node_modules/uqr/dist/index.mjs',
    'other libraries': 'node_modules/left-pad/index.js',
    staking: 'src/background/stake-book.ts',
    tokens: 'src/popup/approval-evm.tsx',
    'site connections': 'src/background/site-evm.ts',
    'X-Chain asset studio': 'src/popup/screens/AssetNfts.tsx',
    'cross-chain moves': 'src/background/transfer-runner.ts',
    'X/P/C codec': 'src/core/codec/pvm.ts',
    'node client': 'src/core/node/platform.ts',
    'tx builders': 'src/core/tx/x.ts',
    'keys, vault': 'src/background/vault.ts',
    'balances and activity': 'src/popup/screens/Home.tsx',
    sends: 'src/popup/screens/Send.tsx',
    'onboarding and settings': 'src/popup/screens/Onboarding.tsx',
    'popup shell': 'src/popup/components/Review.tsx',
    'message protocol': 'src/shared/validate.ts',
    'other own code': 'src/new-feature/thing.ts',
    'bundler runtime': '@crx/manifest',
  };
  /** The one rule whose part name (without "library ") starts with `name`. */
  const ruleNamed = (name: string) => {
    const found = PART_RULES.filter((r) => r.part.replace(/^library /, '').startsWith(name));
    if (found.length !== 1) throw new Error(`"${name}" names ${found.length} rules`);
    return found[0]!;
  };

  it('has an example for every rule, and each example lands in its rule', () => {
    for (const rule of PART_RULES) expect(Object.keys(examples).map(ruleNamed), rule.part).toContain(rule);
    for (const [name, path] of Object.entries(examples)) expect(ruleOf(path).part, path).toBe(ruleNamed(name).part);
  });

  it('puts a feature file before its general folder, and unknown own code in the catch-all', () => {
    expect(ruleOf('src/background/services/staking.ts').part).toBe('staking');
    expect(ruleOf('src/shared/validate-tokens.ts').part).toMatch(/^tokens /);
    expect(ruleOf('src/background/site-tokens.ts').part).toMatch(/^tokens /);
    expect(ruleOf('src/popup/approval-tx.tsx').part).toMatch(/^site connections /);
    expect(ruleOf('src/core/tx/staking.ts').part).toBe('staking');
    expect(ruleOf('src/background/services/accounts-restore.ts').part).toBe('keys, vault and session');
    expect(ruleOf('src/background/session-idle.ts').part).toBe('keys, vault and session');
    expect(ruleOf('src/core/something-new.ts').part).toBe('other own code');
    expect(ruleOf('node_modules/@noble/curvesx/index.js').part).toBe('other libraries');
  });
});

describe('size by part: the way to the goal', () => {
  const part = (name: string, bytes: number, removable: boolean): PartSize => ({ part: name, kind: 'own', bytes, removable });
  const parts = [part('a', 40, true), part('b', 30, true), part('c', 25, true), part('core', 205, false)];

  it('takes the fewest removable parts, and of those the fewest bytes, to get under the goal', () => {
    expect(smallestRemoval(parts, 300, 261)?.map((p) => p.part)).toEqual(['a']);
    expect(smallestRemoval(parts, 300, 250)?.map((p) => p.part)).toEqual(['b', 'c']);
    expect(smallestRemoval(parts, 300, 206)?.map((p) => p.part)).toEqual(['a', 'b', 'c']);
  });

  it('finds none when all removable parts together are not enough; the goal is strict', () => {
    expect(smallestRemoval(parts, 300, 150)).toBeUndefined();
    expect(smallestRemoval(parts, 300, 205)).toBeUndefined();
  });
});

describe('size by part: the report', () => {
  const KB = 1024;
  const measured = {
    parts: [
      { part: 'library x', kind: 'library' as const, bytes: 300 * KB, removable: false },
      { part: 'staking', kind: 'own' as const, bytes: 150 * KB, removable: true },
      { part: 'tokens (reads)', kind: 'own' as const, bytes: 60 * KB, removable: true },
      { part: 'other own code', kind: 'own' as const, bytes: 40 * KB, removable: false },
    ],
    unpacked: 550 * KB,
    problems: [],
  };

  it('states the gap, the totals and the computed way under the goal', () => {
    const r = sizePartsReport(measured, 550 * KB);
    expect(r.detail).toContain('| library x | 300.0 | 54.5% |');
    expect(r.detail).toContain('| own code: staking * | 150.0 | 27.3% |');
    expect(r.detail).toContain('550.0 KB, 50.0 KB over the 500 KB goal');
    expect(r.detail).toContain('Libraries: 300.0 KB (54.5%)');
    expect(r.detail).toContain('own code: 250.0 KB (45.5%)');
    expect(r.detail).toContain('under 500 KB: tokens 60.0 KB = 60.0 KB, leaving 490.0 KB'); // one part, the smaller of the two that do
    expect(r.detail).toContain('without every feature marked *, is 340.0 KB');
    expect(r.detail).toContain('the same as dist/chrome');
    expect(r.overGoal).toMatch(/^550\.0 KB, 50\.0 KB over/);
  });

  it('reports a build that differs from dist/chrome, and a catch-all over 5%', () => {
    const r = sizePartsReport(measured, 550 * KB + 1);
    expect(r.problems).toHaveLength(2);
    expect(r.problems[0]).toMatch(/563200 B without its maps, dist\/chrome 563201 B/);
    expect(r.problems[1]).toMatch(/"other own code" is 7\.3%/);
  });
});

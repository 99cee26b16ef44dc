// Section 4, size by part: which library or which feature of the wallet each byte of the unpacked
// Chrome build comes from. The Chrome target is built once more, with source maps, into a folder of
// its own (vite.config.ts: XPC_OUT_DIR, XPC_SOURCEMAP=1; 'hidden' maps leave the JS as shipped), and
// every byte of every emitted .js is given to the source file its map names. Other files count
// whole; the maps themselves are not counted. `npx tsx bench/size-parts.ts` prints the table alone.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SourceMapConsumer, type RawSourceMap } from 'source-map-js';
import { markdownTable } from './report.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const VITE_BIN = join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
/** Issue #19's goal for the whole unpacked extension (KB = 1024 bytes, as everywhere in the bench). */
export const GOAL_BYTES = 500 * 1024;

/** What the size work did so far (issue #19), for the gap note. */
const SIZE_WORK_DONE =
  'Done: the content script on the browser\'s own runtime, without webextension-polyfill (14 → 4 KB in every frame of every page); ' +
  'each popup screen its own chunk and the QR code library loaded with Receive (the popup\'s first load 48.5 → 18.3 KB gzip; ' +
  'splitting leaves the unpacked total as it was); no polyfills shipped (es2022, no module-preload polyfill); Firefox\'s background ' +
  'without webextension-polyfill, which hands back Firefox\'s own browser object there (Firefox build 10.3 KB smaller). Not done: taking out ' +
  'a feature an issue asks for.';

// ---- attribution ----

export interface Attribution {
  /** Bytes per source, keyed as the map names it. */
  bySource: Map<string, number>;
  /** Bytes no mapping gives to a source: before the first mapping, or after a mapping with no source (chunk glue). */
  unattributed: number;
  /** UTF-8 bytes of the code: the sum of the two above. */
  total: number;
}

/**
 * Gives every byte of `code` to a source through its source map. A mapping covers the generated
 * text from its position to the next mapping's, across line ends: a multi-line string (the BIP-39
 * word list is one) has mappings only on its first line, and its other lines are still its own.
 * Bytes before the first mapping, or after a mapping that names no source (the bundler's own
 * import/export statements), are unattributed. Columns count UTF-16 units, as the spec has it;
 * spans are measured in UTF-8 bytes, as the file is.
 */
export function attributeBytes(code: string, map: RawSourceMap | string): Attribution {
  const consumer = new SourceMapConsumer(typeof map === 'string' ? (JSON.parse(map) as RawSourceMap) : map);
  const lines = code.split('\n');
  const lineStart: number[] = [];
  let offset = 0;
  for (const line of lines) {
    lineStart.push(offset);
    offset += Buffer.byteLength(line) + 1;
  }
  const total = Buffer.byteLength(code);
  const bySource = new Map<string, number>();
  let unattributed = 0;
  // The current span: where it starts (bytes) and whose it is (null: nobody's).
  let spanStart = 0;
  let spanSource: string | null = null;
  const close = (end: number): void => {
    const n = end - spanStart;
    if (spanSource === null) unattributed += n;
    else bySource.set(spanSource, (bySource.get(spanSource) ?? 0) + n);
  };
  // Within a line, byte offsets are found walking forward from the previous mapping (O(line)).
  let atLine = -1;
  let atColumn = 0;
  let atByte = 0;
  consumer.eachMapping((m) => {
    const line = lines[m.generatedLine - 1];
    if (line === undefined) throw new Error(`source map names line ${m.generatedLine}, the code has ${lines.length}`);
    const column = Math.min(m.generatedColumn, line.length);
    if (m.generatedLine - 1 !== atLine || column < atColumn) {
      atLine = m.generatedLine - 1;
      atColumn = 0;
      atByte = lineStart[atLine]!;
    }
    atByte += Buffer.byteLength(line.slice(atColumn, column));
    atColumn = column;
    close(atByte);
    spanStart = atByte;
    spanSource = m.source ?? null;
  }, null, SourceMapConsumer.GENERATED_ORDER);
  close(total);
  return { bySource, unattributed, total };
}

/**
 * A source as the part rules see it: "node_modules/<package>/…" (the last node_modules in the
 * path), "src/…" for the wallet's own files, else the name as the map gives it (a bundler's
 * virtual module). Only the tail is kept because the standalone content scripts' maps name their
 * sources relative to another folder than the file's own (a crxjs quirk).
 */
export function sourceKey(source: string): string {
  const path = source.replace(/\\/g, '/');
  const lib = path.lastIndexOf('node_modules/');
  if (lib >= 0) return path.slice(lib);
  const own = path.lastIndexOf('/src/');
  if (own >= 0) return path.slice(own + 1);
  return path.startsWith('src/') ? path : path.replace(/^(\.\.?\/)+/, '');
}

// ---- parts ----

export type PartKind = 'library' | 'own' | 'other';
export interface PartRule {
  part: string;
  kind: PartKind;
  test: RegExp;
  /** An own-code feature the product promises but a wallet's core (keys, balances, send, receive) works without: what the way to the goal would have to drop. */
  removable?: boolean;
}

/** The libraries, by npm package, and why each is in the bundle (the design card names seven). */
const LIBRARIES: [name: string, why: string][] = [
  ['@noble/curves', 'comes with micro-eth-signer'],
  ['micro-eth-signer', 'design card'],
  ['micro-packed', 'comes with micro-eth-signer'],
  ['@noble/hashes', 'comes with the noble and scure libraries'],
  ['@noble/secp256k1', 'design card'],
  ['@scure/bip39', 'design card'],
  ['@scure/bip32', 'comes with @scure/bip39'],
  ['@scure/base', 'comes with @scure/bip32 and micro-eth-signer'],
  ['preact', 'design card'],
  ['webextension-polyfill', 'design card'],
  ['bs58', 'design card'],
  ['base-x', 'comes with bs58'],
  ['bech32', 'design card'],
  ['uqr', 'QR codes; not on the design card'],
];
const lib = (name: string): RegExp => new RegExp(`^node_modules/${name.replace(/[/.]/g, '\\$&')}/`);
const own = (...paths: string[]): RegExp => new RegExp(`^src/(?:${paths.join('|')})`);

/** Ordered: a source belongs to the first rule whose test matches its key (sourceKey). */
export const PART_RULES: PartRule[] = [
  ...LIBRARIES.map(([name, why]): PartRule => ({ part: `library ${name} (${why})`, kind: 'library', test: lib(name) })),
  { part: 'other libraries', kind: 'library', test: /^node_modules\// },
  {
    part: 'staking',
    kind: 'own',
    removable: true,
    test: own('core/staking/', 'core/tx/staking\\.ts', 'core/node/validators\\.ts', 'background/services/staking\\.ts', 'background/stak(?:e|ing)-', 'popup/screens/Stake', 'popup/screens/stake-', 'popup/staking\\.ts', 'shared/(?:messages|validate)-staking\\.ts'),
  },
  {
    part: 'tokens (token reads, decoded calls and permits, simulation, log scans, NFTs, speed up / cancel)',
    kind: 'own',
    removable: true,
    test: own('core/(?:tokens|evm-abi|evm-calls|evm-simulate)\\.ts', 'background/(?:token-|nft-metadata|evm-views|site-tokens|site-contracts)', 'background/services/(?:tokens|evm-txs)\\.ts', 'popup/screens/(?:Token|Allowances)', 'popup/components/(?:TokenTransfers|PendingEvm|EvmFlow)', 'popup/(?:tokens-format|look-alike|approval-evm)', 'shared/(?:token-messages|validate-tokens)\\.ts'),
  },
  {
    part: 'site connections and approvals (provider, content and inpage scripts, approval window, tx descriptions)',
    kind: 'own',
    removable: true,
    test: own('content/', 'inpage/', 'shared/provider-protocol\\.ts', 'shared/messages-approvals\\.ts', 'background/(?:site|provider|approval|pages\\.ts|chain-name|public-suffixes)', 'background/services/(?:sites|approvals)\\.ts', 'popup/approval', 'popup/screens/SettingsSites', 'core/(?:external-tx|tx-impact|describe|describe-pvm)\\.ts'),
  },
  { part: 'X-Chain asset studio (assets, NFTs, minting)', kind: 'own', removable: true, test: own('background/services/assets\\.ts', 'popup/screens/Asset', 'shared/(?:messages|validate)-assets\\.ts') },
  { part: 'cross-chain moves', kind: 'own', removable: true, test: own('background/services/transfers\\.ts', 'background/transfer-(journal|runner)\\.ts', 'popup/screens/Move', 'core/c-atomic\\.ts', 'shared/(?:messages|validate)-transfers\\.ts') },
  { part: 'X/P/C codec and encodings', kind: 'own', test: own('core/codec/', 'core/(?:bytes|encoding|evm-address|amount)\\.ts') },
  { part: 'node client (RPC, network checks, UTXO proofs)', kind: 'own', test: own('core/node/', 'core/(?:node|rpc(?:-guards)?|network(?:-presets|-staking)?|proof|tx-fate)\\.ts', 'background/(?:proofs|services/networks)\\.ts') },
  { part: 'tx builders, fees, signing and delivery', kind: 'own', test: own('core/tx/', 'core/(?:engine(?:-evm|-follow|-moves|-types)?|fees|fee-limits|sign-check|message)\\.ts', 'background/(?:delivery|nonce-line|outbox(?:-send|-settle)?|refused|max-amount)\\.ts') },
  { part: 'keys, vault and session', kind: 'own', test: own('core/(?:keys(?:-sign|-mnemonic|-curve)?|scan)\\.ts', 'background/(?:keyring|vault(?:-format|-crypto)?|session(?:-idle)?|account-engines|account-cache|user-activity)\\.ts', 'background/services/accounts(?:-found|-restore)?\\.ts', 'popup/screens/Unlock') },
  { part: 'balances and activity', kind: 'own', test: own('core/(?:evm-incoming|tx-senders)\\.ts', 'background/services/balances\\.ts', 'popup/screens/(?:Home|Activity|Receive)') },
  { part: 'sends', kind: 'own', test: own('background/services/sends\\.ts', 'background/request-fields\\.ts', 'popup/screens/Send', 'popup/fees\\.ts') },
  { part: 'onboarding and settings', kind: 'own', test: own('popup/screens/(?:Onboarding|Settings)', 'background/settings\\.ts') },
  { part: 'popup shell and shared UI components', kind: 'own', test: own('popup/components/', 'popup/(?:app|main|api|errors|format|checks)\\.tsx?', 'popup/screens/lazy\\.tsx') },
  { part: 'message protocol, validation, router and errors', kind: 'own', test: own('shared/', 'background/(?:router|index|storage)\\.ts', 'background/services/index\\.ts', 'core/(?:errors|index)\\.ts') },
  { part: 'other own code', kind: 'own', test: /^src\// },
  { part: 'bundler runtime (vite, crxjs)', kind: 'other', test: /(?:)/ },
];

/** The rule a source key falls under (the last rule matches everything). */
export function ruleOf(key: string): PartRule {
  return PART_RULES.find((r) => r.test.test(key))!;
}

// ---- one build, measured ----

export interface PartSize {
  part: string;
  kind: PartKind;
  bytes: number;
  removable: boolean;
}
export interface PartsMeasured {
  parts: PartSize[];
  /** Bytes of every file of the build except the source maps. */
  unpacked: number;
  problems: string[];
}

/** Files that are not JS with a map count whole, in a row for their kind. */
function fileRow(rel: string): string {
  if (rel === 'manifest.json') return 'manifest.json';
  if (rel.endsWith('.js')) return 'loader stubs (JS without a source map)';
  if (rel.endsWith('.css')) return 'popup styles (CSS)';
  if (rel.endsWith('.html')) return 'HTML pages';
  if (rel.endsWith('.png')) return 'icons';
  return 'other files';
}
const GLUE = 'chunk glue (imports, exports, the list of files to preload: in no source)';

/** Every byte of the build in `dir` (its .map files aside), by part. */
export function measureParts(dir: string): PartsMeasured {
  const bytes = new Map<string, PartSize>();
  const add = (part: string, kind: PartKind, n: number, removable = false): void => {
    const row = bytes.get(part) ?? { part, kind, bytes: 0, removable };
    row.bytes += n;
    bytes.set(part, row);
  };
  const problems: string[] = [];
  let unpacked = 0;
  const all = readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((rel) => rel.split(sep).join('/'))
    .filter((rel) => statSync(join(dir, rel)).isFile());
  const mapped = new Set(all.filter((rel) => rel.endsWith('.map')));
  const files = all.filter((rel) => !rel.endsWith('.map')).sort();
  for (const rel of files) {
    const size = statSync(join(dir, rel)).size;
    unpacked += size;
    if (!rel.endsWith('.js') || !mapped.has(`${rel}.map`)) {
      add(fileRow(rel), 'other', size);
      continue;
    }
    const a = attributeBytes(readFileSync(join(dir, rel), 'utf8'), readFileSync(join(dir, `${rel}.map`), 'utf8'));
    if (a.total !== size) problems.push(`${rel}: ${a.total} B attributed, the file has ${size} B (not UTF-8?)`);
    add(GLUE, 'other', a.unattributed);
    for (const [source, n] of a.bySource) {
      const rule = ruleOf(sourceKey(source));
      add(rule.part, rule.kind, n, rule.removable);
    }
  }
  const parts = [...bytes.values()].sort((x, y) => y.bytes - x.bytes);
  const sum = parts.reduce((n, p) => n + p.bytes, 0);
  if (sum !== unpacked) problems.push(`size by part: the rows sum to ${sum} B, the build's files to ${unpacked} B`);
  return { parts, unpacked, problems };
}

/** Builds the Chrome target with hidden source maps into a temporary folder, measures it, removes it. */
export function measureChromeBuildByPart(log: (msg: string) => void): PartsMeasured {
  const dir = mkdtempSync(join(tmpdir(), 'xpc-size-parts-'));
  try {
    log(`vite build (chrome, source maps) into ${dir} …`);
    const r = spawnSync(process.execPath, [VITE_BIN, 'build'], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      // NODE_ENV as scripts/build.mjs sets it, so the JS is that of dist/chrome.
      env: { ...process.env, XPC_TARGET: 'chrome', XPC_OUT_DIR: dir, XPC_SOURCEMAP: '1', NODE_ENV: 'production' },
    });
    if (r.status !== 0) {
      const tail = `${r.stdout ?? ''}\n${r.stderr ?? ''}`.trim().split('\n').slice(-15).join('\n');
      throw new Error(`vite build with source maps failed (exit ${r.status ?? r.signal}):\n${tail}`);
    }
    return measureParts(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---- the way to the goal ----

/**
 * The fewest removable parts whose bytes, taken off `unpacked`, leave it under `goal` (of equal
 * count, the one taking least); undefined when even all of them do not.
 */
export function smallestRemoval(parts: PartSize[], unpacked: number, goal: number): PartSize[] | undefined {
  const candidates = parts.filter((p) => p.removable);
  let best: PartSize[] | undefined;
  let bestBytes = 0;
  for (let mask = 1; mask < 1 << candidates.length; mask++) {
    const set = candidates.filter((_, i) => (mask >> i) & 1);
    const removed = set.reduce((n, p) => n + p.bytes, 0);
    if (unpacked - removed >= goal) continue;
    if (!best || set.length < best.length || (set.length === best.length && removed < bestBytes)) {
      best = set;
      bestBytes = removed;
    }
  }
  return best;
}

const kb = (n: number): string => (n / 1024).toFixed(1);
const share = (n: number, of: number): string => `${((100 * n) / of).toFixed(1)}%`;

export interface SizePartsResult {
  /** The markdown block for results.md: heading, table, the computed account of the gap. */
  detail: string;
  /** When over the goal: the gap in one sentence, for the notes on missed targets. */
  overGoal?: string;
  problems: string[];
}

/**
 * The table and the sentence on the gap. `distUnpacked` is dist/chrome's unpacked size as
 * scripts/size-budget.mjs measures it: the map build, maps aside, must be the same bytes.
 */
export function sizePartsReport(m: PartsMeasured, distUnpacked: number | undefined): SizePartsResult {
  const problems = [...m.problems];
  if (distUnpacked !== undefined && distUnpacked !== m.unpacked) {
    problems.push(`size by part: the build with source maps is ${m.unpacked} B without its maps, dist/chrome ${distUnpacked} B; they should be the same bytes`);
  }
  const total = (kind: PartKind): number => m.parts.filter((p) => p.kind === kind).reduce((n, p) => n + p.bytes, 0);
  const libraries = total('library');
  const ownCode = total('own');
  const rest = total('other');
  const other = m.parts.find((p) => p.part === 'other own code');
  if (other && other.bytes > 0.05 * m.unpacked) {
    problems.push(`size by part: "other own code" is ${share(other.bytes, m.unpacked)} of the build; give its files a part in PART_RULES (bench/size-parts.ts)`);
  }
  const order: PartKind[] = ['library', 'own', 'other'];
  const rows = [...m.parts]
    .sort((x, y) => order.indexOf(x.kind) - order.indexOf(y.kind) || y.bytes - x.bytes)
    .map((p) => [p.kind === 'own' ? `own code: ${p.part}${p.removable ? ' *' : ''}` : p.part, kb(p.bytes), share(p.bytes, m.unpacked)]);
  rows.push(['**all rows: the unpacked Chrome build**', kb(m.unpacked), '100.0%']);

  const gap = m.unpacked - GOAL_BYTES;
  const removal = smallestRemoval(m.parts, m.unpacked, GOAL_BYTES);
  const removable = m.parts.filter((p) => p.removable);
  const floor = m.unpacked - removable.reduce((n, p) => n + p.bytes, 0);
  const removedBytes = removal?.reduce((n, p) => n + p.bytes, 0) ?? 0;
  const way =
    gap <= 0
      ? 'It is under the goal.'
      : removal
        ? `The fewest features (marked *) whose own code, taken out, brings it under 500 KB: ${removal.map((p) => `${p.part.split(' (')[0]} ${kb(p.bytes)} KB`).join(' + ')} = ${kb(removedBytes)} KB, leaving ${kb(m.unpacked - removedBytes)} KB.`
        : `No set of the features marked * brings it under 500 KB.`;
  const sameAsDist =
    distUnpacked === undefined
      ? 'dist/chrome was not there to compare with.'
      : distUnpacked === m.unpacked
        ? `This build without its maps is ${m.unpacked} B, the same as dist/chrome as scripts/size-budget.mjs measures it.`
        : `This build without its maps is ${m.unpacked} B, dist/chrome ${distUnpacked} B: NOT the same (see the problem above).`;
  const sentence =
    `The unpacked Chrome build is ${kb(m.unpacked)} KB, ${gap > 0 ? `${kb(gap)} KB over` : `${kb(-gap)} KB under`} the 500 KB goal. ` +
    `Libraries: ${kb(libraries)} KB (${share(libraries, m.unpacked)}); the wallet's own code: ${kb(ownCode)} KB (${share(ownCode, m.unpacked)}); ` +
    `the other rows (styles, pages, icons, manifest, loader, chunk glue): ${kb(rest)} KB. ${way} ` +
    `The measured floor, the build without every feature marked *, is ${kb(floor)} KB. ` +
    "Own code only: the library bytes only a removed feature uses, and its share of the chunk glue, would go too and are not counted. " +
    sameAsDist;
  const detail = [
    '## Size by part (section 4)',
    '',
    'Every byte of the unpacked Chrome build by where it comes from: each emitted .js through its source map (a build like',
    "dist/chrome's with hidden maps, the maps not counted), other files whole. Libraries by npm package; the wallet's own code by",
    'feature (the path rules: PART_RULES in bench/size-parts.ts). * = a feature the product promises that the core (keys, balances, send, receive) works without: what 500 KB would cost. KB = 1024 bytes.',
    '',
    markdownTable(['part', 'KB', 'share of unpacked'], rows),
    '',
    sentence,
  ].join('\n');
  const overGoal =
    gap > 0
      ? `${kb(m.unpacked)} KB, ${kb(gap)} KB over: libraries ${kb(libraries)} KB, the wallet's own code ${kb(ownCode)} KB, the rest ${kb(rest)} KB; ` +
        `without the features the core works without (${removable.map((p) => p.part.split(' (')[0]).join(', ')}) the measured floor is ${kb(floor)} KB. ` +
        SIZE_WORK_DONE
      : undefined;
  return { detail, problems, ...(overGoal ? { overGoal } : {}) };
}

/** dist/chrome's unpacked bytes as scripts/size-budget.mjs measures them, or why there are none. */
function distChromeUnpacked(): { unpacked?: number; error?: string } {
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'size-budget.mjs'), '--json'], { cwd: ROOT, encoding: 'utf8' });
  const json = JSON.parse(r.stdout) as { error?: string; measured?: { target: string; unpacked: number }[] };
  const unpacked = json.measured?.find((x) => x.target === 'chrome')?.unpacked;
  return unpacked === undefined ? { error: json.error ?? 'no chrome measurement' } : { unpacked };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dist = distChromeUnpacked();
  const r = sizePartsReport(measureChromeBuildByPart(console.log), dist.unpacked);
  console.log(`\n${r.detail}\n`);
  if (dist.error) console.log(`Not compared with dist/chrome: ${dist.error}`);
  for (const p of r.problems) console.log(`Problem: ${p}`);
  if (r.problems.length > 0) process.exitCode = 1;
}

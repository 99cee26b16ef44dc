// Section 2: UTXO hex strings, as getUTXOs returns them (0x + bytes + 4-byte checksum), decoded
// and summed into per-asset balances. Ours: UtxoReader, as getAllUtxos reads pages (checks each
// checksum, decodes strictly).
// avalanchejs: what its own ChainApi.getUTXOs does with each string (hexToBuffer + codec unpack;
// it reads past the checksum without checking it), then the amount of every TransferOutput.
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sha256 } from '@noble/hashes/sha2.js';
import { utils, Utxo as AjsUtxo } from '@avalabs/avalanchejs';
import { byteKey, toHex } from '../src/core/bytes.js';
import { amountOf, encodeUtxo, type Utxo } from '../src/core/codec/index.js';
import { UtxoReader } from '../src/core/node/utxo-reader.js';
import { fromApiHex, toApiHex } from '../src/core/encoding.js';
import { makeOwners } from '../src/core/tx/context.js';
import { ctx, KEYS, OTHER_ASSET, utxoOf } from './fixtures.js';
import { compare, fmtBytes, fmtMs, fmtRatio, fmtStats } from './measure.js';
import type { Row } from './report.js';

/**
 * `count` UTXO hex strings, deterministic: mostly AVAX, one in ten another asset, one in twenty a
 * 2-of-2 multisig, owners spread over the 20 bench keys, amounts all different.
 */
export function utxoHexes(count: number): string[] {
  const single = KEYS.map((k) => makeOwners([k.shortId]));
  const pair = makeOwners([KEYS[0]!.shortId, KEYS[1]!.shortId], 2);
  const out: string[] = new Array<string>(count);
  for (let i = 0; i < count; i++) {
    const owners = i % 20 === 7 ? pair : single[i % single.length]!;
    const asset = i % 10 === 3 ? OTHER_ASSET : ctx.avaxAssetID;
    const bytes = encodeUtxo(utxoOf(`decode ${i}`, 1_000_000n + BigInt(i), owners, asset, i % 4), 'avm');
    // The same text as toApiHex, made with Buffer: flat strings, as JSON.parse hands them over
    // (a string built by += is a rope that the first reader has to flatten, which would bill
    // the decoder for the generator's work), and quick to make for 100,000 UTXOs.
    const sum = sha256(bytes).subarray(28);
    out[i] = '0x' + Buffer.from(bytes).toString('hex') + Buffer.from(sum).toString('hex');
  }
  if (out[0] !== toApiHex(encodeUtxo(utxoOf('decode 0', 1_000_000n, single[0]!, ctx.avaxAssetID, 0), 'avm'))) {
    throw new Error('bench UTXO hex differs from toApiHex');
  }
  return out;
}

/** What a wallet keeps after reading a page: the decoded UTXOs and the balance per asset (hex ID). */
export interface Decoded<U> {
  utxos: U[];
  balances: Map<string, bigint>;
}

export function decodeOurs(hexes: readonly string[]): Decoded<Utxo> {
  const reader = new UtxoReader('avm');
  const utxos: Utxo[] = new Array<Utxo>(hexes.length);
  // As WalletEngine.balances: the reader shares one array per asset ID, so by that array first.
  const sums = new Map<string, { assetID: Uint8Array; total: bigint }>();
  const byArray = new Map<Uint8Array, { assetID: Uint8Array; total: bigint }>();
  for (let i = 0; i < hexes.length; i++) {
    const u = reader.read(hexes[i]!).utxo;
    utxos[i] = u;
    let sum = byArray.get(u.assetID);
    if (!sum) {
      const key = byteKey(u.assetID);
      sum = sums.get(key);
      if (!sum) sums.set(key, (sum = { assetID: u.assetID, total: 0n }));
      byArray.set(u.assetID, sum);
    }
    sum.total += amountOf(u.output);
  }
  return { utxos, balances: new Map([...sums.values()].map((s) => [toHex(s.assetID), s.total])) };
}

const avmManager = utils.getManagerForVM('AVM');

export function decodeAvalanchejs(hexes: readonly string[]): Decoded<AjsUtxo> {
  const utxos: AjsUtxo[] = new Array<AjsUtxo>(hexes.length);
  const balances = new Map<string, bigint>();
  for (let i = 0; i < hexes.length; i++) {
    const u = avmManager.unpack(utils.hexToBuffer(hexes[i]!), AjsUtxo);
    utxos[i] = u;
    // Keyed by hex, not by getAssetId()'s CB58: the cheapest key avalanchejs offers.
    const key = utils.bufferToHex(u.assetId.toBytes());
    const out = u.output;
    balances.set(key, (balances.get(key) ?? 0n) + (utils.isTransferOut(out) ? out.amount() : 0n));
  }
  return { utxos, balances };
}

/** Both must agree on every balance, or the comparison means nothing. */
export function sameBalances(a: Map<string, bigint>, b: Map<string, bigint>): boolean {
  const norm = (m: Map<string, bigint>): string =>
    [...m].map(([k, v]) => `${k.replace(/^0x/, '').toLowerCase()}=${v}`).sort().join(',');
  return norm(a) === norm(b);
}

/** Total characters of the hex strings: the input the node sends (bytes/s is over these). */
export function hexBytes(hexes: readonly string[]): number {
  let n = 0;
  for (const h of hexes) n += h.length;
  return n;
}

// ---- the section runner ----

export interface HeapResult {
  which: string;
  count: number;
  peak: number;
  retained: number;
}

/** Peak heap in a child process with --expose-gc (see heap-child.ts). */
function heapRun(which: 'ours' | 'avalanchejs', count: number): HeapResult {
  const child = join(dirname(fileURLToPath(import.meta.url)), 'heap-child.ts');
  const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', child, which, String(count)], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 1024 * 1024,
  });
  return JSON.parse(out.trim().split('\n').pop()!) as HeapResult;
}

export interface DecodeSectionResult {
  rows: Row[];
  problems: string[];
  /** Ours ÷ avalanchejs speed per size, for the notes. */
  speedups: number[];
  /** Ours ÷ avalanchejs retained heap for 100,000 UTXOs. */
  retainedRatio: number;
  /** Per size: the median time of the checksums alone, beside ours and avalanchejs'. */
  checksumFloors: ChecksumFloor[];
}

export interface ChecksumFloor {
  count: number;
  ms: number;
  oursMs: number;
  refMs: number;
}

const SIZES = [
  { count: 10_000, budget: { warmup: 3, minSamples: 15, maxSamples: 100, budgetMs: 4_000 } },
  { count: 100_000, budget: { warmup: 1, minSamples: 7, maxSamples: 30, budgetMs: 0 } },
];
export const TARGET = 3;
/** Retained heap for 100,000 decoded UTXOs kept in memory: at most this share of avalanchejs'. */
export const RETAINED_TARGET = 0.5;

export async function decodeSection(log: (msg: string) => void): Promise<DecodeSectionResult> {
  const rows: Row[] = [];
  const problems: string[] = [];
  const speedups: number[] = [];
  const checksumFloors: ChecksumFloor[] = [];
  const all = utxoHexes(Math.max(...SIZES.map((s) => s.count)));
  for (const { count, budget } of SIZES) {
    const hexes = all.slice(0, count);
    const bytes = hexBytes(hexes);
    if (!sameBalances(decodeOurs(hexes).balances, decodeAvalanchejs(hexes).balances)) {
      problems.push(`decoding ${count} UTXOs: the two libraries disagree on a balance`);
    }
    // The checksums alone: sha256 of each UTXO's bytes (made untimed), nothing else. No reader
    // that verifies them can be faster, so avalanchejs ÷ this is the best ratio within reach.
    const payloads = hexes.map((h) => fromApiHex(h));
    const checksums = (): unknown => payloads.map((b) => sha256(b));
    const r = await compare({ ours: () => decodeOurs(hexes), ref: () => decodeAvalanchejs(hexes), checksums }, budget);
    // Judged on the ratio the row shows: the median of per-round ratios (contenders interleaved).
    const speedup = r.pairRatios('ref', 'ours').median;
    speedups.push(speedup);
    checksumFloors.push({ count, ms: r.stats.checksums.median, oursMs: r.stats.ours.median, refMs: r.stats.ref.median });
    const rate = (ms: number): string => `${(bytes / (ms / 1000) / 1e6).toFixed(1)} MB/s`;
    log(`decode ${count}: ours ${fmtMs(r.stats.ours.median)} (${rate(r.stats.ours.median)}), avalanchejs ${fmtMs(r.stats.ref.median)} (${rate(r.stats.ref.median)})`);
    rows.push({
      section: '2',
      case: `decode + sum ${count.toLocaleString('en-US')} UTXO hex strings (${(bytes / 1e6).toFixed(1)} MB of hex)`,
      ours: `${fmtStats(r.stats.ours)}; ${rate(r.stats.ours.median)}`,
      reference: `avalanchejs ${fmtStats(r.stats.ref)}; ${rate(r.stats.ref.median)}`,
      ratio: r.pairRatios('ref', 'ours').median >= 1 ? `${fmtRatio(r.pairRatios('ref', 'ours'))} faster` : `${fmtRatio(r.pairRatios('ref', 'ours'))}: SLOWER`,
      limit: `≥ ${TARGET}× faster`,
      met: speedup >= TARGET ? 'yes' : 'no',
      ...(count === SIZES[0]!.count
        ? { note: 'MB/s is over the hex text as the node sends it (0x + 2 chars per byte + checksum). Ours verifies each checksum; avalanchejs, like its own getUTXOs, does not.' }
        : {}),
    });
  }
  const count = 100_000;
  log(`peak heap for ${count} UTXOs (child processes)…`);
  const ours = heapRun('ours', count);
  const ref = heapRun('avalanchejs', count);
  rows.push({
    section: '2',
    case: `heap decoding ${count.toLocaleString('en-US')} UTXOs and keeping them`,
    ours: `${fmtBytes(ours.peak)} peak, ${fmtBytes(ours.retained)} retained`,
    reference: `avalanchejs ${fmtBytes(ref.peak)} peak, ${fmtBytes(ref.retained)} retained`,
    ratio: `ours = ${fmtRatio(ours.retained / ref.retained)} theirs retained (${fmtRatio(ours.peak / ref.peak)} peak)`,
    limit: `retained ≤ ${RETAINED_TARGET}× theirs`,
    met: ours.retained <= RETAINED_TARGET * ref.retained ? 'yes' : 'no',
    note: 'Heap = V8 heapUsed + ArrayBuffer backing stores. Peak: highest value sampled after each 1,000 UTXOs, above a baseline taken after GC with the hex strings loaded; retained: after a final GC, with every decoded UTXO still held. Each library in its own child process (node --expose-gc --import tsx bench/heap-child.ts).',
  });
  return { rows, problems, speedups, checksumFloors, retainedRatio: ours.retained / ref.retained };
}

#!/usr/bin/env node
// `npm run size:check`: measures the built extension (dist/chrome, dist/firefox; run `npm run build`
// first) and fails when any measured size is more than 10% over the budget in bench/size-budget.json,
// or over the project's hard limits (LIMITS below: the whole unpacked extension, popup JS gzip).
// Growing past the budget is allowed only on purpose: raise the numbers in bench/size-budget.json,
// with a new `reason`, in the same commit as the growth.
//
// `--update "REASON"` rewrites bench/size-budget.json with the sizes of the current dist/ and that
// reason: the deliberate raise, to be committed with the change that grew the extension.
//
// `--json` prints every measurement (also zip size and raw JS bytes, which have no budget) for
// bench/run.ts and exits 0: one definition of "popup JS" and "background JS" for both.
//
// Plain Node, no dependencies, so CI can run it right after the build.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateRawSync, gzipSync } from 'node:zlib';
import { walk } from './lib/files.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BUDGET_FILE = join(ROOT, 'bench', 'size-budget.json');
export const TARGETS = ['chrome', 'firefox'];

/** The rule: fail above budget × 1.10. Not in the JSON, so it cannot drift with a budget raise. */
export const GROWTH_ALLOWED = 0.1;
/**
 * Hard limits, in KB as scripts/build.mjs prints them (1 KB = 1024 bytes). The target for the
 * unpacked extension is 500 KB; the P-Chain v1.15 codec (every staking, subnet and L1 tx type,
 * decoded, checked and described for approvals: +31 KB) put it at 518 KB, the lying-node proofs
 * and the outbox at 532 KB, and the background split by domain with the honest popup (one review
 * step, plain-word errors, the node banner, rounded amounts: +18 KB) at 551 KB, the approval's
 * account of what a site's tx does to the wallet (per asset, owners labelled, warnings: +9 KB) at
 * 562 KB, and per-site chains, site limits by registrable domain (a 3 KB suffix table) and every
 * page request answered (+12 KB) at 581 KB, staking in the wallet (#22: the validator list,
 * delegations, validations, auto-renew changes, the stake book and rewards, the rules in words:
 * +39 KB, all background) at 620 KB, and C-Chain tokens (#21: token reads, decoded calls and
 * permits, simulation, log scans, allowances, speed up / cancel, the approval's decoded views:
 * +46 KB, background +37, approval window +8) at 668 KB, the staking screens (+27 KB, a chunk the
 * popup loads only when Stake is opened) at 695 KB, the token screens (+22 KB, loaded on demand)
 * at 718 KB, and the security review's fixes of the token code (typed data signed as shown, permits
 * refused unless decoded, approvals in the simulation, spam-proof log lists, look-alike scripts, local
 * hosts refused for NFT metadata: +8 KB) at 726 KB, and the popup split per screen (its first load
 * 48.5 → 18.7 KB gzip, the other screens fetched once Home is painted: +5 KB of chunk headers and
 * imports) with the signing check's key binding (+1.5 KB) at 743 KB, and the content script on the
 * browser's own runtime instead of webextension-polyfill (−10 KB; the polyfill stays in the
 * background) at 733 KB: the limit follows it down to 740 KB (room for a fix, not for a feature). Fixes from
 * audits of staking, moves and the site provider (Import now reviewed and signing what was reviewed, a
 * move whose import fee rose finished from there, a stopped validator resumable, site limits: +7 KB)
 * took it to 743 KB: the limit to 745 KB. Fixes from audits of the vault, balances and sends (the
 * account list reconciled with the vault, a restarted network told by its first blocks, per-account
 * refreshes, u64-safe input selection, contract recipients on C, approvals bound to their chain:
 * +11 KB) took it to 754 KB: the limit to 755 KB. Fixes from audits of moves, staking, tokens and
 * the popup's words and focus (moves resumed for every account and network, stakes recorded before
 * they are sent, allowances the node could not read kept, look-alike and zero-value token transfers,
 * focus kept on screen, a custom network's Helicon time read: +5 KB) took it to 759 KB: the limit to
 * 765 KB. Fixes from audits of the site bridge, keys, activity and a lying node (an X/P tx called
 * failed kept in the way of the next send, keys zeroed on lock, fee weight and gas ceilings, used
 * accounts found on restore, "start again with a private key", receipts per asset and activity
 * kept apart from spam, pages back from the back/forward cache, approval sizes: +12 KB, less 5 KB
 * of packed word list and icons) took it to 766 KB: the limit to 770 KB. Fixes from audits of sends,
 * staking, tokens and the popup's honesty (a review bound to the inputs it was estimated for, a
 * validator's fee checked against its own staking tx, a failed move's export kept in the way, the
 * fee that is not covered said as such, copy, focus and names for keyboard and screen-reader use:
 * +8 KB) took it to 774 KB: the limit to 780 KB. Fixes from audits of the vault, the site bridge,
 * balances and the asset studio (MetaMask's personal_sign order, eth_coinbase, personal_ecRecover,
 * typed data v3, funds another key can also spend shown apart, C-Chain receipts and their note, a
 * page asking in a loop held off: +5 KB, less the NFT metadata fetch) took it to 779 KB: the limit
 * to 790 KB. Fixes from audits of moves, staking, networks, sends, tokens and Activity (fees and Max
 * asked again when a fee rose, token transfers dated, scans said incomplete, a network with
 * undecided sends asked about before removal, speed-up reviews in the token's words, focus kept:
 * +11.6 KB) took it to 790.6 KB: the limit to 800 KB. Fixes from audits of moves, staking, sites and
 * the asset studio (fees within the reviewed fee, a re-priced C-Chain import, the approval window's
 * re-arm, proofs of mint rights and rewards: +9 KB) took it to 799.7 KB, and two guards against paying
 * twice or otherwise than reviewed (a send's review naming the same send just made, a mint bound to
 * its reviewed mint right: +2 KB) to 801.8 KB: the limit to 805 KB. Fixes from audits of keys and
 * restore, moves, sites and staking (change kept within a restore's reach, an undecided tx's funds
 * kept from new sends, one move's export at a time, a sign-in for another site warned of, a custom
 * entry on Mainnet named so, stakes judged by the chain's time, a damaged account cache rebuilt:
 * +2.1 KB) took it to 805.3 KB: the limit to 810 KB. Fixes from audits of moves, sites, staking,
 * the asset studio and stored data (+2.5 KB, 0.8 KB of it bought back by writing repeated errors
 * and a warning once) took it from 809.9 to 811.6 KB, and terser run before rolldown's minifier
 * (vite.config.ts terserPass: -5.5 KB) to 806.1 KB: the limit kept at 810 KB. Fixes from audits of
 * restore, sends and the asset studio took it to 809.9 KB (Chrome); Firefox's build, without the
 * polyfill's Chrome wrappers (vite.config.ts firefoxOwnBrowser: -10.3 KB), to 799.7 KB. A site's
 * added chain held to a well-known chain ID's own name and coin, and no coin reading as AVAX off
 * Avalanche (a payment read "5 AVAX" while it sent 5 ether), with staking and outbox fixes, took it
 * to 810.9 KB (Chrome): the limit to 811 KB. A site's auto-renewed validation and its changes timed
 * as the wallet's own (never re-sent once too late, a change held to the cycle it was approved in)
 * took it to 811.8 KB: the limit to 812 KB. Fixes from audits of moves, keys, networks and C-Chain
 * sends, balances and the site bridge (a node's own words kept out of every main text, a nonce gap
 * filled, a move's review naming the same move just made, Permit2's allowances listed and revoked,
 * a site's fee cap under the base fee given way, limits per page of frames: +3.3 KB) took it to
 * 815.0 KB: the limit to 816 KB. Fixes from audits of the builders, the asset studio, sends and
 * the popup (an NFT mint's "Minted before", a trial run's and a revert's words under Details,
 * P-Chain locks judged no later than an hour past the clock, Max said to be one tx's, a create
 * asset's review naming this account, exact amounts by keyboard and unique names, a token scan a
 * flood cannot stop, spam contracts sharing the room in turns: +5.7 KB) took it to 820.6 KB: the
 * limit to 821 KB. Fixes from audits of moves, staking, keys and restore (a damaged journal record
 * skipped whole, a move not completed on one read of atomic memory, a send racing a move's export
 * refused, a site's delegation told its validator's terms, a locked restore telling another phrase
 * from the one stored, other X assets left without a fee said: +4.9 KB) took it to 825.4 KB: the
 * limit to 826 KB. Fixes from audits of the site bridge, the session and moves (node reads of a
 * site in turns, the lock state and the wallet's chains kept from sites not connected, frames held
 * off with their page, the idle lock and the lock marker after a clock set back, a move's wait for
 * funds ended when they show, an uptime not reported said so: +2.5 KB) took it to 827.9 KB: the
 * limit to 829 KB, filled by the next fixes (828.96 KB). A fix from hostile reviews of what a
 * node says of a tx (what a tx taken as accepted spent is noted, and the tx taken back when a node
 * lists it again, so its funds never count as both staked and spendable: +1.9 KB) took it to
 * 830.8 KB: the limit to 831 KB. Its review's fixes (a taken-back tx held in the outbox, staked
 * nowhere, its change left out of a read listing its inputs: +1.1 KB) took it to 831.9 KB: the
 * limit to 832 KB. The next review's fixes (a take-back marked on its Activity item, a held one
 * replaced by the next send, a finished move's export never taken back, every kept spender of an
 * input known, and their own review's fixes: +3.1 KB) took it to 834.9 KB: the limit to 835 KB. A move's record keeping its export's inputs
 * (a finished move counted once through any network entry) and a tx that spends nothing followed
 * to its end (+0.7 KB) took it to 835.7 KB: the limit to 836 KB. What an X-Chain operation consumes
 * counted as spent, judged by the keys that signed for it (a signature recovery), and the engine's
 * read checks in a class of their own (+0.9 KB) took it to 836.5 KB: the limit to 837 KB. A refused
 * site tx kept in a send's way only through inputs a send could select (recorded at signing, scoped by
 * asset and lock) and told in words (+1.6 KB) took it to 838.1 KB: the limit to 839 KB. A site's swap
 * judged by what the user signed for (a refusal of it was answered as sent) and a site's X-Chain tx
 * checked against the chain's form rules before the user is asked (+1.2 KB) took it to 839.3 KB:
 * the limit to 840 KB. A refused site tx that no send can take the place of kept and watched, so a
 * run of it is listed, and a site's export that ran told to the next send (+0.7 KB), took it to
 * 840.0 KB: the limit to 841 KB. Removing an account in Settings (what it costs said, the password
 * asked, refused while its sends or moves are unfinished), a permit read from its declared fields
 * only, and a site's request locking a wallet idle past its time (+2.6 KB) took it to 842.6 KB: the
 * limit to 843 KB; its review's fixes (the phrase's accounts kept, a removed account's storage and
 * key dropped at once, focus after a removal: +0.8 KB) and the second review's (+0.5 KB) to 843.8 KB:
 * the limit to 844 KB. Each account's name its own (checked as typed, and in the background with
 * Unicode forms and invisible characters aside; names the wallet gives numbered), a removed key's
 * signer refused in words, and the site's signing key read in AccountEngines (+1.4 KB) took it to
 * 845.2 KB: the limit to 846 KB. Helicon's gas-per-byte floor for a site's C-Chain tx, each
 * network's name its own, and names told apart where two forms or rows can show at once (+1.4 KB)
 * took it to 846.6 KB: the limit to 847 KB. Of the background's 360 KB, 100 KB are libraries
 * (@noble/curves 32, micro-eth-signer 29, micro-packed 26, @noble/secp256k1 8): the curve code is
 * in twice. What keeps it above 500 KB is the wallet's own code for staking, tokens and approvals: the
 * bench's "Size by part" (bench/size-parts.ts) gives every byte to a library or a feature.
 */
export const LIMITS = { unpacked: 847 * 1024, popupJsGzip: 60 * 1024 };
/** The budgeted measurements, per target. */
export const BUDGET_KEYS = ['unpacked', 'popupJsGzip', 'backgroundJsGzip'];

function isRemote(url) {
  return /^[a-z][a-z0-9+.-]*:|^\/\//i.test(url);
}

/** A reference from a file inside `root`: "/x" is from the extension root, "./x" from the file. */
function resolveRef(root, fromFile, ref) {
  const path = ref.startsWith('/') ? join(root, ref) : resolve(dirname(fromFile), ref);
  return path.startsWith(root + sep) && existsSync(path) ? path : undefined;
}

/**
 * JS a page or worker loads before it can run: its entry scripts and everything they import
 * statically (dynamic import() is loaded later, on demand, and is not counted).
 */
function staticClosure(root, entries) {
  const seen = new Set();
  const queue = [...entries];
  while (queue.length > 0) {
    const file = queue.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    const code = readFileSync(file, 'utf8');
    // Minified ESM: import"./a.js"; import{x}from"./b.js"; export{y}from"./c.js"; (with or without spaces).
    for (const m of code.matchAll(/\b(?:import|export)\s*(?:[\w$*{}\s,]*?\s*from\s*)?["']([^"']+\.m?js)["']/g)) {
      const dep = isRemote(m[1]) ? undefined : resolveRef(root, file, m[1]);
      if (dep) queue.push(dep);
    }
  }
  return [...seen].sort();
}

function pageEntries(root, htmlRel) {
  const htmlPath = join(root, htmlRel);
  if (!existsSync(htmlPath)) return [];
  const html = readFileSync(htmlPath, 'utf8');
  const refs = [
    ...[...html.matchAll(/<script\b[^>]*\bsrc\s*=\s*["']([^"']+)["']/gi)].map((m) => m[1]),
    ...[...html.matchAll(/<link\b[^>]*\brel\s*=\s*["']modulepreload["'][^>]*\bhref\s*=\s*["']([^"']+)["']/gi)].map((m) => m[1]),
  ];
  return refs.filter((r) => !isRemote(r)).map((r) => resolveRef(root, htmlPath, r)).filter(Boolean);
}

function jsSize(root, files) {
  let raw = 0;
  let gzip = 0;
  for (const f of files) {
    const bytes = readFileSync(f);
    raw += bytes.length;
    // Per file, zlib's default level: what scripts/build.mjs prints, and how a server would send it.
    gzip += gzipSync(bytes).length;
  }
  return { raw, gzip, files: files.map((f) => relative(root, f)) };
}

let zipCli;
function hasZipCli() {
  zipCli ??= spawnSync('zip', ['-v'], { stdio: 'ignore' }).status === 0;
  return zipCli;
}

/**
 * Bytes of the zip a store upload would be. With the `zip` CLI: `zip -r -X -q` (deflate, level 6,
 * no extra attributes). Without it: every file deflated with zlib at level 6 plus the zip format's
 * fixed headers (local 30 B + central 46 B + name twice per entry, 22 B end record), which is what
 * zip -X writes around the same deflate streams, give or take a few bytes.
 */
function zipSize(root) {
  if (hasZipCli()) {
    const dir = mkdtempSync(join(tmpdir(), 'xpc-size-'));
    try {
      const out = join(dir, 'ext.zip');
      const r = spawnSync('zip', ['-r', '-X', '-q', out, '.'], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
      if (r.status !== 0) throw new Error(`zip failed: ${r.stderr?.toString() ?? r.status}`);
      return { bytes: statSync(out).size, method: 'zip CLI (zip -r -X, deflate level 6)' };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  let bytes = 22;
  const dirs = new Set();
  for (const file of walk(root)) {
    const name = relative(root, file).split(sep).join('/');
    const data = readFileSync(file);
    const deflated = deflateRawSync(data, { level: 6 }).length;
    bytes += 30 + 46 + 2 * name.length + Math.min(deflated, data.length);
    for (let d = dirname(name); d !== '.'; d = dirname(d)) dirs.add(`${d}/`);
  }
  for (const d of dirs) bytes += 30 + 46 + 2 * d.length;
  return { bytes, method: 'estimate: zlib deflate level 6 per file + zip headers (no zip CLI found)' };
}

/** Every size of one built target. */
export function measureTarget(target, distRoot = join(ROOT, 'dist')) {
  const root = join(distRoot, target);
  const manifestPath = join(root, 'manifest.json');
  if (!existsSync(manifestPath)) throw new Error(`no ${relative(ROOT, manifestPath)}: run \`npm run build\` first`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const files = walk(root);
  const unpacked = files.reduce((n, f) => n + statSync(f).size, 0);
  const popupPage = manifest.action?.default_popup;
  const popup = jsSize(root, staticClosure(root, popupPage ? pageEntries(root, popupPage) : []));
  const bg = manifest.background ?? {};
  const bgEntries = [bg.service_worker, ...(bg.scripts ?? [])].filter(Boolean).map((f) => resolveRef(root, manifestPath, f)).filter(Boolean);
  const background = jsSize(root, staticClosure(root, bgEntries));
  return {
    target,
    files: files.length,
    unpacked,
    zip: zipSize(root),
    popupJs: popup,
    backgroundJs: background,
    popupJsGzip: popup.gzip,
    backgroundJsGzip: background.gzip,
  };
}

export function readBudget(file = BUDGET_FILE) {
  const budget = JSON.parse(readFileSync(file, 'utf8'));
  if (typeof budget.reason !== 'string' || budget.reason.trim() === '') throw new Error(`${relative(ROOT, file)}: "reason" must say why the budget is what it is`);
  for (const t of TARGETS) {
    for (const k of BUDGET_KEYS) {
      if (!Number.isInteger(budget.bytes?.[t]?.[k]) || budget.bytes[t][k] <= 0) {
        throw new Error(`${relative(ROOT, file)}: bytes.${t}.${k} must be a positive integer`);
      }
    }
  }
  return budget;
}

/** One row per target × budgeted key, plus the hard limits; `ok` false fails the check. */
export function checkAll(measured, budget) {
  const rows = [];
  for (const m of measured) {
    for (const key of BUDGET_KEYS) {
      const allowed = Math.floor(budget.bytes[m.target][key] * (1 + GROWTH_ALLOWED));
      rows.push({ target: m.target, what: key, bytes: m[key], budget: budget.bytes[m.target][key], allowed, rule: 'budget +10%', ok: m[key] <= allowed });
    }
    for (const [key, limit] of Object.entries(LIMITS)) {
      rows.push({ target: m.target, what: key, bytes: m[key], budget: limit, allowed: limit - 1, rule: 'hard limit', ok: m[key] < limit });
    }
  }
  return rows;
}

function printTable(rows) {
  const pct = (r) => `${r.bytes >= r.budget ? '+' : ''}${((100 * (r.bytes - r.budget)) / r.budget).toFixed(1)}%`;
  const header = ['target', 'measure', 'bytes', 'budget/limit', 'change', 'max allowed', 'rule', 'result'];
  const body = rows.map((r) => [r.target, r.what, String(r.bytes), String(r.budget), pct(r), String(r.allowed), r.rule, r.ok ? 'ok' : 'FAIL']);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells) => cells.map((c, i) => (i >= 2 && i <= 5 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ').trimEnd();
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const b of body) console.log(line(b));
}

/** Writes the measured sizes as the new budget, with the reason for the change. */
function updateBudget(file, measured, reason) {
  if (!reason || reason.trim() === '' || reason.startsWith('--')) {
    console.error('size-budget: --update needs a reason: --update "why the extension is allowed to be this big now"');
    process.exit(1);
  }
  const old = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  const bytes = {};
  for (const m of measured) bytes[m.target] = Object.fromEntries(BUDGET_KEYS.map((k) => [k, m[k]]));
  writeFileSync(file, JSON.stringify({ ...old, reason: reason.trim(), bytes }, null, 2) + '\n');
  console.log(`size-budget: wrote ${relative(ROOT, file)}`);
  for (const m of measured) {
    for (const k of BUDGET_KEYS) console.log(`  ${m.target} ${k}: ${old.bytes?.[m.target]?.[k] ?? '(none)'} -> ${m[k]}`);
  }
}

function main() {
  const json = process.argv.includes('--json');
  // --budget FILE: check against another budget file (to try a raise, or to test this script).
  const at = process.argv.indexOf('--budget');
  const budgetFile = at > 0 && process.argv[at + 1] ? resolve(process.argv[at + 1]) : BUDGET_FILE;
  let measured;
  try {
    measured = TARGETS.map((t) => measureTarget(t));
  } catch (e) {
    if (json) console.log(JSON.stringify({ error: e.message }));
    else console.error(`size-budget: ${e.message}`);
    process.exit(json ? 0 : 1);
  }
  const update = process.argv.indexOf('--update');
  if (update > 0) {
    updateBudget(budgetFile, measured, process.argv[update + 1]);
    return;
  }
  let budget;
  try {
    budget = readBudget(budgetFile);
  } catch (e) {
    console.error(`size-budget: ${e.message}`);
    process.exit(1);
  }
  const rows = checkAll(measured, budget);
  if (json) {
    console.log(JSON.stringify({ measured, budget, rows, growthAllowed: GROWTH_ALLOWED, limits: LIMITS }, null, 2));
    return;
  }
  console.log(`size-budget: dist/ against ${relative(ROOT, budgetFile)} (fails above budget +${GROWTH_ALLOWED * 100}% or at a hard limit)`);
  console.log(`budget reason: ${budget.reason}\n`);
  printTable(rows);
  const failed = rows.filter((r) => !r.ok);
  if (failed.length > 0) {
    console.error(`\nsize-budget: FAILED (${failed.length} over). If the growth is intended, raise bench/size-budget.json in the same commit and give the reason.`);
    process.exit(1);
  }
  console.log('\nsize-budget: OK');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();

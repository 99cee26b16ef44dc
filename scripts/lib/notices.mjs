// THIRD-PARTY-NOTICES.txt: the licence notices of the npm packages whose code the extension ships.
// Made at build time (vite.config.ts, thirdPartyNotices) from the module IDs of what got bundled:
// each module under node_modules/ gives its package, whose package.json (name, version, licence)
// and LICENSE file are read. Packages under one licence text are listed together, each set with
// its copyright lines, and the text follows once; MPL-2.0 code gets the licence's notice and where
// its licence and source are, not the 15 KB text. Sorted, no dates, no paths: the same bundle
// gives the same bytes. scripts/build.mjs checks the result (checkNotices).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const NOTICES_FILE = 'THIRD-PARTY-NOTICES.txt';

/**
 * The dependency Firefox's build does without (vite.config.ts, firefoxOwnBrowser): there it would
 * only hand back Firefox's own `browser`. Its notices need not name it (scripts/build.mjs).
 */
export const NOT_IN_FIREFOX = 'webextension-polyfill';

/** Licences given by notice and address instead of their text (MPL-2.0's Exhibit A does so). */
const BY_ADDRESS = { 'MPL-2.0': 'https://mozilla.org/MPL/2.0/' };
const NM = '/node_modules/';

/** The npm package a module ID is part of (name and folder), or undefined for the wallet's own and virtual modules. */
export function packageOf(id) {
  const path = id.replace(/\\/g, '/').replace(/[?#].*$/, '');
  if (path.startsWith('\0')) return undefined;
  const at = path.lastIndexOf(NM);
  if (at < 0) return undefined;
  const parts = path.slice(at + NM.length).split('/');
  const n = parts[0]?.startsWith('@') ? 2 : 1;
  if (parts.length <= n) return undefined;
  const name = parts.slice(0, n).join('/');
  return { name, dir: path.slice(0, at + NM.length) + name };
}

/** A package's name, version, licence, source address and licence file, from its folder. */
export function readPackage(dir) {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  if (typeof pkg.license !== 'string' || pkg.license === '') {
    throw new Error(`${pkg.name}: package.json has no "license": its notice cannot be written`);
  }
  const file = readdirSync(dir).filter((f) => /^(?:licen[cs]e|copying)(?:\.(?:md|txt))?$/i.test(f)).sort()[0];
  const repo = typeof pkg.repository === 'string' ? pkg.repository : pkg.repository?.url;
  return {
    name: pkg.name,
    version: pkg.version,
    license: pkg.license,
    source: repo ? repo.replace(/^git\+/, '').replace(/^git:\/\//, 'https://').replace(/^http:/, 'https:').replace(/\.git$/, '') : undefined,
    text: file ? readFileSync(join(dir, file), 'utf8') : undefined,
  };
}

/** Every package the module IDs belong to, once per name and version, sorted. */
export function bundledPackages(moduleIds, read = readPackage) {
  const dirs = new Set();
  for (const id of moduleIds) {
    const p = packageOf(id);
    if (p) dirs.add(p.dir);
  }
  const byKey = new Map();
  for (const dir of dirs) {
    const pkg = read(dir);
    byKey.set(`${pkg.name}@${pkg.version}`, pkg);
  }
  return [...byKey.values()].sort((a, b) => cmp(a.name, b.name) || cmp(a.version, b.version));
}

function cmp(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * A licence file split into its copyright lines and its text: paragraphs on one line each, typographic
 * quotes as plain ones, the title line ("MIT License") left out, so one licence wrapped, quoted or
 * titled differently is one text.
 */
export function splitLicence(text) {
  const lines = text.replace(/\r\n?/g, '\n').replace(/[\u201c\u201d]/g, '"').replace(/[\u2018\u2019]/g, "'").split('\n');
  const copyright = [];
  const rest = [];
  for (const line of lines) {
    if (/^\s*(?:copyright\b|\(c\)|©)/i.test(line)) copyright.push(line.trim().replace(/\s+/g, ' '));
    else rest.push(line);
  }
  const paragraphs = rest.join('\n').split(/\n\s*\n/).map((p) => p.trim().replace(/\s+/g, ' ')).filter(Boolean);
  if (paragraphs[0] && /^(?:the\s+)?[\w.-]+\s+licen[cs]e(?:\s*\([\w.-]+\))?:?$/i.test(paragraphs[0])) paragraphs.shift();
  return { copyright, body: paragraphs.join('\n\n') };
}

/** The notices file for these packages (from bundledPackages); `project` names the wallet and its own licence, if any. */
export function renderNotices(packages, project) {
  const own = project.license ? ` is under the ${project.license} licence. It` : '';
  const out = [`${project.name} ${project.version}${own} contains code, minified, from these npm packages under their own licences.`];
  const groups = new Map();
  const byAddress = [];
  for (const pkg of packages) {
    const id = `${pkg.name} ${pkg.version}`;
    if (BY_ADDRESS[pkg.license]) {
      byAddress.push(
        `${id} is subject to the terms of the Mozilla Public License, v. 2.0 (${pkg.license}), at ${BY_ADDRESS[pkg.license]}. ` +
          `Its Source Code Form: https://www.npmjs.com/package/${pkg.name}/v/${pkg.version}${pkg.source ? ` and ${pkg.source}` : ''}.`,
      );
      continue;
    }
    if (!pkg.text) throw new Error(`${pkg.name}: no LICENSE file in its package: its notice cannot be written`);
    const { copyright, body } = splitLicence(pkg.text);
    const key = `${pkg.license}\n${body}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { license: pkg.license, body, holders: new Map() }));
    const who = copyright.join('\n');
    group.holders.set(who, [...(group.holders.get(who) ?? []), id]);
  }
  for (const g of [...groups.values()].sort((a, b) => cmp(a.license, b.license) || cmp(a.body, b.body))) {
    out.push(`== ${g.license} ==`);
    for (const [who, ids] of [...g.holders].sort((a, b) => cmp(a[1][0], b[1][0]))) out.push(who ? `${ids.join(', ')}\n${who}` : ids.join(', '));
    out.push(g.body);
  }
  if (byAddress.length > 0) out.push('== MPL-2.0 ==', ...byAddress);
  return `${out.join('\n\n')}\n`;
}

/** The "name version" of every package a notices file names (what scripts/build.mjs checks it against). */
export function readNoticesPackages(text) {
  const names = new Set();
  for (const m of text.matchAll(/(?:^|, )((?:@[\w.-]+\/)?[\w.-]+) (\d+\.\d+\.\d+[\w.+-]*)(?=,|\n| is subject)/gm)) names.add(`${m[1]} ${m[2]}`);
  return [...names].sort();
}

/**
 * scripts/build.mjs's check of a notices file (undefined: missing) against package-lock.json: it
 * names every package.json dependency at its locked version, and only packages the lock installs
 * for runtime (a devDependency in the bundle is a mistake too).
 */
export function checkNotices(text, dependencies, lock) {
  const problems = [];
  if (text === undefined) return [`${NOTICES_FILE} missing: the bundled packages' licence notices must ship with them`];
  const named = new Set(readNoticesPackages(text));
  const runtime = new Set();
  for (const [path, entry] of Object.entries(lock.packages ?? {})) {
    const at = path.lastIndexOf('node_modules/');
    if (at >= 0 && !entry.dev) runtime.add(`${path.slice(at + 'node_modules/'.length)} ${entry.version}`);
  }
  for (const name of Object.keys(dependencies ?? {}).sort()) {
    const id = `${name} ${lock.packages?.[`node_modules/${name}`]?.version}`;
    if (!named.has(id)) problems.push(`${NOTICES_FILE} does not name ${id}, a dependency (bundled, or not needed as one)`);
  }
  for (const id of named) if (!runtime.has(id)) problems.push(`${NOTICES_FILE} names ${id}, which package-lock.json does not install for runtime`);
  return problems;
}

#!/usr/bin/env node
// `npm run package`: builds the extension (scripts/build.mjs, with all its checks) and writes the
// store packages into release/ (git-ignored; emptied first):
//   xpc-wallet-<version>-chrome.zip   dist/chrome, manifest at the root (Chrome Web Store upload)
//   xpc-wallet-<version>-firefox.zip  dist/firefox (addons.mozilla.org upload)
//   xpc-wallet-<version>-source.zip   the tracked files a reviewer needs to rebuild it (BUILDING.md)
//   SHA256SUMS                        for `sha256sum -c SHA256SUMS`
// Reproducible: the same commit gives the same bytes in any clone (docs/packaging.md). Every zip is
// read back and must hold exactly the files it was made from. Needs a git checkout: the source zip
// is what git tracks, and every entry is dated with the commit's time.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { walk } from './lib/files.mjs';
import { readZip, writeZip } from './lib/zip.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const RELEASE = join(ROOT, 'release');
/** Tracked paths a reviewer does not need to build the extension: tests, benchmarks, CI, screenshots. */
const NOT_IN_SOURCE = ['test/', 'bench/', '.ci/', 'docs/screenshots/'];
const GIT_FILE = '100644';
const GIT_EXECUTABLE = '100755';

function fail(message) {
  console.error(`package: ${message}`);
  process.exit(1);
}

function git(...args) {
  const r = spawnSync('git', args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) {
    fail(`git ${args.join(' ')} failed (${(r.stderr || r.error?.message || '').trim()}); packaging needs a git checkout`);
  }
  return r.stdout;
}

function readJson(rel) {
  return JSON.parse(readFileSync(join(ROOT, rel), 'utf8'));
}

/** manifest.json, package-lock.json and CHANGELOG.md must all be at package.json's version. */
function checkVersion(version) {
  const problems = [];
  const manifest = readJson('manifest.json');
  if (manifest.version !== version) problems.push(`manifest.json is at ${manifest.version}`);
  const lock = readJson('package-lock.json');
  if (lock.version !== version || lock.packages?.['']?.version !== version) problems.push('package-lock.json is at another version (npm install)');
  const escaped = version.replace(/[.+]/g, '\\$&');
  const changelog = readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8');
  if (!new RegExp(`^## \\[${escaped}\\] - \\d{4}-\\d{2}-\\d{2}$`, 'm').test(changelog)) {
    problems.push(`CHANGELOG.md has no "## [${version}] - YYYY-MM-DD" entry`);
  }
  if (problems.length > 0) fail(`package.json is at ${version}, but ${problems.join('; ')}`);
}

function build() {
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) fail('the build failed; nothing packaged');
}

/** Every file of one built target, named from the target's folder (so the manifest is at the root). */
function distFiles(target) {
  const dir = join(ROOT, 'dist', target);
  return walk(dir).map((path) => ({ name: relative(dir, path).split(sep).join('/'), data: readFileSync(path) }));
}

/** The tracked files minus NOT_IN_SOURCE, as they are in the working tree, under one top folder. */
function sourceFiles(prefix) {
  const files = [];
  for (const line of git('ls-files', '--stage', '-z').split('\0').filter(Boolean)) {
    const [meta, path] = line.split('\t');
    const mode = meta.split(' ')[0];
    if (NOT_IN_SOURCE.some((p) => path.startsWith(p))) continue;
    if (mode !== GIT_FILE && mode !== GIT_EXECUTABLE) fail(`${path}: git mode ${mode} (a link or submodule) cannot go into the source zip`);
    let data;
    try {
      data = readFileSync(join(ROOT, path));
    } catch (err) {
      fail(`${path} is tracked but cannot be read (${err.code ?? err.message})`);
    }
    files.push({ name: `${prefix}/${path}`, data, executable: mode === GIT_EXECUTABLE });
  }
  return files;
}

/** Writes one zip and reads it back: it must hold exactly `files`, byte for byte. */
function pack(fileName, files, mtime) {
  const zip = writeZip(files, { mtime });
  const expected = new Map(files.map((f) => [f.name, f.data]));
  const entries = readZip(zip);
  const wrong = entries.filter((e) => !expected.get(e.name)?.equals(e.data));
  if (entries.length !== files.length || wrong.length > 0) {
    fail(`${fileName} does not hold what it was made from (${wrong.map((e) => e.name).join(', ') || 'entry count'})`);
  }
  writeFileSync(join(RELEASE, fileName), zip);
  return zip;
}

function main() {
  const { version } = readJson('package.json');
  checkVersion(version);
  const commit = git('rev-parse', 'HEAD').trim();
  const mtime = new Date(Number(git('log', '-1', '--format=%ct', 'HEAD').trim()) * 1000);
  const changed = git('status', '--porcelain').trim();

  build();

  const name = `xpc-wallet-${version}`;
  const mustHaveManifest = (files, which) => {
    if (!files.some((f) => f.name === 'manifest.json')) fail(`dist/${which} has no manifest.json at its root`);
    return files;
  };
  const packages = [
    [`${name}-chrome.zip`, mustHaveManifest(distFiles('chrome'), 'chrome')],
    [`${name}-firefox.zip`, mustHaveManifest(distFiles('firefox'), 'firefox')],
    [`${name}-source.zip`, sourceFiles(name)],
  ];
  rmSync(RELEASE, { recursive: true, force: true });
  mkdirSync(RELEASE);
  const sums = packages.map(([fileName, files]) => {
    const zip = pack(fileName, files, mtime);
    return { fileName, bytes: zip.length, files: files.length, sha256: createHash('sha256').update(zip).digest('hex') };
  });
  writeFileSync(join(RELEASE, 'SHA256SUMS'), sums.map((s) => `${s.sha256}  ${s.fileName}\n`).join(''));

  console.log(`\npackage: release/ for ${name} at commit ${commit.slice(0, 12)} (entries dated ${mtime.toISOString()})`);
  console.log(`  made with Node ${process.version} (zlib ${process.versions.zlib})`);
  const releaseNode = readFileSync(join(ROOT, '.nvmrc'), 'utf8').trim();
  if (process.version !== `v${releaseNode}`) {
    console.warn(`  note: releases are packaged with Node v${releaseNode} (.nvmrc): another Node's zlib may deflate to other bytes, the files inside are the same`);
  }
  for (const s of sums) {
    console.log(`  ${s.fileName.padEnd(34)} ${String(s.bytes).padStart(9)} bytes  ${String(s.files).padStart(4)} files  sha256 ${s.sha256}`);
  }
  if (changed !== '') {
    console.warn('\npackage: WARNING the working tree has uncommitted changes: these packages are not what the commit builds');
  }
  console.log('\npackage: OK');
}

main();

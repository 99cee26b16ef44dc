#!/usr/bin/env node
// `npm run build`: builds the extension for Chrome and Firefox (dist/chrome, dist/firefox), then
// checks each output: the manifest parses and fits its target, nothing is web-accessible, content
// scripts are classic scripts, HTML pages load only packaged scripts, no eval / new Function in
// any emitted JS, no source maps, THIRD-PARTY-NOTICES.txt names every runtime dependency and
// nothing else. Prints sizes. Exits non-zero when a build or a check fails.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import { gzipSync } from 'node:zlib';
import { walk } from './lib/files.mjs';
import { checkNotices, NOT_IN_FIREFOX, NOTICES_FILE } from './lib/notices.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const VITE_BIN = join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
const TARGETS = ['chrome', 'firefox'];

/** Code-from-strings patterns that must not appear in shipped JS. */
const FORBIDDEN_JS = [
  { name: 'eval(', re: /(?<![\w$.])eval\s*\(/g },
  { name: 'new Function(', re: /\bnew\s+Function\s*\(/g },
  { name: 'Function("…")', re: /(?<!new\s+)(?<![\w$.])Function\s*\(\s*["'`]/g },
  { name: 'setTimeout/setInterval with a string', re: /\bset(?:Timeout|Interval)\s*\(\s*["'`]/g },
];

function kb(bytes) {
  return `${(bytes / 1024).toFixed(2)} KB`;
}

function build(target) {
  const started = performance.now();
  const result = spawnSync(process.execPath, [VITE_BIN, 'build'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, XPC_TARGET: target, NODE_ENV: 'production' },
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) {
    console.error(`build: vite build for ${target} failed (${result.error?.message ?? `exit ${result.status}`})`);
    return false;
  }
  console.log(`build: ${target} built in ${seconds} s`);
  return true;
}

function verify(target, pkg) {
  const expectedVersion = pkg.version;
  const dir = join(ROOT, 'dist', target);
  const problems = [];
  const fail = (msg) => problems.push(msg);

  let manifest;
  try {
    manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
  } catch (err) {
    return { problems: [`manifest.json missing or not JSON: ${err.message}`], files: [] };
  }

  if (manifest.manifest_version !== 3) fail('manifest_version is not 3');
  if (manifest.version !== expectedVersion) {
    fail(`manifest version ${manifest.version} ≠ package.json version ${expectedVersion}`);
  }
  if ('web_accessible_resources' in manifest) fail('manifest has web_accessible_resources');

  const bg = manifest.background ?? {};
  if (target === 'chrome') {
    if (typeof bg.service_worker !== 'string') fail('chrome: background.service_worker missing');
    if ('scripts' in bg) fail('chrome: background.scripts present');
    if ('browser_specific_settings' in manifest) fail('chrome: browser_specific_settings present');
  } else {
    if (!Array.isArray(bg.scripts) || bg.scripts.length === 0) fail('firefox: background.scripts missing');
    if ('service_worker' in bg) fail('firefox: background.service_worker present');
    const gecko = manifest.browser_specific_settings?.gecko;
    if (!gecko?.id) fail('firefox: browser_specific_settings.gecko.id missing');
    if (!gecko?.strict_min_version) fail('firefox: gecko.strict_min_version missing');
    if (!gecko?.data_collection_permissions) fail('firefox: gecko.data_collection_permissions missing');
  }
  for (const file of [bg.service_worker, ...(bg.scripts ?? [])].filter(Boolean)) {
    if (!existsSync(join(dir, file))) fail(`background file ${file} not emitted`);
  }

  const scripts = manifest.content_scripts ?? [];
  const mainWorld = scripts.filter((cs) => cs.world === 'MAIN');
  if (mainWorld.length !== 1) fail(`expected exactly one MAIN-world content script, found ${mainWorld.length}`);
  for (const cs of scripts) {
    if (cs.run_at !== 'document_start') fail(`content script ${cs.js} does not run at document_start`);
    for (const file of cs.js ?? []) {
      const path = join(dir, file);
      if (!existsSync(path)) {
        fail(`content script ${file} not emitted`);
        continue;
      }
      const code = readFileSync(path, 'utf8');
      // Content scripts are classic scripts: a static import/export would be a syntax error here.
      try {
        new Script(code, { filename: file });
      } catch (err) {
        fail(`content script ${file} is not a standalone classic script: ${err.message}`);
      }
      if (/\bimport\s*\(/.test(code)) fail(`content script ${file} uses dynamic import()`);
    }
  }

  const notices = join(dir, NOTICES_FILE);
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8'));
  const shipped = Object.fromEntries(Object.entries(pkg.dependencies ?? {}).filter(([name]) => target !== 'firefox' || name !== NOT_IN_FIREFOX));
  for (const p of checkNotices(existsSync(notices) ? readFileSync(notices, 'utf8') : undefined, shipped, lock)) fail(p);

  const files = walk(dir);
  for (const path of files) {
    const rel = relative(dir, path);
    const ext = extname(path);
    if (ext === '.map') fail(`source map emitted: ${rel}`);
    if (ext === '.js' || ext === '.mjs') {
      const code = readFileSync(path, 'utf8');
      for (const { name, re } of FORBIDDEN_JS) {
        for (const m of code.matchAll(re)) {
          const context = code.slice(Math.max(0, m.index - 40), m.index + 40).replace(/\s+/g, ' ');
          fail(`${rel}: ${name} at offset ${m.index}: …${context}…`);
        }
      }
      if (/sourceMappingURL=/.test(code)) fail(`${rel}: has a sourceMappingURL comment`);
    }
    if (ext === '.html') {
      const html = readFileSync(path, 'utf8');
      for (const tag of html.match(/<script\b[^>]*>/gi) ?? []) {
        const src = /\bsrc\s*=\s*["']([^"']*)["']/i.exec(tag)?.[1];
        if (src === undefined) fail(`${rel}: inline <script> (blocked by the CSP)`);
        else if (isRemote(src)) fail(`${rel}: remote script ${src}`);
        else if (!existsSync(resolvePageRef(dir, rel, src))) fail(`${rel}: script ${src} not emitted`);
      }
    }
  }
  return { problems, files: files.map((path) => ({ path, rel: relative(dir, path) })) };
}

function isRemote(url) {
  return /^[a-z][a-z0-9+.-]*:|^\/\//i.test(url);
}

function resolvePageRef(dir, htmlRel, ref) {
  return ref.startsWith('/') ? join(dir, ref) : join(dir, dirname(htmlRel), ref);
}

/** JS a page loads up front (its module script and modulepreloads): raw and gzip bytes. */
function pageJs(dir, htmlRel) {
  const html = readFileSync(join(dir, htmlRel), 'utf8');
  const refs = [...html.matchAll(/\b(?:src|href)\s*=\s*["']([^"']+\.js)["']/gi)]
    .map((m) => m[1])
    .filter((ref) => !isRemote(ref) && existsSync(resolvePageRef(dir, htmlRel, ref)));
  let raw = 0;
  let gzip = 0;
  for (const ref of refs) {
    const bytes = readFileSync(resolvePageRef(dir, htmlRel, ref));
    raw += bytes.length;
    gzip += gzipSync(bytes).length;
  }
  return { raw, gzip, count: refs.length };
}

function report(target, files) {
  const dir = join(ROOT, 'dist', target);
  let total = 0;
  console.log(`\n${target}: dist/${target}`);
  for (const { path, rel } of files) {
    const bytes = statSync(path).size;
    total += bytes;
    if (extname(path) === '.js') {
      const gz = gzipSync(readFileSync(path)).length;
      console.log(`  ${rel.padEnd(44)} ${kb(bytes).padStart(10)}  gzip ${kb(gz).padStart(9)}`);
    }
  }
  console.log(`  ${'total (all files)'.padEnd(44)} ${kb(total).padStart(10)}  (${total} bytes, ${files.length} files)`);
  for (const { rel } of files.filter((f) => extname(f.rel) === '.html')) {
    const { raw, gzip, count } = pageJs(dir, rel);
    const label = `JS loaded by ${rel} (${count} files)`;
    console.log(`  ${label.padEnd(44)} ${kb(raw).padStart(10)}  gzip ${kb(gzip).padStart(9)}`);
  }
}

// --verify-only: check the existing dist folders without rebuilding.
const verifyOnly = process.argv.includes('--verify-only');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
let failed = false;
for (const target of verifyOnly ? [] : TARGETS) {
  if (!build(target)) {
    failed = true;
    break;
  }
}
if (!failed) {
  for (const target of TARGETS) {
    const { problems, files } = verify(target, pkg);
    report(target, files);
    if (problems.length > 0) {
      failed = true;
      console.error(`\n${target}: ${problems.length} problem(s):`);
      for (const p of problems) console.error(`  ✗ ${p}`);
    } else {
      console.log(`  ✓ checks passed`);
    }
  }
}
if (failed) {
  console.error('\nbuild: FAILED');
  process.exit(1);
}
console.log('\nbuild: OK');

// `npm run package` is reproducible: two clones of HEAD at different paths give byte-identical
// store zips, source zip and SHA256SUMS. Each store zip is exactly its dist/ folder as Info-ZIP's
// unzip extracts it; the source zip rebuilds the same extension without git, tests or CI; a version
// without its changelog entry, or out of step between the manifest and package.json, is refused.
// Uses no node; it is here because it builds (about 5 s a clone) and wants the machine to itself.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { walk } from '../../scripts/lib/files.mjs';
import { readZip } from '../../scripts/lib/zip.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const NAME = `xpc-wallet-${VERSION}`;
const OUTPUTS = [`${NAME}-chrome.zip`, `${NAME}-firefox.zip`, `${NAME}-source.zip`, 'SHA256SUMS'];

const work = realpathSync(mkdtempSync(join(tmpdir(), 'xpc-packages-')));
// Different depths and lengths, so nothing that depends on the clone's path can match by chance.
const clones = [join(work, 'a'), join(work, 'second', 'a-clone-with-a-longer-path')];
const [first, second] = clones as [string, string];

function run(cmd: string, args: string[], cwd: string): { status: number | null; out: string } {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0' } });
  if (r.error) throw new Error(`${cmd}: ${r.error.message}`);
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

function ok(cmd: string, args: string[], cwd: string): string {
  const { status, out } = run(cmd, args, cwd);
  if (status !== 0) throw new Error(`${cmd} ${args.join(' ')} in ${cwd} exited ${status}:\n${out}`);
  return out;
}

function linkNodeModules(dir: string): void {
  symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(dir, 'node_modules'), 'dir');
}

/** Every file below `dir` as relative name → bytes. */
function tree(dir: string): Map<string, Buffer> {
  return new Map(walk(dir).map((path) => [relative(dir, path).split(sep).join('/'), readFileSync(path)]));
}

function expectSameTree(actual: Map<string, Buffer>, expected: Map<string, Buffer>): void {
  expect([...actual.keys()].sort()).toEqual([...expected.keys()].sort());
  const differing = [...expected].filter(([name, data]) => !actual.get(name)?.equals(data)).map(([name]) => name);
  expect(differing).toEqual([]);
}

const release = (clone: string, file: string): Buffer => readFileSync(join(clone, 'release', file));
const packageLogs: string[] = [];

beforeAll(() => {
  const head = ok('git', ['rev-parse', 'HEAD'], ROOT).trim();
  for (const clone of clones) {
    mkdirSync(dirname(clone), { recursive: true });
    ok('git', ['clone', '--quiet', ROOT, clone], work);
    expect(ok('git', ['rev-parse', 'HEAD'], clone).trim()).toBe(head);
    linkNodeModules(clone);
    packageLogs.push(ok(process.execPath, ['scripts/package.mjs'], clone));
  }
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('npm run package in two clones of HEAD', () => {
  it('writes the three packages and SHA256SUMS, and calls a clean clone clean', () => {
    for (const clone of clones) expect(readdirSync(join(clone, 'release')).sort()).toEqual([...OUTPUTS].sort());
    for (const log of packageLogs) {
      expect(log).toContain('package: OK');
      expect(log).not.toContain('uncommitted changes');
    }
  });

  it.each(OUTPUTS)('%s is byte-identical in both', (file) => {
    expect(release(first, file).equals(release(second, file))).toBe(true);
  });

  it('SHA256SUMS checks with sha256sum -c', () => {
    const out = ok('sha256sum', ['-c', 'SHA256SUMS'], join(second, 'release'));
    for (const file of OUTPUTS.slice(0, 3)) expect(out).toContain(`${file}: OK`);
  });

  it('dates every entry with the commit time, sorts them, and embeds no clone or node_modules path', () => {
    const committed = Number(ok('git', ['log', '-1', '--format=%ct'], first).trim());
    const dosTime = new Date(Math.floor(committed / 2) * 2000).toISOString();
    for (const file of OUTPUTS.slice(0, 3)) {
      const entries = readZip(release(first, file));
      expect(new Set(entries.map((e) => e.mtime.toISOString()))).toEqual(new Set([dosTime]));
      const names = entries.map((e) => e.name);
      expect(names).toEqual([...names].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y))));
      const paths = [work, realpathSync(join(ROOT, 'node_modules'))];
      const withPath = entries.filter((e) => paths.some((p) => e.data.includes(p))).map((e) => e.name);
      expect(withPath).toEqual([]);
    }
  });
});

describe('the store packages', () => {
  it.each(['chrome', 'firefox'])('the %s zip extracts (unzip) to exactly the checked dist folder, manifest at the root', (target) => {
    const out = join(work, `unzipped-${target}`);
    ok('unzip', ['-q', join(first, 'release', `${NAME}-${target}.zip`), '-d', out], work);
    const files = tree(out);
    expect(files.has('manifest.json')).toBe(true);
    expectSameTree(files, tree(join(first, 'dist', target)));
    const manifest = JSON.parse(files.get('manifest.json')?.toString() ?? '{}') as { version?: string; browser_specific_settings?: unknown };
    expect(manifest.version).toBe(VERSION);
    expect('browser_specific_settings' in manifest).toBe(target === 'firefox');
  });
});

describe('the source zip', () => {
  const src = join(work, 'from-source');
  const top = join(src, NAME);

  beforeAll(() => {
    ok('unzip', ['-q', join(first, 'release', `${NAME}-source.zip`), '-d', src], work);
  });

  it('holds the tracked files a build needs, under one folder, executables kept executable', () => {
    expect(readdirSync(src)).toEqual([NAME]);
    const names = [...tree(top).keys()];
    for (const needed of ['package.json', 'package-lock.json', 'manifest.json', 'vite.config.ts', 'BUILDING.md', 'CHANGELOG.md', '.nvmrc', 'scripts/build.mjs']) {
      expect(names).toContain(needed);
    }
    expect(names.filter((n) => /^(test|bench|\.ci|docs\/screenshots)\//.test(n))).toEqual([]);
    expect(names.length).toBeGreaterThan(100);
    const modes = new Map(readZip(release(first, `${NAME}-source.zip`)).map((e) => [e.name, e.mode]));
    expect(modes.get(`${NAME}/scripts/install-node.sh`)).toBe(0o100755);
    expect(modes.get(`${NAME}/package.json`)).toBe(0o100644);
  });

  it('builds (npm run build, no git) the same files as the store zips hold', () => {
    linkNodeModules(top);
    expect(ok('npm', ['run', 'build'], top)).toContain('build: OK');
    for (const target of ['chrome', 'firefox']) expectSameTree(tree(join(top, 'dist', target)), tree(join(first, 'dist', target)));
  });
});

describe('npm run package refuses a version out of step', () => {
  const before = () => OUTPUTS.map((f) => release(first, f));

  it.each([
    ['CHANGELOG.md', (s: string) => s.replace(`## [${VERSION}]`, '## [0.0.0-not-this]'), /CHANGELOG\.md has no "## \[/],
    ['manifest.json', (s: string) => s.replace(`"version": "${VERSION}"`, '"version": "9.9.9"'), /manifest\.json is at 9\.9\.9/],
  ])('%s at another version: refused, release/ untouched', (file, change, reason) => {
    const path = join(first, file);
    const original = readFileSync(path, 'utf8');
    const changed = change(original);
    expect(changed).not.toBe(original);
    const kept = before();
    writeFileSync(path, changed);
    try {
      const { status, out } = run(process.execPath, ['scripts/package.mjs'], first);
      expect(status).not.toBe(0);
      expect(out).toMatch(reason);
      expect(out).not.toContain('build: OK');
    } finally {
      writeFileSync(path, original);
    }
    expect(before().every((b, i) => b.equals(kept[i] as Buffer))).toBe(true);
  });
});

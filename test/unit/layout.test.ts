// The house rules a newcomer relies on, checked on the tree itself: files stay small (or say why
// not), every documentation reference in a source comment resolves inside the repository, and the
// README's layout names every source file of the background and the core.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const MAX_LINES = 500;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

const sources = filesUnder(join(ROOT, 'src')).filter((f) => /\.(ts|tsx)$/.test(f));
const rel = (f: string): string => relative(ROOT, f).split('\\').join('/');
const read = (f: string): string => readFileSync(f, 'utf8');

describe('the layout', () => {
  it(`keeps every source file under ${MAX_LINES} lines, or names it with its reason in docs/architecture.md`, () => {
    const architecture = read(join(ROOT, 'docs/architecture.md'));
    const reasons = architecture.slice(architecture.indexOf('## Files over 500 lines'));
    const long = sources.filter((f) => read(f).split('\n').length > MAX_LINES).map(rel);
    expect(long.filter((f) => !reasons.includes(`\`${f}\``))).toEqual([]);
    // And the list names no file that has since become short.
    const named = [...reasons.matchAll(/`(src\/[^`]+)`/g)].map((m) => m[1]!);
    expect(named.filter((f) => !long.includes(f))).toEqual([]);
  });

  it('resolves every docs/… reference in a source comment to a file and, with §, to one of its headings', () => {
    const broken: string[] = [];
    for (const f of sources) {
      for (const m of read(f).matchAll(/docs\/([a-z-]+\.md)(?: (§[A-Za-z0-9]+))?/g)) {
        let doc: string;
        try {
          doc = read(join(ROOT, 'docs', m[1]!));
        } catch {
          broken.push(`${rel(f)}: docs/${m[1]}`);
          continue;
        }
        if (m[2] && !new RegExp(`^## ${m[2]}\\b`, 'm').test(doc)) broken.push(`${rel(f)}: docs/${m[1]} ${m[2]}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('points no source comment outside the repository', () => {
    const outside = sources.filter((f) => /\.\.\/shared\/(protocol|notes|node-src)|wire-format\.md|helicon-and-staking\.md/.test(read(f))).map(rel);
    expect(outside).toEqual([]);
  });

  it("names every file of src/background and src/core in the README's layout", () => {
    const readme = read(join(ROOT, 'README.md'));
    const layout = readme.slice(readme.indexOf('## Layout'), readme.indexOf('## Security model'));
    const words = new Set(layout.match(/[A-Za-z][\w-]*/g));
    const unnamed = sources
      .filter((f) => /^src\/(background|core)\//.test(rel(f)))
      // The codec and builder folders are named as folders; their files are listed there by role.
      .filter((f) => !/^src\/core\/(codec|tx)\//.test(rel(f)))
      .map((f) => rel(f).replace(/^.*\//, '').replace(/\.tsx?$/, ''))
      .filter((name) => !words.has(name));
    expect(unnamed).toEqual([]);
  });
});

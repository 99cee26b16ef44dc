// The store packages' zip writer (scripts/lib/zip.mjs): what it writes opens in Info-ZIP's unzip
// (the reader every Linux has; the stores' own readers are stricter about nothing we write), with
// entries sorted, one fixed date, fixed permissions, and the same bytes whatever order or machine
// the files came from. Its reader, which `npm run package` uses to check every package, refuses
// a damaged zip.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dosDateTime, readZip, writeZip, type ZipInput } from '../../scripts/lib/zip.mjs';

const MTIME = new Date('2026-11-25T04:40:12Z');
const FILES: ZipInput[] = [
  { name: 'src/popup/index.html', data: Buffer.from('<!doctype html>\n'.repeat(50)) },
  { name: 'manifest.json', data: Buffer.from('{"manifest_version":3}\n') },
  { name: 'scripts/run.sh', data: Buffer.from('#!/bin/sh\necho hi\n'), executable: true },
  { name: 'assets/noise.bin', data: randomBytes(4096) },
  { name: 'empty.txt', data: Buffer.alloc(0) },
  { name: 'docs/größe.md', data: Buffer.from('Größe\n') },
];

const work = mkdtempSync(join(tmpdir(), 'xpc-zip-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function unzip(args: string[]): string {
  const r = spawnSync('unzip', args, { encoding: 'utf8' });
  if (r.error) throw new Error(`this test needs Info-ZIP's unzip (apt-get install unzip): ${r.error.message}`);
  if (r.status !== 0) throw new Error(`unzip ${args.join(' ')} exited ${r.status}: ${r.stderr}${r.stdout}`);
  return r.stdout;
}

function saved(zip: Buffer, name = 'test.zip'): string {
  const path = join(work, name);
  writeFileSync(path, zip);
  return path;
}

describe('writeZip as a standard reader sees it', () => {
  const zip = writeZip(FILES, { mtime: MTIME });
  const path = saved(zip);

  it('passes unzip -t (every CRC and size checked)', () => {
    expect(unzip(['-t', path])).toContain('No errors detected');
  });

  it('lists entries sorted by name, all dated the given time, 0644 or 0755 for executables', () => {
    // zipinfo -T: "<mode> <ver> <os> <size> <type> <method> <yyyymmdd.hhmmss> <name>"
    const rows = unzip(['-Z', '-T', path])
      .split('\n')
      .filter((l) => /^[-d][rwx-]{9} /.test(l))
      .map((l) => {
        const f = l.split(/\s+/);
        return { mode: f[0], os: f[2], when: f[6], name: f.slice(7).join(' ') };
      });
    const names = FILES.map((f) => f.name).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    expect(rows.map((r) => r.name)).toEqual(names);
    expect(new Set(rows.map((r) => r.when))).toEqual(new Set(['20261125.044012']));
    expect(new Set(rows.map((r) => r.os))).toEqual(new Set(['unx']));
    for (const r of rows) expect(r.mode).toBe(r.name === 'scripts/run.sh' ? '-rwxr-xr-x' : '-rw-r--r--');
  });

  it('extracts every file byte for byte, the non-ASCII name included', () => {
    const out = join(work, 'extracted');
    unzip(['-q', '-o', path, '-d', out]);
    for (const f of FILES) expect(readFileSync(join(out, f.name)).equals(Buffer.from(f.data))).toBe(true);
  });

  it('reads back with readZip: same names, data, modes and date; random bytes stored, text deflated', () => {
    const entries = readZip(zip);
    expect(entries.map((e) => e.name)).toEqual(unzip(['-Z1', path]).trim().split('\n'));
    for (const f of FILES) {
      const e = entries.find((x) => x.name === f.name);
      expect(e?.data.equals(Buffer.from(f.data))).toBe(true);
      expect(e?.mode).toBe(f.executable ? 0o100755 : 0o100644);
      expect(e?.mtime.toISOString()).toBe(MTIME.toISOString());
    }
    expect(entries.find((e) => e.name === 'assets/noise.bin')?.method).toBe(0);
    expect(entries.find((e) => e.name === 'src/popup/index.html')?.method).toBe(8);
  });
});

describe('writeZip is deterministic', () => {
  it('gives the same bytes for the files in any order', () => {
    const a = writeZip(FILES, { mtime: MTIME });
    const b = writeZip([...FILES].reverse(), { mtime: MTIME });
    expect(a.equals(b)).toBe(true);
  });

  it('takes the date in UTC, in two-second steps, whatever the time zone', () => {
    // 04:40:12 → 4 << 11 | 40 << 5 | 12 / 2; 2026-11-25 → (2026 - 1980) << 9 | 11 << 5 | 25
    expect(dosDateTime(MTIME)).toEqual({ time: (4 << 11) | (40 << 5) | 6, date: (46 << 9) | (11 << 5) | 25 });
    expect(dosDateTime(new Date('2026-11-25T04:40:13Z'))).toEqual(dosDateTime(MTIME));
    const script = `import('${join(process.cwd(), 'scripts/lib/zip.mjs')}').then((z) => console.log(JSON.stringify(z.dosDateTime(new Date(${MTIME.getTime()})))))`;
    for (const tz of ['UTC', 'Pacific/Kiritimati', 'America/Los_Angeles']) {
      const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', env: { ...process.env, TZ: tz } });
      expect(JSON.parse(r.stdout)).toEqual(dosDateTime(MTIME));
    }
  });

  it('changes with the date', () => {
    expect(writeZip(FILES, { mtime: MTIME }).equals(writeZip(FILES, { mtime: new Date('2026-11-25T04:40:14Z') }))).toBe(false);
  });
});

describe('writeZip refuses what it cannot write safely', () => {
  it.each(['../evil', '/etc/passwd', 'a//b', 'a/./b', 'dir/', 'back\\slash', ''])('an unsafe name: %j', (name) => {
    expect(() => writeZip([{ name, data: Buffer.from('x') }], { mtime: MTIME })).toThrow(/unsafe entry name/);
  });

  it('two entries with one name', () => {
    const twice = [{ name: 'a.txt', data: Buffer.from('1') }, { name: 'a.txt', data: Buffer.from('2') }];
    expect(() => writeZip(twice, { mtime: MTIME })).toThrow(/two entries named a\.txt/);
  });

  it('a date a zip cannot hold', () => {
    expect(() => writeZip(FILES, { mtime: new Date('1979-12-31T23:59:59Z') })).toThrow(RangeError);
  });
});

describe('readZip refuses a damaged zip', () => {
  const zip = writeZip(FILES, { mtime: MTIME });

  it('a changed byte in stored data (CRC-32 mismatch)', () => {
    const damaged = Buffer.from(zip);
    const at = damaged.indexOf(Buffer.from('assets/noise.bin')) + 'assets/noise.bin'.length + 100;
    damaged[at] = (damaged[at] ?? 0) ^ 0xff;
    expect(() => readZip(damaged)).toThrow(/CRC-32 mismatch/);
  });

  it('a local header that disagrees with the central directory', () => {
    const damaged = Buffer.from(zip);
    damaged.writeUInt16LE(0x0002, 6); // the first local header's flags
    expect(() => readZip(damaged)).toThrow(/disagrees/);
  });

  it('a cut-off archive', () => {
    expect(() => readZip(zip.subarray(0, zip.length - 5))).toThrow(/end of central directory/);
  });
});

// THIRD-PARTY-NOTICES.txt (scripts/lib/notices.mjs): the build lists every npm package whose code
// the bundle holds, once, with its licence and copyright lines; one licence text is printed once
// for all its packages; MPL-2.0 code gets its notice and addresses; the same bundle gives the same
// bytes; and scripts/build.mjs's check refuses a missing file, a dependency left out and a
// package that is not a runtime one.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  bundledPackages,
  checkNotices,
  packageOf,
  readNoticesPackages,
  renderNotices,
  type BundledPackage,
} from '../../scripts/lib/notices.mjs';

const MIT_BODY = [
  'Permission is hereby granted, free of charge, to any person obtaining a copy',
  'of this software and associated documentation files (the "Software"), to deal',
  'in the Software without restriction.',
  '',
  'THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND.',
];
/** The same licence, titled, wrapped and quoted another way. */
const MIT_OTHER_FORM = [
  'Permission is hereby granted, free of charge, to any person obtaining a copy of this software and',
  'associated documentation files (the \u201cSoftware\u201d), to deal in the Software without restriction.',
  '',
  'THE SOFTWARE IS PROVIDED \u201cAS IS\u201d, WITHOUT WARRANTY OF ANY KIND.',
];

const FAKE: Record<string, BundledPackage> = {
  '/r/node_modules/preact': { name: 'preact', version: '11.2.0', license: 'MIT', source: undefined, text: ['MIT License', '', 'Copyright (c) 2015-present Jason Miller', '', ...MIT_BODY].join('\n') },
  '/r/node_modules/@noble/hashes': { name: '@noble/hashes', version: '2.4.0', license: 'MIT', source: undefined, text: ['The MIT License (MIT)', '', 'Copyright (c) 2022 Paul Miller', '', ...MIT_OTHER_FORM].join('\r\n') },
  '/r/node_modules/@noble/curves': { name: '@noble/curves', version: '2.4.0', license: 'MIT', source: undefined, text: ['Copyright (c) 2022 Paul Miller', '', ...MIT_BODY].join('\n') },
  '/r/node_modules/x/node_modules/@noble/curves': { name: '@noble/curves', version: '1.9.0', license: 'MIT', source: undefined, text: ['Copyright (c) 2021 Paul Miller', '', ...MIT_BODY].join('\n') },
  '/r/node_modules/isc-lib': { name: 'isc-lib', version: '1.0.0', license: 'ISC', source: undefined, text: 'ISC License\n\nCopyright (c) 2020 Someone\n\nPermission to use, copy, modify, and/or distribute this software is granted.\n' },
  '/r/node_modules/webextension-polyfill': { name: 'webextension-polyfill', version: '0.12.0', license: 'MPL-2.0', source: 'https://github.com/mozilla/webextension-polyfill', text: 'Mozilla Public License Version 2.0\n'.repeat(400) },
};
const read = (dir: string): BundledPackage => {
  const pkg = FAKE[dir];
  if (!pkg) throw new Error(`not faked: ${dir}`);
  return pkg;
};

/** A bundle's module IDs: several per package, the wallet's own, virtual ones, a nested copy. */
const IDS = [
  '/r/src/background/index.ts',
  '\0rolldown/runtime.js',
  '/@crx/manifest',
  '/r/node_modules/preact/dist/preact.module.js',
  '/r/node_modules/preact/hooks/dist/hooks.module.js',
  '/r/node_modules/@noble/hashes/sha2.js',
  '/r/node_modules/@noble/hashes/utils.js?commonjs-es-import',
  '/r/node_modules/@noble/curves/secp256k1.js',
  '/r/node_modules/x/node_modules/@noble/curves/abstract/weierstrass.js',
  '/r/node_modules/isc-lib/index.js',
  '/r/node_modules/webextension-polyfill/dist/browser-polyfill.js',
];
const PROJECT = { name: 'XPC Wallet', version: '0.1.0' };

describe('third-party notices', () => {
  it('finds the package of a module ID, or none for the wallet and virtual modules', () => {
    expect(packageOf('/r/node_modules/@scure/bip39/wordlists/english.js')).toEqual({ name: '@scure/bip39', dir: '/r/node_modules/@scure/bip39' });
    expect(packageOf('/r/node_modules/a/node_modules/bs58/src/esm/index.js?x=1')).toEqual({ name: 'bs58', dir: '/r/node_modules/a/node_modules/bs58' });
    expect(packageOf('C:\\r\\node_modules\\uqr\\dist\\index.mjs')).toEqual({ name: 'uqr', dir: 'C:/r/node_modules/uqr' });
    expect(packageOf('/r/src/popup/App.tsx')).toBeUndefined();
    expect(packageOf('\0rolldown/runtime.js')).toBeUndefined();
    expect(packageOf('/r/node_modules/@scope')).toBeUndefined();
  });

  it('lists each bundled package once, by name and version, sorted', () => {
    const ids = bundledPackages(IDS, read).map((p) => `${p.name} ${p.version}`);
    expect(ids).toEqual(['@noble/curves 1.9.0', '@noble/curves 2.4.0', '@noble/hashes 2.4.0', 'isc-lib 1.0.0', 'preact 11.2.0', 'webextension-polyfill 0.12.0']);
  });

  it('names every package with its copyright lines and prints each licence text once', () => {
    const text = renderNotices(bundledPackages(IDS, read), PROJECT);
    expect(readNoticesPackages(text)).toEqual(['@noble/curves 1.9.0', '@noble/curves 2.4.0', '@noble/hashes 2.4.0', 'isc-lib 1.0.0', 'preact 11.2.0', 'webextension-polyfill 0.12.0']);
    // One MIT text for four packages in three forms (wrapped, titled, CRLF, typographic quotes).
    expect(text.split('Permission is hereby granted').length - 1).toBe(1);
    expect(text).toContain('(the "Software"), to deal in the Software without restriction.');
    expect(text).not.toContain('MIT License');
    // Packages with the same copyright holders share their lines; others have their own.
    expect(text).toContain('@noble/curves 2.4.0, @noble/hashes 2.4.0\nCopyright (c) 2022 Paul Miller\n');
    expect(text).toContain('@noble/curves 1.9.0\nCopyright (c) 2021 Paul Miller\n');
    expect(text).toContain('preact 11.2.0\nCopyright (c) 2015-present Jason Miller\n');
    expect(text).toContain('== ISC ==\n\nisc-lib 1.0.0\nCopyright (c) 2020 Someone\n\nPermission to use, copy, modify');
    // MPL-2.0: the notice, the licence's address and where the source is; not its text.
    expect(text).toContain('webextension-polyfill 0.12.0 is subject to the terms of the Mozilla Public License, v. 2.0');
    expect(text).toContain('https://mozilla.org/MPL/2.0/');
    expect(text).toContain('https://www.npmjs.com/package/webextension-polyfill/v/0.12.0 and https://github.com/mozilla/webextension-polyfill');
    expect(text).not.toContain('Mozilla Public License Version 2.0');
    expect(text.length).toBeLessThan(1600);
    expect(text.startsWith('XPC Wallet 0.1.0 contains code')).toBe(true);
  });

  it('writes the same bytes whatever order the bundle listed its modules in', () => {
    const a = renderNotices(bundledPackages(IDS, read), PROJECT);
    const b = renderNotices(bundledPackages([...IDS].reverse(), read), PROJECT);
    expect(b).toBe(a);
  });

  it("names the wallet's own licence first when it has one", () => {
    expect(renderNotices([], { ...PROJECT, license: 'MIT' })).toBe('XPC Wallet 0.1.0 is under the MIT licence. It contains code, minified, from these npm packages under their own licences.\n');
  });

  it('refuses a package whose notice it cannot write', () => {
    const noFile = { ...FAKE['/r/node_modules/preact']!, text: undefined };
    expect(() => renderNotices([noFile], PROJECT)).toThrow(/preact: no LICENSE file/);
  });

  it("reads the real packages' licences from node_modules", () => {
    const root = join(import.meta.dirname, '..', '..', 'node_modules');
    const pkgs = bundledPackages([join(root, 'webextension-polyfill/dist/browser-polyfill.js'), join(root, '@noble/hashes/sha2.js')]);
    expect(pkgs.map((p) => [p.name, p.license])).toEqual([['@noble/hashes', 'MIT'], ['webextension-polyfill', 'MPL-2.0']]);
    const text = renderNotices(pkgs, PROJECT);
    expect(text).toMatch(/@noble\/hashes \d+\.\d+\.\d+\nCopyright \(c\) \d{4} Paul Miller/);
    expect(text).toContain('and https://github.com/mozilla/webextension-polyfill.');
  });

  describe("the build's check", () => {
    const lock = {
      packages: {
        '': {},
        'node_modules/preact': { version: '11.2.0' },
        'node_modules/@noble/hashes': { version: '2.4.0' },
        'node_modules/x/node_modules/@noble/curves': { version: '1.9.0' },
        'node_modules/vitest': { version: '4.1.12', dev: true },
      },
    };
    const deps = { preact: '11.2.0', '@noble/hashes': '2.4.0' };
    const good = renderNotices(bundledPackages(IDS.slice(0, 6), read), PROJECT);

    it('passes a file naming every dependency and only runtime packages', () => {
      expect(checkNotices(good, deps, lock)).toEqual([]);
    });

    it('refuses a missing file, a dependency left out, and a package not installed for runtime', () => {
      expect(checkNotices(undefined, deps, lock)).toEqual(['THIRD-PARTY-NOTICES.txt missing: the bundled packages\' licence notices must ship with them']);
      expect(checkNotices(good, { ...deps, bs58: '6.0.0' }, lock)).toEqual([expect.stringContaining('does not name bs58 undefined')]);
      const withDev = `${good}\nvitest 4.1.12\nCopyright (c) Someone\n`;
      expect(checkNotices(withDev, deps, lock)).toEqual([expect.stringContaining('names vitest 4.1.12, which package-lock.json does not install')]);
    });
  });
});

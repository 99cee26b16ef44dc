// Extension build. One manifest (./manifest.json, written for Chrome) and one config; the target
// browser comes from XPC_TARGET=chrome|firefox and each target gets its own output folder.
// Tests do not use this file (see vitest.config.ts).
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crx, type ManifestV3Export } from '@crxjs/vite-plugin';
import preact from '@preact/preset-vite';
import { minify } from 'terser';
import { build as viteBuild, defineConfig, type Plugin, type ResolvedConfig, type Rolldown } from 'vite';
import { bundledPackages, NOT_IN_FIREFOX, NOTICES_FILE, renderNotices } from './scripts/lib/notices.mjs';

type Manifest = Exclude<ManifestV3Export, Promise<unknown> | ((...args: never[]) => unknown)>;
type Target = 'chrome' | 'firefox';

const ROOT = dirname(fileURLToPath(import.meta.url));

/** Content scripts built as self-contained IIFEs: no loader, no web-accessible resources. */
const STANDALONE_CONTENT_SCRIPTS = ['src/inpage/index.ts', 'src/content/index.ts'];

export const GECKO_ID = 'wallet@xpcwallet.dev';
/** 140 is the first Firefox that knows data_collection_permissions (MAIN world needs 128). */
export const FIREFOX_MIN_VERSION = '140.0';

function readJson(file: string): unknown {
  return JSON.parse(readFileSync(resolve(ROOT, file), 'utf8'));
}

function targetFromEnv(): Target {
  const value = process.env.XPC_TARGET ?? 'chrome';
  if (value !== 'chrome' && value !== 'firefox') {
    throw new Error(`XPC_TARGET must be "chrome" or "firefox", got "${value}"`);
  }
  return value;
}

/**
 * Where the build goes and whether it has source maps. bench/size-parts.ts asks for a build with
 * maps (XPC_SOURCEMAP=1) in a folder of its own (XPC_OUT_DIR) to say which source each shipped byte
 * comes from; 'hidden' maps leave the JS byte for byte as shipped (no sourceMappingURL comment).
 * Maps never go into dist/: the default build is unchanged and scripts/build.mjs refuses maps there.
 */
function outputFromEnv(target: Target): { outDir: string; sourcemap: false | 'hidden' } {
  const outDir = process.env.XPC_OUT_DIR;
  const maps = process.env.XPC_SOURCEMAP === '1';
  if (maps && !outDir) throw new Error('XPC_SOURCEMAP=1 needs XPC_OUT_DIR: source maps are never written to dist/');
  return { outDir: outDir ? resolve(ROOT, outDir) : resolve(ROOT, 'dist', target), sourcemap: maps ? 'hidden' : false };
}

/**
 * Vite wraps each dynamic import (the popup's screens, components/Lazy.tsx) in a helper that
 * first adds the imported chunk's preloads and stylesheet to the page. There are none to add: JS
 * preloads are turned off for them (modulePreload below) and the one stylesheet (cssCodeSplit off)
 * is linked by both pages' HTML already, so the helper only ran the import, in 1.7 KB. Here it is
 * the import alone; a failed import rejects as before (Lazy.tsx offers "Try again").
 */
const PRELOAD_HELPER_ID = '\0vite/preload-helper.js';
function importWithoutPreload(): Plugin {
  return {
    name: 'xpc:import-without-preload',
    enforce: 'pre',
    load: (id) => (id === PRELOAD_HELPER_ID ? 'export const __vitePreload = (load) => load();' : undefined),
  };
}

/**
 * In Firefox, webextension-polyfill hands back the browser's own `browser` object: it wraps only
 * Chrome's `chrome` in promises. The Firefox build gets that object directly, without the 9 KB of
 * Chrome wrappers it would never run; the Chrome build keeps the polyfill.
 */
const FIREFOX_BROWSER_ID = '\0xpc/firefox-browser.js';
function firefoxOwnBrowser(target: Target): Plugin {
  return {
    name: 'xpc:firefox-own-browser',
    enforce: 'pre',
    resolveId: (id) => (target === 'firefox' && id === NOT_IN_FIREFOX ? FIREFOX_BROWSER_ID : undefined),
    load: (id) => (id === FIREFOX_BROWSER_ID ? 'export default globalThis.browser;' : undefined),
  };
}

/**
 * The manifest and the pages as the browser reads them, without what only a person reads: the
 * manifest's indentation, the pages' comments and the line breaks (with their indents) between
 * tags. A line break between two tags is no text the pages show: their body is one element
 * the app renders into.
 */
function compactTextFiles(): Plugin {
  return {
    name: 'xpc:compact-text-files',
    enforce: 'post',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        for (const file of Object.values(bundle)) {
          if (file.type !== 'asset' || typeof file.source !== 'string') continue;
          if (file.fileName === 'manifest.json') file.source = JSON.stringify(JSON.parse(file.source));
          else if (file.fileName.endsWith('.html')) file.source = file.source.replace(/<!--[\s\S]*?-->/g, '').replace(/>\s*\n\s*</g, '><');
        }
      },
    },
  };
}

/**
 * Terser over each chunk, before rolldown's own minifier (which runs after every renderChunk): the
 * two passes find more together than either alone, 5.6 KB less than rolldown's alone (terser alone
 * is larger: rolldown's short names for what chunks import from each other come with its minifier).
 * Three compress passes: 38 B less than two, for about 3 s more of build (more passes gain ~10 B).
 * Not hoist_funs: 0.8 KB less, but Chromium's cold start (the background's) 35–60 ms slower, in two
 * A/B runs of the bench's popup rows each way (2026-12-01).
 * Source maps chain through (bench/size-parts.ts). The standalone content scripts are crxjs's own
 * builds, with rolldown's pass only.
 */
function terserPass(): Plugin {
  return {
    name: 'xpc:terser-pass',
    apply: 'build',
    enforce: 'post',
    renderChunk: {
      order: 'post',
      async handler(code) {
        const out = await minify(code, { module: true, ecma: 2020, compress: { passes: 3 }, sourceMap: { asObject: true } });
        return { code: out.code ?? code, map: out.map as Rolldown.SourceMapInput };
      },
    },
  };
}

/** IDs of the modules a bundle's chunks hold code of (a module tree-shaken to nothing holds none). */
function renderedModuleIds(chunks: Iterable<Rolldown.OutputChunk | Rolldown.OutputAsset>): string[] {
  const ids: string[] = [];
  for (const c of chunks) {
    if (c.type === 'chunk') ids.push(...Object.entries(c.modules).filter(([, m]) => m.renderedLength > 0).map(([id]) => id));
  }
  return ids;
}

/**
 * THIRD-PARTY-NOTICES.txt (scripts/lib/notices.mjs) from the packages whose code this build ships.
 * crxjs bundles the standalone content scripts in builds of their own, out of this plugin's sight;
 * they are bundled here once more, the way crxjs does (same entry, IIFE, minify and target), for
 * their module IDs.
 */
function thirdPartyNotices(standalone: readonly string[]): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'xpc:third-party-notices',
    apply: 'build',
    configResolved: (resolved) => void (config = resolved),
    async generateBundle(_options, bundle) {
      const ids = renderedModuleIds(Object.values(bundle));
      for (const entry of standalone) {
        const out = await viteBuild({
          configFile: false,
          logLevel: 'silent',
          root: config.root,
          resolve: config.resolve,
          define: config.define,
          build: { write: false, lib: { entry: resolve(config.root, entry), formats: ['iife'], name: 'x' }, minify: config.build.minify, target: config.build.target },
        });
        ids.push(...renderedModuleIds((Array.isArray(out) ? out : [out as Rolldown.RolldownOutput]).flatMap((o) => o.output)));
      }
      const pkg = readJson('package.json') as { version: string; license?: string };
      const source = renderNotices(bundledPackages(ids), { name: 'XPC Wallet', version: pkg.version, license: pkg.license });
      this.emitFile({ type: 'asset', fileName: NOTICES_FILE, source });
    },
  };
}

/** The manifest for one target, derived from manifest.json. */
export function manifestFor(target: Target): Manifest {
  const manifest = readJson('manifest.json') as Manifest;
  const pkg = readJson('package.json') as { version: string };
  if (manifest.version !== pkg.version) {
    throw new Error(
      `manifest.json version ${manifest.version} differs from package.json version ${pkg.version}`,
    );
  }
  if (target === 'chrome') return manifest;

  const background = manifest.background;
  if (!background || !('service_worker' in background)) {
    throw new Error('manifest.json must declare background.service_worker');
  }
  const firefox: Manifest = {
    ...manifest,
    // Firefox runs MV3 backgrounds as event pages; same entry, still an ES module.
    background: { scripts: [background.service_worker], type: 'module' } as Manifest['background'],
    browser_specific_settings: {
      gecko: {
        id: GECKO_ID,
        strict_min_version: FIREFOX_MIN_VERSION,
        data_collection_permissions: { required: ['none'] },
      },
    },
  };
  delete firefox.minimum_chrome_version;
  return firefox;
}

export default defineConfig(() => {
  const target = targetFromEnv();
  const { outDir, sourcemap } = outputFromEnv(target);
  return {
    root: ROOT,
    plugins: [
      importWithoutPreload(),
      firefoxOwnBrowser(target),
      preact(),
      crx({
        manifest: manifestFor(target),
        browser: target,
        contentScripts: { standaloneFiles: STANDALONE_CONTENT_SCRIPTS },
      }),
      compactTextFiles(),
      terserPass(),
      thirdPartyNotices(STANDALONE_CONTENT_SCRIPTS),
    ],
    build: {
      outDir,
      emptyOutDir: true,
      sourcemap,
      minify: true,
      // One stylesheet for the popup and the approval window, linked by their HTML: no chunk
      // carries its own CSS to load (see importWithoutPreload).
      cssCodeSplit: false,
      target: 'es2022',
      // Every target browser supports <link rel=modulepreload>; skip the polyfill. A page's own
      // modules are preloaded from its HTML; a screen loaded later (components/Lazy.tsx) fetches its
      // few imports itself, from the extension's own files, instead of carrying a list of them.
      modulePreload: { polyfill: false, resolveDependencies: (_file, deps, { hostType }) => (hostType === 'html' ? deps : []) },
      rolldownOptions: {
        // The popup comes from the manifest; the approval window is opened by the background.
        input: { approval: resolve(ROOT, 'src/popup/approval.html') },
        // Small popup modules shared by several screens go into two chunks instead of one each
        // (each chunk costs its import and export lists in every screen that loads it): the form
        // parts (their checks, address, amount and password fields, fees), whose every screen
        // already loaded the checks; and the review with its status line. Only modules named here
        // are grouped (not their imports), so no screen loads a chunk it did not load before;
        // 'allow-extension' is what rolldown needs for that. The review chunk imports the popup's
        // entry chunk (modules they share live there): the approval window must not import it.
        preserveEntrySignatures: 'allow-extension',
        // The terser pass (terserPass) is most of the build's time, on purpose: no timing warning for it.
        checks: { bundlerTimings: false },
        output: {
          // No content hash in file names: an extension's files ship together in its package and
          // are never served from a cache an update could leave stale; the hash cost 9 bytes in
          // every import of a chunk.
          entryFileNames: 'assets/[name].js',
          chunkFileNames: 'assets/[name].js',
          assetFileNames: 'assets/[name].[ext]',
          codeSplitting: {
            includeDependenciesRecursively: false,
            groups: [
              { name: 'form', test: /src\/popup\/(?:checks\.ts|fees\.ts|components\/(?:AddressInput|AmountInput|PasswordFields|SentBefore)\.tsx)$/ },
              { name: 'review', test: /src\/popup\/components\/(?:Review|TxStatus)\.tsx$/ },
            ],
          },
        },
      },
    },
  };
});

// Every page request is answered (Chromium): a hostile page (fuzz/page.ts) sends seeded random
// requests (methods, argument shapes, params of any type, size, depth and encoding) through the
// built extension to the run's local node, and each must end in a result or a JSON-RPC error in
// bounded time. The seed is printed; XPC_FUZZ_SEED=<seed> replays the run.
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject } from 'vitest';
import { expectPageStillAnswered, fuzzRound, fuzzSeed, startFuzzPage, type FuzzServer } from './fuzz.js';
import { addAndSelectNode, createWallet } from './flow.js';
import { artifactPath, clearArtifacts, ConsoleLog, flowSteps, launchOrSaveLog, slug, Timings } from './artifacts.js';
import { browserExecutable, builtExtension, type Call, extensionIdOf, firstPing, launchChromiumWithExtension, removeDir, tempDir, walletCaller } from './harness.js';
import { type RpcProxy, startRpcProxy } from './loopback.js';
import { chromiumPidFor, killPids, processTree, within } from './processes.js';

const CHROMIUM = ['/usr/lib/chromium/chromium', '/usr/bin/chromium'];
const PREFIX = 'fuzz-chromium-';
type ExtensionPageGlobals = { chrome: { runtime: { sendMessage(message: unknown): Promise<unknown> } } };

describe('Chromium: every request a hostile page sends is answered', () => {
  const timings = new Timings();
  const log = new ConsoleLog();
  const seed = fuzzSeed();
  let profileDir: string | undefined;
  let context: BrowserContext | undefined;
  let browserPid: number | undefined;
  let proxy: RpcProxy | undefined;
  let server: FuzzServer | undefined;
  let page: Page | undefined;
  let call: Call;

  const step = flowSteps(timings, async (failed) => {
    const name = `${PREFIX}FAILED-${slug(failed)}`;
    if (page && !page.isClosed()) await page.screenshot({ path: artifactPath(`${name}.png`) }).catch(() => undefined);
    console.error(`[e2e chromium fuzz] step "${failed}" failed (seed ${seed}); console log: ${log.save(`${name}.console.log`)}`);
  });

  beforeAll(() =>
    launchOrSaveLog(log, PREFIX, 'chromium fuzz', async () => {
      clearArtifacts(PREFIX);
      const ext = builtExtension('chrome');
      proxy = await startRpcProxy(inject('nodeUrl'));
      server = await startFuzzPage();
      profileDir = tempDir('xpc-e2e-chromium-fuzz-');
      const started = Date.now();
      context = await launchChromiumWithExtension(browserExecutable('Chromium', CHROMIUM), profileDir, ext.dir);
      browserPid = chromiumPidFor(profileDir);
      context.on('console', (m) => log.add(m.page() ? `page ${m.type()}` : `worker ${m.type()}`, m.text().slice(0, 500)));
      const extensionId = await extensionIdOf(context);
      timings.add('launch', Date.now() - started);
      const popup = await context.newPage();
      await popup.goto(`chrome-extension://${extensionId}/${ext.popupPath}`, { waitUntil: 'load' });
      const send = (message: unknown): Promise<unknown> => popup.evaluate((m) => (globalThis as unknown as ExtensionPageGlobals).chrome.runtime.sendMessage(m), message);
      call = walletCaller(send, log);
      expect(await firstPing(send, log)).toEqual({ ok: true, version: ext.manifest.version });
    }),
  );

  afterAll(async () => {
    const tree = browserPid !== undefined ? processTree(browserPid) : [];
    if (context) await within(context.close(), 15_000, 'closing Chromium').catch((e: unknown) => log.add('test', String(e)));
    const killed = await killPids(tree);
    if (killed.length > 0) console.warn(`[e2e chromium fuzz] killed leftover processes ${killed.join(', ')}`);
    removeDir(profileDir);
    await proxy?.close();
    await server?.close();
    log.save(`${PREFIX}console.log`);
    console.log(timings.summary('chromium fuzz'));
  });

  step('a wallet on the local node, and the fuzz page with the provider', async () => {
    await createWallet(call);
    await addAndSelectNode(call, proxy!.url);
    page = await context!.newPage();
    await page.goto(server!.url, { waitUntil: 'load' });
    await page.waitForFunction(() => document.documentElement.dataset['fuzz'] === 'ready');
  });

  step('300 seeded random requests: each gets a result or a JSON-RPC error within 20 s', async () => {
    await fuzzRound((fn, arg) => page!.evaluate(fn as (arg: unknown) => unknown, arg), call, log, seed, 'Chromium');
  }, 90_000);

  step('the wallet still answers the page, and no request got the site connected', async () => {
    await expectPageStillAnswered((fn, arg) => page!.evaluate(fn as (arg: unknown) => unknown, arg));
  });
});

// Every page request is answered (Firefox ESR): the same seeded hostile page as
// chromium-fuzz.e2e.test.ts (fuzz/page.ts), through the built add-on to the run's local node.
// Each request must end in a result or a JSON-RPC error in bounded time. The seed is printed;
// XPC_FUZZ_SEED=<seed> replays the run.
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, inject } from 'vitest';
import { FirefoxWithExtension, sendFrom } from './firefox.js';
import { expectPageStillAnswered, fuzzRound, fuzzSeed, startFuzzPage, type FuzzServer } from './fuzz.js';
import { addAndSelectNode, createWallet } from './flow.js';
import { artifactPath, clearArtifacts, ConsoleLog, flowSteps, launchOrSaveLog, slug, Timings } from './artifacts.js';
import { type Call, firstPing, walletCaller } from './harness.js';
import { type RpcProxy, startRpcProxy } from './loopback.js';

const PREFIX = 'fuzz-firefox-';

describe('Firefox ESR: every request a hostile page sends is answered', () => {
  const timings = new Timings();
  const log = new ConsoleLog();
  const firefox = new FirefoxWithExtension('firefox-fuzz', log);
  const seed = fuzzSeed();
  let proxy: RpcProxy | undefined;
  let server: FuzzServer | undefined;
  let page: Page | undefined;
  let call: Call;

  const step = flowSteps(timings, async (failed) => {
    const name = `${PREFIX}FAILED-${slug(failed)}`;
    if (page && !page.isClosed()) await page.screenshot({ path: artifactPath(`${name}.png`) }).catch(() => undefined);
    firefox.saveStdout(`${name}.stdout.log`);
    console.error(`[e2e firefox fuzz] step "${failed}" failed (seed ${seed}); console log: ${log.save(`${name}.console.log`)}`);
  });

  beforeAll(() =>
    launchOrSaveLog(log, PREFIX, 'firefox fuzz', async () => {
      clearArtifacts(PREFIX);
      proxy = await startRpcProxy(inject('nodeUrl'));
      server = await startFuzzPage();
      timings.add('launch', await firefox.launch());
      const popup = await firefox.openPopup();
      const send = sendFrom(popup);
      call = walletCaller(send, log);
      expect(await firstPing(send, log)).toEqual({ ok: true, version: firefox.extension.manifest.version });
    }),
  );

  afterAll(async () => {
    await firefox.close(`${PREFIX}stdout.log`);
    await proxy?.close();
    await server?.close();
    log.save(`${PREFIX}console.log`);
    console.log(timings.summary('firefox fuzz'));
  });

  step('a wallet on the local node, and the fuzz page with the provider', async () => {
    await createWallet(call);
    await addAndSelectNode(call, proxy!.url);
    page = await firefox.browser!.newPage();
    page.on('pageerror', (e) => log.add('page error', e instanceof Error ? e.message : String(e)));
    await page.goto(server!.url, { waitUntil: 'load' });
    await page.waitForFunction(() => document.documentElement.dataset['fuzz'] === 'ready');
  });

  step('300 seeded random requests: each gets a result or a JSON-RPC error within 20 s', async () => {
    await fuzzRound((fn, arg) => page!.evaluate(fn as (arg: unknown) => unknown, arg), call, log, seed, 'Firefox');
  }, 90_000);

  step('the wallet still answers the page, and no request got the site connected', async () => {
    await expectPageStillAnswered((fn, arg) => page!.evaluate(fn as (arg: unknown) => unknown, arg));
  });
});

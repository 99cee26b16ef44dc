// The built Chrome extension (dist/chrome) in Debian's Chromium, headless, with a fresh profile,
// against the run's local node. The test drives the background the way the popup does: runtime
// messages from a page of the extension. Halfway it stops the service worker (DevTools protocol,
// ServiceWorker.stopAllWorkers) to check that the unlocked session comes back from
// storage.session in the restarted worker.
import { type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject } from 'vitest';
import type { AccountView, BalancesView } from '../../src/shared/messages.js';
import { unpackedExtensionId } from '../../scripts/extension-id.mjs';
import { addAndSelectNode, createWallet, expectFunded, expectSessionResumed, fundAndRefresh, lockAndUnlock, settledBalances } from './flow.js';
import { artifactPath, clearArtifacts, ConsoleLog, domQuiet, flowSteps, slug, Timings, launchOrSaveLog } from './artifacts.js';
import {
  browserExecutable,
  builtExtension,
  type BuiltExtension,
  type Call,
  extensionIdOf,
  ExtensionWorkerWatch,
  firstPing,
  launchChromiumWithExtension,
  removeDir,
  tempDir,
  walletCaller,
} from './harness.js';
import { type RpcProxy, startRpcProxy, startWebPage, type WebPage } from './loopback.js';
import { chromiumPidFor, killPids, processTree, within } from './processes.js';

// The binary itself first: the /usr/bin/chromium wrapper execs it, but adds Debian's own flags
// (among them its own --load-extension list) and prints a shell warning.
const CHROMIUM = ['/usr/lib/chromium/chromium', '/usr/bin/chromium'];

type ExtensionPageGlobals = { chrome: { runtime: { sendMessage(message: unknown): Promise<unknown> } } };

describe('Chromium: the built extension against the local node', () => {
  const timings = new Timings();
  const log = new ConsoleLog();
  let ext: BuiltExtension;
  let profileDir: string | undefined;
  let context: BrowserContext | undefined;
  let browserPid: number | undefined;
  let proxy: RpcProxy | undefined;
  let web: WebPage | undefined;
  let popup: Page | undefined;
  let extensionId = '';
  let call: Call;
  let account: AccountView;
  let snapshot: BalancesView;

  /** Reloads the popup (it renders the state it finds on load), lets it settle, saves a screenshot. */
  const screenshot = async (name: string, options: { balances?: boolean } = {}): Promise<void> => {
    await popup!.reload({ waitUntil: 'load' });
    await popup!.evaluate(domQuiet, { quietMs: 500, maxMs: 5_000 });
    if (options.balances) {
      // The popup refreshes the balances on load and polls while that runs (every second).
      await settledBalances(call);
      await popup!.evaluate(domQuiet, { quietMs: 1_200, maxMs: 5_000 });
    }
    await popup!.screenshot({ path: artifactPath(`chromium-${name}.png`), fullPage: true });
  };

  const step = flowSteps(timings, async (failed) => {
    const name = `chromium-FAILED-${slug(failed)}`;
    if (popup && !popup.isClosed()) await popup.screenshot({ path: artifactPath(`${name}.png`), fullPage: true }).catch(() => undefined);
    const path = log.save(`${name}.console.log`);
    console.error(`[e2e chromium] step "${failed}" failed; screenshot and console log: ${path.replace(/\.console\.log$/, '.*')}`);
  });

  /** Starts the browser with the extension; on failure the console log so far is saved. */
  const launch = async (): Promise<void> => {
    // Its own artifacts only: chromium-ui-* are the popup-UI test's (chromium-ui.e2e.test.ts).
    for (const prefix of ['chromium-popup-', 'chromium-FAILED-', 'chromium-console']) clearArtifacts(prefix);
    ext = builtExtension('chrome');
    const executablePath = browserExecutable('Chromium', CHROMIUM);
    proxy = await startRpcProxy(inject('nodeUrl'));
    profileDir = tempDir('xpc-e2e-chromium-');
    const started = Date.now();
    context = await launchChromiumWithExtension(executablePath, profileDir, ext.dir);
    browserPid = chromiumPidFor(profileDir);
    log.add('test', `chromium pid ${browserPid ?? 'not found'}, launched in ${Date.now() - started} ms`);
    // Pages' and the service worker's console (the worker's also after a restart).
    context.on('console', (m) => {
      const page = m.page();
      log.add(page ? `page ${m.type()}` : `worker ${m.type()}`, page ? `${m.text()} (${page.url()})` : m.text());
    });
    context.on('weberror', (e) => log.add('page error', e.error().stack ?? e.error().message));
    extensionId = await extensionIdOf(context);
    log.add('test', `extension ${extensionId}, service worker up ${Date.now() - started} ms after launch`);
    timings.add('launch', Date.now() - started);
  };

  beforeAll(() => launchOrSaveLog(log, 'chromium-', 'chromium', launch));

  afterAll(async () => {
    // The driver's own close first; then whatever is left of the browser's process tree, by PID.
    const tree = browserPid !== undefined ? processTree(browserPid) : [];
    if (context) await within(context.close(), 15_000, 'closing Chromium').catch((e: unknown) => log.add('test', String(e)));
    const killed = await killPids(tree);
    if (killed.length > 0) console.warn(`[e2e chromium] killed leftover processes ${killed.join(', ')}`);
    removeDir(profileDir);
    await proxy?.close();
    await web?.close();
    log.save('chromium-console.log'); // every run's, for reading next to the screenshots
    console.log(timings.summary('chromium'));
  });

  step('the service worker answers a ping from the popup page', async () => {
    expect(extensionId).toMatch(/^[a-p]{32}$/);
    // `npm start` opens the wallet's page by the ID it computes from the folder: the same one.
    expect(extensionId).toBe(unpackedExtensionId(ext.dir));
    expect(browserPid, 'the browser PID (for clean-up)').toBeTypeOf('number');
    popup = await context!.newPage();
    await popup.goto(`chrome-extension://${extensionId}/${ext.popupPath}`, { waitUntil: 'load' });
    const send = (message: unknown): Promise<unknown> =>
      popup!.evaluate((m) => (globalThis as unknown as ExtensionPageGlobals).chrome.runtime.sendMessage(m), message);
    call = walletCaller(send, log);
    expect(await firstPing(send, log)).toEqual({ ok: true, version: ext.manifest.version });
    // The worker restricts storage.local (the vault ciphertext) to the extension's own contexts on
    // start (src/background/storage.ts): this Chromium takes that setting for the local area.
    const restricted = await popup.evaluate(() =>
      (globalThis as unknown as { chrome: { storage: { local: { setAccessLevel(o: { accessLevel: string }): Promise<void> } } } }).chrome.storage.local
        .setAccessLevel({ accessLevel: 'TRUSTED_CONTEXTS' })
        .then(() => 'restricted', (e: unknown) => String(e)),
    );
    expect(restricted).toBe('restricted');
    await screenshot('popup-first-run');
  });

  step('creates a wallet from a generated 24-word recovery phrase', async () => {
    await createWallet(call);
  });

  step('adds the local node as a custom network and selects it', async () => {
    ({ account } = await addAndSelectNode(call, proxy!.url));
  });

  step('shows the exact X balance after funding from the genesis key', async () => {
    await fundAndRefresh(call, account);
    await screenshot('popup-funded', { balances: true });
    // The reloaded popup started a refresh of its own: compare later with the settled snapshot.
    snapshot = await settledBalances(call);
    await expectFunded(snapshot);
  });

  step('keeps the session across a stopped service worker (CDP ServiceWorker.stopAllWorkers)', async () => {
    const identityCalls = proxy!.count('info.getNetworkID');
    const worker = await ExtensionWorkerWatch.attach(context!, popup!, extensionId, log);
    try {
      await worker.stop();
      // The next message starts the worker again; it must pick the session up from storage.session.
      await expectSessionResumed(call, account, snapshot);
      expect(worker.ranAgain(), 'the worker ran again after the stop').toBe(true);
      // The node's identity is kept in memory only: its first refresh asking for it again shows a
      // fresh worker (what it shows before, from storage, needs no node).
      await call('balances.refresh', {});
      expect(proxy!.count('info.getNetworkID'), 'the restarted worker asked the node who it is').toBeGreaterThan(identityCalls);
    } finally {
      await worker.detach();
    }
  });

  step('locks, refuses a wrong password and unlocks with the right one', async () => {
    await lockAndUnlock(call, account, () => screenshot('popup-locked'));
  });

  step('a web page on loopback gets no channel to the background', async () => {
    web = await startWebPage();
    const page = await context!.newPage();
    try {
      await page.goto(web.url, { waitUntil: 'load' });
      const seen = await page.evaluate(async (id) => {
        const g = globalThis as unknown as { chrome?: { runtime?: { sendMessage?: unknown } }; xpcWallet?: { isXpcWallet?: boolean } };
        let sendError = '';
        try {
          const send = g.chrome?.runtime?.sendMessage as ((id: string, m: unknown) => Promise<unknown>) | undefined;
          if (typeof send !== 'function') throw new Error('chrome.runtime.sendMessage is not available');
          await send(id, { channel: 'xpc-wallet', type: 'wallet.status', params: {} });
        } catch (e) {
          sendError = e instanceof Error ? e.message : String(e);
        }
        return { inpage: g.xpcWallet?.isXpcWallet === true, hasRuntime: g.chrome?.runtime !== undefined, sendError };
      }, extensionId);
      // The MAIN-world content script ran in the page, so the extension is active there …
      expect(seen.inpage).toBe(true);
      // … but with no externally_connectable the page has no runtime to message the extension with.
      expect(seen.hasRuntime).toBe(false);
      expect(seen.sendError).toBe('chrome.runtime.sendMessage is not available');
    } finally {
      await page.close();
    }
  });
});

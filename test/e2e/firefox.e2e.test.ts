// The built Firefox extension (dist/firefox) in Debian's Firefox ESR, headless, with a fresh
// profile, driven by puppeteer-core over WebDriver BiDi, against the run's local node. The
// extension is installed as a temporary add-on; its moz-extension:// UUID is pinned with the pref
// extensions.webextensions.uuids so the test knows the popup's URL.
//
// Firefox's MV3 background is an event page. The pref extensions.background.idle.timeout is set
// short, so the test can let the background go idle, see Firefox unload it, and check that the
// next request finds the unlocked session again (from storage.session).
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, inject } from 'vitest';
import type { AccountView, BalancesView } from '../../src/shared/messages.js';
import { FirefoxWithExtension, openExtensionPage, sendFrom, type ExtensionPageGlobals } from './firefox.js';
import { addAndSelectNode, createWallet, expectFunded, expectSessionResumed, fundAndRefresh, lockAndUnlock, settledBalances } from './flow.js';
import { artifactPath, clearArtifacts, ConsoleLog, domQuiet, flowSteps, slug, Timings, launchOrSaveLog } from './artifacts.js';
import { firstPing, walletCaller, type Call } from './harness.js';
import { startRpcProxy, startWebPage, type RpcProxy, type WebPage } from './loopback.js';

/** Idle time after which Firefox unloads the event page (its default is 30 s). */
const IDLE_UNLOAD_MS = 2_000;

describe('Firefox ESR: the built extension against the local node', () => {
  const timings = new Timings();
  const log = new ConsoleLog();
  const firefox = new FirefoxWithExtension('firefox', log);
  let proxy: RpcProxy | undefined;
  let web: WebPage | undefined;
  let popup: Page | undefined;
  let call: Call;
  let account: AccountView;
  let snapshot: BalancesView;

  /** When the background page was created (ms since epoch): a new value is a new background. */
  const backgroundStartedAt = (): Promise<number | null> =>
    popup!.evaluate(async () => {
      const page = await (globalThis as unknown as ExtensionPageGlobals).browser.runtime.getBackgroundPage();
      return page ? page.performance.timeOrigin : null;
    });

  /** Reloads the popup (it renders the state it finds on load), lets it settle, saves a screenshot. */
  const screenshot = async (name: string, options: { balances?: boolean } = {}): Promise<void> => {
    await openExtensionPage(popup!, firefox.popupUrl);
    await popup!.evaluate(domQuiet, { quietMs: 500, maxMs: 5_000 });
    if (options.balances) {
      // The popup refreshes the balances on load and polls while that runs (every second).
      await settledBalances(call);
      await popup!.evaluate(domQuiet, { quietMs: 1_200, maxMs: 5_000 });
    }
    await popup!.screenshot({ path: artifactPath(`firefox-${name}.png`), fullPage: true });
  };

  const step = flowSteps(timings, async (failed) => {
    const name = `firefox-FAILED-${slug(failed)}`;
    if (popup && !popup.isClosed()) await popup.screenshot({ path: artifactPath(`${name}.png`) }).catch(() => undefined);
    const path = log.save(`${name}.console.log`);
    firefox.saveStdout(`${name}.stdout.log`);
    console.error(`[e2e firefox] step "${failed}" failed; screenshot and console log: ${path.replace(/\.console\.log$/, '.*')}`);
  });

  /** Starts the browser with the extension; on failure the console log so far is saved. */
  const launch = async (): Promise<void> => {
    // Only this file's own artifacts: the other Firefox files write firefox-ui-…, dapp-firefox-….
    for (const prefix of ['firefox-popup-', 'firefox-FAILED-', 'firefox-console', 'firefox-stdout']) clearArtifacts(prefix);
    proxy = await startRpcProxy(inject('nodeUrl'));
    timings.add('launch', await firefox.launch({ 'extensions.background.idle.timeout': IDLE_UNLOAD_MS }));
  };

  beforeAll(() => launchOrSaveLog(log, 'firefox-', 'firefox', launch));

  afterAll(async () => {
    await firefox.close('firefox-stdout.log');
    await proxy?.close();
    await web?.close();
    log.save('firefox-console.log'); // every run's, for reading next to the screenshots
    console.log(timings.summary('firefox'));
  });

  step('the background answers a ping from the popup page', async () => {
    expect(firefox.pid, 'the browser PID (for clean-up)').toBeTypeOf('number');
    popup = await firefox.openPopup();
    const send = sendFrom(popup);
    call = walletCaller(send, log);
    expect(await firstPing(send, log)).toEqual({ ok: true, version: firefox.extension.manifest.version });
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

  step('keeps the session when Firefox unloads the idle event page', async () => {
    const before = await backgroundStartedAt();
    expect(before, 'runtime.getBackgroundPage() gives the event page').toBeTypeOf('number');
    const identityCalls = proxy!.count('info.getNetworkID');
    // Idle for twice the unload timeout, with no message and nothing else touching the extension.
    await new Promise((r) => setTimeout(r, 2 * IDLE_UNLOAD_MS + 500));

    await expectSessionResumed(call, account, snapshot);
    const after = await backgroundStartedAt();
    expect(after, 'a new background page answered').not.toBe(before);
    // The node's identity is kept in memory only: its first refresh asking for it again shows a fresh
    // background (what it shows before, from storage, needs no node).
    await call('balances.refresh', {});
    expect(proxy!.count('info.getNetworkID'), 'the new background asked the node who it is').toBeGreaterThan(identityCalls);
    log.add('test', `event page restarted: created at ${String(before)}, then at ${String(after)}`);
  });

  step('locks, refuses a wrong password and unlocks with the right one', async () => {
    await lockAndUnlock(call, account, () => screenshot('popup-locked'));
  });

  step('a web page on loopback gets no channel to the background', async () => {
    web = await startWebPage();
    const page = await firefox.browser!.newPage();
    try {
      await page.goto(web.url, { waitUntil: 'load' });
      const seen = await page.evaluate(() => {
        const g = globalThis as unknown as { browser?: unknown; chrome?: { runtime?: unknown }; xpcWallet?: { isXpcWallet?: boolean } };
        return { inpage: g.xpcWallet?.isXpcWallet === true, hasBrowser: g.browser !== undefined, hasRuntime: g.chrome?.runtime !== undefined };
      });
      // The MAIN-world content script ran in the page, so the extension is active there …
      expect(seen.inpage).toBe(true);
      // … but a web page has no extension messaging API at all.
      expect(seen).toMatchObject({ hasBrowser: false, hasRuntime: false });
    } finally {
      await page.close();
    }
  });
});

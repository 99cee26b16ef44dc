// The test dApp (test/e2e/dapp/app.ts: EIP-6963 discovery, viem over `custom(provider)`) on
// http://127.0.0.1:<port>, against the built Firefox extension (dist/firefox) in Debian's Firefox
// ESR, driven by puppeteer-core over WebDriver BiDi, with the run's local node. Launch and set-up
// are firefox.ts's (temporary add-on, UUID pinned by pref, loopback only); Firefox's
// own idle unload of the event page keeps its default here. The approval window is a new
// top-level window: the test finds it among the browser's pages by its URL.
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, inject } from 'vitest';
import type { AccountView } from '../../src/shared/messages.js';
import {
  CHAIN_ID,
  CHAIN_ID_HEX,
  DEPLOYED_BYTECODE,
  eventsInPage,
  evmAddressOf,
  expectAddChainApproval,
  expectConnectApproval,
  expectDeployApproval,
  expectDeployed,
  expectDiscovered,
  expectOk,
  expectPersonalSignApproval,
  expectPersonalSignature,
  expectDecisionButtons,
  expectTypedSignature,
  expectSwitchQuestion,
  expectSwitchToAnotherSitesChain,
  expectPaymentOnAddedChain,
  expectSiteNonceNamed,
  expectUserRejected,
  rawPayment,
  cacheStateInPage,
  expectSignatureAfterCacheReturn,
  keepInPage,
  readApproval,
  runInPage,
  startChainRpc,
  startDapp,
  AWAY_PATH,
  CACHEABLE_PATH,
  type ApprovalSnapshot,
  type DappServer,
} from './dapp.js';
import type { DappApi, DappCall, DappResult } from './dapp/app.js';
import { ADDED_CHAIN, type Outcome, type RecordedEvent } from './dapp/shared.js';
import { FirefoxWithExtension, sendFrom } from './firefox.js';
import { addAndSelectNode, createWallet } from './flow.js';
import { expectAccessible } from './a11y.js';
import { expectDelegationApproval, expectSiteStakeKept, siteBuiltDelegation } from './staking.js';
import { AVAX, genesisEngine, localNetwork, WEI_PER_NAVAX } from '../integration/fixture.js';
import { artifactPath, clearArtifacts, ConsoleLog, domQuiet, flowSteps, slug, Timings, launchOrSaveLog } from './artifacts.js';
import { firstPing, walletCaller, type Call } from './harness.js';
import { startRpcProxy, type RpcProxy } from './loopback.js';

/**
 * This file's artifacts. Not "firefox-…": firefox.e2e.test.ts clears every file with that prefix
 * when it starts, and may run after this file.
 */
const PREFIX = 'dapp-firefox-';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('Firefox ESR: a viem dApp finds the wallet through EIP-6963 and asks through the approval window', () => {
  const timings = new Timings();
  const log = new ConsoleLog();
  const firefox = new FirefoxWithExtension('firefox-dapp', log);
  let proxy: RpcProxy | undefined;
  let server: DappServer | undefined;
  let popup: Page | undefined;
  let page: Page | undefined;
  let call: Call;
  let account: AccountView;
  const approvalPages = new Set<Page>();

  const dapp = <K extends DappCall>(name: K, ...args: Parameters<DappApi[K]>): Promise<Outcome<DappResult<K>>> =>
    page!.evaluate(runInPage, [name, args] as [string, unknown[]]) as Promise<Outcome<DappResult<K>>>;

  const events = (): Promise<RecordedEvent[]> => page!.evaluate(eventsInPage);

  /** The document's own URL. Puppeteer's page.url() stays about:blank for a window the extension opened. */
  const urlOf = async (p: Page): Promise<string> => (p.url() !== 'about:blank' ? p.url() : await p.evaluate(() => location.href).catch(() => ''));

  /**
   * The approval window (a new top-level window) showing a `method` request, found by its URL.
   * Fails early with the dApp's answer when the request ended without asking.
   */
  const approvalWindow = async (method: string, pending: Promise<Outcome<unknown>>, wanted: (shown: ApprovalSnapshot) => boolean = () => true): Promise<{ window: Page; shown: ApprovalSnapshot }> => {
    let settled: Outcome<unknown> | string | undefined;
    pending.then(
      (o) => (settled = o),
      (e: unknown) => (settled = `the page call failed: ${String(e)}`),
    );
    const deadline = Date.now() + 20_000;
    let last = 'no approval window';
    for (;;) {
      for (const p of await firefox.browser!.pages()) {
        if (p.isClosed() || p === page || p === popup || !(await urlOf(p)).startsWith(`${firefox.base}src/popup/approval.html`)) continue;
        const shown = await p.evaluate(readApproval).catch(() => null);
        if (!shown) continue;
        if (!approvalPages.has(p)) {
          approvalPages.add(p);
          p.on('console', (m) => log.add(`approval ${m.type()}`, m.text()));
        }
        last = `an approval window showing ${shown.method}`;
        // Approve is disabled for a moment after a request appears (a click meant for the previous
        // one must not approve it): the user reads, then decides.
        if (shown.method === method && wanted(shown) && shown.buttons.every((b) => !b.disabled)) return { window: p, shown };
      }
      if (settled) throw new Error(`the dApp's ${method} ended without an approval window: ${JSON.stringify(settled)}`);
      if (Date.now() > deadline) throw new Error(`no approval window showed a ${method} request within 20 s (last seen: ${last})`);
      await sleep(100);
    }
  };

  const screenshotApproval = async (window: Page, name: string): Promise<void> => {
    await window.evaluate(domQuiet, { quietMs: 300, maxMs: 3_000 });
    await window.screenshot({ path: artifactPath(`${PREFIX}approval-${name}.png`) });
  };

  /** Clicks Approve or Reject (a real click on the button). */
  const click = async (window: Page, button: 'Approve' | 'Reject'): Promise<void> => {
    const handles = await window.$$('footer button');
    let clicked = false;
    for (const h of handles) {
      if ((await h.evaluate((b) => (b.textContent ?? '').trim())) === button) {
        await h.click();
        clicked = true;
        break;
      }
    }
    expect(clicked, `the approval window has a ${button} button`).toBe(true);
  };

  /** Clicks Approve or Reject; nothing else waits, so the window closes. */
  const decide = async (window: Page, button: 'Approve' | 'Reject'): Promise<void> => {
    await click(window, button);
    await expect.poll(() => isGone(window), { message: `the approval window closes after ${button}`, timeout: 10_000 }).toBe(true);
  };

  /**
   * Whether the window is closed. Puppeteer never marks a window the extension opened as closed
   * (it never saw it navigate); Firefox then answers that its browsing context does not exist.
   */
  const isGone = async (p: Page): Promise<boolean> => {
    if (p.isClosed()) return true;
    try {
      await p.evaluate(() => true);
      return false;
    } catch (e) {
      return /no such frame|Browsing Context with id .* not found/i.test(String(e));
    }
  };

  const step = flowSteps(timings, async (failed) => {
    const name = `${PREFIX}FAILED-${slug(failed)}`;
    if (page && !page.isClosed()) await page.screenshot({ path: artifactPath(`${name}-dapp.png`) }).catch(() => undefined);
    for (const [i, p] of [...approvalPages].entries()) {
      if (!p.isClosed()) await p.screenshot({ path: artifactPath(`${name}-approval-${i}.png`) }).catch(() => undefined);
    }
    const path = log.save(`${name}.console.log`);
    firefox.saveStdout(`${name}.stdout.log`);
    console.error(`[e2e firefox dapp] step "${failed}" failed; screenshots and console log: ${path.replace(/\.console\.log$/, '*')}`);
  });

  const launch = async (): Promise<void> => {
    clearArtifacts(PREFIX);
    proxy = await startRpcProxy(inject('nodeUrl'));
    const bundled = Date.now();
    server = await startDapp();
    log.add('test', `dApp bundled and served at ${server.url} in ${Date.now() - bundled} ms`);
    timings.add('launch', await firefox.launch());
  };

  beforeAll(() => launchOrSaveLog(log, PREFIX, 'firefox dapp', launch));

  afterAll(async () => {
    await firefox.close(`${PREFIX}stdout.log`);
    await proxy?.close();
    await server?.close();
    log.save(`${PREFIX}console.log`);
    console.log(timings.summary('firefox dapp'));
  });

  step('sets up a wallet on the local node through the background protocol', async () => {
    expect(firefox.pid, 'the browser PID (for clean-up)').toBeTypeOf('number');
    popup = await firefox.openPopup();
    const send = sendFrom(popup);
    call = walletCaller(send, log);
    expect(await firstPing(send, log)).toEqual({ ok: true, version: firefox.extension.manifest.version });
    await createWallet(call);
    ({ account } = await addAndSelectNode(call, proxy!.url));
  });

  step('the dApp finds the wallet through EIP-6963 and sees it connected to the chain, with no account', async () => {
    page = await firefox.browser!.newPage();
    page.on('console', (m) => log.add(`dapp ${m.type()}`, m.text()));
    page.on('pageerror', (e) => log.add('dapp error', e instanceof Error ? (e.stack ?? e.message) : String(e)));
    await page.goto(server!.url, { waitUntil: 'load' });
    await page.waitForFunction(() => document.documentElement.dataset['dapp'] === 'ready');
    expectDiscovered(expectOk(await dapp('discovery'), 'discovery'));
    await expect.poll(events, { timeout: 10_000 }).toEqual([{ event: 'connect', data: { chainId: CHAIN_ID_HEX } }]);
    expect(expectOk(await dapp('accounts'), 'eth_accounts')).toEqual([]);
    expect(expectOk(await dapp('chainId'), 'chainId')).toEqual({ viem: CHAIN_ID, provider: CHAIN_ID_HEX });
  });

  step('connect → Reject → viem rejects with 4001', async () => {
    const pending = dapp('connect');
    const { window, shown } = await approvalWindow('eth_requestAccounts', pending);
    expectConnectApproval(shown, server!.origin, account);
    await decide(window, 'Reject');
    expectUserRejected(await pending, 'connect');
    expect(expectOk(await dapp('accounts'), 'eth_accounts')).toEqual([]);
  });

  step('connect → Approve → the account’s C address, and accountsChanged', async () => {
    const pending = dapp('connect');
    const { window, shown } = await approvalWindow('eth_requestAccounts', pending);
    expectConnectApproval(shown, server!.origin, account);
    await screenshotApproval(window, 'connect');
    await decide(window, 'Approve');
    expect(expectOk(await pending, 'connect')).toEqual([evmAddressOf(account)]);
    await expect
      .poll(events, { timeout: 5_000 })
      .toEqual([
        { event: 'connect', data: { chainId: CHAIN_ID_HEX } },
        { event: 'accountsChanged', data: [account.cAddress] },
      ]);
  });

  step('signMessage (personal_sign) → Approve → viem verifyMessage is true', async () => {
    const pending = dapp('signMessage');
    const { window, shown } = await approvalWindow('personal_sign', pending);
    expectPersonalSignApproval(shown, server!.origin, account);
    await screenshotApproval(window, 'sign-message');
    await decide(window, 'Approve');
    await expectPersonalSignature(expectOk(await pending, 'signMessage'), account);
    expect(approvalPages.size, 'each request had its own window').toBe(3);
    for (const p of approvalPages) expect(await isGone(p)).toBe(true);
  });

  step('signTypedData (EIP-712) of a kind the wallet does not decode, for a contract: the approval says the contract may take it as an approval → Approve → viem verifyTypedData is true', async () => {
    const pending = dapp('signTypedData');
    const { window, shown } = await approvalWindow('eth_signTypedData_v4', pending);
    expect(shown).toMatchObject({ title: 'Typed data to sign (EIP-712)', origin: server!.origin });
    expect(shown.testids['typed-data-summary']).toContain('Mail');
    expect(shown.testids['typed-unknown']).toMatch(/may take it as your approval/);
    expectDecisionButtons(shown);
    await decide(window, 'Approve');
    await expectTypedSignature(expectOk(await pending, 'signTypedData'), account);
  });

  step('a dApp deploys a contract through viem: the approval says "Deploy a contract" with its size, code hash and address, and what it does (axe) → Approve → the contract is at that address', async () => {
    // The deployment's fee is paid in AVAX on the C-Chain: 2 AVAX from the genesis key.
    const { outcome } = await (await genesisEngine()).sendC(account.cAddress, 2n * AVAX * WEI_PER_NAVAX);
    expect(outcome).toMatchObject({ accepted: true, status: 'Success' });
    const pending = dapp('deployContract', DEPLOYED_BYTECODE);
    const { window, shown } = await approvalWindow('eth_sendTransaction', pending);
    expectDeployApproval(shown, server!.origin);
    await expectAccessible(window, 'the deployment approval', (line) => log.add('test', line));
    await screenshotApproval(window, 'deploy');
    await decide(window, 'Approve');
    await expectDeployed(expectOk(await dapp('waitForReceipt', expectOk(await pending, 'deployContract')), 'waitForTransactionReceipt'), shown, account);
  });

  step("sendTransaction at a nonce of the site's own: the approval names it beside the one the wallet takes → Reject", async () => {
    const nonce = expectOk(await dapp('nonce', account.cAddress as `0x${string}`), 'nonce');
    const atNonce = dapp('request', ...rawPayment(account.cAddress, nonce + 7));
    const { window, shown } = await approvalWindow('eth_sendTransaction', atNonce);
    expectSiteNonceNamed(shown, server!.origin, nonce + 7, nonce);
    await decide(window, 'Reject');
    expectUserRejected(await atNonce, "a send at the site's nonce (a raw request)", false);
  });

  step('xpc_sendTransaction of a P-Chain delegation the site built: the window says what is staked, for which node, until when → Approve → committed', async () => {
    const transactionHex = await siteBuiltDelegation(account, 25n * AVAX);
    const pending = dapp('xpcSendTransaction', transactionHex, 'P');
    const { window, shown } = await approvalWindow('xpc_sendTransaction', pending);
    expectDelegationApproval(shown, account, transactionHex);
    await expectAccessible(window, 'the approval of a site-built delegation', (line) => log.add('test', line));
    await screenshotApproval(window, 'xpc-send-delegation');
    await decide(window, 'Approve');
    const { txID } = expectOk(await pending, 'xpc_sendTransaction') as { txID: string };
    const { client } = await localNetwork();
    expect((await client.waitForTx('P', txID, { timeoutMs: 30_000, pollMs: 100 })).accepted).toBe(true);
    await expectSiteStakeKept(call, txID, 25n * AVAX);
  });
  step('wallet_addEthereumChain: the add (by chain ID and RPC host) and the switch are two questions → Approve both → this site is on the chain; Settings puts it back', async () => {
    const rpc = await startChainRpc();
    const otherServer = await startDapp();
    const other = await firefox.browser!.newPage();
    const addedHex = `0x${ADDED_CHAIN.id.toString(16)}`;
    try {
      await other.goto(otherServer.url, { waitUntil: 'load' });
      await other.waitForFunction(() => document.documentElement.dataset['dapp'] === 'ready');
      const eventsBefore = (await events()).length;
      const adding = dapp('addChain', rpc.url);
      const add = await approvalWindow('wallet_addEthereumChain', adding, (s) => s.title === 'Add a chain');
      expectAddChainApproval(add.shown, server!.origin, rpc.host);
      await expectAccessible(add.window, 'the add-chain approval', (line) => log.add('test', line));
      await screenshotApproval(add.window, 'add-chain');
      await click(add.window, 'Approve');
      // Not switched by the add: the question comes on its own, and until it is answered the site is where it was.
      const question = await approvalWindow('wallet_addEthereumChain', adding, (s) => s.title === 'Switch chain');
      expectSwitchQuestion(question.shown, server!.origin, 'wallet_addEthereumChain', rpc.host, true);
      await expectAccessible(question.window, 'the switch-chain approval', (line) => log.add('test', line));
      await screenshotApproval(question.window, 'add-chain-switch');
      expect((await events()).slice(eventsBefore)).toEqual([]);
      await decide(question.window, 'Approve');
      expect(expectOk(await adding, 'addChain')).toBeNull();
      expect(expectOk(await dapp('chainId'), 'chainId')).toEqual({ viem: ADDED_CHAIN.id, provider: addedHex });
      await expect.poll(async () => (await events()).slice(eventsBefore), { timeout: 10_000 }).toEqual([{ event: 'chainChanged', data: addedHex }]);

      // A payment there: the approval names the chain by its ID and RPC host, the site's name only as its claim → Reject.
      const paying = dapp('request', ...rawPayment(account.cAddress));
      const payment = await approvalWindow('eth_sendTransaction', paying);
      expectPaymentOnAddedChain(payment.shown, server!.origin, rpc.host);
      await decide(payment.window, 'Reject');
      expectUserRejected(await paying, 'the payment on the added chain (a raw request)', false);

      // A site of another origin asks to switch to that chain: the question names the site that added it → Reject.
      const otherSwitch = other.evaluate(runInPage, ['switchChain', [ADDED_CHAIN.id]] as [string, unknown[]]) as Promise<Outcome<unknown>>;
      const foreign = await approvalWindow('wallet_switchEthereumChain', otherSwitch);
      expectSwitchToAnotherSitesChain(foreign.shown, otherServer.origin, server!.origin, rpc.host);
      await decide(foreign.window, 'Reject');
      expectUserRejected(await otherSwitch, "the other site's switch");

      // Settings → Connected sites shows the site's chain; "Use the wallet's network" puts it back.
      const { sites } = await call('sites.list', {});
      expect(sites.find((x) => x.origin === server!.origin)?.chain).toEqual({ chainId: String(ADDED_CHAIN.id), name: ADDED_CHAIN.shownName });
      await call('sites.resetChain', { origin: server!.origin });
      await expect.poll(async () => (await events()).slice(eventsBefore), { timeout: 10_000 }).toEqual([
        { event: 'chainChanged', data: addedHex },
        { event: 'chainChanged', data: CHAIN_ID_HEX },
      ]);
    } finally {
      await other.close();
      await otherServer.close();
      await rpc.close();
    }
  });
  step('a site request waiting for its approval outlives an unloaded event page: the page script sends it again, the same approval answers it', async () => {
    const pending = dapp('signMessage');
    const { window, shown } = await approvalWindow('personal_sign', pending);
    expectPersonalSignApproval(shown, server!.origin, account);
    // The content script's message dies with the event page; its relay sends it again, which
    // wakes a new event page that finds the request waiting in storage.session. Only the resent
    // request can carry the answer, and the window closes on Approve only if no second approval waits.
    await firefox.terminateBackground();
    await decide(window, 'Approve');
    await expectPersonalSignature(expectOk(await pending, 'signMessage'), account);
  });

  step("a site request waiting for its approval outlives its page's stay in the back/forward cache: the same approval answers it once the page is back", async () => {
    await page!.goto(`${server!.origin}${CACHEABLE_PATH}`, { waitUntil: 'load' });
    await page!.waitForFunction(() => document.documentElement.dataset['dapp'] === 'ready');
    // Started in the page, its outcome kept there: this test's own evaluate would die with the
    // navigation, the page itself waits in the cache.
    await page!.evaluate(keepInPage, ['cached', 'signMessage', []] as [string, string, unknown[]]);
    const { window, shown } = await approvalWindow('personal_sign', new Promise<Outcome<unknown>>(() => undefined));
    expectPersonalSignApproval(shown, server!.origin, account);
    await page!.goto(`${server!.origin}${AWAY_PATH}`, { waitUntil: 'load' });
    // A page restored from the cache fires pageshow, not load, which puppeteer's goBack waits for.
    await page!.evaluate(() => history.back()).catch(() => undefined);
    // The relay sends the request again, which joins the one waiting for this window (a second
    // approval would keep the window open: decide).
    await expectSignatureAfterCacheReturn(() => page!.evaluate(cacheStateInPage, 'cached'), () => decide(window, 'Approve'), account);
  });
});

// The Chromium dApp suite's run (chromium-dapp.e2e.test.ts): one Chromium with the built extension,
// the test dApp and the node's proxy; the approval window found and decided; and the first steps,
// which set up the wallet and open the dApp page. Its `let`s are live bindings: the steps read what
// the launch and these first steps assigned.
import { avm, TransferableOutput as AjsTransferableOutput, utils, Utxo as AjsUtxo } from '@avalabs/avalanchejs';
import { type BrowserContext, type Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { toHex } from '../../src/core/bytes.js';
import { encodeUtxo } from '../../src/core/codec/codec.js';
import { parseAddress } from '../../src/core/encoding.js';
import type { KeyPair } from '../../src/core/keys.js';
import type { AccountView } from '../../src/shared/messages.js';
import { AVAX, genesisEngine, localNetwork, WEI_PER_NAVAX } from '../integration/fixture.js';
import { avalanchejsContextOf } from '../unit/avalanchejs-context.js';
import { artifactPath, clearArtifacts, ConsoleLog, domQuiet, flowSteps, slug, Timings } from './artifacts.js';
import { CHAIN_ID, CHAIN_ID_HEX, eventsInPage, evmAddressOf, expectDecisionButtons, expectDiscovered, expectOk, readApproval, runInPage, startDapp, type ApprovalSnapshot, type DappServer } from './dapp.js';
import type { DappApi, DappCall, DappResult } from './dapp/app.js';
import { PAYEE, type Outcome, type RecordedEvent } from './dapp/shared.js';
import { addAndSelectNode, createWallet, fundAndRefresh } from './flow.js';
import { browserExecutable, builtExtension, type BuiltExtension, type Call, extensionIdOf, firstPing, launchChromiumWithExtension, removeDir, tempDir, walletCaller } from './harness.js';
import { type RpcProxy, startRpcProxy } from './loopback.js';
import { chromiumPidFor, killPids, processTree, sleep, within } from './processes.js';

const CHROMIUM = ['/usr/lib/chromium/chromium', '/usr/bin/chromium'];
/**
 * This suite's artifacts. Not "chromium-…": chromium.e2e.test.ts clears every file with that prefix
 * when it starts, and may run after this suite.
 */
export const PREFIX = 'dapp-chromium-';
/** What the genesis key sends to the account's C-Chain address: 2 AVAX, in wei. */
const C_FUNDING_WEI = 2n * AVAX * WEI_PER_NAVAX;

type ExtensionPageGlobals = { chrome: { runtime: { sendMessage(message: unknown): Promise<unknown> } } };

const timings = new Timings();
export const log = new ConsoleLog();
let ext: BuiltExtension;
let profileDir: string | undefined;
export let context: BrowserContext | undefined;
let browserPid: number | undefined;
let proxy: RpcProxy | undefined;
export let server: DappServer | undefined;
let popup: Page | undefined;
export let page: Page | undefined;
export let extensionId = '';
export let call: Call;
export let account: AccountView;
/** Approval windows seen so far (each a Page of the context). */
export const approvalPages = new Set<Page>();

/** `window.dapp.run(name, args)` in the dApp page; started at once, answered when the wallet answers. */
export const dapp = <K extends DappCall>(name: K, ...args: Parameters<DappApi[K]>): Promise<Outcome<DappResult<K>>> =>
  page!.evaluate(runInPage, [name, args] as [string, unknown[]]) as Promise<Outcome<DappResult<K>>>;

export const events = (): Promise<RecordedEvent[]> => page!.evaluate(eventsInPage);

/**
 * The approval window showing a `method` request: a page of the extension's approval.html (a
 * new window, or the open one when it is still there). Fails early with the dApp's answer when
 * the request ended without asking.
 */
export const approvalWindow = async (method: string, pending: Promise<Outcome<unknown>>, wanted: (shown: ApprovalSnapshot) => boolean = () => true): Promise<{ window: Page; shown: ApprovalSnapshot }> => {
  let settled: Outcome<unknown> | string | undefined;
  pending.then(
    (o) => (settled = o),
    (e: unknown) => (settled = `the page call failed: ${String(e)}`),
  );
  const deadline = Date.now() + 20_000;
  let last = 'no approval window';
  for (;;) {
    for (const p of context!.pages()) {
      if (p.isClosed() || !p.url().startsWith(`chrome-extension://${extensionId}/src/popup/approval.html`)) continue;
      const shown = await p.evaluate(readApproval).catch(() => null);
      if (shown) last = `an approval window showing ${shown.method}`;
      if (shown) approvalPages.add(p);
      // Approve is disabled for a moment after a request appears (a click meant for the previous
      // one must not approve it): the user reads, then decides.
      if (shown?.method === method && wanted(shown) && shown.buttons.every((b) => !b.disabled)) return { window: p, shown };
    }
    if (settled) throw new Error(`the dApp's ${method} ended without an approval window: ${JSON.stringify(settled)}`);
    if (Date.now() > deadline) throw new Error(`no approval window showed a ${method} request within 20 s (last seen: ${last})`);
    await sleep(100);
  }
};

/** Screenshot of the approval window once its DOM is quiet. */
export const screenshotApproval = async (window: Page, name: string): Promise<void> => {
  await window.evaluate(domQuiet, { quietMs: 300, maxMs: 3_000 });
  await window.screenshot({ path: artifactPath(`${PREFIX}approval-${name}.png`), fullPage: true });
};

/** Clicks Approve or Reject; nothing else waits, so the window then closes itself. */
export const decide = async (window: Page, button: 'Approve' | 'Reject'): Promise<void> => {
  await window.getByRole('button', { name: button, exact: true }).click();
  await expect.poll(() => window.isClosed(), { message: `the approval window closes after ${button}`, timeout: 10_000 }).toBe(true);
};

export const step = flowSteps(timings, async (failed) => {
  const name = `${PREFIX}FAILED-${slug(failed)}`;
  if (page && !page.isClosed()) await page.screenshot({ path: artifactPath(`${name}-dapp.png`), fullPage: true }).catch(() => undefined);
  for (const [i, p] of [...approvalPages].entries()) {
    if (!p.isClosed()) await p.screenshot({ path: artifactPath(`${name}-approval-${i}.png`), fullPage: true }).catch(() => undefined);
  }
  const path = log.save(`${name}.console.log`);
  console.error(`[e2e chromium dapp] step "${failed}" failed; screenshots and console log: ${path.replace(/\.console\.log$/, '*')}`);
});

export const launch = async (): Promise<void> => {
  clearArtifacts(PREFIX);
  ext = builtExtension('chrome');
  const executablePath = browserExecutable('Chromium', CHROMIUM);
  proxy = await startRpcProxy(inject('nodeUrl'));
  const bundled = Date.now();
  server = await startDapp();
  log.add('test', `dApp bundled and served at ${server.url} in ${Date.now() - bundled} ms`);
  profileDir = tempDir('xpc-e2e-chromium-dapp-');
  const started = Date.now();
  // The back/forward cache on, as for a user: a step leaves a page waiting for its approval there.
  context = await launchChromiumWithExtension(executablePath, profileDir, ext.dir, { backForwardCache: true });
  browserPid = chromiumPidFor(profileDir);
  log.add('test', `chromium pid ${browserPid ?? 'not found'}, launched in ${Date.now() - started} ms`);
  context.on('console', (m) => {
    const p = m.page();
    log.add(p ? `page ${m.type()}` : `worker ${m.type()}`, p ? `${m.text()} (${p.url()})` : m.text());
  });
  context.on('weberror', (e) => log.add('page error', e.error().stack ?? e.error().message));
  context.on('page', (p) => log.add('test', `new page ${p.url() || '(blank)'}`));
  extensionId = await extensionIdOf(context);
  log.add('test', `extension ${extensionId}, service worker up ${Date.now() - started} ms after launch`);
  timings.add('launch', Date.now() - started);
};

/** Closes Chromium (and kills, by PID, what is left of it), the proxy and the dApp; saves the log. */
export async function shutDown(): Promise<void> {
  const tree = browserPid !== undefined ? processTree(browserPid) : [];
  if (context) await within(context.close(), 15_000, 'closing Chromium').catch((e: unknown) => log.add('test', String(e)));
  const killed = await killPids(tree);
  if (killed.length > 0) console.warn(`[e2e chromium dapp] killed leftover processes ${killed.join(', ')}`);
  removeDir(profileDir);
  await proxy?.close();
  await server?.close();
  log.save(`${PREFIX}console.log`);
  console.log(timings.summary('chromium dapp'));
}

/** The EVM transaction's approval: the dApp's origin, value, payee, the chain, the wallet's own gas and nonce. */
export const expectTxApproval = (shown: ApprovalSnapshot, nonce: number): void => {
  expect(shown).toMatchObject({ title: 'EVM transaction to sign', origin: server!.origin, method: 'eth_sendTransaction' });
  expect(shown.testids['evm-value']).toBe('0.012345 AVAX');
  expect(shown.testids['evm-chain']).toContain(`chain ID ${CHAIN_ID}`);
  expect(shown.testids['evm-nonce']).toBe(String(nonce));
  expect(shown.body.toLowerCase()).toContain(PAYEE.toLowerCase());
  expect(shown.body).toContain(account.cAddress);
  // A plain payment: the wallet's estimate is 21,000 gas, and it says what the fee can be at most.
  expect(shown.testids['fee']).toMatch(/AVAX/);
  expect(shown.testids['fee']).toContain('21,000 gas');
  expectDecisionButtons(shown);
};

/** An X-Chain send of `amount` nAVAX to `to`, built by the site with avalanchejs from the account's UTXOs: unsigned, as hex. */
export const siteBuiltXSend = async (to: KeyPair, amount: bigint): Promise<string> => {
  const { ctx, client } = await localNetwork();
  const ajs = avalanchejsContextOf(ctx);
  const mine = parseAddress(account.xAddress).bytes;
  const { utxos } = await client.getAllUtxos('X', [account.xAddress]);
  const siteUtxos = utxos.map((u) => utils.getManagerForVM('AVM').unpack(encodeUtxo(u, 'avm'), AjsUtxo));
  const unsigned = avm.newBaseTx(ajs, [mine], siteUtxos, [AjsTransferableOutput.fromNative(ajs.avaxAssetID, amount, [to.shortId])], { changeAddresses: [mine] });
  return `0x${toHex(unsigned.toBytes())}`;
};

/** The first steps: they set up the wallet and open the dApp page, which the later steps use. */
export function setUpSteps(): void {
  step('sets up a wallet on the local node through the background protocol', async () => {
    expect(browserPid, 'the browser PID (for clean-up)').toBeTypeOf('number');
    popup = await context!.newPage();
    await popup.goto(`chrome-extension://${extensionId}/${ext.popupPath}`, { waitUntil: 'load' });
    const send = (message: unknown): Promise<unknown> =>
      popup!.evaluate((m) => (globalThis as unknown as ExtensionPageGlobals).chrome.runtime.sendMessage(m), message);
    call = walletCaller(send, log);
    expect(await firstPing(send, log)).toEqual({ ok: true, version: ext.manifest.version });
    await createWallet(call);
    ({ account } = await addAndSelectNode(call, proxy!.url));
  });

  step('funds the account on X (exact balance) and on the C-Chain from the genesis key', async () => {
    await fundAndRefresh(call, account);
    const genesis = await genesisEngine();
    const { outcome } = await genesis.sendC(account.cAddress, C_FUNDING_WEI);
    expect(outcome).toMatchObject({ accepted: true, status: 'Success' });
  });

  step('the dApp finds the wallet through EIP-6963 and sees it connected to the chain, with no account', async () => {
    page = await context!.newPage();
    page.on('close', () => log.add('test', 'the dApp page closed'));
    await page.goto(server!.url, { waitUntil: 'load' });
    await page.waitForFunction(() => document.documentElement.dataset['dapp'] === 'ready');
    expectDiscovered(expectOk(await dapp('discovery'), 'discovery'));
    // The provider's first event: connected to the chain (EIP-1193 "connect"), before any account.
    await expect.poll(events, { timeout: 10_000 }).toEqual([{ event: 'connect', data: { chainId: CHAIN_ID_HEX } }]);
    expect(expectOk(await dapp('accounts'), 'eth_accounts')).toEqual([]);
    // The chain is readable before connecting: the account's C funding, through the wallet's node.
    expect(expectOk(await dapp('balance', evmAddressOf(account)), 'eth_getBalance')).toBe(C_FUNDING_WEI.toString());
    await page.screenshot({ path: artifactPath(`${PREFIX}page.png`) });
  });
}

/**
 * What the wallet's content script, in the dApp page's process, gets when it reads the extension's
 * storage areas, run in its own isolated world through DevTools: `inWorld` proves it is that world
 * (the extension's runtime is there); `local`, `session` and `sync` say 'read' or how they were
 * refused. The wallet keeps nothing in `sync` and leaves it open: it shows the script may read an area
 * the wallet did not close.
 */
export async function contentScriptStorageReads(): Promise<{ inWorld: boolean; local: string; session: string; sync: string }> {
  const cdp = await context!.newCDPSession(page!);
  const worlds: { id: number; origin: string; auxData?: { type?: string } }[] = [];
  cdp.on('Runtime.executionContextCreated', ({ context: c }) => worlds.push(c));
  await cdp.send('Runtime.enable');
  const world = worlds.find((c) => c.auxData?.type === 'isolated' && c.origin === `chrome-extension://${extensionId}`);
  expect(world, "the wallet's content script world in the dApp page").toBeDefined();
  const expression = `(async () => {
    const tryRead = (area) => Promise.resolve().then(() => chrome.storage[area].get(null)).then((v) => 'read ' + Object.keys(v).length + ' entries', (e) => 'refused: ' + e);
    return { inWorld: chrome.runtime.id === ${JSON.stringify(extensionId)}, local: await tryRead('local'), session: await tryRead('session'), sync: await tryRead('sync') };
  })()`;
  try {
    const { result } = await cdp.send('Runtime.evaluate', { expression, contextId: world!.id, awaitPromise: true, returnByValue: true });
    return result.value as { inWorld: boolean; local: string; session: string; sync: string };
  } finally {
    await cdp.detach();
  }
}

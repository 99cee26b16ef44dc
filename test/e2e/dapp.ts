// The test dApp's web server and what both browsers' dApp tests share. The dApp (dapp/app.ts) is
// bundled here with esbuild's JS API at test time (IIFE, viem inside) and inlined into the <head>
// of one HTML page, served from a node http server on http://127.0.0.1:<port>/ (the wallet's
// content scripts run on https://*, http://localhost/* and http://127.0.0.1/*).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { build } from 'esbuild';
import { getAddress, keccak256, verifyMessage, verifyTypedData, type Hex } from 'viem';
import { expect, inject } from 'vitest';
import { cb58Decode, parseAddress } from '../../src/core/encoding.js';
import { toHex } from '../../src/core/bytes.js';
import { avalancheMessageSigner } from '../../src/core/message.js';
import type { AccountView } from '../../src/shared/messages.js';
import type { DappCall, DappGlobal, DappResult } from './dapp/app.js';
import { ADDED_CHAIN, LOCAL_C_CHAIN, MESSAGE, PAYEE, PAYMENT_WEI, typedDataFor, XP_MESSAGE, type Outcome, type ReceiptView, type RecordedEvent } from './dapp/shared.js';
import contracts from '../fixtures/contracts.json' with { type: 'json' };
import { localNetwork } from '../integration/fixture.js';
import { REPO_ROOT } from './harness.js';

export const DAPP_TITLE = 'XPC dApp test';

/** A test page's script, bundled into one IIFE (esbuild's JS API, at test time). */
export async function bundlePageScript(entry: string): Promise<string> {
  const result = await build({
    entryPoints: [join(REPO_ROOT, entry)],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
    legalComments: 'none',
  });
  const file = result.outputFiles[0];
  if (!file || file.text === '') throw new Error(`esbuild produced no output for ${entry}`);
  // esbuild escapes "</script" inside strings; anything left would end an inline script early.
  if (/<\/script/i.test(file.text)) throw new Error(`the bundle of ${entry} contains "</script": it cannot be inlined`);
  return file.text;
}

/** The dApp's script: dapp/app.ts and viem in one IIFE. */
export function bundleDapp(): Promise<string> {
  return bundlePageScript('test/e2e/dapp/app.ts');
}

/** The page: the bundle inline in <head>, so it runs before the provider's first state answer. */
export function dappHtml(script: string): string {
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<title>${DAPP_TITLE}</title>`,
    `<script>${script}</script>`,
    '</head><body><h1>XPC dApp test</h1><p id="dapp">A dApp that finds its wallet through EIP-6963 and talks to it with viem.</p></body></html>',
  ].join('\n');
}

export interface DappServer {
  /** http://127.0.0.1:<port>/ */
  url: string;
  /** http://127.0.0.1:<port>: what the wallet must show as the requesting site. */
  origin: string;
  close(): Promise<void>;
}

/** The page again, as a browser may keep it in its back/forward cache (servePage). */
export const CACHEABLE_PATH = '/cacheable';
/** A plain page of the same site, to leave the dApp for (servePage). */
export const AWAY_PATH = '/away';

/**
 * Serves `html` at / (no-store) and at CACHEABLE_PATH (cacheable), and a plain page at AWAY_PATH,
 * on 127.0.0.1, where the wallet's content scripts run (no favicon, 404 for anything else).
 */
export async function servePage(html: string): Promise<DappServer> {
  const server: Server = createServer((req, res) => {
    if (req.method === 'GET' && (req.url === '/' || req.url === '/index.html')) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(html);
    } else if (req.method === 'GET' && req.url === CACHEABLE_PATH) {
      // The same page without no-store, which keeps a page out of Chrome's back/forward cache.
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(html);
    } else if (req.method === 'GET' && req.url === AWAY_PATH) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>Elsewhere</title><p>Elsewhere on the same site.</p>');
    } else if (req.url === '/favicon.ico') {
      res.writeHead(204);
      res.end();
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    }
  });
  const origin = await new Promise<string>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  });
  return {
    url: `${origin}/`,
    origin,
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(() => r()));
    },
  };
}

/** Bundles the dApp and serves it. */
export async function startDapp(): Promise<DappServer> {
  return servePage(dappHtml(await bundleDapp()));
}

/**
 * A stand-in node of ADDED_CHAIN: answers eth_chainId (what the wallet checks before adding it) and
 * two reads as that chain; every other request goes on to the test node's C-Chain, which answers
 * what a payment's approval reads (nonce, block, fees, estimate) as a real node would.
 */
export async function startChainRpc(): Promise<{ url: string; host: string; close(): Promise<void> }> {
  const answers: Record<string, string> = { eth_chainId: `0x${ADDED_CHAIN.id.toString(16)}`, net_version: String(ADDED_CHAIN.id), eth_blockNumber: '0x1' };
  const realNode = `${inject('nodeUrl')}/ext/bc/C/rpc`;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', async () => {
      let reply: unknown;
      try {
        const { id, method } = JSON.parse(body) as { id: unknown; method: string };
        reply = Object.hasOwn(answers, method)
          ? { jsonrpc: '2.0', id, result: answers[method] }
          : await (await fetch(realNode, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).json();
      } catch {
        reply = { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } };
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(reply));
    });
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
  return {
    url: `http://127.0.0.1:${port}/rpc`,
    host: `127.0.0.1:${port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(() => r()));
    },
  };
}

// ---- calling the dApp in a page ----

/**
 * Runs IN THE dAPP PAGE (pass it to page.evaluate with [name, args]): `window.dapp.run`, whose
 * answer is plain data. Each test wraps it with its driver's page and the types of dapp/app.ts.
 */
export function runInPage([name, args]: [string, unknown[]]): Promise<unknown> {
  return (globalThis as unknown as { dapp: DappGlobal }).dapp.run(name as DappCall, args as never);
}

/** Runs IN THE dAPP PAGE: starts a call whose outcome the page keeps under `label` (cacheStateInPage). */
export function keepInPage([label, name, args]: [string, string, unknown[]]): void {
  (globalThis as unknown as { dapp: DappGlobal }).dapp.keep(label, name as DappCall, args as never);
}

/** A dApp page after a trip through the back/forward cache (cacheStateInPage). */
export interface CacheState {
  /** How often the page came back from the cache (0: it was loaded again, so nothing was kept). */
  restored: number;
  /** The outcome kept under the label asked for, once the call has answered. */
  kept: Outcome<unknown> | null;
}

/** Runs IN THE dAPP PAGE: how often it came back from the back/forward cache, and a kept outcome. */
export function cacheStateInPage(label: string): CacheState {
  const { dapp } = globalThis as unknown as { dapp: DappGlobal };
  return { restored: dapp.restoredFromCache(), kept: dapp.kept(label) ?? null };
}

/** Runs IN THE dAPP PAGE: a copy of the provider events the dApp recorded so far. */
export function eventsInPage(): RecordedEvent[] {
  return (globalThis as unknown as { dapp: DappGlobal }).dapp.events.map((e) => ({ ...e }));
}

/** The value of a call that must succeed; the error's names and code in the failure otherwise. */
export function expectOk<T>(outcome: Outcome<T>, what: string): T {
  if (!outcome.ok) throw new Error(`${what} failed: ${outcome.error.names.join(' ← ')} (code ${String(outcome.error.code)}): ${outcome.error.message}`);
  return outcome.value;
}

/** A call the user rejected: code 4001, and (`viem`: made through viem) viem's UserRejectedRequestError somewhere in the chain. */
export function expectUserRejected(outcome: Outcome<unknown>, what: string, viem = true): void {
  if (outcome.ok) throw new Error(`${what} succeeded with ${JSON.stringify(outcome.value)}; expected a rejection`);
  expect(outcome.error.code, `${what}: ${outcome.error.message}`).toBe(4001);
  if (viem) expect(outcome.error.names).toContain('UserRejectedRequestError');
}

// ---- what both browsers check ----

/** The local network's EVM chain ID (43112 = 0xa868). */
export const CHAIN_ID = LOCAL_C_CHAIN.id;
export const CHAIN_ID_HEX = `0x${CHAIN_ID.toString(16)}`;

/** Discovery found exactly our wallet (one uuid), with its EIP-6963 info, and it is the page's provider. */
export function expectDiscovered(discovery: DappResult<'discovery'>): void {
  expect(discovery.picked).toMatchObject({ name: 'XPC Wallet', rdns: 'dev.xpcwallet' });
  const picked = discovery.picked!;
  expect(picked.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  expect(picked.icon).toMatch(/^data:image\/svg\+xml,/);
  // Every announcement the dApp heard is the same wallet (EIP-6963: one uuid per page load).
  expect(discovery.announced.length).toBeGreaterThan(0);
  expect(new Set(discovery.announced.map((a) => a.uuid))).toEqual(new Set([picked.uuid]));
  expect(discovery.isXpcWalletGlobal, 'the announced provider is window.xpcWallet').toBe(true);
  expect(discovery.isEthereumGlobal, 'with no other wallet, it is window.ethereum too').toBe(true);
}

/** viem's checksummed form of the account's C-Chain address (what requestAddresses answers). */
export function evmAddressOf(account: AccountView): Hex {
  return getAddress(account.cAddress);
}

/** personal_sign's signature verifies for the account (viem verifyMessage). */
export async function expectPersonalSignature(signature: Hex, account: AccountView): Promise<void> {
  expect(signature).toMatch(/^0x[0-9a-f]{130}$/);
  expect(await verifyMessage({ address: evmAddressOf(account), message: MESSAGE, signature })).toBe(true);
  // And not for any other message.
  expect(await verifyMessage({ address: evmAddressOf(account), message: `${MESSAGE}!`, signature })).toBe(false);
}

/**
 * The end of both browsers' back/forward-cache step: a `personal_sign` kept in the page (keepInPage)
 * waited for its approval while the page was away; `read` is cacheStateInPage in that page. The
 * page must be the one restored from the cache, unanswered until `approve` clicks Approve in the
 * window still showing the request, and then answered by it.
 */
export async function expectSignatureAfterCacheReturn(read: () => Promise<CacheState>, approve: () => Promise<void>, account: AccountView): Promise<void> {
  const settled = (): Promise<CacheState> => read().catch(() => ({ restored: 0, kept: null }));
  await expect.poll(async () => (await settled()).restored, { message: 'the page came back from the back/forward cache (not loaded again)', timeout: 10_000 }).toBe(1);
  expect((await read()).kept, 'nothing answered the page while it was away').toBeNull();
  await approve();
  await expect.poll(async () => (await read()).kept, { message: 'the page got its answer', timeout: 10_000 }).not.toBeNull();
  await expectPersonalSignature(expectOk((await read()).kept as Outcome<Hex>, 'signMessage'), account);
}

/** eth_signTypedData_v4's signature verifies for the account (viem verifyTypedData). */
export async function expectTypedSignature(signature: Hex, account: AccountView): Promise<void> {
  expect(signature).toMatch(/^0x[0-9a-f]{130}$/);
  const typed = typedDataFor(CHAIN_ID);
  expect(await verifyTypedData({ address: evmAddressOf(account), ...typed, signature })).toBe(true);
  expect(await verifyTypedData({ address: evmAddressOf(account), ...typed, message: { ...typed.message, contents: 'Hello, Eve!' }, signature })).toBe(false);
}

/** xpc_signMessage's answer: signed with the account's X key, in the Avalanche message format. */
export function expectXpSignature(answer: unknown, account: AccountView): void {
  expect(answer).toEqual({ signature: expect.any(String), address: account.xAddress });
  const { signature } = answer as { signature: string };
  const signer = avalancheMessageSigner(new TextEncoder().encode(XP_MESSAGE), cb58Decode(signature));
  expect(toHex(signer)).toBe(toHex(parseAddress(account.xAddress).bytes));
}

// ---- the approval window ----

/** What the approval window shows for the request on screen, read from its DOM. */
export interface ApprovalSnapshot {
  /** "Connection request", "Message to sign", … */
  title: string;
  /** data-testid="origin": the requesting site as the wallet tells it. */
  origin: string;
  /** The site's method, from the header. */
  method: string;
  /** Text of every element with a data-testid, by that id. */
  testids: Record<string, string>;
  /** Text of the <pre class="message"> blocks (message, typed domain and message). */
  pre: string[];
  /** The whole body's text (addresses, amounts, …). */
  body: string;
  buttons: { text: string; disabled: boolean }[];
}

/** Runs IN THE APPROVAL PAGE (pass it to page.evaluate): null until a request is on screen. */
export function readApproval(): ApprovalSnapshot | null {
  const head = document.querySelector('header.approval-head');
  const origin = document.querySelector('[data-testid="origin"]');
  if (!head || !origin) return null;
  const testids: Record<string, string> = {};
  for (const el of Array.from(document.querySelectorAll('[data-testid]'))) testids[el.getAttribute('data-testid') ?? ''] = (el.textContent ?? '').trim();
  return {
    title: (head.querySelector('.small-text.muted')?.textContent ?? '').trim(),
    origin: (origin.textContent ?? '').trim(),
    method: (head.querySelector('span.mono')?.textContent ?? '').trim(),
    testids,
    pre: Array.from(document.querySelectorAll('pre.message')).map((el) => el.textContent ?? ''),
    body: document.querySelector('.approval-body')?.textContent ?? '',
    buttons: Array.from(document.querySelectorAll('footer button')).map((b) => ({ text: (b.textContent ?? '').trim(), disabled: (b as HTMLButtonElement).disabled })),
  };
}

/** Both buttons there and enabled, Reject first (it has the focus: Enter never approves). */
export function expectDecisionButtons(shown: ApprovalSnapshot): void {
  expect(shown.buttons).toEqual([
    { text: 'Reject', disabled: false },
    { text: 'Approve', disabled: false },
  ]);
}

/** The connect request: the dApp's origin and the three addresses the site will see. */
export function expectConnectApproval(shown: ApprovalSnapshot, origin: string, account: AccountView): void {
  expect(shown).toMatchObject({ title: 'Connection request', origin, method: 'eth_requestAccounts' });
  expect(shown.testids['connect-account']).toBe(account.name);
  for (const address of [account.cAddress, account.xAddress, account.pAddress]) expect(shown.testids['connect-summary']).toContain(address);
  expectDecisionButtons(shown);
}

/** personal_sign: the message as text, EIP-191, signed by the connected C address. */
export function expectPersonalSignApproval(shown: ApprovalSnapshot, origin: string, account: AccountView): void {
  expect(shown).toMatchObject({ title: 'Message to sign', origin, method: 'personal_sign' });
  expect(shown.pre).toEqual([MESSAGE]);
  expect(shown.testids['message-format']).toBe('Ethereum personal message (EIP-191)');
  expect(shown.testids['message-summary']).toContain(account.cAddress);
  expectDecisionButtons(shown);
}

/**
 * wallet_addEthereumChain's first question: the chain by its ID and RPC host, the site's name as
 * its claim (the zero-width space gone, the Avalanche look-alike flagged), and that it does not switch.
 */
export function expectAddChainApproval(shown: ApprovalSnapshot, origin: string, rpcHost: string): void {
  expect(shown).toMatchObject({ title: 'Add a chain', origin, method: 'wallet_addEthereumChain' });
  expect(shown.testids['add-chain-what']).toBe(`Add the EVM chain with chain ID ${ADDED_CHAIN.id}, served by ${rpcHost}, to the wallet.`);
  expect(shown.testids['add-chain-no-switch']).toContain('does not switch');
  expect(shown.testids['add-chain-name']).toBe(`“${ADDED_CHAIN.shownName}”`);
  expect(shown.testids['add-chain-name-altered']).toContain('hidden characters');
  expect(shown.testids['add-chain-lookalike']).toBe(`This name looks like Avalanche C-Chain (chain ID 43114), but this is chain ID ${ADDED_CHAIN.id}: another chain.`);
  expectDecisionButtons(shown);
}

/** The switch question: this site only, to the chain by its ID and RPC host; after an add, said to be a separate choice. */
export function expectSwitchQuestion(shown: ApprovalSnapshot, origin: string, method: string, rpcHost: string, afterAdd: boolean): void {
  expect(shown).toMatchObject({ title: 'Switch chain', origin, method });
  expect(shown.testids['switch-what']).toBe(`Switch this site to chain ID ${ADDED_CHAIN.id}, served by ${rpcHost}?`);
  expect(shown.testids['switch-scope']).toContain('Only this site changes: other sites keep their chain.');
  expect('switch-after-add' in shown.testids).toBe(afterAdd);
  expect('switch-added-by' in shown.testids).toBe(false);
  expectDecisionButtons(shown);
}

/** Another site's switch to the chain `addedBy` added: the question names that site, which chose the RPC node. */
export function expectSwitchToAnotherSitesChain(shown: ApprovalSnapshot, origin: string, addedBy: string, rpcHost: string): void {
  expect(shown).toMatchObject({ title: 'Switch chain', origin, method: 'wallet_switchEthereumChain' });
  expect(shown.testids['switch-what']).toBe(`Switch this site to chain ID ${ADDED_CHAIN.id}, served by ${rpcHost}?`);
  expect(shown.testids['switch-added-by']).toBe(`Another site, ${new URL(addedBy).host}, added this chain and chose its RPC node.`);
  expectDecisionButtons(shown);
}

/** The payment as a raw eth_sendTransaction (viem's would check for its own chain, and choose the nonce), at `nonce` if given. */
export function rawPayment(from: string, nonce?: number): [string, unknown[]] {
  return ['eth_sendTransaction', [{ from, to: PAYEE, value: `0x${PAYMENT_WEI.toString(16)}`, ...(nonce !== undefined ? { nonce: `0x${nonce.toString(16)}` } : {}) }]];
}

/** Its approval names that chain by its ID and RPC host, the site's name for it only as its claim; the value in the chain's symbol. */
export function expectPaymentOnAddedChain(shown: ApprovalSnapshot, origin: string, rpcHost: string): void {
  expect(shown).toMatchObject({ title: 'EVM transaction to sign', origin, method: 'eth_sendTransaction' });
  expect(shown.testids['evm-chain']).toBe(`chain ID ${ADDED_CHAIN.id}, which the site that added it calls “${ADDED_CHAIN.shownName}”, served by ${rpcHost}`);
  expect(shown.testids['evm-value']).toBe(`0.012345 ${ADDED_CHAIN.symbol}`);
  expectDecisionButtons(shown);
}

/** A payment the site asked for at nonce `asked`: the approval names it and the one the wallet takes, and says it replaces no waiting tx. */
export function expectSiteNonceNamed(shown: ApprovalSnapshot, origin: string, asked: number, taken: number): void {
  expect(shown).toMatchObject({ title: 'EVM transaction to sign', origin, method: 'eth_sendTransaction' });
  expect(shown.testids['evm-nonce']).toBe(String(taken));
  expect(shown.testids['evm-site-nonce']).toBe(
    `The site asked for nonce ${asked}; the wallet uses ${taken}. This replaces no waiting transaction: Speed up or Cancel in Activity does that.`,
  );
  expectDecisionButtons(shown);
}

// ---- a contract the site deploys ----

/** What the site deploys (dapp/app.ts deployContract): the project's test ERC-721, no constructor arguments. */
export const DEPLOYED_BYTECODE = contracts.contracts.TestNft.bytecode as Hex;

/**
 * The deployment's approval: "Deploy a contract", the code's exact size and hash, the address it
 * will have, and (tried on the node first) no balance of the account changing besides the fee.
 */
export function expectDeployApproval(shown: ApprovalSnapshot, origin: string): void {
  expect(shown).toMatchObject({ title: 'Deploy a contract', origin, method: 'eth_sendTransaction' });
  expect(shown.testids['deploy-size']).toBe(`${(DEPLOYED_BYTECODE.length - 2) / 2} bytes`);
  expect(shown.testids['deploy-hash']).toBe(keccak256(DEPLOYED_BYTECODE));
  expect(shown.testids['deploy-address']).toMatch(/^0x[0-9a-fA-F]{40}$/);
  expect(shown.testids['simulation-changes']).toBe('No balance change found (besides the fee).');
  expectDecisionButtons(shown);
}

/** The deployment succeeded from the account, at the address its approval named, and the node holds the contract's code there. */
export async function expectDeployed(receipt: ReceiptView, shown: ApprovalSnapshot, account: AccountView): Promise<void> {
  expect(receipt.status).toBe('success');
  expect(receipt.from.toLowerCase()).toBe(account.cAddress.toLowerCase());
  const address = shown.testids['deploy-address']!;
  expect(receipt.contractAddress?.toLowerCase()).toBe(address.toLowerCase());
  const { client } = await localNetwork();
  // Helicon executes an accepted block a moment after its receipt: the code is polled for.
  const code = (): Promise<string> => client.eth.ethCall('eth_getCode', [address, 'latest']) as Promise<string>;
  await expect.poll(async () => (await code()).length > 2, { message: 'the node holds code at the approved address', timeout: 15_000 }).toBe(true);
  // The runtime code is the part of the creation code the constructor returns.
  expect(DEPLOYED_BYTECODE.slice(2)).toContain((await code()).slice(2));
}

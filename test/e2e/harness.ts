// Shared pieces of the real-browser suite: where the built extension is, temp profiles, process
// clean-up by PID, a counting JSON-RPC proxy in front of the local node, a plain loopback web page,
// funding from the genesis key, artifacts (screenshots, console logs) and a step runner that
// stops a browser's flow at its first failure.
//
// Everything listens on 127.0.0.1 only; the browsers are started with their network chatter off.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type CDPSession, type Page, type Worker } from 'playwright-core';
import { expect, it, type TestContext } from 'vitest';
import { encodeUtxo } from '../../src/core/codec/index.js';
import { cb58Encode, parseAddress, parseId, toApiHex } from '../../src/core/encoding.js';
import { makeOwners } from '../../src/core/tx/context.js';
import { callBackground, type SendToBackground } from '../../src/shared/client.js';
import type { RequestMessage, RequestParams, RequestResult, RequestType, Selection } from '../../src/shared/messages.js';
import { genesisEngine, localNetwork } from '../integration/fixture.js';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const ARTIFACTS_DIR = join(REPO_ROOT, 'test-artifacts', 'e2e');
export const PASSWORD = 'e2e correct horse battery';

// ---- the built extension and the browsers ----

export interface BuiltExtension {
  dir: string;
  manifest: {
    version: string;
    action?: { default_popup?: string };
    background?: { service_worker?: string; scripts?: string[] };
    browser_specific_settings?: { gecko?: { id?: string } };
  };
  /** Path of the popup page inside the extension, from action.default_popup. */
  popupPath: string;
}

/** dist/<target> as built by `npm run build` (or a copy of it in `dir`); a clear error when it is not there. */
export function builtExtension(target: 'chrome' | 'firefox', dir = join(REPO_ROOT, 'dist', target)): BuiltExtension {
  const manifestPath = join(dir, 'manifest.json');
  if (!existsSync(manifestPath)) {
    throw new Error(`no built extension at ${dir} (missing manifest.json): run \`npm run build\` before \`npm run test:e2e\``);
  }
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as BuiltExtension['manifest'];
  const popup = manifest.action?.default_popup;
  if (!popup) throw new Error(`${manifestPath} has no action.default_popup`);
  const popupPath = popup.replace(/^\/+/, '');
  if (!existsSync(join(dir, popupPath))) throw new Error(`${manifestPath} names popup ${popup}, which is not in ${dir}`);
  return { dir, manifest, popupPath };
}

/** The first of `candidates` that exists; a clear error naming scripts/browsers.sh otherwise. */
export function browserExecutable(name: string, candidates: string[]): string {
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new Error(`${name} is not installed (looked for ${candidates.join(', ')}): run \`bash scripts/browsers.sh\``);
  return found;
}

/**
 * Debian's Chromium, headless, with a fresh profile and the built extension loaded, reaching
 * nothing but loopback (no host name resolves; the node and test pages are IP literals).
 * `backForwardCache` keeps the browser's back/forward cache on (Playwright turns it off).
 */
export function launchChromiumWithExtension(
  executablePath: string,
  profileDir: string,
  extensionDir: string,
  options: { backForwardCache?: boolean } = {},
): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profileDir, {
    executablePath,
    headless: true,
    viewport: POPUP_VIEWPORT,
    ignoreDefaultArgs: ['--disable-extensions', ...(options.backForwardCache ? ['--disable-back-forward-cache'] : [])],
    args: [
      `--disable-extensions-except=${extensionDir}`,
      `--load-extension=${extensionDir}`,
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-default-apps',
      '--disable-sync',
      '--no-first-run',
      '--no-default-browser-check',
      '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
    ],
    timeout: 30_000,
  });
}

/** The extension's ID, read off its service worker once that runs (at most 15 s after launch). */
export async function extensionIdOf(context: BrowserContext): Promise<string> {
  const ours = (worker: Worker): boolean => worker.url().startsWith('chrome-extension://');
  const worker = context.serviceWorkers().find(ours) ?? (await context.waitForEvent('serviceworker', { predicate: ours, timeout: 15_000 }));
  return new URL(worker.url()).host;
}

/**
 * The extension's service worker as the DevTools ServiceWorker domain reports it. Playwright's
 * Worker object does not see a stop and restart of the same registration; this does.
 */
export class ExtensionWorkerWatch {
  /** Running statuses in the order seen ('starting', 'running', 'stopping', 'stopped'). */
  readonly statuses: string[] = [];

  private constructor(private readonly cdp: CDPSession) {}

  /** Starts watching through a DevTools session of `page` (any page of the context). */
  static async attach(context: BrowserContext, page: Page, extensionId: string, log: ConsoleLog): Promise<ExtensionWorkerWatch> {
    const watch = new ExtensionWorkerWatch(await context.newCDPSession(page));
    watch.cdp.on('ServiceWorker.workerVersionUpdated', ({ versions }) => {
      for (const v of versions) {
        if (!v.scriptURL.startsWith(`chrome-extension://${extensionId}/`)) continue;
        if (watch.statuses.at(-1) !== v.runningStatus) watch.statuses.push(v.runningStatus);
        log.add('worker', `${v.runningStatus} (version ${v.versionId}, ${v.status})`);
      }
    });
    await watch.cdp.send('ServiceWorker.enable');
    return watch;
  }

  /** Stops the running worker (ServiceWorker.stopAllWorkers) and waits until it reports stopped. */
  async stop(): Promise<void> {
    await expect.poll(() => this.statuses.at(-1), { message: 'the worker runs before the stop', timeout: 10_000 }).toBe('running');
    const before = this.statuses.length;
    await this.cdp.send('ServiceWorker.stopAllWorkers');
    // Seen stopped at some point: an open popup's next message may start it again at once.
    await expect.poll(() => this.statuses.slice(before).includes('stopped'), { message: 'the worker stopped', timeout: 10_000 }).toBe(true);
  }

  /** Whether the worker ran again after its last stop. */
  ranAgain(): boolean {
    return this.statuses.slice(this.statuses.lastIndexOf('stopped')).includes('running');
  }

  async detach(): Promise<void> {
    await this.cdp.detach().catch(() => undefined);
  }
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function removeDir(dir: string | undefined): void {
  if (dir) rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}

// ---- processes (Linux /proc) ----

function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid …": comm may hold spaces and parentheses, so read after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[1]);
  } catch {
    return undefined;
  }
}

function allPids(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    // A zombie still answers signal 0; it is dead for our purposes.
    return !/^\d+ \(.*\) Z/s.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** `pid` and every process below it, parents first. */
export function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const p of allPids()) {
    const parent = parentOf(p);
    if (parent === undefined) continue;
    const list = children.get(parent) ?? [];
    list.push(p);
    children.set(parent, list);
  }
  const out: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const p = queue.shift()!;
    out.push(p);
    queue.push(...(children.get(p) ?? []));
  }
  return out;
}

/** The main browser process of a Chromium started with this --user-data-dir (not its helpers). */
export function chromiumPidFor(profileDir: string): number | undefined {
  for (const pid of allPids()) {
    let cmdline: string[];
    try {
      cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    if (cmdline.includes(`--user-data-dir=${profileDir}`) && !cmdline.some((a) => a.startsWith('--type='))) return pid;
  }
  return undefined;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '?';
  }
}

/**
 * Waits up to `graceMs` for the given processes to exit on their own (after the driver's close),
 * then kills what is left, each by its PID (SIGKILL), and waits until it is gone. Returns the
 * processes it had to kill, as "pid (command)".
 */
export async function killPids(pids: number[], graceMs = 3_000): Promise<string[]> {
  const graceEnd = Date.now() + graceMs;
  while (pids.some(isAlive) && Date.now() < graceEnd) await sleep(50);
  const killed: string[] = [];
  for (const pid of pids) {
    if (!isAlive(pid)) continue;
    const command = commandOf(pid);
    try {
      process.kill(pid, 'SIGKILL');
      killed.push(`${pid} (${command})`);
    } catch {
      /* gone meanwhile */
    }
  }
  const deadline = Date.now() + 5_000;
  while (pids.some(isAlive) && Date.now() < deadline) await sleep(50);
  return killed;
}

/** Resolves with `promise`, or rejects after `ms` with `what` in the message. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

// ---- loopback servers ----

function listen(server: Server): Promise<string> {
  return new Promise((resolveUrl, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolveUrl(`http://127.0.0.1:${port}`);
    });
  });
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((r) => server.close(() => r()));
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolveBody, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolveBody(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export interface RpcProxy {
  /** The URL the wallet is given instead of the node's own. */
  url: string;
  /** How many JSON-RPC calls of `method` went through so far. */
  count(method: string): number;
  /**
   * Catches the next call of `method` to `path` (e.g. '/ext/bc/C/avax', 'avax.issueTx'): it never
   * reaches the node and gets no answer, as if the node hung. Resolves with its JSON-RPC params
   * once it arrives; `dropHeld()` then closes its connection without an answer.
   */
  holdNext(path: string, method: string): Promise<unknown>;
  dropHeld(): void;
  /**
   * Rewrites the node's result of every later call of `method` with `change` (params: the call's),
   * as a lying node would; `undefined` stops it.
   */
  rewrite(method: string, change: ((result: unknown, params: unknown) => unknown) | undefined): void;
  /**
   * 'down': every request's connection is closed at once, as by a stopped node; 'hang': requests
   * are taken and never answered, as by a hung one; 'up' (the start): passed on. Leaving 'hang'
   * closes the requests it held.
   */
  setMode(mode: 'up' | 'down' | 'hang'): void;
  close(): Promise<void>;
}

/**
 * A pass-through proxy for the node's HTTP API that counts the JSON-RPC methods it sees. The
 * wallet's background asks for the node's identity (info.getNetworkID, …) once per life of the
 * background, so a new identity call after a pause shows that a fresh background is answering.
 */
export async function startRpcProxy(targetUrl: string): Promise<RpcProxy> {
  const target = new URL(targetUrl);
  const counts = new Map<string, number>();
  /** What each call is, for counting and catching: one entry per call of a batch. */
  const callsIn = (body: Buffer): { method: string; params: unknown }[] => {
    try {
      const parsed = JSON.parse(body.toString('utf8')) as unknown;
      return (Array.isArray(parsed) ? parsed : [parsed]).flatMap((call) => {
        const { method, params } = (call ?? {}) as { method?: unknown; params?: unknown };
        return typeof method === 'string' ? [{ method, params }] : [];
      });
    } catch {
      return []; // not JSON: nothing to count
    }
  };
  let wanted: { path: string; method: string; caught: (params: unknown) => void } | undefined;
  const held: ServerResponse[] = [];
  const rewrites = new Map<string, (result: unknown, params: unknown) => unknown>();
  let mode: 'up' | 'down' | 'hang' = 'up';
  const hung: ServerResponse[] = [];
  const server = createServer((req, res) => {
    if (mode === 'down') {
      req.socket.destroy();
      return;
    }
    if (mode === 'hang') {
      hung.push(res);
      return;
    }
    readBody(req).then(
      (body) => {
        const calls = callsIn(body);
        for (const { method } of calls) counts.set(method, (counts.get(method) ?? 0) + 1);
        const catching = wanted && req.url === wanted.path ? calls.find((c) => c.method === wanted!.method) : undefined;
        if (wanted && catching) {
          held.push(res);
          wanted.caught(catching.params);
          wanted = undefined;
          return;
        }
        const upstream = httpRequest(
          { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: { ...req.headers, host: target.host } },
          (answer) => {
            const change = calls.length === 1 ? rewrites.get(calls[0]!.method) : undefined;
            if (!change) {
              res.writeHead(answer.statusCode ?? 502, answer.headers);
              answer.pipe(res);
              return;
            }
            readBody(answer).then((raw) => {
              const parsed = JSON.parse(raw.toString('utf8')) as { result?: unknown };
              const out = Buffer.from(JSON.stringify(parsed.result === undefined ? parsed : { ...parsed, result: change(parsed.result, calls[0]!.params) }));
              res.writeHead(answer.statusCode ?? 502, { 'content-type': 'application/json', 'content-length': String(out.length) });
              res.end(out);
            }, () => res.destroy());
          },
        );
        upstream.on('error', (e) => {
          res.writeHead(502, { 'content-type': 'text/plain' });
          res.end(`proxy: ${e.message}`);
        });
        upstream.end(body);
      },
      () => res.destroy(),
    );
  });
  const url = await listen(server);
  return {
    url,
    count: (method) => counts.get(method) ?? 0,
    holdNext: (path, method) => {
      if (wanted) throw new Error(`the proxy already waits for ${wanted.method} on ${wanted.path}`);
      return new Promise((caught) => (wanted = { path, method, caught }));
    },
    dropHeld: () => {
      for (const res of held.splice(0)) res.destroy();
    },
    rewrite: (method, change) => {
      if (change) rewrites.set(method, change);
      else rewrites.delete(method);
    },
    setMode: (next) => {
      mode = next;
      if (next !== 'hang') for (const res of hung.splice(0)) res.destroy();
    },
    close: () => closeServer(server),
  };
}

/**
 * A lie for `RpcProxy.rewrite('avm.getUTXOs', …)`: the X-Chain UTXOs, plus one of `amount` of
 * `assetID` to `ownerX` under a tx that does not exist (valid bytes and checksum, count kept).
 */
export function madeUpUtxo(ownerX: string, assetID: string, amount: bigint): (result: unknown, params: unknown) => unknown {
  const utxo = { txID: new Uint8Array(32).fill(7), outputIndex: 0, assetID: parseId(assetID), output: { kind: 'TransferOutput' as const, amount, owners: makeOwners([parseAddress(ownerX).bytes]) } };
  const hex = toApiHex(encodeUtxo(utxo, 'avm'));
  return (result, params) => {
    const page = result as { utxos: string[]; numFetched: string };
    if ((params as { sourceChain?: string }).sourceChain) return page;
    return { ...page, utxos: [...page.utxos, hex], numFetched: String(page.utxos.length + 1) };
  };
}

export interface WebPage {
  url: string;
  close(): Promise<void>;
}

/** An ordinary web page on loopback (what a dapp or any site is to the extension). */
export async function startWebPage(): Promise<WebPage> {
  const html = '<!doctype html><html><head><meta charset="utf-8"><title>plain web page</title></head><body><p id="page">a plain web page</p></body></html>';
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html);
  });
  const url = await listen(server);
  return { url: `${url}/`, close: () => closeServer(server) };
}

// ---- the wallet protocol from a page of the extension ----

/** `selection`: the account and network a request that moves funds was reviewed on (as the popup sends it). */
export type Call = <T extends RequestType>(type: T, params: RequestParams<T>, selection?: Selection) => Promise<RequestResult<T>>;

/**
 * The typed protocol over a browser-specific `send` (page.evaluate of runtime.sendMessage),
 * answers read by the wallet's own client code (src/shared/client.ts). Each call goes to `log`
 * by type and outcome only: params and results may hold passwords or recovery phrases.
 */
export function walletCaller(send: (message: RequestMessage) => Promise<unknown>, log: ConsoleLog): Call {
  const sender: SendToBackground = (message) => send(message);
  return async (type, params, selection) => {
    const started = Date.now();
    try {
      const result = await callBackground(type, params, sender, selection);
      log.add('call', `${type} ok in ${Date.now() - started} ms`);
      return result;
    } catch (e) {
      const code = (e as { code?: unknown }).code;
      log.add('call', `${type} failed in ${Date.now() - started} ms: ${typeof code === 'string' ? code : 'error'}: ${e instanceof Error ? e.message : String(e)}`);
      throw e;
    }
  };
}

/**
 * The first `{type: 'ping'}` from a page, retried while the background is still starting (right
 * after launch or install, no listener may be registered yet). Each failed attempt is logged.
 */
export async function firstPing(send: (message: unknown) => Promise<unknown>, log: ConsoleLog, timeoutMs = 10_000): Promise<unknown> {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 1; ; attempt += 1) {
    try {
      const answer = await send({ type: 'ping' });
      if (attempt > 1) log.add('test', `the background answered the ping on attempt ${attempt}`);
      return answer;
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      log.add('test', `ping attempt ${attempt} failed: ${why}`);
      if (Date.now() > deadline) throw new Error(`the background did not answer a ping within ${timeoutMs} ms; last error: ${why}`, { cause: e });
      await sleep(200);
    }
  }
}

// ---- the local node ----

/** Sends `amount` nAVAX on the X-Chain from the genesis key to `xAddress`; resolves when accepted. */
export async function fundX(xAddress: string, amount: bigint): Promise<string> {
  const net = await localNetwork();
  const genesis = await genesisEngine();
  const owners = makeOwners([parseAddress(xAddress).bytes]);
  const issued = await genesis.issueAndWait(await genesis.buildXSend([{ assetID: net.ctx.avaxAssetID, amount, owners }]));
  return issued.txID;
}

export async function avaxAssetId(): Promise<string> {
  return cb58Encode((await localNetwork()).ctx.avaxAssetID);
}

// ---- artifacts and logs ----

export function artifactPath(name: string): string {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  return join(ARTIFACTS_DIR, name);
}

/** Removes a browser's artifacts of an earlier run, so that what is there is from this one. */
export function clearArtifacts(prefix: string): void {
  if (!existsSync(ARTIFACTS_DIR)) return;
  for (const name of readdirSync(ARTIFACTS_DIR)) {
    if (name.startsWith(prefix)) rmSync(join(ARTIFACTS_DIR, name), { force: true });
  }
}

/**
 * Runs IN THE PAGE (pass it to page.evaluate): resolves once the page's DOM has not changed for
 * `quietMs`, or after `maxMs`. Used before screenshots, after the popup renders what it loads.
 */
export function domQuiet({ quietMs, maxMs }: { quietMs: number; maxMs: number }): Promise<void> {
  return new Promise((done) => {
    let timer: ReturnType<typeof setTimeout>;
    const finish = (): void => {
      observer.disconnect();
      clearTimeout(timer);
      clearTimeout(cap);
      done();
    };
    const observer = new MutationObserver(() => {
      clearTimeout(timer);
      timer = setTimeout(finish, quietMs);
    });
    observer.observe(document.documentElement, { subtree: true, childList: true, characterData: true, attributes: true });
    timer = setTimeout(finish, quietMs);
    const cap = setTimeout(finish, maxMs);
  });
}

/** The popup's size in the browser's toolbar, for screenshots that look like the real thing. */
export const POPUP_VIEWPORT = { width: 400, height: 600 };

/** Timestamped lines from the browser's pages, background and process output. */
export class ConsoleLog {
  readonly lines: string[] = [];
  readonly #start = Date.now();

  add(source: string, text: string): void {
    const t = ((Date.now() - this.#start) / 1000).toFixed(3).padStart(8);
    this.lines.push(`${t}s [${source}] ${text}`);
  }

  save(name: string): string {
    const path = artifactPath(name);
    writeFileSync(path, `${this.lines.join('\n')}\n`);
    return path;
  }
}

/**
 * Runs a suite's launch; when it fails, saves the console log as `<prefix>FAILED-launch.console.log`
 * and says where before failing the suite.
 */
export async function launchOrSaveLog(log: ConsoleLog, prefix: string, suite: string, launch: () => Promise<void>): Promise<void> {
  try {
    await launch();
  } catch (e) {
    const path = log.save(`${prefix}FAILED-launch.console.log`);
    console.error(`[e2e ${suite}] launch failed; console log: ${path}`);
    throw e;
  }
}

/** Wall-clock durations of the steps of one browser's flow, for the summary line. */
export class Timings {
  readonly #entries: [string, number][] = [];

  add(step: string, ms: number): void {
    this.#entries.push([step, ms]);
  }

  summary(browser: string): string {
    const total = this.#entries.reduce((sum, [, ms]) => sum + ms, 0);
    const parts = this.#entries.map(([step, ms]) => `${step} ${(ms / 1000).toFixed(2)}s`);
    return `[e2e ${browser}] ${(total / 1000).toFixed(2)}s in steps: ${parts.join(', ')}`;
  }
}

/**
 * Declares the steps of one flow as ordered tests: each step after a failed one is skipped (its
 * state builds on the earlier steps), and the first failure calls `onFailure` once (screenshots,
 * console log).
 */
export function flowSteps(timings: Timings, onFailure: (step: string) => Promise<void>) {
  let failedAt: string | undefined;
  return (name: string, body: (ctx: TestContext) => Promise<void>, timeoutMs?: number): void => {
    it(
      name,
      async (ctx) => {
        if (failedAt !== undefined) ctx.skip(`an earlier step failed: ${failedAt}`);
        ctx.onTestFailed(async () => {
          if (failedAt !== undefined) return;
          failedAt = name;
          await onFailure(name).catch((e: unknown) => console.error(`[e2e] could not save failure artifacts: ${String(e)}`));
        });
        const started = Date.now();
        await body(ctx);
        timings.add(name, Date.now() - started);
      },
      timeoutMs,
    );
  };
}

export function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60);
}

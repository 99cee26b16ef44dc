// Page code for the request fuzz (test/e2e/fuzz.ts bundles it with esbuild and inlines it into a
// plain page). A hostile page's requests, generated from a seed: random methods, odd argument
// shapes, params of every type, size, depth and encoding a page can build (deep nesting, huge
// strings, lone surrogates, BigInt, functions, symbols, cycles, Maps, DOM nodes, throwing
// getters, proxies), sent through window.xpcWallet.request and, a part of them, posted straight to
// the content script as a page could. `window.fuzz.run` answers with what became of each request
// as plain data, for the test to check that every one was answered in time.
import { CONTENT_TARGET, INPAGE_TARGET } from '../../../src/shared/provider-protocol.js';
import { describeValue, makeRandom, type Random } from './random.js';

export interface FuzzOutcome {
  index: number;
  /** How the request was sent: through the provider, or posted as a page could. */
  via: 'request' | 'post';
  /** A short description of what was sent (for the failure message and a replay). */
  sent: string;
  /** 'result', 'error' (with `code`), 'thrown' (not an error object with a numeric code) or 'none' (no answer in time). */
  answer: 'result' | 'error' | 'thrown' | 'none';
  code?: unknown;
  message?: string;
  ms: number;
}

export interface FuzzOptions {
  seed: number;
  count: number;
  /** Requests under way at once. */
  concurrency: number;
  /** An answer that takes longer than this counts as none. */
  answerWithinMs: number;
}

interface Provider {
  request(args: unknown): Promise<unknown>;
}

const KNOWN_METHODS = [
  'eth_chainId', 'net_version', 'eth_accounts', 'eth_requestAccounts', 'wallet_requestPermissions', 'wallet_getPermissions',
  'wallet_revokePermissions', 'wallet_switchEthereumChain', 'wallet_addEthereumChain', 'personal_sign', 'eth_signTypedData_v4',
  'eth_sendTransaction', 'wallet_sendTransaction', 'xpc_getAddresses', 'xpc_signTransaction', 'xpc_sendTransaction', 'xpc_signMessage',
  'avalanche_getAccounts', 'avalanche_sendTransaction', 'avalanche_signTransaction', 'avalanche_signMessage', 'xpc_providerState',
  'eth_blockNumber', 'eth_call', 'eth_estimateGas', 'eth_feeHistory', 'eth_gasPrice', 'eth_getBalance', 'eth_getBlockByNumber',
  'eth_getCode', 'eth_getLogs', 'eth_getStorageAt', 'eth_getTransactionByHash', 'eth_getTransactionCount', 'eth_getTransactionReceipt',
  'eth_newFilter', 'eth_getFilterChanges', 'eth_uninstallFilter', 'eth_subscribe', 'eth_sign', 'web3_clientVersion',
];

function randomMethod(r: Random): unknown {
  const roll = r.int(100);
  if (roll < 70) return r.pick(KNOWN_METHODS);
  if (roll < 80) return r.pick(['', ' ', '__proto__', 'constructor', 'toString', 'hasOwnProperty', 'eth_call\u0000', 'ETH_CHAINID', 'eth_chainId ', '💥', '\ud800']);
  if (roll < 88) return r.string(r.pick([1, 99, 100, 101, 5_000]));
  return r.pick([null, 0, 42, true, {}, [], ['eth_chainId'], Symbol('m')]);
}

/** What request() is called with: usually { method, params }, sometimes not an object at all. */
function randomArgs(r: Random, dom: Node): unknown {
  const roll = r.int(100);
  if (roll < 4) return r.pick([undefined, null, 'eth_chainId', 7, [], () => 1]);
  const args: Record<string, unknown> = { method: randomMethod(r) };
  if (r.int(100) < 85) args.params = r.params(dom);
  // JSON-RPC envelope fields a confused page adds: request() ignores them.
  if (r.int(100) < 15) args.id = r.pick([0, -1, 1.5, 'x'.repeat(1_000), null, {}, [], '🦊', 2n ** 70n]);
  if (r.int(100) < 10) args.jsonrpc = r.pick(['2.0', '1.0', 2, null]);
  return args;
}

/** An id a page could post to the content script with: any string of 1..100 UTF-16 units is answered. */
function randomPostId(r: Random, index: number): string {
  // The index keeps concurrent posts apart; the rest is odd on purpose.
  const tail = r.pick([r.string(r.int(80)), '🦊'.repeat(20), ' \u200b', '"}', '\ud800']);
  return `${index}:${tail}`.slice(0, 100);
}

function codeOf(e: unknown): unknown {
  return typeof e === 'object' && e !== null ? (e as { code?: unknown }).code : undefined;
}

function messageOf(e: unknown): string {
  const m = typeof e === 'object' && e !== null ? (e as { message?: unknown }).message : undefined;
  return typeof m === 'string' ? m.slice(0, 200) : String(e).slice(0, 200);
}

function settleWithin<T>(promise: Promise<T>, ms: number): Promise<{ settled: true; ok: boolean; value: unknown } | { settled: false }> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ settled: false }), ms);
    promise.then(
      (value) => (clearTimeout(timer), resolve({ settled: true, ok: true, value })),
      (value: unknown) => (clearTimeout(timer), resolve({ settled: true, ok: false, value })),
    );
  });
}

/** Answers to posts of our own, by id (the page's provider ignores ids it did not make). */
const postAnswers = new Map<string, (response: unknown) => void>();
window.addEventListener('message', (event) => {
  const data = event.data as { target?: unknown; id?: unknown; response?: unknown } | null;
  if (event.source !== window || !data || data.target !== INPAGE_TARGET || typeof data.id !== 'string') return;
  // { received: true } comes first; the answer is what counts.
  if (data.response !== undefined) postAnswers.get(data.id)?.(data.response);
});

async function one(r: Random, index: number, provider: Provider, options: FuzzOptions): Promise<FuzzOutcome> {
  const started = performance.now();
  const elapsed = (): number => Math.round(performance.now() - started);
  // A tenth goes straight to the content script, with data the page's own clone can carry.
  if (r.int(10) === 0) {
    const id = randomPostId(r, index);
    const message = { target: CONTENT_TARGET, id, method: randomMethod(r), params: r.plainParams() };
    const sent = `post id=${JSON.stringify(id.slice(0, 20))} ${describeValue(message.method)} ${describeValue(message.params)}`;
    if (typeof message.method === 'symbol') message.method = 'symbol';
    const answered = new Promise<unknown>((resolve) => postAnswers.set(id, resolve));
    window.postMessage(message, '*');
    const outcome = await settleWithin(answered, options.answerWithinMs);
    postAnswers.delete(id);
    if (!outcome.settled) return { index, via: 'post', sent, answer: 'none', ms: elapsed() };
    const response = outcome.value as { ok?: unknown; result?: unknown; error?: { code?: unknown; message?: unknown } } | undefined;
    if (response?.ok === true) return { index, via: 'post', sent, answer: 'result', ms: elapsed() };
    const code = response?.error?.code;
    return { index, via: 'post', sent, answer: typeof code === 'number' ? 'error' : 'thrown', code, message: messageOf(response?.error), ms: elapsed() };
  }
  const args = randomArgs(r, document.body);
  const sent = `request ${describeValue(args)}`;
  let call: Promise<unknown>;
  try {
    call = provider.request(args);
  } catch (e) {
    // request() must answer through its promise, never throw at the caller.
    return { index, via: 'request', sent, answer: 'thrown', message: `threw synchronously: ${messageOf(e)}`, ms: elapsed() };
  }
  const outcome = await settleWithin(call, options.answerWithinMs);
  if (!outcome.settled) return { index, via: 'request', sent, answer: 'none', ms: elapsed() };
  if (outcome.ok) return { index, via: 'request', sent, answer: 'result', ms: elapsed() };
  const code = codeOf(outcome.value);
  const isError = outcome.value instanceof Error && typeof code === 'number' && Number.isInteger(code);
  return { index, via: 'request', sent, answer: isError ? 'error' : 'thrown', code, message: messageOf(outcome.value), ms: elapsed() };
}

async function run(options: FuzzOptions): Promise<FuzzOutcome[]> {
  const provider = (window as unknown as { xpcWallet?: Provider }).xpcWallet;
  if (!provider) throw new Error('window.xpcWallet is missing: the wallet did not inject its provider');
  // One generator per request, seeded from the run's seed and the index: request i is the same
  // whatever order the concurrent ones finish in.
  const outcomes: FuzzOutcome[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < options.count) {
      const index = next++;
      outcomes.push(await one(makeRandom(options.seed, index), index, provider, options));
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  return outcomes.sort((a, b) => a.index - b.index);
}

(window as unknown as { fuzz: { run: typeof run; describe: (seed: number, index: number) => string } }).fuzz = {
  run,
  describe: (seed, index) => describeValue(randomArgs(makeRandom(seed, index), document.body)),
};
document.documentElement.dataset['fuzz'] = 'ready';

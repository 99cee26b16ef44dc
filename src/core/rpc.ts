// JSON-RPC 2.0 over fetch; the shape guards every node answer goes through are in rpc-guards.ts.
// Pure: only fetch, AbortController and timers, so it runs in Node and in a service worker.
//
// Failure mapping:
//   fetch throws / non-JSON body / non-2xx without a JSON-RPC body  → NodeUnreachableError
//   a JSON-RPC `error` object (whatever the HTTP status)            → RpcError
//   2xx JSON that is not a valid response (wrong id, no result, bad
//   shape of the result)                                            → NodeResponseError
//   the per-call deadline passes                                    → TimeoutError
//   the caller's AbortSignal fires                                  → AbortedError
import { concatBytes } from './bytes.js';
import { AbortedError, AnswerTooLargeError, NodeResponseError, NodeUnreachableError, RpcError, TimeoutError } from './errors.js';
import { type Guard, isRecord } from './rpc-guards.js';

// Re-exported so a node API file takes the transport and the guards in one import.
export { g, type Guard, isRecord, shapeError } from './rpc-guards.js';

export const DEFAULT_TIMEOUT_MS = 15_000;
/**
 * The most a node's answer may be: a page of 1,024 UTXOs, a 64 KB tx as hex or a block of logs
 * fits many times over; a node that streams more is not read to the end (memory, time).
 */
export const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface CallOptions {
  /** Cancels the call; the promise then rejects with AbortedError. */
  signal?: AbortSignal;
  /** Per-call deadline; defaults to the transport's (15 s unless configured). */
  timeoutMs?: number;
}

export interface TransportOptions {
  timeoutMs?: number;
  /** Injected fetch (tests, or a wrapper that adds headers). Defaults to the global fetch. */
  fetch?: FetchLike;
}

// ---------------------------------------------------------------------------------------------
// Transport

let nextId = 1;

interface Deadline {
  signal: AbortSignal;
  /** Rejection for the current state (aborted by the caller or timed out). */
  failure(): AbortedError | TimeoutError | undefined;
  dispose(): void;
}

/** One AbortSignal that fires on the caller's signal or at the deadline, remembering which. */
function makeDeadline(what: string, timeoutMs: number, outer?: AbortSignal): Deadline {
  const controller = new AbortController();
  let reason: 'aborted' | 'timeout' | undefined;
  const onOuter = (): void => {
    reason ??= 'aborted';
    controller.abort();
  };
  if (outer?.aborted) onOuter();
  else outer?.addEventListener('abort', onOuter, { once: true });
  const timer = setTimeout(() => {
    reason ??= 'timeout';
    controller.abort();
  }, timeoutMs);
  return {
    signal: controller.signal,
    failure: () =>
      reason === 'aborted'
        ? new AbortedError(`${what} was cancelled`)
        : reason === 'timeout'
          ? new TimeoutError(`${what} got no answer within ${timeoutMs} ms`)
          : undefined,
    dispose: () => {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onOuter);
    },
  };
}

function causeText(e: unknown): string {
  if (e instanceof Error) {
    const cause = (e as Error & { cause?: unknown }).cause;
    const inner = cause instanceof Error ? cause.message : typeof cause === 'string' ? cause : '';
    const code = isRecord(cause) && typeof cause['code'] === 'string' ? cause['code'] : '';
    return [e.message, inner && inner !== e.message ? inner : '', code && !inner.includes(code) ? code : '']
      .filter(Boolean)
      .join(': ');
  }
  return String(e);
}

function snippet(text: string): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > 120 ? t.slice(0, 120) + '…' : t;
}

interface RawResponse {
  status: number;
  ok: boolean;
  text: string;
}

/** fetch + read the whole body under one deadline. */
async function fetchText(
  fetchFn: FetchLike,
  url: string,
  init: RequestInit,
  what: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<RawResponse> {
  if (signal?.aborted) throw new AbortedError(`${what} was cancelled`);
  const deadline = makeDeadline(what, timeoutMs, signal);
  try {
    const response = await fetchFn(url, { ...init, signal: deadline.signal });
    const text = await readCapped(response, what);
    return { status: response.status, ok: response.ok, text };
  } catch (e) {
    const failure = deadline.failure();
    if (failure) throw failure;
    if (e instanceof NodeResponseError) throw e;
    throw new NodeUnreachableError(url, causeText(e));
  } finally {
    deadline.dispose();
  }
}

/**
 * A response's body as text, or undefined when it is longer than `limit` bytes (by its declared
 * length, or as it streams in: the read stops there and the rest is never fetched).
 */
export async function readAtMost(response: Response, limit: number): Promise<string | undefined> {
  const declared = Number(response.headers?.get('content-length') ?? NaN);
  if (declared > limit) {
    await response.body?.cancel().catch(() => undefined);
    return undefined;
  }
  const reader = response.body?.getReader();
  if (!reader) {
    const text = await response.text();
    return text.length > limit ? undefined : text;
  }
  // The chunks are decoded once at the end: one flat string, which JSON.parse reads fastest.
  const chunks: Uint8Array[] = [];
  let read = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    read += value.byteLength;
    if (read > limit) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(chunks.length === 1 ? chunks[0] : concatBytes(...chunks));
}

/** The body as text, read no further than MAX_ANSWER_BYTES (NodeResponseError past that). */
async function readCapped(response: Response, what: string): Promise<string> {
  const text = await readAtMost(response, MAX_ANSWER_BYTES);
  if (text === undefined) throw new AnswerTooLargeError(`the node's answer to ${what} is larger than ${MAX_ANSWER_BYTES / (1024 * 1024)} MB; it was not read`);
  return text;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/** A JSON-RPC endpoint: one URL (e.g. http://127.0.0.1:9650/ext/bc/X). */
export class JsonRpcEndpoint {
  private readonly fetchFn: FetchLike;
  private readonly timeoutMs: number;
  /** Round trips made through this endpoint (successful or not). */
  requests = 0;

  constructor(
    readonly url: string,
    options: TransportOptions = {},
  ) {
    this.fetchFn = options.fetch ?? ((input, init) => fetch(input, init));
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  /** Calls `method` and returns its `result` checked by `guard`. */
  async call<T>(method: string, params: unknown, guard: Guard<T>, options: CallOptions = {}): Promise<T> {
    const result = await this.callRaw(method, params, options);
    return guard(result, `${method} result`);
  }

  /** Calls `method` and returns its `result` unchecked (but present). */
  async callRaw(method: string, params: unknown, options: CallOptions = {}): Promise<unknown> {
    const id = nextId++;
    const body = JSON.stringify({ jsonrpc: '2.0', id, method, params });
    this.requests++;
    const raw = await fetchText(
      this.fetchFn,
      this.url,
      { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body },
      `${method} at ${this.url}`,
      options.timeoutMs ?? this.timeoutMs,
      options.signal,
    );
    return interpretResponse(this.url, method, id, raw);
  }
}

function interpretResponse(url: string, method: string, id: number, raw: RawResponse): unknown {
  const parsed = parseJson(raw.text);
  if (!parsed.ok) {
    throw new NodeUnreachableError(
      url,
      `HTTP ${raw.status} with a body that is not JSON${raw.text ? ` (${JSON.stringify(snippet(raw.text))})` : ''}`,
    );
  }
  const msg = parsed.value;
  const looksLikeRpc = isRecord(msg) && (msg['jsonrpc'] === '2.0' || 'result' in msg || 'error' in msg);
  if (!looksLikeRpc) {
    if (!raw.ok) throw new NodeUnreachableError(url, `HTTP ${raw.status} without a JSON-RPC answer`);
    throw new NodeResponseError(`${method}: the node's answer is not a JSON-RPC response`);
  }

  // An error object wins over everything else, whatever the HTTP status.
  if ('error' in msg && msg['error'] !== undefined && msg['error'] !== null) {
    const err = msg['error'];
    if (!isRecord(err) || !Number.isInteger(err['code']) || typeof err['message'] !== 'string') {
      throw new NodeResponseError(`${method}: the node sent a malformed JSON-RPC error object`);
    }
    // A parse error may carry id null; any other id must be ours.
    if (msg['id'] !== id && msg['id'] !== null) {
      throw new NodeResponseError(`${method}: error response carries id ${JSON.stringify(msg['id'])}, expected ${id}`);
    }
    throw new RpcError(method, err['code'] as number, err['message'], err['data'] ?? undefined);
  }
  if (!raw.ok) throw new NodeUnreachableError(url, `HTTP ${raw.status} without a JSON-RPC error`);
  if (msg['jsonrpc'] !== '2.0') {
    throw new NodeResponseError(`${method}: the response's jsonrpc field is ${JSON.stringify(msg['jsonrpc'])}, expected "2.0"`);
  }
  if (msg['id'] !== id) {
    throw new NodeResponseError(`${method}: the response carries id ${JSON.stringify(msg['id'])}, expected ${id}`);
  }
  if (!('result' in msg) || msg['result'] === undefined) {
    throw new NodeResponseError(`${method}: the response has neither result nor error`);
  }
  return msg['result'];
}

export interface HttpJsonResponse {
  status: number;
  body: unknown;
}

/** GET a JSON document (the health API). Any status is returned; a non-JSON body is an error. */
export async function getJson(url: string, options: CallOptions & TransportOptions = {}): Promise<HttpJsonResponse> {
  const fetchFn = options.fetch ?? ((input: string, init: RequestInit) => fetch(input, init));
  const raw = await fetchText(
    fetchFn,
    url,
    { method: 'GET', headers: { accept: 'application/json' } },
    `GET ${url}`,
    options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    options.signal,
  );
  const parsed = parseJson(raw.text);
  if (!parsed.ok) {
    throw new NodeUnreachableError(url, `HTTP ${raw.status} with a body that is not JSON`);
  }
  return { status: raw.status, body: parsed.value };
}

/** Resolves after `ms`, or rejects with AbortedError when `signal` fires first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new AbortedError());
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new AbortedError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

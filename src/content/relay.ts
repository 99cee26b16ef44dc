// The relay between the page's provider (src/inpage, MAIN world) and the background, run by the
// isolated-world content script. Browser APIs come in as dependencies so tests can drive it.
//
// Page → relay: only messages the page's own window posted with `target: CONTENT_TARGET`. The
// relay checks their size and shape, picks its own requestId (a page cannot choose or collide with
// another page's ids) and forwards. Relay → page: `target: INPAGE_TARGET`. A page script can post
// INPAGE_TARGET look-alikes to itself; that only fools the page's own provider, so the relay does
// nothing about it.
import {
  CONTENT_TARGET,
  INPAGE_TARGET,
  MAX_METHOD_LENGTH,
  MAX_PARAMS_DEPTH,
  MAX_PARAMS_JSON_BYTES,
  nestsDeeperThan,
  PROVIDER_CHANNEL,
  PROVIDER_EVENT_CHANNEL,
  ProviderErrorCode,
  type ProviderRequestMessage,
  type ProviderResponse,
} from '../shared/provider-protocol.js';

/** Longest page-chosen request id the relay answers to. */
export const MAX_PAGE_ID_LENGTH = 100;
/** A failed attempt that took longer than this had a live worker: it does not count as quick. */
export const QUICK_FAILURE_MS = 2_000;
/** Consecutive quick failures after which the request is answered "disconnected". */
export const MAX_QUICK_FAILURES = 5;
/**
 * Failed sends of one request, slow failures included: a background that dies on every attempt
 * (stopped while it works on this very request) must not keep the page waiting for ever. A send cut
 * short by the page's return from the back/forward cache is not a failure: that request still
 * waits for its approval, and giving up on it would leave the page unanswered when the user approves.
 */
export const MAX_ATTEMPTS = 20;
/** First retry delay; doubled after each further quick failure. */
export const RETRY_BASE_MS = 200;
/**
 * After the page is back from the back/forward cache, how long a send still waiting may hear back
 * before it goes again: Firefox keeps the channel and its answer may be on the way (a read sent
 * twice would run twice); Chrome's never comes.
 */
export const RESTORE_GRACE_MS = 1_000;
/** Requests one frame may have on their way at once: a page cannot keep the worker and the node busy without end. */
export const MAX_IN_FLIGHT = 32;

export interface RelayDeps {
  win: Window;
  /** runtime.sendMessage: the background's answer, or a rejection when it could not answer. */
  sendMessage(message: ProviderRequestMessage): Promise<unknown>;
  /** False once the extension was reloaded, updated or removed (runtime.id is gone). */
  isContextValid(): boolean;
  sleep(ms: number): Promise<void>;
  now(): number;
  randomId(): string;
}

export interface Relay {
  /**
   * For runtime.onMessage: true for our event, which the listener then acknowledges (so the
   * background's tabs.sendMessage settles as delivered in every browser); false for anything else,
   * left for other listeners to answer.
   */
  onRuntimeMessage(message: unknown): boolean;
  /** Stops listening to the page (tests; a real content script lives as long as the page). */
  stop(): void;
}

const Code = ProviderErrorCode;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function failure(code: number, message: string): ProviderResponse {
  return { ok: false, error: { code, message } };
}

/** A fresh ProviderResponse holding only the known fields, or undefined when `value` is none. */
function asProviderResponse(value: unknown): ProviderResponse | undefined {
  if (!isRecord(value)) return undefined;
  if (value.ok === true) return { ok: true, result: value.result };
  if (value.ok !== false || !isRecord(value.error)) return undefined;
  const { code, message, data } = value.error;
  if (typeof code !== 'number' || !Number.isInteger(code) || typeof message !== 'string') return undefined;
  return { ok: false, error: { code, message, ...(data !== undefined ? { data } : {}) } };
}

function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : typeof e === 'string' ? e : '';
}

/**
 * A sendMessage failure that means the answer was lost on the way, not refused: the background
 * stopped while the request waited (Chrome's closed message channel or port, Firefox's missing
 * receiver, a disconnected message manager or a response promise gone with an unloaded background
 * page), or a channel Chrome closed for a page going into its back/forward cache ("… so the
 * message channel is closed", should a send ever reject with it). Sent again under the same
 * requestId, the request is joined or resumed, never run twice. Anything else (the message could
 * not be carried, the browser refused it) will not change by sending again.
 */
const WORKER_STOPPED = /message (channel|port) (is )?closed|receiving end does not exist|message manager disconnected|went out of scope|the background stopped/i;

/** What a send's wait ends with when the page came back from the back/forward cache meanwhile. */
const PAGE_RESTORED = Symbol('page restored');
/** A rejection that says the channel closed because the page went into the back/forward cache. */
const CLOSED_FOR_CACHE = /back\/forward cache/i;

/** `params` as the background will see it, or why it cannot be sent. */
function checkParams(params: unknown): { ok: true; params: unknown } | { ok: false; reason: string } {
  if (params === undefined) return { ok: true, params: undefined };
  if (!isRecord(params)) return { ok: false, reason: 'params must be an array or an object when given' };
  // Before JSON.stringify, which recurses: deep enough data overflows the stack there.
  if (nestsDeeperThan(params, MAX_PARAMS_DEPTH)) return { ok: false, reason: `params must nest at most ${MAX_PARAMS_DEPTH} levels deep` };
  let json: string;
  try {
    json = JSON.stringify(params);
  } catch (_e) {
    return { ok: false, reason: 'params must be JSON data (no BigInt, no cycles)' };
  }
  // Code units never outnumber UTF-8 bytes, so the cheap check can only reject what is too big.
  if (json.length > MAX_PARAMS_JSON_BYTES || new TextEncoder().encode(json).byteLength > MAX_PARAMS_JSON_BYTES) {
    return { ok: false, reason: `params must be at most ${MAX_PARAMS_JSON_BYTES} bytes of JSON` };
  }
  // What Chrome's messaging would deliver anyway (it sends JSON); Firefox clones, so normalise
  // here and both browsers' backgrounds see the same data.
  return { ok: true, params: JSON.parse(json) };
}

export function startRelay(deps: RelayDeps): Relay {
  const { win } = deps;
  let disconnected = false;
  let inFlight = 0;

  const post = (message: object) => win.postMessage(message, '*');
  const answer = (id: string, response: ProviderResponse) => post({ target: INPAGE_TARGET, id, response });

  function contextGone(e: unknown): boolean {
    return !deps.isContextValid() || /Extension context invalidated/i.test(errorMessage(e));
  }

  // A request on its way when the page went into the back/forward cache never hears back in
  // Chrome: its channel was closed, and its promise neither resolves nor rejects once the page is
  // back (seen in Chromium 156). So a send waiting when the page comes back ends RESTORE_GRACE_MS
  // later, unless it heard back meanwhile (Firefox keeps the channel), and goes again.
  /** The sends waiting for an answer now: each one's "the page is back" trigger. */
  const waitingSends = new Set<() => void>();
  const stateChanged = () => post({ target: INPAGE_TARGET, event: 'stateChanged' });
  function onPageShow(event: Event): void {
    // The page can dispatch its own pageshow; only the browser's counts.
    if (!event.isTrusted || !(event as PageTransitionEvent).persisted) return;
    for (const pageIsBack of [...waitingSends]) pageIsBack();
    // Changes made while the page was away were told to no one: its provider reads its state again.
    stateChanged();
  }
  /** A prerendered page shown: the wallet refused it until now, so its provider reads its state. */
  function onActivated(event: Event): void {
    if (event.isTrusted) stateChanged();
  }

  /** One send: the background's answer, or PAGE_RESTORED when it must go again. */
  async function sendOnce(message: ProviderRequestMessage): Promise<unknown> {
    let pageIsBack!: () => void;
    const restored = new Promise<typeof PAGE_RESTORED>((resolve) => {
      pageIsBack = () => {
        waitingSends.delete(pageIsBack);
        void deps.sleep(RESTORE_GRACE_MS).then(() => resolve(PAGE_RESTORED));
      };
    });
    waitingSends.add(pageIsBack);
    try {
      // A sync throw (an orphaned script's sendMessage may throw) becomes a rejection here.
      return await Promise.race([Promise.resolve().then(() => deps.sendMessage(message)), restored]);
    } finally {
      waitingSends.delete(pageIsBack);
    }
  }

  function markDisconnected(): void {
    if (disconnected) return;
    disconnected = true;
    post({ target: INPAGE_TARGET, event: 'disconnect' });
  }

  /**
   * Sends until the background answers. A rejection with a live extension means the worker was
   * stopped while the request waited (Chrome: "message channel closed before a response was
   * received"; Firefox: "Could not establish connection. Receiving end does not exist."): the same
   * message, same requestId, goes again and the background resumes it (it is idempotent per
   * requestId). So does a request still on its way RESTORE_GRACE_MS after the page is back from
   * the back/forward cache. Only quick failures in a row count towards giving up: a long approval
   * that failed after minutes had a worker, and is simply resumed; MAX_ATTEMPTS bounds the whole.
   * Any other failure is answered at once.
   */
  async function forward(message: ProviderRequestMessage): Promise<ProviderResponse> {
    let quickFailures = 0;
    // A send cut short by the page's return from the back/forward cache is no failure: not counted.
    let failedSends = 0;
    for (;;) {
      if (disconnected) return failure(Code.disconnected, 'the wallet was reloaded or removed; reload the page');
      const started = deps.now();
      let reply: unknown;
      try {
        reply = await sendOnce(message);
        if (reply === PAGE_RESTORED) continue;
        // The background always answers a provider request: no answer at all (a message no
        // listener answered resolves empty in Chrome) means the worker stopped before it took the
        // request. Sent again, like a rejection.
        if (reply === undefined) throw new Error('no answer: the background stopped');
      } catch (e) {
        if (contextGone(e)) {
          markDisconnected();
          return failure(Code.disconnected, 'the wallet was reloaded or removed; reload the page');
        }
        if (!WORKER_STOPPED.test(errorMessage(e))) return failure(Code.internal, 'the wallet could not take this request');
        if (CLOSED_FOR_CACHE.test(errorMessage(e))) {
          // Not the wallet failing: the page left, and the request still waits for its approval.
          await deps.sleep(RETRY_BASE_MS);
          continue;
        }
        failedSends++;
        quickFailures = deps.now() - started > QUICK_FAILURE_MS ? 0 : quickFailures + 1;
        if (quickFailures >= MAX_QUICK_FAILURES || failedSends >= MAX_ATTEMPTS) {
          return failure(Code.disconnected, 'the wallet is not answering; try again');
        }
        await deps.sleep(RETRY_BASE_MS * 2 ** Math.max(0, quickFailures - 1));
        continue;
      }
      return asProviderResponse(reply) ?? failure(Code.internal, 'the wallet sent an unexpected answer');
    }
  }

  async function handle(id: string, method: unknown, rawParams: unknown): Promise<void> {
    if (typeof method !== 'string' || method.length === 0 || method.length > MAX_METHOD_LENGTH) {
      answer(id, failure(Code.invalidParams, `method must be a non-empty string of at most ${MAX_METHOD_LENGTH} characters`));
      return;
    }
    const checked = checkParams(rawParams);
    if (!checked.ok) {
      answer(id, failure(Code.invalidParams, checked.reason));
      return;
    }
    if (inFlight >= MAX_IN_FLIGHT) {
      answer(id, failure(Code.limitExceeded, `at most ${MAX_IN_FLIGHT} requests may wait for an answer at once`));
      return;
    }
    const message: ProviderRequestMessage = {
      channel: PROVIDER_CHANNEL,
      requestId: deps.randomId(),
      method,
      ...(checked.params !== undefined ? { params: checked.params } : {}),
    };
    inFlight++;
    try {
      answer(id, await forward(message));
    } finally {
      inFlight--;
    }
  }

  function onWindowMessage(event: MessageEvent<unknown>): void {
    // source === window: posted by a script running in this very window (the page or us), not by
    // another frame or window.
    if (event.source !== win) return;
    const data = event.data;
    if (!isRecord(data) || data.target !== CONTENT_TARGET) return;
    // A sandboxed frame has an opaque origin ("null") but its URL's origin: relaying its requests
    // would let it act as the site that serves it. Its messages carry origin "null"; refused.
    if (event.origin !== win.location.origin || event.origin === 'null') {
      if (typeof data.id === 'string' && data.id.length > 0 && data.id.length <= MAX_PAGE_ID_LENGTH) {
        answer(data.id, failure(Code.unauthorized, 'XPC Wallet does not answer sandboxed frames'));
      }
      return;
    }
    // Without a usable id there is nothing to address an answer to.
    if (typeof data.id !== 'string' || data.id.length === 0 || data.id.length > MAX_PAGE_ID_LENGTH) return;
    const id = data.id;
    // Read, so ours to answer: the page's provider stops waiting for a sign of life.
    post({ target: INPAGE_TARGET, id, received: true });
    // handle() answers every outcome itself; this is for a bug, so the page does not wait forever.
    handle(id, data.method, data.params).catch(() => answer(id, failure(Code.internal, 'the wallet could not relay this request')));
  }

  win.addEventListener('message', onWindowMessage);
  // Capture, added at document_start: it runs before any listener of the page's own, which could
  // otherwise stop the event from reaching it.
  win.addEventListener('pageshow', onPageShow, true);
  win.document.addEventListener('prerenderingchange', onActivated, true);

  return {
    onRuntimeMessage(message: unknown): boolean {
      // For another page's document, or a sandboxed one (its origin "null", though its URL's is the site's): not this page's to hear.
      if (!isRecord(message) || message.channel !== PROVIDER_EVENT_CHANNEL || message.event !== 'stateChanged' || message.origin !== win.location.origin || win.origin === 'null') return false;
      stateChanged();
      return true;
    },
    stop() {
      win.removeEventListener('message', onWindowMessage);
      win.removeEventListener('pageshow', onPageShow, true);
      win.document.removeEventListener('prerenderingchange', onActivated, true);
    },
  };
}

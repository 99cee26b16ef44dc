// The EIP-1193 provider a page sees (window.xpcWallet, window.ethereum when free, EIP-6963).
// Pure page code: it only talks to the content script (src/content) through window.postMessage,
// in the wire format of src/shared/provider-protocol.ts. No extension API is reachable from here.
//
// Loaded at document_start, before any page script: the browser functions it needs are taken
// here, once, so that a page script replacing them later cannot read or alter our traffic. A page
// script can of course still do anything the page itself can; this only guards our own plumbing.
import {
  CONTENT_TARGET,
  INPAGE_TARGET,
  MAX_METHOD_LENGTH,
  MAX_PARAMS_DEPTH,
  nestsDeeperThan,
  ProviderErrorCode,
  STATE_METHOD,
  type ProviderErrorInfo,
  type ProviderResponse,
  type ProviderState,
} from '../shared/provider-protocol.js';

/** EIP-1193 ProviderRpcError: an Error with a numeric `code` (and `data` when the wallet sent some). */
export class ProviderRpcError extends Error {
  readonly code: number;
  declare readonly data?: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = 'ProviderRpcError';
    this.code = code;
    if (data !== undefined) Object.defineProperty(this, 'data', { value: data, enumerable: true });
  }
}

export interface RequestArguments {
  readonly method: string;
  readonly params?: readonly unknown[] | object;
}

export interface ProviderConnectInfo {
  readonly chainId: string;
}

/** The events a dApp can listen to and what each listener receives. */
export interface XpcProviderEvents {
  connect: [ProviderConnectInfo];
  disconnect: [ProviderRpcError];
  chainChanged: [string];
  accountsChanged: [string[]];
  /** EIP-1193 subscription messages. Never emitted: the wallet offers no eth_subscribe. */
  message: [{ type: string; data: unknown }];
}

export type ProviderEventName = keyof XpcProviderEvents;
type Listener = (...args: unknown[]) => void;

export interface XpcProvider {
  readonly isXpcWallet: true;
  /** 0x chain ID last learnt from the wallet; null before the first state read. */
  readonly chainId: string | null;
  request(args: RequestArguments): Promise<unknown>;
  isConnected(): boolean;
  /** Legacy EIP-1102 connect: same as eth_requestAccounts. */
  enable(): Promise<unknown>;
  on<E extends ProviderEventName>(event: E, listener: (...args: XpcProviderEvents[E]) => void): XpcProvider;
  once<E extends ProviderEventName>(event: E, listener: (...args: XpcProviderEvents[E]) => void): XpcProvider;
  addListener<E extends ProviderEventName>(event: E, listener: (...args: XpcProviderEvents[E]) => void): XpcProvider;
  removeListener<E extends ProviderEventName>(event: E, listener: (...args: XpcProviderEvents[E]) => void): XpcProvider;
  off<E extends ProviderEventName>(event: E, listener: (...args: XpcProviderEvents[E]) => void): XpcProvider;
  removeAllListeners(event?: ProviderEventName): XpcProvider;
  listenerCount(event: ProviderEventName): number;
}

/**
 * How long a request may go without a sign of life from the content script ({ received: true } or
 * its answer). The content script answers within the same turn of the page's event loop; no sign
 * means it could not read the message, or is not there: nothing will ever answer.
 */
export const RECEIPT_TIMEOUT_MS = 10_000;

interface Pending {
  method: string;
  /** Running until the content script shows it has the request. */
  receiptTimer: number | undefined;
  resolve(value: unknown): void;
  reject(error: ProviderRpcError): void;
}

interface Registered {
  listener: Listener;
  once: boolean;
}

const Code = ProviderErrorCode;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/** The state answer, or undefined when it is not the expected shape. */
function parseState(value: unknown): Pick<ProviderState, 'chainId' | 'accounts' | 'isUnlocked'> | undefined {
  if (!isRecord(value)) return undefined;
  const { chainId, accounts, isUnlocked } = value;
  if (typeof chainId !== 'string' || !/^0x[0-9a-f]+$/i.test(chainId) || !isStringArray(accounts)) return undefined;
  return { chainId, accounts: [...accounts], isUnlocked: isUnlocked === true };
}

function toRpcError(info: unknown): ProviderRpcError {
  // The answer comes from our content script, but a page can post look-alikes to itself: stay total.
  if (!isRecord(info)) return new ProviderRpcError(Code.internal, 'the wallet sent a malformed error');
  const { code, message, data } = info as Partial<ProviderErrorInfo>;
  return new ProviderRpcError(
    typeof code === 'number' && Number.isInteger(code) ? code : Code.internal,
    typeof message === 'string' ? message : 'unknown wallet error',
    data,
  );
}

/** Why `method` and `params` are not a valid EIP-1193 request, or undefined when they are. */
function invalidArgs(method: unknown, params: unknown): string | undefined {
  if (typeof method !== 'string' || method.length === 0) return 'method must be a non-empty string';
  if (method.length > MAX_METHOD_LENGTH) return `method must be at most ${MAX_METHOD_LENGTH} characters`;
  if (params !== undefined && !isRecord(params)) return 'params must be an array or an object when given';
  return undefined;
}

function disconnectedError(): ProviderRpcError {
  // Final: the extension was reloaded, updated or removed, and its new copy does not reach this page.
  return new ProviderRpcError(Code.disconnected, 'the wallet is disconnected from this page; reload the page');
}

const ACCOUNT_METHODS = new Set(['eth_accounts', 'eth_requestAccounts']);
/** Requests after which the chain may differ: `provider.chainId` (and chainChanged) are brought up to date before they resolve. */
const CHAIN_METHODS = new Set(['wallet_switchEthereumChain', 'wallet_addEthereumChain']);

/** Creates the page's provider, talking to the content script of `win`. Call once per page load. */
export function createXpcProvider(win: Window): XpcProvider {
  // Taken now, before page scripts run (see the file comment).
  const post = win.postMessage.bind(win);
  const cryptoObj = win.crypto;
  const randomId = cryptoObj.randomUUID.bind(cryptoObj);
  const clone = structuredClone;
  const setTimer = win.setTimeout.bind(win);
  const clearTimer = win.clearTimeout.bind(win);
  const reportListenerError = console.error.bind(console);

  const pending = new Map<string, Pending>();
  const listeners = new Map<string, Registered[]>();
  let chainId: string | null = null;
  let accounts: string[] = [];
  let connected = false;
  let disconnected = false;
  /** Numbers state reads so that a late answer to an older read cannot undo a newer one. */
  let stateReadSeq = 0;

  function emit<E extends ProviderEventName>(event: E, ...args: XpcProviderEvents[E]): void {
    const registered = listeners.get(event);
    if (!registered || registered.length === 0) return;
    // A copy: listeners may add or remove listeners while we call them.
    const snapshot = [...registered];
    listeners.set(event, registered.filter((r) => !r.once));
    for (const { listener } of snapshot) {
      try {
        listener(...args);
      } catch (e) {
        // One dApp's broken listener must not keep the event from the others.
        reportListenerError('XPC Wallet: a provider event listener threw', e);
      }
    }
  }

  function addListener(event: unknown, listener: unknown, once: boolean): void {
    if (typeof event !== 'string') throw new TypeError('event name must be a string');
    if (typeof listener !== 'function') throw new TypeError('listener must be a function');
    const list = listeners.get(event) ?? [];
    list.push({ listener: listener as Listener, once });
    listeners.set(event, list);
  }

  function removeListener(event: unknown, listener: unknown): void {
    if (typeof event !== 'string') return;
    const list = listeners.get(event);
    if (!list) return;
    // Like Node's EventEmitter: the most recently added registration goes first.
    for (let i = list.length - 1; i >= 0; i--) {
      if (list[i]?.listener === listener) {
        list.splice(i, 1);
        return;
      }
    }
  }

  function setAccounts(next: string[]): void {
    if (sameList(accounts, next)) return;
    accounts = [...next];
    emit('accountsChanged', [...next]);
  }

  function disconnect(): void {
    if (disconnected) return;
    disconnected = true;
    connected = false;
    for (const [id, p] of pending) {
      pending.delete(id);
      clearTimer(p.receiptTimer);
      p.reject(disconnectedError());
    }
    emit('disconnect', disconnectedError());
  }

  /** Sends one request to the content script; params must already be a clone. */
  function send(method: string, params: unknown): Promise<unknown> {
    if (disconnected) return Promise.reject(disconnectedError());
    return new Promise((resolve, reject) => {
      const id = randomId();
      const entry: Pending = { method, resolve, reject, receiptTimer: undefined };
      pending.set(id, entry);
      try {
        post({ target: CONTENT_TARGET, id, method, ...(params !== undefined ? { params } : {}) }, '*');
      } catch (_e) {
        // Cloned already, so this is rare (e.g. a value postMessage cannot carry after all).
        pending.delete(id);
        reject(new ProviderRpcError(Code.invalidParams, 'params cannot be sent to the wallet'));
        return;
      }
      entry.receiptTimer = setTimer(() => {
        if (pending.get(id) !== entry) return;
        pending.delete(id);
        reject(new ProviderRpcError(Code.internal, 'the wallet did not receive this request: it could not be read on its way, or the wallet is not running in this page'));
      }, RECEIPT_TIMEOUT_MS);
    });
  }

  /** The newest state read started (a later one supersedes an earlier one's answer). */
  let latestRead: Promise<void> = Promise.resolve();

  function readState(): Promise<void> {
    latestRead = readStateNow();
    return latestRead;
  }

  /** Settles once no newer read is left in flight: the state seen is the newest the wallet gave. */
  async function stateSettled(): Promise<void> {
    let seen: Promise<void>;
    do {
      seen = latestRead;
      await seen;
    } while (seen !== latestRead);
  }

  async function readStateNow(): Promise<void> {
    const seq = ++stateReadSeq;
    let state: ReturnType<typeof parseState>;
    try {
      state = parseState(await send(STATE_METHOD, undefined));
    } catch (_e) {
      // No state now (e.g. the worker could not answer): the next stateChanged reads it again.
      return;
    }
    if (!state || seq !== stateReadSeq || disconnected) return;
    const previousChain = chainId;
    chainId = state.chainId;
    if (!connected) {
      connected = true;
      // connect is the first event a dApp sees; accountsChanged for the first list follows it.
      emit('connect', { chainId: state.chainId });
    } else if (previousChain !== state.chainId) {
      emit('chainChanged', state.chainId);
    }
    setAccounts(state.accounts);
  }

  function onMessage(event: MessageEvent<unknown>): void {
    // Only our own window's messages. A page can post INPAGE_TARGET look-alikes to itself, but
    // that only fools its own provider: nothing reaches the wallet that way.
    if (event.source !== win) return;
    const data = event.data;
    if (!isRecord(data) || data.target !== INPAGE_TARGET) return;

    if (typeof data.id === 'string') {
      const p = pending.get(data.id);
      if (!p) return;
      clearTimer(p.receiptTimer);
      p.receiptTimer = undefined;
      // Received: the content script answers it later (an approval can take minutes).
      if (data.received === true && data.response === undefined) return;
      pending.delete(data.id);
      const response = data.response as ProviderResponse | undefined;
      if (!isRecord(response)) {
        p.reject(new ProviderRpcError(Code.internal, 'the wallet sent a malformed answer'));
      } else if (response.ok === true) {
        if (ACCOUNT_METHODS.has(p.method) && isStringArray(response.result)) setAccounts(response.result);
        if (CHAIN_METHODS.has(p.method)) {
          void readState();
          void stateSettled().finally(() => p.resolve(response.result));
        } else {
          p.resolve(response.result);
        }
      } else {
        p.reject(toRpcError(response.error));
      }
      return;
    }

    if (data.event === 'disconnect') disconnect();
    else if (data.event === 'stateChanged' && !disconnected) void readState();
  }

  win.addEventListener('message', onMessage);

  function request(args: RequestArguments): Promise<unknown> {
    if (!isRecord(args) || Array.isArray(args)) return Promise.reject(new ProviderRpcError(Code.invalidParams, 'request() expects an object { method, params }'));
    let method: unknown;
    let params: unknown;
    try {
      // Each read once: a getter must not hand the checks one value and the wallet another.
      ({ method, params } = args);
    } catch (_e) {
      return Promise.reject(new ProviderRpcError(Code.invalidParams, 'request() could not read method and params'));
    }
    const problem = invalidArgs(method, params);
    if (problem) return Promise.reject(new ProviderRpcError(Code.invalidParams, problem));
    try {
      // A snapshot: what the page changes after calling request() is not what gets signed, and
      // functions, DOM nodes and the like fail here rather than somewhere on the way.
      params = params === undefined ? undefined : clone(params);
    } catch (_e) {
      return Promise.reject(new ProviderRpcError(Code.invalidParams, 'params must be plain data (no functions, DOM nodes or symbols)'));
    }
    // Deeper data may be posted but not read on the other side, and its answer never come.
    if (nestsDeeperThan(params, MAX_PARAMS_DEPTH)) return Promise.reject(new ProviderRpcError(Code.invalidParams, `params must nest at most ${MAX_PARAMS_DEPTH} levels deep`));
    return send(method as string, params);
  }

  const provider = {} as XpcProvider;
  const method = (value: unknown): PropertyDescriptor => ({ value, writable: true, enumerable: true, configurable: false });
  const on = (event: ProviderEventName, listener: Listener) => (addListener(event, listener, false), provider);
  const off = (event: ProviderEventName, listener: Listener) => (removeListener(event, listener), provider);
  // Methods stay assignable: connector libraries (web3-onboard's) wrap `request` in place and throw
  // in strict mode on a read-only one. Locking them would protect nothing, since any page script
  // can wrap the dApp itself; what guards the user is the approval window, which shows what the
  // background will sign. The object stays extensible for old dApps that set ad-hoc flags on it.
  Object.defineProperties(provider, {
    isXpcWallet: { value: true, writable: false, enumerable: true, configurable: false },
    chainId: { get: () => chainId, enumerable: true, configurable: false },
    request: method(request),
    isConnected: method(() => connected),
    enable: method(() => request({ method: 'eth_requestAccounts' })),
    on: method(on),
    addListener: method(on),
    once: method((event: ProviderEventName, listener: Listener) => (addListener(event, listener, true), provider)),
    removeListener: method(off),
    off: method(off),
    removeAllListeners: method((event?: ProviderEventName) => {
      if (event === undefined) listeners.clear();
      else listeners.delete(event);
      return provider;
    }),
    listenerCount: method((event: ProviderEventName) => listeners.get(event)?.length ?? 0),
  });

  void readState();
  return provider;
}

// The wire format of site requests: page (src/inpage, MAIN world) ⇄ content script (src/content,
// isolated world) ⇄ background (src/background/provider.ts). Pure data, no browser API.
//
// page → content:  window.postMessage({ target: CONTENT_TARGET, id, method, params }, '*')
// content → page:  window.postMessage({ target: INPAGE_TARGET, id, received: true }, '*')  (at once)
//                  window.postMessage({ target: INPAGE_TARGET, id, response }, '*')
//                  window.postMessage({ target: INPAGE_TARGET, event: 'stateChanged' | 'disconnect' }, '*')
// content → background: runtime.sendMessage(ProviderRequestMessage) → ProviderResponse
// background → content: tabs.sendMessage(tabId, ProviderEventMessage, { frameId })
//
// `received` tells the page's provider the content script could read the request: from then on
// the content script owes it an answer. A request not received in time is answered by the
// provider itself (see src/inpage/provider.ts).
//
// The content script, not the page, picks `requestId`: a page cannot collide with another page's
// request. When the background is stopped while a request waits (an approval can take minutes),
// the content script sends the same message again and the background picks the request up where
// it was (see src/background/provider.ts).

export const CONTENT_TARGET = 'xpc-wallet-content';
export const INPAGE_TARGET = 'xpc-wallet-inpage';
export const PROVIDER_CHANNEL = 'xpc-provider';
export const PROVIDER_EVENT_CHANNEL = 'xpc-provider-event';

/** Internal method the page's provider calls to learn its state after load or a 'stateChanged' event. */
export const STATE_METHOD = 'xpc_providerState';

export interface ProviderState {
  /** 0x-hex EVM chain ID of the selected network. */
  chainId: string;
  /** Decimal chain ID (net_version). */
  networkVersion: string;
  /** Connected EVM accounts for this origin; [] when not connected or locked. */
  accounts: string[];
  /** Whether the wallet is unlocked, told only to connected sites (false for the others). */
  isUnlocked: boolean;
}

export interface ProviderRequestMessage {
  channel: typeof PROVIDER_CHANNEL;
  requestId: string;
  method: string;
  params?: unknown;
}

/** EIP-1193 ProviderRpcError as data (messaging carries no Error objects). */
export interface ProviderErrorInfo {
  code: number;
  message: string;
  data?: unknown;
}

export type ProviderResponse = { ok: true; result: unknown } | { ok: false; error: ProviderErrorInfo };

export interface ProviderEventMessage {
  channel: typeof PROVIDER_EVENT_CHANNEL;
  /** Chain, accounts or lock state changed: the page's provider re-reads its state. */
  event: 'stateChanged';
  /**
   * The origin of the document the event is for. A frame that loaded another page since (a sandboxed
   * one, which never registers, or one yet to ask) is still addressed by tab and frame: its content
   * script drops an event for another origin, which would tell that page of this site's lock and connection.
   */
  origin: string;
}

/** EIP-1193 and JSON-RPC error codes the provider answers with. */
export const ProviderErrorCode = {
  userRejected: 4001,
  unauthorized: 4100,
  unsupportedMethod: 4200,
  disconnected: 4900,
  chainDisconnected: 4901,
  unrecognizedChain: 4902,
  /** JSON-RPC "method not found": only for wallet_sendTransaction, see the provider. */
  methodNotFound: -32601,
  invalidParams: -32602,
  internal: -32603,
  /** EIP-1474 "resource unavailable": a request of this kind is already waiting for the user. */
  resourceUnavailable: -32002,
  /** EIP-1474 "limit exceeded": a frame has too many requests on their way at once. */
  limitExceeded: -32005,
} as const;

/** Method, params and request id limits the content script checks before anything crosses. */
export const MAX_METHOD_LENGTH = 100;
/** JSON size of params a page may send (a large EVM call data or unsigned tx fits easily). */
export const MAX_PARAMS_JSON_BYTES = 1024 * 1024;
/**
 * How deep params may nest. Real requests nest a few levels (EIP-712 types a dozen at most). Far
 * deeper data can be posted but not always read: Chromium hands a receiving world that runs out
 * of stack while reading a message `data: null`, so nobody learns the request's id.
 */
export const MAX_PARAMS_DEPTH = 100;

/**
 * Whether `value` nests arrays, objects, Maps or Sets more than `maxDepth` levels (the value itself
 * is level 1). Iterative, so any depth is measured without using the stack; each object is
 * entered once, so cycles end. For data from structured clone or JSON (no getters run).
 */
export function nestsDeeperThan(value: unknown, maxDepth: number): boolean {
  const seen = new Set<object>();
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null || seen.has(v)) continue;
    if (depth > maxDepth) return true;
    seen.add(v);
    // Object.values, not iteration, for arrays: a sparse array of length 2^32 - 1 has no values.
    const children = v instanceof Map ? [...v.keys(), ...v.values()] : v instanceof Set ? [...v] : Object.values(v);
    for (const child of children) if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
  }
  return false;
}

// The background's entry point for requests from the wallet's own pages (popup, approval window).
//
// For every incoming message, in this order:
//  1. the sender must be one of our extension pages, or the answer is 'forbidden' and nothing
//     else happens (the content script only relays page requests, on its own channel);
//  2. the message is validated (src/shared/validate.ts): 'validation' or 'unknown-request';
//  3. the handler runs; a WalletError becomes its typed error, anything else 'internal'.
// `handle` always resolves: no rejection escapes to the messaging layer.
//
// Logging: only the request type and the error's class and message, with every string of the
// params scrubbed from that message first. Params are never logged: they may hold passwords,
// recovery phrases or private keys.
import { WalletError } from '../core/errors.js';
import type {
  ErrorInfo,
  RequestMessage,
  RequestParams,
  RequestResult,
  RequestType,
  ResponseMessage,
  Selection,
} from '../shared/messages.js';
import { REQUEST_TYPES, validateRequestMessage } from '../shared/validate.js';
import { RestoreWouldDropError } from './services/accounts-restore.js';

export type RequestHandlers = {
  [T in RequestType]: (params: RequestParams<T>) => Promise<RequestResult<T>>;
};

/** What the router reads of `runtime.MessageSender`. */
export interface MessageSenderInfo {
  id?: string;
  url?: string;
  tab?: unknown;
  frameId?: number;
}

export interface RouterOptions {
  /**
   * `runtime.id`. On Chrome it is the host of the origin; on Firefox it is the add-on ID
   * (gecko id), which differs from the per-install UUID in moz-extension:// URLs.
   */
  extensionId: string;
  /** `runtime.getURL('')`: chrome-extension://<id>/ or moz-extension://<uuid>/. */
  extensionOrigin: string;
  log?: (line: string) => void;
  /**
   * For a message that names the account and network it was reviewed on (`selection`): throws a
   * WalletError when either is no longer the selected one, before the handler runs.
   */
  checkSelection?: (selection: Selection) => Promise<void>;
  /** A request from one of our pages passed validation: for the idle lock's activity clock. */
  onValidRequest?: (type: RequestType) => Promise<void>;
}

export interface Router {
  handle(raw: unknown, sender: MessageSenderInfo): Promise<ResponseMessage>;
}

const EXTENSION_ORIGIN = /^(chrome-extension|moz-extension|safari-web-extension):\/\/[^/?#\s]+\/?$/;
const MAX_LOGGED_MESSAGE = 300;
const INTERNAL_MESSAGE = 'something went wrong in the wallet background; nothing was signed or sent';

function normalizeOrigin(origin: string): string {
  if (!EXTENSION_ORIGIN.test(origin)) throw new Error('extensionOrigin must look like chrome-extension://<id>/ or moz-extension://<uuid>/');
  return origin.endsWith('/') ? origin : `${origin}/`;
}

/**
 * True only for a page of this extension: the sender's extension ID is ours, its URL is under
 * our origin (a content script's URL is the web page's), and, when it sits in a tab (the approval
 * window does), it is the top frame.
 */
export function isExtensionPageSender(sender: unknown, extensionId: string, extensionOrigin: string): boolean {
  if (typeof sender !== 'object' || sender === null) return false;
  const s = sender as MessageSenderInfo;
  if (typeof s.id !== 'string' || s.id !== extensionId) return false;
  if (typeof s.url !== 'string' || !s.url.startsWith(normalizeOrigin(extensionOrigin))) return false;
  if (s.tab !== undefined && s.tab !== null && s.frameId !== undefined && s.frameId !== 0) return false;
  return true;
}

// ---- keeping secrets out of log lines ----

const MIN_SCRUBBED_LENGTH = 3;
const MAX_SCRUBBED_STRINGS = 2000;
const MAX_SCRUB_DEPTH = 8;

/** Every string in the params, and each of their words (a recovery phrase's words one by one). */
function stringsIn(value: unknown, out: Set<string>, depth = 0): Set<string> {
  if (out.size >= MAX_SCRUBBED_STRINGS || depth > MAX_SCRUB_DEPTH) return out;
  if (typeof value === 'string') {
    for (const s of [value, value.trim(), ...value.split(/\s+/)]) {
      if (s.length >= MIN_SCRUBBED_LENGTH) out.add(s);
    }
  } else if (Array.isArray(value)) {
    for (const v of value) stringsIn(v, out, depth + 1);
  } else if (typeof value === 'object' && value !== null) {
    for (const v of Object.values(value)) stringsIn(v, out, depth + 1);
  }
  return out;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function scrub(text: string, params: unknown): string {
  let out = text;
  const secrets = [...stringsIn(params, new Set())].sort((a, b) => b.length - a.length);
  for (const s of secrets) {
    if (!s.isWellFormed()) continue;
    out = out.replace(new RegExp(escapeRegExp(s), 'giu'), '[redacted]');
  }
  return out.length > MAX_LOGGED_MESSAGE ? `${out.slice(0, MAX_LOGGED_MESSAGE)}…` : out;
}

function describeThrown(e: unknown, params: unknown): string {
  if (!(e instanceof Error)) return `a thrown ${e === null ? 'null' : typeof e} (not an Error)`;
  let name = 'Error';
  let message = '';
  try {
    name = typeof e.name === 'string' ? e.name : 'Error';
    message = typeof e.message === 'string' ? e.message : '';
  } catch {
    // A hostile getter: the class is all we report.
  }
  return scrub(`${name}: ${message}`, params);
}

// ---- responses ----

function errorResponse(error: ErrorInfo): ResponseMessage {
  return { ok: false, error };
}

function walletErrorInfo(e: WalletError): ErrorInfo {
  const info: ErrorInfo = { code: String(e.code), message: String(e.message) };
  const field = (e as { field?: unknown }).field;
  if (typeof field === 'string') info.field = field;
  if (e instanceof RestoreWouldDropError) info.restoreLoss = { ...e.restoreLoss };
  return info;
}

const FORBIDDEN: ErrorInfo = { code: 'forbidden', message: 'only the wallet’s own pages may call wallet actions' };

export function createRouter(handlers: RequestHandlers, options: RouterOptions): Router {
  if (typeof options.extensionId !== 'string' || options.extensionId === '') throw new Error('extensionId is required');
  const origin = normalizeOrigin(options.extensionOrigin);
  const extensionId = options.extensionId;

  const log = (line: string): void => {
    try {
      options.log?.(line);
    } catch {
      // A failing logger must not turn an answer into a rejection.
    }
  };

  async function run(message: RequestMessage): Promise<ResponseMessage> {
    const handler = handlers[message.type] as (params: unknown) => Promise<unknown>;
    let result: unknown;
    try {
      await options.onValidRequest?.(message.type);
      if (message.selection && options.checkSelection) await options.checkSelection(message.selection);
      result = await handler(message.params);
    } catch (e) {
      if (e instanceof WalletError) return errorResponse(walletErrorInfo(e));
      log(`request ${message.type} failed: ${describeThrown(e, message.params)}`);
      return errorResponse({ code: 'internal', message: INTERNAL_MESSAGE });
    }
    // Chrome carries messages as JSON, Firefox by structured clone (which would let a bigint or a
    // Map through): the same JSON round trip here makes both browsers see the same answer, and
    // turns an unserializable result into an error instead of a broken channel.
    let copy: unknown;
    try {
      const json = JSON.stringify(result);
      if (json === undefined) throw new TypeError('the handler returned nothing');
      copy = JSON.parse(json);
    } catch (e) {
      log(`request ${message.type} returned an unserializable result: ${describeThrown(e, message.params)}`);
      return errorResponse({ code: 'internal', message: INTERNAL_MESSAGE });
    }
    return { ok: true, result: copy as RequestResult<RequestType> };
  }

  async function handle(raw: unknown, sender: MessageSenderInfo): Promise<ResponseMessage> {
    try {
      if (!isExtensionPageSender(sender, extensionId, origin)) {
        log('refused a message from a sender that is not one of the wallet’s pages');
        return errorResponse(FORBIDDEN);
      }
      let message: RequestMessage;
      try {
        message = validateRequestMessage(raw);
      } catch (e) {
        if (e instanceof WalletError) return errorResponse(walletErrorInfo(e));
        throw e;
      }
      return await run(message);
    } catch (e) {
      log(`message handling failed: ${describeThrown(e, undefined)}`);
      return errorResponse({ code: 'internal', message: INTERNAL_MESSAGE });
    }
  }

  return { handle };
}

// ---- which service answers a request ----

/** 'wallet.generateMnemonic' → 'walletGenerateMnemonic', 'send.x' → 'sendX'. */
export type MethodName<T extends string> = T extends `${infer Group}.${infer Action}` ? `${Group}${Capitalize<Action>}` : never;

/** 'send.x' → 'send'. */
type GroupOf<T extends string> = T extends `${infer Group}.${string}` ? Group : never;
export type RequestGroup = GroupOf<RequestType>;

/** A service for one group of requests: one method per request of the group, named by MethodName. */
export type GroupService<G extends RequestGroup> = {
  [T in Extract<RequestType, `${G}.${string}`> as MethodName<T>]: (params: RequestParams<T>) => Promise<RequestResult<T>>;
};

/** The service of every group (one service may answer several groups). */
export type ServicesByGroup = { [G in RequestGroup]: GroupService<G> };

export function methodNameOf<T extends RequestType>(type: T): MethodName<T> {
  const dot = type.indexOf('.');
  return `${type.slice(0, dot)}${type.charAt(dot + 1).toUpperCase()}${type.slice(dot + 2)}` as MethodName<T>;
}

/**
 * The handler table: each request goes to its group's service, to the method named by MethodName.
 * The parameter type is the compile-time check against WalletRequests; the loop re-checks at start-up.
 */
export function handlersFrom(services: ServicesByGroup): RequestHandlers {
  const table: Partial<Record<RequestType, (params: unknown) => Promise<unknown>>> = {};
  for (const type of REQUEST_TYPES) {
    const group = type.slice(0, type.indexOf('.')) as RequestGroup;
    const service = (services as unknown as Record<string, Record<string, unknown> | undefined>)[group];
    const name = methodNameOf(type);
    const method = service?.[name];
    if (typeof method !== 'function') throw new Error(`no service method ${name} for "${type}"`);
    table[type] = (params) => Promise.resolve(method.call(service, params));
  }
  return table as RequestHandlers;
}

// The UI side of the protocol: extension pages call the background through `callBackground`,
// which resolves with the typed result or throws BackgroundError.
import { WalletError } from '../core/errors.js';
import type { RequestMessage, RequestParams, RequestResult, RequestType, RestoreLoss, Selection } from './messages.js';
import { extensionRuntime } from './runtime.js';

/** How a message reaches the background; defaults to the runtime's `sendMessage`. */
export type SendToBackground = (message: RequestMessage) => Promise<unknown>;

/**
 * An error answer from the background (`code` as in ErrorInfo), or the client's own:
 *  - 'unreachable': the message could not be delivered (no background, extension reloaded, …);
 *  - 'bad-response': the answer is not a ResponseMessage.
 */
export class BackgroundError extends WalletError {
  constructor(
    code: string,
    message: string,
    readonly field?: string,
    /** With RESTORE_WOULD_DROP: what the refused restore would have dropped. */
    readonly restoreLoss?: RestoreLoss,
  ) {
    super(code, message);
  }
}

/** The browser's own runtime (./runtime.ts): no polyfill in front of a page's first request. */
async function sendWithRuntime(message: RequestMessage): Promise<unknown> {
  const runtime = extensionRuntime();
  if (!runtime) throw new Error('this page is not part of the extension');
  return runtime.sendMessage(message);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function malformed(): BackgroundError {
  return new BackgroundError('bad-response', 'the wallet background sent an answer this page does not understand');
}

function count(value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw malformed();
  return value;
}

function readRestoreLoss(value: unknown): RestoreLoss {
  if (!isRecord(value)) throw malformed();
  const phrase = value.phraseAccounts === undefined ? {} : { phraseAccounts: count(value.phraseAccounts), ...(value.phraseUnsure === true ? { phraseUnsure: true as const } : {}) };
  const sends = value.undecidedSends === undefined ? {} : { undecidedSends: count(value.undecidedSends) };
  const names = value.names;
  if (!Array.isArray(names) || !names.every((n) => typeof n === 'string')) throw malformed();
  return { importedKeys: count(value.importedKeys), ...phrase, unfinishedTransfers: count(value.unfinishedTransfers), ...sends, ...(value.unknown === true ? { unknown: true as const } : {}), names };
}

/** The result of an `{ok: true}` answer; throws BackgroundError for anything else. */
export function readResponse<T extends RequestType>(answer: unknown): RequestResult<T> {
  if (!isRecord(answer)) throw malformed();
  if (answer.ok === true) {
    if (!Object.hasOwn(answer, 'result') || answer.result === undefined) throw malformed();
    return answer.result as RequestResult<T>;
  }
  if (answer.ok === false) {
    const error = answer.error;
    if (!isRecord(error) || typeof error.code !== 'string' || typeof error.message !== 'string') throw malformed();
    const field = typeof error.field === 'string' ? error.field : undefined;
    if (error.field !== undefined && field === undefined) throw malformed();
    const restoreLoss = error.restoreLoss === undefined ? undefined : readRestoreLoss(error.restoreLoss);
    throw new BackgroundError(error.code, error.message, field, restoreLoss);
  }
  throw malformed();
}

export async function callBackground<T extends RequestType>(
  type: T,
  params: RequestParams<T>,
  send: SendToBackground = sendWithRuntime,
  selection?: Selection,
): Promise<RequestResult<T>> {
  const message: RequestMessage<T> = { channel: 'xpc-wallet', type, params, ...(selection ? { selection } : {}) };
  let answer: unknown;
  try {
    answer = await send(message);
  } catch (e) {
    const detail = e instanceof Error ? e.message : 'unknown failure';
    throw new BackgroundError('unreachable', `could not reach the wallet background: ${detail}`);
  }
  return readResponse<T>(answer);
}

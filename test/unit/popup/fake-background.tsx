// A fake background for popup component tests: typed handlers per request, every call recorded.
// Components get it through ApiContext, the same seam the real popup uses for the runtime.
import { render } from '@testing-library/preact';
import type { ComponentChildren } from 'preact';
import { ApiContext, makeCall } from '../../../src/popup/api.js';
import type { SendToBackground } from '../../../src/shared/client.js';
import type { ErrorInfo, RequestMessage, RequestParams, RequestResult, RequestType } from '../../../src/shared/messages.js';

export type Handlers = {
  [T in RequestType]?: (params: RequestParams<T>) => RequestResult<T> | Promise<RequestResult<T>>;
};

/** Thrown by a handler: answered as `{ ok: false, error }`. */
export class Refuse extends Error {
  constructor(readonly info: ErrorInfo) {
    super(info.message);
  }
}

export interface FakeBackground {
  send: SendToBackground;
  calls: RequestMessage[];
  callsOf<T extends RequestType>(type: T): RequestParams<T>[];
}

export function fakeBackground(handlers: Handlers): FakeBackground {
  const calls: RequestMessage[] = [];
  const send: SendToBackground = async (message) => {
    calls.push(message);
    if (message.type === 'wallet.open' && !handlers['wallet.open']) return openFrom(message);
    const handler = handlers[message.type] as ((p: unknown) => unknown) | undefined;
    if (!handler) return { ok: false, error: { code: 'unknown-request', message: `no fake for ${message.type}` } };
    try {
      return { ok: true, result: await handler(message.params) };
    } catch (e) {
      if (e instanceof Refuse) return { ok: false, error: e.info };
      throw e;
    }
  };
  // 'wallet.open' as the background answers it, from the status and balances fakes (recorded as
  // those two requests too, so a test can follow the balances asked for however the popup asked).
  type Answer = { ok: true; result: unknown } | { ok: false; error: ErrorInfo };
  const openFrom = async (message: RequestMessage): Promise<Answer> => {
    const status = (await send({ ...message, type: 'wallet.status', params: {} })) as Answer;
    if (!status.ok) return status;
    const s = status.result as RequestResult<'wallet.status'>;
    if (s.vault !== 'unlocked' || !s.account || !handlers['balances.get']) return { ok: true, result: { status: s, balances: null } };
    const view = (await send({ ...message, type: 'balances.get', params: { refresh: true } })) as Answer;
    return { ok: true, result: { status: s, balances: view.ok ? (view.result as RequestResult<'balances.get'>) : null } };
  };
  return {
    send,
    calls,
    callsOf: <T extends RequestType>(type: T) => calls.filter((c) => c.type === type).map((c) => c.params as RequestParams<T>),
  };
}

export function renderWith(bg: FakeBackground, ui: ComponentChildren) {
  return render(<ApiContext.Provider value={makeCall(bg.send)}>{ui}</ApiContext.Provider>);
}

export type Result<T extends RequestType> = RequestResult<T>;

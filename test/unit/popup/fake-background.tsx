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
    const handler = handlers[message.type] as ((p: unknown) => unknown) | undefined;
    if (!handler) return { ok: false, error: { code: 'unknown-request', message: `no fake for ${message.type}` } };
    try {
      return { ok: true, result: await handler(message.params) };
    } catch (e) {
      if (e instanceof Refuse) return { ok: false, error: e.info };
      throw e;
    }
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

// The router tests' background: a fake handler for every request type (each call recorded), the
// router over it with its log lines kept, the popup as sender, and a message and its error.
import { expect, vi } from 'vitest';
import { createRouter, type MessageSenderInfo, type RequestHandlers, type RouterOptions } from '../../src/background/router.js';
import type { RequestType, ResponseMessage } from '../../src/shared/messages.js';
import { REQUEST_TYPES } from '../../src/shared/validate.js';

export const EXT_ID = 'abcdefghijklmnopabcdefghijklmnop';
export const ORIGIN = `chrome-extension://${EXT_ID}/`;
export const POPUP: MessageSenderInfo = { id: EXT_ID, url: `${ORIGIN}src/popup/index.html` };

export const PASSWORD = 'Tr0ub4dor&3-unique-password';
// Fixed, so that no word of it happens to be a word of the log lines themselves (e.g. "unlock").
export const MNEMONIC =
  'arctic live gadget display excess mandate sniff autumn people disorder affair hole retreat fancy close tip deer village tuition orbit cannon owner maid spare';

type AnyHandler = (params: unknown) => Promise<unknown>;

export function fakeHandlers(overrides: Partial<Record<RequestType, AnyHandler>> = {}) {
  const calls: { type: RequestType; params: unknown }[] = [];
  const table = Object.fromEntries(
    REQUEST_TYPES.map((type) => [
      type,
      vi.fn(async (params: unknown) => {
        calls.push({ type, params });
        const override = overrides[type];
        return override ? override(params) : { ok: true };
      }),
    ]),
  ) as unknown as RequestHandlers;
  return { table, calls };
}

export function setup(overrides: Partial<Record<RequestType, AnyHandler>> = {}, options: Partial<RouterOptions> = {}) {
  const { table, calls } = fakeHandlers(overrides);
  const lines: string[] = [];
  const router = createRouter(table, { extensionId: EXT_ID, extensionOrigin: ORIGIN, log: (l) => lines.push(l), ...options });
  return { router, calls, lines };
}

export const msg = (type: string, params: unknown): unknown => ({ channel: 'xpc-wallet', type, params });

export function errorOf(r: ResponseMessage) {
  expect(r.ok).toBe(false);
  if (r.ok) throw new Error('unreachable');
  return r.error;
}

import { describe, expect, it, vi } from 'vitest';
import { FeeFundsError, InsufficientFundsError, ValidationError, WalletError } from '../../src/core/errors.js';
import { normalizeMnemonic } from '../../src/core/keys.js';
import {
  createRouter,
  handlersFrom,
  isExtensionPageSender,
  type MessageSenderInfo,
  methodNameOf,
  type RequestHandlers,
  type RouterOptions,
  type ServicesByGroup,
} from '../../src/background/router.js';
import { RestoreWouldDropError } from '../../src/background/services/accounts.js';
import { type Wallet, walletHandlers } from '../../src/background/services/index.js';
import { WrongPasswordError } from '../../src/background/vault.js';
import { BackgroundError, callBackground, readResponse } from '../../src/shared/client.js';
import type { RequestMessage, RequestType, ResponseMessage } from '../../src/shared/messages.js';
import { REQUEST_TYPES } from '../../src/shared/validate.js';

// Compile-time check: the real services fit the handler table by its naming rule.
export const _servicesFit: (wallet: Wallet) => RequestHandlers = walletHandlers;

const EXT_ID = 'abcdefghijklmnopabcdefghijklmnop';
const ORIGIN = `chrome-extension://${EXT_ID}/`;
const POPUP: MessageSenderInfo = { id: EXT_ID, url: `${ORIGIN}src/popup/index.html` };
const APPROVAL_WINDOW: MessageSenderInfo = { id: EXT_ID, url: `${ORIGIN}src/popup/approval.html`, tab: { id: 12 }, frameId: 0 };

const PASSWORD = 'Tr0ub4dor&3-unique-password';
// Fixed, so that no word of it happens to be a word of the log lines themselves (e.g. "unlock").
const MNEMONIC =
  'arctic live gadget display excess mandate sniff autumn people disorder affair hole retreat fancy close tip deer village tuition orbit cannon owner maid spare';

type AnyHandler = (params: unknown) => Promise<unknown>;

function fakeHandlers(overrides: Partial<Record<RequestType, AnyHandler>> = {}) {
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

function setup(overrides: Partial<Record<RequestType, AnyHandler>> = {}, options: Partial<RouterOptions> = {}) {
  const { table, calls } = fakeHandlers(overrides);
  const lines: string[] = [];
  const router = createRouter(table, { extensionId: EXT_ID, extensionOrigin: ORIGIN, log: (l) => lines.push(l), ...options });
  return { router, calls, lines };
}

const msg = (type: string, params: unknown): unknown => ({ channel: 'xpc-wallet', type, params });

function errorOf(r: ResponseMessage) {
  expect(r.ok).toBe(false);
  if (r.ok) throw new Error('unreachable');
  return r.error;
}

describe('sender policy', () => {
  const valid = msg('wallet.unlock', { password: PASSWORD });

  it('serves the popup and the approval window', async () => {
    const { router, calls } = setup();
    expect(await router.handle(valid, POPUP)).toEqual({ ok: true, result: { ok: true } });
    expect(await router.handle(valid, APPROVAL_WINDOW)).toEqual({ ok: true, result: { ok: true } });
    expect(calls).toHaveLength(2);
  });

  const forbidden: [string, unknown][] = [
    ['a content script (tab set, web page URL)', { id: EXT_ID, url: 'https://evil.example/page', tab: { id: 3 }, frameId: 0 }],
    ['a content script in a subframe', { id: EXT_ID, url: 'https://ads.example/frame', tab: { id: 3 }, frameId: 7 }],
    ['a content script in about:blank', { id: EXT_ID, url: 'about:blank', tab: { id: 3 }, frameId: 2 }],
    ['a web page URL without a tab', { id: EXT_ID, url: 'https://evil.example/' }],
    ['another extension', { id: 'zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz', url: 'chrome-extension://zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz/popup.html' }],
    ['another extension claiming our URL', { id: 'zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz', url: `${ORIGIN}src/popup/index.html` }],
    ['our ID with another extension’s URL', { id: EXT_ID, url: 'chrome-extension://zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz/x.html' }],
    ['a look-alike origin', { id: EXT_ID, url: `chrome-extension://${EXT_ID}evil/x.html` }],
    ['our page framed inside a tab', { id: EXT_ID, url: `${ORIGIN}src/popup/index.html`, tab: { id: 3 }, frameId: 4 }],
    ['no ID', { url: `${ORIGIN}src/popup/index.html` }],
    ['no URL', { id: EXT_ID }],
    ['a non-string URL', { id: EXT_ID, url: { startsWith: () => true } }],
    ['no sender at all', undefined],
    ['a null sender', null],
  ];

  for (const [what, sender] of forbidden) {
    it(`refuses ${what}, without calling any handler`, async () => {
      const { router, calls, lines } = setup();
      const error = errorOf(await router.handle(valid, sender as MessageSenderInfo));
      expect(error.code).toBe('forbidden');
      expect(calls).toHaveLength(0);
      expect(lines.join('\n')).not.toContain(PASSWORD);
    });
  }

  it('checks the sender before looking at the message', async () => {
    const { router } = setup();
    const web = { id: EXT_ID, url: 'https://evil.example/', tab: {}, frameId: 0 };
    expect(errorOf(await router.handle({ junk: true }, web)).code).toBe('forbidden');
    expect(errorOf(await router.handle(msg('wallet.nope', {}), web)).code).toBe('forbidden');
  });

  it('works with Firefox’s add-on ID and moz-extension origin', async () => {
    const uuid = '0f4c8e59-1d7a-4b6a-9a0e-5f1d6b2c3a4d';
    const { router, calls } = setup({}, { extensionId: 'xpc-wallet@example.org', extensionOrigin: `moz-extension://${uuid}` });
    const ok = await router.handle(valid, { id: 'xpc-wallet@example.org', url: `moz-extension://${uuid}/src/popup/index.html` });
    expect(ok.ok).toBe(true);
    const content = await router.handle(valid, { id: 'xpc-wallet@example.org', url: 'https://page.example/', tab: { id: 1 }, frameId: 0 });
    expect(errorOf(content).code).toBe('forbidden');
    expect(calls).toHaveLength(1);
  });

  it('isExtensionPageSender is usable on its own', () => {
    expect(isExtensionPageSender(POPUP, EXT_ID, ORIGIN)).toBe(true);
    expect(isExtensionPageSender(POPUP, EXT_ID, ORIGIN.slice(0, -1))).toBe(true);
    expect(isExtensionPageSender({ ...POPUP, id: 'other' }, EXT_ID, ORIGIN)).toBe(false);
  });

  it('createRouter refuses a bad origin or a missing extension ID', () => {
    const { table } = fakeHandlers();
    expect(() => createRouter(table, { extensionId: EXT_ID, extensionOrigin: 'https://example.org/' })).toThrow();
    expect(() => createRouter(table, { extensionId: EXT_ID, extensionOrigin: '' })).toThrow();
    expect(() => createRouter(table, { extensionId: '', extensionOrigin: ORIGIN })).toThrow();
  });
});

describe('malformed and unknown messages', () => {
  it('answers a validation error with its field and calls nothing', async () => {
    const { router, calls } = setup();
    const bad = errorOf(await router.handle(msg('send.p', { amount: '18446744073709551616', to: { addresses: [], threshold: 1 }, maxFee: '0' }), POPUP));
    expect(bad.code).toBe('validation');
    expect(bad.field).toBe('amount');
    expect(bad.message).toMatch(/at most/);
    const extra = errorOf(await router.handle(msg('wallet.lock', { force: true }), POPUP));
    expect(extra).toMatchObject({ code: 'validation', field: 'force' });
    const channel = errorOf(await router.handle({ channel: 'other', type: 'wallet.lock', params: {} }, POPUP));
    expect(channel).toMatchObject({ code: 'validation', field: 'channel' });
    expect(calls).toHaveLength(0);
  });

  it('answers an unknown type with unknown-request', async () => {
    const { router, calls } = setup();
    for (const type of ['wallet.exportEverything', 'hasOwnProperty', '__proto__', '']) {
      expect(errorOf(await router.handle(msg(type, {}), POPUP)).code).toBe('unknown-request');
    }
    expect(calls).toHaveLength(0);
  });

  it('never rejects, whatever arrives', async () => {
    const { router } = setup();
    const hostile = new Proxy(
      {},
      {
        get() {
          throw new Error('boom');
        },
        ownKeys() {
          throw new Error('boom');
        },
      },
    );
    for (const raw of [undefined, null, 0, 'ping', [], Symbol('x'), () => 1, hostile, { channel: 'xpc-wallet', type: 'wallet.status', params: hostile }]) {
      const r = await router.handle(raw, POPUP);
      expect(r.ok).toBe(false);
    }
  });
});

describe('handler outcomes', () => {
  it('passes the validated params and returns the result', async () => {
    const { router, calls } = setup({ 'accounts.add': async (p) => ({ echoed: p }) });
    const r = await router.handle(msg('accounts.add', { name: 'Savings' }), POPUP);
    expect(r).toEqual({ ok: true, result: { echoed: { name: 'Savings' } } });
    expect(calls).toEqual([{ type: 'accounts.add', params: { name: 'Savings' } }]);
  });

  it('maps a WalletError to its code and message', async () => {
    const { router, lines } = setup({
      'wallet.unlock': async () => {
        throw new WrongPasswordError();
      },
    });
    const error = errorOf(await router.handle(msg('wallet.unlock', { password: PASSWORD }), POPUP));
    expect(error).toEqual({ code: 'wrong-password', message: 'the password is not correct' });
    expect(lines.join('\n')).not.toContain(PASSWORD);
  });

  it('keeps the field of a ValidationError from a handler', async () => {
    const { router } = setup({
      'accounts.remove': async () => {
        throw new ValidationError('the last account cannot be removed', 'id');
      },
    });
    const error = errorOf(await router.handle(msg('accounts.remove', { id: 'abc' }), POPUP));
    expect(error).toEqual({ code: 'validation', message: 'the last account cannot be removed', field: 'id' });
  });

  it('says a lack of AVAX for the fee alone with the field "fee" (the form says it of the fee, not the amount)', async () => {
    const { router } = setup({
      'accounts.remove': async () => {
        throw new FeeFundsError(new InsufficientFundsError('AVAXID', 1_000_000n, 0n, 'AVAX'));
      },
    });
    const error = errorOf(await router.handle(msg('accounts.remove', { id: 'abc' }), POPUP));
    expect(error).toEqual({ code: 'insufficient-funds', message: 'insufficient funds of AVAX for the network fee: need 1000000, spendable 0', field: 'fee' });
  });

  it('carries what a refused restore would drop, and the client reads it back', async () => {
    const { router } = setup({
      'wallet.restore': async () => {
        throw new RestoreWouldDropError({ importedKeys: 2, unfinishedTransfers: 1, undecidedSends: 3 });
      },
    });
    const answer = await router.handle(msg('wallet.restore', { password: PASSWORD, mnemonic: MNEMONIC }), POPUP);
    expect(errorOf(answer)).toMatchObject({ code: 'restore-would-drop', restoreLoss: { importedKeys: 2, unfinishedTransfers: 1, undecidedSends: 3 } });
    expect(() => readResponse(answer)).toThrow(expect.objectContaining({ code: 'restore-would-drop', restoreLoss: { importedKeys: 2, unfinishedTransfers: 1, undecidedSends: 3 } }));
    for (const restoreLoss of [null, { importedKeys: -1, unfinishedTransfers: 0 }, { importedKeys: 1 }, { importedKeys: 0, unfinishedTransfers: 0, undecidedSends: 'many' }]) {
      expect(() => readResponse({ ok: false, error: { code: 'restore-would-drop', message: 'm', restoreLoss } })).toThrow(expect.objectContaining({ code: 'bad-response' }));
    }
  });

  it('answers any other error with a generic internal error, and logs its class', async () => {
    const { router, lines } = setup({
      'balances.refresh': async () => {
        throw new TypeError('cannot read properties of undefined (reading "utxos")');
      },
    });
    const error = errorOf(await router.handle(msg('balances.refresh', {}), POPUP));
    expect(error.code).toBe('internal');
    expect(error.message).not.toContain('utxos');
    expect(error).not.toHaveProperty('field');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('balances.refresh');
    expect(lines[0]).toContain('TypeError');
  });

  it('catches a handler that throws synchronously or throws a non-Error', async () => {
    const { table } = fakeHandlers();
    (table as unknown as Record<string, unknown>)['wallet.lock'] = () => {
      throw new RangeError('sync');
    };
    (table as unknown as Record<string, unknown>)['wallet.status'] = () => Promise.reject(`the password is ${PASSWORD}`);
    const lines: string[] = [];
    const router = createRouter(table, { extensionId: EXT_ID, extensionOrigin: ORIGIN, log: (l) => lines.push(l) });
    expect(errorOf(await router.handle(msg('wallet.lock', {}), POPUP)).code).toBe('internal');
    expect(errorOf(await router.handle(msg('wallet.status', {}), POPUP)).code).toBe('internal');
    expect(lines.join('\n')).not.toContain(PASSWORD);
  });

  it('refuses a result that does not survive JSON (bigint) instead of breaking the channel', async () => {
    const { router } = setup({ 'balances.get': async () => ({ spendable: 5n }) });
    expect(errorOf(await router.handle(msg('balances.get', {}), POPUP)).code).toBe('internal');
  });

  it('answers even when the logger throws', async () => {
    const { router } = setup(
      {
        'activity.list': async () => {
          throw new Error('x');
        },
      },
      {
        log: () => {
          throw new Error('logger down');
        },
      },
    );
    expect(errorOf(await router.handle(msg('activity.list', {}), POPUP)).code).toBe('internal');
  });
});

describe('the log never holds secrets from params', () => {
  it('even when an error message quotes them', async () => {
    const words = normalizeMnemonic(MNEMONIC).split(' ');
    const leak = async (p: unknown): Promise<never> => {
      const o = p as Record<string, string>;
      const sixth = (o.mnemonic ?? '').split(' ')[5] ?? '';
      throw new Error(`failed with ${JSON.stringify(o)}; word 6 is "${sixth}"; ${(o.password ?? '').toUpperCase()}`);
    };
    const { router, lines } = setup({
      'wallet.create': leak,
      'wallet.restore': leak,
      'wallet.unlock': leak,
      'wallet.changePassword': leak,
      'accounts.importKey': leak,
    });
    const key = '0x' + '3c'.repeat(32);
    await router.handle(msg('wallet.create', { password: PASSWORD, mnemonic: MNEMONIC }), POPUP);
    await router.handle(msg('wallet.restore', { password: PASSWORD, mnemonic: MNEMONIC.toUpperCase() }), POPUP);
    await router.handle(msg('wallet.unlock', { password: PASSWORD }), POPUP);
    await router.handle(msg('wallet.changePassword', { oldPassword: PASSWORD, newPassword: `${PASSWORD}-new` }), POPUP);
    await router.handle(msg('accounts.importKey', { name: 'k', privateKey: key }), POPUP);
    // Refused and malformed messages carrying secrets.
    await router.handle(msg('wallet.unlock', { password: PASSWORD }), { id: EXT_ID, url: 'https://evil.example/', tab: {}, frameId: 0 });
    await router.handle(msg('wallet.unlock', { password: PASSWORD, mnemonic: MNEMONIC }), POPUP);
    await router.handle(msg('wallet.steal', { password: PASSWORD }), POPUP);

    expect(lines.length).toBeGreaterThanOrEqual(5);
    const all = lines.join('\n').toLowerCase();
    expect(all).toContain('wallet.create');
    expect(all).not.toContain(PASSWORD.toLowerCase());
    expect(all).not.toContain('3c3c3c');
    for (const word of words) expect(all).not.toMatch(new RegExp(`\\b${word}\\b`));
  });
});

describe('handlersFrom', () => {
  it('derives the method names from the request types', () => {
    expect(methodNameOf('wallet.status')).toBe('walletStatus');
    expect(methodNameOf('wallet.generateMnemonic')).toBe('walletGenerateMnemonic');
    expect(methodNameOf('send.x')).toBe('sendX');
    expect(methodNameOf('assets.mintNft')).toBe('assetsMintNft');
    expect(methodNameOf('transfers.importWaiting')).toBe('transfersImportWaiting');
  });

  /** One fake service per group, each with its group's methods, recording which service was called. */
  function fakeServices() {
    const calls: string[] = [];
    const services: Record<string, Record<string, unknown>> = {};
    for (const type of REQUEST_TYPES) {
      const group = type.slice(0, type.indexOf('.'));
      const service = (services[group] ??= { group });
      service[methodNameOf(type)] = function (this: { group: string }, params: unknown) {
        calls.push(`${this.group}:${type}`);
        return Promise.resolve({ type, params });
      };
    }
    return { services, calls };
  }

  it("routes each type to its group's service, to the method of its name, bound to that service", async () => {
    const { services, calls } = fakeServices();
    const handlers = handlersFrom(services as unknown as ServicesByGroup);
    expect(Object.keys(handlers).sort()).toEqual([...REQUEST_TYPES].sort());
    const router = createRouter(handlers, { extensionId: EXT_ID, extensionOrigin: ORIGIN });
    const r = await router.handle({ ...(msg('send.c', { to: '0x' + '12'.repeat(20), amountWei: '7', maxFeeWei: '1' }) as object), selection: { accountId: 'acc1', networkId: 'local' } }, POPUP);
    expect(r).toEqual({ ok: true, result: { type: 'send.c', params: { to: '0x' + '12'.repeat(20), amountWei: '7', maxFeeWei: '1' } } });
    await router.handle(msg('wallet.lock', {}), POPUP);
    expect(calls).toEqual(['send:send.c', 'wallet:wallet.lock']);
  });

  it('refuses a request reviewed on another account or network before its handler runs', async () => {
    const { services, calls } = fakeServices();
    const seen: unknown[] = [];
    const router = createRouter(handlersFrom(services as unknown as ServicesByGroup), {
      extensionId: EXT_ID,
      extensionOrigin: ORIGIN,
      checkSelection: async (selection) => {
        seen.push(selection);
        if (selection.accountId !== 'acc1') throw new WalletError('selection-changed', 'the account or network was switched since this was reviewed: nothing was sent; review it again');
      },
    });
    const params = { from: 'X', to: 'P', amount: '1', maxFee: '1' };
    const refused = await router.handle({ ...(msg('transfers.start', params) as object), selection: { accountId: 'acc2', networkId: 'local' } }, POPUP);
    expect(refused).toEqual({ ok: false, error: { code: 'selection-changed', message: expect.stringMatching(/switched since this was reviewed/) } });
    expect(calls).toEqual([]);
    expect((await router.handle({ ...(msg('transfers.start', params) as object), selection: { accountId: 'acc1', networkId: 'local' } }, POPUP)).ok).toBe(true);
    // Without a selection nothing is checked.
    expect((await router.handle(msg('wallet.lock', {}), POPUP)).ok).toBe(true);
    expect(seen).toEqual([
      { accountId: 'acc2', networkId: 'local' },
      { accountId: 'acc1', networkId: 'local' },
    ]);
    expect(calls).toEqual(['transfers:transfers.start', 'wallet:wallet.lock']);
  });

  it('fails at start-up when a method or a whole service is missing', () => {
    const { services } = fakeServices();
    delete services.assets!.assetsMintNft;
    expect(() => handlersFrom(services as unknown as ServicesByGroup)).toThrow(/assetsMintNft/);
    const again = fakeServices().services;
    delete again.sites;
    expect(() => handlersFrom(again as unknown as ServicesByGroup)).toThrow(/sitesList/);
  });
});

describe('callBackground', () => {
  it('sends a typed message and resolves with the result', async () => {
    const sent: RequestMessage[] = [];
    const result = await callBackground('accounts.add', { name: 'Savings' }, async (m) => {
      sent.push(m);
      return { ok: true, result: { id: 'a1', name: 'Savings' } };
    });
    expect(sent).toEqual([{ channel: 'xpc-wallet', type: 'accounts.add', params: { name: 'Savings' } }]);
    expect(result).toEqual({ id: 'a1', name: 'Savings' });
  });

  it('turns {ok:false} into a BackgroundError with code, message and field', async () => {
    const answer = { ok: false, error: { code: 'validation', message: 'to.threshold: must be from 1 to 2', field: 'to.threshold' } };
    const e = await callBackground('send.p', { amount: '1', to: { addresses: [], threshold: 1 }, maxFee: '1' }, async () => answer).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(BackgroundError);
    expect(e).toBeInstanceOf(WalletError);
    expect(e).toMatchObject({ code: 'validation', message: 'to.threshold: must be from 1 to 2', field: 'to.threshold' });
    const locked = await callBackground('wallet.lock', {}, async () => ({ ok: false, error: { code: 'vault-locked', message: 'locked' } })).catch((x: unknown) => x);
    expect(locked).toMatchObject({ code: 'vault-locked', field: undefined });
  });

  it('turns a malformed answer into bad-response', async () => {
    for (const answer of [undefined, null, 'ok', [], {}, { ok: 'true' }, { ok: true }, { ok: false }, { ok: false, error: { code: 1, message: 'm' } }, { ok: false, error: { code: 'c', message: 'm', field: 3 } }]) {
      const e = await callBackground('wallet.status', {}, async () => answer).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(BackgroundError);
      expect((e as BackgroundError).code).toBe('bad-response');
    }
    expect(() => readResponse({ ok: true, result: { x: 1 } })).not.toThrow();
  });

  it('turns a failed delivery into unreachable', async () => {
    const e = await callBackground('wallet.status', {}, async () => {
      throw new Error('Could not establish connection. Receiving end does not exist.');
    }).catch((x: unknown) => x);
    expect(e).toMatchObject({ code: 'unreachable' });
  });

  it('works end to end through the router', async () => {
    const { router } = setup({
      'wallet.unlock': async () => {
        throw new WrongPasswordError();
      },
      'wallet.status': async () => ({ vault: 'locked' }),
    });
    const send = (m: RequestMessage) => router.handle(JSON.parse(JSON.stringify(m)), POPUP);
    expect(await callBackground('wallet.status', {}, send)).toEqual({ vault: 'locked' });
    await expect(callBackground('wallet.unlock', { password: PASSWORD }, send)).rejects.toMatchObject({ code: 'wrong-password' });
    await expect(callBackground('wallet.setIdleLock', { minutes: 0 }, send)).rejects.toMatchObject({ code: 'validation', field: 'minutes' });
  });
});

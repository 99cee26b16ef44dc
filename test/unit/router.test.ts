// The background's message router (src/background/router.ts): which senders it serves, what it
// does with malformed or unknown messages, and that its log never holds a secret from params.
import { describe, expect, it } from 'vitest';
import { normalizeMnemonic } from '../../src/core/keys.js';
import { createRouter, isExtensionPageSender, type MessageSenderInfo } from '../../src/background/router.js';
import { EXT_ID, errorOf, fakeHandlers, MNEMONIC, msg, ORIGIN, PASSWORD, POPUP, setup } from './router-test-kit.js';

const APPROVAL_WINDOW: MessageSenderInfo = { id: EXT_ID, url: `${ORIGIN}src/popup/approval.html`, tab: { id: 12 }, frameId: 0 };

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

// What the router answers once a handler ran: its result, a WalletError's code, field and details,
// anything else as "internal"; and callBackground, the popup's end, reading those answers.
import { describe, expect, it } from 'vitest';
import { FeeFundsError, InsufficientFundsError, ValidationError, WalletError } from '../../src/core/errors.js';
import { createRouter } from '../../src/background/router.js';
import { RestoreWouldDropError } from '../../src/background/services/accounts-restore.js';
import { WrongPasswordError } from '../../src/background/vault.js';
import { BackgroundError, callBackground, readResponse } from '../../src/shared/client.js';
import type { RequestMessage } from '../../src/shared/messages.js';
import { EXT_ID, errorOf, fakeHandlers, MNEMONIC, msg, ORIGIN, PASSWORD, POPUP, setup } from './router-test-kit.js';

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
    const error = errorOf(await router.handle(msg('accounts.remove', { id: 'abc', password: 'long enough' }), POPUP));
    expect(error).toEqual({ code: 'validation', message: 'the last account cannot be removed', field: 'id' });
  });

  it('says a lack of AVAX for the fee alone with the field "fee" (the form says it of the fee, not the amount)', async () => {
    const { router } = setup({
      'accounts.remove': async () => {
        throw new FeeFundsError(new InsufficientFundsError('AVAXID', 1_000_000n, 0n, 'AVAX'));
      },
    });
    const error = errorOf(await router.handle(msg('accounts.remove', { id: 'abc', password: 'long enough' }), POPUP));
    expect(error).toEqual({ code: 'insufficient-funds', message: 'insufficient funds of AVAX for the network fee: need 1000000, spendable 0', field: 'fee' });
  });

  it('carries what a refused restore would drop, and the client reads it back', async () => {
    const { router } = setup({
      'wallet.restore': async () => {
        throw new RestoreWouldDropError({ importedKeys: 2, unfinishedTransfers: 1, undecidedSends: 3, names: ['k1', 'k2', 'm', 's1', 's2', 's3'] });
      },
    });
    const answer = await router.handle(msg('wallet.restore', { password: PASSWORD, mnemonic: MNEMONIC }), POPUP);
    const carried = { importedKeys: 2, unfinishedTransfers: 1, undecidedSends: 3, names: ['k1', 'k2', 'm', 's1', 's2', 's3'] };
    expect(errorOf(answer)).toMatchObject({ code: 'restore-would-drop', restoreLoss: carried });
    expect(() => readResponse(answer)).toThrow(expect.objectContaining({ code: 'restore-would-drop', restoreLoss: carried }));
    const names: string[] = [];
    for (const restoreLoss of [null, { importedKeys: -1, unfinishedTransfers: 0, names }, { importedKeys: 1, names }, { importedKeys: 0, unfinishedTransfers: 0, undecidedSends: 'many', names }, { importedKeys: 0, unfinishedTransfers: 0 }, { importedKeys: 0, unfinishedTransfers: 0, names: [1] }, { importedKeys: 0, unfinishedTransfers: 0, names: 'k1' }]) {
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

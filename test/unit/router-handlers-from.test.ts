// handlersFrom: the router's handler table built from the wallet's services by the naming rule
// (a type's method on its group's service), checked at start-up, with the reviewed selection.
import { describe, expect, it } from 'vitest';
import { WalletError } from '../../src/core/errors.js';
import { createRouter, handlersFrom, methodNameOf, type RequestHandlers, type ServicesByGroup } from '../../src/background/router.js';
import { type Wallet, walletHandlers } from '../../src/background/services/index.js';
import { REQUEST_TYPES } from '../../src/shared/validate.js';
import { EXT_ID, msg, ORIGIN, POPUP } from './router-test-kit.js';

// Compile-time check: the real services fit the handler table by its naming rule.
export const _servicesFit: (wallet: Wallet) => RequestHandlers = walletHandlers;

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
        if (selection.accountId !== 'acc1') throw new WalletError('selection-changed', 'the account or network was switched since this was reviewed: nothing was done; review it again');
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

// Request validation as a whole: every request type against its valid example, optional fields,
// the message envelope (validateRequestMessage) and what error messages may say.
import { describe, expect, it } from 'vitest';
import { ValidationError, WalletError } from '../../src/core/errors.js';
import type { RequestType } from '../../src/shared/messages.js';
import { BOUND_TO_SELECTION, REQUEST_TYPES, REQUEST_VALIDATORS, UnknownRequestError, validateRequestMessage } from '../../src/shared/validate.js';
import { accepts, addr, errorOf, KEY_CB58, KEY_HEX, MNEMONIC, PASSWORD, rejects, VALID, withFields } from './validate-fixtures.js';

describe('every request type', () => {
  it('has a validator and a valid example', () => {
    expect([...REQUEST_TYPES].sort()).toEqual(Object.keys(VALID).sort());
  });

  for (const type of REQUEST_TYPES) {
    describe(type, () => {
      it('accepts its valid example and returns an equal, fresh object', () => {
        const params = structuredClone(VALID[type]);
        const out = accepts(type, params);
        expect(out).toEqual(VALID[type]);
        expect(out).not.toBe(params);
      });

      it('accepts the example after a JSON round trip (how Chrome delivers it)', () => {
        expect(accepts(type, JSON.parse(JSON.stringify(VALID[type])))).toEqual(VALID[type]);
      });

      it('rejects an unknown extra field, naming it', () => {
        rejects(type, { ...VALID[type], sneaky: 1 }, 'sneaky');
      });

      it('rejects params that are not a plain object', () => {
        for (const bad of [null, undefined, 'x', 42, [], [VALID[type]], new Date()]) rejects(type, bad, 'params');
      });

      const required = Object.keys(VALID[type]);
      for (const key of required) {
        const optional =
          ((type === 'send.x' || type === 'send.estimate') && key === 'memo') ||
          (type === 'networks.addCustom' && key === 'atomicNamespace') ||
          ((type === 'balances.get' || type === 'tokens.activity') && key === 'refresh') ||
          ((type === 'tokens.send' || type === 'tokens.estimateSend') && (key === 'amount' || key === 'tokenId')) ||
          (type === 'assets.create' && key === 'holders') ||
          (type.startsWith('staking.') && ['filter', 'sort', 'offset', 'limit', 'rewardOwner', 'delegationFeeOwner'].includes(key));
        if (optional) continue;
        it(`rejects a missing "${key}"`, () => {
          rejects(type, withFields(VALID[type], { [key]: undefined }), key);
        });
        it(`rejects "${key}" of the wrong type`, () => {
          const current = (VALID[type] as Record<string, unknown>)[key];
          const wrong = typeof current === 'string' ? 12 : typeof current === 'number' ? '12' : 'not-an-object';
          rejects(type, withFields(VALID[type], { [key]: wrong }), key);
        });
      }
    });
  }
});

describe('optional fields', () => {
  it('may be left out or be undefined', () => {
    expect(accepts('send.x', { ...VALID['send.x'], memo: undefined })).not.toHaveProperty('memo');
    expect(accepts('balances.get', {})).toEqual({});
    expect(accepts('networks.addCustom', { name: 'n', url: 'http://127.0.0.1:9650' })).toEqual({ name: 'n', url: 'http://127.0.0.1:9650' });
    // Plain http only on this machine; anywhere else whoever is on the path would play the node.
    accepts('networks.addCustom', { name: 'n', url: 'http://localhost:9650' });
    accepts('networks.addCustom', { name: 'n', url: 'http://[::1]:9650' });
    rejects('networks.addCustom', { name: 'n', url: 'http://node.example.org:9650' }, 'url');
    rejects('networks.addCustom', { name: 'n', url: 'http://192.168.1.10:9650' }, 'url');
    // An empty query or fragment parses as none, yet every API path would be sent after it.
    for (const url of ['https://node.example/?', 'https://node.example/#', 'https://node.example/?x=1']) rejects('networks.addCustom', { name: 'n', url }, 'url');
    const set = accepts('send.p', { amount: '5', to: { addresses: [addr(1, 'P')], threshold: 1 }, maxFee: '1' }).to;
    expect(set).not.toHaveProperty('locktime');
  });

  it('are still type-checked when present', () => {
    rejects('balances.get', { refresh: 'yes' }, 'refresh');
    rejects('send.x', { ...VALID['send.x'], memo: 5 }, 'memo');
    rejects('networks.addCustom', { name: 'n', url: 'https://a', atomicNamespace: '' }, 'atomicNamespace');
  });
});

describe('validateRequestMessage', () => {
  const message = { channel: 'xpc-wallet', type: 'wallet.unlock', params: { password: PASSWORD } };

  it('accepts a well-formed message and validates its params', () => {
    expect(validateRequestMessage(message)).toEqual(message);
    const e = errorOf(() => validateRequestMessage({ ...message, params: { password: 5 } }));
    expect((e as ValidationError).field).toBe('password');
  });

  it('checks the channel first', () => {
    for (const channel of [undefined, 'other', 'XPC-WALLET']) {
      const e = errorOf(() => validateRequestMessage({ ...message, channel }));
      expect(e).toBeInstanceOf(ValidationError);
      expect((e as ValidationError).field).toBe('channel');
    }
  });

  it('answers an unknown type with UnknownRequestError', () => {
    for (const type of ['wallet.steal', 'ping', '__proto__', 'toString', 'constructor', 'x'.repeat(10_000)]) {
      const e = errorOf(() => validateRequestMessage({ ...message, type }));
      expect(e).toBeInstanceOf(UnknownRequestError);
      expect((e as WalletError).code).toBe('unknown-request');
      expect((e as WalletError).message.length).toBeLessThan(120);
    }
    const e = errorOf(() => validateRequestMessage({ ...message, type: 7 }));
    expect((e as ValidationError).field).toBe('type');
  });

  it('takes the account and network a request was reviewed on, checked like any other field', () => {
    const send = { channel: 'xpc-wallet', type: 'transfers.list', params: {}, selection: { accountId: 'a1b2c3', networkId: 'custom-0011aabb' } };
    expect(validateRequestMessage(send)).toEqual(send);
    expect((errorOf(() => validateRequestMessage({ ...send, selection: { accountId: 'a b', networkId: 'local' } })) as ValidationError).field).toBe('selection.accountId');
    expect((errorOf(() => validateRequestMessage({ ...send, selection: { accountId: 'a1' } })) as ValidationError).field).toBe('selection.networkId');
    expect((errorOf(() => validateRequestMessage({ ...send, selection: 'a1' })) as ValidationError).field).toBe('selection');
  });

  it('requires the account and network of the review on every request that moves funds or creates something', () => {
    for (const type of BOUND_TO_SELECTION) {
      const e = errorOf(() => validateRequestMessage({ channel: 'xpc-wallet', type, params: VALID[type] }));
      expect((e as ValidationError).field, type).toBe('selection');
      expect(validateRequestMessage({ channel: 'xpc-wallet', type, params: VALID[type], selection: { accountId: 'a1', networkId: 'local' } }).selection).toEqual({ accountId: 'a1', networkId: 'local' });
    }
    expect([...BOUND_TO_SELECTION].sort()).toEqual([
      'assets.create',
      'assets.mint',
      'assets.mintNft',
      'assets.transferNft',
      'evm.replace',
      'send.c',
      'send.p',
      'send.x',
      'staking.delegate',
      'staking.setAutoRenew',
      'staking.validate',
      'tokens.revoke',
      'tokens.send',
      'transfers.importWaiting',
      'transfers.start',
    ]);
  });

  it('refuses extra message fields, missing params and non-objects', () => {
    expect((errorOf(() => validateRequestMessage({ ...message, id: 1 })) as ValidationError).field).toBe('id');
    expect((errorOf(() => validateRequestMessage({ channel: 'xpc-wallet', type: 'wallet.status' })) as ValidationError).field).toBe('params');
    for (const raw of [null, undefined, 'xpc-wallet', [message], 3]) {
      expect(errorOf(() => validateRequestMessage(raw))).toBeInstanceOf(ValidationError);
    }
  });

  it('resists prototype tricks in params', () => {
    const polluted = JSON.parse('{"password":"pw","__proto__":{"admin":true}}') as unknown;
    const e = errorOf(() => validateRequestMessage({ ...message, params: polluted }));
    expect((e as ValidationError).field).toBe('__proto__');
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });
});

describe('error messages', () => {
  it('never repeat a rejected secret', () => {
    const secretPassword = 'SuperSecretPassword!' + 'x'.repeat(1100);
    const cases: [RequestType, unknown][] = [
      ['wallet.unlock', { password: secretPassword }],
      ['wallet.create', { password: PASSWORD, mnemonic: `${MNEMONIC} ${MNEMONIC} ${MNEMONIC}` }],
      ['accounts.importKey', { name: 'k', privateKey: KEY_HEX + 'zz' }],
      ['accounts.importKey', { name: 'k', privateKey: KEY_CB58 + '0' }],
    ];
    for (const [type, params] of cases) {
      const e = errorOf(() => REQUEST_VALIDATORS[type](params)) as Error;
      expect(e.message).not.toContain('SuperSecret');
      expect(e.message).not.toContain(MNEMONIC.split(' ').slice(0, 3).join(' '));
      expect(e.message).not.toContain(KEY_HEX.slice(2, 20));
      expect(e.message).not.toContain(KEY_CB58.slice(11, 30));
    }
  });

  it('start with the field they are about', () => {
    const e = rejects('send.x', { ...VALID['send.x'], to: { addresses: [addr(1), 'bad'], threshold: 1 } }, 'to.addresses[1]');
    expect(e.message.startsWith('to.addresses[1]: ')).toBe(true);
  });
});

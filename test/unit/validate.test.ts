import { describe, expect, it } from 'vitest';
import { bech32 } from 'bech32';
import { cb58Encode, formatAddress, formatNodeId, formatPrivateKey } from '../../src/core/encoding.js';
import { ValidationError, WalletError } from '../../src/core/errors.js';
import { formatEvmAddress } from '../../src/core/evm-address.js';
import { generateMnemonic } from '../../src/core/keys.js';
import type { OwnerSet, RequestParams, RequestType } from '../../src/shared/messages.js';
import {
  BOUND_TO_SELECTION,
  REQUEST_TYPES,
  REQUEST_VALIDATORS,
  UnknownRequestError,
  validateRequestMessage,
} from '../../src/shared/validate.js';
import { U256_MAX, U64_MAX } from '../../src/shared/validate-fields.js';

const HRP = 'local';
const addr = (i: number, chain = 'X'): string => formatAddress(chain, HRP, new Uint8Array(20).fill(i));
const owners = (n: number, threshold = 1, chain = 'X'): OwnerSet => ({
  addresses: Array.from({ length: n }, (_, i) => addr(i + 1, chain)),
  threshold,
});
const ASSET = cb58Encode(new Uint8Array(32).fill(7));
const UTXO = `${ASSET}:3`;
const EVM = formatEvmAddress(new Uint8Array(20).fill(0xab));
const KEY_CB58 = formatPrivateKey(new Uint8Array(32).fill(1));
const KEY_HEX = '0x' + '11'.repeat(32);
const MNEMONIC = generateMnemonic(12);
const PASSWORD = 'correct horse battery staple';
const U64 = U64_MAX.toString();
const U256 = U256_MAX.toString();
const NODE = formatNodeId(new Uint8Array(20).fill(3));
const NODE_KEY = { nodeID: NODE, publicKey: '0x' + 'ab'.repeat(48), proofOfPossession: '0x' + 'cd'.repeat(96) };

/** One valid example per request type; the table is typed so a new request type needs an entry. */
const VALID: { [T in RequestType]: RequestParams<T> } = {
  'wallet.status': {},
  'wallet.open': {},
  'wallet.generateMnemonic': { words: 24 },
  'wallet.create': { password: PASSWORD, mnemonic: MNEMONIC },
  'wallet.checkPhrase': { mnemonic: MNEMONIC },
  'wallet.checkKey': { privateKey: KEY_CB58 },
  'wallet.restore': { password: PASSWORD, mnemonic: MNEMONIC },
  'wallet.createFromKey': { password: PASSWORD, privateKey: KEY_CB58, name: 'Imported' },
  'wallet.unlock': { password: PASSWORD },
  'wallet.lock': {},
  'wallet.changePassword': { oldPassword: PASSWORD, newPassword: 'another long password' },
  'wallet.revealMnemonic': { password: PASSWORD },
  'wallet.exportPrivateKey': { password: PASSWORD, accountId: '0a1b2c3d4e5f6071' },
  'wallet.setIdleLock': { minutes: 15 },
  'accounts.list': {},
  'accounts.add': { name: 'Savings' },
  'accounts.importKey': { name: 'Hot key', privateKey: KEY_HEX },
  'accounts.rename': { id: '0a1b2c3d4e5f6071', name: 'Renamed ✓' },
  'accounts.remove': { id: '0a1b2c3d4e5f6071' },
  'accounts.select': { id: '0a1b2c3d4e5f6071' },
  'networks.list': {},
  'networks.select': { id: 'fuji' },
  'networks.addCustom': { name: 'My node', url: 'https://node.example.org:9650', atomicNamespace: 'avax' },
  'networks.remove': { id: 'custom-00112233aabbccdd' },
  'networks.health': { id: 'local' },
  'balances.get': { refresh: true },
  'balances.refresh': {},
  'send.x': { assetID: ASSET, amount: '1000', to: { addresses: [addr(1)], threshold: 1, locktime: '0' }, memo: 'thanks', maxFee: '1000000' },
  'send.p': { amount: U64, to: owners(2, 2, 'P'), maxFee: '0' },
  'send.c': { to: EVM, amountWei: U256, maxFeeWei: U256 },
  'send.estimate': { chain: 'X', assetID: ASSET, amount: '1000', to: owners(2, 1), memo: 'for rent' },
  'assets.create': {
    name: 'Gold Coin',
    symbol: 'GLD',
    denomination: 2,
    kind: 'variable',
    minters: [owners(2, 1)],
    holders: [{ owners: owners(1), amount: '500' }],
    maxFee: '10000000',
  },
  'assets.fees': {},
  'assets.mint': { assetID: ASSET, utxoID: UTXO, amount: '1', to: owners(1), maxFee: '1000000' },
  'assets.mintNft': { assetID: ASSET, utxoID: UTXO, groupID: 0, payloadHex: '0x' + 'ab'.repeat(1024), to: [owners(1), owners(3, 2)], maxFee: '0' },
  'assets.transferNft': { utxoID: UTXO, to: owners(1), maxFee: U64 },
  'assets.listNfts': {},
  'assets.mintRights': {},
  'transfers.start': { from: 'X', to: 'C', amount: '1000000000', maxFee: '2000000' },
  'transfers.estimate': { from: 'C', to: 'P', amount: '1' },
  'transfers.list': {},
  'transfers.estimateImportWaiting': {},
  'transfers.importWaiting': { planID: '0123abcd', maxFee: '1000' },
  'staking.params': {},
  'staking.validators': { filter: { minUptime: 90.5, maxFee: 50_000, minFreeSpace: '25000000000', minRemainingSeconds: 86_400, nodeID: 'NodeID-7' }, sort: 'free-space', offset: 20, limit: 100 },
  'staking.pick': { amount: '25000000000', end: 1_800_000_000 },
  'staking.estimateDelegation': { nodeID: NODE, amount: '25000000000', end: 1_800_000_000, rewardOwner: owners(1, 1, 'P') },
  'staking.delegate': { nodeID: NODE, amount: '25000000000', end: 1_800_000_000, rewardOwner: owners(2, 2, 'P'), maxFee: '10000' },
  'staking.nodeKey': { url: 'https://node.example.org:9650' },
  'staking.estimateValidation': { ...NODE_KEY, amount: '2000000000000', end: 1_800_000_000, delegationFee: 20_000, rewardOwner: owners(1, 1, 'P'), delegationFeeOwner: owners(1, 1, 'P') },
  'staking.validate': { ...NODE_KEY, amount: '2000000000000', end: 1_800_000_000, delegationFee: 1_000_000, maxFee: '20000' },
  'staking.estimateAutoRenew': { txID: ASSET, period: 0, restakeShares: 0 },
  'staking.setAutoRenew': { txID: ASSET, period: 172_800, restakeShares: 500_000, takesEffect: 1_790_000_000, maxFee: '10000' },
  'staking.mine': {},
  'staking.rewardsCsv': { scope: 'all' },
  'activity.list': {},
  'settings.getHiddenAssets': { networkId: 'local' },
  'settings.setHiddenAssets': { assetIDs: [ASSET, cb58Encode(new Uint8Array(32).fill(8))], networkId: 'local' },
  'approvals.list': {},
  'sites.list': {},
  'sites.revoke': { origin: 'https://app.example' },
  'sites.removeChain': { chainId: '43114' },
  'sites.resetChain': { origin: 'https://app.example' },
  'approvals.decide': { id: '0123456789abcdef01234567', approved: false },
  'approvals.waiting': {},
  'tokens.inspect': { address: EVM },
  'tokens.add': { address: EVM },
  'tokens.remove': { address: EVM },
  'tokens.list': {},
  'tokens.activity': { refresh: true },
  'tokens.nfts': { address: EVM },
  'tokens.nftMetadata': { address: EVM, tokenId: U256 },
  'tokens.estimateSend': { address: EVM, to: EVM, amount: '1' },
  'tokens.send': { address: EVM, to: EVM, tokenId: '0', maxFeeWei: '1' },
  'tokens.allowances': {},
  'tokens.estimateRevoke': { address: EVM, spender: EVM, kind: 'operator' },
  'tokens.revoke': { address: EVM, spender: EVM, kind: 'allowance', maxFeeWei: U256 },
  'evm.pending': {},
  'evm.estimateReplace': { txHash: '0x' + 'ab'.repeat(32), action: 'speed-up' },
  'evm.replace': { txHash: '0x' + 'CD'.repeat(32), action: 'cancel', maxFeeWei: '0' },
};

function errorOf(run: () => unknown): unknown {
  try {
    run();
  } catch (e) {
    return e;
  }
  throw new Error('expected an error');
}

function rejects(type: RequestType, params: unknown, field: string): ValidationError {
  const e = errorOf(() => REQUEST_VALIDATORS[type](params));
  expect(e).toBeInstanceOf(ValidationError);
  const v = e as ValidationError;
  expect(v.code).toBe('validation');
  expect(v.field).toBe(field);
  return v;
}

function accepts<T extends RequestType>(type: T, params: unknown): RequestParams<T> {
  return REQUEST_VALIDATORS[type](params) as RequestParams<T>;
}

/** `base` with `patch` applied (`undefined` in the patch deletes the key). */
function withFields(base: object, patch: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) delete out[k];
    else out[k] = v;
  }
  return out;
}

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

describe('token requests', () => {
  it('a token send names an amount or a token ID (or both, ERC-1155), each a uint256', () => {
    rejects('tokens.send', { address: EVM, to: EVM, maxFeeWei: '1' }, 'amount');
    rejects('tokens.estimateSend', { address: EVM, to: EVM, amount: '0' }, 'amount');
    rejects('tokens.estimateSend', { address: EVM, to: EVM, tokenId: (U256_MAX + 1n).toString() }, 'tokenId');
    expect(accepts('tokens.estimateSend', { address: EVM, to: EVM, amount: '5', tokenId: '0' })).toEqual({ address: EVM, to: EVM, amount: '5', tokenId: '0' });
  });

  it('addresses are checked as EVM addresses (a wrong EIP-55 checksum is a typo)', () => {
    const wrongCase = EVM.slice(0, 2) + EVM.slice(2, 3).toLowerCase() + EVM.slice(3);
    rejects('tokens.add', { address: wrongCase === EVM ? EVM.toLowerCase().replace('0xab', '0xAb') : wrongCase }, 'address');
    rejects('tokens.revoke', { address: EVM, spender: 'X-local1abc', kind: 'allowance', maxFeeWei: '1' }, 'spender');
    rejects('tokens.revoke', { address: EVM, spender: EVM, kind: 'all', maxFeeWei: '1' }, 'kind');
  });

  it('a replacement names a pending tx by its 0x hash and says what to do with it', () => {
    rejects('evm.replace', { txHash: '0x' + 'ab'.repeat(31), action: 'cancel', maxFeeWei: '1' }, 'txHash');
    rejects('evm.replace', { txHash: '0x' + 'zz'.repeat(32), action: 'cancel', maxFeeWei: '1' }, 'txHash');
    rejects('evm.estimateReplace', { txHash: '0x' + 'ab'.repeat(32), action: 'drop' }, 'action');
  });
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

describe('string sizes', () => {
  it('passwords: at most 1024 characters, not empty', () => {
    accepts('wallet.unlock', { password: 'p'.repeat(1024) });
    rejects('wallet.unlock', { password: 'p'.repeat(1025) }, 'password');
    rejects('wallet.unlock', { password: '' }, 'password');
    rejects('wallet.changePassword', { oldPassword: PASSWORD, newPassword: 'n'.repeat(1025) }, 'newPassword');
    rejects('wallet.changePassword', { oldPassword: 'o'.repeat(1025), newPassword: PASSWORD }, 'oldPassword');
  });

  it('names: 1 to 64 characters, not blank, no control characters, well-formed', () => {
    accepts('accounts.add', { name: 'n'.repeat(64) });
    rejects('accounts.add', { name: 'n'.repeat(65) }, 'name');
    rejects('accounts.add', { name: '' }, 'name');
    rejects('accounts.add', { name: '   ' }, 'name');
    rejects('accounts.add', { name: 'line\nbreak' }, 'name');
    rejects('accounts.add', { name: 'lone \ud800 surrogate' }, 'name');
    rejects('networks.addCustom', { name: 'x'.repeat(65), url: 'https://a' }, 'name');
    rejects('wallet.createFromKey', { ...VALID['wallet.createFromKey'], name: 'x'.repeat(65) }, 'name');
  });

  it('memo: at most 256 bytes of UTF-8, not 256 characters', () => {
    accepts('send.x', { ...VALID['send.x'], memo: 'm'.repeat(256) });
    accepts('send.x', { ...VALID['send.x'], memo: '' });
    rejects('send.x', { ...VALID['send.x'], memo: 'm'.repeat(257) }, 'memo');
    const euros = '€'.repeat(86); // 86 characters, 258 bytes
    expect(euros.length).toBeLessThan(256);
    rejects('send.x', { ...VALID['send.x'], memo: euros }, 'memo');
    accepts('send.x', { ...VALID['send.x'], memo: '€'.repeat(85) + 'a' }); // 256 bytes
    rejects('send.x', { ...VALID['send.x'], memo: '\udc00' }, 'memo');
  });

  it('mnemonic: at most 24 words and 300 characters', () => {
    const words = MNEMONIC.split(' ');
    accepts('wallet.restore', { password: PASSWORD, mnemonic: `  ${MNEMONIC}\n` });
    rejects('wallet.restore', { password: PASSWORD, mnemonic: [...words, ...words, 'one'].join(' ') }, 'mnemonic');
    rejects('wallet.restore', { password: PASSWORD, mnemonic: 'a'.repeat(301) }, 'mnemonic');
    accepts('wallet.restore', { password: PASSWORD, mnemonic: MNEMONIC, confirmLoss: true });
    rejects('wallet.restore', { password: PASSWORD, mnemonic: MNEMONIC, confirmLoss: 'yes' }, 'confirmLoss');
    // Or from one private key and its account's name (starting again from a key): never both, never neither.
    accepts('wallet.restore', { password: PASSWORD, privateKey: KEY_CB58, name: 'Mine', confirmLoss: true });
    rejects('wallet.restore', { password: PASSWORD, mnemonic: MNEMONIC, privateKey: KEY_CB58 }, 'mnemonic');
    rejects('wallet.restore', { password: PASSWORD }, 'mnemonic');
    rejects('wallet.restore', { password: PASSWORD, privateKey: KEY_CB58 }, 'name');
    rejects('wallet.restore', { password: PASSWORD, mnemonic: MNEMONIC, name: 'Mine' }, 'name');
    rejects('wallet.create', { password: PASSWORD, mnemonic: '' }, 'mnemonic');
    rejects('wallet.create', { password: PASSWORD, mnemonic: ' \t ' }, 'mnemonic');
  });

  it('private keys: PrivateKey-<cb58> or 64 hex digits (0x optional), trimmed', () => {
    expect(accepts('accounts.importKey', { name: 'k', privateKey: ` ${KEY_CB58}\n` }).privateKey).toBe(KEY_CB58);
    accepts('accounts.importKey', { name: 'k', privateKey: '11'.repeat(32) });
    for (const bad of ['0x' + '11'.repeat(31), '11'.repeat(33), 'PrivateKey-0OIl', 'PrivateKey-', 'zz'.repeat(32), 'k'.repeat(129)]) {
      rejects('accounts.importKey', { name: 'k', privateKey: bad }, 'privateKey');
    }
  });

  it('URLs: at most 2048 characters, http(s) only, no credentials, query or fragment', () => {
    const long = 'https://node.example/' + 'a'.repeat(2048 - 'https://node.example/'.length);
    accepts('networks.addCustom', { name: 'n', url: long });
    rejects('networks.addCustom', { name: 'n', url: long + 'a' }, 'url');
    for (const bad of [
      'ftp://node.example',
      ['java', 'script:alert(1)'].join(''),
      'file:///etc/passwd',
      'node.example:9650',
      'https://user:pass@node.example',
      'https://node.example/?x=1',
      'https://node.example/#frag',
      '',
    ]) {
      rejects('networks.addCustom', { name: 'n', url: bad }, 'url');
    }
  });

  it('atomic namespace: letters, digits, - and _ only', () => {
    accepts('networks.addCustom', { name: 'n', url: 'https://a', atomicNamespace: 'my_chain-1' });
    rejects('networks.addCustom', { name: 'n', url: 'https://a', atomicNamespace: '../info' }, 'atomicNamespace');
    rejects('networks.addCustom', { name: 'n', url: 'https://a', atomicNamespace: 'a'.repeat(65) }, 'atomicNamespace');
  });

  it('NFT payload: even-length hex of at most 1024 bytes, 0x optional', () => {
    const base = VALID['assets.mintNft'];
    accepts('assets.mintNft', { ...base, payloadHex: '' });
    accepts('assets.mintNft', { ...base, payloadHex: 'AB'.repeat(1024) });
    rejects('assets.mintNft', { ...base, payloadHex: 'ab'.repeat(1025) }, 'payloadHex');
    rejects('assets.mintNft', { ...base, payloadHex: '0x' + 'ab'.repeat(1025) }, 'payloadHex');
    rejects('assets.mintNft', { ...base, payloadHex: '0xabc' }, 'payloadHex');
    rejects('assets.mintNft', { ...base, payloadHex: '0xgg' }, 'payloadHex');
  });

  it('account and network IDs: short, plain characters', () => {
    rejects('accounts.remove', { id: '' }, 'id');
    rejects('accounts.remove', { id: 'a'.repeat(65) }, 'id');
    rejects('networks.select', { id: 'custom/../x' }, 'id');
    rejects('wallet.exportPrivateKey', { password: PASSWORD, accountId: 'a b' }, 'accountId');
  });
});

describe('amounts', () => {
  it('nAVAX amounts: digits only, no leading zeros, at most 2^64 − 1, above zero for transfers', () => {
    const base = VALID['send.p'];
    accepts('send.p', { ...base, amount: U64 });
    accepts('send.p', { ...base, amount: '1' });
    const tooBig = rejects('send.p', { ...base, amount: (U64_MAX + 1n).toString() }, 'amount');
    expect(tooBig.message).toContain(U64);
    rejects('send.p', { ...base, amount: '9'.repeat(400) }, 'amount');
    for (const bad of ['01', '-1', '+1', '1.5', '1e3', ' 1', '1 ', '', '0x10', '１']) {
      rejects('send.p', { ...base, amount: bad }, 'amount');
    }
    rejects('send.p', { ...base, amount: 1000 }, 'amount');
    expect(rejects('send.p', { ...base, amount: '0' }, 'amount').message).toMatch(/greater than zero/);
    rejects('transfers.start', { ...VALID['transfers.start'], amount: (U64_MAX + 1n).toString() }, 'amount');
    rejects('assets.mint', { ...VALID['assets.mint'], amount: '0' }, 'amount');
  });

  it('wei amounts: up to 2^256 − 1', () => {
    accepts('send.c', { to: EVM, amountWei: U256, maxFeeWei: '1' });
    accepts('send.c', { to: EVM, amountWei: (U64_MAX + 1n).toString(), maxFeeWei: '1' });
    rejects('send.c', { to: EVM, amountWei: (U256_MAX + 1n).toString(), maxFeeWei: '1' }, 'amountWei');
    rejects('send.c', { to: EVM, amountWei: '0', maxFeeWei: '1' }, 'amountWei');
  });

  it('approved fee ceilings: required, decimal, u64 in nAVAX (u256 in wei), zero allowed', () => {
    for (const type of ['send.x', 'send.p', 'transfers.start'] as const) {
      const base = VALID[type];
      expect(accepts(type, { ...base, maxFee: U64 }).maxFee).toBe(U64);
      expect(accepts(type, { ...base, maxFee: '0' }).maxFee).toBe('0');
      expect(rejects(type, { ...base, maxFee: (U64_MAX + 1n).toString() }, 'maxFee').message).toContain(U64);
      for (const bad of ['01', '-1', '1.5', '', '0x10', 1000, null]) rejects(type, { ...base, maxFee: bad }, 'maxFee');
      rejects(type, withFields(base, { maxFee: undefined }), 'maxFee');
    }
    const c = VALID['send.c'];
    expect(accepts('send.c', { ...c, maxFeeWei: (U64_MAX + 1n).toString() }).maxFeeWei).toBe((U64_MAX + 1n).toString());
    accepts('send.c', { ...c, maxFeeWei: '0' });
    rejects('send.c', { ...c, maxFeeWei: (U256_MAX + 1n).toString() }, 'maxFeeWei');
    for (const bad of ['01', '-1', '1.5', '', 5]) rejects('send.c', { ...c, maxFeeWei: bad }, 'maxFeeWei');
    rejects('send.c', withFields(c, { maxFeeWei: undefined }), 'maxFeeWei');
    // Every asset tx carries the approved ceiling too.
    for (const type of ['assets.create', 'assets.mint', 'assets.mintNft', 'assets.transferNft'] as const) {
      rejects(type, withFields(VALID[type], { maxFee: undefined }), 'maxFee');
      for (const bad of ['-1', '1.5', '', 5, (U64_MAX + 1n).toString()]) rejects(type, { ...VALID[type], maxFee: bad }, 'maxFee');
    }
    rejects('assets.fees', { maxFee: '1' }, 'maxFee');
    // The estimates take no ceiling: they are what the user reviews.
    rejects('transfers.estimate', { from: 'X', to: 'P', amount: '1', maxFee: '1' }, 'maxFee');
    rejects('send.estimate', { chain: 'P', amount: '1', to: owners(1, 1, 'P'), maxFee: '1' }, 'maxFee');
  });

  it('locktime: a u64 that may be zero', () => {
    const base = VALID['send.x'];
    accepts('send.x', { ...base, to: { ...base.to, locktime: U64 } });
    rejects('send.x', { ...base, to: { ...base.to, locktime: (U64_MAX + 1n).toString() } }, 'to.locktime');
    rejects('send.x', { ...base, to: { ...base.to, locktime: 0 } }, 'to.locktime');
  });

  it('holder amounts, with the path to the holder', () => {
    const base = { name: 'Fixed', symbol: 'FX', denomination: 0, kind: 'fixed', maxFee: '1', holders: [{ owners: owners(1), amount: '5' }, { owners: owners(1), amount: '0' }] };
    rejects('assets.create', base, 'holders[1].amount');
  });
});

describe('owner sets', () => {
  const base = VALID['send.x'];
  const to = (set: unknown) => ({ ...base, to: set });

  it('names the bad address by index', () => {
    const bad = [addr(1), addr(2), 'X-local1notanaddress', addr(4)];
    rejects('send.x', to({ addresses: bad, threshold: 1 }), 'to.addresses[2]');
    rejects('send.x', to({ addresses: [addr(1), 7], threshold: 1 }), 'to.addresses[1]');
  });

  it('requires 20-byte bech32 with a chain prefix', () => {
    const long = 'X-' + bech32.encode(HRP, bech32.toWords(new Uint8Array(32).fill(1)));
    rejects('send.x', to({ addresses: [long], threshold: 1 }), 'to.addresses[0]');
    const noChain = addr(1).slice(2);
    rejects('send.x', to({ addresses: [noChain], threshold: 1 }), 'to.addresses[0]');
    const flipped = addr(1).slice(0, -1) + (addr(1).endsWith('q') ? 'p' : 'q');
    rejects('send.x', to({ addresses: [flipped], threshold: 1 }), 'to.addresses[0]');
    rejects('send.x', to({ addresses: ['X-' + 'a'.repeat(200)], threshold: 1 }), 'to.addresses[0]');
  });

  it('leaves the chain and hrp match to the wallet service', () => {
    accepts('send.x', to({ addresses: [formatAddress('P', 'fuji', new Uint8Array(20).fill(9))], threshold: 1 }));
  });

  it('refuses the same address twice', () => {
    rejects('send.x', to({ addresses: [addr(1), addr(2), addr(1)], threshold: 1 }), 'to.addresses[2]');
  });

  it('threshold: an integer from 1 to the number of addresses', () => {
    rejects('send.x', to({ addresses: [addr(1), addr(2)], threshold: 3 }), 'to.threshold');
    rejects('send.x', to({ addresses: [addr(1)], threshold: 0 }), 'to.threshold');
    rejects('send.x', to({ addresses: [addr(1), addr(2)], threshold: 1.5 }), 'to.threshold');
    rejects('send.x', to({ addresses: [addr(1)], threshold: '1' }), 'to.threshold');
    accepts('send.x', to({ addresses: [addr(1), addr(2)], threshold: 2 }));
  });

  it('at least one and at most 64 addresses', () => {
    accepts('send.x', to(owners(64, 64)));
    rejects('send.x', to(owners(65)), 'to.addresses');
    rejects('send.x', to({ addresses: [], threshold: 1 }), 'to.addresses');
    rejects('send.x', to({ addresses: addr(1), threshold: 1 }), 'to.addresses');
  });

  it('no unknown fields inside the set', () => {
    rejects('send.x', to({ ...owners(1), extra: true }), 'to.extra');
  });

  it('reports nested paths in assets and NFT mints', () => {
    const create = { name: 'Var', symbol: 'V', denomination: 0, kind: 'variable', maxFee: '1', minters: [owners(1), { addresses: [addr(1)], threshold: 2 }] };
    rejects('assets.create', create, 'minters[1].threshold');
    const holders = { ...create, minters: [owners(1)], holders: [{ owners: { addresses: [addr(1), 'bad'], threshold: 1 }, amount: '1' }] };
    rejects('assets.create', holders, 'holders[0].owners.addresses[1]');
    rejects('assets.mintNft', { ...VALID['assets.mintNft'], to: [owners(1), { addresses: [addr(1)], threshold: 1, x: 1 }] }, 'to[1].x');
  });
});

describe('array sizes', () => {
  it('holders, minters and NFT recipients: at most 64', () => {
    const holder = { owners: owners(1), amount: '1' };
    const fixed = { name: 'F', symbol: 'F', denomination: 0, kind: 'fixed', maxFee: '1' };
    accepts('assets.create', { ...fixed, holders: Array(64).fill(holder) });
    rejects('assets.create', { ...fixed, holders: Array(65).fill(holder) }, 'holders');
    rejects('assets.create', { ...fixed, holders: [] }, 'holders');
    const nft = { name: 'N', symbol: 'N', denomination: 0, kind: 'nft', maxFee: '1' };
    accepts('assets.create', { ...nft, minters: Array(64).fill(owners(1)) });
    rejects('assets.create', { ...nft, minters: Array(65).fill(owners(1)) }, 'minters');
    accepts('assets.mintNft', { ...VALID['assets.mintNft'], to: Array(64).fill(owners(1)) });
    rejects('assets.mintNft', { ...VALID['assets.mintNft'], to: Array(65).fill(owners(1)) }, 'to');
    rejects('assets.mintNft', { ...VALID['assets.mintNft'], to: [] }, 'to');
  });
});

describe('assets.create', () => {
  const base = { name: 'Gold Coin', symbol: 'GLD', denomination: 9, maxFee: '10000000' };

  it('applies the node’s name, symbol and denomination rules', () => {
    const holders = [{ owners: owners(1), amount: '1' }];
    accepts('assets.create', { ...base, kind: 'fixed', holders });
    rejects('assets.create', { ...base, name: 'Gold!', kind: 'fixed', holders }, 'name');
    rejects('assets.create', { ...base, name: ' Gold', kind: 'fixed', holders }, 'name');
    rejects('assets.create', { ...base, name: 'G'.repeat(129), kind: 'fixed', holders }, 'name');
    rejects('assets.create', { ...base, symbol: 'gld', kind: 'fixed', holders }, 'symbol');
    rejects('assets.create', { ...base, symbol: 'GOLDX', kind: 'fixed', holders }, 'symbol');
    rejects('assets.create', { ...base, symbol: '', kind: 'fixed', holders }, 'symbol');
    accepts('assets.create', { ...base, denomination: 32, kind: 'fixed', holders });
    for (const d of [33, -1, 1.5, '9']) rejects('assets.create', { ...base, denomination: d, kind: 'fixed', holders }, 'denomination');
  });

  it('kind decides which of holders and minters are allowed', () => {
    const holders = [{ owners: owners(1), amount: '1' }];
    const minters = [owners(1)];
    rejects('assets.create', { ...base, kind: 'fixed' }, 'holders');
    rejects('assets.create', { ...base, kind: 'fixed', holders, minters }, 'minters');
    rejects('assets.create', { ...base, kind: 'variable', holders }, 'minters');
    accepts('assets.create', { ...base, kind: 'variable', minters });
    rejects('assets.create', { ...base, kind: 'nft' }, 'minters');
    rejects('assets.create', { ...base, kind: 'nft', minters, holders }, 'holders');
    rejects('assets.create', { ...base, kind: 'capped', holders }, 'kind');
  });
});

describe('IDs and addresses', () => {
  it('asset IDs: 32-byte CB58 with a valid checksum', () => {
    const short = cb58Encode(new Uint8Array(20).fill(7));
    for (const bad of [short, ASSET.slice(0, -1) + (ASSET.endsWith('1') ? '2' : '1'), 'not base58 0OIl', '']) {
      rejects('assets.mint', { ...VALID['assets.mint'], assetID: bad }, 'assetID');
    }
    rejects('send.x', { ...VALID['send.x'], assetID: 'A'.repeat(65) }, 'assetID');
  });

  it('UTXO IDs: <txID>:<index>', () => {
    accepts('assets.transferNft', { ...VALID['assets.transferNft'], utxoID: `${ASSET}:0` });
    for (const bad of [ASSET, `${ASSET}:`, `${ASSET}:-1`, `${ASSET}:4294967296`, `x:${1}`, `${ASSET}:1:2`]) {
      rejects('assets.transferNft', { ...VALID['assets.transferNft'], utxoID: bad }, 'utxoID');
    }
    // A mint names the mint right it reviewed: without one it is refused.
    for (const type of ['assets.mint', 'assets.mintNft'] as const) {
      rejects(type, withFields(VALID[type], { utxoID: undefined }), 'utxoID');
      rejects(type, { ...VALID[type], utxoID: ASSET }, 'utxoID');
    }
  });

  it('send.c: a 0x EVM address; a mixed-case one must match its checksum', () => {
    accepts('send.c', { to: EVM.toLowerCase(), amountWei: '1', maxFeeWei: '1' });
    accepts('send.c', { to: '0x' + EVM.slice(2).toUpperCase(), amountWei: '1', maxFeeWei: '1' });
    const body = EVM.slice(2);
    const i = body.search(/[a-fA-F]/);
    const c = body[i]!;
    const wrongCase = '0x' + body.slice(0, i) + (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()) + body.slice(i + 1);
    expect(wrongCase).not.toBe(wrongCase.toLowerCase());
    rejects('send.c', { to: wrongCase, amountWei: '1', maxFeeWei: '1' }, 'to');
    for (const bad of ['0x1234', EVM.slice(2), addr(1, 'C'), '0x' + 'g'.repeat(40)]) {
      rejects('send.c', { to: bad, amountWei: '1', maxFeeWei: '1' }, 'to');
    }
  });
});

describe('integers and enums', () => {
  it('words: 12 or 24', () => {
    accepts('wallet.generateMnemonic', { words: 12 });
    for (const w of [15, 18, 0, '12', 12.5]) rejects('wallet.generateMnemonic', { words: w }, 'words');
  });

  it('idle lock: whole minutes 1…1440 or "never"', () => {
    accepts('wallet.setIdleLock', { minutes: 1 });
    accepts('wallet.setIdleLock', { minutes: 1440 });
    accepts('wallet.setIdleLock', { minutes: 'never' });
    for (const m of [0, 1441, 1.5, -5, 'always', '15', Number.NaN, Number.POSITIVE_INFINITY, null]) {
      rejects('wallet.setIdleLock', { minutes: m }, 'minutes');
    }
  });

  it('NFT group ID: a u32', () => {
    accepts('assets.mintNft', { ...VALID['assets.mintNft'], groupID: 0xffffffff });
    for (const g of [-1, 2 ** 32, 0.5, '0']) rejects('assets.mintNft', { ...VALID['assets.mintNft'], groupID: g }, 'groupID');
  });

  it('chain names, and a transfer between two different chains', () => {
    accepts('transfers.start', { from: 'P', to: 'X', amount: '1', maxFee: '1' });
    rejects('transfers.start', { from: 'Y', to: 'X', amount: '1', maxFee: '1' }, 'from');
    rejects('transfers.start', { from: 'X', to: 'x', amount: '1', maxFee: '1' }, 'to');
    rejects('transfers.start', { from: 'X', to: 'X', amount: '1', maxFee: '1' }, 'to');
  });
});

describe('send.estimate', () => {
  it('takes the params of send.x, send.p or send.c, chosen by chain', () => {
    expect(accepts('send.estimate', { chain: 'P', amount: '5', to: owners(1, 1, 'P') })).toEqual({ chain: 'P', amount: '5', to: owners(1, 1, 'P') });
    expect(accepts('send.estimate', { chain: 'C', to: ` ${EVM} `, amountWei: U256 })).toEqual({ chain: 'C', to: EVM, amountWei: U256 });
    const x = accepts('send.estimate', { chain: 'X', assetID: ` ${ASSET}`, amount: '1', to: owners(1) });
    expect(x).toEqual({ chain: 'X', assetID: ASSET, amount: '1', to: owners(1) });
    expect(x).not.toHaveProperty('memo');
  });

  it("refuses a field of another chain's send", () => {
    rejects('send.estimate', { chain: 'P', amount: '5', to: owners(1, 1, 'P'), memo: 'hi' }, 'memo');
    rejects('send.estimate', { chain: 'P', amount: '5', to: owners(1, 1, 'P'), assetID: ASSET }, 'assetID');
    rejects('send.estimate', { chain: 'C', to: EVM, amount: '5' }, 'amount');
    rejects('send.estimate', { chain: 'C', to: EVM }, 'amountWei');
    rejects('send.estimate', { chain: 'X', amount: '5', to: owners(1) }, 'assetID');
    rejects('send.estimate', { chain: 'X', assetID: ASSET, amountWei: '5', to: owners(1) }, 'amountWei');
  });

  it('checks each field as the send itself does', () => {
    rejects('send.estimate', { chain: 'Y', amount: '5', to: owners(1) }, 'chain');
    rejects('send.estimate', { chain: 'x', amount: '5', to: owners(1) }, 'chain');
    rejects('send.estimate', { chain: 'P', amount: '0', to: owners(1, 1, 'P') }, 'amount');
    rejects('send.estimate', { chain: 'P', amount: (U64_MAX + 1n).toString(), to: owners(1, 1, 'P') }, 'amount');
    rejects('send.estimate', { chain: 'C', to: 'X-local1xyz', amountWei: '1' }, 'to');
    rejects('send.estimate', { chain: 'C', to: EVM, amountWei: (U256_MAX + 1n).toString() }, 'amountWei');
    rejects('send.estimate', { chain: 'X', assetID: 'nope', amount: '1', to: owners(1) }, 'assetID');
    rejects('send.estimate', { chain: 'X', assetID: ASSET, amount: '1', to: owners(1), memo: 'é'.repeat(129) }, 'memo');
    rejects('send.estimate', { chain: 'X', assetID: ASSET, amount: '1', to: { addresses: [addr(1), addr(1)], threshold: 1 } }, 'to.addresses[1]');
  });
});

describe('transfers.estimate', () => {
  it('is checked like transfers.start: two different chains and an amount above zero', () => {
    expect(accepts('transfers.estimate', { from: 'P', to: 'X', amount: '7' })).toEqual({ from: 'P', to: 'X', amount: '7' });
    rejects('transfers.estimate', { from: 'P', to: 'P', amount: '7' }, 'to');
    rejects('transfers.estimate', { from: 'Q', to: 'P', amount: '7' }, 'from');
    rejects('transfers.estimate', { from: 'X', to: 'P', amount: '0' }, 'amount');
    rejects('transfers.estimate', { from: 'X', to: 'P', amount: '01' }, 'amount');
  });
});

describe('settings.setHiddenAssets', () => {
  const id = (i: number) => cb58Encode(new Uint8Array(32).fill(i));

  it('takes 0 to 200 asset IDs, trimmed', () => {
    expect(accepts('settings.setHiddenAssets', { assetIDs: [], networkId: 'local' })).toEqual({ assetIDs: [], networkId: 'local' });
    expect(accepts('settings.setHiddenAssets', { assetIDs: [` ${id(1)} `], networkId: 'local' })).toEqual({ assetIDs: [id(1)], networkId: 'local' });
    rejects('settings.setHiddenAssets', { assetIDs: [] }, 'networkId');
    rejects('settings.getHiddenAssets', {}, 'networkId');
    const many = Array.from({ length: 200 }, (_, i) => id(i + 1));
    expect(accepts('settings.setHiddenAssets', { assetIDs: many, networkId: 'local' }).assetIDs).toHaveLength(200);
    rejects('settings.setHiddenAssets', { assetIDs: [...many, id(0)], networkId: 'local' }, 'assetIDs');
  });

  it('names a bad or repeated ID by index', () => {
    rejects('settings.setHiddenAssets', { assetIDs: [id(1), 'not-an-id'], networkId: 'local' }, 'assetIDs[1]');
    rejects('settings.setHiddenAssets', { assetIDs: [id(1), 7], networkId: 'local' }, 'assetIDs[1]');
    // A corrupted checksum, and a 20-byte ID (an address's size, not an asset's).
    rejects('settings.setHiddenAssets', { assetIDs: [id(1).slice(0, -1) + (id(1).endsWith('1') ? '2' : '1')], networkId: 'local' }, 'assetIDs[0]');
    rejects('settings.setHiddenAssets', { assetIDs: [cb58Encode(new Uint8Array(20).fill(1))], networkId: 'local' }, 'assetIDs[0]');
    rejects('settings.setHiddenAssets', { assetIDs: [id(1), id(2), id(1)], networkId: 'local' }, 'assetIDs[2]');
    rejects('settings.setHiddenAssets', { assetIDs: id(1), networkId: 'local' }, 'assetIDs');
  });
});

describe('sites.revoke, sites.resetChain and sites.removeChain', () => {
  it('takes a bare origin and a decimal chain ID', () => {
    expect(accepts('sites.revoke', { origin: 'http://localhost:5173' })).toEqual({ origin: 'http://localhost:5173' });
    expect(accepts('sites.resetChain', { origin: 'https://app.example' })).toEqual({ origin: 'https://app.example' });
    expect(accepts('sites.removeChain', { chainId: '1' })).toEqual({ chainId: '1' });
  });
  it('refuses URLs that are not exactly an origin, and non-decimal chain IDs', () => {
    for (const origin of ['https://app.example/', 'https://app.example/path', 'app.example', '', 42]) {
      rejects('sites.revoke', { origin }, 'origin');
      rejects('sites.resetChain', { origin }, 'origin');
    }
    for (const chainId of ['0x1', '-1', '1.5', '', 1]) rejects('sites.removeChain', { chainId }, 'chainId');
  });
});

describe('approvals.decide', () => {
  const ID = '00ff00ff00ff00ff00ff00ff';

  it('takes a 24-character lowercase hex ID and a boolean', () => {
    expect(accepts('approvals.decide', { id: ID, approved: true })).toEqual({ id: ID, approved: true });
  });

  it('refuses any other ID', () => {
    for (const id of ['', '00ff', ID + '0', ID.slice(1), ID.toUpperCase(), `0x${ID.slice(2)}`, ' '.repeat(24), 'g'.repeat(24), 'ab'.repeat(500)]) {
      rejects('approvals.decide', { id, approved: false }, 'id');
    }
  });

  it('refuses an approval that is not a boolean', () => {
    for (const approved of ['true', 1, 0, null, {}]) rejects('approvals.decide', { id: ID, approved }, 'approved');
  });

  it('approvals.list and approvals.waiting take nothing', () => {
    for (const type of ['approvals.list', 'approvals.waiting'] as const) {
      expect(accepts(type, {})).toEqual({});
      rejects(type, { id: ID }, 'id');
    }
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

describe('staking requests', () => {
  const validation = VALID['staking.estimateValidation'];

  it('take a validation either with an end time or auto-renewed, never both or neither', () => {
    const { end: _end, ...noEnd } = validation;
    const renewed = accepts('staking.estimateValidation', { ...noEnd, autoRenew: { period: 172_800, restakeShares: 500_000 } });
    expect(renewed.autoRenew).toEqual({ period: 172_800, restakeShares: 500_000 });
    expect(renewed).not.toHaveProperty('end');
    rejects('staking.estimateValidation', { ...validation, autoRenew: { period: 60, restakeShares: 0 } }, 'end');
    rejects('staking.estimateValidation', noEnd, 'end');
    rejects('staking.estimateValidation', { ...noEnd, autoRenew: { period: 0, restakeShares: 0 } }, 'autoRenew.period');
    rejects('staking.estimateValidation', { ...noEnd, autoRenew: { period: 60, restakeShares: 1_000_001 } }, 'autoRenew.restakeShares');
    rejects('staking.estimateValidation', { ...noEnd, autoRenew: { period: 60 } }, 'autoRenew.restakeShares');
  });

  it('take BLS keys of exactly their size, given with or without 0x, and return them 0x-prefixed in lower case', () => {
    expect(accepts('staking.estimateValidation', { ...validation, publicKey: 'AB'.repeat(48) }).publicKey).toBe('0x' + 'ab'.repeat(48));
    rejects('staking.estimateValidation', { ...validation, publicKey: '0x' + 'ab'.repeat(47) }, 'publicKey');
    rejects('staking.estimateValidation', { ...validation, proofOfPossession: '0x' + 'cd'.repeat(97) }, 'proofOfPossession');
    rejects('staking.estimateValidation', { ...validation, proofOfPossession: '0x' + 'zz'.repeat(96) }, 'proofOfPossession');
  });

  it('refuse a NodeID that does not parse, shares above 100% and times out of range', () => {
    rejects('staking.estimateDelegation', { ...VALID['staking.estimateDelegation'], nodeID: 'NodeID-notcb58!' }, 'nodeID');
    rejects('staking.estimateDelegation', { ...VALID['staking.estimateDelegation'], nodeID: ASSET }, 'nodeID');
    rejects('staking.estimateDelegation', { ...VALID['staking.estimateDelegation'], end: 0 }, 'end');
    rejects('staking.estimateDelegation', { ...VALID['staking.estimateDelegation'], end: 1.5 }, 'end');
    rejects('staking.estimateDelegation', { ...VALID['staking.estimateDelegation'], amount: '0' }, 'amount');
    rejects('staking.validate', { ...VALID['staking.validate'], delegationFee: 1_000_001 }, 'delegationFee');
    rejects('staking.setAutoRenew', { ...VALID['staking.setAutoRenew'], period: -1 }, 'period');
    rejects('staking.setAutoRenew', { ...VALID['staking.setAutoRenew'], period: 365 * 86_400 + 1 }, 'period');
    rejects('staking.setAutoRenew', { ...VALID['staking.setAutoRenew'], takesEffect: -1 }, 'takesEffect');
  });

  it('check the validator list’s filter field by field, and bound the page', () => {
    expect(accepts('staking.validators', {})).toEqual({});
    rejects('staking.validators', { filter: { minUptime: 101 } }, 'filter.minUptime');
    rejects('staking.validators', { filter: { minUptime: Number.NaN } }, 'filter.minUptime');
    rejects('staking.validators', { filter: { maxFee: 2_000_000 } }, 'filter.maxFee');
    rejects('staking.validators', { filter: { minFreeSpace: '-1' } }, 'filter.minFreeSpace');
    rejects('staking.validators', { filter: { stake: '1' } }, 'filter.stake');
    rejects('staking.validators', { sort: 'stake' }, 'sort');
    rejects('staking.validators', { limit: 101 }, 'limit');
    rejects('staking.validators', { limit: 0 }, 'limit');
  });

  it('take a node URL for its key only as a node URL: https, or http on this machine', () => {
    accepts('staking.nodeKey', { url: 'http://127.0.0.1:9650' });
    rejects('staking.nodeKey', { url: 'http://node.example.org:9650' }, 'url');
    rejects('staking.nodeKey', { url: 'https://user:pw@node.example.org' }, 'url');
  });
});

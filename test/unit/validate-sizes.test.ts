// Request validation: the size and format limits of strings (passwords, names, memos, keys, URLs)
// and arrays.
import { describe, expect, it } from 'vitest';
import { accepts, KEY_CB58, MNEMONIC, owners, PASSWORD, rejects, VALID } from './validate-fixtures.js';

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
    // A Confirm names what it was shown: up to 10,000 names of up to 256 characters.
    const shown = ['xpc.transfers.n1-' + 'x'.repeat(50) + '.' + 'a'.repeat(64), 'phrase 2'];
    expect(accepts('wallet.restore', { password: PASSWORD, mnemonic: MNEMONIC, confirmLoss: shown }).confirmLoss).toEqual(shown);
    accepts('wallet.restore', { password: PASSWORD, mnemonic: MNEMONIC, confirmLoss: Array.from({ length: 10_000 }, (_, i) => `${i}`) });
    for (const confirmLoss of [true, 'yes', Array.from({ length: 10_001 }, (_, i) => `${i}`)]) rejects('wallet.restore', { password: PASSWORD, mnemonic: MNEMONIC, confirmLoss }, 'confirmLoss');
    for (const name of [1, 'n'.repeat(257)]) rejects('wallet.restore', { password: PASSWORD, mnemonic: MNEMONIC, confirmLoss: ['phrase 2', name] }, 'confirmLoss[1]');
    // Or from one private key and its account's name (starting again from a key): never both, never neither.
    accepts('wallet.restore', { password: PASSWORD, privateKey: KEY_CB58, name: 'Mine', confirmLoss: [] });
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
    rejects('accounts.remove', { id: '', password: PASSWORD }, 'id');
    rejects('accounts.remove', { id: 'a'.repeat(65), password: PASSWORD }, 'id');
    rejects('networks.select', { id: 'custom/../x' }, 'id');
    rejects('wallet.exportPrivateKey', { password: PASSWORD, accountId: 'a b' }, 'accountId');
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

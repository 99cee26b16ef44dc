import { describe, expect, it } from 'vitest';
import { Session } from '../../src/background/session.js';
import { memoryStores } from '../../src/background/storage.js';
import { Vault } from '../../src/background/vault.js';
import { WalletService } from '../../src/background/wallet.js';
import { ValidationError } from '../../src/core/errors.js';
import { generateMnemonic } from '../../src/core/keys.js';

function service() {
  const stores = memoryStores();
  const session = new Session(new Vault(stores, { kdfIterationsForTesting: 1_000 }), stores);
  return { stores, wallet: new WalletService(session, stores.local) };
}

async function fieldOf(p: Promise<unknown>): Promise<string | undefined> {
  const e = await p.catch((x: unknown) => x);
  expect(e).toBeInstanceOf(ValidationError);
  return (e as ValidationError).field;
}

describe('wallet service form errors name the field the user typed into', () => {
  it('mnemonic, private key, new password and idle minutes', async () => {
    const { wallet, stores } = service();
    expect(await fieldOf(wallet.walletCreate({ password: 'long enough', mnemonic: 'abandon abandon' }))).toBe('mnemonic');
    expect(await fieldOf(wallet.walletCreateFromKey({ password: 'long enough', privateKey: 'PrivateKey-nope', name: 'k' }))).toBe('privateKey');
    // Nothing was written by the refused attempts.
    expect(stores.local.keys()).toEqual([]);

    await wallet.walletCreate({ password: 'long enough', mnemonic: generateMnemonic(12) });
    expect(await fieldOf(wallet.walletChangePassword({ oldPassword: 'long enough', newPassword: 'short' }))).toBe('newPassword');
    expect(await fieldOf(wallet.walletSetIdleLock({ minutes: 0 }))).toBe('minutes');
    expect(await fieldOf(wallet.accountsImportKey({ name: 'k', privateKey: '0x1234' }))).toBe('privateKey');
    expect(await wallet.walletSetIdleLock({ minutes: 'never' })).toMatchObject({ minutes: 'never', warning: expect.any(String) });
  });

  it('a wallet, its first account and its addresses exist after create; a second create is refused', async () => {
    const { wallet } = service();
    const status = await wallet.walletCreate({ password: 'long enough', mnemonic: generateMnemonic(24) });
    expect(status).toMatchObject({ vault: 'unlocked', network: { id: 'local' }, account: { name: 'Account 1', kind: 'hd', index: 0 } });
    expect(status.account!.xAddress).toMatch(/^X-local1/);
    await expect(wallet.walletCreate({ password: 'long enough', mnemonic: generateMnemonic(24) })).rejects.toMatchObject({ code: 'vault-exists' });
    const added = await wallet.accountsAdd({ name: 'Savings' });
    expect(added).toMatchObject({ name: 'Savings', index: 1 });
    expect(added.xAddress).not.toBe(status.account!.xAddress);
  });
});

// The vault: its defaults, create and unlock, bad input that changes nothing, password change, and
// the memory stores the tests run on.
import { describe, expect, it } from 'vitest';
import { FormatError, ValidationError, WalletError } from '../../src/core/errors.js';
import { generateMnemonic } from '../../src/core/keys.js';
import { memoryStores } from '../../src/background/storage.js';
import {
  DEFAULT_PBKDF2_ITERATIONS,
  decodeBase64,
  Vault,
  VAULT_STORAGE_KEY,
  VaultExistsError,
  VaultLockedError,
  VaultMissingError,
  WrongPasswordError,
} from '../../src/background/vault.js';
import { freshVault, KEY_A, KEY_B, OTHER_PASSWORD, PASSWORD, rejectsUnchanged, setup, storedRecord } from './vault-fixtures.js';

describe('vault: defaults', () => {
  it('uses PBKDF2-SHA256 with 600,000 iterations unless a test lowers it', async () => {
    expect(DEFAULT_PBKDF2_ITERATIONS).toBe(600_000);
    const stores = memoryStores();
    const vault = new Vault(stores);
    expect(vault.kdfIterations).toBe(600_000);
    await vault.create(PASSWORD, { mnemonic: generateMnemonic(12) });
    const record = await storedRecord(stores);
    expect(record.version).toBe(1);
    expect(record.kdf.name).toBe('PBKDF2-SHA256');
    expect(record.kdf.iterations).toBe(600_000);
    expect(record.cipher.name).toBe('AES-GCM');
    expect(decodeBase64(record.kdf.salt)).toHaveLength(16);
    expect(decodeBase64(record.cipher.iv)).toHaveLength(12);
  });

  it('refuses out-of-range iteration counts in the constructor', () => {
    expect(() => new Vault(memoryStores(), { kdfIterationsForTesting: 0 })).toThrow(ValidationError);
    expect(() => new Vault(memoryStores(), { kdfIterationsForTesting: 1.5 })).toThrow(ValidationError);
  });
});

describe('vault: create and unlock', () => {
  it('round-trips the mnemonic and imported keys through a fresh Vault object', async () => {
    const { stores, vault, mnemonic } = setup();
    expect(await vault.exists()).toBe(false);
    const created = await vault.create(PASSWORD, {
      mnemonic: `  ${mnemonic.toUpperCase()} `,
      importedKeys: [
        { id: 'k1', name: 'Cold', secretHex: KEY_A },
        { id: 'k2', name: 'Hot', secretHex: KEY_B },
      ],
    });
    expect(vault.isUnlocked()).toBe(true);
    expect(await vault.exists()).toBe(true);
    // Canonical forms: normalized phrase, lowercase hex without 0x.
    expect(created.mnemonic).toBe(mnemonic);
    expect(created.importedKeys.map((k) => k.secretHex)).toEqual([KEY_A, KEY_B.slice(2).toLowerCase()]);
    expect(typeof created.createdAt).toBe('number');

    const other = freshVault(stores);
    expect(other.isUnlocked()).toBe(false);
    const opened = await other.unlock(PASSWORD);
    expect(opened).toEqual(created);
    expect(other.isUnlocked()).toBe(true);
  });

  it('accepts a vault of imported keys only, and treats the password after NFC normalization', async () => {
    const { stores, vault } = setup();
    const decomposed = 'pa\u0073\u0073word-cafe\u0301';
    const composed = decomposed.normalize('NFC');
    await vault.create(decomposed, { importedKeys: [{ id: 'k', name: '', secretHex: KEY_A }] });
    const secrets = await freshVault(stores).unlock(composed);
    expect(secrets.mnemonic).toBeUndefined();
    expect(secrets.importedKeys).toHaveLength(1);
  });

  it('refuses a second create without replace, and changes nothing', async () => {
    const { stores, vault, mnemonic } = setup();
    await vault.create(PASSWORD, { mnemonic });
    const error = await rejectsUnchanged(stores, () => vault.create(OTHER_PASSWORD, { mnemonic: generateMnemonic() }), VaultExistsError);
    expect(error.code).toBe('vault-exists');
    expect((await freshVault(stores).unlock(PASSWORD)).mnemonic).toBe(mnemonic);
  });

  it('restore with replace: true replaces the vault (forgotten password)', async () => {
    const { stores, vault, mnemonic } = setup();
    await vault.create(PASSWORD, { mnemonic, importedKeys: [{ id: 'k1', name: 'x', secretHex: KEY_A }] });
    const restored = generateMnemonic(12);
    const fresh = freshVault(stores); // a worker that never knew the old password
    const secrets = await fresh.create(OTHER_PASSWORD, { mnemonic: restored }, { replace: true });
    expect(secrets.mnemonic).toBe(restored);
    expect(secrets.importedKeys).toEqual([]);
    await expect(freshVault(stores).unlock(PASSWORD)).rejects.toBeInstanceOf(WrongPasswordError);
    expect((await freshVault(stores).unlock(OTHER_PASSWORD)).mnemonic).toBe(restored);
  });

  it('unlocking without a vault says so', async () => {
    const { stores, vault } = setup();
    await rejectsUnchanged(stores, () => vault.unlock(PASSWORD), VaultMissingError);
  });

  it('lock() forgets the key; an unlock in flight when lock() is called ends locked', async () => {
    const { stores, vault, mnemonic } = setup();
    await vault.create(PASSWORD, { mnemonic });
    vault.lock();
    expect(vault.isUnlocked()).toBe(false);
    await expect(vault.exportKey()).rejects.toBeInstanceOf(VaultLockedError);
    await expect(vault.update({ mnemonic, importedKeys: [], createdAt: 1 })).rejects.toBeInstanceOf(VaultLockedError);

    const pending = vault.unlock(PASSWORD);
    vault.lock();
    await expect(pending).rejects.toBeInstanceOf(VaultLockedError);
    expect(vault.isUnlocked()).toBe(false);
    expect(stores.local.keys()).toEqual([VAULT_STORAGE_KEY]);
  });
});

describe('vault: bad input changes nothing', () => {
  it('password rules: at least 8 characters, text only', async () => {
    const { stores, vault, mnemonic } = setup();
    for (const bad of ['', 'short12', '\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9'] as const) {
      const error = await rejectsUnchanged(stores, () => vault.create(bad, { mnemonic }), ValidationError);
      expect(error.field).toBe('password');
    }
    await rejectsUnchanged(stores, () => vault.create(12345678 as unknown as string, { mnemonic }), ValidationError);
    expect(await vault.exists()).toBe(false);
    await vault.create('exactly8', { mnemonic });
    expect(await vault.exists()).toBe(true);
  });

  it('secrets are validated before anything is written', async () => {
    const { stores, vault, mnemonic } = setup();
    await rejectsUnchanged(stores, () => vault.create(PASSWORD, { mnemonic: mnemonic + ' abandon' }), FormatError);
    await rejectsUnchanged(stores, () => vault.create(PASSWORD, { mnemonic: 42 as unknown as string }), ValidationError);
    await rejectsUnchanged(stores, () => vault.create(PASSWORD, {}), ValidationError);
    await rejectsUnchanged(stores, () => vault.create(PASSWORD, { importedKeys: [{ id: 'a', name: 'a', secretHex: 'xyz' }] }), ValidationError);
    await rejectsUnchanged(
      stores,
      () => vault.create(PASSWORD, { importedKeys: [{ id: 'a', name: 'a', secretHex: '00'.repeat(32) }] }),
      FormatError,
    );
    await rejectsUnchanged(
      stores,
      () =>
        vault.create(PASSWORD, {
          importedKeys: [
            { id: 'a', name: 'a', secretHex: KEY_A },
            { id: 'a', name: 'b', secretHex: KEY_B },
          ],
        }),
      ValidationError,
    );
    expect(await vault.exists()).toBe(false);
  });

  it('a key validation error does not echo the key', async () => {
    const { stores, vault } = setup();
    const almost = 'cd'.repeat(31) + 'zz';
    const error = await rejectsUnchanged(
      stores,
      () => vault.create(PASSWORD, { importedKeys: [{ id: 'a', name: 'a', secretHex: almost }] }),
      ValidationError,
    );
    expect(error.message).not.toContain('cdcd');
  });

  it('wrong password: WrongPasswordError, storage byte-identical, lock state unchanged', async () => {
    const { stores, vault, mnemonic } = setup();
    await vault.create(PASSWORD, { mnemonic });

    const error = await rejectsUnchanged(stores, () => vault.unlock('not the password'), WrongPasswordError);
    expect(error).toBeInstanceOf(WalletError);
    expect(error.code).toBe('wrong-password');
    expect(vault.isUnlocked()).toBe(true); // it was unlocked and stays so

    const locked = freshVault(stores);
    await rejectsUnchanged(stores, () => locked.unlock(PASSWORD + ' '), WrongPasswordError);
    await rejectsUnchanged(stores, () => locked.unlock(''), WrongPasswordError);
    expect(locked.isUnlocked()).toBe(false);
  });
});

describe('vault: password change', () => {
  it('re-encrypts under the new password; the unlocked vault follows', async () => {
    const { stores, vault, mnemonic } = setup();
    await vault.create(PASSWORD, { mnemonic });
    await vault.changePassword(PASSWORD, OTHER_PASSWORD);
    expect(vault.isUnlocked()).toBe(true);
    await expect(freshVault(stores).unlock(PASSWORD)).rejects.toBeInstanceOf(WrongPasswordError);
    expect((await freshVault(stores).unlock(OTHER_PASSWORD)).mnemonic).toBe(mnemonic);
    // Updates after the change are under the new key.
    await vault.update({ mnemonic, importedKeys: [{ id: 'k', name: 'k', secretHex: KEY_A }], createdAt: 2 });
    expect((await freshVault(stores).unlock(OTHER_PASSWORD)).importedKeys).toHaveLength(1);
  });

  it('is atomic: a failing write leaves the old record, the old password and the unlocked key working', async () => {
    const { stores, vault, mnemonic } = setup();
    await vault.create(PASSWORD, { mnemonic });
    const keyBefore = await vault.exportKey();
    stores.local.failNextWrites(1, new Error('disk full'));
    await expect(
      rejectsUnchanged(stores, () => vault.changePassword(PASSWORD, OTHER_PASSWORD), Error),
    ).resolves.toHaveProperty('message', 'disk full');
    expect(await vault.exportKey()).toEqual(keyBefore);
    expect(vault.isUnlocked()).toBe(true);
    await expect(freshVault(stores).unlock(OTHER_PASSWORD)).rejects.toBeInstanceOf(WrongPasswordError);
    expect((await freshVault(stores).unlock(PASSWORD)).mnemonic).toBe(mnemonic);
    await vault.update({ mnemonic, importedKeys: [], createdAt: 3 }); // old key still opens the record
  });

  it('a wrong old password or a short new one changes nothing; a locked vault stays locked', async () => {
    const { stores, vault, mnemonic } = setup();
    await vault.create(PASSWORD, { mnemonic });
    vault.lock();
    await rejectsUnchanged(stores, () => vault.changePassword('wrong password!', OTHER_PASSWORD), WrongPasswordError);
    await rejectsUnchanged(stores, () => vault.changePassword(PASSWORD, 'short'), ValidationError);
    await vault.changePassword(PASSWORD, OTHER_PASSWORD);
    expect(vault.isUnlocked()).toBe(false);
  });
});

describe('memoryStores', () => {
  it('round-trips through JSON like the real API and writes all or nothing', async () => {
    const { local } = memoryStores();
    await local.set({ a: { n: 1 }, b: new Uint8Array([1, 2]) });
    const got = await local.get(['a', 'b', 'missing']);
    expect(got).toEqual({ a: { n: 1 }, b: { 0: 1, 1: 2 } });
    expect('missing' in got).toBe(false);
    await expect(local.set({ c: 1, d: 1n })).rejects.toBeInstanceOf(TypeError);
    expect(local.keys().sort()).toEqual(['a', 'b']);
    local.failNextWrites(2);
    await expect(local.set({ c: 1 })).rejects.toThrow(/simulated/);
    await expect(local.remove(['a'])).rejects.toThrow(/simulated/);
    await local.remove(['a']);
    expect(local.keys()).toEqual(['b']);
    // Returned values are copies.
    const copy = (await local.get(['b'])).b as Record<string, number>;
    copy[0] = 99;
    expect(((await local.get(['b'])).b as Record<string, number>)[0]).toBe(1);
  });
});

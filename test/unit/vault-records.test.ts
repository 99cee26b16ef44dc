// The vault's stored record: damaged records, migration of old layouts, and what every write puts
// in storage (fresh salt and IV, no secret in clear).
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/core/errors.js';
import { fromHex } from '../../src/core/bytes.js';
import { generateMnemonic } from '../../src/core/keys.js';
import type { MemoryStores } from '../../src/background/storage.js';
import { deriveFromPassword } from '../../src/background/vault-crypto.js';
import {
  decodeBase64,
  encodeBase64,
  migrate,
  Vault,
  VAULT_STORAGE_KEY,
  VaultCorruptError,
  VaultExistsError,
  VaultLockedError,
  type VaultRecord,
  type VaultSecrets,
  WrongPasswordError,
} from '../../src/background/vault.js';
import { freshVault, ITER, KEY_A, KEY_B, OTHER_PASSWORD, PASSWORD, rejectsUnchanged, setup, storedRecord } from './vault-fixtures.js';

async function writeRecord(stores: MemoryStores, record: unknown): Promise<void> {
  await stores.local.set({ [VAULT_STORAGE_KEY]: typeof record === 'string' ? record : JSON.stringify(record) });
}

function flipLastByte(b64: string): string {
  const bytes = decodeBase64(b64)!;
  bytes[bytes.length - 1]! ^= 0x01;
  return encodeBase64(bytes);
}

/** Every form in which a mnemonic or key could leak in clear (words are long enough not to occur in base64 by chance). */
function leakNeedles(secrets: { mnemonic?: string; keysHex: string[] }): string[] {
  const needles: string[] = [];
  if (secrets.mnemonic !== undefined) {
    const words = secrets.mnemonic.split(' ');
    needles.push(secrets.mnemonic, encodeBase64(new TextEncoder().encode(secrets.mnemonic)));
    for (let i = 0; i + 1 < words.length; i++) needles.push(`${words[i]} ${words[i + 1]}`);
    needles.push(...words.filter((w) => w.length >= 6));
  }
  for (const hex of secrets.keysHex) {
    const body = hex.replace(/^0x/i, '').toLowerCase();
    needles.push(body, body.toUpperCase(), body.slice(0, 32), body.slice(32), encodeBase64(fromHex(body)));
  }
  return needles;
}

/** Every object key in stored data, also inside values that are JSON text (the vault record). */
function structureNames(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string' && value.startsWith('{')) {
    try {
      structureNames(JSON.parse(value), out);
    } catch {
      // Not JSON: plain text, nothing structural in it.
    }
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.push(k.toLowerCase());
      structureNames(v, out);
    }
  }
  return out;
}

function expectNoLeak(dump: string, needles: string[]): void {
  // A single mnemonic word that is also a name in the stored structure (BIP-39 has "version")
  // says nothing about a leak; the phrase itself and every pair of its words are still searched.
  const names = structureNames(JSON.parse(dump)).join(' ');
  for (const needle of needles) {
    if (/^[a-z]+$/.test(needle) && names.includes(needle)) continue;
    expect(dump.includes(needle), `storage contains "${needle.slice(0, 12)}…"`).toBe(false);
  }
}

describe('vault: damaged records', () => {
  async function damaged(mutate: (r: VaultRecord) => unknown): Promise<{ stores: MemoryStores; vault: Vault }> {
    const { stores, vault, mnemonic } = setup();
    await vault.create(PASSWORD, { mnemonic, importedKeys: [{ id: 'k', name: 'k', secretHex: KEY_A }] });
    await writeRecord(stores, mutate(await storedRecord(stores)));
    return { stores, vault };
  }

  /** Every operation that reads the record refuses it with the given reason and writes nothing. */
  async function expectCorrupt(stores: MemoryStores, vault: Vault, reason: string): Promise<void> {
    const fresh = freshVault(stores);
    const e1 = await rejectsUnchanged(stores, () => fresh.unlock(PASSWORD), VaultCorruptError);
    expect(e1.reason).toBe(reason);
    expect(e1.code).toBe('vault-corrupt');
    expect(fresh.isUnlocked()).toBe(false);
    await rejectsUnchanged(stores, () => fresh.verifyPassword(PASSWORD), VaultCorruptError);
    await rejectsUnchanged(stores, () => fresh.changePassword(PASSWORD, OTHER_PASSWORD), VaultCorruptError);
    // The vault that was unlocked before the damage does not overwrite it either.
    await rejectsUnchanged(stores, () => vault.update({ importedKeys: [{ id: 'n', name: 'n', secretHex: KEY_B }], createdAt: 1 }), VaultCorruptError);
    // It still exists: only an explicit restore may replace it.
    await rejectsUnchanged(stores, () => fresh.create(PASSWORD, { mnemonic: generateMnemonic() }), VaultExistsError);
  }

  it('truncated ciphertext (right password) → VaultCorruptError auth', async () => {
    const { stores, vault } = await damaged((r) => ({ ...r, ciphertext: r.ciphertext.slice(0, -8) }));
    await expectCorrupt(stores, vault, 'auth');
  });

  it('flipped GCM tag bit (right password) → VaultCorruptError auth; a wrong password still says wrong password', async () => {
    const { stores, vault } = await damaged((r) => ({ ...r, ciphertext: flipLastByte(r.ciphertext) }));
    await expectCorrupt(stores, vault, 'auth');
    await rejectsUnchanged(stores, () => freshVault(stores).unlock('not the password'), WrongPasswordError);
  });

  it('a damaged password check never locks the user out: the right password opens the wallet (the record proves it), a wrong one is still wrong', async () => {
    const { stores } = await damaged((r) => ({ ...r, kdf: { ...r.kdf, check: flipLastByte(r.kdf.check) } }));
    await rejectsUnchanged(stores, () => freshVault(stores).unlock('not the password'), WrongPasswordError);
    const fresh = freshVault(stores);
    await fresh.unlock(PASSWORD);
    expect(fresh.isUnlocked()).toBe(true);
    // A new password writes a sound check again.
    await fresh.changePassword(PASSWORD, OTHER_PASSWORD);
    await rejectsUnchanged(stores, () => freshVault(stores).unlock(PASSWORD), WrongPasswordError);
    await freshVault(stores).unlock(OTHER_PASSWORD);
  });

  it('a damaged check beside contents the right key opens but that are not a wallet: damaged (plaintext), not a wrong password', async () => {
    const { stores } = await damaged((r) => r);
    const r = await storedRecord(stores);
    const { key } = await deriveFromPassword(PASSWORD, decodeBase64(r.kdf.salt)!, r.kdf.iterations);
    const aes = await crypto.subtle.importKey('raw', key, 'AES-GCM', false, ['encrypt']);
    const garbage = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv: decodeBase64(r.cipher.iv)! }, aes, new TextEncoder().encode('not json')));
    await writeRecord(stores, { ...r, kdf: { ...r.kdf, check: flipLastByte(r.kdf.check) }, ciphertext: encodeBase64(garbage) });
    const e = await rejectsUnchanged(stores, () => freshVault(stores).unlock(PASSWORD), VaultCorruptError);
    expect(e.reason).toBe('plaintext');
    await rejectsUnchanged(stores, () => freshVault(stores).unlock('not the password'), WrongPasswordError);
  });

  it('ciphertext shorter than a tag, bad base64, wrong salt or IV length → VaultCorruptError shape', async () => {
    const cases: ((r: VaultRecord) => unknown)[] = [
      (r) => ({ ...r, ciphertext: r.ciphertext.slice(0, 8) }),
      (r) => ({ ...r, ciphertext: r.ciphertext.slice(0, -1) }),
      (r) => ({ ...r, kdf: { ...r.kdf, salt: encodeBase64(new Uint8Array(8)) } }),
      (r) => ({ ...r, cipher: { ...r.cipher, iv: encodeBase64(new Uint8Array(16)) } }),
      (r) => ({ ...r, kdf: { ...r.kdf, iterations: 1e9 } }),
      (r) => ({ ...r, kdf: { ...r.kdf, name: 'scrypt' } }),
      (r) => ({ ...r, cipher: undefined }),
      (r) => ({ ...r, version: '1' }),
      () => [],
    ];
    for (const mutate of cases) {
      const { stores, vault } = await damaged(mutate);
      await expectCorrupt(stores, vault, 'shape');
    }
  });

  it('bad JSON → VaultCorruptError json; a non-string value → shape', async () => {
    const bad = await damaged((r) => JSON.stringify(r).slice(0, 40));
    await expectCorrupt(bad.stores, bad.vault, 'json');
    const { stores, vault, mnemonic } = setup();
    await vault.create(PASSWORD, { mnemonic });
    await stores.local.set({ [VAULT_STORAGE_KEY]: { version: 1 } });
    await expectCorrupt(stores, vault, 'shape');
  });

  it('an unknown (future) version is refused with a clear error and never overwritten', async () => {
    const { stores, vault } = await damaged((r) => ({ ...r, version: 2, kdf: { ...r.kdf, name: 'Argon2id' } }));
    await expectCorrupt(stores, vault, 'version');
    const error = await rejectsUnchanged(stores, () => freshVault(stores).unlock(PASSWORD), VaultCorruptError);
    expect(error.message).toMatch(/version 2.*newer/);
  });
});

describe('vault: migration', () => {
  it('migrate() passes a current record through unchanged', async () => {
    const { stores, vault, mnemonic } = setup();
    await vault.create(PASSWORD, { mnemonic });
    const record = await storedRecord(stores);
    expect(migrate(record)).toEqual(record);
  });

  it('runs a step table: a synthetic flat v0 layout becomes a v1 record that opens', async () => {
    const { stores, vault, mnemonic } = setup();
    await vault.create(PASSWORD, { mnemonic });
    const v1 = await storedRecord(stores);
    const v0 = { version: 0, rounds: v1.kdf.iterations, salt: v1.kdf.salt, check: v1.kdf.check, iv: v1.cipher.iv, data: v1.ciphertext };
    const steps = {
      0: (r: Record<string, unknown>) => ({
        version: 1,
        kdf: { name: 'PBKDF2-SHA256', iterations: r.rounds, salt: r.salt, check: r.check },
        cipher: { name: 'AES-GCM', iv: r.iv },
        ciphertext: r.data,
      }),
    };
    const original = structuredClone(v0);
    const migrated = migrate(v0, steps);
    expect(migrated).toEqual(v1);
    expect(v0).toEqual(original); // input untouched
    await writeRecord(stores, migrated);
    expect((await freshVault(stores).unlock(PASSWORD)).mnemonic).toBe(mnemonic);

    // Without a step for it (the production table has none), v0 is refused.
    expect(() => migrate(v0)).toThrow(VaultCorruptError);
    // A step that does not produce the next version is refused, as is one that throws.
    expect(() => migrate(v0, { 0: (r) => ({ ...r, version: 3 }) })).toThrow(VaultCorruptError);
    expect(() =>
      migrate(v0, {
        0: () => {
          throw new Error('boom');
        },
      }),
    ).toThrow(VaultCorruptError);
  });

  it('re-encrypts a record with a cheaper KDF at the next unlock; a failed upgrade write keeps the old record', async () => {
    const { stores, vault, mnemonic } = setup();
    await vault.create(PASSWORD, { mnemonic });
    const old = await storedRecord(stores);

    const stronger = freshVault(stores, ITER * 2);
    stores.local.failNextWrites(1);
    await stronger.unlock(PASSWORD); // the upgrade write fails; unlock still succeeds
    expect(await storedRecord(stores)).toEqual(old);
    expect(stronger.isUnlocked()).toBe(true);
    await stronger.update({ mnemonic, importedKeys: [], createdAt: 5 }); // the key in memory still matches

    await freshVault(stores, ITER * 2).unlock(PASSWORD);
    const upgraded = await storedRecord(stores);
    expect(upgraded.kdf.iterations).toBe(ITER * 2);
    expect(upgraded.kdf.salt).not.toBe(old.kdf.salt);
    expect((await freshVault(stores).unlock(PASSWORD)).createdAt).toBe(5);

    // Never downgraded.
    await freshVault(stores, ITER).unlock(PASSWORD);
    expect((await storedRecord(stores)).kdf.iterations).toBe(ITER * 2);
  });
});

describe('vault: writes', () => {
  it('uses a fresh salt and IV on every password write, and a fresh IV on every update', async () => {
    const { stores, vault, mnemonic } = setup();
    const salts: string[] = [];
    const ivs: string[] = [];
    const note = async (): Promise<VaultRecord> => {
      const r = await storedRecord(stores);
      salts.push(r.kdf.salt);
      ivs.push(r.cipher.iv);
      return r;
    };
    await vault.create(PASSWORD, { mnemonic });
    await note();
    await vault.changePassword(PASSWORD, OTHER_PASSWORD);
    await note();
    await vault.changePassword(OTHER_PASSWORD, PASSWORD);
    await note();
    await vault.create(PASSWORD, { mnemonic }, { replace: true });
    const last = await note();
    expect(new Set(salts).size).toBe(salts.length);

    // Same plaintext twice under the session key: new IV, new ciphertext; the salt belongs to the key.
    const secrets: VaultSecrets = { mnemonic, importedKeys: [], createdAt: 9 };
    await vault.update(secrets);
    const u1 = await note();
    await vault.update(secrets);
    const u2 = await note();
    expect(new Set(ivs).size).toBe(ivs.length);
    expect(u1.kdf.salt).toBe(last.kdf.salt);
    expect(u2.ciphertext).not.toBe(u1.ciphertext);
  });

  it('update requires the unlocked vault and validates before writing', async () => {
    const { stores, vault, mnemonic } = setup();
    await vault.create(PASSWORD, { mnemonic });
    await rejectsUnchanged(
      stores,
      () => vault.update({ mnemonic, importedKeys: [{ id: 'x', name: 'x', secretHex: 'nope' }], createdAt: 1 }),
      ValidationError,
    );
    const updated = await vault.update({ mnemonic, importedKeys: [{ id: 'x', name: 'Imported', secretHex: KEY_B }], createdAt: 1 });
    expect(updated.importedKeys[0]!.secretHex).toBe(KEY_B.slice(2).toLowerCase());
    await rejectsUnchanged(stores, () => freshVault(stores).update(updated), VaultLockedError);
  });

  it('update refuses and locks when the stored vault was replaced under it', async () => {
    const { stores, vault, mnemonic } = setup();
    await vault.create(PASSWORD, { mnemonic });
    await freshVault(stores).create(OTHER_PASSWORD, { mnemonic: generateMnemonic() }, { replace: true });
    await rejectsUnchanged(stores, () => vault.update({ mnemonic, importedKeys: [], createdAt: 1 }), VaultLockedError);
    expect(vault.isUnlocked()).toBe(false);
  });

  it('verifyPassword checks without changing the lock state or storage', async () => {
    const { stores, vault, mnemonic } = setup();
    await vault.create(PASSWORD, { mnemonic });
    const locked = freshVault(stores);
    const before = stores.local.dump();
    await locked.verifyPassword(PASSWORD);
    expect(locked.isUnlocked()).toBe(false);
    await rejectsUnchanged(stores, () => locked.verifyPassword('wrong password'), WrongPasswordError);
    await rejectsUnchanged(stores, () => vault.verifyPassword('wrong password'), WrongPasswordError);
    expect(vault.isUnlocked()).toBe(true);
    expect(stores.local.dump()).toBe(before);
  });

  it("verifyPassword, unlocked, takes only the password of the key in use: not one that opens a record swapped into storage, even with this vault's salt and check copied into it", async () => {
    const { stores, vault, mnemonic } = setup();
    await vault.create(PASSWORD, { mnemonic });
    const owners = await storedRecord(stores);
    await freshVault(stores).create(OTHER_PASSWORD, { mnemonic: generateMnemonic() }, { replace: true });
    await rejectsUnchanged(stores, () => vault.verifyPassword(OTHER_PASSWORD), WrongPasswordError);
    // The swap's own key sealed under the owner's salt and iterations, the owner's check kept: a
    // mismatched check the key still opens reads as damaged, which unlock forgives.
    const swapped = await storedRecord(stores);
    const theirs = await deriveFromPassword(OTHER_PASSWORD, decodeBase64(owners.kdf.salt)!, owners.kdf.iterations);
    const key = await crypto.subtle.importKey('raw', theirs.key, { name: 'AES-GCM' }, false, ['encrypt']);
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const ciphertext = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, new TextEncoder().encode(JSON.stringify({ mnemonic: generateMnemonic(), importedKeys: [], createdAt: 1 }))));
    await writeRecord(stores, { ...swapped, kdf: owners.kdf, cipher: { name: 'AES-GCM', iv: encodeBase64(iv) }, ciphertext: encodeBase64(ciphertext) });
    await expect(freshVault(stores).verifyPassword(OTHER_PASSWORD)).resolves.toBeUndefined();
    await rejectsUnchanged(stores, () => vault.verifyPassword(OTHER_PASSWORD), WrongPasswordError);
    await vault.verifyPassword(PASSWORD);
    expect(vault.isUnlocked()).toBe(true);
  });

  it('unlockWithKey opens with the exported key and refuses another key', async () => {
    const { stores, vault, mnemonic } = setup();
    await vault.create(PASSWORD, { mnemonic });
    const raw = await vault.exportKey();
    expect(raw).toHaveLength(32);
    expect((await freshVault(stores).unlockWithKey(raw)).mnemonic).toBe(mnemonic);
    const wrong = raw.slice();
    wrong[0]! ^= 1;
    const error = await rejectsUnchanged(stores, () => freshVault(stores).unlockWithKey(wrong), VaultCorruptError);
    expect(error.reason).toBe('auth');
    await rejectsUnchanged(stores, () => freshVault(stores).unlockWithKey(raw.subarray(1)), ValidationError);
  });

  it('storage.local never holds the mnemonic, a key or the password in clear', async () => {
    const { stores, vault, mnemonic } = setup();
    await vault.create(PASSWORD, { mnemonic, importedKeys: [{ id: 'k1', name: 'n', secretHex: KEY_A }] });
    await vault.update({ mnemonic, importedKeys: [{ id: 'k1', name: 'n', secretHex: KEY_A }, { id: 'k2', name: 'm', secretHex: KEY_B }], createdAt: 1 });
    await vault.changePassword(PASSWORD, OTHER_PASSWORD);
    const dump = stores.local.dump();
    expectNoLeak(dump, [...leakNeedles({ mnemonic, keysHex: [KEY_A, KEY_B] }), PASSWORD, OTHER_PASSWORD]);
    // The needles do work: the plaintext itself would be caught.
    expect(JSON.stringify(await freshVault(stores).unlock(OTHER_PASSWORD)).includes(mnemonic)).toBe(true);
  });
});

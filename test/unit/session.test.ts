// The session (src/background/session.ts): what storage.session holds while unlocked (never the
// phrase, a key in clear or the password), and resuming it in a new worker.
import { describe, expect, it } from 'vitest';
import { generateMnemonic } from '../../src/core/keys.js';
import type { MemoryStores } from '../../src/background/storage.js';
import { ACTIVITY_STORAGE_KEY, SESSION_STORAGE_KEY } from '../../src/background/session.js';
import { decodeBase64, VAULT_STORAGE_KEY, VaultLockedError, WrongPasswordError } from '../../src/background/vault.js';
import { KEY_HEX, MINUTE, NEW_PASSWORD, PASSWORD, unlockedWorld, world } from './session-test-kit.js';

/** storage.session must never hold the phrase (or any long run of it), a key in clear, or the password. */
function expectSessionClean(stores: MemoryStores, mnemonic: string, passwords: string[] = [PASSWORD, NEW_PASSWORD]): void {
  const dump = stores.session.dump();
  const words = mnemonic.split(' ');
  // Single words are searched too, except those that are part of the storage's own key or field
  // names (BIP-39 has "session", "activity" and "unlock", as in unlockedAt): finding those would
  // say nothing about the phrase.
  const names: string[] = [];
  JSON.parse(dump, (key: string, value: unknown) => {
    names.push(key);
    return value;
  });
  const keyNames = names.join(' ').toLowerCase();
  const needles = [mnemonic, ...passwords, KEY_HEX, KEY_HEX.slice(0, 32), ...words.filter((w) => w.length >= 6 && !keyNames.includes(w))];
  for (let i = 0; i + 1 < words.length; i++) needles.push(`${words[i]} ${words[i + 1]}`);
  for (const needle of needles) expect(dump.includes(needle), `storage.session contains "${needle.slice(0, 10)}…"`).toBe(false);
}

describe('session: what storage.session holds', () => {
  it('while unlocked: only the raw vault key (base64) and two timestamps', async () => {
    const { stores, mnemonic, clock } = await unlockedWorld();
    expect(stores.session.keys().sort()).toEqual([SESSION_STORAGE_KEY, ACTIVITY_STORAGE_KEY].sort());
    const got = await stores.session.get([SESSION_STORAGE_KEY, ACTIVITY_STORAGE_KEY]);
    const entry = got[SESSION_STORAGE_KEY] as Record<string, unknown>;
    expect(Object.keys(entry).sort()).toEqual(['key', 'unlockedAt', 'v']);
    expect(decodeBase64(entry.key as string)).toHaveLength(32);
    expect(entry.unlockedAt).toBe(clock.t);
    expect(got[ACTIVITY_STORAGE_KEY]).toBe(clock.t);
    expectSessionClean(stores, mnemonic);
    // The local area never gets the key, the activity or anything in clear.
    expect(stores.local.keys()).toEqual([VAULT_STORAGE_KEY]);
    expect(stores.local.dump().includes(entry.key as string)).toBe(false);
  });

  it('stays clean through touch, update, password change and restore', async () => {
    const { stores, session, mnemonic, clock } = await unlockedWorld();
    clock.t += MINUTE;
    await session.touch();
    await session.modify((secrets, write) => write({ ...secrets, importedKeys: [] }));
    await session.verifyPassword(PASSWORD);
    await session.changePassword(PASSWORD, NEW_PASSWORD);
    expectSessionClean(stores, mnemonic);
    const restored = generateMnemonic(12);
    await session.create(PASSWORD, { mnemonic: restored }, { replace: true });
    expectSessionClean(stores, mnemonic);
    expectSessionClean(stores, restored);
  });

  it('a wrong password writes nothing to storage.session', async () => {
    const w = world();
    await w.worker().vault.create(PASSWORD, { mnemonic: generateMnemonic() });
    const { session } = w.worker();
    await expect(session.unlock('wrong password')).rejects.toBeInstanceOf(WrongPasswordError);
    expect(w.stores.session.keys()).toEqual([]);
    expect(session.isUnlocked()).toBe(false);
  });
});

describe('session: across worker restarts', () => {
  it('resume() in a new worker gives the same secrets without the password', async () => {
    const { session, mnemonic, worker } = await unlockedWorld();
    const before = session.secrets();
    const next = worker(); // the old worker's objects are gone
    expect(next.session.isUnlocked()).toBe(false);
    const resumed = await next.session.resume();
    expect(resumed).toEqual(before);
    expect(resumed?.mnemonic).toBe(mnemonic);
    expect(next.session.isUnlocked()).toBe(true);
    expect(next.session.secrets()).toEqual(before);
    // Resuming twice is harmless.
    expect(await next.session.resume()).toEqual(before);
  });

  it('resume() with nothing in storage.session (first start or browser restart) reports locked', async () => {
    const { stores, worker } = await unlockedWorld();
    stores.session.clear(); // what the browser does on restart
    const next = worker();
    expect(await next.session.resume()).toBeNull();
    expect(next.session.isUnlocked()).toBe(false);
    expect(() => next.session.secrets()).toThrow(VaultLockedError);
    expect(await worker().session.resume()).toBeNull();
  });

  it('after a password change, a new worker resumes under the new key', async () => {
    const { session, worker } = await unlockedWorld();
    const before = session.secrets();
    await session.changePassword(PASSWORD, NEW_PASSWORD);
    expect(session.isUnlocked()).toBe(true);
    expect(await worker().session.resume()).toEqual(before);
  });

  it('a failed password change leaves the session entry and the vault as they were', async () => {
    const { stores, session, worker } = await unlockedWorld();
    const local = stores.local.dump();
    const sess = stores.session.dump();
    stores.local.failNextWrites(1);
    await expect(session.changePassword(PASSWORD, NEW_PASSWORD)).rejects.toThrow(/simulated/);
    expect(stores.local.dump()).toBe(local);
    expect(stores.session.dump()).toBe(sess);
    expect(session.isUnlocked()).toBe(true);
    expect(await worker().session.resume()).not.toBeNull();
    await expect(worker().session.unlock(NEW_PASSWORD)).rejects.toBeInstanceOf(WrongPasswordError);
  });

  it('a session key that no longer opens the vault (vault replaced) resumes locked and is removed', async () => {
    const { stores, worker } = await unlockedWorld();
    const stale = (await stores.session.get([SESSION_STORAGE_KEY]))[SESSION_STORAGE_KEY];
    await worker().vault.create(NEW_PASSWORD, { mnemonic: generateMnemonic() }, { replace: true });
    const next = worker();
    expect(await next.session.resume()).toBeNull();
    expect(stores.session.keys()).toEqual([]);

    // A malformed entry is treated the same way.
    await stores.session.set({ [SESSION_STORAGE_KEY]: { ...(stale as object), key: 'not base64!' } });
    expect(await worker().session.resume()).toBeNull();
    expect(stores.session.keys()).toEqual([]);
  });

  it('a failing storage.session write keeps the wallet unlocked in memory only (fails toward locked)', async () => {
    const w = world();
    await w.worker().vault.create(PASSWORD, { mnemonic: generateMnemonic() });
    const { session } = w.worker();
    w.stores.session.failNextWrites(1);
    await session.unlock(PASSWORD);
    expect(session.isUnlocked()).toBe(true);
    expect(w.stores.session.keys()).toEqual([]);
    expect(await w.worker().session.resume()).toBeNull();
  });
});

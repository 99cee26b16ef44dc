import { describe, expect, it, vi } from 'vitest';
import type { Alarms, Storage } from 'webextension-polyfill';
import { ValidationError } from '../../src/core/errors.js';
import { generateMnemonic } from '../../src/core/keys.js';
import { browserStores, memoryStores, type MemoryStores, restrictLocalArea, type StorageArea } from '../../src/background/storage.js';
import { ACTIVITY_STORAGE_KEY, Session, SESSION_STORAGE_KEY } from '../../src/background/session.js';
import { type AlarmsApi, DEFAULT_IDLE_MINUTES, IDLE_ALARM_NAME, IDLE_SETTING_KEY, NEVER_LOCK_WARNING, scheduleIdleAlarm } from '../../src/background/session-idle.js';
import {
  decodeBase64,
  encodeBase64,
  Vault,
  VAULT_STORAGE_KEY,
  VaultLockedError,
  WrongPasswordError,
} from '../../src/background/vault.js';

const ITER = 1000;
const PASSWORD = 'correct horse battery';
const NEW_PASSWORD = 'a different passphrase';
const KEY_HEX = '5a'.repeat(31) + '0f';
const MINUTE = 60_000;

// Compile-time checks: the real webextension-polyfill objects fit the small interfaces.
export const _storageFits = (storage: Storage.Static) => browserStores(storage);
export const _alarmsFit = (alarms: Alarms.Static) => scheduleIdleAlarm(alarms);

interface World {
  stores: MemoryStores;
  clock: { t: number };
  /** A new background: fresh Vault and Session objects over the same storage. */
  worker(): { vault: Vault; session: Session };
}

function world(): World {
  const stores = memoryStores();
  const clock = { t: 1_700_000_000_000 };
  const now = (): number => clock.t;
  return {
    stores,
    clock,
    worker() {
      const vault = new Vault(stores, { kdfIterationsForTesting: ITER, now });
      return { vault, session: new Session(vault, stores, { now }) };
    },
  };
}

async function unlockedWorld(): Promise<World & { session: Session; vault: Vault; mnemonic: string }> {
  const w = world();
  const { vault, session } = w.worker();
  const mnemonic = generateMnemonic(24);
  await session.create(PASSWORD, { mnemonic, importedKeys: [{ id: 'k', name: 'Imported', secretHex: KEY_HEX }] });
  return { ...w, vault, session, mnemonic };
}

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

describe('session: locking', () => {
  it('lock() drops the secrets, removes the session entries, and a new worker is locked', async () => {
    const { stores, session, vault, worker } = await unlockedWorld();
    const onLock = vi.fn();
    session.onLock(onLock);
    await session.lock();
    expect(onLock).toHaveBeenCalledTimes(1);
    expect(session.isUnlocked()).toBe(false);
    expect(vault.isUnlocked()).toBe(false);
    await expect(vault.exportKey()).rejects.toBeInstanceOf(VaultLockedError);
    expect(() => session.secrets()).toThrow(VaultLockedError);
    expect(stores.session.keys()).toEqual([]);
    expect(await worker().session.resume()).toBeNull();
    // Operations that need the unlocked wallet refuse.
    await expect(session.modify((secrets, write) => write(secrets))).rejects.toBeInstanceOf(VaultLockedError);
    // Unlocking again works.
    expect((await session.unlock(PASSWORD)).importedKeys).toHaveLength(1);
  });

  it('a lock whose first storage.session writes fail still leaves nothing a new worker could resume', async () => {
    const { stores, session, worker } = await unlockedWorld();
    stores.session.failNextWrites(1);
    await session.lock();
    expect(session.isUnlocked()).toBe(false);
    expect(stores.session.keys()).toEqual([]);
    expect(await worker().session.resume()).toBeNull();
  });

  it('a lock while storage.session refuses every write leaves a worker-proof lock, cleared later', async () => {
    const { stores, session, worker, clock } = await unlockedWorld();
    stores.session.failNextWrites(1_000);
    await session.lock();
    expect(session.isUnlocked()).toBe(false);
    // The stale entry is still there, and neither this worker nor a new one resumes from it.
    expect(stores.session.keys()).toContain(SESSION_STORAGE_KEY);
    expect(await session.resume()).toBeNull();
    expect(await worker().session.resume()).toBeNull();
    // Once storage.session takes writes again, the next look removes the entry.
    stores.session.failNextWrites(0);
    expect(await worker().session.resume()).toBeNull();
    expect(stores.session.keys()).toEqual([]);
    // Unlocking with the password starts a session that a new worker resumes as usual.
    clock.t += 1;
    await session.unlock(PASSWORD);
    expect(await worker().session.resume()).not.toBeNull();
  });

  it('a tombstone, or any session entry that is not complete, resumes locked and is removed', async () => {
    const { stores, worker } = await unlockedWorld();
    const entry = (await stores.session.get([SESSION_STORAGE_KEY]))[SESSION_STORAGE_KEY] as Record<string, unknown>;
    for (const broken of [{ v: 1, locked: true }, { ...entry, key: undefined }, { ...entry, unlockedAt: undefined }, { ...entry, key: 'not base64!' }]) {
      await stores.session.set({ [SESSION_STORAGE_KEY]: broken });
      expect(await worker().session.resume()).toBeNull();
      expect(stores.session.keys()).toEqual([]);
      await stores.session.set({ [SESSION_STORAGE_KEY]: entry });
    }
  });

  it('restore over an unlocked wallet tells lock listeners and switches to the new secrets', async () => {
    const { session, worker } = await unlockedWorld();
    const onLock = vi.fn();
    session.onLock(onLock);
    const restored = generateMnemonic(12);
    await session.create(NEW_PASSWORD, { mnemonic: restored }, { replace: true });
    expect(onLock).toHaveBeenCalledTimes(1);
    expect(session.secrets().mnemonic).toBe(restored);
    expect((await worker().session.resume())?.mnemonic).toBe(restored);
  });

  it('locks after the idle timeout (default 15 minutes); touch() postpones it', async () => {
    const { stores, session, clock } = await unlockedWorld();
    const start = clock.t;
    expect(await session.getIdleTimeout()).toBe(DEFAULT_IDLE_MINUTES);
    expect(DEFAULT_IDLE_MINUTES).toBe(15);
    expect(await session.checkIdle(start + 14 * MINUTE)).toBe(false);
    await session.touch(start + 10 * MINUTE);
    expect((await stores.session.get([ACTIVITY_STORAGE_KEY]))[ACTIVITY_STORAGE_KEY]).toBe(start + 10 * MINUTE);
    expect(await session.checkIdle(start + 24 * MINUTE)).toBe(false);
    expect(session.isUnlocked()).toBe(true);
    expect(await session.checkIdle(start + 25 * MINUTE)).toBe(true);
    expect(session.isUnlocked()).toBe(false);
    expect(stores.session.keys()).toEqual([]);
    expect(await session.checkIdle(start + 26 * MINUTE)).toBe(false);
  });

  it('idle time counts across a worker restart', async () => {
    const { session, clock, worker, stores } = await unlockedWorld();
    await session.touch(clock.t + 5 * MINUTE);
    clock.t += 19 * MINUTE; // the worker was stopped meanwhile
    const a = worker();
    expect(await a.session.resume()).not.toBeNull();
    clock.t += 1 * MINUTE; // 15 minutes after the touch
    expect(await a.session.checkIdle()).toBe(true);
    expect(stores.session.keys()).toEqual([]);
  });

  it('resume() after the idle timeout passed reports locked and clears the entry', async () => {
    const { stores, clock, worker } = await unlockedWorld();
    clock.t += 15 * MINUTE;
    expect(await worker().session.resume()).toBeNull();
    expect(stores.session.keys()).toEqual([]);
  });

  it('the alarm in a fresh worker clears an idled-out entry without resuming', async () => {
    const { stores, clock, worker } = await unlockedWorld();
    const fresh = worker();
    expect(await fresh.session.checkIdle(clock.t + 5 * MINUTE)).toBe(false);
    expect(stores.session.keys()).toHaveLength(2);
    expect(await fresh.session.checkIdle(clock.t + 15 * MINUTE)).toBe(true);
    expect(stores.session.keys()).toEqual([]);
    expect(fresh.session.isUnlocked()).toBe(false);
  });

  it("'never' is allowed with a warning; minutes are validated; bad input changes nothing", async () => {
    const { stores, session, clock } = await unlockedWorld();
    expect(await session.setIdleTimeout(5)).toEqual({ timeout: 5 });
    expect(await session.getIdleTimeout()).toBe(5);
    const never = await session.setIdleTimeout('never');
    expect(never.timeout).toBe('never');
    expect(never.warning).toBe(NEVER_LOCK_WARNING);
    expect(never.warning!.length).toBeGreaterThan(20);
    expect(await session.checkIdle(clock.t + 365 * 24 * 60 * MINUTE)).toBe(false);
    expect(session.isUnlocked()).toBe(true);

    const before = stores.local.dump();
    for (const bad of [0, -1, 1.5, 100_000, Number.NaN, 'always', null] as unknown[]) {
      await expect(session.setIdleTimeout(bad as number)).rejects.toBeInstanceOf(ValidationError);
    }
    expect(stores.local.dump()).toBe(before);
    expect(await session.getIdleTimeout()).toBe('never');

    // A damaged setting falls back to the default.
    await stores.local.set({ [IDLE_SETTING_KEY]: 'garbage' });
    expect(await session.getIdleTimeout()).toBe(DEFAULT_IDLE_MINUTES);
  });

  it('touch() while locked does nothing', async () => {
    const { stores, session, clock } = await unlockedWorld();
    await session.lock();
    await session.touch(clock.t + MINUTE);
    expect(stores.session.keys()).toEqual([]);
  });
});

describe('idle alarm', () => {
  it('creates the periodic alarm once and keeps an existing one', async () => {
    const alarms = new Map<string, { periodInMinutes?: number; delayInMinutes?: number }>();
    const fake: AlarmsApi = {
      get: async (name) => alarms.get(name),
      create: vi.fn(async (name: string, info: { periodInMinutes?: number; delayInMinutes?: number }) => {
        alarms.set(name, info);
      }),
    };
    await scheduleIdleAlarm(fake);
    await scheduleIdleAlarm(fake);
    expect(fake.create).toHaveBeenCalledTimes(1);
    expect(alarms.get(IDLE_ALARM_NAME)).toEqual({ delayInMinutes: 1, periodInMinutes: 1 });
  });
});

describe('browserStores', () => {
  function fakeArea(log: string[], name: string): StorageArea {
    const inner = memoryStores().local;
    return {
      get: async (keys) => {
        log.push(`${name}.get`);
        return inner.get(keys);
      },
      set: async (items) => {
        log.push(`${name}.set`);
        return inner.set(items);
      },
      remove: async (keys) => {
        log.push(`${name}.remove`);
        return inner.remove(keys);
      },
    };
  }

  it('restricts storage.session to trusted contexts before using it (Chrome)', async () => {
    const log: string[] = [];
    const setAccessLevel = vi.fn(async (options: { accessLevel: string }) => {
      log.push(`setAccessLevel:${options.accessLevel}`);
    });
    const stores = browserStores({ local: fakeArea(log, 'local'), session: { ...fakeArea(log, 'session'), setAccessLevel } });
    await stores.session.set({ a: 1 });
    expect(await stores.session.get(['a'])).toEqual({ a: 1 });
    expect(log.slice(0, 2)).toEqual(['setAccessLevel:TRUSTED_CONTEXTS', 'session.set']);
    expect(setAccessLevel).toHaveBeenCalledTimes(1);
  });

  it('restricts storage.local (the vault ciphertext) to trusted contexts where the browser can; carries on where it cannot', async () => {
    const levels: string[] = [];
    browserStores({ local: { ...fakeArea([], 'local'), setAccessLevel: async (o: { accessLevel: string }) => void levels.push(o.accessLevel) } });
    expect(levels).toEqual(['TRUSTED_CONTEXTS']);
    expect(await restrictLocalArea({ setAccessLevel: () => Promise.reject(new Error('only storage.session')) })).toBe(false);
    expect(await restrictLocalArea({})).toBe(false);
    expect(await restrictLocalArea({ setAccessLevel: async () => undefined })).toBe(true);
  });

  it('refuses session writes when the restriction fails', async () => {
    const log: string[] = [];
    const stores = browserStores({
      local: fakeArea(log, 'local'),
      session: { ...fakeArea(log, 'session'), setAccessLevel: () => Promise.reject(new Error('nope')) },
    });
    await expect(stores.session.set({ a: 1 })).rejects.toThrow(/trusted/);
    expect(log).not.toContain('session.set');
  });

  it('works without setAccessLevel (Firefox) and without a session area (memory stand-in)', async () => {
    const log: string[] = [];
    const firefox = browserStores({ local: fakeArea(log, 'local'), session: fakeArea(log, 'session') });
    await firefox.session.set({ a: 1 });
    expect(log).toEqual(['session.set']);
    const old = browserStores({ local: fakeArea(log, 'local') });
    await old.session.set({ b: encodeBase64(new Uint8Array([1])) });
    expect(await old.session.get(['b'])).toEqual({ b: 'AQ==' });
  });
});

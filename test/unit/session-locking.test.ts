// Locking the session: lock() and what survives it when storage.session fails, the idle timeout
// and its setting, and the periodic alarm that checks it.
import { describe, expect, it, vi } from 'vitest';
import type { Alarms } from 'webextension-polyfill';
import { ValidationError } from '../../src/core/errors.js';
import { generateMnemonic } from '../../src/core/keys.js';
import { ACTIVITY_STORAGE_KEY, SESSION_STORAGE_KEY } from '../../src/background/session.js';
import { type AlarmsApi, DEFAULT_IDLE_MINUTES, IDLE_ALARM_NAME, IDLE_SETTING_KEY, NEVER_LOCK_WARNING, scheduleIdleAlarm } from '../../src/background/session-idle.js';
import { VaultLockedError } from '../../src/background/vault.js';
import { MINUTE, NEW_PASSWORD, PASSWORD, unlockedWorld } from './session-test-kit.js';

// Compile-time check: the real webextension-polyfill alarms fit the small interface.
export const _alarmsFit = (alarms: Alarms.Static) => scheduleIdleAlarm(alarms);

describe('session: locking', () => {
  it("idleMaybeDue (a site's request asks checkIdle only then): not within a minute of activity; past it; at once when the clock went back; never when locked", async () => {
    const { session, clock } = await unlockedWorld();
    await session.touch();
    clock.t += 59_000;
    expect(session.idleMaybeDue()).toBe(false);
    clock.t += 1_000;
    expect(session.idleMaybeDue()).toBe(true);
    await session.touch();
    clock.t -= 3_600_000;
    expect(session.idleMaybeDue()).toBe(true);
    await session.lock();
    expect(session.idleMaybeDue()).toBe(false);
  });

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

  it('a lock while storage.session refuses every write, after the clock went back, still leaves nothing a new worker resumes', async () => {
    const { stores, session, worker, clock } = await unlockedWorld();
    clock.t -= 5 * MINUTE;
    stores.session.failNextWrites(1_000);
    await session.lock();
    stores.session.failNextWrites(0);
    expect(await worker().session.resume()).toBeNull();
  });

  it('such a lock marker ahead of the clock does not void the sessions after it: an unlock with the password is resumed as usual', async () => {
    const { stores, session, worker, clock } = await unlockedWorld();
    clock.t -= 30 * 24 * 60 * MINUTE;
    stores.session.failNextWrites(1_000);
    await session.lock();
    stores.session.failNextWrites(0);
    await session.unlock(PASSWORD);
    clock.t += MINUTE;
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

  it('a clock that went back (unlocked while an hour fast, then corrected) does not put the idle lock off by that hour', async () => {
    const { session, clock } = await unlockedWorld();
    const fast = clock.t;
    await session.touch(fast + MINUTE);
    // Corrected: an hour earlier. Idle from the first look at the new time, not from a time still ahead.
    const corrected = fast - 60 * MINUTE;
    expect(await session.checkIdle(corrected)).toBe(false);
    expect(await session.checkIdle(corrected + 14 * MINUTE)).toBe(false);
    expect(await session.checkIdle(corrected + 15 * MINUTE)).toBe(true);
  });

  it('activity after the clock went back postpones the lock from then', async () => {
    const { session, clock } = await unlockedWorld();
    await session.touch(clock.t + MINUTE);
    const corrected = clock.t - 60 * MINUTE;
    await session.touch(corrected + 5 * MINUTE);
    expect(await session.checkIdle(corrected + 19 * MINUTE)).toBe(false);
    expect(await session.checkIdle(corrected + 20 * MINUTE)).toBe(true);
  });

  it('after the clock went back, a worker restarted every minute still locks 15 minutes from the correction', async () => {
    const { session, clock, worker, stores } = await unlockedWorld();
    await session.touch(clock.t + MINUTE);
    clock.t -= 60 * MINUTE; // corrected an hour back; the worker stops and starts each minute
    for (let minute = 0; minute < 15; minute++) {
      expect(await worker().session.resume()).not.toBeNull();
      clock.t += MINUTE;
    }
    expect(await worker().session.resume()).toBeNull();
    expect(stores.session.keys()).toEqual([]);
  });

  it('the correction seen by the unlocked worker is stored, so the next worker idles from it too', async () => {
    const { session, clock, worker } = await unlockedWorld();
    await session.touch(clock.t + MINUTE);
    const corrected = clock.t - 60 * MINUTE;
    expect(await session.checkIdle(corrected)).toBe(false);
    clock.t = corrected + 15 * MINUTE;
    expect(await worker().session.resume()).toBeNull();
  });

  it('the alarm in fresh workers after the clock went back locks 15 minutes from the first look', async () => {
    const { session, clock, worker, stores } = await unlockedWorld();
    await session.touch(clock.t + MINUTE);
    const corrected = clock.t - 60 * MINUTE;
    expect(await worker().session.checkIdle(corrected)).toBe(false);
    expect(await worker().session.checkIdle(corrected + 14 * MINUTE)).toBe(false);
    expect(await worker().session.checkIdle(corrected + 15 * MINUTE)).toBe(true);
    expect(stores.session.keys()).toEqual([]);
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

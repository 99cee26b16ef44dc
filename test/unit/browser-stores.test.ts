// browserStores (src/background/storage.ts): storage.session, and storage.local where the browser
// allows it, restricted to trusted contexts before use; Firefox and a missing session area.
import { describe, expect, it, vi } from 'vitest';
import type { Storage } from 'webextension-polyfill';
import { browserStores, memoryStores, restrictToExtension, type StorageArea } from '../../src/background/storage.js';
import { encodeBase64 } from '../../src/background/vault.js';

// Compile-time check: the real webextension-polyfill storage fits the small interface.
export const _storageFits = (storage: Storage.Static) => browserStores(storage);

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
    expect(await restrictToExtension({ setAccessLevel: () => Promise.reject(new Error('only storage.session')) })).toBe(false);
    expect(await restrictToExtension({})).toBe(false);
    expect(await restrictToExtension({ setAccessLevel: async () => undefined })).toBe(true);
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

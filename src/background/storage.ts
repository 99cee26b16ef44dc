// The two storage areas the background uses, behind a small async key-value interface so that the
// vault and the session can be tested in Node without a browser.
//
//  - `local` survives browser restarts. It only ever holds encrypted or non-secret data.
//  - `session` lives in memory in the browser process: it survives the service worker (Chrome) or
//    event page (Firefox) being stopped, and is cleared when the browser (or the extension) restarts.
//    It is where an unlocked session keeps what it needs to come back after a worker restart.
//
// This module never imports webextension-polyfill itself (that package refuses to load outside an
// extension, which would break the Node tests): the background passes `browser.storage` in.
import { WalletError } from '../core/errors.js';

export interface StorageArea {
  /** The stored values of those of `keys` that exist; missing keys are absent from the result. */
  get(keys: string[]): Promise<Record<string, unknown>>;
  /** Writes all of `items` or, when it rejects, none of them. */
  set(items: Record<string, unknown>): Promise<void>;
  remove(keys: string[]): Promise<void>;
}

/** A stored amount (nAVAX, base units, a height) as this wallet writes it: a string of decimal digits. */
export const storedDigits = (v: unknown): v is string => typeof v === 'string' && /^\d+$/.test(v);

/** A list kept under one key: [] when absent, `storage-corrupt` (nothing changed) when not a list. */
export async function storedList<T>(area: StorageArea, key: string, what: string): Promise<T[]> {
  const value = (await area.get([key]))[key];
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new WalletError('storage-corrupt', `${what} ${key} is not a list`);
  return value as T[];
}

/**
 * Takes the lists an older version kept under `from` into the list at `key` (run under
 * oneAtATime(key)): each item once (`same`), the one already there winning; then removes them, so a
 * retry after a lost write takes nothing in twice. One that is not a list stops it (storage-corrupt).
 */
export async function takeInLists<T>(area: StorageArea, key: string, from: readonly string[], same: (a: T, b: T) => boolean, what: string): Promise<void> {
  const found = Object.keys(await area.get([...from]));
  if (found.length === 0) return;
  const merged = await storedList<T>(area, key, what);
  for (const k of found) for (const item of await storedList<T>(area, k, what)) if (!merged.some((m) => same(m, item))) merged.push(item);
  await area.set({ [key]: merged });
  await area.remove(found);
}

const tails = new Map<string, Promise<unknown>>();

/**
 * Runs `change` after every earlier change queued under `key`: for a read-modify-write of one
 * storage key that two requests may make at once (each would otherwise write back the other's old value).
 */
export function oneAtATime<T>(key: string, change: () => Promise<T>): Promise<T> {
  const run = (tails.get(key) ?? Promise.resolve()).then(change);
  tails.set(key, run.catch(() => undefined));
  return run;
}

export interface Stores {
  local: StorageArea;
  session: StorageArea;
}

// ---- the extension's storage ----

/** The part of `browser.storage` (webextension-polyfill) that `browserStores` uses. */
export interface BrowserStorageApi {
  local: StorageArea & AccessLevelSetter;
  /** Chrome only (102+). Firefox does not expose its session area to content scripts at all. */
  session?: StorageArea & AccessLevelSetter;
}

interface AccessLevelSetter {
  setAccessLevel?: (options: { accessLevel: 'TRUSTED_CONTEXTS' | 'TRUSTED_AND_UNTRUSTED_CONTEXTS' }) => Promise<void>;
}

/**
 * Restricts a storage area (`area`) to the extension's own pages and worker where the browser
 * allows it; resolves to whether that is in place, never rejects. Used for storage.local and
 * storage.session. storage.local holds the vault's ciphertext. Content scripts run inside web
 * pages' processes, and ours never read storage: where the browser allows it (Chrome), only the
 * extension's own pages and worker may. Firefox offers no such setting for this area: a page
 * process taken over (a browser exploit) could read it, the ciphertext then protected by the
 * password alone, and write it (a site connected, the idle lock off); every signature still needs
 * an approval the user saw.
 */
export function restrictToExtension(area: AccessLevelSetter): Promise<boolean> {
  if (typeof area.setAccessLevel !== 'function') return Promise.resolve(false);
  return area.setAccessLevel({ accessLevel: 'TRUSTED_CONTEXTS' }).then(
    () => true,
    () => false,
  );
}

/**
 * The real storage areas, from `browser.storage` (pass webextension-polyfill's `browser.storage`).
 *
 * On Chrome the session area is restricted to trusted extension contexts before its first use
 * (that is already Chrome's default; it is set explicitly so that nothing else can widen it). If
 * that call fails, writes to the session area are refused, so nothing secret lands in an area
 * whose access level is unknown. A browser without a session area (Firefox before 115) gets an
 * in-memory stand-in: the wallet then stays unlocked only while the background is alive.
 */
export function browserStores(storage: BrowserStorageApi): Stores {
  void restrictToExtension(storage.local);
  const native = storage.session;
  if (native === undefined) return { local: storage.local, session: memoryArea() };

  // Started once, awaited by every session operation; the promise never rejects (it resolves to
  // whether the restriction is in place), so there is no unhandled rejection if nobody writes.
  // Without setAccessLevel (Firefox), the session area is not exposed to content scripts at all.
  const restricted: Promise<boolean> = typeof native.setAccessLevel === 'function' ? restrictToExtension(native) : Promise.resolve(true);

  const session: StorageArea = {
    async get(keys) {
      await restricted;
      return native.get(keys);
    },
    async set(items) {
      if (!(await restricted)) {
        throw new Error('storage.session could not be restricted to trusted extension contexts; refusing to write');
      }
      return native.set(items);
    },
    async remove(keys) {
      await restricted;
      return native.remove(keys);
    },
  };
  return { local: storage.local, session };
}

// ---- in-memory storage for tests ----

export interface MemoryStorageArea extends StorageArea {
  /** The next `count` calls to `set` or `remove` reject with `error` and change nothing. */
  failNextWrites(count?: number, error?: Error): void;
  /** The whole area as JSON text (keys sorted): for byte-identical comparisons and leak searches. */
  dump(): string;
  /** Every key currently stored. */
  keys(): string[];
  /** Empties the area, as a browser restart does to `storage.session`. */
  clear(): void;
}

export interface MemoryStores extends Stores {
  local: MemoryStorageArea;
  session: MemoryStorageArea;
}

/**
 * An area kept in memory: the stand-in for a missing session area, and the tests' storage. Values
 * are kept as JSON text, so what comes back is a copy that went through serialization, like the
 * real API: a bigint throws on set, a Uint8Array comes back as a plain object. `beforeWrite` runs
 * before every `set` and `remove` (the tests' simulated failures).
 */
function memoryArea(data = new Map<string, string>(), beforeWrite = (): void => {}): StorageArea {
  return {
    async get(keys) {
      const out: Record<string, unknown> = {};
      for (const key of keys) {
        const text = data.get(key);
        if (text !== undefined) out[key] = JSON.parse(text);
      }
      return out;
    },
    async set(items) {
      beforeWrite();
      // Serialize everything before writing anything: a bad value leaves the area untouched.
      const staged: [string, string][] = [];
      for (const [key, value] of Object.entries(items)) {
        const text = JSON.stringify(value);
        if (text !== undefined) staged.push([key, text]);
      }
      for (const [key, text] of staged) data.set(key, text);
    },
    async remove(keys) {
      beforeWrite();
      for (const key of keys) data.delete(key);
    },
  };
}

/** A memory area with the tests' controls; kept apart so that the extension ships without them. */
function testArea(): MemoryStorageArea {
  const data = new Map<string, string>();
  let failures = 0;
  let failure = new Error('simulated storage write failure');
  const failIfArmed = (): void => {
    if (failures > 0) {
      failures--;
      throw failure;
    }
  };

  return {
    ...memoryArea(data, failIfArmed),
    failNextWrites(count = 1, error) {
      failures = count;
      if (error !== undefined) failure = error;
    },
    dump() {
      const sorted = [...data.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      return JSON.stringify(Object.fromEntries(sorted.map(([k, text]) => [k, JSON.parse(text) as unknown])));
    },
    keys() {
      return [...data.keys()];
    },
    clear() {
      data.clear();
    },
  };
}

/** Two independent in-memory areas with the same semantics as the extension's storage. */
export function memoryStores(): MemoryStores {
  return { local: testArea(), session: testArea() };
}

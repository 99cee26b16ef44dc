// The unlocked session, kept across service-worker (Chrome) and event-page (Firefox) restarts.
//
// While unlocked, storage.session holds exactly two entries:
//   SESSION_STORAGE_KEY  → { v: 1, key: <the vault's AES-256-GCM key, raw, base64>, unlockedAt }
//   ACTIVITY_STORAGE_KEY → lastActivity (ms since the epoch)
// Never the password, the recovery phrase or any other plaintext: after a worker restart `resume`
// re-imports the key and decrypts the vault from storage.local again. storage.session is
// restricted to trusted extension contexts (see storage.ts) and lives only in browser memory.
//
// Locking:
//  - `lock()` on user action;
//  - `checkIdle()` after the idle timeout (default 15 minutes, 'never' allowed with a warning),
//    called by the background from the IDLE_ALARM_NAME alarm (and, cheaply, on incoming messages);
//  - browser restart: the browser clears storage.session by itself (so does an extension reload
//    or update), so `resume` then finds nothing and reports locked. Nothing else is needed.
// Locked means: the vault has dropped its CryptoKey, this object has dropped the decrypted secrets,
// the session entries are removed, and raw key bytes were zeroed right after each use.
//
// Writes to storage.session are best effort and fail toward locked: if one fails, the wallet
// stays unlocked in memory and will be locked after the next worker restart.
//
// A lock never leaves a session a new worker could resume: the key entry is first overwritten by a
// tombstone (any entry that is not a complete session record resumes locked), then both entries
// are removed, each tried a few times. If storage.session refuses every write, LOCKED_AT_KEY in
// storage.local voids every session entry from before it, and the removal is tried again on the
// next resume or idle check.
//
// The idle timeout's setting and alarm are in session-idle.ts.
import { WalletError } from '../core/errors.js';
import { wipe } from '../core/keys.js';
import { MIN_IDLE_LOCK_MINUTES } from '../shared/validate-fields.js';
import { type IdleTimeout, type IdleTimeoutSetting, readIdleTimeout, writeIdleTimeout } from './session-idle.js';
import type { StorageArea, Stores } from './storage.js';
import {
  copySecrets,
  decodeBase64,
  encodeBase64,
  type NewVaultSecrets,
  type Vault,
  VaultLockedError,
  type VaultSecrets,
} from './vault.js';

export const SESSION_STORAGE_KEY = 'xpc.session';
export const ACTIVITY_STORAGE_KEY = 'xpc.session.lastActivity';
/** In storage.local: when a lock could not clear storage.session; older session entries are void. */
export const LOCKED_AT_KEY = 'xpc.session.lockedAt';
/** What a lock writes over the key entry before removing it. */
const LOCKED_TOMBSTONE = { v: 1, locked: true };
const LOCK_WRITE_ATTEMPTS = 3;

interface SessionEntry {
  v: 1;
  key: string;
  unlockedAt: number;
}

function parseEntry(value: unknown): SessionEntry | null {
  if (typeof value !== 'object' || value === null) return null;
  const { v, key, unlockedAt } = value as Record<string, unknown>;
  if (v !== 1 || typeof key !== 'string' || typeof unlockedAt !== 'number' || !Number.isFinite(unlockedAt)) return null;
  return { v, key, unlockedAt };
}

export interface SessionOptions {
  /** Clock; defaults to Date.now. */
  now?: () => number;
}

export class Session {
  readonly #vault: Vault;
  readonly #local: StorageArea;
  readonly #session: StorageArea;
  readonly #now: () => number;
  #secrets: VaultSecrets | null = null;
  #unlockedAt = 0;
  #lastActivity = 0;
  /** A lock could not remove the session entries yet. */
  #clearPending = false;
  readonly #lockListeners = new Set<() => void>();
  #tail: Promise<unknown> = Promise.resolve();

  constructor(vault: Vault, stores: Stores, options: SessionOptions = {}) {
    this.#vault = vault;
    this.#local = stores.local;
    this.#session = stores.session;
    this.#now = options.now ?? Date.now;
  }

  #serial<T>(op: () => Promise<T>): Promise<T> {
    const run = this.#tail.then(op, op);
    this.#tail = run.catch(() => undefined);
    return run;
  }

  isUnlocked(): boolean {
    return this.#secrets !== null && this.#vault.isUnlocked();
  }

  /** Unlocked, with the shortest idle lock passed since the last activity, or the clock set back: checkIdle may act. */
  idleMaybeDue(now: number = this.#now()): boolean {
    return this.isUnlocked() && (now < this.#lastActivity || now - this.#lastActivity >= MIN_IDLE_LOCK_MINUTES * 60_000);
  }

  /** A copy of the decrypted secrets; VaultLockedError when locked. */
  secrets(): VaultSecrets {
    if (this.#secrets === null || !this.#vault.isUnlocked()) throw new VaultLockedError();
    return copySecrets(this.#secrets);
  }

  /** The recovery phrase unlocked now: 'no-mnemonic' for a wallet created from a private key. */
  mnemonic(): string {
    const { mnemonic } = this.secrets();
    if (!mnemonic) throw new WalletError('no-mnemonic', 'this wallet has no recovery phrase (it was created from a private key)');
    return mnemonic;
  }

  /** Called (synchronously) on every lock, so holders of derived keys can wipe them. */
  onLock(listener: () => void): () => void {
    this.#lockListeners.add(listener);
    return () => this.#lockListeners.delete(listener);
  }

  // ---- becoming unlocked ----

  /** Creates the vault (or, with `replace`, restores over it) and starts a session. */
  create(password: string, secrets: NewVaultSecrets, options: { replace?: boolean } = {}): Promise<VaultSecrets> {
    return this.#serial(async () => {
      const created = await this.#vault.create(password, secrets, options);
      // A restore replaced what was unlocked: whoever derived keys from it must drop them.
      if (this.#secrets !== null) this.#forget();
      return this.#begin(created);
    });
  }

  /** Unlocks with the password. WrongPasswordError leaves the current state as it was. */
  unlock(password: string): Promise<VaultSecrets> {
    return this.#serial(async () => this.#begin(await this.#vault.unlock(password)));
  }

  /**
   * On background start: picks the session up from storage.session without the password, or
   * returns null (locked) when there is none, it has idled out, or its key no longer opens the
   * vault. Storage read failures reject.
   */
  resume(): Promise<VaultSecrets | null> {
    return this.#serial(async () => {
      if (this.isUnlocked()) return this.secrets();
      if (this.#clearPending) {
        await this.#clearStored();
        return null;
      }
      const found = await this.#session.get([SESSION_STORAGE_KEY, ACTIVITY_STORAGE_KEY]);
      if (found[SESSION_STORAGE_KEY] === undefined) return null;
      const entry = parseEntry(found[SESSION_STORAGE_KEY]);
      const raw = entry === null ? null : decodeBase64(entry.key);
      if (entry === null || raw === null || (await this.#voidedByLock(entry))) {
        await this.#lockNow();
        return null;
      }
      try {
        const now = this.#now();
        const last = await this.#storedActivity(found[ACTIVITY_STORAGE_KEY], entry.unlockedAt, now);
        if (await this.#idleExpired(last, now)) {
          await this.#lockNow();
          return null;
        }
        let secrets: VaultSecrets;
        try {
          secrets = await this.#vault.unlockWithKey(raw);
        } catch (e) {
          // Wrong key (the vault was replaced or its password changed), no vault, damaged vault:
          // locked. Unlocking with the password then reports the real state.
          if (!(e instanceof WalletError)) throw e;
          await this.#lockNow();
          return null;
        }
        this.#secrets = secrets;
        this.#unlockedAt = entry.unlockedAt;
        this.#lastActivity = last;
        return copySecrets(secrets);
      } finally {
        wipe(raw);
      }
    });
  }

  async #begin(secrets: VaultSecrets): Promise<VaultSecrets> {
    const now = this.#now();
    this.#secrets = secrets;
    this.#unlockedAt = now;
    this.#lastActivity = now;
    await this.#persistKey();
    return copySecrets(secrets);
  }

  /** Writes the current key and activity to storage.session (best effort, see the header). */
  async #persistKey(): Promise<void> {
    let raw: Uint8Array | null = null;
    try {
      raw = await this.#vault.exportKey();
      const entry: SessionEntry = { v: 1, key: encodeBase64(raw), unlockedAt: this.#unlockedAt };
      await this.#session.set({ [SESSION_STORAGE_KEY]: entry, [ACTIVITY_STORAGE_KEY]: this.#lastActivity });
      this.#clearPending = false;
      // The entry a failed lock left is overwritten: its marker (which may lie ahead, after a clock
      // set back) would only void this session.
      await this.#local.remove([LOCKED_AT_KEY]).catch(() => undefined);
    } catch {
      // A stale key left behind would not open the vault, but remove it anyway.
      await this.#session.remove([SESSION_STORAGE_KEY, ACTIVITY_STORAGE_KEY]).catch(() => undefined);
    } finally {
      wipe(raw);
    }
  }

  // ---- while unlocked ----

  /**
   * A read-modify-write of the vault's secrets (importing or removing a key), run in the queue every
   * vault change of this session goes through: `change` gets the current secrets and stores new
   * ones with `write`, so no other change lands between its read and its write. `write` works only
   * while `change` runs. VaultLockedError when locked.
   */
  modify<T>(change: (secrets: VaultSecrets, write: (next: VaultSecrets) => Promise<VaultSecrets>) => Promise<T>): Promise<T> {
    return this.#serial(async () => {
      if (this.#secrets === null || !this.isUnlocked()) throw new VaultLockedError();
      let open = true;
      const write = (next: VaultSecrets): Promise<VaultSecrets> => {
        if (!open) return Promise.reject(new WalletError('internal', 'a vault change was written after it ended'));
        return this.#writeSecrets(next);
      };
      try {
        return await change(copySecrets(this.#secrets), write);
      } finally {
        open = false;
      }
    });
  }

  async #writeSecrets(secrets: VaultSecrets): Promise<VaultSecrets> {
    if (!this.isUnlocked()) throw new VaultLockedError();
    let updated: VaultSecrets;
    try {
      updated = await this.#vault.update(secrets);
    } finally {
      // The vault locks itself when the stored record changed under it; follow it.
      if (!this.#vault.isUnlocked()) await this.#lockNow();
    }
    this.#secrets = updated;
    return copySecrets(updated);
  }

  /** Re-entry of the password before revealing or exporting a secret; changes no state. */
  verifyPassword(password: string): Promise<void> {
    return this.#serial(() => this.#vault.verifyPassword(password));
  }

  /** Atomic in storage.local (see Vault.changePassword); an open session moves to the new key. */
  changePassword(oldPassword: string, newPassword: string): Promise<void> {
    return this.#serial(async () => {
      await this.#vault.changePassword(oldPassword, newPassword);
      if (this.isUnlocked()) await this.#persistKey();
    });
  }

  /** Records user activity, postponing the idle lock. Does nothing while locked. */
  touch(now: number = this.#now()): Promise<void> {
    return this.#serial(async () => {
      // A time before the last one is activity too: the clock went back (a correction, a resumed VM).
      if (!this.isUnlocked() || now === this.#lastActivity) return;
      this.#lastActivity = now;
      await this.#session.set({ [ACTIVITY_STORAGE_KEY]: now }).catch(() => undefined);
    });
  }

  // ---- locking ----

  lock(): Promise<void> {
    return this.#serial(() => this.#lockNow());
  }

  /**
   * Locks when the idle timeout has passed since the last activity; true when it locked. Also
   * clears an idled-out session entry left by a worker that stopped before `resume` ran.
   */
  checkIdle(now: number = this.#now()): Promise<boolean> {
    return this.#serial(async () => {
      if (this.isUnlocked()) {
        if (now < this.#lastActivity) {
          // The clock went back since the last activity: idle from now, not from a time still
          // ahead, and stored so, or a worker restart would resume the time ahead.
          this.#lastActivity = now;
          await this.#session.set({ [ACTIVITY_STORAGE_KEY]: now }).catch(() => undefined);
        }
        if (!(await this.#idleExpired(this.#lastActivity, now))) return false;
        await this.#lockNow();
        return true;
      }
      if (this.#clearPending) await this.#clearStored().catch(() => undefined);
      const found = await this.#session.get([SESSION_STORAGE_KEY, ACTIVITY_STORAGE_KEY]);
      if (found[SESSION_STORAGE_KEY] === undefined) return false;
      const entry = parseEntry(found[SESSION_STORAGE_KEY]);
      if (entry !== null && !(await this.#voidedByLock(entry)) && !(await this.#idleExpired(await this.#storedActivity(found[ACTIVITY_STORAGE_KEY], entry.unlockedAt, now), now))) return false;
      await this.#lockNow();
      return true;
    });
  }

  /**
   * The stored last activity (the unlock time when there is none). A time ahead of `now` means the
   * clock went back: the session idles from now, written back so the next reader agrees.
   */
  async #storedActivity(stored: unknown, unlockedAt: number, now: number): Promise<number> {
    const last = typeof stored === 'number' && Number.isFinite(stored) ? stored : unlockedAt;
    if (last <= now) return last;
    await this.#session.set({ [ACTIVITY_STORAGE_KEY]: now }).catch(() => undefined);
    return now;
  }

  async #idleExpired(lastActivity: number, now: number): Promise<boolean> {
    const timeout = await this.getIdleTimeout();
    return timeout !== 'never' && now - lastActivity >= timeout * 60_000;
  }

  /** Memory first (it cannot fail), then storage (see the header). */
  async #lockNow(): Promise<void> {
    const unlockedAt = this.#unlockedAt;
    this.#vault.lock();
    this.#forget();
    this.#clearPending = true;
    await this.#clearStored(unlockedAt);
  }

  /**
   * Tombstone, then remove. Resolves once no session entry can be resumed any more; rejects only
   * when neither storage.session nor the storage.local marker took a write.
   */
  async #clearStored(unlockedAt = 0): Promise<void> {
    let tombstoned = false;
    for (let attempt = 0; attempt < LOCK_WRITE_ATTEMPTS; attempt++) {
      tombstoned ||= await this.#session.set({ [SESSION_STORAGE_KEY]: LOCKED_TOMBSTONE }).then(
        () => true,
        () => false,
      );
      const removed = await this.#session.remove([SESSION_STORAGE_KEY, ACTIVITY_STORAGE_KEY]).then(
        () => true,
        () => false,
      );
      if (removed) {
        this.#clearPending = false;
        return;
      }
    }
    if (!tombstoned) {
      // Past the session's own unlock time too: a clock set back since would leave it after the marker.
      const stored = await this.#session.get([SESSION_STORAGE_KEY]).then(
        (found) => parseEntry(found[SESSION_STORAGE_KEY])?.unlockedAt ?? 0,
        () => 0,
      );
      await this.#local.set({ [LOCKED_AT_KEY]: Math.max(this.#now(), unlockedAt, stored) });
    }
  }

  /** A session entry from before a lock that could not remove it. */
  async #voidedByLock(entry: SessionEntry): Promise<boolean> {
    const lockedAt = (await this.#local.get([LOCKED_AT_KEY]))[LOCKED_AT_KEY];
    return typeof lockedAt === 'number' && entry.unlockedAt <= lockedAt;
  }

  /** Drops the decrypted secrets and tells the lock listeners. */
  #forget(): void {
    this.#secrets = null;
    this.#unlockedAt = 0;
    this.#lastActivity = 0;
    for (const listener of this.#lockListeners) {
      try {
        listener();
      } catch {
        // A listener's failure must not keep the session entry alive.
      }
    }
  }

  // ---- the idle setting (session-idle.ts) ----

  getIdleTimeout(): Promise<IdleTimeout> {
    return readIdleTimeout(this.#local);
  }

  setIdleTimeout(timeout: IdleTimeout): Promise<IdleTimeoutSetting> {
    return writeIdleTimeout(this.#local, timeout);
  }
}

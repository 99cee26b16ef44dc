// The vault: the recovery phrase and imported private keys, encrypted at rest in storage.local.
//
// Its stored format and migrations are in vault-format.ts, its cryptography in vault-crypto.ts.
//
// Writes: every record write is a single storage.set of the whole record, so a failed write leaves
// the previous record as it was. A write with a new password gets a new salt; every write gets a
// new 12-byte IV. Writes under the unlocked session key (`update`) keep the salt: the salt belongs
// to the password-derived key, and changing it needs the password.
import { ValidationError, WalletError } from '../core/errors.js';
import { wipe } from '../core/keys.js';
import { isRecord } from '../core/rpc.js';
import type { StorageArea, Stores } from './storage.js';
import {
  deriveFromPassword,
  equalConstantTime,
  importAesKey,
  KEY_BYTES,
  newPasswordKey,
  seal,
  subtle,
  unseal,
} from './vault-crypto.js';
import {
  copySecrets,
  decodeBase64,
  type KdfParams,
  MAX_PBKDF2_ITERATIONS,
  MIGRATIONS,
  migrateAndOpen,
  type NewVaultSecrets,
  normalizeSecrets,
  type OpenRecord,
  shapeError,
  VAULT_STORAGE_KEY,
  VAULT_VERSION,
  VaultCorruptError,
  type VaultRecord,
  type VaultSecrets,
} from './vault-format.js';

export {
  copySecrets,
  decodeBase64,
  encodeBase64,
  KDF_NAME,
  MAX_PBKDF2_ITERATIONS,
  migrate,
  MIGRATIONS,
  VAULT_STORAGE_KEY,
  VAULT_VERSION,
  VaultCorruptError,
} from './vault-format.js';
export type {
  ImportedKey,
  KdfParams,
  MigrationStep,
  NewVaultSecrets,
  VaultCorruptReason,
  VaultRecord,
  VaultSecrets,
} from './vault-format.js';

/** OWASP's current figure for PBKDF2-HMAC-SHA256. */
export const DEFAULT_PBKDF2_ITERATIONS = 600_000;
export const MIN_PASSWORD_LENGTH = 8;

// ---- errors ----

export class WrongPasswordError extends WalletError {
  /** `field`: the form field the password was typed into, where a form has more than one. */
  constructor(readonly field?: string) {
    super('wrong-password', 'the password is not correct');
  }
}

export class VaultLockedError extends WalletError {
  constructor(message = 'the wallet is locked') {
    super('vault-locked', message);
  }
}

export class VaultExistsError extends WalletError {
  constructor() {
    super('vault-exists', 'a wallet already exists; restoring from the recovery phrase replaces it explicitly');
  }
}

export class VaultMissingError extends WalletError {
  constructor() {
    super('vault-missing', 'no wallet has been created yet');
  }
}

// ---- passwords ----

function passwordText(password: unknown): string {
  if (typeof password !== 'string') throw new ValidationError('the password must be text', 'password');
  return password.normalize('NFC');
}

/** Refuses a password too short for a new vault, before anything is written (the vault checks it again). */
export function checkNewPassword(password: unknown): void {
  newPasswordText(password);
}

function newPasswordText(password: unknown): string {
  const text = passwordText(password);
  if ([...text].length < MIN_PASSWORD_LENGTH) {
    throw new ValidationError(`the password needs at least ${MIN_PASSWORD_LENGTH} characters`, 'password');
  }
  return text;
}

// ---- the vault ----

export interface VaultOptions {
  /**
   * TESTS ONLY: a lower PBKDF2 iteration count so that suites run fast. Production code never
   * passes it; the default is DEFAULT_PBKDF2_ITERATIONS.
   */
  kdfIterationsForTesting?: number;
  /** Clock for `createdAt`; defaults to Date.now. */
  now?: () => number;
}

interface UnlockedState {
  key: CryptoKey;
  kdf: KdfParams;
}

export class Vault {
  /** The PBKDF2 cost of every record this vault writes with a password. */
  readonly kdfIterations: number;
  readonly #local: StorageArea;
  readonly #now: () => number;
  #unlocked: UnlockedState | null = null;
  /** Bumped by lock(): an unlock requested before the user locked must not win. */
  #lockCount = 0;
  #tail: Promise<unknown> = Promise.resolve();

  constructor(stores: Stores, options: VaultOptions = {}) {
    const iterations = options.kdfIterationsForTesting ?? DEFAULT_PBKDF2_ITERATIONS;
    if (!Number.isInteger(iterations) || iterations < 1 || iterations > MAX_PBKDF2_ITERATIONS) {
      throw new ValidationError('PBKDF2 iteration count out of range', 'kdfIterations');
    }
    this.kdfIterations = iterations;
    this.#local = stores.local;
    this.#now = options.now ?? Date.now;
  }

  /** Runs operations one at a time, so two writes never interleave. */
  #serial<T>(op: () => Promise<T>): Promise<T> {
    const run = this.#tail.then(op, op);
    this.#tail = run.catch(() => undefined);
    return run;
  }

  async #readStored(): Promise<unknown> {
    return (await this.#local.get([VAULT_STORAGE_KEY]))[VAULT_STORAGE_KEY];
  }

  async #read(): Promise<{ open: OpenRecord; fromVersion: number }> {
    const stored = await this.#readStored();
    if (stored === undefined) throw new VaultMissingError();
    if (typeof stored !== 'string') throw shapeError('the stored value is not a JSON string');
    let parsed: unknown;
    try {
      parsed = JSON.parse(stored);
    } catch {
      throw new VaultCorruptError('json', 'the stored wallet is damaged: it is not valid JSON');
    }
    return migrateAndOpen(parsed, MIGRATIONS);
  }

  async #write(record: VaultRecord): Promise<void> {
    await this.#local.set({ [VAULT_STORAGE_KEY]: JSON.stringify(record) });
  }

  /** Derives from the password, checks it, and decrypts. Throws WrongPasswordError. */
  async #openWithPassword(password: string): Promise<{ state: UnlockedState; secrets: VaultSecrets; open: OpenRecord; fromVersion: number }> {
    const { open, fromVersion } = await this.#read();
    const derived = await deriveFromPassword(password, open.salt, open.iterations);
    const checked = equalConstantTime(derived.check, open.check);
    let key: CryptoKey;
    try {
      key = await importAesKey(derived.key);
    } finally {
      wipe(derived.key);
    }
    // A check that does not match is a wrong password, unless the key opens the record (its GCM
    // tag proves the password): then the check was damaged, and must not lock the user out.
    const secrets = await unseal(key, open).catch((e: unknown) => {
      throw checked || (e as VaultCorruptError).reason === 'plaintext' ? e : new WrongPasswordError();
    });
    return { state: { key, kdf: open.record.kdf }, secrets, open, fromVersion };
  }

  /** Keeps `state` unless lock() was called since the operation was requested (then it fails locked). */
  #adopt(state: UnlockedState, locksAtStart: number): void {
    if (locksAtStart !== this.#lockCount) throw new VaultLockedError('the wallet was locked while it was being unlocked');
    this.#unlocked = state;
  }

  async exists(): Promise<boolean> {
    return (await this.#readStored()) !== undefined;
  }

  isUnlocked(): boolean {
    return this.#unlocked !== null;
  }

  /**
   * Encrypts new secrets under the password and leaves the vault unlocked with them. Refuses
   * when a vault (even a damaged one) exists, unless `replace` (restore from the recovery phrase
   * after a forgotten password). Nothing is written unless everything validates.
   */
  create(password: string, secrets: NewVaultSecrets, options: { replace?: boolean } = {}): Promise<VaultSecrets> {
    const locks = this.#lockCount; // a lock() after this call wins over it
    return this.#serial(async () => {
      const pw = newPasswordText(password);
      const plain = normalizeSecrets({ ...(isRecord(secrets) ? secrets : {}), createdAt: this.#now() });
      if (options.replace !== true && (await this.exists())) throw new VaultExistsError();
      const state = await newPasswordKey(pw, this.kdfIterations);
      await this.#write(await seal(state.key, state.kdf, plain));
      this.#unlocked = locks === this.#lockCount ? state : null;
      return copySecrets(plain);
    });
  }

  /**
   * Decrypts with the password and keeps the key. A wrong password throws WrongPasswordError and
   * changes nothing, in storage or in memory. A record with an older format or a cheaper KDF than
   * this release writes is re-encrypted with the current settings (when that write fails the old
   * record, still valid, stays).
   */
  unlock(password: string): Promise<VaultSecrets> {
    const locks = this.#lockCount; // a lock() after this call wins over it
    return this.#serial(async () => {
      const pw = passwordText(password);
      const opened = await this.#openWithPassword(pw);
      let state = opened.state;
      const weakerKdf = opened.open.iterations < this.kdfIterations;
      if (weakerKdf || opened.fromVersion < VAULT_VERSION) {
        try {
          const next = weakerKdf ? await newPasswordKey(pw, this.kdfIterations) : state;
          await this.#write(await seal(next.key, next.kdf, opened.secrets));
          state = next;
        } catch {
          // The stored record is unchanged and still opens with `state`; upgrade next time.
        }
      }
      this.#adopt(state, locks);
      return copySecrets(opened.secrets);
    });
  }

  /**
   * Unlocks with a raw AES key kept by the session (after a service-worker restart). Throws
   * VaultCorruptError('auth') when the key does not open the stored record. The caller keeps
   * ownership of `rawKey` and wipes it.
   */
  unlockWithKey(rawKey: Uint8Array): Promise<VaultSecrets> {
    const locks = this.#lockCount; // a lock() after this call wins over it
    return this.#serial(async () => {
      const { open } = await this.#read();
      if (rawKey.length !== KEY_BYTES) throw new ValidationError(`a vault key has ${KEY_BYTES} bytes`, 'key');
      const own = new Uint8Array(rawKey);
      let key: CryptoKey;
      try {
        key = await importAesKey(own);
      } finally {
        wipe(own);
      }
      const secrets = await unseal(key, open);
      this.#adopt({ key, kdf: open.record.kdf }, locks);
      return secrets;
    });
  }

  /** The raw AES key of the unlocked vault, for the session to keep. The caller wipes it. */
  async exportKey(): Promise<Uint8Array> {
    const state = this.#unlocked;
    if (state === null) throw new VaultLockedError();
    return new Uint8Array(await subtle().exportKey('raw', state.key));
  }

  /**
   * Checks the password before revealing the recovery phrase or exporting a key. Throws
   * WrongPasswordError; never changes the lock state or storage. Unlocked, the password must derive
   * the key in use: a record swapped into storage by someone who can write it opens with theirs.
   */
  verifyPassword(password: string): Promise<void> {
    return this.#serial(async () => {
      const state = this.#unlocked;
      if (state === null) return void (await this.#openWithPassword(passwordText(password)));
      const derived = await deriveFromPassword(passwordText(password), decodeBase64(state.kdf.salt)!, state.kdf.iterations);
      const held = new Uint8Array(await subtle().exportKey('raw', state.key));
      try {
        if (!equalConstantTime(derived.key, held)) throw new WrongPasswordError();
      } finally {
        wipe(derived.key);
        wipe(held);
      }
    });
  }

  /**
   * Re-encrypts under a new password (new salt, new IV) in a single storage write. If the old
   * password is wrong, the new one too short, or the write fails, the stored record and the lock
   * state are as before. An unlocked vault stays unlocked, with the new key.
   */
  changePassword(oldPassword: string, newPassword: string): Promise<void> {
    return this.#serial(async () => {
      const next = newPasswordText(newPassword);
      const opened = await this.#openWithPassword(passwordText(oldPassword));
      const state = await newPasswordKey(next, this.kdfIterations);
      await this.#write(await seal(state.key, state.kdf, opened.secrets));
      // The old key no longer opens the record: keep the vault unlocked only under the new one.
      if (this.#unlocked !== null) this.#unlocked = state;
    });
  }

  /**
   * Replaces the secrets while unlocked (e.g. after importing a key), encrypted under the session
   * key with a fresh IV. Throws VaultLockedError when locked, or when the stored record is no
   * longer the one this key opened (the vault then locks); VaultCorruptError, writing nothing, when
   * the stored record is damaged.
   */
  update(secrets: VaultSecrets): Promise<VaultSecrets> {
    return this.#serial(async () => {
      const state = this.#unlocked;
      if (state === null) throw new VaultLockedError();
      const plain = normalizeSecrets(secrets);
      const { open } = await this.#read();
      if (open.record.kdf.salt !== state.kdf.salt || open.record.kdf.check !== state.kdf.check) {
        this.#unlocked = null;
        throw new VaultLockedError('the stored wallet changed since it was unlocked; unlock it again');
      }
      // Never write over a record that no longer opens: leave it for the user to see and restore.
      await unseal(state.key, open);
      await this.#write(await seal(state.key, state.kdf, plain));
      return copySecrets(plain);
    });
  }

  /** Drops the key. (A CryptoKey cannot be zeroed; no reference to it remains here.) */
  lock(): void {
    this.#unlocked = null;
    this.#lockCount++;
  }
}

// The vault: the recovery phrase and imported private keys, encrypted at rest in storage.local.
//
// Format (version 1), stored as one JSON string under VAULT_STORAGE_KEY:
//   { version: 1,
//     kdf:    { name: 'PBKDF2-SHA256', iterations, salt, check },
//     cipher: { name: 'AES-GCM', iv },
//     ciphertext }                       (salt, check, iv, ciphertext: base64)
//
// Key schedule: master = PBKDF2-HMAC-SHA256(password in NFC, salt 16 random bytes, iterations) →
// 32 bytes; then HKDF-SHA256 over the master splits it into the AES-256-GCM key and a 32-byte
// password check. The check lets a wrong password be told apart from a damaged record (without it,
// both only show as a failed GCM tag). It gives an attacker nothing the ciphertext does not: each
// guess still costs the full PBKDF2 run.
//
// Writes: every record write is a single storage.set of the whole record, so a failed write leaves
// the previous record as it was. A write with a new password gets a new salt; every write gets a
// new 12-byte IV. Writes under the unlocked session key (`update`) keep the salt: the salt belongs
// to the password-derived key, and changing it needs the password.
//
// Migration: records carry a version. `migrate` turns an older record into the current version one
// step at a time through MIGRATIONS (step n: version n → n + 1), and refuses versions it does not
// know (a newer release wrote them) without touching storage. Changing the KDF or its cost is not a
// format step, since it needs the password: `unlock` re-encrypts under the current KDF settings when
// the record's are weaker, so a later release that raises the cost or adds a KDF name upgrades each
// vault on its next unlock.
import { toHex } from '../core/bytes.js';
import { ValidationError, WalletError } from '../core/errors.js';
import { normalizeMnemonic, parseSecretKey, wipe } from '../core/keys.js';
import type { StorageArea, Stores } from './storage.js';

export const VAULT_STORAGE_KEY = 'xpc.vault';
export const VAULT_VERSION = 1;
export const KDF_NAME = 'PBKDF2-SHA256';
/** OWASP's current figure for PBKDF2-HMAC-SHA256. */
export const DEFAULT_PBKDF2_ITERATIONS = 600_000;
/** Refused when reading: a tampered iteration count must not hang the background. */
export const MAX_PBKDF2_ITERATIONS = 10_000_000;
export const MIN_PASSWORD_LENGTH = 8;

const SALT_BYTES = 16;
const IV_BYTES = 12;
const KEY_BYTES = 32;
const CHECK_BYTES = 32;
const TAG_BYTES = 16;
const KEY_INFO = 'xpc-vault aes-256-gcm key';
const CHECK_INFO = 'xpc-vault password check';

// ---- errors ----

export class WrongPasswordError extends WalletError {
  /** `field`: the form field the password was typed into, where a form has more than one. */
  constructor(readonly field?: string) {
    super('wrong-password', 'the password is not correct');
  }
}

/**
 * The stored vault cannot be read, and the password is not the reason.
 *  - json: the stored value is not JSON;        - shape: a field is missing or malformed;
 *  - version: a format this release does not know (newer, or no migration from it);
 *  - auth: the password is right but the ciphertext fails its GCM tag (damaged or tampered);
 *  - plaintext: the decrypted content is not a valid secrets object.
 */
export type VaultCorruptReason = 'json' | 'shape' | 'version' | 'auth' | 'plaintext';

export class VaultCorruptError extends WalletError {
  constructor(
    readonly reason: VaultCorruptReason,
    message: string,
  ) {
    super('vault-corrupt', message);
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

// ---- secrets (the plaintext) ----

export interface ImportedKey {
  id: string;
  name: string;
  /** 64 lowercase hex digits. */
  secretHex: string;
}

export interface VaultSecrets {
  mnemonic?: string;
  importedKeys: ImportedKey[];
  /** Milliseconds since the epoch. */
  createdAt: number;
}

/** What `create` takes: `createdAt` is set by the vault. */
export interface NewVaultSecrets {
  mnemonic?: string;
  importedKeys?: ImportedKey[];
}

const MAX_ID_LENGTH = 128;
const MAX_NAME_LENGTH = 128;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Validates and canonicalizes secrets (ValidationError / FormatError); drops unknown fields. */
function normalizeSecrets(input: unknown): VaultSecrets {
  if (!isRecord(input)) throw new ValidationError('wallet secrets must be an object', 'secrets');
  const { mnemonic, importedKeys, createdAt } = input;
  const out: VaultSecrets = { importedKeys: [], createdAt: 0 };
  if (mnemonic !== undefined) {
    if (typeof mnemonic !== 'string') throw new ValidationError('the recovery phrase must be text', 'mnemonic');
    out.mnemonic = normalizeMnemonic(mnemonic);
  }
  if (importedKeys !== undefined) {
    if (!Array.isArray(importedKeys)) throw new ValidationError('importedKeys must be a list', 'importedKeys');
    const ids = new Set<string>();
    for (const [i, key] of importedKeys.entries()) {
      if (!isRecord(key)) throw new ValidationError(`imported key ${i + 1} is not an object`, 'importedKeys');
      const { id, name, secretHex } = key;
      if (typeof id !== 'string' || id === '' || id.length > MAX_ID_LENGTH) {
        throw new ValidationError(`imported key ${i + 1} needs an id of 1 to ${MAX_ID_LENGTH} characters`, 'importedKeys');
      }
      if (ids.has(id)) throw new ValidationError(`imported key id "${id.slice(0, 32)}" is used twice`, 'importedKeys');
      ids.add(id);
      if (typeof name !== 'string' || name.length > MAX_NAME_LENGTH) {
        throw new ValidationError(`imported key ${i + 1} needs a name of at most ${MAX_NAME_LENGTH} characters`, 'importedKeys');
      }
      if (typeof secretHex !== 'string' || !/^(0x)?[0-9a-fA-F]{64}$/.test(secretHex)) {
        // Never echo the value: it may be (most of) a private key.
        throw new ValidationError(`imported key ${i + 1} is not 64 hex digits`, 'importedKeys');
      }
      const secret = parseSecretKey(secretHex); // range check; FormatError names no key material
      out.importedKeys.push({ id, name, secretHex: toHex(secret) });
      wipe(secret);
    }
  }
  if (createdAt !== undefined) {
    if (typeof createdAt !== 'number' || !Number.isFinite(createdAt) || createdAt < 0) {
      throw new ValidationError('createdAt must be a time in milliseconds', 'createdAt');
    }
    out.createdAt = createdAt;
  }
  if (out.mnemonic === undefined && out.importedKeys.length === 0) {
    throw new ValidationError('a wallet needs a recovery phrase or at least one imported key', 'secrets');
  }
  return out;
}

/** A copy of `s` that shares no object with it (the keys list and each key are new). */
export function copySecrets(s: VaultSecrets): VaultSecrets {
  const out: VaultSecrets = { importedKeys: s.importedKeys.map((k) => ({ ...k })), createdAt: s.createdAt };
  if (s.mnemonic !== undefined) out.mnemonic = s.mnemonic;
  return out;
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

// ---- encoding ----

/** Standard base64 with padding. */
export function encodeBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]!);
  return btoa(binary);
}

/** Strict standard base64 with padding; null when the text is not that. */
export function decodeBase64(text: string): Uint8Array<ArrayBuffer> | null {
  if (text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return null;
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    return null;
  }
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

const utf8 = (text: string): Uint8Array<ArrayBuffer> => new TextEncoder().encode(text);

function randomBytes(n: number): Uint8Array<ArrayBuffer> {
  return crypto.getRandomValues(new Uint8Array(n));
}

function equalConstantTime(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

// ---- the stored record and its migrations ----

export interface KdfParams {
  name: typeof KDF_NAME;
  iterations: number;
  salt: string;
  check: string;
}

export interface VaultRecord {
  version: typeof VAULT_VERSION;
  kdf: KdfParams;
  cipher: { name: 'AES-GCM'; iv: string };
  ciphertext: string;
}

/** Turns a record of version n (the key) into one of version n + 1. */
export type MigrationStep = (record: Record<string, unknown>) => Record<string, unknown>;

/** Empty while version 1 is the only format; a v2 adds `1: (v1) => v2` here. */
export const MIGRATIONS: Readonly<Record<number, MigrationStep>> = {};

/** A validated record with its byte fields decoded. */
interface OpenRecord {
  record: VaultRecord;
  iterations: number;
  salt: Uint8Array<ArrayBuffer>;
  check: Uint8Array<ArrayBuffer>;
  iv: Uint8Array<ArrayBuffer>;
  ciphertext: Uint8Array<ArrayBuffer>;
}

function shapeError(what: string): VaultCorruptError {
  return new VaultCorruptError('shape', `the stored wallet is damaged: ${what}`);
}

function bytesField(value: unknown, what: string, length?: number): Uint8Array<ArrayBuffer> {
  const bytes = typeof value === 'string' ? decodeBase64(value) : null;
  if (bytes === null) throw shapeError(`${what} is not base64`);
  if (length !== undefined && bytes.length !== length) throw shapeError(`${what} has ${bytes.length} bytes, not ${length}`);
  return bytes;
}

/** Checks a current-version record field by field and decodes it. */
function openRecord(value: unknown): OpenRecord {
  if (!isRecord(value)) throw shapeError('the record is not an object');
  if (value.version !== VAULT_VERSION) throw shapeError(`version ${String(value.version)} after migration`);
  const { kdf, cipher, ciphertext } = value;
  if (!isRecord(kdf)) throw shapeError('kdf is missing');
  if (kdf.name !== KDF_NAME) throw shapeError(`unknown key derivation "${String(kdf.name).slice(0, 32)}"`);
  const iterations = kdf.iterations;
  if (typeof iterations !== 'number' || !Number.isInteger(iterations) || iterations < 1 || iterations > MAX_PBKDF2_ITERATIONS) {
    throw shapeError('the iteration count is out of range');
  }
  if (!isRecord(cipher) || cipher.name !== 'AES-GCM') throw shapeError('the cipher is not AES-GCM');
  const salt = bytesField(kdf.salt, 'the salt', SALT_BYTES);
  const check = bytesField(kdf.check, 'the password check', CHECK_BYTES);
  const iv = bytesField(cipher.iv, 'the IV', IV_BYTES);
  const ct = bytesField(ciphertext, 'the ciphertext');
  if (ct.length < TAG_BYTES) throw shapeError('the ciphertext is shorter than its authentication tag');
  const record: VaultRecord = {
    version: VAULT_VERSION,
    kdf: { name: KDF_NAME, iterations, salt: kdf.salt as string, check: kdf.check as string },
    cipher: { name: 'AES-GCM', iv: cipher.iv as string },
    ciphertext: ciphertext as string,
  };
  return { record, iterations, salt, check, iv, ciphertext: ct };
}

/**
 * Brings a parsed stored record to the current version and validates it. Unknown versions (newer
 * than this release, or older without a step) and malformed records throw VaultCorruptError; the
 * record passed in is not modified. `steps` is there for tests of the mechanism.
 */
export function migrate(
  record: unknown,
  steps: Readonly<Record<number, MigrationStep>> = MIGRATIONS,
): VaultRecord {
  return migrateAndOpen(record, steps).open.record;
}

function migrateAndOpen(
  record: unknown,
  steps: Readonly<Record<number, MigrationStep>>,
): { open: OpenRecord; fromVersion: number } {
  if (!isRecord(record)) throw shapeError('the record is not an object');
  const fromVersion = record.version;
  if (typeof fromVersion !== 'number' || !Number.isInteger(fromVersion)) throw shapeError('the version is missing');
  if (fromVersion > VAULT_VERSION) {
    throw new VaultCorruptError(
      'version',
      `the stored wallet has format version ${fromVersion}, written by a newer XPC Wallet; this one reads up to version ${VAULT_VERSION}`,
    );
  }
  let current: Record<string, unknown> = structuredClone(record);
  for (let v = fromVersion; v < VAULT_VERSION; v++) {
    const step = steps[v];
    if (step === undefined) {
      throw new VaultCorruptError('version', `the stored wallet has format version ${fromVersion}, which this release cannot read`);
    }
    try {
      current = step(current);
    } catch {
      throw shapeError(`the version ${v} record could not be upgraded`);
    }
    if (!isRecord(current) || current.version !== v + 1) throw shapeError(`upgrading version ${v} did not give version ${v + 1}`);
  }
  return { open: openRecord(current), fromVersion };
}

// ---- cryptography ----

const subtle = (): SubtleCrypto => crypto.subtle;

/** The raw AES key and the password check for a password. The caller wipes `key`. */
async function deriveFromPassword(
  password: string,
  salt: Uint8Array<ArrayBuffer>,
  iterations: number,
): Promise<{ key: Uint8Array<ArrayBuffer>; check: Uint8Array<ArrayBuffer> }> {
  const pw = utf8(password);
  let master: Uint8Array<ArrayBuffer> | null = null;
  try {
    const base = await subtle().importKey('raw', pw, 'PBKDF2', false, ['deriveBits']);
    master = new Uint8Array(
      await subtle().deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations }, base, KEY_BYTES * 8),
    );
    const hkdf = await subtle().importKey('raw', master, 'HKDF', false, ['deriveBits']);
    const expand = async (info: string, bytes: number): Promise<Uint8Array<ArrayBuffer>> =>
      new Uint8Array(
        await subtle().deriveBits({ name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: utf8(info) }, hkdf, bytes * 8),
      );
    return { key: await expand(KEY_INFO, KEY_BYTES), check: await expand(CHECK_INFO, CHECK_BYTES) };
  } finally {
    wipe(pw, master);
  }
}

/** Extractable, because the session keeps a copy of it in storage.session. */
async function importAesKey(raw: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  return subtle().importKey('raw', raw, { name: 'AES-GCM' }, true, ['encrypt', 'decrypt']);
}

async function seal(key: CryptoKey, kdf: KdfParams, secrets: VaultSecrets): Promise<VaultRecord> {
  const iv = randomBytes(IV_BYTES);
  const plain = utf8(JSON.stringify(secrets));
  try {
    const ct = new Uint8Array(await subtle().encrypt({ name: 'AES-GCM', iv }, key, plain));
    return { version: VAULT_VERSION, kdf, cipher: { name: 'AES-GCM', iv: encodeBase64(iv) }, ciphertext: encodeBase64(ct) };
  } finally {
    wipe(plain);
  }
}

async function unseal(key: CryptoKey, open: OpenRecord): Promise<VaultSecrets> {
  let plain: Uint8Array<ArrayBuffer>;
  try {
    plain = new Uint8Array(await subtle().decrypt({ name: 'AES-GCM', iv: open.iv }, key, open.ciphertext));
  } catch {
    throw new VaultCorruptError('auth', 'the stored wallet is damaged: its contents fail their integrity check');
  }
  try {
    return normalizeSecrets(JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(plain)));
  } catch {
    throw new VaultCorruptError('plaintext', 'the stored wallet is damaged: its decrypted contents are not valid');
  } finally {
    wipe(plain);
  }
}

/** A fresh salt, the key derived from it, and the KDF parameters that record both. */
async function newPasswordKey(password: string, iterations: number): Promise<{ key: CryptoKey; kdf: KdfParams }> {
  const salt = randomBytes(SALT_BYTES);
  const derived = await deriveFromPassword(password, salt, iterations);
  try {
    const key = await importAesKey(derived.key);
    return { key, kdf: { name: KDF_NAME, iterations, salt: encodeBase64(salt), check: encodeBase64(derived.check) } };
  } finally {
    wipe(derived.key);
  }
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
    let key: CryptoKey;
    try {
      if (!equalConstantTime(derived.check, open.check)) throw new WrongPasswordError();
      key = await importAesKey(derived.key);
    } finally {
      wipe(derived.key);
    }
    const secrets = await unseal(key, open);
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
   * Checks the password against the stored vault (for revealing the recovery phrase or exporting a
   * key). Throws WrongPasswordError; never changes the lock state or storage.
   */
  verifyPassword(password: string): Promise<void> {
    return this.#serial(async () => {
      await this.#openWithPassword(passwordText(password));
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

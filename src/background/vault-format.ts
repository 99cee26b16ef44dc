// The vault's stored format: the record, its validation and migrations, and the secrets it holds.
//
// Format (version 1), stored as one JSON string under VAULT_STORAGE_KEY:
//   { version: 1,
//     kdf:    { name: 'PBKDF2-SHA256', iterations, salt, check },
//     cipher: { name: 'AES-GCM', iv },
//     ciphertext }                       (salt, check, iv, ciphertext: base64)
//
// Migration: records carry a version. `migrate` turns an older record into the current version one
// step at a time through MIGRATIONS (step n: version n → n + 1), and refuses versions it does not
// know (a newer release wrote them) without touching storage. Changing the KDF or its cost is not a
// format step, since it needs the password: `Vault.unlock` re-encrypts under the current KDF
// settings when the record's are weaker, so a later release that raises the cost or adds a KDF
// name upgrades each vault on its next unlock.
import { toHex } from '../core/bytes.js';
import { ValidationError, WalletError } from '../core/errors.js';
import { normalizeMnemonic, parseSecretKey, wipe } from '../core/keys.js';
import { isRecord } from '../core/rpc.js';

export const VAULT_STORAGE_KEY = 'xpc.vault';
export const VAULT_VERSION = 1;
export const KDF_NAME = 'PBKDF2-SHA256';
/** Refused when reading: a tampered iteration count must not hang the background. */
export const MAX_PBKDF2_ITERATIONS = 10_000_000;

export const SALT_BYTES = 16;
export const IV_BYTES = 12;
export const CHECK_BYTES = 32;
const TAG_BYTES = 16;

// ---- errors ----

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

/** Validates and canonicalizes secrets (ValidationError / FormatError); drops unknown fields. */
export function normalizeSecrets(input: unknown): VaultSecrets {
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
export interface OpenRecord {
  record: VaultRecord;
  iterations: number;
  salt: Uint8Array<ArrayBuffer>;
  check: Uint8Array<ArrayBuffer>;
  iv: Uint8Array<ArrayBuffer>;
  ciphertext: Uint8Array<ArrayBuffer>;
}

export function shapeError(what: string): VaultCorruptError {
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

export function migrateAndOpen(
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

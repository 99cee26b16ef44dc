// The vault's cryptography: the key schedule from the password, and sealing and opening the record.
//
// Key schedule: master = PBKDF2-HMAC-SHA256(password in NFC, salt 16 random bytes, iterations) →
// 32 bytes; then HKDF-SHA256 over the master splits it into the AES-256-GCM key and a 32-byte
// password check. The check lets a wrong password be told apart from a damaged record (without it,
// both only show as a failed GCM tag). It gives an attacker nothing the ciphertext does not: each
// guess still costs the full PBKDF2 run.
import { wipe } from '../core/keys.js';
import {
  CHECK_BYTES,
  encodeBase64,
  IV_BYTES,
  KDF_NAME,
  type KdfParams,
  normalizeSecrets,
  type OpenRecord,
  SALT_BYTES,
  VAULT_VERSION,
  VaultCorruptError,
  type VaultRecord,
  type VaultSecrets,
} from './vault-format.js';

export const KEY_BYTES = 32;
const KEY_INFO = 'xpc-vault aes-256-gcm key';
const CHECK_INFO = 'xpc-vault password check';

const utf8 = (text: string): Uint8Array<ArrayBuffer> => new TextEncoder().encode(text);

function randomBytes(n: number): Uint8Array<ArrayBuffer> {
  return crypto.getRandomValues(new Uint8Array(n));
}

export function equalConstantTime(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

export const subtle = (): SubtleCrypto => crypto.subtle;

/** The raw AES key and the password check for a password. The caller wipes `key`. */
export async function deriveFromPassword(
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
export async function importAesKey(raw: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  return subtle().importKey('raw', raw, { name: 'AES-GCM' }, true, ['encrypt', 'decrypt']);
}

export async function seal(key: CryptoKey, kdf: KdfParams, secrets: VaultSecrets): Promise<VaultRecord> {
  const iv = randomBytes(IV_BYTES);
  const plain = utf8(JSON.stringify(secrets));
  try {
    const ct = new Uint8Array(await subtle().encrypt({ name: 'AES-GCM', iv }, key, plain));
    return { version: VAULT_VERSION, kdf, cipher: { name: 'AES-GCM', iv: encodeBase64(iv) }, ciphertext: encodeBase64(ct) };
  } finally {
    wipe(plain);
  }
}

export async function unseal(key: CryptoKey, open: OpenRecord): Promise<VaultSecrets> {
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
export async function newPasswordKey(password: string, iterations: number): Promise<{ key: CryptoKey; kdf: KdfParams }> {
  const salt = randomBytes(SALT_BYTES);
  const derived = await deriveFromPassword(password, salt, iterations);
  try {
    const key = await importAesKey(derived.key);
    return { key, kdf: { name: KDF_NAME, iterations, salt: encodeBase64(salt), check: encodeBase64(derived.check) } };
  } finally {
    wipe(derived.key);
  }
}

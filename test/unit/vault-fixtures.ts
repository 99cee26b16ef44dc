// Shared by vault.test.ts and vault-records.test.ts: passwords, keys, a vault at a low KDF cost, and
// a check that a failed operation left storage.local unchanged.
import { expect } from 'vitest';
import { generateMnemonic } from '../../src/core/keys.js';
import { memoryStores, type MemoryStores } from '../../src/background/storage.js';
import { Vault, VAULT_STORAGE_KEY, type VaultRecord } from '../../src/background/vault.js';

// Low cost so the suite runs fast; the production default is asserted separately in vault.test.ts.
export const ITER = 1000;
export const PASSWORD = 'correct horse battery';
export const OTHER_PASSWORD = 'another long password';
export const KEY_A = 'aa'.repeat(31) + '01';
export const KEY_B = '0x' + 'BB'.repeat(31) + '02';

export function setup(): { stores: MemoryStores; vault: Vault; mnemonic: string } {
  const stores = memoryStores();
  return { stores, vault: new Vault(stores, { kdfIterationsForTesting: ITER }), mnemonic: generateMnemonic(24) };
}

export function freshVault(stores: MemoryStores, iterations = ITER): Vault {
  return new Vault(stores, { kdfIterationsForTesting: iterations });
}

export async function storedRecord(stores: MemoryStores): Promise<VaultRecord> {
  const value = (await stores.local.get([VAULT_STORAGE_KEY]))[VAULT_STORAGE_KEY];
  expect(typeof value).toBe('string');
  return JSON.parse(value as string) as VaultRecord;
}

/** Runs `op`, expects it to reject with `type`, and checks that storage.local did not change. */
export async function rejectsUnchanged<E extends Error>(
  stores: MemoryStores,
  op: () => Promise<unknown>,
  type: new (...args: never[]) => E,
): Promise<E> {
  const before = stores.local.dump();
  const error = await op().then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(type);
  expect(stores.local.dump()).toBe(before);
  return error as E;
}

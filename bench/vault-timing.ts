// Section 4, timing in Node: the vault's create and unlock at the default PBKDF2 cost (memory
// storage), next to PBKDF2 alone with Node's WebCrypto. In Chromium: popup-timing.ts.
import { DEFAULT_PBKDF2_ITERATIONS, Vault } from '../src/background/vault.js';
import { memoryStores } from '../src/background/storage.js';
import { generateMnemonic } from '../src/core/keys.js';
import { statsOf, type Stats } from './measure.js';
import { type Log, PASSWORD } from './popup-wallet.js';

export const UNLOCKS = 5;

export interface VaultTiming {
  unlock: Stats;
  create: Stats;
  /** PBKDF2-SHA256 alone, same iterations, Node's WebCrypto. */
  pbkdf2: Stats;
  iterations: number;
}

async function pbkdf2Node(iterations: number): Promise<number> {
  const t = performance.now();
  const base = await crypto.subtle.importKey('raw', new TextEncoder().encode('bench password'), 'PBKDF2', false, ['deriveBits']);
  await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt: crypto.getRandomValues(new Uint8Array(16)), iterations }, base, 256);
  return performance.now() - t;
}

/** UNLOCKS rounds: a new vault in memory storage (create, timed), lock, unlock (timed); then PBKDF2 alone. */
export async function vaultTimingNode(log: Log): Promise<VaultTiming> {
  const unlock: number[] = [];
  const create: number[] = [];
  const pbkdf2: number[] = [];
  for (let i = 0; i < UNLOCKS; i++) {
    const vault = new Vault(memoryStores());
    let t = performance.now();
    await vault.create(PASSWORD, { mnemonic: generateMnemonic(24) });
    create.push(performance.now() - t);
    vault.lock();
    t = performance.now();
    await vault.unlock(PASSWORD);
    unlock.push(performance.now() - t);
    if (!vault.isUnlocked()) throw new Error('the vault did not unlock');
  }
  for (let i = 0; i < UNLOCKS; i++) pbkdf2.push(await pbkdf2Node(DEFAULT_PBKDF2_ITERATIONS));
  const r = { unlock: statsOf(unlock), create: statsOf(create), pbkdf2: statsOf(pbkdf2), iterations: DEFAULT_PBKDF2_ITERATIONS };
  log(`vault in Node: unlock median ${r.unlock.median.toFixed(0)} ms, create ${r.create.median.toFixed(0)} ms, PBKDF2 alone ${r.pbkdf2.median.toFixed(0)} ms`);
  return r;
}

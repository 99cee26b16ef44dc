// The session's shared world: one storage, a clock the test moves, and new workers (fresh Vault and
// Session objects) over them; for the tests of what storage.session holds and of locking.
import { generateMnemonic } from '../../src/core/keys.js';
import { memoryStores, type MemoryStores } from '../../src/background/storage.js';
import { Session } from '../../src/background/session.js';
import { Vault } from '../../src/background/vault.js';

const ITER = 1000;
export const PASSWORD = 'correct horse battery';
export const NEW_PASSWORD = 'a different passphrase';
export const KEY_HEX = '5a'.repeat(31) + '0f';
export const MINUTE = 60_000;

export interface World {
  stores: MemoryStores;
  clock: { t: number };
  /** A new background: fresh Vault and Session objects over the same storage. */
  worker(): { vault: Vault; session: Session };
}

export function world(): World {
  const stores = memoryStores();
  const clock = { t: 1_700_000_000_000 };
  const now = (): number => clock.t;
  return {
    stores,
    clock,
    worker() {
      const vault = new Vault(stores, { kdfIterationsForTesting: ITER, now });
      return { vault, session: new Session(vault, stores, { now }) };
    },
  };
}

export async function unlockedWorld(): Promise<World & { session: Session; vault: Vault; mnemonic: string }> {
  const w = world();
  const { vault, session } = w.worker();
  const mnemonic = generateMnemonic(24);
  await session.create(PASSWORD, { mnemonic, importedKeys: [{ id: 'k', name: 'Imported', secretHex: KEY_HEX }] });
  return { ...w, vault, session, mnemonic };
}

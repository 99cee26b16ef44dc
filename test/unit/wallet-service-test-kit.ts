// The wallet service (createWallet) over memory storage, with a session that derives its vault key
// quickly; for the tests that drive it as the router does.
import { Session } from '../../src/background/session.js';
import { memoryStores } from '../../src/background/storage.js';
import { Vault } from '../../src/background/vault.js';
import { createWallet } from '../../src/background/services/index.js';

export function service() {
  const stores = memoryStores();
  const session = new Session(new Vault(stores, { kdfIterationsForTesting: 1_000 }), stores);
  return { stores, wallet: createWallet(session, stores.local) };
}

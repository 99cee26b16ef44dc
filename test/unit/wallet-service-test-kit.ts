// The wallet service (createWallet) over memory storage, with a session that derives its vault key
// quickly; for the tests that drive it as the router does.
import { expect } from 'vitest';
import { Session } from '../../src/background/session.js';
import { memoryStores } from '../../src/background/storage.js';
import { Vault } from '../../src/background/vault.js';
import { createWallet } from '../../src/background/services/index.js';
import type { RestoreWouldDropError } from '../../src/background/services/accounts-restore.js';
import type { RestoreLoss } from '../../src/shared/messages.js';

export function service() {
  const stores = memoryStores();
  const session = new Session(new Vault(stores, { kdfIterationsForTesting: 1_000 }), stores);
  return { stores, session, wallet: createWallet(session, stores.local) };
}

/** What a refused restore's warning showed: its counts, and the names a Confirm sends back. */
export async function refusedRestore(restoring: Promise<unknown>): Promise<RestoreLoss> {
  const refusal = await restoring.then(
    () => expect.fail('the restore went through without asking'),
    (e: unknown) => e,
  );
  expect(refusal).toMatchObject({ code: 'restore-would-drop' });
  return (refusal as RestoreWouldDropError).restoreLoss;
}

// What a restore reads before it replaces the vault (the accounts service calls these): the private
// key typed (an import reads it the same way), what the old vault would lose, and how many of the
// phrase's accounts were used. Apart from accounts.ts so the service keeps to the vault's changes.
import { toHex, type Bytes } from '../../core/bytes.js';
import { FormatError, ValidationError } from '../../core/errors.js';
import { HdRoot, mnemonicToSeed, parseSecretKey, wipe } from '../../core/keys.js';
import type { RestoreLoss } from '../../shared/messages.js';
import { entryJournalKey, entryOutboxKey, perChainsKeys } from '../account-cache.js';
import { sendsInTheWay } from '../outbox.js';
import type { Session } from '../session.js';
import { type AccountRecord, emptyState, networkIdsOf, newId, type SettingsStore } from '../settings.js';
import type { StorageArea } from '../storage.js';
import type { NewVaultSecrets } from '../vault.js';
import { foundAccounts } from './accounts-found.js';
import type { NetworksService } from './networks.js';
import type { TransfersService } from './transfers.js';

/** How many of the phrase's accounts have been used, asked of the selected network's node. */
export async function usedAccounts(mnemonic: string, settings: SettingsStore, networks: NetworksService): Promise<{ count: number; complete: boolean }> {
  const seed = await mnemonicToSeed(mnemonic);
  const root = HdRoot.fromSeed(seed);
  wipe(seed);
  try {
    return await foundAccounts(async () => {
      const s = await settings.readOrEmpty();
      const preset = networks.presetOf(s, s.selectedNetworkId);
      return { client: networks.client(preset), hrp: await networks.hrpOf(preset) };
    }, root);
  } finally {
    root.wipe();
  }
}

/** What a restore would drop, and what it is made of by ID: imported keys, undecided sends, unfinished moves. */
export interface CountedLoss {
  loss: RestoreLoss;
  ids: string[];
}

/** What replacing the vault would drop that the recovery phrase (or the key) cannot bring back. */
export async function restoreLoss(fromPhrase: boolean, session: Session, settings: SettingsStore, local: StorageArea, transfers: TransfersService, vaultExists: () => Promise<boolean>): Promise<CountedLoss> {
  // Unreadable settings name no accounts: the restore is still a way out of that state, but what it
  // drops is not known then (an unlock would rebuild the list instead), so it is asked about.
  const readable = await settings.read().then(
    (s) => s,
    () => null,
  );
  const s = readable ?? emptyState();
  // Locked, only the settings say what the vault holds.
  const secrets = session.isUnlocked() ? session.secrets() : undefined;
  const keyIds = s.accounts.flatMap((a) => (a.kind === 'imported' ? [a.keyId] : []));
  const vaultKeyIds = secrets?.importedKeys.map((k) => k.id) ?? [];
  const unknown = readable === null && (await vaultExists());
  const phraseAccounts = s.accounts.filter((a) => a.kind === 'hd').length;
  // A key over a wallet with a phrase drops the phrase, even with none of its accounts listed
  // (they were removed): the settings say so without the vault (an HD index was ever given).
  const hasPhrase = secrets ? secrets.mnemonic !== undefined : s.nextHdIndex > 0 || phraseAccounts > 0;
  const perChains = await perChainsKeys(local, s.accounts.map((a) => a.id));
  const perEntry = (key: (networkId: string, accountId: string) => string) => s.accounts.flatMap((a) => networkIdsOf(s).map((n) => key(n, a.id)));
  const sends = await sendsInTheWay(local, [...perChains.outboxes, ...perEntry(entryOutboxKey)]);
  const moves = await transfers.unfinishedIn([...perChains.journals, ...perEntry(entryJournalKey)]);
  const loss = {
    importedKeys: Math.max(keyIds.length, vaultKeyIds.length),
    ...(!fromPhrase && hasPhrase ? { phraseAccounts } : {}),
    unfinishedTransfers: moves.length,
    ...(sends.length > 0 ? { undecidedSends: sends.length } : {}),
    ...(unknown ? { unknown: true as const } : {}),
  };
  return { loss, ids: [...keyIds, ...vaultKeyIds, ...sends, ...moves] };
}

/** A private key typed by the user, or a refusal in words (core's name CB58 and the curve order). */
export function parseKey(text: string): Bytes {
  try {
    return parseSecretKey(text);
  } catch (e) {
    if (!(e instanceof FormatError)) throw e;
    const typo = /checksum/.test(e.message);
    throw new ValidationError(typo ? 'this private key has a typo: a character is wrong, missing or extra' : 'this is not a private key: it is PrivateKey-… or 64 hex digits, copied whole', 'privateKey');
  }
}

/** A vault of one private key, and its account. */
export function keyWallet(secret: Bytes, name: string): { accounts: AccountRecord[]; secrets: NewVaultSecrets } {
  const keyId = newId();
  return { accounts: [{ id: newId(), name, kind: 'imported', keyId }], secrets: { importedKeys: [{ id: keyId, name, secretHex: toHex(secret) }] } };
}

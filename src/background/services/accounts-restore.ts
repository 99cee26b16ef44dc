// What a restore reads before it replaces the vault (the accounts service calls these): the private
// key typed (an import reads it the same way), what the old vault would lose, and how many of the
// phrase's accounts were used, and the refusal that names that loss. Apart from accounts.ts so the
// service keeps to the vault's changes.
import { sha256 } from '@noble/hashes/sha2.js';
import { concatBytes, fromHex, toHex, type Bytes, utf8 } from '../../core/bytes.js';
import { FormatError, ValidationError, WalletError } from '../../core/errors.js';
import { isRecord } from '../../core/rpc.js';
import { deriveXpKey, HdRoot, keyPairFromSecret, type KeyPair, mnemonicToSeed, parseSecretKey, wipe } from '../../core/keys.js';
import { MAX_LOSS_NAME_LENGTH, RESTORE_WOULD_DROP, type RestoreLoss } from '../../shared/messages.js';
import { accountStorageKeys, entryJournalKey, entryOutboxKey, perChainsKeys } from '../account-cache.js';
import { sendsInTheWay, sendsInTheWayOf } from '../outbox.js';
import type { Session } from '../session.js';
import { type AccountRecord, emptyState, networkIdsOf, newId, type PersistedState, type SettingsStore } from '../settings.js';
import type { StorageArea } from '../storage.js';
import type { NewVaultSecrets } from '../vault.js';
import { foundAccounts } from './accounts-found.js';
import type { NetworksService } from './networks.js';
import type { TransfersService } from './transfers.js';

/**
 * A phrase told apart from others without it: 8 bytes of a hash of its first X/P address's short
 * ID (what any of its transactions shows, so nothing an address does not already say).
 */
export function phraseTagOf(root: HdRoot): string {
  const key = deriveXpKey(root, 0, 0, 0);
  return toHex(sha256(concatBytes(utf8.encode('xpc-wallet phrase tag'), key.shortId)).slice(0, 8));
}

/** phraseTagOf a phrase typed, its seed and keys wiped once read. */
export async function phraseTag(mnemonic: string): Promise<string> {
  const seed = await mnemonicToSeed(mnemonic);
  const root = HdRoot.fromSeed(seed);
  wipe(seed);
  try {
    return phraseTagOf(root);
  } finally {
    root.wipe();
  }
}

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

/** What the vault itself says a restore drops: read while unlocked, kept for a count made after the lock. */
export interface VaultLoss {
  keyIds: string[];
  hasPhrase: boolean;
}

/** `restoring`: the phrase a restore brings (the vault's own, when it is that one, is not lost). */
export function vaultLoss(session: Session, restoring?: string): VaultLoss | undefined {
  if (!session.isUnlocked()) return undefined;
  const secrets = session.secrets();
  return { keyIds: secrets.importedKeys.map((k) => k.id), hasPhrase: secrets.mnemonic !== undefined && secrets.mnemonic !== restoring };
}

/**
 * What replacing the vault would drop that the recovery phrase (or the key) cannot bring back.
 * `vault` says the vault's part (undefined: locked, only the settings say it). `restoringTag`: the
 * phraseTagOf the phrase a restore brings.
 */
export async function restoreLoss(restoringTag: string | undefined, vault: VaultLoss | undefined, settings: SettingsStore, local: StorageArea, transfers: TransfersService, vaultExists: () => Promise<boolean>): Promise<RestoreLoss> {
  // Unreadable settings name no accounts: the restore is still a way out of that state, but what it
  // drops is not known then (an unlock would rebuild the list instead), so it is asked about.
  const readable = await settings.read().then(
    (s) => s,
    () => null,
  );
  const s = readable ?? emptyState();
  // Each key once, whether the settings or the vault (or both) name it.
  const keyIds = new Set([...s.accounts.flatMap((a) => (a.kind === 'imported' ? [a.keyId] : [])), ...(vault?.keyIds ?? [])]);
  const unknown = readable === null && (await vaultExists());
  const phraseAccounts = s.accounts.filter((a) => a.kind === 'hd').length;
  // A key, or another phrase, over a wallet with a phrase drops it, even with none of its accounts
  // listed (they were removed). Locked, the settings say so for a key (an HD index was ever given),
  // and their phrase tag whether a phrase is another one; with no tag (a vault from before it), it
  // may be: asked, "unless it is the one you entered".
  const hadPhrase = s.nextHdIndex > 0 || phraseAccounts > 0;
  const unsure = !vault && restoringTag !== undefined && hadPhrase && s.phraseTag === undefined;
  const phrase = vault ? vault.hasPhrase : hadPhrase && (restoringTag === undefined || s.phraseTag !== restoringTag);
  const { sends, moves } = await unfinishedOf(s.accounts.map((a) => a.id), s, local, transfers);
  return {
    importedKeys: keyIds.size,
    ...(phrase ? { phraseAccounts, ...(unsure ? { phraseUnsure: true as const } : {}) } : {}),
    unfinishedTransfers: moves.length,
    ...(sends.length > 0 ? { undecidedSends: sends.length } : {}),
    ...(unknown ? { unknown: true as const } : {}),
    // Names, not counts: one send settled and another made is the same count, not the same loss.
    // Each one as the Confirm's check takes it back (damaged storage may hold any string).
    names: [...new Set([...keyIds, ...sends, ...moves, ...(phrase ? [`phrase ${phraseAccounts}`] : []), ...(unknown ? ['unknown'] : [])])].map((n) => n.slice(0, MAX_LOSS_NAME_LENGTH).toWellFormed()),
  };
}

/** Where `accountIds`' outboxes and journals are kept: per chains, and per network entry (older versions). */
export async function keptKeysOf(accountIds: readonly string[], s: PersistedState, local: StorageArea): Promise<{ outboxes: string[]; journals: string[] }> {
  const perChains = await perChainsKeys(local, accountIds);
  const perEntry = (key: (networkId: string, accountId: string) => string) => accountIds.flatMap((a) => networkIdsOf(s).map((n) => key(n, a)));
  return { outboxes: [...perChains.outboxes, ...perEntry(entryOutboxKey)], journals: [...perChains.journals, ...perEntry(entryJournalKey)] };
}

/**
 * What of `accountIds` is not finished, by ID: sends not decided or refused but able to go through
 * (sendsInTheWay), and moves (TransfersService.unfinishedIn), wherever kept.
 */
export async function unfinishedOf(accountIds: readonly string[], s: PersistedState, local: StorageArea, transfers: TransfersService): Promise<{ sends: string[]; moves: string[] }> {
  const { outboxes, journals } = await keptKeysOf(accountIds, s, local);
  return { sends: await sendsInTheWay(local, outboxes), moves: await transfers.unfinishedIn(journals) };
}

/**
 * Why account `accountId` cannot be removed yet, in words (none: it can): the wallet still follows
 * a send of it (the network has not decided it: it may be sent again; or refused but able to go
 * through: the next send on its chain must spend one of its inputs, and the account's outbox is what
 * says so), a move not finished (its import needs the account's key), or a record of them that
 * cannot be read; wherever kept.
 */
export async function removalBlockers(accountId: string, s: PersistedState, local: StorageArea, transfers: TransfersService): Promise<string[]> {
  const { outboxes, journals } = await keptKeysOf([accountId], s, local);
  const read = await local.get(outboxes);
  const stored = Object.values(read);
  const inTheWay = new Set(sendsInTheWayOf(read));
  const entries = stored.flatMap((v) => (Array.isArray(v) ? (v as unknown[]) : []));
  const undecided = entries.some((e) => !isRecord(e) || e.voided !== true);
  const refused = entries.some((e) => isRecord(e) && e.voided === true && typeof e.txID === 'string' && inTheWay.has(e.txID));
  return [
    undecided ? 'transactions the network has not decided yet (wait until Activity shows them done)' : '',
    refused ? 'a send the network refused that could still go through (your next send on its chain takes its place: make that first)' : '',
    stored.some((v) => !Array.isArray(v)) ? 'a record of its sends that cannot be read' : '',
    (await transfers.unfinishedIn(journals)).length > 0 ? 'cross-chain moves not finished (wait until Moves shows them done)' : '',
  ].filter(Boolean);
}

/**
 * Settings without account `id`, and the key that leaves the vault with it: an imported one's, when
 * no other account names it (settings can be wrong; a key must not be lost). Never the last account,
 * nor one of the phrase's: its keys stay with the phrase, and neither Add account nor (an unused one
 * before it) a restore would give it back.
 */
export function withoutAccount(s: PersistedState, id: string): { state: PersistedState; unnamedKey?: string } {
  const removed = s.accounts.find((x) => x.id === id);
  if (!removed) throw new ValidationError('no such account', 'id');
  if (s.accounts.length === 1) throw new ValidationError('the last account cannot be removed', 'id');
  if (removed.kind === 'hd') throw new WalletError('hd-account', 'an account of the recovery phrase cannot be removed; rename it instead');
  const accounts = s.accounts.filter((x) => x.id !== id);
  const state = { ...s, accounts, selectedAccountId: s.selectedAccountId === id ? accounts[0]!.id : s.selectedAccountId };
  return accounts.some((a) => a.kind === 'imported' && a.keyId === removed.keyId) ? { state } : { state, unnamedKey: removed.keyId };
}

/** Every key the wallet keeps for `accountIds` (history, stakes, tokens, sends, moves), on every network. */
export async function keptStorageOf(accountIds: readonly string[], s: PersistedState, local: StorageArea): Promise<string[]> {
  const perChains = await perChainsKeys(local, accountIds);
  return [...accountIds.flatMap((a) => networkIdsOf(s).flatMap((n) => accountStorageKeys(n, a))), ...perChains.outboxes, ...perChains.journals];
}

/** What the wallet kept of removed account `accountId`, dropped. */
export async function dropAccountStorage(accountId: string, s: PersistedState, local: StorageArea): Promise<void> {
  await local.remove(await keptStorageOf([accountId], s, local));
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
  const secretHex = toHex(secret);
  // Kept as the vault keeps it (hex) from here: the parsed bytes are not left behind.
  wipe(secret);
  return { accounts: [{ id: newId(), name, kind: 'imported', keyId }], secrets: { importedKeys: [{ id: keyId, name, secretHex }] } };
}

/**
 * The address body (short ID, hex) of private key `secret` (bytes, or hex as the vault keeps it),
 * every copy of it made here wiped at once.
 */
export function shortIdOfSecret(secret: Bytes | string): string {
  const bytes = typeof secret === 'string' ? fromHex(secret) : secret;
  let pair: KeyPair | undefined;
  try {
    pair = keyPairFromSecret(bytes);
    return toHex(pair.shortId);
  } finally {
    wipe(pair?.secret, typeof secret === 'string' ? bytes : undefined);
  }
}

/**
 * A restore from a recovery phrase refused because it would drop imported keys or unfinished
 * transfers; the request may repeat with `confirmLoss`.
 */
export class RestoreWouldDropError extends WalletError {
  constructor(readonly restoreLoss: RestoreLoss) {
    super(
      RESTORE_WOULD_DROP,
      `restoring replaces this wallet and drops ${restoreLoss.importedKeys} imported key(s), ${restoreLoss.phraseAccounts === undefined ? '' : 'the recovery phrase, '}${restoreLoss.unfinishedTransfers} unfinished cross-chain transfer(s) and ${restoreLoss.undecidedSends ?? 0} undecided transaction(s); confirm to restore anyway`,
    );
  }
}

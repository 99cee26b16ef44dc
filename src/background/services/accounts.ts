// The vault and the accounts (wallet.*, accounts.*): create, restore or import a wallet, lock and
// unlock, back up, and add, import, rename, remove and select accounts. The vault and the settings
// that name its keys are two storage writes: each change orders them so that a stop between the two
// leaves nothing unusable, and an unlock brings the settings back in line with the vault
// (SettingsStore.reconcile) whatever happened before. What a restore reads first: accounts-restore.ts.
import { toHex, type Bytes } from '../../core/bytes.js';
import { formatPrivateKey } from '../../core/encoding.js';
import { ValidationError, WalletError } from '../../core/errors.js';
import { generateMnemonic, normalizeMnemonic, wipe } from '../../core/keys.js';
import { type RequestParams as P, type BalancesView, type RestoreResult, type Selection, type WalletStatus } from '../../shared/messages.js';
import { hiddenAssetsKey, listedKeyCounts, tokensKey } from '../account-cache.js';
import { SITE_CONTRACTS_KEY } from '../site-contracts.js';
import type { AccountEngines } from '../account-engines.js';
import type { Keyring } from '../keyring.js';
import { asField } from '../request-fields.js';
import { checkNewPassword, WrongPasswordError } from '../vault.js';
import type { Session } from '../session.js';
import { type AccountRecord, assertNameFree, freeName, networkIdsOf, newId, type SettingsStore } from '../settings.js';
import type { SiteStore } from '../sites.js';
import type { StorageArea } from '../storage.js';
import { dropAccountStorage, keptStorageOf, keyWallet, parseKey, phraseTag, phraseTagOf, removalBlockers, RestoreWouldDropError, restoreLoss, shortIdOfSecret, usedAccounts, vaultLoss, withoutAccount } from './accounts-restore.js';
import type { NetworksService } from './networks.js';
import type { TransfersService } from './transfers.js';

const VAULT_KEY = 'xpc.vault';

export class AccountsService {
  constructor(
    private readonly session: Session,
    private readonly local: StorageArea,
    private readonly settings: SettingsStore,
    private readonly keyring: Keyring,
    private readonly networks: NetworksService,
    private readonly engines: AccountEngines,
    private readonly transfers: TransfersService,
    private readonly more: {
      sites?: SiteStore;
      /** This account's cached balances on this network; null if no longer selected (the balances service answers it). */
      balances?: (accountId: string, networkId: string) => Promise<BalancesView | null>;
    } = {},
  ) {}

  // ---- the vault ----

  /**
   * What a popup shows first, in one round trip: the status and, when unlocked, the cached balances
   * (the popup asks for a refresh once painted). The balances are left out when the selection changed while they were read,
   * so they never show under another account's name.
   */
  async walletOpen(): Promise<{ status: WalletStatus; balances: BalancesView | null }> {
    const status = await this.walletStatus();
    if (status.vault !== 'unlocked' || !status.account || !this.more.balances) return { status, balances: null };
    try {
      const balances = await this.more.balances(status.account.id, status.network.id);
      // Locked meanwhile: the status as it is now, and no balances.
      if (!this.session.isUnlocked()) return { status: await this.walletStatus(), balances: null };
      return { status, balances };
    } catch {
      // Failing meanwhile (storage): the popup asks for the balances itself and says what it finds.
      return { status, balances: null };
    }
  }

  /**
   * Settings that cannot be read, or an account whose key the vault lacks, give no account: the
   * popup then asks for the password, and the unlock rebuilds them from the vault.
   */
  async walletStatus(): Promise<WalletStatus> {
    const s = await this.settings.readOrEmpty();
    const preset = this.networks.presetOf(s, s.selectedNetworkId);
    const exists = await this.vaultExists();
    const unlocked = this.session.isUnlocked();
    const account = s.accounts.find((a) => a.id === s.selectedAccountId);
    const hrp = unlocked && account ? await this.networks.hrpOf(preset) : undefined;
    const view = account && hrp !== undefined ? await this.keyring.accountView(account, hrp).catch((e: unknown) => (e instanceof WalletError && e.code === 'storage-corrupt' ? null : Promise.reject(e))) : null;
    return {
      vault: !exists ? 'none' : unlocked ? 'unlocked' : 'locked',
      network: this.networks.networkView(preset, hrp),
      account: view,
      idleLockMinutes: await this.session.getIdleTimeout(),
    };
  }

  async walletGenerateMnemonic(p: P<'wallet.generateMnemonic'>) {
    return { mnemonic: generateMnemonic(p.words) };
  }

  /**
   * A new or restored vault with `accounts`: their settings (new IDs) are written before the vault,
   * so a stop between the two never lets an old account's ID (its site connections, its history)
   * stand for the new vault's keys. A vault that cannot be written puts the old settings back; the
   * old accounts' caches, transfer journals and history are dropped only once it is in place.
   * Called in oneVaultChange, which unlocks wait for too: no unlock of the old vault lands between.
   */
  private async replaceVault(accounts: AccountRecord[], nextHdIndex: number, writeVault: () => Promise<unknown>, phraseTag?: string): Promise<WalletStatus> {
    const before = await this.settings.stored();
    const prior = await this.settings.readOrEmpty();
    await this.settings.startWith(accounts, nextHdIndex, phraseTag);
    try {
      await writeVault();
    } catch (e) {
      await this.settings.putBack(before);
      throw e;
    }
    const networkIds = networkIdsOf(prior);
    const kept = await keptStorageOf(prior.accounts.map((a) => a.id), prior, this.local);
    await this.local.remove([...kept, ...networkIds.map(hiddenAssetsKey), ...networkIds.map(tokensKey), SITE_CONTRACTS_KEY]);
    return this.walletStatus();
  }

  /** Creates, restores, creates-from-key, unlocks, adds and imports run one at a time: each reads the vault (or the accounts), then writes. */
  #replacing: Promise<unknown> = Promise.resolve();
  private oneVaultChange<T>(run: () => Promise<T>): Promise<T> {
    const next = this.#replacing.then(run);
    this.#replacing = next.catch(() => undefined);
    return next;
  }

  /** The phrase as a restore would read it: in the word list, with a matching checksum. Nothing is stored. */
  async walletCheckPhrase(p: P<'wallet.checkPhrase'>) {
    await asField('mnemonic', () => normalizeMnemonic(p.mnemonic));
    return { ok: true as const };
  }

  async walletCreate(p: P<'wallet.create'>) {
    const mnemonic = await asField('mnemonic', () => normalizeMnemonic(p.mnemonic));
    checkNewPassword(p.password);
    return this.oneVaultChange(async () => {
      if (await this.vaultExists()) throw new WalletError('vault-exists', 'a wallet already exists; restore it from its recovery phrase to replace it');
      return this.replaceVault([{ id: newId(), name: 'Account 1', kind: 'hd', index: 0 }], 1, () => this.session.create(p.password, { mnemonic }), await phraseTag(mnemonic));
    });
  }

  /**
   * A new vault from a recovery phrase, or from one private key (a wallet made from a key has no
   * phrase to come back by), over the one stored: one path for both.
   */
  async walletRestore(p: P<'wallet.restore'>): Promise<RestoreResult> {
    const fromPhrase = 'mnemonic' in p;
    const mnemonic = fromPhrase ? await asField('mnemonic', () => normalizeMnemonic(p.mnemonic)) : undefined;
    const keyed = fromPhrase ? undefined : keyWallet(parseKey(p.privateKey), p.name);
    checkNewPassword(p.password);
    // A Confirm holds for what the user was shown, by name: another window may have added an import,
    // a send or a move since. More than that is asked about, never dropped unsaid.
    const agreed = new Set(p.confirmLoss);
    const tag = mnemonic === undefined ? undefined : await phraseTag(mnemonic);
    const countAgain = async (vault = vaultLoss(this.session, mnemonic)) => {
      const loss = await restoreLoss(tag, vault, this.settings, this.local, this.transfers, () => this.vaultExists());
      if (loss.names.some((name) => !agreed.has(name))) throw new RestoreWouldDropError(loss);
      return vault;
    };
    await countAgain();
    // Looked for before anything is replaced, so the accounts are written with the vault, at once.
    const found = mnemonic === undefined ? { count: 0, complete: true } : await usedAccounts(mnemonic, this.settings, this.networks);
    // The same phrase back (its tag): the accounts it listed come back, by name, even those the node
    // shows nothing on now (emptied, all staked, tokens only), which the search stops at. One the
    // user removed stays removed unless the search found it used.
    const stored = await this.settings.readOrEmpty();
    const listed = tag !== undefined && stored.phraseTag === tag ? stored.accounts.flatMap((a) => (a.kind === 'hd' ? [a] : [])) : [];
    const indices = [...new Set([...Array.from({ length: found.count }, (_, i) => i), ...listed.map((a) => a.index)])].sort((a, b) => a - b);
    // Never below the next index it had: a removed account's keys never come back under a new name.
    const count = Math.max(indices.length === 0 ? 0 : indices.at(-1)! + 1, tag !== undefined && stored.phraseTag === tag ? stored.nextHdIndex : 0);
    // A listed account keeps its name; one found is named by its number, unless a listed one has that name.
    const accounts: AccountRecord[] = keyed?.accounts ?? indices.map((i) => ({ id: newId(), name: listed.find((a) => a.index === i)?.name ?? freeName(listed, `Account ${i + 1}`), kind: 'hd', index: i }));
    const status = await this.oneVaultChange(async () => {
      // Counted again in its turn, before anything is stopped or locked.
      const vault = await countAgain();
      // Locked (its keys wiped: Keyring listens for the lock) before the moves under way are waited
      // for (seconds): a send, stake or site approval from another window meanwhile would sign with
      // the old vault, and its record be dropped unsaid (a locked wallet puts nothing in an outbox).
      // Nothing derives the old keys under the new account's ID either (unlocks wait in
      // oneVaultChange). Stopped in between: the old vault opens with the old password, and that
      // unlock gives its imported keys their accounts back.
      return this.transfers.stoppedWhile(
        () => this.session.lock(),
        async () => {
          // Once more, locked: a site's tx signed before the lock may have been put in its outbox since.
          // The vault's keys and phrase cannot be read now: as counted in this turn (none can change in it).
          await countAgain(vault);
          return this.replaceVault(accounts, count, () => this.session.create(p.password, keyed?.secrets ?? { mnemonic }, { replace: true }), tag);
        },
      );
    });
    return found.complete ? status : { ...status, accountsNotSearched: true };
  }

  /** A private key as a restore's or an import's first check, without storing anything. */
  async walletCheckKey(p: P<'wallet.checkKey'>) {
    wipe(parseKey(p.privateKey));
    return { ok: true as const };
  }

  async walletCreateFromKey(p: P<'wallet.createFromKey'>) {
    const { accounts, secrets } = keyWallet(parseKey(p.privateKey), p.name);
    checkNewPassword(p.password);
    return this.oneVaultChange(async () => {
      if (await this.vaultExists()) throw new WalletError('vault-exists', 'a wallet already exists');
      return this.replaceVault(accounts, 0, () => this.session.create(p.password, secrets));
    });
  }

  private async vaultExists(): Promise<boolean> {
    return (await this.local.get([VAULT_KEY]))[VAULT_KEY] !== undefined;
  }

  async walletUnlock(p: P<'wallet.unlock'>) {
    const status = await this.oneVaultChange(async () => {
      // Said at the field it is about, as a password change's is.
      await this.session.unlock(p.password).catch((e: unknown) => {
        throw e instanceof WrongPasswordError ? new WrongPasswordError('password') : e;
      });
      // In the vault's queue, so no import or removal lands between the vault read and the settings write.
      try {
        const tag = this.session.secrets().mnemonic !== undefined ? phraseTagOf(await this.keyring.root()) : undefined;
        await this.session.modify((secrets) => this.settings.reconcile({ hasMnemonic: secrets.mnemonic !== undefined, importedKeys: secrets.importedKeys.map((k) => ({ id: k.id, name: k.name })), ...(tag !== undefined ? { phraseTag: tag } : {}) }));
      } catch (e) {
        // The account list could not be brought in line with the vault (a storage write failed). With
        // an account to show, the user gets in (a storage that stays full must not lock them out; the
        // next unlock tries again); with none, the unlock is not one: locked again, and said.
        const status = await this.walletStatus().catch(() => undefined);
        if (status?.account) return status;
        await this.session.lock();
        throw e;
      }
      return this.walletStatus();
    });
    // Moves a lock stopped go on now, not at the next alarm (up to a minute later); a failure
    // leaves them paused as the Move screen shows, and the alarm tries again.
    this.transfers.resumeTransfers().catch(() => undefined);
    return status;
  }

  async walletLock() {
    await this.session.lock();
    return this.walletStatus();
  }

  async walletChangePassword(p: P<'wallet.changePassword'>) {
    await asField('newPassword', () => this.session.changePassword(p.oldPassword, p.newPassword)).catch((e: unknown) => {
      // Said at the field it is about: the current password.
      throw e instanceof WrongPasswordError ? new WrongPasswordError('oldPassword') : e;
    });
    return { ok: true as const };
  }

  async walletRevealMnemonic(p: P<'wallet.revealMnemonic'>) {
    await this.session.verifyPassword(p.password);
    return { mnemonic: this.session.mnemonic() };
  }

  async walletExportPrivateKey(p: P<'wallet.exportPrivateKey'>) {
    await this.session.verifyPassword(p.password);
    const a = (await this.settings.read()).accounts.find((x) => x.id === p.accountId);
    if (!a) throw new ValidationError('no such account', 'accountId');
    if (a.kind === 'hd') throw new WalletError('hd-account', 'an HD account is backed up by the recovery phrase; reveal the phrase instead');
    return { privateKey: formatPrivateKey(this.keyring.importedKey(a.keyId).secret) };
  }

  async walletSetIdleLock(p: P<'wallet.setIdleLock'>) {
    const setting = await asField('minutes', () => this.session.setIdleTimeout(p.minutes));
    return { minutes: setting.timeout, ...(setting.warning ? { warning: setting.warning } : {}) };
  }

  // ---- accounts ----

  async accountsList() {
    const s = await this.settings.read();
    const hrp = await this.networks.hrpNow(s);
    return { accounts: await Promise.all(s.accounts.map((a) => this.keyring.accountView(a, hrp))), selectedId: s.selectedAccountId };
  }

  // One at a time with imports: each checks the other's keys (an import's check reads the accounts before it writes).
  accountsAdd(p: P<'accounts.add'>) {
    return this.oneVaultChange(() => this.addAccount(p));
  }

  accountsImportKey(p: P<'accounts.importKey'>) {
    return this.oneVaultChange(() => this.importKey(p));
  }

  private async addAccount(p: P<'accounts.add'>) {
    await this.keyring.root();
    let record: AccountRecord | undefined;
    const s = await this.settings.update(async (s) => {
      assertNameFree(s.accounts, p.name);
      record = { id: newId(), name: p.name, kind: 'hd', index: s.nextHdIndex };
      // One of its keys imported already would be a second account on its addresses (as an import refuses).
      const mine = await this.keyring.listedKeyIds(record, listedKeyCounts({ receiveNext: 0, changeNext: 0 }));
      const held = s.accounts.find((a) => a.kind === 'imported' && mine.has(toHex(this.keyring.importedKey(a.keyId).shortId)));
      if (held) throw new ValidationError(`a key of the phrase's next account is already in the wallet: it is “${held.name}”, imported from its private key; remove “${held.name}” to add it from the phrase`);
      return { ...s, accounts: [...s.accounts, record], nextHdIndex: s.nextHdIndex + 1 };
    });
    return this.keyring.accountView(record!, await this.networks.hrpNow(s));
  }

  private async importKey(p: P<'accounts.importKey'>) {
    const secret = parseKey(p.privateKey);
    try {
      return await this.importParsedKey(p, secret);
    } finally {
      wipe(secret);
    }
  }

  private async importParsedKey(p: P<'accounts.importKey'>, secret: Bytes) {
    const shortId = shortIdOfSecret(secret);
    // One of the phrase's own keys (any address an account lists) would be a second account on
    // those addresses, with its own outbox and nonce line: refused.
    const settings = await this.settings.read();
    for (const a of settings.accounts) {
      if (a.kind === 'hd' && (await this.keyring.listedKeyIds(a, await this.engines.listedKeyCounts(settings, a.id))).has(shortId)) throw new ValidationError(`this key is already in the wallet: it belongs to “${a.name}”, from the recovery phrase`, 'privateKey');
    }
    // The key, then its account, checked against the vault as it is then. A key an earlier import
    // stored without its account (stopped between the two writes) gets its account now.
    let record: Extract<AccountRecord, { kind: 'imported' }> = { id: newId(), name: p.name, kind: 'imported', keyId: newId() };
    const s = await this.session.modify(async (secrets, write) => {
      const stored = secrets.importedKeys.find((k) => shortIdOfSecret(k.secretHex) === shortId);
      if (stored) record = { ...record, keyId: stored.id };
      else {
        // The name checked before the key is stored (renames wait in oneVaultChange): refused after, the key would be left without its account.
        assertNameFree((await this.settings.read()).accounts, p.name);
        await write({ ...secrets, importedKeys: [...secrets.importedKeys, { id: record.keyId, name: p.name, secretHex: toHex(secret) }] });
      }
      return this.settings.update((s) => {
        if (s.accounts.some((a) => a.kind === 'imported' && a.keyId === record.keyId)) throw new ValidationError('this key is already in the wallet', 'privateKey');
        // A key stored before (an import stopped between its writes) was not checked above.
        assertNameFree(s.accounts, p.name);
        return { ...s, accounts: [...s.accounts, record] };
      });
    });
    return this.keyring.accountView(record, await this.networks.hrpNow(s));
  }

  /** In turn with adds and imports (oneVaultChange): an import checks its name before it stores its key. */
  accountsRename(p: P<'accounts.rename'>) {
    return this.oneVaultChange(() => this.rename(p));
  }

  private async rename(p: P<'accounts.rename'>) {
    let renamed: AccountRecord | undefined;
    const s = await this.settings.update((s) => {
      const a = s.accounts.find((x) => x.id === p.id);
      if (!a) throw new ValidationError('no such account', 'id');
      assertNameFree(s.accounts, p.name, a.id);
      renamed = { ...a, name: p.name };
      return { ...s, accounts: s.accounts.map((x) => (x.id === p.id ? renamed! : x)) };
    });
    return this.keyring.accountView(renamed!, await this.networks.hrpNow(s));
  }

  async accountsRemove(p: P<'accounts.remove'>) {
    await this.session.verifyPassword(p.password);
    const blockers = await removalBlockers(p.id, await this.settings.read(), this.local, this.transfers);
    if (blockers.length > 0) throw new WalletError('account-busy', `this account still has ${blockers.join('; and ')}: nothing was removed`);
    // The account goes first, then its key: a stop in between leaves a key with no account, which
    // the next unlock (or an import of it) gives an account again; never an account without a key.
    await this.session.modify(async (secrets, write) => {
      let unnamedKey: string | undefined;
      await this.settings.update((s) => {
        const without = withoutAccount(s, p.id);
        unnamedKey = without.unnamedKey;
        return without.state;
      });
      if (unnamedKey === undefined) return;
      await write({ ...secrets, importedKeys: secrets.importedKeys.filter((k) => k.id !== unnamedKey) });
      this.keyring.forgetImportedKey(unnamedKey);
    });
    // Removed. Its storage goes only if nothing was sent or journaled for it since the check (another window).
    const after = await this.settings.readOrEmpty();
    if ((await removalBlockers(p.id, after, this.local, this.transfers).catch(() => ['unread'])).length === 0) await dropAccountStorage(p.id, after, this.local).catch(() => undefined);
    await this.more.sites?.forgetAccount(p.id).catch(() => undefined);
    return { ok: true as const };
  }

  async accountsSelect(p: P<'accounts.select'>) {
    await this.settings.update((s) => {
      if (!s.accounts.some((a) => a.id === p.id)) throw new ValidationError('no such account', 'id');
      return { ...s, selectedAccountId: p.id };
    });
    return this.walletStatus();
  }

  /**
   * The account and network a request was reviewed on are still the selected ones (the router asks
   * before a request that names them runs): else 'selection-changed', and nothing is done.
   */
  async checkSelection(selection: Selection): Promise<void> {
    const s = await this.settings.read();
    if (s.selectedAccountId !== selection.accountId || s.selectedNetworkId !== selection.networkId) {
      throw new WalletError('selection-changed', 'the account or network was switched since this was reviewed: nothing was done; review it again');
    }
  }
}

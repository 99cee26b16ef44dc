// The selected account on the selected network (or the account and network named), opened for
// work: a core WalletEngine over its keys (scanned once), the network's checked identity, its
// cache and its proven UTXOs. Every service that reads chains or signs starts here; a site's
// signature gets its key here too, for one call.
import type { Bytes } from '../core/bytes.js';
import { WalletEngine } from '../core/engine.js';
import { WalletError } from '../core/errors.js';
import { deriveEvmKey, deriveXpKey, type KeyPair } from '../core/keys.js';
import { chainContextOf } from '../core/network.js';
import type { WaitOptions } from '../core/node.js';
import { LAST_CHANGE_INDEX, scanBranch } from '../core/scan.js';
import { type AccountCache, type AccountCaches, emptyCache, entryJournalKey, entryOutboxKey, listedKeyCounts, spentKey, takeIndices } from './account-cache.js';
import { type Keyring, listedXpKeys } from './keyring.js';
import { openOutbox, type Outbox } from './outbox.js';
import { ProofStore } from './proofs.js';
import { inputsOf } from './refused.js';
import type { Preset, NetworksService } from './services/networks.js';
import { SpentBook } from './spent-book.js';
import { type AccountRecord, networkIdsOf, type PersistedState, type SettingsStore } from './settings.js';
import type { StorageArea } from './storage.js';
import { openJournal, TransferJournal } from './transfer-journal.js';

/** An account at work: its engine, the network it is on, its record and its cache as read. */
export interface AccountContext {
  engine: WalletEngine;
  preset: Preset;
  account: AccountRecord;
  cache: AccountCache;
  /** What its txs taken as accepted spent (the engine's EngineOptions.spent). */
  spent: SpentBook;
}

export class AccountEngines {
  readonly proofs: ProofStore;

  constructor(
    private readonly settings: SettingsStore,
    private readonly networks: NetworksService,
    readonly keyring: Keyring,
    readonly caches: AccountCaches,
    private readonly local: StorageArea,
    private readonly options: { log?: (line: string) => void; wait?: WaitOptions } = {},
  ) {
    this.proofs = new ProofStore(local);
  }

  /** The keys a phrase's account lists on any network: as many as the most any of them handed out. */
  async listedKeyCounts(s: PersistedState, accountId: string): Promise<{ receive: number; change: number }> {
    const used = emptyCache();
    for (const id of networkIdsOf(s)) takeIndices(used, await this.caches.get(id, accountId).catch(() => undefined));
    return listedKeyCounts(used);
  }

  /** The selected account (or the one named) on the selected network (or the one named). */
  async selected(accountId?: string, networkId?: string): Promise<{ s: PersistedState; account: AccountRecord; preset: Preset }> {
    const s = await this.settings.read();
    const account = s.accounts.find((a) => a.id === (accountId ?? s.selectedAccountId));
    if (!account) throw new WalletError('no-account', accountId === undefined ? 'no account is selected' : 'that account no longer exists');
    return { s, account, preset: this.networks.presetOf(s, networkId ?? s.selectedNetworkId) };
  }

  // ---- for site requests (src/background/provider.ts) ----

  /** Runs `use` with the account's EVM secret key; the key does not outlive the call. */
  async withEvmSecret<T>(accountId: string, use: (secret: Bytes) => T): Promise<T> {
    const { account } = await this.selected(accountId);
    return use((await this.keyring.primaryKeys(account)).evm.secret);
  }

  /** Runs `use` with the account's first X/P key (the address its X and P views show). */
  async withXpKey<T>(accountId: string, use: (key: KeyPair) => T): Promise<T> {
    const { account } = await this.selected(accountId);
    return use((await this.keyring.primaryKeys(account)).xp);
  }

  /**
   * The account's outbox on the chains `preset` serves: one for every network entry naming them,
   * so a send on one conflicts with what was refused on another (src/background/refused.ts). It
   * takes in those an older version kept with each entry known to serve the same chains.
   */
  async outbox(preset: Preset, accountId: string): Promise<Outbox> {
    const chains = await this.networks.chainsOf(preset);
    return this.takingIn(preset, chains, (id) => entryOutboxKey(id, accountId), (keys) => openOutbox(this.local, chains, accountId, keys), 'sends');
  }

  /**
   * The account's move journal on the chains `preset` serves (src/background/transfer-journal.ts),
   * shared by every entry naming them like the outbox, and taking in the same way those an older
   * version kept with each entry. `storageOnly`: its node is not asked (chainsLastKnown; a list must
   * show while it is away); with the chains not known then, the entry's older journal as it is.
   */
  async journal(preset: Preset, accountId: string, storageOnly = false): Promise<TransferJournal> {
    const chains = storageOnly ? await this.networks.chainsLastKnown(preset) : await this.networks.chainsOf(preset);
    if (chains === undefined) return new TransferJournal(this.local, entryJournalKey(preset.id, accountId));
    return this.takingIn(preset, chains, (id) => entryJournalKey(id, accountId), (keys) => openJournal(this.local, chains, accountId, keys), 'moves');
  }

  /**
   * `open` with the keys (`key`) of every entry for `chains`. An older record kept with one that is
   * not a list stops it (storage-corrupt: what it held is unknown): said with that entry's name and,
   * for one Settings can remove, that removing it clears it (NetworksService.networksRemove drops it).
   */
  private async takingIn<T>(preset: Preset, chains: string, key: (id: string) => string, open: (keys: string[]) => Promise<T>, what: string): Promise<T> {
    const s = await this.settings.read();
    const ids = [...new Set([preset.id, ...this.networks.entriesOf(s, chains)])];
    try {
      return await open(ids.map(key));
    } catch (e) {
      const stored = await this.local.get(ids.map(key));
      const id = ids.find((i) => !Array.isArray(stored[key(i)] ?? []));
      if (id === undefined) throw e;
      const { name, kind } = this.networks.presetOf(s, id);
      // The selected entry cannot be removed (NetworksService.networksRemove): another is selected first.
      const clear = id === preset.id ? `. Switching to another network, then removing "${name}" in Settings clears it` : `. Removing "${name}" in Settings clears it`;
      throw new WalletError('storage-corrupt', `an older record of ${what} for "${name}" cannot be read, so the wallet stops rather than risk paying twice${kind === 'custom' ? clear : ''}`);
    }
  }

  /**
   * An engine for the selected account (or the one named) on the selected network (or the one
   * named): its scanned keys, a fresh change address, and the network's identity. Scanning runs
   * when the cache has never scanned.
   */
  async open(accountId?: string, networkId?: string): Promise<AccountContext> {
    this.keyring.assertUnlocked();
    const { s, account, preset } = await this.selected(accountId, networkId);
    const identity = await this.networks.identity(preset);
    const client = this.networks.client(preset);
    const cache = await this.caches.get(preset.id, account.id);
    // The addresses every entry for the same chains handed out (takeIndices); one not checked in this
    // worker's life (the Local network) by what it served last: a stale one only adds addresses to look at.
    for (const id of await this.networks.entriesLastKnown(s, this.networks.chainsKnown(preset) ?? '')) {
      if (id !== preset.id) takeIndices(cache, await this.caches.get(id, account.id).catch(() => undefined));
    }
    let keys: { xp: KeyPair[]; evm: KeyPair; change: Bytes };
    if (account.kind === 'imported') {
      const k = this.keyring.importedKey(account.keyId);
      keys = { xp: [k], evm: k, change: k.shortId };
    } else {
      const root = await this.keyring.root();
      const receive = (i: number) => deriveXpKey(root, account.index, 0, i);
      const change = (i: number) => deriveXpKey(root, account.index, 1, i);
      if (cache.balances.updatedAt === 0) {
        const [r, c] = await Promise.all([scanBranch(client, identity.hrp, receive), scanBranch(client, identity.hrp, change)]);
        // Addresses the wallet already handed out stay in use even when their UTXOs are all spent.
        cache.receiveNext = Math.max(1, cache.receiveNext, r.nextIndex);
        cache.changeNext = Math.max(cache.changeNext, c.nextIndex);
      }
      // An older version's change may have gone past LAST_CHANGE_INDEX: its addresses stay listed, new change comes back within reach.
      keys = { xp: listedXpKeys(root, account.index, listedKeyCounts(cache)), evm: deriveEvmKey(root, account.index), change: change(Math.min(cache.changeNext, LAST_CHANGE_INDEX)).shortId };
    }
    const entries = await (await this.outbox(preset, account.id)).list();
    // A move's export signed and not decided keeps its funds from new txs (its run decides it within
    // the minute: a refusal fails the move). A journal that cannot be read adds none (moves say so).
    const moves = await this.journal(preset, account.id)
      .then((j) => j.list())
      .catch(() => []);
    const exports = moves.flatMap((r) => (r.state === 'export-signed' && r.export ? [r.export] : []));
    // A move's export whose import was accepted ran (if the node says so of the import now): a read listing its inputs again is not believed.
    const ranElsewhere = new Map(
      moves.flatMap((r) => {
        const imports = r.imports.filter((t) => t.accepted === true).map((t) => ({ chain: t.chain, txID: t.txID }));
        return r.export && imports.length > 0 ? [[r.export.txID, { imports, spends: r.export.spends ?? [] }] as const] : [];
      }),
    );
    const skip = (e: { txID: string }, error: unknown) => this.options.log?.(`a kept tx cannot be read (${e.txID}): ${(error as Error).message}`);
    const spent = await SpentBook.open(this.local, spentKey(preset.id, account.id), this.options.log);
    const engine = new WalletEngine(client, chainContextOf(identity), keys, {
      evmChainId: BigInt(identity.evmChainID),
      proofs: await this.proofs.cache(),
      // A kept export a retry has journaled as its own (Delivery.exportJournaled not run yet: a crash) is that move's: never spent first.
      spendFirst: inputsOf(entries.filter((e) => e.voided && !exports.some((x) => x.txID === e.txID)), skip),
      spendNever: inputsOf(exports, skip),
      spent,
      ranElsewhere,
      ...(this.options.wait ? { wait: this.options.wait } : {}),
    });
    return { engine, preset, account, cache, spent };
  }
}

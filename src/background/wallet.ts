// The wallet service: accounts, networks, balances, sends, assets, cross-chain transfers and
// activity, over the session (keys), the core engine (chains) and storage. One method per request
// of src/shared/messages.ts; inputs arrive validated. Keys exist only while the session is unlocked
// and are dropped on lock.
import { formatAmount, WEI_PER_NAVAX } from '../core/amount.js';
import { type Bytes, fromHex, toHex } from '../core/bytes.js';
import { parseUtxoId, utxoId } from '../core/codec/ids.js';
import { encodeUnsignedTx } from '../core/codec/codec.js';
import type { OutputOwners, PTx, TransferableOutput, UnsignedTx, Utxo } from '../core/codec/types.js';
import { describeTx, type TxView } from '../core/describe.js';
import { cb58Encode, formatAddress, formatPrivateKey, parseAddress, parseAddressFor, parseId } from '../core/encoding.js';
import { type AssetBalance, type EvmNonces, isEvmHash, WalletEngine, type Issued } from '../core/engine.js';
import { formatEvmAddress } from '../core/evm-address.js';
import { FormatError, InsufficientFundsError, TxTooLargeError, ValidationError, WalletError } from '../core/errors.js';
import { type PFeeContext, pTxFee } from '../core/fees.js';
import {
  deriveEvmKey,
  deriveXpKey,
  generateMnemonic,
  HdRoot,
  keyPairFromSecret,
  mnemonicToSeed,
  normalizeMnemonic,
  parseSecretKey,
  type KeyPair,
} from '../core/keys.js';
import { chainContextOf, customPreset, discoverNetwork, hrpForNetworkId, PRESETS, type NetworkIdentity, type NetworkPreset } from '../core/network.js';
import { NodeClient, type ChainAlias, type EthReceipt, type WaitOptions } from '../core/node.js';
import { provenAsset, type ProvenAsset } from '../core/proof.js';
import { scanBranch } from '../core/scan.js';
import { decodeChainTx } from '../core/tx-fate.js';
import type { BuiltTx } from '../core/tx/built.js';
import { eip1559Fees, evmTxNonce, PLAIN_TRANSFER_GAS } from '../core/tx/c.js';
import { type ChainContext, makeOwners, MAX_XP_TX_SIZE } from '../core/tx/context.js';
import { buildPExport, buildPSend } from '../core/tx/p.js';
import { ownedAddressSet, type OwnedAddresses, signingIndices, type SpendableUtxo, toTransferableInput } from '../core/tx/utxos.js';
import { buildXExport, buildXSend, fixedCapState, nftFamilyState, packInputs, variableCapState } from '../core/tx/x.js';
import type {
  AccountView,
  ActivityItem,
  ApprovalAssetInfo,
  ApprovalSummary,
  ApprovalView,
  AddedChainView,
  AssetBalanceView,
  BalancesView,
  ChainName,
  MintRightView,
  NetworkView,
  NftView,
  OwnerSet,
  RequestParams as P,
  RestoreLoss,
  SiteView,
  TransferView,
  WalletStatus,
} from '../shared/messages.js';
import { RESTORE_WOULD_DROP } from '../shared/messages.js';
import { type ApprovalQueue, requesterOf, UnknownApprovalError } from './approvals.js';
import type { SiteStore } from './sites.js';
import type { Session } from './session.js';
import type { StorageArea } from './storage.js';
import { VaultLockedError } from './vault.js';
import { TransferJournal, type TransferRecord, TransferRunner, transferActivity } from './transfers.js';
import { Outbox, type OutboxEntry, outboxEntry, sendOnce, settleOutbox } from './outbox.js';
import { ProofStore } from './proofs.js';
import { conflictsOf, inputIds, refusedInputs, settleRefused } from './refused.js';

const STATE_KEY = 'xpc.state';
const STATE_VERSION = 1;
const AVAX_EVM_DENOMINATION = 18;
const MAX_ACTIVITY = 500;
/** How many candidate amounts `largestAmount` builds before giving up. */
const MAX_AMOUNT_ATTEMPTS = 32;

type AccountRecord =
  | { id: string; name: string; kind: 'hd'; index: number }
  | { id: string; name: string; kind: 'imported'; keyId: string };

interface CustomNetwork {
  id: string;
  name: string;
  url: string;
  atomicNamespace: string;
  /** The address prefix the node reported when the network was added (absent in older records). */
  hrp?: string;
  /**
   * Who the network is, fixed when it was added (or, for older records, first used): every later
   * contact must match it, so a node that changes its story is refused instead of believed.
   */
  pinned?: PinnedIdentity;
}

interface PinnedIdentity {
  networkID: number;
  evmChainID: number;
  xChainID: string;
  cChainID: string;
  avaxAssetID: string;
}

function pinOf(id: NetworkIdentity): PinnedIdentity {
  return { networkID: id.networkID, evmChainID: id.evmChainID, xChainID: id.xChainID, cChainID: id.cChainID, avaxAssetID: id.avaxAssetID };
}

/** A network preset with its wallet ID; custom ones carry the hrp saved when they were added. */
type Preset = NetworkPreset & { id: string; savedHrp?: string };

/** Non-secret settings, in storage.local. */
interface PersistedState {
  version: number;
  accounts: AccountRecord[];
  selectedAccountId: string | null;
  nextHdIndex: number;
  customNetworks: CustomNetwork[];
  selectedNetworkId: string;
}

/** What the wallet remembers per network and account, so the popup can show it at once. */
export interface AccountCache {
  /** Detects a local network that was restarted: its P-Chain height went back. */
  pHeight: string;
  receiveNext: number;
  changeNext: number;
  balances: BalancesView;
  activity: ActivityItem[];
  /** UTXO IDs seen at the last refresh, to tell incoming funds apart. */
  knownUtxos: string[];
}

/** Re-labels a validation failure with the request field the user typed into. */
async function asField<T>(field: string, run: () => T | Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof ValidationError || e instanceof FormatError) throw new ValidationError(e.message, field);
    throw e;
  }
}

function newId(): string {
  return toHex(crypto.getRandomValues(new Uint8Array(8)));
}

function emptyState(): PersistedState {
  return { version: STATE_VERSION, accounts: [], selectedAccountId: null, nextHdIndex: 0, customNetworks: [], selectedNetworkId: 'local' };
}

/** Every network the wallet knows: the presets and the user's own. */
function networkIdsOf(s: PersistedState): string[] {
  return [...Object.keys(PRESETS), ...s.customNetworks.map((n) => n.id)];
}

/**
 * A restore from a recovery phrase refused because it would drop imported keys or unfinished
 * transfers; the request may repeat with `confirmLoss`.
 */
export class RestoreWouldDropError extends WalletError {
  constructor(readonly restoreLoss: RestoreLoss) {
    super(
      RESTORE_WOULD_DROP,
      `restoring replaces this wallet and would drop ${restoreLoss.importedKeys} imported private key account(s) and ${restoreLoss.unfinishedTransfers} unfinished cross-chain transfer(s); confirm to restore anyway`,
    );
  }
}

function emptyCache(): AccountCache {
  return {
    pHeight: '0',
    receiveNext: 1,
    changeNext: 0,
    balances: { updatedAt: 0, refreshing: false, balances: [], waiting: [] },
    activity: [],
    knownUtxos: [],
  };
}

export class WalletService {
  #root: HdRoot | null = null;
  #identities = new Map<string, NetworkIdentity>();
  #assetNames = new Map<string, ProvenAsset>();
  readonly #proofs: ProofStore;
  readonly #evmLocks = new Map<string, Promise<unknown>>();
  #refreshing: Promise<BalancesView> | null = null;
  #resuming: Promise<void> | null = null;
  /** Transfer runs under way (started moves, resumed journals): a restore stops them and waits. */
  readonly #transferRuns = new Set<Promise<unknown>>();
  #transfersStopped = false;
  /** Every read-modify-write of the settings waits here for the one before it. */
  #stateTail: Promise<unknown> = Promise.resolve();
  /** Likewise for the per-account caches, as changed by sends (a refresh saves its own snapshot). */
  #cacheTail: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly session: Session,
    private readonly local: StorageArea,
    private readonly options: {
      fetch?: typeof fetch;
      log?: (line: string) => void;
      /** Site requests waiting for the user (storage.session); without it, nothing ever waits. */
      approvals?: ApprovalQueue;
      /** Sites whose requests wait for the wallet to be unlocked (the provider knows them). */
      sitesWaitingForUnlock?: () => string[];
      /** Connected sites and chains sites added (storage.local). */
      sites?: SiteStore;
      /** How long a send waits for its tx to become final (default: the engine's, 60 s). */
      wait?: WaitOptions;
    } = {},
  ) {
    this.#proofs = new ProofStore(local);
    session.onLock(() => {
      this.#root?.wipe();
      this.#root = null;
    });
  }

  // ---- persistence ----

  private async state(): Promise<PersistedState> {
    const raw = (await this.local.get([STATE_KEY]))[STATE_KEY];
    if (raw === undefined) return emptyState();
    const s = raw as PersistedState;
    if (typeof s !== 'object' || s === null || s.version !== STATE_VERSION || !Array.isArray(s.accounts)) {
      throw new WalletError('storage-corrupt', 'the wallet settings in storage are unreadable');
    }
    return s;
  }

  /**
   * Reads the settings, applies `change` and saves the result, one change at a time, so that two
   * overlapping requests never save over each other. Inside a `session.modify` when the vault
   * changes too (that queue is always taken first, never from inside this one).
   */
  private updateState(change: (s: PersistedState) => PersistedState | Promise<PersistedState>): Promise<PersistedState> {
    const run = this.#stateTail.then(async () => {
      const next = await change(await this.state());
      await this.local.set({ [STATE_KEY]: next });
      return next;
    });
    this.#stateTail = run.catch(() => undefined);
    return run;
  }

  private cacheKey(networkId: string, accountId: string): string {
    return `xpc.cache.${networkId}.${accountId}`;
  }

  private journalKey(networkId: string, accountId: string): string {
    return `xpc.transfers.${networkId}.${accountId}`;
  }

  private outbox(networkId: string, accountId: string): Outbox {
    return new Outbox(this.local, `xpc.outbox.${networkId}.${accountId}`);
  }

  private hiddenKey(networkId: string): string {
    return `xpc.hidden.${networkId}`;
  }

  private async cache(networkId: string, accountId: string): Promise<AccountCache> {
    const key = this.cacheKey(networkId, accountId);
    return ((await this.local.get([key]))[key] as AccountCache | undefined) ?? emptyCache();
  }

  private async saveCache(networkId: string, accountId: string, c: AccountCache): Promise<void> {
    await this.local.set({ [this.cacheKey(networkId, accountId)]: c });
  }

  /**
   * Applies `change` to the cache as stored right now and saves it: for a request that read the
   * cache before a long wait, so it adds only its own changes and keeps a refresh that ran meanwhile.
   */
  private updateCache(networkId: string, accountId: string, change: (c: AccountCache) => void): Promise<void> {
    const run = this.#cacheTail.then(async () => {
      const c = await this.cache(networkId, accountId);
      change(c);
      await this.saveCache(networkId, accountId, c);
    });
    this.#cacheTail = run.catch(() => undefined);
    return run;
  }

  // ---- networks ----

  private presetOf(s: PersistedState, id: string): Preset {
    const builtIn = (PRESETS as Record<string, NetworkPreset>)[id];
    if (builtIn) return { ...builtIn, id };
    const custom = s.customNetworks.find((n) => n.id === id);
    if (!custom) throw new ValidationError(`no network ${id}`, 'id');
    return this.presetOfCustom(custom);
  }

  /** `hrp` when the caller already knows it; else from the node's identity, the preset, or what was saved. */
  private networkView(preset: Preset, hrp?: string): NetworkView {
    return {
      id: preset.id,
      kind: preset.kind,
      name: preset.name,
      url: preset.url,
      atomicNamespace: preset.atomicApi.namespace,
      hrp: hrp ?? this.#identities.get(preset.id)?.hrp ?? preset.hrp ?? preset.savedHrp ?? '',
      ...(preset.explorerUrl ? { explorerUrl: preset.explorerUrl } : {}),
    };
  }

  private client(preset: NetworkPreset): NodeClient {
    return new NodeClient({ url: preset.url, atomicApi: preset.atomicApi, ...(this.options.fetch ? { fetch: this.options.fetch } : {}) });
  }

  /** The node's identity, checked against the preset once per worker life. */
  private async identity(preset: Preset): Promise<NetworkIdentity> {
    let id = this.#identities.get(preset.id);
    if (!id) {
      id = await discoverNetwork(this.client(preset), preset);
      this.#identities.set(preset.id, id);
      if (preset.kind === 'custom' && !preset.known) await this.pinOnFirstUse(preset.id, id);
    }
    return id;
  }

  /** A custom network added before identities were pinned is pinned by its first checked answer. */
  private async pinOnFirstUse(networkId: string, id: NetworkIdentity): Promise<void> {
    await this.updateState((s) => ({
      ...s,
      customNetworks: s.customNetworks.map((n) => (n.id === networkId && !n.pinned ? { ...n, pinned: pinOf(id) } : n)),
    }));
  }

  // ---- keys and accounts ----

  private async root(): Promise<HdRoot> {
    if (this.#root) return this.#root;
    const { mnemonic } = this.session.secrets();
    if (!mnemonic) throw new WalletError('no-mnemonic', 'this wallet has no recovery phrase (it was created from a private key)');
    this.#root = HdRoot.fromSeed(await mnemonicToSeed(mnemonic));
    return this.#root;
  }

  private importedKey(keyId: string): KeyPair {
    const k = this.session.secrets().importedKeys.find((i) => i.id === keyId);
    if (!k) throw new WalletError('storage-corrupt', 'an imported account has no key in the vault');
    return keyPairFromSecret(fromHex(k.secretHex));
  }

  /** The account's first receive key and its EVM key: what addresses are shown from. */
  private async primaryKeys(a: AccountRecord): Promise<{ xp: KeyPair; evm: KeyPair }> {
    if (a.kind === 'imported') {
      const k = this.importedKey(a.keyId);
      return { xp: k, evm: k };
    }
    const root = await this.root();
    return { xp: deriveXpKey(root, a.index, 0, 0), evm: deriveEvmKey(root, a.index) };
  }

  private async accountView(a: AccountRecord, hrp: string): Promise<AccountView> {
    const { xp, evm } = await this.primaryKeys(a);
    return {
      id: a.id,
      name: a.name,
      kind: a.kind,
      ...(a.kind === 'hd' ? { index: a.index } : {}),
      xAddress: formatAddress('X', hrp, xp.shortId),
      pAddress: formatAddress('P', hrp, xp.shortId),
      cAddress: formatEvmAddress(evm.evmAddress),
      cBech32Address: formatAddress('C', hrp, evm.shortId),
    };
  }

  /** The selected account (or the one named) on the selected network. */
  private async selected(accountId?: string): Promise<{ s: PersistedState; account: AccountRecord; preset: Preset }> {
    const s = await this.state();
    const account = s.accounts.find((a) => a.id === (accountId ?? s.selectedAccountId));
    if (!account) throw new WalletError('no-account', accountId === undefined ? 'no account is selected' : 'that account no longer exists');
    return { s, account, preset: this.presetOf(s, s.selectedNetworkId) };
  }

  /**
   * An engine for the selected account on the selected network: its scanned keys, a fresh change
   * address, and the network's identity. Scanning runs when the cache has never scanned.
   */
  private async engine(accountId?: string): Promise<{ engine: WalletEngine; preset: Preset; account: AccountRecord; cache: AccountCache }> {
    const { account, preset } = await this.selected(accountId);
    const identity = await this.identity(preset);
    const client = this.client(preset);
    const cache = await this.cache(preset.id, account.id);
    let keys: { xp: KeyPair[]; evm: KeyPair; change: Bytes };
    if (account.kind === 'imported') {
      const k = this.importedKey(account.keyId);
      keys = { xp: [k], evm: k, change: k.shortId };
    } else {
      const root = await this.root();
      const receive = (i: number) => deriveXpKey(root, account.index, 0, i);
      const change = (i: number) => deriveXpKey(root, account.index, 1, i);
      if (cache.balances.updatedAt === 0) {
        const [r, c] = await Promise.all([scanBranch(client, identity.hrp, receive), scanBranch(client, identity.hrp, change)]);
        // Addresses the wallet already handed out stay in use even when their UTXOs are all spent.
        cache.receiveNext = Math.max(1, cache.receiveNext, r.nextIndex);
        cache.changeNext = Math.max(cache.changeNext, c.nextIndex);
      }
      const xp = [
        ...Array.from({ length: cache.receiveNext }, (_, i) => receive(i)),
        ...Array.from({ length: cache.changeNext + 1 }, (_, i) => change(i)),
      ];
      keys = { xp, evm: deriveEvmKey(root, account.index), change: change(cache.changeNext).shortId };
    }
    const entries = await this.outbox(preset.id, account.id).list();
    const engine = new WalletEngine(client, chainContextOf(identity), keys, {
      evmChainId: BigInt(identity.evmChainID),
      proofs: await this.#proofs.cache(),
      spendFirst: refusedInputs(entries, (e, error) => this.options.log?.(`a refused send in the outbox cannot be read (${e.txID}): ${(error as Error).message}`)),
      ...(this.options.wait ? { wait: this.options.wait } : {}),
    });
    return { engine, preset, account, cache };
  }

  private ownersFrom(set: OwnerSet, chain: 'X' | 'P', hrp: string): OutputOwners {
    const addresses = set.addresses.map((a, i) => {
      try {
        return parseAddressFor(a, chain, hrp);
      } catch (e) {
        throw new ValidationError((e as Error).message, `to.addresses[${i}]`);
      }
    });
    return makeOwners(addresses, set.threshold, BigInt(set.locktime ?? '0'));
  }

  // ---- status and the vault ----

  async walletStatus(): Promise<WalletStatus> {
    const s = await this.state();
    const preset = this.presetOf(s, s.selectedNetworkId);
    const exists = (await this.local.get(['xpc.vault']))['xpc.vault'] !== undefined;
    const unlocked = this.session.isUnlocked();
    const account = s.accounts.find((a) => a.id === s.selectedAccountId);
    const hrp = unlocked && account ? await this.identityOrPresetHrp(preset) : undefined;
    return {
      vault: !exists ? 'none' : unlocked ? 'unlocked' : 'locked',
      network: this.networkView(preset, hrp),
      account: account && hrp !== undefined ? await this.accountView(account, hrp) : null,
      idleLockMinutes: await this.session.getIdleTimeout(),
    };
  }

  /** The hrp, without a network round trip when the preset already fixes it. */
  private async identityOrPresetHrp(preset: Preset): Promise<string> {
    return this.#identities.get(preset.id)?.hrp ?? preset.hrp ?? (await this.identity(preset)).hrp;
  }

  async walletGenerateMnemonic(p: P<'wallet.generateMnemonic'>) {
    return { mnemonic: generateMnemonic(p.words) };
  }

  private async startFresh(accounts: AccountRecord[], nextHdIndex: number): Promise<WalletStatus> {
    // A new or restored vault starts with no accounts' caches, transfer journals or history.
    const prior = await this.state().catch(() => emptyState());
    const networkIds = networkIdsOf(prior);
    const stale = [
      ...prior.accounts.flatMap((a) => networkIds.flatMap((n) => [this.cacheKey(n, a.id), this.journalKey(n, a.id), this.outbox(n, a.id).key])),
      ...networkIds.map((n) => this.hiddenKey(n)),
    ];
    if (stale.length) await this.local.remove(stale);
    await this.updateState((s) => ({ ...s, version: STATE_VERSION, accounts, selectedAccountId: accounts[0]!.id, nextHdIndex }));
    return this.walletStatus();
  }

  async walletCreate(p: P<'wallet.create'>) {
    const mnemonic = await asField('mnemonic', () => normalizeMnemonic(p.mnemonic));
    if (await this.vaultExists()) throw new WalletError('vault-exists', 'a wallet already exists; restore it from its recovery phrase to replace it');
    await this.session.create(p.password, { mnemonic });
    return this.startFresh([{ id: newId(), name: 'Account 1', kind: 'hd', index: 0 }], 1);
  }

  async walletRestore(p: P<'wallet.restore'>) {
    const mnemonic = await asField('mnemonic', () => normalizeMnemonic(p.mnemonic));
    const loss = await this.restoreLoss();
    if (p.confirmLoss !== true && (loss.importedKeys > 0 || loss.unfinishedTransfers > 0)) throw new RestoreWouldDropError(loss);
    // No transfer may write its journal (of an account about to go) after the vault is replaced.
    this.#transfersStopped = true;
    try {
      await Promise.allSettled([...this.#transferRuns]);
      this.#root?.wipe();
      this.#root = null;
      await this.session.create(p.password, { mnemonic }, { replace: true });
      return await this.startFresh([{ id: newId(), name: 'Account 1', kind: 'hd', index: 0 }], 1);
    } finally {
      this.#transfersStopped = false;
    }
  }

  /** What replacing the vault would drop that the recovery phrase cannot bring back. */
  private async restoreLoss(): Promise<RestoreLoss> {
    // Unreadable settings name no accounts: the restore is the way out of that state.
    const s = await this.state().catch(() => emptyState());
    const importedAccounts = s.accounts.filter((a) => a.kind === 'imported').length;
    const importedKeys = this.session.isUnlocked() ? Math.max(importedAccounts, this.session.secrets().importedKeys.length) : importedAccounts;
    let unfinishedTransfers = 0;
    for (const networkId of networkIdsOf(s)) {
      for (const a of s.accounts) {
        const journal = new TransferJournal(this.local, this.journalKey(networkId, a.id));
        unfinishedTransfers += (await journal.unfinished().catch(() => [])).length;
      }
    }
    return { importedKeys, unfinishedTransfers };
  }

  async walletCreateFromKey(p: P<'wallet.createFromKey'>) {
    const secret = await asField('privateKey', () => parseSecretKey(p.privateKey));
    if (await this.vaultExists()) throw new WalletError('vault-exists', 'a wallet already exists');
    const keyId = newId();
    await this.session.create(p.password, { importedKeys: [{ id: keyId, name: p.name, secretHex: toHex(secret) }] });
    return this.startFresh([{ id: newId(), name: p.name, kind: 'imported', keyId }], 0);
  }

  private async vaultExists(): Promise<boolean> {
    return (await this.local.get(['xpc.vault']))['xpc.vault'] !== undefined;
  }

  async walletUnlock(p: P<'wallet.unlock'>) {
    await this.session.unlock(p.password);
    return this.walletStatus();
  }

  async walletLock() {
    await this.session.lock();
    return this.walletStatus();
  }

  async walletChangePassword(p: P<'wallet.changePassword'>) {
    await asField('newPassword', () => this.session.changePassword(p.oldPassword, p.newPassword));
    return { ok: true as const };
  }

  async walletRevealMnemonic(p: P<'wallet.revealMnemonic'>) {
    await this.session.verifyPassword(p.password);
    const { mnemonic } = this.session.secrets();
    if (!mnemonic) throw new WalletError('no-mnemonic', 'this wallet has no recovery phrase (it was created from a private key)');
    return { mnemonic };
  }

  async walletExportPrivateKey(p: P<'wallet.exportPrivateKey'>) {
    await this.session.verifyPassword(p.password);
    const a = (await this.state()).accounts.find((x) => x.id === p.accountId);
    if (!a) throw new ValidationError('no such account', 'accountId');
    if (a.kind === 'hd') throw new WalletError('hd-account', 'an HD account is backed up by the recovery phrase; reveal the phrase instead');
    return { privateKey: formatPrivateKey(this.importedKey(a.keyId).secret) };
  }

  async walletSetIdleLock(p: P<'wallet.setIdleLock'>) {
    const setting = await asField('minutes', () => this.session.setIdleTimeout(p.minutes));
    return { minutes: setting.timeout, ...(setting.warning ? { warning: setting.warning } : {}) };
  }

  // ---- accounts ----

  async accountsList() {
    const s = await this.state();
    const hrp = await this.identityOrPresetHrp(this.presetOf(s, s.selectedNetworkId));
    return { accounts: await Promise.all(s.accounts.map((a) => this.accountView(a, hrp))), selectedId: s.selectedAccountId };
  }

  private async hrpNow(s: PersistedState): Promise<string> {
    return this.identityOrPresetHrp(this.presetOf(s, s.selectedNetworkId));
  }

  async accountsAdd(p: P<'accounts.add'>) {
    await this.root();
    let record: AccountRecord | undefined;
    const s = await this.updateState((s) => {
      record = { id: newId(), name: p.name, kind: 'hd', index: s.nextHdIndex };
      return { ...s, accounts: [...s.accounts, record], nextHdIndex: s.nextHdIndex + 1 };
    });
    return this.accountView(record!, await this.hrpNow(s));
  }

  async accountsImportKey(p: P<'accounts.importKey'>) {
    const secret = await asField('privateKey', () => parseSecretKey(p.privateKey));
    const shortId = toHex(keyPairFromSecret(secret).shortId);
    const record: AccountRecord = { id: newId(), name: p.name, kind: 'imported', keyId: newId() };
    // The key and its account are added together, checked against the vault as it is then.
    const s = await this.session.modify(async (secrets, write) => {
      if (secrets.importedKeys.some((k) => toHex(keyPairFromSecret(fromHex(k.secretHex)).shortId) === shortId)) {
        throw new ValidationError('this key is already in the wallet', 'privateKey');
      }
      await write({ ...secrets, importedKeys: [...secrets.importedKeys, { id: record.keyId, name: p.name, secretHex: toHex(secret) }] });
      return this.updateState((s) => ({ ...s, accounts: [...s.accounts, record] }));
    });
    return this.accountView(record, await this.hrpNow(s));
  }

  async accountsRename(p: P<'accounts.rename'>) {
    let renamed: AccountRecord | undefined;
    const s = await this.updateState((s) => {
      const a = s.accounts.find((x) => x.id === p.id);
      if (!a) throw new ValidationError('no such account', 'id');
      renamed = { ...a, name: p.name };
      return { ...s, accounts: s.accounts.map((x) => (x.id === p.id ? renamed! : x)) };
    });
    return this.accountView(renamed!, await this.hrpNow(s));
  }

  async accountsRemove(p: P<'accounts.remove'>) {
    await this.session.modify((secrets, write) =>
      this.updateState(async (s) => {
        const a = s.accounts.find((x) => x.id === p.id);
        if (!a) throw new ValidationError('no such account', 'id');
        if (s.accounts.length === 1) throw new ValidationError('the last account cannot be removed', 'id');
        if (a.kind === 'imported') await write({ ...secrets, importedKeys: secrets.importedKeys.filter((k) => k.id !== a.keyId) });
        const accounts = s.accounts.filter((x) => x.id !== p.id);
        return { ...s, accounts, selectedAccountId: s.selectedAccountId === p.id ? accounts[0]!.id : s.selectedAccountId };
      }),
    );
    await this.options.sites?.forgetAccount(p.id);
    return { ok: true as const };
  }

  async accountsSelect(p: P<'accounts.select'>) {
    await this.updateState((s) => {
      if (!s.accounts.some((a) => a.id === p.id)) throw new ValidationError('no such account', 'id');
      return { ...s, selectedAccountId: p.id };
    });
    return this.walletStatus();
  }

  // ---- networks ----

  async networksList() {
    const s = await this.state();
    const ids = networkIdsOf(s);
    return { networks: ids.map((id) => this.networkView(this.presetOf(s, id))), selectedId: s.selectedNetworkId };
  }

  async networksSelect(p: P<'networks.select'>) {
    const s = await this.state();
    const preset = this.presetOf(s, p.id);
    // Check the node is what it claims before switching: a mismatch leaves the selection as it was.
    this.#identities.delete(preset.id);
    await this.identity(preset);
    await this.updateState((now) => {
      this.presetOf(now, p.id); // still there: it may have been removed while the node was asked
      return { ...now, selectedNetworkId: p.id };
    });
    return this.walletStatus();
  }

  async networksAddCustom(p: P<'networks.addCustom'>) {
    const record: CustomNetwork = { id: `custom-${newId()}`, name: p.name, url: p.url, atomicNamespace: p.atomicNamespace ?? 'avax' };
    // Saved only once discoverNetwork checked it (a public network's EVM chain ID, self-consistency).
    const identity = await this.identity(this.presetOfCustom(record));
    record.hrp = identity.hrp;
    record.pinned = pinOf(identity);
    await this.updateState((s) => ({ ...s, customNetworks: [...s.customNetworks, record] }));
    return this.networkView(this.presetOfCustom(record));
  }

  private presetOfCustom(n: CustomNetwork): Preset {
    return {
      ...customPreset(n.url, { name: n.name }),
      atomicApi: { namespace: n.atomicNamespace, path: `/ext/bc/C/${n.atomicNamespace}` },
      id: n.id,
      ...(n.hrp ? { savedHrp: n.hrp } : {}),
      ...(n.pinned
        ? {
            networkID: n.pinned.networkID,
            hrp: hrpForNetworkId(n.pinned.networkID),
            evmChainID: n.pinned.evmChainID,
            known: { xChainID: n.pinned.xChainID, cChainID: n.pinned.cChainID, avaxAssetID: n.pinned.avaxAssetID },
          }
        : {}),
    };
  }

  async networksRemove(p: P<'networks.remove'>) {
    const s = await this.updateState((s) => {
      if (!s.customNetworks.some((n) => n.id === p.id)) throw new ValidationError('only custom networks can be removed', 'id');
      if (s.selectedNetworkId === p.id) throw new ValidationError('switch to another network before removing this one', 'id');
      return { ...s, customNetworks: s.customNetworks.filter((n) => n.id !== p.id) };
    });
    await this.local.remove([...s.accounts.flatMap((a) => [this.cacheKey(p.id, a.id), this.outbox(p.id, a.id).key]), this.hiddenKey(p.id)]);
    return { ok: true as const };
  }

  async networksHealth(p: P<'networks.health'>) {
    const s = await this.state();
    try {
      const report = await this.client(this.presetOf(s, p.id)).health.health();
      return { healthy: report.healthy, checks: Object.keys(report.checks) };
    } catch (e) {
      return { healthy: false, checks: [], error: (e as Error).message };
    }
  }

  // ---- balances ----

  /** The last known snapshot, at once; optionally starts a refresh without waiting for it. */
  async balancesGet(p: P<'balances.get'>): Promise<BalancesView> {
    const { account, preset } = await this.selected();
    const cache = await this.cache(preset.id, account.id);
    if (p.refresh) {
      void this.balancesRefresh().catch(() => undefined);
      return { ...cache.balances, refreshing: true };
    }
    return { ...cache.balances, refreshing: this.#refreshing !== null };
  }

  /** Refreshes from the node (one refresh at a time); on failure keeps the old snapshot with the error. */
  balancesRefresh(): Promise<BalancesView> {
    this.#refreshing ??= this.refreshNow().finally(() => {
      this.#refreshing = null;
    });
    return this.#refreshing;
  }

  private assetInfo(engine: WalletEngine, presetId: string, assetID: string) {
    return this.assetDescription(engine.node, presetId, assetID);
  }

  private async refreshNow(): Promise<BalancesView> {
    const { account, preset } = await this.selected();
    try {
      return await this.refreshFrom(await this.engine());
    } catch (e) {
      // Whatever went wrong (the node unreachable, slow, lying): the last snapshot stays, with why.
      let failed: BalancesView | undefined;
      await this.updateCache(preset.id, account.id, (c) => {
        failed = c.balances = { ...c.balances, refreshing: false, error: (e as Error).message };
      });
      return failed!;
    }
  }

  private async refreshFrom(ctx: Awaited<ReturnType<WalletService['engine']>>): Promise<BalancesView> {
    const { engine, preset, account } = ctx;
    let { cache } = ctx;
    const startedWith = new Set(cache.activity.map((a) => a.txID));
    const height = await engine.node.platform.getHeight();
    const restartable = preset.kind === 'local' || preset.kind === 'custom';
    if (height < BigInt(cache.pHeight) && restartable) {
      // The chain went back: a restarted local network. Its history, balances and UTXOs are not
      // true any more; the address indices stay (they are the wallet's own, never handed back).
      this.options.log?.(`network ${preset.id} restarted (height ${cache.pHeight} → ${height}); cache dropped`);
      cache = { ...emptyCache(), receiveNext: cache.receiveNext, changeNext: cache.changeNext };
    }
    // A public node behind a load balancer may answer from a lagging backend: never go back there.
    if (height > BigInt(cache.pHeight) || restartable) cache.pHeight = height.toString();
    const settledCache = cache;
    await this.settleActivity(engine, cache, this.outbox(preset.id, account.id), () => this.updateCache(preset.id, account.id, (stored) => mergeRefresh(stored, settledCache, startedWith)));

    const avax = cb58Encode(engine.ctx.avaxAssetID);
    const [x, pBal, cWei, waiting, xUtxos] = await Promise.all([
      engine.balances('X'),
      engine.balances('P'),
      engine.cBalanceWei(),
      engine.waitingFunds(),
      engine.utxos('X'),
    ]);
    const balances: AssetBalanceView[] = [];
    for (const b of x) {
      const id = cb58Encode(b.assetID);
      // An asset whose CreateAssetTx the node will not show is listed, not allowed to stop the refresh.
      const info = await this.assetInfo(engine, preset.id, id).catch((e: unknown) => {
        if (e instanceof ValidationError) return UNKNOWN_ASSET;
        throw e;
      });
      balances.push({ chain: 'X', assetID: id, ...info, verified: id === avax, ...amountsOf(b) });
    }
    const avaxInfo = await this.assetInfo(engine, preset.id, avax);
    const pAvax = pBal.find((b) => cb58Encode(b.assetID) === avax);
    balances.push({ chain: 'P', assetID: avax, ...avaxInfo, verified: true, ...amountsOf(pAvax) });
    balances.push({ chain: 'C', assetID: avax, ...avaxInfo, denomination: AVAX_EVM_DENOMINATION, verified: true, spendable: cWei.toString(), locked: '0', lockedStakeable: '0', unproven: '0' });
    await this.#proofs.save().catch((e: unknown) => this.options.log?.(`UTXO proofs not saved: ${(e as Error).message}`));

    // Read after the UTXOs: a move's tx is journaled before it is sent, so its outputs (an export's
    // change, an import) are always found here and never taken for incoming funds.
    const moveTxIDs = new Set((await this.journalActivity(preset, account.id)).map((m) => m.txID));
    // Only what a tx proves is listed as received: a made-up UTXO is not history.
    this.noteIncoming(cache, xUtxos.filter((u) => !engine.isUnproven(u)), 'X', moveTxIDs);
    cache.balances = {
      updatedAt: Date.now(),
      refreshing: false,
      balances,
      waiting: waiting.map((w) => ({ from: w.from as ChainName, to: w.to as ChainName, amount: w.amount.toString(), utxoCount: w.utxoCount })),
      ...(engine.droppedUtxos.length > 0 ? { warnings: droppedWarnings(engine.droppedUtxos) } : {}),
    };
    const refreshed = cache;
    await this.updateCache(preset.id, account.id, (stored) => mergeRefresh(stored, refreshed, startedWith));
    return refreshed.balances;
  }

  /** New X UTXOs from a tx the wallet did not issue (`moveTxIDs`: its moves' txs) are incoming funds. */
  private noteIncoming(cache: AccountCache, utxos: Utxo[], chain: ChainName, moveTxIDs: ReadonlySet<string>): void {
    const known = new Set(cache.knownUtxos);
    const ours = new Set([...cache.activity.map((a) => a.txID), ...moveTxIDs]);
    const firstRefresh = cache.knownUtxos.length === 0 && cache.balances.updatedAt === 0;
    for (const u of utxos) {
      const id = utxoId(u);
      const txID = cb58Encode(u.txID);
      if (known.has(id) || ours.has(txID) || firstRefresh) continue;
      const amount = u.output.kind === 'TransferOutput' ? u.output.amount.toString() : undefined;
      cache.activity.unshift({ txID, chain, kind: 'receive', status: 'accepted', assetID: cb58Encode(u.assetID), ...(amount ? { amount } : {}), createdAt: Date.now() });
      ours.add(txID);
    }
    cache.knownUtxos = utxos.map(utxoId);
    cache.activity = cache.activity.slice(0, MAX_ACTIVITY);
  }

  /**
   * Asks the node about every pending tx of the activity list: those with signed bytes in the
   * outbox by their fate (a swallowed one is sent again, as the same bytes; one whose inputs are
   * gone unproven stays pending, marked as being checked), the others by status. A send whose
   * worker died before it was listed is listed from its outbox entry.
   */
  /**
   * Settles the activity's pending items (the outbox's by their fate, the others by the node's
   * state) and saves them with `save` before any decided entry leaves the outbox.
   */
  private async settleActivity(engine: WalletEngine, cache: AccountCache, outbox: Outbox, save: () => Promise<void>): Promise<void> {
    const entries = await outbox.list();
    const listed = new Set(cache.activity.map((a) => a.txID));
    // A refused tx (voided: src/background/refused.ts) is listed only once it ran, or may have.
    for (const e of entries) if (!listed.has(e.txID) && !e.voided) addActivity(cache, { ...e.item, checking: true });
    const undecided = new Set(entries.map((e) => e.txID));
    const isAccepted = (txID: string) => cache.activity.some((a) => a.txID === txID && a.status === 'accepted');
    await settleOutbox(engine, outbox, async (settled) => {
      for (const e of entries) {
        // A refused tx listed again: it ran after all, or may have (followed as unclear).
        const fate = e.voided ? settled.get(e.txID) : undefined;
        if ((fate === 'accepted' || fate === 'unclear') && !cache.activity.some((a) => a.txID === e.txID)) {
          addActivity(cache, { ...e.item, ...(fate === 'accepted' ? { status: 'accepted' as const } : { checking: true }) });
        }
      }
      for (const item of cache.activity) {
        // An EVM tx is followed through the outbox only (txState knows X, P and atomic txs).
        if (item.status !== 'pending' || (item.txID.startsWith('0x') && !undecided.has(item.txID))) continue;
        const state = undecided.has(item.txID) ? settled.get(item.txID) : await engine.txState(item.chain, item.txID);
        if (state === 'accepted' || state === 'failed') {
          item.status = state;
          delete item.checking;
        } else if (state === 'unclear') item.checking = true;
      }
      await save();
    }, isAccepted);
  }

  // ---- issuing ----

  /**
   * Signs, issues, waits, and records the tx in the activity list; bumps the change address. A tx
   * whose fee is above `maxFee` (nAVAX, what the user approved) is refused before it is signed.
   */
  private async issue(kind: ActivityItem['kind'], built: BuiltTx, maxFee: string, extra: Partial<ActivityItem> = {}): Promise<Issued> {
    if (built.fee > BigInt(maxFee)) throw new WalletError('fee-above-approved', `the fee of ${built.fee} nAVAX is above the approved maximum of ${maxFee} nAVAX`);
    const ctx = await this.engine();
    const { engine, account, cache } = ctx;
    const chain: ChainAlias = built.tx.vm === 'avm' ? 'X' : built.tx.vm === 'pvm' ? 'P' : 'C';
    const replaced = await this.beforeSending(ctx, chain, { inputs: inputIds(built.tx) });
    const issued = engine.sign(built);
    const item: ActivityItem = { txID: issued.txID, chain: issued.chain, kind, status: 'pending', fee: issued.fee.toString(), createdAt: Date.now(), ...extra };
    // The address indices this engine used (scanned, and the change address if it got funds).
    const indices = { receiveNext: cache.receiveNext, changeNext: cache.changeNext + (account.kind === 'hd' && this.usesChange(built, engine) ? 1 : 0) };
    await this.deliver(ctx, issued, item, indices, true, replaced);
    return issued;
  }

  /**
   * Sends a signed tx so that no answer, lost answer or lie ever turns into a second payment: the
   * signed bytes go to the outbox and the pending item to Activity before anything reaches the
   * node; then it is sent once (sendOnce) and followed to a decision its inputs (or, on the
   * C-Chain, its nonce) confirm. Throws 'tx-refused' (nothing listed) or 'tx-failed'.
   */
  private async deliver(
    { engine, preset, account }: { engine: WalletEngine; preset: Preset; account: AccountRecord },
    signed: { chain: ChainAlias; txID: string; signedBytes: Bytes },
    item: ActivityItem,
    indices: { receiveNext: number; changeNext: number } = { receiveNext: 0, changeNext: 0 },
    follow = true,
    replaces: readonly string[] = [],
  ): Promise<ActivityItem> {
    const record = (c: AccountCache): void => {
      const known = c.activity.find((a) => a.txID === item.txID);
      // A refresh meanwhile may already know the outcome; a timed-out wait must not undo it.
      if (known) {
        known.status = item.status === 'pending' ? known.status : item.status;
        if (item.fee !== undefined) known.fee = item.fee;
        if (known.status !== 'pending' || !item.checking) delete known.checking;
        else known.checking = true;
      } else addActivity(c, { ...item });
      c.receiveNext = Math.max(c.receiveNext, indices.receiveNext);
      c.changeNext = Math.max(c.changeNext, indices.changeNext);
    };
    // Before anything can reach the node: the signed bytes (kept until the node decides, so an
    // unclear answer never leads to a new tx), then the pending item and the change index.
    const outbox = this.outbox(preset.id, account.id);
    const entry = outboxEntry(signed.chain, signed.txID, signed.signedBytes, item);
    // With it, the refused sends it takes the place of are marked, in the same write.
    await outbox.put(entry, replaces);
    await this.updateCache(preset.id, account.id, record);
    let sent: 'sent' | 'checking';
    try {
      sent = await sendOnce(engine, outbox, entry);
    } catch (e) {
      // A refusal with everything it spends unspent: nothing happened, so nothing is listed.
      if (e instanceof WalletError && e.code === 'tx-refused') await this.updateCache(preset.id, account.id, (c) => void (c.activity = c.activity.filter((a) => a.txID !== item.txID)));
      throw e;
    }
    if (sent === 'checking') {
      item.checking = true;
      await this.updateCache(preset.id, account.id, record);
      return item;
    }
    // Not followed here: the refreshes settle it from the outbox.
    if (!follow) return item;
    const outcome = await engine.node.waitForTx(signed.chain, signed.txID, engine.waitOptions).catch(() => null);
    // The node's word is checked against what the tx spends: a failure stands only while that is
    // unspent, an acceptance only once it is spent.
    const fate = outcome === null ? undefined : await engine.txFate(signed.chain, signed.txID, signed.signedBytes).catch(() => undefined);
    if (fate === 'accepted' || fate === 'failed') {
      item.status = fate;
      await outbox.remove(signed.txID);
      // An EVM tx's fee is what its receipt charged, not the most it could have.
      if (outcome?.receipt && item.fee !== undefined) {
        const most = BigInt(item.fee);
        const paid = await evmFeePaid(engine, signed.txID, outcome.receipt).catch(() => most);
        // The receipt is the node's word: never shown above what the tx could cost.
        item.fee = (paid < most ? paid : most).toString();
      }
    } else if (fate === 'inputs-spent') item.checking = true;
    await this.updateCache(preset.id, account.id, record);
    if (item.status === 'failed') throw new WalletError('tx-failed', `the ${signed.chain}-Chain did not accept the transaction: ${outcome?.reason ?? outcome?.status}`);
    return item;
  }

  private usesChange(built: BuiltTx, engine: WalletEngine): boolean {
    if (built.tx.vm === 'evm') return false;
    const change = toHex(engine.changeOwners.addresses[0]!);
    return built.tx.outputs.some((o) => o.output.kind === 'TransferOutput' && o.output.owners.addresses.some((a) => toHex(a) === change));
  }

  async sendX(p: P<'send.x'>) {
    const { engine } = await this.engine();
    const to = this.ownersFrom(p.to, 'X', engine.ctx.hrp);
    const built = await engine.buildXSend([{ assetID: parseId(p.assetID), amount: BigInt(p.amount), owners: to }], p.memo ? new TextEncoder().encode(p.memo) : undefined);
    const issued = await this.issue('send', built, p.maxFee, { assetID: p.assetID, amount: p.amount, ...(p.memo ? { memo: p.memo } : {}) });
    return { txID: issued.txID, fee: issued.fee.toString() };
  }

  async sendP(p: P<'send.p'>) {
    const { engine } = await this.engine();
    const built = await engine.buildPSend(BigInt(p.amount), this.ownersFrom(p.to, 'P', engine.ctx.hrp));
    const issued = await this.issue('send', built, p.maxFee, { assetID: cb58Encode(engine.ctx.avaxAssetID), amount: p.amount });
    return { txID: issued.txID, fee: issued.fee.toString() };
  }

  async sendC(p: P<'send.c'>) {
    const ctx = await this.engine();
    return this.withEvmLock(ctx.account.id, async () => {
      const live = await this.settleRefusedHere(ctx, 'C', true);
      const own = await this.ownEvmNonces(ctx.preset, ctx.account);
      const signed = await ctx.engine.signC(p.to, BigInt(p.amountWei), undefined, { maxFeeWei: BigInt(p.maxFeeWei), own });
      const replaced = conflictsOf(live, 'C', { nonce: evmTxNonce(signed.signedBytes) });
      // Listed with the most it can cost until its receipt says what it did.
      const item: ActivityItem = { txID: signed.txID, chain: 'C', kind: 'send', status: 'pending', amount: p.amountWei, fee: signed.maxFeeWei.toString(), createdAt: Date.now() };
      const done = await this.deliver(ctx, { chain: 'C', ...signed }, item, undefined, true, replaced);
      return { txHash: signed.txID, fee: done.fee! };
    });
  }

  /**
   * The fee the send would pay and the most it could send, from the same UTXOs and builder the
   * send uses; nothing is signed. Not enough funds: the send's own InsufficientFundsError.
   */
  async sendEstimate(p: P<'send.estimate'>) {
    const { engine } = await this.engine();
    if (p.chain === 'C') {
      const [balance, baseFee, tip] = await Promise.all([engine.cBalanceWei(), engine.node.eth.baseFee(), engine.node.eth.maxPriorityFeePerGas()]);
      const fee = PLAIN_TRANSFER_GAS * eip1559Fees(baseFee, tip).maxFeePerGas;
      const amount = BigInt(p.amountWei);
      if (amount + fee > balance) throw new InsufficientFundsError(cb58Encode(engine.ctx.avaxAssetID), amount + fee, balance, 'AVAX on the C-Chain (wei)');
      return { fee: fee.toString(), maxAmount: (balance - fee).toString() };
    }
    const ctx = engine.ctx;
    const changeOwners = engine.changeOwners;
    if (p.chain === 'X') {
      const to = this.ownersFrom(p.to, 'X', ctx.hrp);
      const assetID = parseId(p.assetID);
      const memo = p.memo ? new TextEncoder().encode(p.memo) : undefined;
      const pool = await engine.spendable('X');
      const build = (amount: bigint) => buildXSend({ ctx, pool, changeOwners, ...(memo ? { memo } : {}), payments: [{ assetID, amount, owners: to }] });
      const fee = build(BigInt(p.amount)).fee;
      const isAvax = toHex(assetID) === toHex(ctx.avaxAssetID);
      const maxAmount = largestAmount({ pool, assetID, feesFor: () => [isAvax ? ctx.xTxFee : 0n], build });
      return { fee: fee.toString(), maxAmount: maxAmount.toString() };
    }
    const to = this.ownersFrom(p.to, 'P', ctx.hrp);
    const [pool, feeCtx] = await Promise.all([engine.spendable('P'), engine.pFeeContext()]);
    const build = (amount: bigint) => buildPSend({ ctx, fee: feeCtx, pool, changeOwners, amount, to });
    const fee = build(BigInt(p.amount)).fee;
    const payment = avaxOutput(ctx, to);
    const maxAmount = largestAmount({ pool, assetID: ctx.avaxAssetID, feesFor: (inputs) => pSpendFees(ctx, feeCtx, 'BaseTx', inputs, payment, changeOwners), build });
    return { fee: fee.toString(), maxAmount: maxAmount.toString() };
  }

  /** The network's fixed X-Chain fees, the same the builders charge (they read the same context). */
  async assetsFees() {
    const { preset } = await this.selected();
    const ctx = chainContextOf(await this.identity(preset));
    return { createAsset: ctx.xCreateAssetTxFee.toString(), operation: ctx.xTxFee.toString() };
  }

  async assetsCreate(p: P<'assets.create'>) {
    const { engine } = await this.engine();
    const hrp = engine.ctx.hrp;
    const states =
      p.kind === 'fixed'
        ? [fixedCapState((p.holders ?? []).map((h) => ({ owners: this.ownersFrom(h.owners, 'X', hrp), amount: BigInt(h.amount) })))]
        : p.kind === 'variable'
          ? [variableCapState((p.minters ?? []).map((m) => this.ownersFrom(m, 'X', hrp)), (p.holders ?? []).map((h) => ({ owners: this.ownersFrom(h.owners, 'X', hrp), amount: BigInt(h.amount) })))]
          : [nftFamilyState((p.minters ?? []).map((m) => this.ownersFrom(m, 'X', hrp)))];
    const built = await engine.buildXCreateAsset({ name: p.name, symbol: p.symbol, denomination: p.denomination, initialStates: states });
    const issued = await this.issue('create-asset', built, p.maxFee);
    return { txID: issued.txID, assetID: issued.txID, fee: issued.fee.toString() };
  }

  private async assetUtxo(engine: WalletEngine, assetID: string, match: (u: Utxo) => boolean, what: string): Promise<Utxo> {
    const owned = ownedOf(engine);
    const found = (await engine.assetUtxos(parseId(assetID))).find((u) => match(u) && canSign(u, owned));
    if (!found) throw new ValidationError(`this wallet holds no ${what} of asset ${assetID}`, 'assetID');
    return found;
  }

  async assetsMint(p: P<'assets.mint'>) {
    const { engine } = await this.engine();
    const mintUtxo = await this.assetUtxo(engine, p.assetID, (u) => u.output.kind === 'MintOutput', 'mint right');
    const built = await engine.buildXMint(mintUtxo, BigInt(p.amount), this.ownersFrom(p.to, 'X', engine.ctx.hrp));
    const issued = await this.issue('mint', built, p.maxFee, { assetID: p.assetID, amount: p.amount });
    return { txID: issued.txID, fee: issued.fee.toString() };
  }

  async assetsMintNft(p: P<'assets.mintNft'>) {
    const { engine } = await this.engine();
    const mintUtxo = await this.assetUtxo(engine, p.assetID, (u) => u.output.kind === 'NftMintOutput' && u.output.groupID === p.groupID, `NFT mint right for group ${p.groupID}`);
    const to = p.to.map((o) => this.ownersFrom(o, 'X', engine.ctx.hrp));
    const built = await engine.buildXNftMint(mintUtxo, fromHex(p.payloadHex), to);
    const issued = await this.issue('nft-mint', built, p.maxFee, { assetID: p.assetID });
    return { txID: issued.txID, fee: issued.fee.toString() };
  }

  async assetsTransferNft(p: P<'assets.transferNft'>) {
    const { engine } = await this.engine();
    const ref = parseUtxoId(p.utxoID);
    const nft = (await engine.utxos('X')).find((u) => utxoId(u) === utxoId(ref));
    if (!nft) throw new ValidationError('this wallet does not hold that NFT', 'utxoID');
    const built = await engine.buildXNftTransfer(nft, this.ownersFrom(p.to, 'X', engine.ctx.hrp));
    const issued = await this.issue('nft-transfer', built, p.maxFee, { assetID: cb58Encode(nft.assetID) });
    return { txID: issued.txID, fee: issued.fee.toString() };
  }

  /** NFTs on X this wallet can send: its keys meet the owners' threshold and nothing is time-locked. */
  async assetsListNfts() {
    const { engine, preset } = await this.engine();
    const owned = ownedOf(engine);
    const nfts: NftView[] = [];
    for (const u of await engine.utxos('X')) {
      if (u.output.kind !== 'NftTransferOutput' || !canSign(u, owned)) continue;
      const assetID = cb58Encode(u.assetID);
      const { name, symbol } = await this.assetInfo(engine, preset.id, assetID);
      nfts.push({ utxoID: utxoId(u), assetID, groupID: u.output.groupID, payloadHex: toHex(u.output.payload), name, symbol });
    }
    return { nfts };
  }

  /** Mint rights on X (variable-cap assets and NFT groups) this wallet can sign for. */
  async assetsMintRights() {
    const { engine, preset } = await this.engine();
    const owned = ownedOf(engine);
    const rights: MintRightView[] = [];
    for (const u of await engine.utxos('X')) {
      const out = u.output;
      if ((out.kind !== 'MintOutput' && out.kind !== 'NftMintOutput') || !canSign(u, owned)) continue;
      const assetID = cb58Encode(u.assetID);
      const info = await this.assetInfo(engine, preset.id, assetID);
      rights.push({
        assetID,
        ...info,
        kind: out.kind === 'MintOutput' ? 'variable' : 'nft',
        ...(out.kind === 'NftMintOutput' ? { groupID: out.groupID } : {}),
        threshold: out.owners.threshold,
        addresses: out.owners.addresses.map((a) => formatAddress('X', engine.ctx.hrp, a)),
      });
    }
    return { rights };
  }

  // ---- cross-chain ----

  private async runner(): Promise<{ runner: TransferRunner; journal: TransferJournal }> {
    const { engine, preset, account } = await this.engine();
    const journal = new TransferJournal(this.local, this.journalKey(preset.id, account.id));
    const checkpoint = (): void => {
      if (this.#transfersStopped) throw new WalletError('transfers-stopped', 'cross-chain transfers are stopped while the wallet is being replaced');
    };
    return { runner: new TransferRunner(engine, journal, { checkpoint }), journal };
  }

  /** Keeps `run` among the runs a restore waits for until it settles. */
  private trackTransferRun<T>(run: Promise<T>): Promise<T> {
    this.#transferRuns.add(run);
    const done = (): void => void this.#transferRuns.delete(run);
    run.then(done, done);
    return run;
  }

  private transferView(r: TransferRecord): TransferView {
    const importFee = r.imports.reduce((s, i) => s + BigInt(i.fee), 0n);
    return {
      id: r.id,
      from: r.from,
      to: r.to,
      amount: r.amount,
      state: r.state,
      importTxIDs: r.imports.map((i) => i.txID),
      ...(r.export ? { exportTxID: r.export.txID, exportFee: r.export.fee } : {}),
      ...(r.imports.length ? { importFee: importFee.toString() } : {}),
      ...(r.error ? { error: r.error } : {}),
    };
  }

  /** Journals the move and returns at once; the export and import run on (and resume after a restart). */
  async transfersStart(p: P<'transfers.start'>) {
    const { runner } = await this.runner();
    const record = await runner.begin(p.from as ChainAlias, p.to as ChainAlias, BigInt(p.amount), BigInt(p.maxFee));
    void this.trackTransferRun(runner.run(record)).catch((e: unknown) => this.options.log?.(`transfer ${record.id} paused: ${(e as Error).message}`));
    return this.transferView(record);
  }

  /**
   * The export's fee (built exactly as the transfer builds it, not signed), the import's fee for one
   * UTXO of `amount` on the destination chain, and the largest amount the export can carry.
   */
  async transfersEstimate(p: P<'transfers.estimate'>) {
    const { engine } = await this.engine();
    const from = p.from as ChainAlias;
    const to = p.to as ChainAlias;
    const amount = BigInt(p.amount);
    const exported = await engine.buildExport(from, to, amount);
    const [importFee, maxAmount] = await Promise.all([engine.estimateImportFee(to, from, amount), this.largestExport(engine, from, to, exported.fee)]);
    return { exportFee: exported.fee.toString(), importFee: importFee.toString(), maxAmount: maxAmount.toString() };
  }

  /** The largest amount an export from `from` can carry after its fee (`cExportFee`: the C export's, which no amount changes). */
  private async largestExport(engine: WalletEngine, from: ChainAlias, to: ChainAlias, cExportFee: bigint): Promise<bigint> {
    const ctx = engine.ctx;
    const changeOwners = engine.changeOwners;
    // One owner address, as buildExport's; which one does not change the size or the fee.
    const owner = changeOwners;
    if (from === 'C') {
      const navax = (await engine.cBalanceWei()) / WEI_PER_NAVAX;
      return navax > cExportFee ? navax - cExportFee : 0n;
    }
    if (from === 'X') {
      const pool = await engine.spendable('X');
      const destination = to as 'P' | 'C';
      return largestAmount({
        pool,
        assetID: ctx.avaxAssetID,
        feesFor: () => [ctx.xTxFee],
        build: (amount) => buildXExport({ ctx, pool, changeOwners, destination, amount, to: owner }),
      });
    }
    const [pool, feeCtx] = await Promise.all([engine.spendable('P'), engine.pFeeContext()]);
    const destination = to as 'X' | 'C';
    const exportedOutput = avaxOutput(ctx, owner);
    return largestAmount({
      pool,
      assetID: ctx.avaxAssetID,
      feesFor: (inputs) => pSpendFees(ctx, feeCtx, 'ExportTx', inputs, exportedOutput, changeOwners),
      build: (amount) => buildPExport({ ctx, fee: feeCtx, pool, changeOwners, destination, amount, to: owner }),
    });
  }

  async transfersList() {
    const { journal } = await this.runner();
    return { transfers: (await journal.list()).map((r) => this.transferView(r)).reverse() };
  }

  /**
   * Finishes every journaled transfer (worker start, alarm). One pass at a time: two passes over
   * one journal would build two imports of the same atomic UTXOs.
   */
  resumeTransfers(): Promise<void> {
    if (!this.session.isUnlocked()) return Promise.resolve();
    this.#resuming ??= this.trackTransferRun(this.runner().then(({ runner }) => runner.resumeAll()))
      .then(() => undefined)
      .finally(() => {
        this.#resuming = null;
      });
    return this.#resuming;
  }

  async transfersImportWaiting() {
    const { engine, preset, account } = await this.engine();
    // A running move imports its own export's funds; this imports everything else.
    const running = await new TransferJournal(this.local, this.journalKey(preset.id, account.id)).unfinished();
    const imported = await engine.importAllWaiting(new Set(running.flatMap((r) => (r.export ? [r.export.txID] : []))));
    await this.updateCache(preset.id, account.id, (c) => {
      for (const i of imported) addActivity(c, { txID: i.txID, chain: i.chain, kind: 'import', status: 'accepted', fee: i.fee.toString(), createdAt: Date.now() });
    });
    return { txIDs: imported.map((i) => i.txID) };
  }

  /**
   * The account's transactions, newest first: the cached list, with the export and imports of every
   * journaled move (the journal is their record; the cache never holds them).
   */
  async activityList() {
    const { account, preset } = await this.selected();
    const cache = await this.cache(preset.id, account.id);
    const moves = await this.journalActivity(preset, account.id);
    const inJournal = new Set(moves.map((m) => m.txID));
    const items = [...moves, ...cache.activity.filter((a) => !inJournal.has(a.txID))];
    // Stable: items created in the same millisecond keep the cache's newest-first order.
    items.sort((a, b) => b.createdAt - a.createdAt);
    return { items: items.slice(0, MAX_ACTIVITY) };
  }

  /** The move txs of the account's journal as activity items; none while the journal is unreadable (Move shows why). */
  private async journalActivity(preset: Preset, accountId: string): Promise<ActivityItem[]> {
    const records = await new TransferJournal(this.local, this.journalKey(preset.id, accountId)).list().catch(() => []);
    if (records.length === 0) return [];
    const avax = (await this.identity(preset)).avaxAssetID;
    return records.flatMap((r) => transferActivity(r, avax));
  }

  // ---- settings ----

  /** Hidden asset IDs of the selected network (not per account: an asset is hidden wherever it shows). */
  async settingsGetHiddenAssets() {
    const s = await this.state();
    const key = this.hiddenKey(s.selectedNetworkId);
    const stored = (await this.local.get([key]))[key];
    const assetIDs = Array.isArray(stored) ? stored.filter((id): id is string => typeof id === 'string') : [];
    return { assetIDs };
  }

  async settingsSetHiddenAssets(p: P<'settings.setHiddenAssets'>) {
    const s = await this.state();
    await this.local.set({ [this.hiddenKey(s.selectedNetworkId)]: p.assetIDs });
    return { ok: true as const };
  }

  // ---- for site requests (src/background/provider.ts) ----

  /** The selected network, and its C-Chain's EVM chain ID (from the preset while locked or offline). */
  async siteNetwork(): Promise<{ network: NetworkView; evmChainId: bigint }> {
    const s = await this.state();
    const preset = this.presetOf(s, s.selectedNetworkId);
    const known = preset.evmChainID ?? this.#identities.get(preset.id)?.evmChainID;
    const evmChainId = BigInt(known ?? (await this.identity(preset)).evmChainID);
    return { network: this.networkView(preset), evmChainId };
  }

  /** The Avalanche networks the wallet knows, with their EVM chain IDs where known without a call. */
  async siteNetworks(): Promise<{ id: string; name: string; evmChainId?: bigint }[]> {
    const s = await this.state();
    const ids = networkIdsOf(s);
    return ids.map((id) => {
      const preset = this.presetOf(s, id);
      const chainId = preset.evmChainID ?? this.#identities.get(id)?.evmChainID;
      return { id, name: preset.name, ...(chainId !== undefined ? { evmChainId: BigInt(chainId) } : {}) };
    });
  }

  /** An engine for one account on the selected network; its keys stay inside it. */
  async siteEngine(accountId: string): Promise<WalletEngine> {
    return (await this.engine(accountId)).engine;
  }

  /** Runs `use` with the account's EVM secret key; the key does not outlive the call. */
  async withEvmSecret<T>(accountId: string, use: (secret: Bytes) => T): Promise<T> {
    const { account } = await this.selected(accountId);
    return use((await this.primaryKeys(account)).evm.secret);
  }

  /** Runs `use` with the account's first X/P key (the address its X and P views show). */
  async withXpKey<T>(accountId: string, use: (key: KeyPair) => T): Promise<T> {
    const { account } = await this.selected(accountId);
    return use((await this.primaryKeys(account)).xp);
  }

  /** A tx a site had signed and issued, in the account's activity list. */
  /** The nonces of this account's C-Chain EVM txs the node has not decided on, or refused (the outbox). */
  private async ownEvmNonces(preset: Preset, account: AccountRecord): Promise<EvmNonces> {
    const entries = (await this.outbox(preset.id, account.id).list()).filter((e) => e.chain === 'C' && isEvmHash(e.txID));
    const nonceOf = (e: OutboxEntry) => evmTxNonce(fromHex(e.signedHex));
    return { live: entries.filter((e) => !e.voided).map(nonceOf), voided: entries.filter((e) => e.voided).map(nonceOf) };
  }

  /** The nonce the account's next C-Chain EVM tx takes (WalletEngine.evmNonce, with the outbox). */
  async evmNonceFor(accountId: string): Promise<bigint> {
    const { engine, preset, account } = await this.engine(accountId);
    return engine.evmNonce(await this.ownEvmNonces(preset, account));
  }

  /** settleRefused (src/background/refused.ts) for this account, listing what it finds. */
  private async settleRefusedHere({ engine, preset, account }: { engine: WalletEngine; preset: Preset; account: AccountRecord }, chain: ChainAlias, evm: boolean): Promise<OutboxEntry[]> {
    const { activity } = await this.cache(preset.id, account.id);
    const list = (item: ActivityItem) =>
      this.updateCache(preset.id, account.id, (c) => {
        const known = c.activity.find((a) => a.txID === item.txID);
        if (!known) addActivity(c, item);
        else Object.assign(known, { status: item.status, ...(item.checking ? { checking: true } : {}) });
      });
    return settleRefused(engine, this.outbox(preset.id, account.id), chain, evm, list, (txID) => activity.some((a) => a.txID === txID && a.status === 'accepted'));
  }

  /**
   * Before an X/P (or C-atomic) tx spending `inputs` is signed: what became of refused sends on
   * its chain (one that ran stops this one), and which of them it replaces (conflictsOf).
   */
  private async beforeSending(ctx: { engine: WalletEngine; preset: Preset; account: AccountRecord }, chain: ChainAlias, tx: { inputs: string[] }): Promise<string[]> {
    if (chain === 'C') return [];
    return conflictsOf(await this.settleRefusedHere(ctx, chain, false), chain, tx);
  }

  /**
   * One C-Chain EVM send per account at a time, from choosing its nonce until it is in the outbox
   * (and, for the wallet's own sends, followed): two sends never take the same nonce.
   */
  private withEvmLock<T>(accountId: string, run: () => Promise<T>): Promise<T> {
    const next = (this.#evmLocks.get(accountId) ?? Promise.resolve()).then(run, run);
    this.#evmLocks.set(accountId, next.catch(() => undefined));
    return next;
  }

  /**
   * Before the signed bytes of a site's X/P tx go back to the site (which may send them itself):
   * the checks a send of the wallet's own gets (a refused send that ran stops it; one that could
   * still run must be replaced by it).
   */
  async checkSiteSigning(accountId: string, chain: ChainAlias, signedBytes: Bytes): Promise<void> {
    if (chain === 'C') return;
    await this.beforeSending(await this.engine(accountId), chain, { inputs: inputIds(decodeChainTx(chain, signedBytes)) });
  }

  /**
   * Sends a tx a site had approved exactly as the wallet sends its own (outbox first, the node's
   * answer checked, never a second tx for one approval); returns once sent, not once accepted.
   */
  async sendSiteTx(accountId: string, signed: { chain: ChainAlias; txID: string; signedBytes: Bytes }, item: ActivityItem): Promise<void> {
    const ctx = await this.engine(accountId);
    if (!isEvmHash(signed.txID)) {
      const replaced = await this.beforeSending(ctx, signed.chain, { inputs: inputIds(decodeChainTx(signed.chain, signed.signedBytes)) });
      await this.deliver(ctx, signed, item, undefined, false, replaced);
      return;
    }
    await this.withEvmLock(accountId, async () => {
      const live = await this.settleRefusedHere(ctx, 'C', true);
      // The nonce was chosen when the site asked; a send since then took it (or refused one freed another).
      const nonce = evmTxNonce(signed.signedBytes);
      const now = await ctx.engine.evmNonce(await this.ownEvmNonces(ctx.preset, ctx.account));
      if (nonce !== now) throw new WalletError('stale-approval', `another C-Chain transaction of this account went out since this one was approved (nonce ${nonce}, now ${now}); nothing was sent: ask again`);
      const replaced = conflictsOf(live, 'C', { nonce });
      await this.deliver(ctx, signed, item, undefined, false, replaced);
    });
  }

  // ---- connected sites ----

  private sitesStore(): SiteStore {
    if (!this.options.sites) throw new WalletError('unavailable', 'connected sites are not available here');
    return this.options.sites;
  }

  async sitesList(): Promise<{ sites: SiteView[]; chains: AddedChainView[] }> {
    const store = this.sitesStore();
    const s = await this.state();
    const hrp = await this.hrpNow(s);
    const views = new Map<string, AccountView>();
    for (const a of s.accounts) views.set(a.id, await this.accountView(a, hrp));
    const sites = Object.entries(await store.all())
      .map(([origin, p]) => ({
        origin,
        connectedAt: p.connectedAt,
        accounts: p.accountIds.flatMap((id) => {
          const v = views.get(id);
          return v ? [{ id, name: v.name, cAddress: v.cAddress }] : [];
        }),
      }))
      .sort((a, b) => b.connectedAt - a.connectedAt);
    const { chains, activeChainId } = await store.chains();
    return { sites, chains: chains.map((c) => ({ ...c, active: c.chainId === activeChainId })) };
  }

  async sitesRevoke(p: P<'sites.revoke'>) {
    if (!(await this.sitesStore().revoke(p.origin))) throw new ValidationError('that site is not connected', 'origin');
    return { ok: true as const };
  }

  async sitesRemoveChain(p: P<'sites.removeChain'>) {
    if (!(await this.sitesStore().removeChain(p.chainId))) throw new ValidationError('no chain with that ID was added', 'chainId');
    return { ok: true as const };
  }

  // ---- approvals (site requests waiting for the user) ----

  /**
   * What the approval window shows; the validated params stay in the background. Only while
   * unlocked: whoever sees and approves a site's request is whoever could unlock the wallet.
   */
  async approvalsList(): Promise<{ approvals: ApprovalView[] }> {
    if (!this.session.isUnlocked()) throw new VaultLockedError();
    const pending = (await this.options.approvals?.list()) ?? [];
    return {
      approvals: pending.map((p) => ({
        id: p.id,
        origin: p.origin,
        ...(p.frameOrigin !== undefined ? { frameOrigin: p.frameOrigin } : {}),
        method: p.method,
        createdAt: p.createdAt,
        summary: p.summary as ApprovalSummary,
      })),
    };
  }

  /** The sites waiting for an answer; also while locked, so the unlock form can name them. */
  async approvalsWaiting(): Promise<{ sites: string[] }> {
    const pending = (await this.options.approvals?.list()) ?? [];
    return { sites: [...new Set([...pending.map(requesterOf), ...(this.options.sitesWaitingForUnlock?.() ?? [])])] };
  }

  /** Approving needs the wallet unlocked; rejecting never does (closing a locked window rejects). */
  async approvalsDecide(p: P<'approvals.decide'>) {
    if (p.approved && !this.session.isUnlocked()) throw new VaultLockedError();
    if (!this.options.approvals) throw new UnknownApprovalError(p.id);
    await this.options.approvals.decide(p.id, p.approved);
    return { ok: true as const };
  }

  /**
   * The approval window's view of an X/P/C-atomic tx: decoded from the exact bytes that would be
   * signed, on the selected network, with every asset it moves named. For the provider to enqueue.
   */
  async approvalSummaryForTx(
    tx: UnsignedTx,
    spent: readonly Utxo[],
    unsignedBytes: Bytes = encodeUnsignedTx(tx),
  ): Promise<Omit<Extract<ApprovalSummary, { kind: 'tx' }>, 'action' | 'complete'>> {
    const { preset } = await this.selected();
    const identity = await this.identity(preset);
    const ctx = chainContextOf(identity);
    const view = describeTx(tx, ctx, spent);
    const avax = cb58Encode(ctx.avaxAssetID);
    const assets: Record<string, ApprovalAssetInfo> = {};
    const client = this.client(preset);
    for (const assetID of assetIdsOf(view)) {
      if (assetID === avax) {
        assets[assetID] = { symbol: identity.avaxSymbol, denomination: identity.avaxDenomination, verified: true };
        continue;
      }
      try {
        parseId(assetID);
      } catch {
        continue;
      }
      const info = await this.assetDescription(client, preset.id, assetID).catch(() => undefined);
      // An asset the node cannot describe is shown by its ID alone.
      if (info) assets[assetID] = { symbol: info.symbol, denomination: info.denomination, verified: false };
    }
    if (view.asset) assets[NEW_ASSET] = { symbol: view.asset.symbol, denomination: view.asset.denomination, verified: false };
    return { kind: 'tx', chain: view.chain, unsignedHex: `0x${toHex(unsignedBytes)}`, view, assets };
  }

  /** An asset's name, symbol and decimals, read from its CreateAssetTx once per network and worker. */
  private async assetDescription(client: NodeClient, presetId: string, assetID: string): Promise<ProvenAsset> {
    const key = `${presetId}:${assetID}`;
    let info = this.#assetNames.get(key);
    if (!info) {
      info = await provenAsset(client, assetID);
      this.#assetNames.set(key, info);
    }
    return info;
  }
}

/**
 * Saves a refresh over the cache as stored now: a send may have finished while the refresh waited
 * on the node. Items written meanwhile stay, and such a record of a tx wins over the "Received"
 * the refresh inferred from that tx's outputs; a status settled by either side is kept.
 * `startedWith`: the tx IDs of the activity the refresh read.
 */
export function mergeRefresh(stored: AccountCache, refreshed: AccountCache, startedWith: ReadonlySet<string>): void {
  const storedById = new Map(stored.activity.map((a) => [a.txID, a]));
  const writtenMeanwhile = (a: ActivityItem): boolean => !startedWith.has(a.txID);
  // An item the refresh read that is gone from storage was taken back meanwhile (a send refused).
  const activity = refreshed.activity.filter((mine) => storedById.has(mine.txID) || !startedWith.has(mine.txID)).map((mine) => {
    const theirs = storedById.get(mine.txID);
    if (!theirs) return mine;
    // A decision wins over "pending", whichever side made it (a send written meanwhile may be one
    // this refresh has just seen decided).
    if (theirs.status === 'pending' && mine.status !== 'pending') {
      const { checking: _wasChecking, ...rest } = theirs;
      return { ...rest, status: mine.status, ...(mine.fee !== undefined ? { fee: mine.fee } : {}) };
    }
    if (writtenMeanwhile(theirs)) return theirs;
    return mine.status === 'pending' && theirs.status !== 'pending' ? theirs : mine;
  });
  const listed = new Set(activity.map((a) => a.txID));
  const added = stored.activity.filter((a) => writtenMeanwhile(a) && !listed.has(a.txID));
  stored.activity = [...added, ...activity].slice(0, MAX_ACTIVITY);
  stored.pHeight = refreshed.pHeight;
  stored.balances = refreshed.balances;
  stored.knownUtxos = refreshed.knownUtxos;
  stored.receiveNext = Math.max(stored.receiveNext, refreshed.receiveNext);
  stored.changeNext = Math.max(stored.changeNext, refreshed.changeNext);
}

/**
 * The UTXOs a refresh left out, in words: per chain, how many, and why (a node's bad checksum is
 * not a zero balance: the user is told that something was not counted).
 */
const DROP_REASONS: readonly (readonly [string, string])[] = [
  ['bad hex', 'its checksum or encoding is wrong'],
  ['undecodable', 'it is not a valid UTXO'],
  ['owned by none', "it belongs to none of this account's addresses"],
  ['the node sent two different', 'two different ones came under one ID'],
  ['disproven', 'the transaction that would have created it says otherwise'],
];

function droppedWarnings(dropped: WalletEngine['droppedUtxos']): string[] {
  const byChain = new Map<string, Set<string>>();
  const reasons = new Map<string, Set<string>>();
  for (const d of dropped) {
    const where = d.sourceChain ? `${d.chain}-Chain's atomic memory (from the ${d.sourceChain}-Chain)` : `${d.chain}-Chain`;
    const ids = byChain.get(where) ?? new Set<string>();
    ids.add(d.id ?? d.reason);
    byChain.set(where, ids);
    const why = reasons.get(where) ?? new Set<string>();
    why.add(DROP_REASONS.find(([start]) => d.reason.startsWith(start))?.[1] ?? 'it does not hold up');
    reasons.set(where, why);
  }
  return [...byChain].map(([where, ids]) => `The node sent ${ids.size} ${ids.size === 1 ? 'entry' : 'entries'} for the ${where} that the wallet could not check (${[...reasons.get(where)!].join('; ')}): not counted in these balances.`);
}

/** How an asset with no CreateAssetTx to read is shown: its raw units, by its ID. */
const UNKNOWN_ASSET: ProvenAsset = { name: 'Unknown asset (no creating transaction)', symbol: '?', denomination: 0 };

/** A balance's amounts as the popup gets them (zero when the chain holds none of the asset). */
function amountsOf(b: AssetBalance | undefined): Pick<AssetBalanceView, 'spendable' | 'locked' | 'lockedStakeable' | 'unproven'> {
  return { spendable: (b?.spendable ?? 0n).toString(), locked: (b?.locked ?? 0n).toString(), lockedStakeable: (b?.lockedStakeable ?? 0n).toString(), unproven: (b?.unproven ?? 0n).toString() };
}

/** Puts `item` first in the activity list, which keeps at most MAX_ACTIVITY items. */
function addActivity(c: AccountCache, item: ActivityItem): void {
  c.activity.unshift(item);
  c.activity.length = Math.min(c.activity.length, MAX_ACTIVITY);
}

/** What describeTx names the asset a CreateAssetTx creates. */
const NEW_ASSET = 'new asset';

/** Every asset ID a tx view mentions, once each. */
function assetIdsOf(view: TxView): string[] {
  const ids = new Set<string>();
  for (const leg of [...view.inputs, ...view.outputs]) ids.add(leg.assetID);
  for (const op of view.operations) {
    ids.add(op.assetID);
    for (const leg of op.outputs) ids.add(leg.assetID);
  }
  ids.delete(NEW_ASSET);
  return [...ids];
}

// ---- helpers for estimates and listings ----

/** Short IDs (hex) of the account's X/P keys, as read off the engine's addresses. */
function ownedOf(engine: WalletEngine): OwnedAddresses {
  return ownedAddressSet(engine.addresses('X').map((a) => parseAddress(a).bytes));
}

/**
 * An X UTXO the wallet's builders will spend: its keys meet the owners' threshold and the owners
 * carry no locktime (the mint and NFT builders refuse any).
 */
function canSign(u: Utxo, owned: OwnedAddresses): boolean {
  const out = u.output;
  if (out.kind === 'StakeableLockOut') return false;
  return out.owners.locktime === 0n && signingIndices(out.owners, owned) !== undefined;
}

function avaxOutput(ctx: ChainContext, owners: OutputOwners): TransferableOutput {
  return { assetID: ctx.avaxAssetID, output: { kind: 'TransferOutput', amount: 0n, owners } };
}

/**
 * P-Chain fees of a tx spending `inputs` to `payment` (a BaseTx output or the exported output):
 * without change, then with one change output. Amounts do not change a P fee, only the shape does.
 */
function pSpendFees(
  ctx: ChainContext,
  fee: PFeeContext,
  kind: 'BaseTx' | 'ExportTx',
  inputs: readonly SpendableUtxo[],
  payment: TransferableOutput,
  changeOwners: OutputOwners,
): bigint[] {
  const change = avaxOutput(ctx, changeOwners);
  const base = { vm: 'pvm' as const, networkID: ctx.networkID, blockchainID: ctx.pChainID, inputs: inputs.map(toTransferableInput), memo: new Uint8Array() };
  const draft = (withChange: boolean): PTx => {
    const changeOuts = withChange ? [change] : [];
    return kind === 'BaseTx'
      ? { ...base, kind, outputs: [payment, ...changeOuts] }
      : { ...base, kind, outputs: changeOuts, destinationChain: ctx.xChainID, exportedOutputs: [payment] };
  };
  return [pTxFee(draft(false), fee), pTxFee(draft(true), fee)];
}

/**
 * The largest amount of `assetID` one tx can carry from `pool`. Candidates: the asset's UTXOs
 * largest first (the order the builders pick them in), as many as fit one tx, less each fee the
 * tx could settle on for those inputs (`feesFor`, in this asset; 0 when the fee is paid in another
 * asset). Each candidate, largest first, is built for real with `build`; the first that builds is
 * the answer. A candidate too large for one tx rules out every candidate with as many inputs.
 */
function largestAmount(p: {
  pool: readonly SpendableUtxo[];
  assetID: Bytes;
  feesFor: (inputs: readonly SpendableUtxo[]) => bigint[];
  build: (amount: bigint) => BuiltTx;
}): bigint {
  const hex = toHex(p.assetID);
  const own = p.pool.filter((s) => toHex(s.utxo.assetID) === hex).sort((a, b) => (a.amount === b.amount ? 0 : a.amount > b.amount ? -1 : 1));
  const total = own.reduce((sum, s) => sum + s.amount, 0n);
  const fit = packInputs(own, MAX_XP_TX_SIZE)[0]?.length ?? 0;
  const candidates: { amount: bigint; inputs: number }[] = [];
  let sum = 0n;
  for (let k = 1; k <= fit; k++) {
    sum += own[k - 1]!.amount;
    for (const fee of p.feesFor(own.slice(0, k))) if (sum > fee) candidates.push({ amount: sum - fee, inputs: k });
  }
  candidates.sort((a, b) => (a.amount === b.amount ? a.inputs - b.inputs : a.amount > b.amount ? -1 : 1));
  let tooLargeAt = Number.POSITIVE_INFINITY;
  let attempts = 0;
  let last: unknown = new InsufficientFundsError(cb58Encode(p.assetID), (p.feesFor(own.slice(0, 1))[0] ?? 0n) + 1n, total);
  for (const c of candidates) {
    if (c.inputs >= tooLargeAt) continue;
    if (++attempts > MAX_AMOUNT_ATTEMPTS) break;
    try {
      p.build(c.amount);
      return c.amount;
    } catch (e) {
      if (e instanceof TxTooLargeError) tooLargeAt = c.inputs;
      else if (!(e instanceof InsufficientFundsError)) throw e;
      last = e;
    }
  }
  throw last;
}

/** Wei a C-Chain tx paid: gas used × effective gas price, from its receipt. */
async function evmFeePaid(engine: WalletEngine, hash: string, known: EthReceipt | undefined): Promise<bigint> {
  const receipt = known ?? (await engine.node.eth.getTransactionReceipt(hash));
  if (!receipt) throw new WalletError('node-response', `the node has no receipt for the accepted C-Chain transaction ${hash}`);
  // A node that leaves effectiveGasPrice out (pre-London receipts): the block's base fee is what was burned.
  const price = receipt.effectiveGasPrice ?? (await engine.node.eth.getBlockByNumber(receipt.blockNumber))?.baseFeePerGas ?? 0n;
  return receipt.gasUsed * price;
}

/** For log lines and notes: an amount with its denomination. */
export function describeAmount(units: bigint, denomination: number, symbol: string): string {
  return `${formatAmount(units, denomination)} ${symbol}`;
}

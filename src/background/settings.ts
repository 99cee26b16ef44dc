// The wallet's non-secret settings (storage.local `xpc.state`): its accounts, the user's own
// networks and what is selected. Every change goes through `update`, one at a time.
import { toHex } from '../core/bytes.js';
import { type NetworkIdentity, PRESETS } from '../core/network.js';
import { ValidationError, WalletError } from '../core/errors.js';
import { MAX_INDEX } from '../core/keys.js';
import { MAX_NAME_LENGTH, sameDisplayName } from '../shared/validate-fields.js';
import type { StorageArea } from './storage.js';

const STATE_KEY = 'xpc.state';
const STATE_VERSION = 1;
/** Where settings that could not be read are set aside ({at, value}, the last few) when they are rebuilt from the vault. */
export const UNREADABLE_STATE_KEY = 'xpc.state.unreadable';

export type AccountRecord =
  | { id: string; name: string; kind: 'hd'; index: number }
  | { id: string; name: string; kind: 'imported'; keyId: string };

/** Refuses `name` for an account when another one (any but `exceptId`) reads the same (sameDisplayName). */
export function assertNameFree(accounts: readonly AccountRecord[], name: string, exceptId?: string): void {
  assertNameFreeAmong(accounts.filter((a) => a.id !== exceptId).map((a) => a.name), name, 'account');
}

/** Refuses `name` when one of `names` (the others of its kind: accounts, networks) reads the same. */
export function assertNameFreeAmong(names: readonly string[], name: string, kind: 'account' | 'network'): void {
  const taken = names.find((n) => sameDisplayName(n, name));
  if (taken !== undefined) throw new ValidationError(`another ${kind} is named “${taken}”: choose another name`, 'name');
}

/** `name`, or with the first free number after it ("Account 2 (2)"), for an account the wallet names itself beside `accounts`. */
export function freeName(accounts: readonly AccountRecord[], name: string): string {
  for (let n = 1; ; n++) {
    const suffix = n === 1 ? '' : ` (${n})`;
    // Cut by whole characters as shown (an emoji or a letter with its accent stays whole) to the
    // limit, which counts UTF-16 units (as displayName does).
    let base = '';
    for (const { segment } of new Intl.Segmenter().segment(name)) {
      if (base.length + segment.length > MAX_NAME_LENGTH - suffix.length) break;
      base += segment;
    }
    const candidate = base.trimEnd() + suffix;
    if (!accounts.some((a) => sameDisplayName(a.name, candidate))) return candidate;
  }
}

export interface CustomNetwork {
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

export interface PinnedIdentity {
  networkID: number;
  evmChainID: number;
  xChainID: string;
  cChainID: string;
  avaxAssetID: string;
}

export function pinOf(id: NetworkIdentity): PinnedIdentity {
  return { networkID: id.networkID, evmChainID: id.evmChainID, xChainID: id.xChainID, cChainID: id.cChainID, avaxAssetID: id.avaxAssetID };
}

export interface PersistedState {
  version: number;
  accounts: AccountRecord[];
  selectedAccountId: string | null;
  nextHdIndex: number;
  customNetworks: CustomNetwork[];
  selectedNetworkId: string;
  /**
   * Which recovery phrase the vault holds, told without it (phraseTagOf): a restore while locked
   * can then say whether the phrase typed is another one, which would drop the stored one. Absent:
   * no phrase, or not known yet (a vault from before it, until its next unlock).
   */
  phraseTag?: string;
}

// `accounts` a parameter only so that the minifier keeps one copy of the literal, not one per caller.
export function emptyState(accounts: AccountRecord[] = []): PersistedState {
  return { version: STATE_VERSION, accounts, selectedAccountId: null, nextHdIndex: 0, customNetworks: [], selectedNetworkId: 'local' };
}

/**
 * Every network the wallet knows: the presets and the user's own; the user's first when `ownFirst`
 * (one of them serving the same chains as a preset, the user's node is the one asked).
 */
export function networkIdsOf(s: PersistedState, ownFirst = false): string[] {
  const presets = Object.keys(PRESETS);
  const own = s.customNetworks.map((n) => n.id);
  return ownFirst ? [...own, ...presets] : [...presets, ...own];
}

/** A random ID for an account, a key or a custom network. */
export function newId(): string {
  return toHex(crypto.getRandomValues(new Uint8Array(8)));
}

/** What in the vault accounts point at: whether it holds a recovery phrase, and its imported keys. */
export interface VaultHoldings {
  hasMnemonic: boolean;
  importedKeys: readonly { id: string; name: string }[];
  /** phraseTagOf the vault's phrase, when it has one. */
  phraseTag?: string;
}

/**
 * The settings' accounts as the vault can back them, or null when they already are: an account
 * whose key the vault lacks is dropped (it could never sign), a vault key no account names gets one
 * back (a change that stopped between its two writes), and with none of the accounts left (or
 * settings rebuilt), the phrase's first. Nothing the vault holds is ever left without an account.
 */
export function reconciled(s: PersistedState, vault: VaultHoldings): PersistedState | null {
  const keyIds = new Set(vault.importedKeys.map((k) => k.id));
  const kept = s.accounts.filter((a) => (a.kind === 'hd' ? vault.hasMnemonic : keyIds.has(a.keyId)));
  const named = new Set(kept.flatMap((a) => (a.kind === 'imported' ? [a.keyId] : [])));
  const first: AccountRecord[] = kept.length === 0 && vault.hasMnemonic ? [{ id: newId(), name: 'Account 1', kind: 'hd', index: 0 }] : [];
  // A key given its account again is named as it was, unless another account has that name now.
  const orphans = vault.importedKeys.filter((k) => !named.has(k.id)).reduce<AccountRecord[]>((given, k) => [...given, { id: newId(), name: freeName([...first, ...kept, ...given], k.name), kind: 'imported', keyId: k.id }], []);
  const accounts = [...first, ...kept, ...orphans];
  const nextHdIndex = Math.max(s.nextHdIndex, ...accounts.map((a) => (a.kind === 'hd' ? a.index + 1 : 0)));
  const selectedAccountId = accounts.some((a) => a.id === s.selectedAccountId) ? s.selectedAccountId : (accounts[0]?.id ?? null);
  if (accounts.length === s.accounts.length && orphans.length === 0 && first.length === 0 && nextHdIndex === s.nextHdIndex && selectedAccountId === s.selectedAccountId && vault.phraseTag === s.phraseTag) return null;
  const { phraseTag: _old, ...rest } = s;
  return { ...rest, accounts, nextHdIndex, selectedAccountId, ...(vault.phraseTag !== undefined ? { phraseTag: vault.phraseTag } : {}) };
}

const isText = (v: unknown): v is string => typeof v === 'string';
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

const isHdIndex = (v: unknown, max: number): v is number => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= max;

function isAccountRecord(v: unknown): v is AccountRecord {
  if (!isObject(v) || !isText(v.id) || !isText(v.name)) return false;
  // An index no path can have would fail every status read, the unlock's too: unreadable instead.
  if (v.kind === 'hd') return isHdIndex(v.index, MAX_INDEX);
  return v.kind === 'imported' && isText(v.keyId);
}

/** Settings as this version writes them, whole: anything else is unreadable (and rebuilt at the next unlock). */
function isPersistedState(v: unknown): v is PersistedState {
  if (!isObject(v) || v.version !== STATE_VERSION || !Array.isArray(v.accounts) || !v.accounts.every(isAccountRecord)) return false;
  if (!(v.selectedAccountId === null || isText(v.selectedAccountId)) || !isHdIndex(v.nextHdIndex, MAX_INDEX + 1)) return false;
  if (!Array.isArray(v.customNetworks) || !v.customNetworks.every(isCustomNetwork)) return false;
  if (v.phraseTag !== undefined && !(isText(v.phraseTag) && /^[\da-f]{16}$/.test(v.phraseTag))) return false;
  return isText(v.selectedNetworkId) && networkIdsOf(v as unknown as PersistedState).includes(v.selectedNetworkId);
}

function isCustomNetwork(n: unknown): n is CustomNetwork {
  // A damaged pin must not read as pinned (never pinned again, the node's word taken unchecked) nor as none.
  const pin = isObject(n) && n.pinned;
  const pinOk = pin === undefined || (isObject(pin) && [pin.networkID, pin.evmChainID].every(Number.isSafeInteger) && [pin.xChainID, pin.cChainID, pin.avaxAssetID].every(isText));
  return isObject(n) && pinOk && isText(n.id) && isText(n.name) && isText(n.url) && isText(n.atomicNamespace);
}

/**
 * What can be kept of this version's settings that failed the whole check: every account record
 * and custom network that holds up (one bad field loses only itself), the selection if it still
 * names one, and the HD index never below what the accounts used. Another version's: nothing.
 */
function salvaged(raw: unknown): PersistedState {
  const s = emptyState();
  if (!isObject(raw) || raw.version !== STATE_VERSION) return s;
  const ids = new Set<string>();
  s.accounts = (Array.isArray(raw.accounts) ? raw.accounts : []).filter((a): a is AccountRecord => isAccountRecord(a) && !ids.has(a.id) && ids.add(a.id) !== undefined);
  s.customNetworks = (Array.isArray(raw.customNetworks) ? raw.customNetworks : []).filter(isCustomNetwork);
  const stored = isHdIndex(raw.nextHdIndex, MAX_INDEX + 1) ? raw.nextHdIndex : 0;
  s.nextHdIndex = Math.max(stored, ...s.accounts.map((a) => (a.kind === 'hd' ? a.index + 1 : 0)));
  if (isText(raw.selectedAccountId) && ids.has(raw.selectedAccountId)) s.selectedAccountId = raw.selectedAccountId;
  if (isText(raw.selectedNetworkId) && networkIdsOf(s).includes(raw.selectedNetworkId)) s.selectedNetworkId = raw.selectedNetworkId;
  return s;
}

/** How many unreadable settings are kept aside, newest last. */
const MAX_SET_ASIDE = 5;

export class SettingsStore {
  /** Every read-modify-write of the settings waits here for the one before it. */
  #tail: Promise<unknown> = Promise.resolve();

  constructor(private readonly local: StorageArea) {}

  async read(): Promise<PersistedState> {
    const raw = (await this.local.get([STATE_KEY]))[STATE_KEY];
    if (raw === undefined) return emptyState();
    if (!isPersistedState(raw)) throw new WalletError('storage-corrupt', 'the wallet settings in storage are unreadable');
    return raw;
  }

  /** The settings exactly as stored (undefined: none), to be put back with `putBack`. */
  async stored(): Promise<unknown> {
    return (await this.local.get([STATE_KEY]))[STATE_KEY];
  }

  /** Writes back what `stored` returned: a change that could not be finished is undone. */
  putBack(raw: unknown): Promise<void> {
    return this.#queued(() => (raw === undefined ? this.local.remove([STATE_KEY]) : this.local.set({ [STATE_KEY]: raw })));
  }

  /** Unreadable settings read as empty: for the ways out of that state (a restore, its warning). */
  readOrEmpty(): Promise<PersistedState> {
    return this.read().catch(() => emptyState());
  }

  /**
   * Reads the settings, applies `change` and saves the result, one change at a time, so that two
   * overlapping requests never save over each other. Inside a `session.modify` when the vault
   * changes too (that queue is always taken first, never from inside this one).
   */
  update(change: (s: PersistedState) => PersistedState | Promise<PersistedState>): Promise<PersistedState> {
    return this.#queued(async () => {
      const next = await change(await this.read());
      await this.local.set({ [STATE_KEY]: next });
      return next;
    });
  }

  #queued<T>(op: () => Promise<T>): Promise<T> {
    const run = this.#tail.then(op);
    this.#tail = run.catch(() => undefined);
    return run;
  }

  /**
   * A new or restored vault's accounts, selecting the first. Unreadable settings do not stop it
   * (it is the way out of them): only the user's networks are kept, when they can be read.
   */
  startWith(accounts: AccountRecord[], nextHdIndex: number, phraseTag?: string): Promise<PersistedState> {
    return this.#queued(async () => {
      const { phraseTag: _old, ...kept } = await this.readOrEmpty();
      const next: PersistedState = { ...kept, version: STATE_VERSION, accounts, selectedAccountId: accounts[0]!.id, nextHdIndex, ...(phraseTag !== undefined ? { phraseTag } : {}) };
      await this.local.set({ [STATE_KEY]: next });
      return next;
    });
  }

  /**
   * Brings the accounts in line with the vault just unlocked (`reconciled`). Settings that cannot
   * be read are set aside under their own key, not lost, and rebuilt from the vault: the password
   * has just been proven, so this is the way back in rather than a dead end.
   */
  reconcile(vault: VaultHoldings): Promise<PersistedState> {
    return this.#queued(async () => {
      let current: PersistedState;
      let unreadable = false;
      try {
        current = await this.read();
      } catch (e) {
        if (!(e instanceof WalletError) || e.code !== 'storage-corrupt') throw e;
        const found = await this.local.get([STATE_KEY, UNREADABLE_STATE_KEY]);
        const earlier = Array.isArray(found[UNREADABLE_STATE_KEY]) ? (found[UNREADABLE_STATE_KEY] as unknown[]) : [];
        await this.local.set({ [UNREADABLE_STATE_KEY]: [...earlier, { at: Date.now(), value: found[STATE_KEY] }].slice(-MAX_SET_ASIDE) });
        current = salvaged(found[STATE_KEY]);
        unreadable = true;
      }
      const next = reconciled(current, vault) ?? (unreadable ? current : null);
      if (next) await this.local.set({ [STATE_KEY]: next });
      return next ?? current;
    });
  }
}

// The wallet's non-secret settings (storage.local `xpc.state`): its accounts, the user's own
// networks and what is selected. Every change goes through `update`, one at a time.
import { toHex } from '../core/bytes.js';
import { type NetworkIdentity, PRESETS } from '../core/network.js';
import { WalletError } from '../core/errors.js';
import type { StorageArea } from './storage.js';

const STATE_KEY = 'xpc.state';
const STATE_VERSION = 1;

export type AccountRecord =
  | { id: string; name: string; kind: 'hd'; index: number }
  | { id: string; name: string; kind: 'imported'; keyId: string };

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
}

export function emptyState(): PersistedState {
  return { version: STATE_VERSION, accounts: [], selectedAccountId: null, nextHdIndex: 0, customNetworks: [], selectedNetworkId: 'local' };
}

/** Every network the wallet knows: the presets and the user's own. */
export function networkIdsOf(s: PersistedState): string[] {
  return [...Object.keys(PRESETS), ...s.customNetworks.map((n) => n.id)];
}

/** A random ID for an account, a key or a custom network. */
export function newId(): string {
  return toHex(crypto.getRandomValues(new Uint8Array(8)));
}

export class SettingsStore {
  /** Every read-modify-write of the settings waits here for the one before it. */
  #tail: Promise<unknown> = Promise.resolve();

  constructor(private readonly local: StorageArea) {}

  async read(): Promise<PersistedState> {
    const raw = (await this.local.get([STATE_KEY]))[STATE_KEY];
    if (raw === undefined) return emptyState();
    const s = raw as PersistedState;
    if (typeof s !== 'object' || s === null || s.version !== STATE_VERSION || !Array.isArray(s.accounts)) {
      throw new WalletError('storage-corrupt', 'the wallet settings in storage are unreadable');
    }
    return s;
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
    const run = this.#tail.then(async () => {
      const next = await change(await this.read());
      await this.local.set({ [STATE_KEY]: next });
      return next;
    });
    this.#tail = run.catch(() => undefined);
    return run;
  }

  /** A new or restored vault's accounts, selecting the first. */
  startWith(accounts: AccountRecord[], nextHdIndex: number): Promise<PersistedState> {
    return this.update((s) => ({ ...s, version: STATE_VERSION, accounts, selectedAccountId: accounts[0]!.id, nextHdIndex }));
  }
}

// What sites may do, kept in storage.local: which origins are connected to which accounts, the
// EVM-only chains sites added, and which chain sites currently see. Writes are serialized so two
// requests never overwrite each other's change.
import { WalletError } from '../core/errors.js';
import type { StorageArea } from './storage.js';

export const SITES_STORAGE_KEY = 'xpc.sites';
const VERSION = 1;
/** More connected sites than any user has; a bound on what a page's requests can make us store. */
export const MAX_SITES = 500;
export const MAX_ADDED_CHAINS = 50;

export interface SitePermission {
  /** Wallet account IDs the site may see, in the order it got them. */
  accountIds: string[];
  connectedAt: number;
}

/** An EVM-only chain a site added: EVM features only (no X/P, no atomic moves). */
export interface AddedChain {
  /** Decimal EVM chain ID. */
  chainId: string;
  name: string;
  rpcUrl: string;
  symbol: string;
  decimals: number;
  explorerUrl?: string;
}

interface Stored {
  version: number;
  sites: Record<string, SitePermission>;
  chains: AddedChain[];
  /** Decimal chain ID of the added chain sites see, or null for the selected network's C-Chain. */
  activeChainId: string | null;
}

function empty(): Stored {
  return { version: VERSION, sites: {}, chains: [], activeChainId: null };
}

export class SiteStore {
  #tail: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly area: StorageArea,
    private readonly now: () => number = Date.now,
  ) {}

  async #load(): Promise<Stored> {
    const raw = (await this.area.get([SITES_STORAGE_KEY]))[SITES_STORAGE_KEY] as Stored | undefined;
    if (raw === undefined) return empty();
    if (typeof raw !== 'object' || raw === null || raw.version !== VERSION || typeof raw.sites !== 'object' || raw.sites === null || !Array.isArray(raw.chains)) {
      throw new WalletError('storage-corrupt', 'the connected-sites settings in storage are unreadable');
    }
    return raw;
  }

  #update<T>(change: (s: Stored) => T): Promise<T> {
    const run = this.#tail.then(async () => {
      const s = await this.#load();
      const result = change(s);
      await this.area.set({ [SITES_STORAGE_KEY]: s });
      return result;
    });
    this.#tail = run.catch(() => undefined);
    return run;
  }

  async permission(origin: string): Promise<SitePermission | undefined> {
    const s = await this.#load();
    return Object.hasOwn(s.sites, origin) ? s.sites[origin] : undefined;
  }

  async all(): Promise<Record<string, SitePermission>> {
    return (await this.#load()).sites;
  }

  /** Connects `origin` to these accounts (added to any it already had). */
  grant(origin: string, accountIds: string[]): Promise<SitePermission> {
    return this.#update((s) => {
      const prior = Object.hasOwn(s.sites, origin) ? s.sites[origin] : undefined;
      if (!prior && Object.keys(s.sites).length >= MAX_SITES) {
        throw new WalletError('too-many-sites', `more than ${MAX_SITES} sites are connected; disconnect some in Settings first`);
      }
      const ids = [...new Set([...(prior?.accountIds ?? []), ...accountIds])];
      const entry = { accountIds: ids, connectedAt: prior?.connectedAt ?? this.now() };
      s.sites[origin] = entry;
      return entry;
    });
  }

  revoke(origin: string): Promise<boolean> {
    return this.#update((s) => {
      const had = Object.hasOwn(s.sites, origin);
      delete s.sites[origin];
      return had;
    });
  }

  /** Drops a removed account from every site; a site left with none is disconnected. */
  forgetAccount(accountId: string): Promise<void> {
    return this.#update((s) => {
      for (const [origin, p] of Object.entries(s.sites)) {
        p.accountIds = p.accountIds.filter((id) => id !== accountId);
        if (p.accountIds.length === 0) delete s.sites[origin];
      }
    });
  }

  /** A new wallet replaced the old one: no site stays connected to accounts that are gone. */
  forgetAllSites(): Promise<void> {
    return this.#update((s) => {
      s.sites = {};
    });
  }

  async chains(): Promise<{ chains: AddedChain[]; activeChainId: string | null }> {
    const s = await this.#load();
    return { chains: s.chains, activeChainId: s.activeChainId };
  }

  /** Adds (or replaces, by chain ID) an EVM-only chain. */
  addChain(chain: AddedChain): Promise<void> {
    return this.#update((s) => {
      const others = s.chains.filter((c) => c.chainId !== chain.chainId);
      if (others.length >= MAX_ADDED_CHAINS) throw new WalletError('too-many-chains', `at most ${MAX_ADDED_CHAINS} chains can be added`);
      s.chains = [...others, chain];
    });
  }

  removeChain(chainId: string): Promise<boolean> {
    return this.#update((s) => {
      const had = s.chains.some((c) => c.chainId === chainId);
      s.chains = s.chains.filter((c) => c.chainId !== chainId);
      if (s.activeChainId === chainId) s.activeChainId = null;
      return had;
    });
  }

  /** Which chain sites see: an added chain's ID, or null for the selected network's C-Chain. */
  setActiveChain(chainId: string | null): Promise<void> {
    return this.#update((s) => {
      if (chainId !== null && !s.chains.some((c) => c.chainId === chainId)) throw new WalletError('unknown-chain', `chain ${chainId} was not added`);
      s.activeChainId = chainId;
    });
  }
}

// What sites may do, kept in storage.local: which origins are connected to which accounts, the
// EVM-only chains sites added, and which chain each site sees. Writes are serialized so two
// requests never overwrite each other's change.
import { WalletError } from '../core/errors.js';
import { isRecord } from '../core/rpc.js';
import { heldToKnown, shownName } from './chain-name.js';
import type { StorageArea } from './storage.js';

export const SITES_STORAGE_KEY = 'xpc.sites';
/** 2: each site has its own chain (`siteChains`); 1 had one `activeChainId` for every site. */
const VERSION = 2;
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
  /** The adding site's name for it, as shown (chain-name.ts): a claim, not an identity. */
  name: string;
  rpcUrl: string;
  symbol: string;
  decimals: number;
  explorerUrl?: string;
  /** The host of the site whose add the user approved (none for chains added before this was kept): another site's switch to it says so. */
  addedBy?: string;
}

interface Stored {
  version: number;
  sites: Record<string, SitePermission>;
  chains: AddedChain[];
  /**
   * Site (keyed as its connection is, requesterOf) → decimal chain ID of the added chain it sees.
   * A site not listed sees the selected network's C-Chain.
   */
  siteChains: Record<string, string>;
}

function empty(): Stored {
  return { version: VERSION, sites: {}, chains: [], siteChains: {} };
}

function corrupt(): WalletError {
  return new WalletError('storage-corrupt', 'the connected-sites settings in storage are unreadable');
}

/**
 * The stored settings in this version's shape. Version 1's one chain for every site becomes the
 * chain of each site connected then (what they saw stays what they see); names an older version
 * kept as the site wrote them are cleaned as new ones are, and held to a well-known chain's own name
 * and coin (heldToKnown). Anything else unreadable is refused.
 */
function upgraded(raw: unknown): Stored {
  if (!isRecord(raw) || !isRecord(raw.sites) || !Array.isArray(raw.chains)) throw corrupt();
  const held = (c: unknown) => (isRecord(c) && typeof c.chainId === 'string' && /^\d{1,78}$/.test(c.chainId) && typeof c.name === 'string' && typeof c.symbol === 'string' ? heldToKnown(c as unknown as AddedChain) : c);
  if (raw.version === VERSION) {
    if (!isRecord(raw.siteChains) || !Object.values(raw.siteChains).every((id) => typeof id === 'string')) throw corrupt();
    return { ...(raw as unknown as Stored), chains: raw.chains.map(held) as AddedChain[] };
  }
  if (raw.version !== 1 || (raw.activeChainId !== null && raw.activeChainId !== undefined && typeof raw.activeChainId !== 'string')) throw corrupt();
  const chains = (raw.chains as AddedChain[]).map((c) => held(isRecord(c) && typeof c.name === 'string' ? { ...c, name: shownName(c.name).text } : c)) as AddedChain[];
  const active = raw.activeChainId as string | null | undefined;
  const known = typeof active === 'string' && chains.some((c) => isRecord(c) && c.chainId === active);
  const siteChains = known ? Object.fromEntries(Object.keys(raw.sites).map((origin) => [origin, active])) : {};
  return { version: VERSION, sites: raw.sites as Record<string, SitePermission>, chains, siteChains };
}

export class SiteStore {
  #tail: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly area: StorageArea,
    private readonly now: () => number = Date.now,
  ) {}

  async #load(): Promise<Stored> {
    const raw: unknown = (await this.area.get([SITES_STORAGE_KEY]))[SITES_STORAGE_KEY];
    return raw === undefined ? empty() : upgraded(raw);
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

  /** A new wallet replaced the old one: no site stays connected to accounts that are gone, nor on a chain it picked. */
  forgetAllSites(): Promise<void> {
    return this.#update((s) => {
      s.sites = {};
      s.siteChains = {};
    });
  }

  async chains(): Promise<{ chains: AddedChain[]; siteChains: Record<string, string> }> {
    const s = await this.#load();
    return { chains: s.chains, siteChains: s.siteChains };
  }

  /** The added chain `site` sees, or undefined for the selected network's C-Chain. */
  async chainOf(site: string): Promise<AddedChain | undefined> {
    const s = await this.#load();
    const id = Object.hasOwn(s.siteChains, site) ? s.siteChains[site] : undefined;
    return id === undefined ? undefined : s.chains.find((c) => c.chainId === id);
  }

  /**
   * Adds an EVM-only chain. No site sees it until it is switched to. One already added with that
   * chain ID and other details (another site's add, approved meanwhile) is not replaced: refused.
   */
  addChain(chain: AddedChain): Promise<void> {
    return this.#update((s) => {
      const same = s.chains.find((c) => c.chainId === chain.chainId);
      // Who added it is no detail of the chain: the first site's add stands, and says so to the others.
      if (same && JSON.stringify({ ...same, addedBy: 0 }) !== JSON.stringify({ ...chain, addedBy: 0 })) {
        throw new WalletError('chain-exists', `chain ${chain.chainId} was added meanwhile with other details (its RPC address, name or currency); nothing was changed`);
      }
      const others = s.chains.filter((c) => c.chainId !== chain.chainId);
      if (others.length >= MAX_ADDED_CHAINS) throw new WalletError('too-many-chains', `at most ${MAX_ADDED_CHAINS} chains can be added`);
      s.chains = [...others, same ?? chain];
    });
  }

  /** Removes an added chain; the sites that saw it see the selected network's C-Chain again. */
  removeChain(chainId: string): Promise<boolean> {
    return this.#update((s) => {
      const had = s.chains.some((c) => c.chainId === chainId);
      s.chains = s.chains.filter((c) => c.chainId !== chainId);
      for (const [site, id] of Object.entries(s.siteChains)) if (id === chainId) delete s.siteChains[site];
      return had;
    });
  }

  /**
   * Which chain `site` sees: an added chain's ID, or null for the selected network's C-Chain.
   * Answers whether it changed. Other sites keep theirs.
   */
  setSiteChain(site: string, chainId: string | null): Promise<boolean> {
    return this.#update((s) => {
      const before = Object.hasOwn(s.siteChains, site) ? s.siteChains[site] : undefined;
      if (chainId === null) {
        delete s.siteChains[site];
        return before !== undefined;
      }
      if (!s.chains.some((c) => c.chainId === chainId)) throw new WalletError('unknown-chain', `chain ${chainId} was not added`);
      if (before === undefined && Object.keys(s.siteChains).length >= MAX_SITES) {
        throw new WalletError('too-many-sites', `more than ${MAX_SITES} sites have their own chain; reset some in Settings first`);
      }
      s.siteChains[site] = chainId;
      return before !== chainId;
    });
  }
}

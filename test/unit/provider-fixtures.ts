// Shared by provider.test.ts, provider-review.test.ts and provider-approvals.test.ts: a ProviderService
// whose wallet service is a stand-in that knows one account and one network, and the site that calls it.
import { ApprovalQueue } from '../../src/background/approvals.js';
import { ProviderService, type Site } from '../../src/background/provider.js';
import { SiteStore } from '../../src/background/sites.js';
import { memoryStores } from '../../src/background/storage.js';
import type { SiteWallet } from '../../src/background/provider.js';
import { PROVIDER_CHANNEL, type ProviderResponse } from '../../src/shared/provider-protocol.js';
import { ACCOUNT } from './site-account.js';

export const SITE: Site = { origin: 'https://dapp.example' };

export function setup(options: { unlocked?: boolean; noWallet?: boolean; fetch?: typeof fetch; windowFails?: boolean | (() => boolean); windowOpening?: () => Promise<void>; siteNetwork?: () => Promise<never>; wallet?: Partial<SiteWallet>; now?: () => number } = {}) {
  const stores = memoryStores();
  const approvals = new ApprovalQueue(stores.session);
  const sites = new SiteStore(stores.local);
  let unlocked = options.unlocked ?? true;
  let windows = 0;
  let notified = 0;
  const wallet = {
    siteNetwork: options.siteNetwork ?? (async () => ({ network: { id: 'local', name: 'Local network', url: 'http://127.0.0.1:1', hrp: 'local' }, evmChainId: 43112n })),
    siteNetworks: async () => [{ id: 'local', name: 'Local network', evmChainId: 43112n }, { id: 'mainnet', name: 'Avalanche Mainnet', evmChainId: 43114n }],
    accountsList: async () => ({ accounts: [ACCOUNT], selectedId: ACCOUNT.id }),
    networksSelect: async () => ({}),
    ...options.wallet,
  } as unknown as SiteWallet;
  const provider = new ProviderService({
    wallet,
    session: { isUnlocked: () => unlocked, idleMaybeDue: () => false, checkIdle: async () => false } as never,
    approvals,
    sites,
    sessionArea: stores.session,
    ...(options.noWallet ? { walletExists: async () => false } : {}),
    openApprovalWindow: async () => {
      windows++;
      await options.windowOpening?.();
      if (typeof options.windowFails === 'function' ? options.windowFails() : options.windowFails) throw new Error('no window');
    },
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.now ? { now: options.now } : {}),
    notifyPages: () => {
      notified++;
    },
  });
  let n = 0;
  const call = (method: string, params?: unknown, site: Site = SITE, requestId = `r${++n}`): Promise<ProviderResponse> =>
    provider.handle({ channel: PROVIDER_CHANNEL, requestId, method, params }, site);
  return {
    stores,
    approvals,
    sites,
    provider,
    call,
    lock: () => (unlocked = false),
    unlock: () => (unlocked = true),
    windows: () => windows,
    notified: () => notified,
  };
}

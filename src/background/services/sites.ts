// Connected sites as the popup manages them (sites.*): who is connected to which accounts and
// which chain each site sees, the chains sites added, and revoking or resetting them. The
// permissions themselves live in SiteStore.
import { ValidationError, WalletError } from '../../core/errors.js';
import type { AccountView, AddedChainView, RequestParams as P, SiteView } from '../../shared/messages.js';
import type { Keyring } from '../keyring.js';
import type { SettingsStore } from '../settings.js';
import type { SiteStore } from '../sites.js';
import type { NetworksService } from './networks.js';

export class SitesService {
  constructor(
    private readonly settings: SettingsStore,
    private readonly networks: NetworksService,
    private readonly keyring: Keyring,
    private readonly store?: SiteStore,
  ) {}

  private sites(): SiteStore {
    if (!this.store) throw new WalletError('unavailable', 'connected sites are not available here');
    return this.store;
  }

  async sitesList(): Promise<{ sites: SiteView[]; chains: AddedChainView[] }> {
    const store = this.sites();
    const s = await this.settings.read();
    const hrp = await this.networks.hrpNow(s);
    const views = new Map<string, AccountView>();
    for (const a of s.accounts) views.set(a.id, await this.keyring.accountView(a, hrp));
    const permissions = await store.all();
    const { chains, siteChains } = await store.chains();
    const chainOf = (origin: string) => {
      const c = Object.hasOwn(siteChains, origin) ? chains.find((x) => x.chainId === siteChains[origin]) : undefined;
      return c ? { chain: { chainId: c.chainId, name: c.name } } : {};
    };
    const connected: SiteView[] = Object.entries(permissions).map(([origin, p]) => ({
      origin,
      connectedAt: p.connectedAt,
      accounts: p.accountIds.flatMap((id) => {
        const v = views.get(id);
        return v ? [{ id, name: v.name, cAddress: v.cAddress }] : [];
      }),
      ...chainOf(origin),
    }));
    // A site may switch chain without connecting: it is listed too, so its chain can be reset.
    const onlyChain: SiteView[] = Object.keys(siteChains)
      .filter((origin) => !Object.hasOwn(permissions, origin))
      .map((origin) => ({ origin, accounts: [], ...chainOf(origin) }));
    const sites = [...connected.sort((a, b) => b.connectedAt! - a.connectedAt!), ...onlyChain.sort((a, b) => a.origin.localeCompare(b.origin))];
    const uses = Object.values(siteChains);
    return { sites, chains: chains.map((c) => ({ ...c, usedBy: uses.filter((id) => id === c.chainId).length })) };
  }

  async sitesRevoke(p: P<'sites.revoke'>) {
    if (!(await this.sites().revoke(p.origin))) throw new ValidationError('that site is not connected', 'origin');
    return { ok: true as const };
  }

  async sitesResetChain(p: P<'sites.resetChain'>) {
    if (!(await this.sites().setSiteChain(p.origin, null))) throw new ValidationError('that site already sees the selected network', 'origin');
    return { ok: true as const };
  }

  async sitesRemoveChain(p: P<'sites.removeChain'>) {
    if (!(await this.sites().removeChain(p.chainId))) throw new ValidationError('no chain with that ID was added', 'chainId');
    return { ok: true as const };
  }
}

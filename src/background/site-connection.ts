// Sites and the wallet's accounts: what a site sees (its chain, connected accounts, lock state) and
// connecting (eth_requestAccounts, EIP-2255 permissions). Switching and adding chains: site-chains.ts.
import { WalletError } from '../core/errors.js';
import { EthApi } from '../core/node.js';
import { JsonRpcEndpoint } from '../core/rpc.js';
import type { AccountView } from '../shared/messages.js';
import { ProviderErrorCode as Code, type ProviderState } from '../shared/provider-protocol.js';
import { type Reservation, requesterOf } from './approvals.js';
import { type ActiveChain, type Call, notConnectedError, type ProviderDeps, ProviderError, type Site } from './provider-context.js';
import { InvalidParamsError, objectParam, positional } from './provider-params.js';
import type { SiteGate } from './site-gate.js';
import type { SitePermission } from './sites.js';
import { VaultLockedError } from './vault.js';

/** Which chain a site is on, as one string: one of the wallet's networks, or a chain the site added (by ID and RPC). */
export function chainKeyOf(chain: ActiveChain): string {
  return chain.kind === 'avalanche' ? `avalanche:${chain.networkId}` : `evm:${chain.chainId}:${chain.rpcUrl}`;
}

/** A URL's host (and port): how the wallet names a site, and the RPC node of a chain a site added. */
export const hostOf = (url: string): string => new URL(url).host;

/** The wallet network a chain key names (`avalanche:<id>`), if it names one. */
export function networkOfChainKey(key: string | undefined): string | undefined {
  return key?.startsWith('avalanche:') ? key.slice('avalanche:'.length) : undefined;
}

export class SiteConnection {
  constructor(
    private readonly deps: ProviderDeps,
    private readonly gate: SiteGate,
  ) {}

  /** The chain `site` sees: one it switched to, else the selected network's C-Chain. */
  async activeChain(site: Site): Promise<ActiveChain> {
    const added = await this.deps.sites.chainOf(requesterOf(site));
    if (added) return { kind: 'evm', chainId: BigInt(added.chainId), name: added.name, rpcUrl: added.rpcUrl, symbol: added.symbol, added };
    const { network, evmChainId } = await this.deps.wallet.siteNetwork();
    return { kind: 'avalanche', chainId: evmChainId, name: network.name, networkId: network.id, rpcUrl: `${network.url.replace(/\/+$/, '')}/ext/bc/C/rpc`, symbol: 'AVAX' };
  }

  /**
   * An approval acts only on the chain it was shown for: after a switch (of the wallet's network, or
   * of the site's chain) it is refused, so a tx shown for one network is never sent on another.
   * `key` absent: an approval stored before approvals named their chain.
   */
  async assertStillOn(site: Site, key: string | undefined): Promise<void> {
    if (key === undefined) return;
    const now = await this.activeChain(site);
    if (chainKeyOf(now) !== key) throw new ProviderError(Code.chainDisconnected, `the chain was switched to ${now.name} since this was approved, so nothing was signed; ask again`);
  }

  eth(rpcUrl: string): EthApi {
    return new EthApi(new JsonRpcEndpoint(rpcUrl, this.deps.fetch ? { fetch: this.deps.fetch } : {}));
  }

  /** What a site sees of the wallet; the lock state only once it is connected. */
  async siteState(site: Site): Promise<ProviderState> {
    const chain = await this.activeChain(site);
    const permission = await this.deps.sites.permission(requesterOf(site));
    const accounts = await this.accountsOf(permission);
    return {
      chainId: `0x${chain.chainId.toString(16)}`,
      networkVersion: chain.chainId.toString(),
      accounts: accounts.map((a) => a.cAddress),
      isUnlocked: permission !== undefined && this.deps.session.isUnlocked(),
    };
  }

  /**
   * The site's connected accounts that still exist, the selected one first; [] while locked. The
   * permission is read locked or not, so a site not connected cannot time the lock state.
   */
  async connectedAccounts(site: Site): Promise<AccountView[]> {
    return this.accountsOf(await this.deps.sites.permission(requesterOf(site)));
  }

  /** The accounts a permission names that still exist, the selected one first; [] while locked. */
  private async accountsOf(permission: SitePermission | undefined): Promise<AccountView[]> {
    if (!this.deps.session.isUnlocked() || !permission) return [];
    const { accounts, selectedId } = await this.deps.wallet.accountsList();
    const connected = accounts.filter((a) => permission.accountIds.includes(a.id));
    return connected.sort((a, b) => Number(b.id === selectedId) - Number(a.id === selectedId));
  }

  /** The connected account a request acts for: the one named by `address`, else the first. */
  async actingAccount(site: Site, address?: string): Promise<AccountView> {
    await this.gate.requireConnection(site);
    await this.gate.unlocked(site);
    const permission = await this.deps.sites.permission(requesterOf(site));
    // Disconnected meanwhile: answered alike, locked or not, as the gate answers it.
    if (!permission) throw notConnectedError();
    const accounts = await this.accountsOf(permission);
    // Locked during the reads, the list is empty: that is the lock (the gate waits for the unlock), not "not connected".
    if (!this.deps.session.isUnlocked()) throw new VaultLockedError();
    if (accounts.length === 0) throw new ProviderError(Code.unauthorized, 'this site is not connected to any account of XPC Wallet');
    if (address === undefined) return accounts[0]!;
    const match = accounts.find((a) => a.cAddress.toLowerCase() === address.toLowerCase() || a.xAddress === address || a.pAddress === address);
    if (!match) throw new ProviderError(Code.unauthorized, `the address ${address} is not an account this site is connected to`);
    return match;
  }

  async connect(call: Call): Promise<AccountView[]> {
    const logged = await this.gate.logged(call.requestId);
    if (logged) {
      this.gate.replay(logged);
      return this.connectedAccounts(call.site);
    }
    let held: Reservation | undefined;
    if (!(await this.deps.approvals.findByRequest(call.requestId))) {
      held = await this.gate.unlockedToAsk(call);
      const existing = await this.connectedAccounts(call.site).catch((e: unknown) => {
        held?.release();
        throw e;
      });
      if (existing.length > 0) {
        held?.release();
        return existing;
      }
    }
    await this.gate.approved(call, 'connect', async () => {
      const { accounts, selectedId } = await this.deps.wallet.accountsList();
      const account = accounts.find((a) => a.id === selectedId);
      if (!account) throw new WalletError('no-account', 'the wallet has no account to connect');
      return {
        // Every address the site can then read (xpc_getAddresses, avalanche_getAccounts).
        summary: { kind: 'connect', accountName: account.name, accounts: [account.cAddress, account.xAddress, account.pAddress, account.cBech32Address] },
        payload: { kind: 'connect', accountId: account.id },
      };
    }, async (payload) => {
      await this.deps.sites.grant(requesterOf(call.site), [payload.accountId]);
      this.deps.notifyPages();
      return null;
    }, held);
    return this.connectedAccounts(call.site);
  }

  permissionsParam(params: unknown): void {
    const [request] = positional(params, 1, 1);
    const o = objectParam(request, 'params[0]');
    const keys = Object.keys(o);
    if (keys.length !== 1 || keys[0] !== 'eth_accounts') {
      throw new InvalidParamsError('params[0] must be { eth_accounts: {} }: XPC Wallet grants no other permission', 'params[0]');
    }
  }

  /** EIP-2255 permissions, the shape MetaMask gives them. */
  async permissions(site: Site): Promise<unknown[]> {
    const origin = requesterOf(site);
    const permission = await this.deps.sites.permission(origin);
    if (!permission) return [];
    const accounts = (await this.connectedAccounts(site)).map((a) => a.cAddress);
    return [
      {
        invoker: origin,
        parentCapability: 'eth_accounts',
        caveats: [{ type: 'restrictReturnedAccounts', value: accounts }],
        date: permission.connectedAt,
      },
    ];
  }
}

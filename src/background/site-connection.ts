// Sites and the wallet's chains and accounts: what a site sees (chain, connected accounts, lock
// state), connecting (eth_requestAccounts, EIP-2255 permissions), and switching or adding chains.
import { WalletError } from '../core/errors.js';
import { EthApi } from '../core/node.js';
import { JsonRpcEndpoint } from '../core/rpc.js';
import type { AccountView } from '../shared/messages.js';
import { ProviderErrorCode as Code, type ProviderState } from '../shared/provider-protocol.js';
import { requesterOf } from './approvals.js';
import { type ActiveChain, type Call, type Payload, type ProviderDeps, ProviderError, type Site } from './provider-context.js';
import { chainIdParam, InvalidParamsError, objectParam, onlyKeys, positional, stringParam, urlParam } from './provider-params.js';
import type { SiteGate } from './site-gate.js';
import type { AddedChain, SitePermission } from './sites.js';

export class SiteConnection {
  constructor(
    private readonly deps: ProviderDeps,
    private readonly gate: SiteGate,
  ) {}

  async activeChain(): Promise<ActiveChain> {
    const { chains, activeChainId } = await this.deps.sites.chains();
    const added = activeChainId === null ? undefined : chains.find((c) => c.chainId === activeChainId);
    if (added) return { kind: 'evm', chainId: BigInt(added.chainId), name: added.name, rpcUrl: added.rpcUrl, symbol: added.symbol, added };
    const { network, evmChainId } = await this.deps.wallet.siteNetwork();
    return { kind: 'avalanche', chainId: evmChainId, name: network.name, networkId: network.id, rpcUrl: `${network.url.replace(/\/+$/, '')}/ext/bc/C/rpc`, symbol: 'AVAX' };
  }

  eth(rpcUrl: string): EthApi {
    return new EthApi(new JsonRpcEndpoint(rpcUrl, this.deps.fetch ? { fetch: this.deps.fetch } : {}));
  }

  /** What a site sees of the wallet; the lock state only once it is connected. */
  async siteState(site: Site): Promise<ProviderState> {
    const chain = await this.activeChain();
    const permission = await this.deps.sites.permission(requesterOf(site));
    const accounts = await this.accountsOf(permission);
    return {
      chainId: `0x${chain.chainId.toString(16)}`,
      networkVersion: chain.chainId.toString(),
      accounts: accounts.map((a) => a.cAddress),
      isUnlocked: permission !== undefined && this.deps.session.isUnlocked(),
    };
  }

  /** The site's connected accounts that still exist, the selected one first; [] while locked. */
  async connectedAccounts(site: Site): Promise<AccountView[]> {
    if (!this.deps.session.isUnlocked()) return [];
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
    const accounts = await this.connectedAccounts(site);
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
    if (!(await this.deps.approvals.findByRequest(call.requestId))) {
      await this.gate.unlocked(call.site);
      const existing = await this.connectedAccounts(call.site);
      if (existing.length > 0) return existing;
    }
    await this.gate.approved(call, async () => {
      const { accounts, selectedId } = await this.deps.wallet.accountsList();
      const account = accounts.find((a) => a.id === selectedId);
      if (!account) throw new WalletError('no-account', 'the wallet has no account to connect');
      return {
        summary: { kind: 'connect', accountName: account.name, accounts: [account.cAddress, account.xAddress, account.pAddress] },
        payload: { kind: 'connect', accountId: account.id },
      };
    }, async (payload) => {
      if (payload.kind !== 'connect') throw new Error('payload mismatch');
      await this.deps.sites.grant(requesterOf(call.site), [payload.accountId]);
      this.deps.notifyPages();
      return null;
    });
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

  async switchChain(call: Call): Promise<null> {
    const [arg] = positional(call.params, 1, 1);
    const o = objectParam(arg, 'params[0]');
    onlyKeys(o, 'params[0]', ['chainId']);
    const chainId = chainIdParam(o.chainId, 'params[0].chainId');
    const current = await this.activeChain();
    if (current.chainId === chainId) return null;
    const target = await this.knownChain(chainId);
    if (!target) throw new ProviderError(Code.unrecognizedChain, `chain 0x${chainId.toString(16)} is not known to XPC Wallet; add it with wallet_addEthereumChain`);
    await this.gate.approved(call, async () => ({
      summary: { kind: 'switch-chain', fromName: current.name, toName: target.name, chainId: chainId.toString() },
      payload: { kind: 'switch-chain', ...(target.networkId ? { networkId: target.networkId } : { addedChainId: chainId.toString() }) },
    }), (payload) => this.applySwitch(payload));
    return null;
  }

  private async knownChain(chainId: bigint): Promise<{ name: string; networkId?: string } | undefined> {
    const networks = await this.deps.wallet.siteNetworks();
    const network = networks.find((n) => n.evmChainId === chainId);
    if (network) return { name: network.name, networkId: network.id };
    const { chains } = await this.deps.sites.chains();
    const added = chains.find((c) => c.chainId === chainId.toString());
    return added ? { name: added.name } : undefined;
  }

  private async applySwitch(payload: Payload): Promise<null> {
    if (payload.kind !== 'switch-chain') throw new Error('payload mismatch');
    if (payload.networkId !== undefined) {
      await this.deps.wallet.networksSelect({ id: payload.networkId });
      await this.deps.sites.setActiveChain(null);
    } else {
      await this.deps.sites.setActiveChain(payload.addedChainId!);
    }
    this.deps.notifyPages();
    return null;
  }

  async addChain(call: Call): Promise<null> {
    const [arg] = positional(call.params, 1, 1);
    const o = objectParam(arg, 'params[0]');
    onlyKeys(o, 'params[0]', ['chainId', 'chainName', 'rpcUrls', 'nativeCurrency', 'blockExplorerUrls', 'iconUrls']);
    const chainId = chainIdParam(o.chainId, 'params[0].chainId');
    // A chain the wallet already knows is a switch (as EIP-3085 allows).
    if (await this.knownChain(chainId)) {
      const current = await this.activeChain();
      if (current.chainId === chainId) return null;
      return this.switchChain({ ...call, params: [{ chainId: `0x${chainId.toString(16)}` }] });
    }
    const name = stringParam(o.chainName, 'params[0].chainName', 100);
    if (!Array.isArray(o.rpcUrls) || o.rpcUrls.length === 0 || o.rpcUrls.length > 10) {
      throw new InvalidParamsError('params[0].rpcUrls must be an array of 1 to 10 URLs', 'params[0].rpcUrls');
    }
    const rpcUrl = urlParam(o.rpcUrls[0], 'params[0].rpcUrls[0]');
    const currency = objectParam(o.nativeCurrency, 'params[0].nativeCurrency');
    const symbol = stringParam(currency.symbol, 'params[0].nativeCurrency.symbol', 10);
    if (currency.decimals !== 18) throw new InvalidParamsError('params[0].nativeCurrency.decimals must be 18', 'params[0].nativeCurrency.decimals');
    let explorerUrl: string | undefined;
    if (o.blockExplorerUrls !== undefined && o.blockExplorerUrls !== null) {
      if (!Array.isArray(o.blockExplorerUrls) || o.blockExplorerUrls.length > 10) {
        throw new InvalidParamsError('params[0].blockExplorerUrls must be an array of URLs', 'params[0].blockExplorerUrls');
      }
      if (o.blockExplorerUrls.length > 0) explorerUrl = urlParam(o.blockExplorerUrls[0], 'params[0].blockExplorerUrls[0]');
    }
    const chain: AddedChain = { chainId: chainId.toString(), name, rpcUrl, symbol, decimals: 18, ...(explorerUrl ? { explorerUrl } : {}) };
    await this.gate.approved(call, async () => ({
      summary: { kind: 'add-chain', chainName: name, chainId: chain.chainId, rpcUrl, symbol, decimals: 18, ...(explorerUrl ? { explorerUrl } : {}) },
      payload: { kind: 'add-chain', chain },
    }), async (payload) => {
      if (payload.kind !== 'add-chain') throw new Error('payload mismatch');
      // The RPC must serve the chain the site claims. Asked only after the user approved the URL:
      // a page must not make the wallet call arbitrary addresses; its answers stay here.
      const served = await this.eth(payload.chain.rpcUrl)
        .chainId()
        .catch(() => undefined);
      if (served !== BigInt(payload.chain.chainId)) {
        throw new InvalidParamsError(`params[0].rpcUrls[0] does not serve chain ${payload.chain.chainId}; nothing was added`, 'params[0].rpcUrls[0]');
      }
      await this.deps.sites.addChain(payload.chain);
      await this.deps.sites.setActiveChain(payload.chain.chainId);
      this.deps.notifyPages();
      return null;
    });
    return null;
  }
}

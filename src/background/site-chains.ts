// Sites' chains: wallet_switchEthereumChain and wallet_addEthereumChain. Each site has its own
// chain (SiteStore.siteChains, keyed as its connection is): a switch changes the asking site's
// chain only. A switch to another Avalanche network is the exception, and asked as one: it changes
// the wallet's network (its X and P too), which every site that follows the wallet sees.
//
// Adding a chain never switches to it (EIP-3085 lets a wallet do both; the user decides them
// apart): after the add is approved, a second approval asks whether this site should use the
// chain. Declining leaves it added, and the site's request still answers null.
import { ProviderErrorCode as Code } from '../shared/provider-protocol.js';
import type { ApprovalSummary } from '../shared/messages.js';
import { requesterOf } from './approvals.js';
import { lookAlikeOf, MAX_CHAIN_SYMBOL, posesAsAvax, shownName, wellKnownChain } from './chain-name.js';
import { type Call, type PayloadOf, ProviderError, SiteHandler, type Site } from './provider-context.js';
import { chainIdParam, InvalidParamsError, objectParam, onlyKeys, positional, stringParam, urlParam } from './provider-params.js';
import { hostOf } from './site-connection.js';
import type { AddedChain } from './sites.js';

type SwitchSummary = Extract<ApprovalSummary, { kind: 'switch-chain' }>;

/** A chain a site can switch to: what the approval says of it, and what is done. */
interface SwitchTarget {
  scope: SwitchSummary['scope'];
  name: string;
  rpcHost?: string;
  addedBy?: string | undefined;
  payload: PayloadOf<'switch-chain'>;
}

export class SiteChains extends SiteHandler {
  async switchChain(call: Call): Promise<null> {
    const [arg] = positional(call.params, 1, 1);
    const o = objectParam(arg, 'params[0]');
    onlyKeys(o, 'params[0]', ['chainId']);
    return this.switchTo(call, chainIdParam(o.chainId, 'params[0].chainId'), false);
  }

  /** Asks to switch `call.site` to `chainId` (nothing to ask when it is on it already). */
  private async switchTo(call: Call, chainId: bigint, afterAdd: boolean): Promise<null> {
    const current = await this.conn.activeChain(call.site);
    if (current.chainId === chainId) return null;
    const target = await this.target(chainId, call.site);
    if (!target) {
      await this.gate.refuseAsAnAsk(call);
      throw new ProviderError(Code.unrecognizedChain, `chain 0x${chainId.toString(16)} is not known to XPC Wallet; add it with wallet_addEthereumChain`);
    }
    await this.gate.approved(call, 'switch-chain', async () => ({
      summary: {
        kind: 'switch-chain',
        scope: target.scope,
        fromName: `${current.kind === 'avalanche' ? `${current.name} C-Chain` : `“${current.name}”`} (chain ID ${current.chainId})`,
        toName: target.name,
        chainId: chainId.toString(),
        ...(target.rpcHost !== undefined ? { rpcHost: target.rpcHost } : {}),
        ...(target.addedBy !== undefined ? { addedBy: target.addedBy } : {}),
        ...(afterAdd ? { afterAdd } : {}),
      },
      payload: target.payload,
    }), (payload) => this.applySwitch(call.site, payload));
    return null;
  }

  /**
   * What switching to `chainId` means: an Avalanche network's C-Chain (the selected one: the site
   * follows the wallet again; another: the wallet's network changes), or a chain a site added.
   */
  private async target(chainId: bigint, asker: Site): Promise<SwitchTarget | undefined> {
    // The selected network first: a site asking for the chain the wallet is on only follows it
    // again, even when a preset (say, the public Mainnet node) has the same chain ID.
    const selected = await this.deps.wallet.siteNetwork();
    if (selected.evmChainId === chainId) return { scope: 'site', name: `${selected.network.name} C-Chain`, payload: { kind: 'switch-chain', followed: selected.network.id } };
    const network = (await this.deps.wallet.siteNetworks()).find((n) => n.evmChainId === chainId);
    if (network) return { scope: 'wallet', name: `${network.name} C-Chain`, payload: { kind: 'switch-chain', networkId: network.id } };
    const added = (await this.deps.sites.chains()).chains.find((c) => c.chainId === chainId.toString());
    if (!added) return undefined;
    // Another site chose its RPC node (one that sees what this site does there, and may lie): said.
    const addedBy = typeof added.addedBy === 'string' && added.addedBy !== hostOf(requesterOf(asker)) ? added.addedBy : undefined;
    return { scope: 'site', name: added.name, rpcHost: hostOf(added.rpcUrl), addedBy, payload: { kind: 'switch-chain', addedChainId: added.chainId } };
  }

  private async applySwitch(site: Site, payload: PayloadOf<'switch-chain'>): Promise<null> {
    // The approval named the wallet's network of then: on another one now, the site stays where it is.
    if (payload.followed !== undefined && (await this.deps.wallet.siteNetwork()).network.id !== payload.followed) {
      throw new ProviderError(Code.chainDisconnected, "the wallet's network was switched since this was approved, so the site's chain was not changed; ask again");
    }
    if (payload.networkId !== undefined) await this.deps.wallet.networksSelect({ id: payload.networkId });
    await this.deps.sites.setSiteChain(requesterOf(site), payload.addedChainId ?? null);
    // Only frames whose view changed are told (ProviderPages.notify): other sites hear nothing.
    this.deps.notifyPages();
    return null;
  }

  async addChain(call: Call): Promise<null> {
    const [arg] = positional(call.params, 1, 1);
    const o = objectParam(arg, 'params[0]');
    onlyKeys(o, 'params[0]', ['chainId', 'chainName', 'rpcUrls', 'nativeCurrency', 'blockExplorerUrls', 'iconUrls']);
    const chainId = chainIdParam(o.chainId, 'params[0].chainId');
    // A chain the wallet already knows is a switch (as EIP-3085 allows), unless this request
    // already added it (a re-sent request after a worker restart: it goes on where it was). The
    // switch has its own request ID, as after an add: the add's ID holds only an add.
    const resumed = (await this.gate.logged(call.requestId)) !== undefined || (await this.deps.approvals.findByRequest(call.requestId)) !== undefined;
    const switching = { ...call, requestId: `${call.requestId}/switch` };
    if (!resumed && (await this.target(chainId, call.site))) return this.switchTo(switching, chainId, false);
    const { chain, rawName, renamed } = addedChainParam(o, chainId);
    await this.gate.approved(call, 'add-chain', async () => ({ summary: await this.addSummary(chain, rawName, renamed), payload: { kind: 'add-chain', chain: { ...chain, addedBy: hostOf(requesterOf(call.site)) } } }), async (payload) => {
      // The RPC must serve the chain the site claims. Asked only after the user approved the URL:
      // a page must not make the wallet call arbitrary addresses; its answers stay here.
      const served = await this.conn
        .eth(payload.chain.rpcUrl)
        .chainId()
        .catch(() => undefined);
      if (served !== BigInt(payload.chain.chainId)) {
        throw new InvalidParamsError(`params[0].rpcUrls[0] does not serve chain ${payload.chain.chainId}; nothing was added`, 'params[0].rpcUrls[0]');
      }
      // Another site's add of this chain, approved while this one waited, is not replaced by
      // details its sites never saw approved (SiteStore.addChain refuses, in the same write).
      await this.deps.sites.addChain(payload.chain);
      return null;
    });
    try {
      // Its own request ID: its own approval and log entry, found again after a worker restart.
      await this.switchTo(switching, chainId, true);
    } catch (e) {
      // Declined: the chain stays added and the site stays where it was; the add succeeded.
      if (!(e instanceof ProviderError && e.code === Code.userRejected)) throw e;
    }
    return null;
  }

  /** The add approval: the chain by its ID and RPC host; the site's name for it only as its claim (`renamed`: a well-known chain's, said). */
  private async addSummary(chain: AddedChain, rawName: string, renamed: boolean): Promise<ApprovalSummary> {
    const named = shownName(rawName);
    const networks = await this.deps.wallet.siteNetworks();
    const known = [
      ...networks.flatMap((n) => (n.evmChainId !== undefined ? [{ chainId: n.evmChainId, name: n.name }] : [])),
      ...(await this.deps.sites.chains()).chains.map((c) => ({ chainId: BigInt(c.chainId), name: c.name })),
    ];
    const like = lookAlikeOf(named.text, BigInt(chain.chainId), known);
    return {
      kind: 'add-chain',
      chainId: chain.chainId,
      rpcUrl: chain.rpcUrl,
      rpcHost: hostOf(chain.rpcUrl),
      chainName: named.text,
      nameAltered: named.altered,
      ...(like ? { looksLike: { name: like.name, chainId: like.chainId.toString() } } : {}),
      ...(renamed ? { knownAs: `${chain.name} (${chain.symbol})` } : {}),
      symbol: chain.symbol,
      decimals: chain.decimals,
      ...(chain.explorerUrl !== undefined ? { explorerUrl: chain.explorerUrl } : {}),
    };
  }
}

/**
 * wallet_addEthereumChain's chain, its name and symbol as the wallet shows them (chain-name.ts): a
 * well-known chain's own, whatever the site calls them (`renamed`: it called them otherwise).
 */
function addedChainParam(o: Record<string, unknown>, chainId: bigint): { chain: AddedChain; rawName: string; renamed: boolean } {
  const rawName = stringParam(o.chainName, 'params[0].chainName', 100);
  if (!Array.isArray(o.rpcUrls) || o.rpcUrls.length === 0 || o.rpcUrls.length > 10) {
    throw new InvalidParamsError('params[0].rpcUrls must be an array of 1 to 10 URLs', 'params[0].rpcUrls');
  }
  const rpcUrl = urlParam(o.rpcUrls[0], 'params[0].rpcUrls[0]');
  const currency = objectParam(o.nativeCurrency, 'params[0].nativeCurrency');
  const symbol = shownName(stringParam(currency.symbol, 'params[0].nativeCurrency.symbol', MAX_CHAIN_SYMBOL), MAX_CHAIN_SYMBOL).text;
  const known = wellKnownChain(chainId, rawName, symbol);
  // The wallet's Avalanche networks are a switch, never an add: AVAX on any other chain would pass it off as Avalanche's.
  if (!known && posesAsAvax(symbol)) {
    throw new InvalidParamsError(`params[0].nativeCurrency.symbol must be in Latin letters and, on chain ${chainId}, none of the wallet's Avalanche networks, not read as AVAX`, 'params[0].nativeCurrency.symbol');
  }
  if (currency.decimals !== 18) throw new InvalidParamsError('params[0].nativeCurrency.decimals must be 18', 'params[0].nativeCurrency.decimals');
  let explorerUrl: string | undefined;
  if (o.blockExplorerUrls !== undefined && o.blockExplorerUrls !== null) {
    if (!Array.isArray(o.blockExplorerUrls) || o.blockExplorerUrls.length > 10) {
      throw new InvalidParamsError('params[0].blockExplorerUrls must be an array of URLs', 'params[0].blockExplorerUrls');
    }
    if (o.blockExplorerUrls.length > 0) explorerUrl = urlParam(o.blockExplorerUrls[0], 'params[0].blockExplorerUrls[0]');
  }
  const chain = { chainId: chainId.toString(), name: known?.name ?? shownName(rawName).text, rpcUrl, symbol: known?.symbol ?? symbol, decimals: 18 as const };
  return { chain: { ...chain, ...(explorerUrl ? { explorerUrl } : {}) }, rawName, renamed: known?.renamed === true };
}

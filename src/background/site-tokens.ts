// wallet_watchAsset (EIP-747): a site asks the wallet to list a token. What is shown and listed is
// what the contract says of itself, read on the user's own node and checked like any token
// (token-store.ts); the site's own symbol and decimals are only shown when they differ, and its
// image is never fetched. Tokens are listed on the wallet's Avalanche networks only. docs/tokens.md.
import { readTokenMetadata } from '../core/tokens.js';
import { ProviderErrorCode as Code } from '../shared/provider-protocol.js';
import { requesterOf } from './approvals.js';
import { shownName } from './chain-name.js';
import { type Call, ProviderError, SiteHandler } from './provider-context.js';
import { evmAddressParam, InvalidParamsError, objectParam, onlyKeys, stringParam } from './provider-params.js';
import { chainKeyOf } from './site-connection.js';
import { approvalTokenView } from './token-store.js';

const STANDARDS = { ERC20: 'erc20', ERC721: 'erc721', ERC1155: 'erc1155' } as const;

export class SiteTokens extends SiteHandler {
  async watchAsset(call: Call): Promise<boolean> {
    // EIP-747 passes one object; some libraries wrap it in an array.
    const raw = Array.isArray(call.params) && call.params.length === 1 ? call.params[0] : call.params;
    const p = objectParam(raw, 'params');
    onlyKeys(p, 'params', ['type', 'options']);
    const type = stringParam(p.type, 'params.type', 10);
    if (!Object.hasOwn(STANDARDS, type)) throw new InvalidParamsError('params.type must be ERC20, ERC721 or ERC1155', 'params.type');
    const o = objectParam(p.options, 'params.options');
    onlyKeys(o, 'params.options', ['address', 'symbol', 'decimals', 'image', 'tokenId']);
    const address = evmAddressParam(o.address, 'params.options.address');
    const siteSymbol = o.symbol === undefined ? undefined : stringParam(o.symbol, 'params.options.symbol', 64);
    if (o.decimals !== undefined && !(typeof o.decimals === 'number' && Number.isInteger(o.decimals) && o.decimals >= 0 && o.decimals <= 255)) {
      throw new InvalidParamsError('params.options.decimals must be a whole number from 0 to 255', 'params.options.decimals');
    }
    if (o.image !== undefined) stringParam(o.image, 'params.options.image', 4096);
    const chain = await this.conn.activeChain(call.site);
    if (chain.kind !== 'avalanche') throw new ProviderError(Code.unsupportedMethod, 'XPC Wallet lists tokens on its Avalanche networks only, not on chains sites added');
    return (await this.gate.approved(call, 'watch-asset', async () => {
      const account = await this.conn.actingAccount(call.site);
      const eth = this.conn.eth(chain.rpcUrl);
      const meta = await readTokenMetadata(eth, address);
      if (meta.standard !== STANDARDS[type as keyof typeof STANDARDS]) {
        throw new InvalidParamsError(`the contract at ${address} is an ${meta.standard.toUpperCase()} token, not ${type}`, 'params.type');
      }
      // Shown from the one read above: a second read could fail (the node) and leave no token to show.
      const token = approvalTokenView(meta, (await this.deps.wallet.evmInsight(account.id, requesterOf(call.site), eth, { avalanche: true, symbol: chain.symbol, key: chainKeyOf(chain) })).listed, chain.symbol);
      const shownSymbol = siteSymbol === undefined ? undefined : shownName(siteSymbol, 12).text;
      return {
        summary: {
          kind: 'watch-asset',
          token,
          ...(shownSymbol !== undefined && shownSymbol !== token.symbol ? { siteSymbol: shownSymbol } : {}),
          ...(typeof o.decimals === 'number' && o.decimals !== token.decimals ? { siteDecimals: o.decimals } : {}),
          imageIgnored: o.image !== undefined,
        },
        payload: { kind: 'watch-asset', accountId: account.id, address, chain: chainKeyOf(chain), token: meta },
      };
    }, async (payload) => {
      await this.conn.assertStillOn(call.site, payload.chain);
      // Credited to the frame that asked (its own approval named it), not the page around it; listed
      // as the approval showed it: the node is not asked again (a failure now would fail a yes).
      await this.deps.wallet.watchToken(payload.accountId, requesterOf(call.site), payload.address, payload.token);
      return true;
    })) as boolean;
  }
}

// The tokens the user listed on each network (storage.local `xpc.tokens.<network>`, shared by the
// accounts), and how a token's own words are shown: its name and symbol are what the contract says,
// so they are cleaned of hidden characters and checked for passing as the chain's coin or as
// another listed token (docs/tokens.md).
import { WalletError } from '../core/errors.js';
import type { TokenMetadata } from '../core/tokens.js';
import type { ApprovalTokenView, TokenChecks, TokenStandard, TokenView } from '../shared/messages.js';
import { tokensKey } from './account-cache.js';
import { plainReading, shownName, usesOtherScripts } from './chain-name.js';
import { oneAtATime, type StorageArea, storedList } from './storage.js';

export const MAX_TOKENS = 200;
const MAX_TOKEN_NAME = 40;
const MAX_TOKEN_SYMBOL = 12;

export interface StoredToken {
  address: string;
  standard: TokenStandard;
  /** The contract's own words as read when listed, uncleaned (cleaned when shown). */
  name: string;
  symbol: string;
  decimals: number;
  addedBy: string;
  addedAt: number;
}


const same = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

/** Listed by the user (not at a site's request): only such a token vouches for itself in a site's approval. */
export const listedByUser = (t: Pick<StoredToken, 'addedBy'>): boolean => t.addedBy === 'wallet';

/**
 * The token's name and symbol as shown, and what is wrong with them: hidden characters or a cut
 * (altered), reading as the chain's own coin (`nativeSymbol`, or "Avalanche"), or reading as the
 * symbol of another listed token.
 */
export function checkedWords(meta: Pick<TokenMetadata, 'address' | 'name' | 'symbol'>, listed: readonly StoredToken[], nativeSymbol: string): { name: string; symbol: string; checks: TokenChecks } {
  const name = shownName(meta.name, MAX_TOKEN_NAME);
  const symbol = shownName(meta.symbol, MAX_TOKEN_SYMBOL);
  const reading = plainReading(meta.symbol);
  const native = plainReading(nativeSymbol);
  const posesAsNative =
    reading === native || plainReading(meta.name) === native || ['avalanche', 'avax'].some((w) => reading === w || plainReading(meta.name) === w);
  const twin = listed.find((t) => !same(t.address, meta.address) && reading !== '' && plainReading(t.symbol) === reading);
  const checks: TokenChecks = { altered: name.altered || symbol.altered, posesAsNative };
  if (twin) checks.looksLike = { address: twin.address, symbol: shownName(twin.symbol, MAX_TOKEN_SYMBOL).text };
  if (usesOtherScripts(meta.symbol) || usesOtherScripts(meta.name)) checks.otherScripts = true;
  return { name: name.text, symbol: symbol.text, checks };
}

export function tokenView(t: StoredToken, listed: readonly StoredToken[], nativeSymbol: string): TokenView {
  return { address: t.address, standard: t.standard, decimals: t.decimals, addedBy: t.addedBy, ...checkedWords(t, listed, nativeSymbol) };
}

/**
 * A listed token's symbol and decimals as lists of amounts name it (a trial run, token transfers):
 * a symbol its checks flag (reads as AVAX, as another listed token, other scripts) carries its short
 * address, so "5,000 AVAX" from a look-alike never reads as AVAX.
 */
export function namedToken(t: StoredToken, listed: readonly StoredToken[], nativeSymbol: string): { symbol: string; decimals: number } {
  const { symbol, decimals, checks: c } = tokenView(t, listed, nativeSymbol);
  return { symbol: c.posesAsNative || c.looksLike || c.otherScripts ? `${symbol} (${t.address.slice(0, 10)}…${t.address.slice(-6)})` : symbol, decimals };
}

export function approvalTokenView(meta: TokenMetadata, listed: readonly StoredToken[], nativeSymbol: string): ApprovalTokenView {
  const mine = listed.find((t) => same(t.address, meta.address));
  // A listed token is shown in the units and kind it was listed with (as the trial run is): the
  // node answering otherwise now (a lie, an upgrade) makes it not the listed token.
  const { standard, decimals } = mine ?? meta;
  return { address: meta.address, standard, decimals, listed: mine?.symbol === meta.symbol && mine.name === meta.name && mine.decimals === meta.decimals && mine.standard === meta.standard, ...checkedWords(meta, listed, nativeSymbol) };
}

export class TokenStore {
  constructor(private readonly local: StorageArea) {}

  list(networkId: string): Promise<StoredToken[]> {
    return storedList<StoredToken>(this.local, tokensKey(networkId), 'the token list');
  }

  async find(networkId: string, address: string): Promise<StoredToken | undefined> {
    return (await this.list(networkId)).find((t) => same(t.address, address));
  }

  /**
   * Lists the token unless it is already (then the stored entry stays as it is). The user's own add
   * of a token a site listed replaces it, with the words the user saw: the user's vouches in approvals.
   */
  add(networkId: string, token: StoredToken): Promise<StoredToken> {
    const key = tokensKey(networkId);
    return oneAtATime(key, async () => {
      const all = await this.list(networkId);
      const known = all.find((t) => same(t.address, token.address));
      if (known) {
        if (!listedByUser(token) || listedByUser(known)) return known;
        await this.local.set({ [key]: all.map((t) => (t === known ? token : t)) });
        return token;
      }
      if (all.length >= MAX_TOKENS) throw new WalletError('validation', `your list on this network already holds ${MAX_TOKENS} tokens, the most it can: remove one first`);
      await this.local.set({ [key]: [...all, token] });
      return token;
    });
  }

  remove(networkId: string, address: string): Promise<void> {
    const key = tokensKey(networkId);
    return oneAtATime(key, async () => {
      const all = await this.list(networkId);
      await this.local.set({ [key]: all.filter((t) => !same(t.address, address)) });
    });
  }
}

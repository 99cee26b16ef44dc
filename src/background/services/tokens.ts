// tokens.*: the C-Chain tokens of the selected account on the selected network, all read from the
// user's own node: listing a token (by address, or a site's wallet_watchAsset once approved),
// balances, sends (estimate → review → confirm), the account's transfers and allowances from the
// chain's logs, and revoking an allowance. docs/tokens.md.
import { ValidationError, WalletError } from '../../core/errors.js';
import { formatEvmAddress, parseEvmAddress } from '../../core/evm-address.js';
import { simulateTx } from '../../core/evm-simulate.js';
import { allowanceOf, isApprovedForAll, nftUri, ownerOf, permit2AllowanceOf, readTokenMetadata, revokeCall, tokenBalance, tokenBalanceOfId, tokenSendData, type TokenMetadata } from '../../core/tokens.js';
import { PERMIT2_UNLIMITED } from '../../core/evm-calls.js';
import { chargedGas } from '../../core/tx/c.js';
import type { EthApi } from '../../core/node.js';
import type { AllowanceView, EvmFeeQuote, RequestParams as P, TokenSendParams, TokenTransferView, TokenView } from '../../shared/messages.js';
import type { AccountContext, AccountEngines } from '../account-engines.js';
import { shownName } from '../chain-name.js';
import type { Delivery } from '../delivery.js';
import { nftMetadataFrom } from '../nft-metadata.js';
import type { StorageArea } from '../storage.js';
import { mapLimited } from '../map-limited.js';
import { type ScanState, scanView, TokenScanner } from '../token-scan.js';
import { listedByUser, namedToken, type StoredToken, TokenStore, tokenView } from '../token-store.js';
import { UNLIMITED_ALLOWANCE as UNLIMITED } from '../../core/amount.js';
import { simulationView } from '../evm-views.js';

/** The chain's own coin: what a token must not pass itself off as. */
export const NATIVE_SYMBOL = 'AVAX';

const same = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();
/** Allowance and code reads in flight at once when the allowances are opened (a spammed log list must not flood the node). */
const ALLOWANCE_READS_AT_ONCE = 8;
/** ownerOf / balanceOf reads in flight at once for the NFT list (up to 500 IDs from the logs). */
const NFT_READS_AT_ONCE = 8;

function checksummed(address: string): string {
  return formatEvmAddress(parseEvmAddress(address));
}

/** What a fee quote looks like to the popup: the most the tx can cost, and what it likely costs (at `gasUse`, else its limit). */
export function feeQuote(q: { gasLimit: bigint; gasUse?: bigint; baseFeeWei: bigint; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }): EvmFeeQuote {
  const likelyPrice = q.baseFeeWei + q.maxPriorityFeePerGas < q.maxFeePerGas ? q.baseFeeWei + q.maxPriorityFeePerGas : q.maxFeePerGas;
  return {
    gasLimit: q.gasLimit.toString(),
    maxFeePerGas: q.maxFeePerGas.toString(),
    maxPriorityFeePerGas: q.maxPriorityFeePerGas.toString(),
    maxFee: (q.gasLimit * q.maxFeePerGas).toString(),
    likelyFee: (chargedGas(q.gasUse ?? q.gasLimit, q.gasLimit) * likelyPrice).toString(),
  };
}

export class TokensService {
  readonly store: TokenStore;
  readonly scanner: TokenScanner;
  /** The token last looked up (network, what it said): tokens.add lists what the user saw, not a second read. */
  private inspected?: [string, TokenMetadata];

  constructor(
    private readonly engines: AccountEngines,
    private readonly delivery: Delivery,
    local: StorageArea,
  ) {
    this.store = new TokenStore(local);
    this.scanner = new TokenScanner(local);
  }

  private async listed(ctx: AccountContext): Promise<StoredToken[]> {
    return this.store.list(ctx.preset.id);
  }

  private async balanceOf(ctx: AccountContext, t: Pick<StoredToken, 'address' | 'standard'>): Promise<Pick<TokenView, 'balance' | 'balanceError'>> {
    if (t.standard === 'erc1155') return {};
    try {
      return { balance: (await tokenBalance(ctx.engine.node.eth, t.address, ctx.engine.evmAddress)).toString() };
    } catch (e) {
      if (e instanceof WalletError && e.code === 'token-call-failed') return { balanceError: 'the token contract did not say what this account holds' };
      throw e;
    }
  }

  /** The balance, or in words why there is none: a token already listed is never reported as a failure to list it. */
  private async shownBalance(ctx: AccountContext, t: Pick<StoredToken, 'address' | 'standard'>): Promise<Pick<TokenView, 'balance' | 'balanceError'>> {
    return this.balanceOf(ctx, t).catch(() => ({ balanceError: 'the node did not answer for this token' }));
  }

  async tokensInspect(p: P<'tokens.inspect'>) {
    const ctx = await this.engines.open();
    const meta = await readTokenMetadata(ctx.engine.node.eth, checksummed(p.address));
    this.inspected = [ctx.preset.id, meta];
    const listed = await this.listed(ctx);
    const stored: StoredToken = { ...meta, addedBy: 'wallet', addedAt: 0 };
    return { token: { ...tokenView(stored, listed, NATIVE_SYMBOL), ...(await this.balanceOf(ctx, meta)) }, listed: listed.some((t) => same(t.address, meta.address) && listedByUser(t)) };
  }

  /** Lists a token the contract describes now; `addedBy`: 'wallet' or the origin of the site the user approved. */
  async addToken(ctx: AccountContext, meta: TokenMetadata, addedBy: string): Promise<TokenView> {
    const stored = await this.store.add(ctx.preset.id, { ...meta, addedBy, addedAt: Date.now() });
    return { ...tokenView(stored, await this.listed(ctx), NATIVE_SYMBOL), ...(await this.shownBalance(ctx, stored)) };
  }

  async tokensAdd(p: P<'tokens.add'>) {
    const ctx = await this.engines.open();
    const known = await this.store.find(ctx.preset.id, p.address);
    const [net, seen] = this.inspected ?? [];
    // One a site listed is taken over with the words the user looked at, never the site's stored ones.
    const meta = known && listedByUser(known) ? known : net === ctx.preset.id && seen && same(seen.address, p.address) ? seen : await readTokenMetadata(ctx.engine.node.eth, checksummed(p.address));
    return { token: await this.addToken(ctx, meta, 'wallet') };
  }

  async tokensRemove(p: P<'tokens.remove'>) {
    const { preset } = await this.engines.selected();
    await this.store.remove(preset.id, p.address);
    return { ok: true as const };
  }

  async tokensList() {
    const ctx = await this.engines.open();
    const listed = await this.listed(ctx);
    const tokens = await Promise.all(listed.map(async (t) => ({ ...tokenView(t, listed, NATIVE_SYMBOL), ...(await this.shownBalance(ctx, t)) })));
    return { tokens };
  }

  /** The stored scan, read further first when asked (or never read yet). */
  private async scan(ctx: AccountContext, refresh: boolean | undefined): Promise<ScanState> {
    const s = await this.scanner.get(ctx.preset.id, ctx.account.id);
    if (!(refresh || s.updatedAt === 0)) return s;
    // Kept whole: the records of tokens the user listed. One a site listed is held to the cap of any
    // other contract (one approved watchAsset must not let it flood out everything else).
    const listed = (await this.listed(ctx)).filter(listedByUser);
    return this.scanner.refresh(ctx.preset.id, ctx.account.id, ctx.engine.node.eth, ctx.engine.evmAddress, listed.map((t) => t.address));
  }

  async tokensActivity(p: P<'tokens.activity'>) {
    const ctx = await this.engines.open();
    const [s, listed] = await Promise.all([this.scan(ctx, p.refresh), this.listed(ctx)]);
    const me = ctx.engine.evmAddress.toLowerCase();
    // Transfers of 0 (address poisoning) kept by scans before they were dropped there.
    const items: TokenTransferView[] = s.transfers.filter((t) => t.amount !== '0').map((t) => {
      const token = listed.find((l) => same(l.address, t.token));
      // Flagged words carry the token's address; one a site listed is not the user's ("Not in your list").
      const view = token ? namedToken(token, listed, NATIVE_SYMBOL) : undefined;
      const out = t.from.toLowerCase() === me;
      const inward = t.to.toLowerCase() === me;
      return {
        txHash: t.txHash,
        logIndex: t.logIndex,
        blockNumber: t.blockNumber,
        token: t.token,
        symbol: view?.symbol ?? '',
        decimals: view?.decimals ?? 0,
        standard: t.standard,
        listed: token !== undefined && listedByUser(token),
        direction: out && inward ? 'self' : out ? 'out' : 'in',
        from: t.from,
        to: t.to,
        ...(t.standard !== 'erc721' ? { amount: t.amount } : {}),
        ...(t.tokenId !== undefined ? { tokenId: t.tokenId } : {}),
        ...(t.time !== undefined ? { time: t.time } : {}),
      };
    });
    return { items, scan: scanView(s) };
  }

  private async listedToken(ctx: AccountContext, address: string): Promise<StoredToken> {
    const t = await this.store.find(ctx.preset.id, address);
    if (!t) throw new WalletError('token-not-listed', 'that token is not in your list on this network: add it first');
    return t;
  }

  private async listedNft(ctx: AccountContext, address: string): Promise<StoredToken> {
    const t = await this.listedToken(ctx, address);
    if (t.standard === 'erc20') throw new WalletError('validation', 'that token is not an NFT contract');
    return t;
  }

  async tokensNfts(p: P<'tokens.nfts'>) {
    const ctx = await this.engines.open();
    const t = await this.listedNft(ctx, p.address);
    const s = await this.scan(ctx, true);
    const ids = [...new Set(s.transfers.filter((x) => same(x.token, t.address) && x.tokenId !== undefined).map((x) => x.tokenId!))];
    const eth = ctx.engine.node.eth;
    const me = ctx.engine.evmAddress;
    const held = await mapLimited(ids, NFT_READS_AT_ONCE, async (id) => {
      if (t.standard === 'erc721') return same((await ownerOf(eth, t.address, BigInt(id))) ?? '', me) ? { tokenId: id, amount: '1' } : undefined;
      const n = await tokenBalanceOfId(eth, t.address, me, BigInt(id));
      return n > 0n ? { tokenId: id, amount: n.toString() } : undefined;
    });
    // With how far the logs were read: IDs only a part of the chain not read yet names are not "none".
    return { items: held.filter((h) => h !== undefined), scan: scanView(s) };
  }

  async tokensNftMetadata(p: P<'tokens.nftMetadata'>) {
    const ctx = await this.engines.open();
    const t = await this.listedNft(ctx, p.address);
    const uri = await nftUri(ctx.engine.node.eth, t.address, t.standard, BigInt(p.tokenId));
    if (uri === undefined) return { error: 'the contract gives no metadata for this token' };
    // The contract's own words (up to 8 KB): shown cleaned as token names are; read as they are.
    return { uri: shownName(uri, 8192).text, ...(await nftMetadataFrom(uri)) };
  }

  private async sendTarget(ctx: AccountContext, p: TokenSendParams): Promise<{ token: StoredToken; data: string }> {
    const token = await this.listedToken(ctx, p.address);
    if (token.standard === 'erc20' && p.tokenId !== undefined) throw new WalletError('validation', 'an ERC-20 send has an amount, not a token ID');
    if (token.standard === 'erc721' && p.amount !== undefined) throw new WalletError('validation', 'an ERC-721 send has a token ID, not an amount');
    // Whatever the form checked: tokens sent to their own contract are stuck there for good.
    if (checksummed(p.to) === checksummed(token.address)) throw new ValidationError("this is the token's own contract, not a recipient: tokens sent to it are lost for good", 'to');
    const data = tokenSendData(token.standard, ctx.engine.evmAddress, checksummed(p.to), {
      ...(p.amount !== undefined ? { amount: BigInt(p.amount) } : {}),
      ...(p.tokenId !== undefined ? { tokenId: BigInt(p.tokenId) } : {}),
    });
    return { token, data };
  }

  async tokensEstimateSend(p: P<'tokens.estimateSend'>) {
    const ctx = await this.engines.open();
    const { token, data } = await this.sendTarget(ctx, p);
    const q = await ctx.engine.quoteC(token.address, 0n, data);
    const listed = await this.listed(ctx);
    const sim = await simulateTx(ctx.engine.node.eth, { from: ctx.engine.evmAddress, to: token.address, value: 0n, data, gasLimit: q.gasLimit, maxFeePerGas: q.maxFeePerGas, maxPriorityFeePerGas: q.maxPriorityFeePerGas }, checksummed(p.to));
    // What the recipient receives of the token, when a full trace saw it differ from the amount sent
    // (a token keeping a cut; none at all when the trace shows the recipient receiving nothing). Only
    // a trace that shows the account's own change of the token read its logs (a node that leaves
    // them out shows no one receiving anything).
    const fullTrace = sim.method === 'trace' && sim.reverted === undefined && !sim.partial && token.standard === 'erc20' && sim.changes.some((c) => c.asset !== 'native' && same(c.asset, token.address));
    const got = fullTrace ? (sim.other?.find((c) => same(c.asset, token.address))?.delta ?? 0n) : undefined;
    return { ...feeQuote(q), simulation: simulationView(sim, listed, NATIVE_SYMBOL), ...(got !== undefined && `${got}` !== p.amount ? { arrives: `${got}` } : {}) };
  }

  async tokensSend(p: P<'tokens.send'>) {
    const ctx = await this.engines.open();
    const { token, data } = await this.sendTarget(ctx, p);
    const symbol = tokenView(token, await this.listed(ctx), NATIVE_SYMBOL).symbol;
    return this.delivery.sendEvm({ to: token.address, valueWei: 0n, data }, BigInt(p.maxFeeWei), {
      kind: 'send',
      to: checksummed(p.to),
      ...(p.amount !== undefined ? { amount: p.amount } : { amount: '1' }),
      token: { address: token.address, symbol, decimals: token.decimals, standard: token.standard, ...(p.tokenId !== undefined ? { tokenId: p.tokenId } : {}) },
    }, ctx);
  }

  async tokensAllowances(p: P<'tokens.allowances'>) {
    const ctx = await this.engines.open();
    const [s, listed] = await Promise.all([this.scan(ctx, p.refresh), this.listed(ctx)]);
    const eth = ctx.engine.node.eth;
    const me = ctx.engine.evmAddress;
    // One code read per spender; at most 8 reads at a time however many approvals the logs hold.
    const codes = new Map<string, Promise<string>>();
    const codeOf = (spender: string): Promise<string> => {
      const key = spender.toLowerCase();
      if (!codes.has(key)) codes.set(key, eth.getCode(spender));
      return codes.get(key)!;
    };
    const gone: ScanState['approvals'] = [];
    // Permit2's ends are judged by the chain's time (a computer's clock running ahead would hide a live one).
    const chainTime = s.approvals.some((a) => a.kind === 'permit2') ? (await eth.getBlockByNumber('latest'))?.timestamp : undefined;
    const found = await mapLimited(s.approvals, ALLOWANCE_READS_AT_ONCE, async (a): Promise<AllowanceView | undefined> => {
      // A read that fails (the node, a rate limit, a revert) is not a 0: the approval stays, said as not checked.
      const now = await allowanceNow(eth, me, a).catch(() => undefined);
      const amount = now?.amount;
      const p2 = now?.expiration !== undefined ? { expiration: now.expiration } : undefined;
      if (amount === 0n) {
        gone.push(a);
        return undefined;
      }
      // Expired gives nothing now; kept, not dropped as a 0 is, so a wrong time cannot hide it for good.
      if (p2 && chainTime !== undefined && p2.expiration < chainTime) return undefined;
      const code = await codeOf(a.spender);
      const t = listed.find((l) => same(l.address, a.token));
      const view = t ? tokenView(t, listed, NATIVE_SYMBOL) : undefined;
      return {
        token: a.token,
        symbol: view?.symbol ?? '',
        decimals: view?.decimals ?? 0,
        standard: t?.standard ?? (a.kind === 'operator' ? 'erc721' : 'erc20'),
        kind: a.kind,
        spender: a.spender,
        ...(amount === undefined ? { unknown: true } : a.kind !== 'operator' ? { amount: amount.toString() } : {}),
        ...(p2 ? { expiration: p2.expiration.toString() } : {}),
        unlimited: amount !== undefined && (a.kind === 'operator' || amount >= (p2 ? PERMIT2_UNLIMITED : UNLIMITED)),
        spenderIsContract: code !== '0x',
        txHash: a.txHash,
      };
    });
    await this.scanner.dropApprovals(ctx.preset.id, ctx.account.id, gone);
    return { allowances: found.filter((a) => a !== undefined), scan: scanView(s) };
  }

  async tokensEstimateRevoke(p: P<'tokens.estimateRevoke'>) {
    const ctx = await this.engines.open();
    await answersAllowance(ctx, p);
    const { to, data } = revokeCall(p.kind, checksummed(p.address), checksummed(p.spender));
    return feeQuote(await ctx.engine.quoteC(to, 0n, data));
  }

  async tokensRevoke(p: P<'tokens.revoke'>) {
    const ctx = await this.engines.open();
    await answersAllowance(ctx, p);
    const address = checksummed(p.address);
    const t = await this.store.find(ctx.preset.id, address);
    const token = t ? { address, symbol: tokenView(t, await this.listed(ctx), NATIVE_SYMBOL).symbol, decimals: t.decimals, standard: t.standard } : { address, symbol: '', decimals: 0, standard: p.kind === 'operator' ? ('erc721' as const) : ('erc20' as const) };
    return this.delivery.sendEvm({ ...revokeCall(p.kind, address, checksummed(p.spender)), valueWei: 0n }, BigInt(p.maxFeeWei), { kind: 'revoke', to: checksummed(p.spender), token }, ctx);
  }
}

/**
 * An allowance is revoked with approve(spender, 0) only on a contract that answers allowance():
 * on an NFT contract whose Approval event reads like a token's, that call would approve the
 * spender for its NFT #0 instead. One that does not answer (or a node that fails) is refused.
 */
async function answersAllowance(ctx: AccountContext, p: { kind: string; address: string; spender: string }): Promise<void> {
  if (p.kind !== 'allowance') return;
  const read = await allowanceOf(ctx.engine.node.eth, checksummed(p.address), ctx.engine.evmAddress, checksummed(p.spender)).catch(() => undefined);
  if (read === undefined) {
    throw new WalletError('token-call-failed', "the contract did not answer what this spender may take, so the wallet cannot tell it is a token's allowance (on an NFT contract, the revoke would hand over its NFT #0); nothing was signed: try again later");
  }
}

/** What an approval of the logs gives now: a token's allowance, an operator's right (1 or 0), or a Permit2 allowance with its end. */
async function allowanceNow(eth: EthApi, me: string, a: ScanState['approvals'][number]): Promise<{ amount: bigint; expiration?: bigint }> {
  if (a.kind === 'permit2') return permit2AllowanceOf(eth, me, a.token, a.spender);
  if (a.kind === 'allowance') return { amount: await allowanceOf(eth, a.token, me, a.spender) };
  return { amount: (await isApprovedForAll(eth, a.token, me, a.spender)) ? 1n : 0n };
}

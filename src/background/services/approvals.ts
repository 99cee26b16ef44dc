// Site requests waiting for the user (approvals.*), as the approval window lists and decides them,
// and the window's view of a site's X/P/C-atomic tx (for the provider to enqueue).
import type { Bytes } from '../../core/bytes.js';
import { toHex } from '../../core/bytes.js';
import { encodeUnsignedTx } from '../../core/codec/codec.js';
import type { UnsignedTx, Utxo } from '../../core/codec/types.js';
import { describeTx, type TxView } from '../../core/describe.js';
import { cb58Encode, parseId } from '../../core/encoding.js';
import { chainContextOf } from '../../core/network.js';
import type { WalletEngine } from '../../core/engine.js';
import { addressKey, type ImpactWarning, orderedWarnings, type OwnAddress, recipientImpact, txImpact } from '../../core/tx-impact.js';
import type { AccountView, ActivityItem, ApprovalAssetInfo, ApprovalSummary, ApprovalView, RequestParams as P } from '../../shared/messages.js';
import type { AccountEngines } from '../account-engines.js';
import { plainReading } from '../chain-name.js';
import { type ApprovalQueue, type Asker, requesterOf, UnknownApprovalError } from '../approvals.js';
import type { Session } from '../session.js';
import { VaultLockedError } from '../vault.js';
import type { NetworksService } from './networks.js';

/** What describeTx names the asset a CreateAssetTx creates. */
const NEW_ASSET = 'new asset';

export class ApprovalsService {
  constructor(
    private readonly session: Session,
    private readonly engines: AccountEngines,
    private readonly networks: NetworksService,
    private readonly options: {
      /** Site requests waiting for the user (storage.session); without it, nothing ever waits. */
      queue?: ApprovalQueue;
      /** Sites whose requests wait for the wallet to be unlocked (the provider knows them). */
      sitesWaitingForUnlock?: () => string[];
      /** Holds these askers' sites off for a while, as a closed window does (the provider's cool-down). */
      holdOff?: (askers: readonly Asker[]) => void;
      /** The wallet's accounts, to tell its own addresses apart in an approval. */
      accounts?: () => Promise<AccountView[]>;
    } = {},
  ) {}

  /**
   * What the approval window shows; the validated params stay in the background. Only while
   * unlocked: whoever sees and approves a site's request is whoever could unlock the wallet.
   */
  async approvalsList(): Promise<{ approvals: ApprovalView[] }> {
    if (!this.session.isUnlocked()) throw new VaultLockedError();
    const pending = (await this.options.queue?.list()) ?? [];
    return {
      approvals: pending.map((p) => ({
        id: p.id,
        origin: p.origin,
        ...(p.frameOrigin !== undefined ? { frameOrigin: p.frameOrigin } : {}),
        method: p.method,
        createdAt: p.createdAt,
        summary: p.summary as ApprovalSummary,
      })),
    };
  }

  /** The sites waiting for an answer; also while locked, so the unlock form can name them. */
  async approvalsWaiting(): Promise<{ sites: string[] }> {
    const pending = (await this.options.queue?.list()) ?? [];
    return { sites: [...new Set([...pending.map(requesterOf), ...(this.options.sitesWaitingForUnlock?.() ?? [])])] };
  }

  /**
   * Approving needs the wallet unlocked; rejecting never does (closing a locked window rejects).
   * A window closing on the request holds its site off first: the close itself is often seen only
   * after this "no", when the request is no longer there to name its site.
   */
  async approvalsDecide(p: P<'approvals.decide'>) {
    if (p.approved && !this.session.isUnlocked()) throw new VaultLockedError();
    if (!this.options.queue) throw new UnknownApprovalError(p.id);
    if (p.closing && !p.approved) this.options.holdOff?.((await this.options.queue.list()).filter((e) => e.id === p.id));
    await this.options.queue.decide(p.id, p.approved);
    return { ok: true as const };
  }

  /**
   * The approval window's view of an X/P/C-atomic tx: decoded from the exact bytes that would be
   * signed, on the selected network, with every asset it moves named, and what it does to this
   * wallet (src/core/tx-impact.ts): whose each owner is, per asset what leaves and what comes back,
   * and the warnings. For the provider to enqueue.
   */
  async approvalSummaryForTx(
    accountId: string,
    ext: { tx: UnsignedTx; spent: readonly Utxo[]; unsignedBytes?: Bytes },
  ): Promise<Omit<Extract<ApprovalSummary, { kind: 'tx' }>, 'action' | 'complete' | 'signsNothing'>> {
    const { tx, spent, unsignedBytes = encodeUnsignedTx(tx) } = ext;
    const opened = await this.engines.open(accountId);
    const identity = await this.networks.identity(opened.preset);
    const ctx = chainContextOf(identity);
    const view = describeTx(tx, ctx, spent);
    const avax = cb58Encode(ctx.avaxAssetID);
    const assets: Record<string, ApprovalAssetInfo> = {};
    for (const assetID of assetIdsOf(view)) {
      if (assetID === avax) {
        assets[assetID] = { symbol: identity.avaxSymbol, denomination: identity.avaxDenomination, verified: true };
        continue;
      }
      try {
        parseId(assetID);
      } catch {
        continue;
      }
      const info = await this.networks.assetDescription(opened.preset, assetID).catch(() => undefined);
      // An asset the node cannot describe is shown by its ID alone.
      if (info) assets[assetID] = { symbol: info.symbol, denomination: info.denomination, verified: false };
    }
    if (view.asset) assets[NEW_ASSET] = { symbol: view.asset.symbol, denomination: view.asset.denomination, verified: false };
    // A fee the node cannot price now is said to be unchecked, rather than holding the approval up.
    const networkFee = await opened.engine.networkFeeOf(tx).catch(() => undefined);
    const impact = txImpact(view, {
      own: await this.ownAddresses(opened.engine, accountId),
      paidBefore: paidBefore(opened.cache.activity),
      avaxAssetID: avax,
      // X fees are fixed; P and atomic fees follow a price that may rise before the site sends.
      ...(networkFee !== undefined ? { feeCeiling: tx.vm === 'avm' ? networkFee : 2n * networkFee } : { feeUnpriced: true }),
      nowSeconds: BigInt(Math.floor(Date.now() / 1000)),
    });
    // Any asset may name itself after the network's coin: said in words, not left to the symbol.
    const imitations: ImpactWarning[] = Object.entries(assets)
      .filter(([id, info]) => id !== avax && !info.verified && sameSymbol(info.symbol, identity.avaxSymbol))
      .map(([id, info]) => ({ kind: 'imitation', assetID: id, symbol: info.symbol }));
    if (imitations.length > 0) impact.warnings = orderedWarnings([...impact.warnings, ...imitations]);
    return { kind: 'tx', chain: view.chain, unsignedHex: `0x${toHex(unsignedBytes)}`, view, assets, impact };
  }

  /**
   * What an EVM tx's approval says of its recipient: the wallet's own (which account), or warned
   * of as a first payment or a look-alike of one of the wallet's addresses.
   */
  async recipientOf(accountId: string, address: string): Promise<{ yours?: OwnAddress; warnings: ImpactWarning[] }> {
    const { preset } = await this.engines.selected(accountId);
    const cache = await this.engines.caches.get(preset.id, accountId);
    return recipientImpact(address, { own: await this.ownAddresses(undefined, accountId), paidBefore: paidBefore(cache.activity) });
  }

  /** Every address of the wallet's accounts it knows, and each X/P address the acting account has used (with its engine). */
  private async ownAddresses(engine: WalletEngine | undefined, accountId: string): Promise<Map<string, OwnAddress>> {
    return ownAddressesOf((await this.options.accounts?.()) ?? [], accountId, engine?.addresses('X') ?? []);
  }
}

/** The wallet's addresses by {@link addressKey}: every account's, then the X/P addresses `used` by the acting account. */
export function ownAddressesOf(accounts: readonly AccountView[], actingId: string, used: readonly string[]): Map<string, OwnAddress> {
  const own = new Map<string, OwnAddress>();
  const add = (address: string, account: string, role: string, id: string, cOnly?: true) => {
    // First wins, but an atomic owner (read on the C-Chain only) yields to the same key's X/P address.
    const held = own.get(addressKey(address));
    if (!held || (held.cOnly && !cOnly)) own.set(addressKey(address), { account, role, address, accountId: id, ...(cOnly ? { cOnly } : {}) });
  };
  for (const a of accounts) {
    add(a.xAddress, a.name, 'X/P address', a.id);
    add(a.cAddress, a.name, 'C-Chain address', a.id);
    add(a.cBech32Address, a.name, "C-Chain address's atomic owner", a.id, true);
  }
  const acting = accounts.find((a) => a.id === actingId)?.name ?? 'this account';
  for (const address of used) add(address, acting, 'another X/P address of this account', actingId);
  return own;
}

/** Symbols a person would read as the same (case, separators and look-alike letters aside). */
function sameSymbol(a: string, b: string): boolean {
  return plainReading(a) === plainReading(b);
}

/** Addresses the account's sends, mints and transfers paid (Activity's `to`: one, or a multisig's list). */
function paidBefore(activity: readonly ActivityItem[]): Set<string> {
  const paid = new Set<string>();
  for (const item of activity) {
    if (item.to === undefined || item.kind === 'receive') continue;
    for (const a of item.to.split(',')) if (a.trim() !== '') paid.add(addressKey(a));
  }
  return paid;
}

/** Every asset ID a tx view mentions, once each. */
function assetIdsOf(view: TxView): string[] {
  const ids = new Set<string>();
  for (const leg of [...view.inputs, ...view.outputs]) ids.add(leg.assetID);
  for (const op of view.operations) {
    ids.add(op.assetID);
    for (const leg of op.outputs) ids.add(leg.assetID);
  }
  ids.delete(NEW_ASSET);
  return [...ids];
}

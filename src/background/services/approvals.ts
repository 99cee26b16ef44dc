// Site requests waiting for the user (approvals.*), as the approval window lists and decides them,
// and the window's view of a site's X/P/C-atomic tx (for the provider to enqueue).
import type { Bytes } from '../../core/bytes.js';
import { toHex } from '../../core/bytes.js';
import { encodeUnsignedTx } from '../../core/codec/codec.js';
import type { UnsignedTx, Utxo } from '../../core/codec/types.js';
import { describeTx, type TxView } from '../../core/describe.js';
import { cb58Encode, parseId } from '../../core/encoding.js';
import { chainContextOf } from '../../core/network.js';
import type { ApprovalAssetInfo, ApprovalSummary, ApprovalView, RequestParams as P } from '../../shared/messages.js';
import type { AccountEngines } from '../account-engines.js';
import { type ApprovalQueue, requesterOf, UnknownApprovalError } from '../approvals.js';
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

  /** Approving needs the wallet unlocked; rejecting never does (closing a locked window rejects). */
  async approvalsDecide(p: P<'approvals.decide'>) {
    if (p.approved && !this.session.isUnlocked()) throw new VaultLockedError();
    if (!this.options.queue) throw new UnknownApprovalError(p.id);
    await this.options.queue.decide(p.id, p.approved);
    return { ok: true as const };
  }

  /**
   * The approval window's view of an X/P/C-atomic tx: decoded from the exact bytes that would be
   * signed, on the selected network, with every asset it moves named. For the provider to enqueue.
   */
  async approvalSummaryForTx(
    tx: UnsignedTx,
    spent: readonly Utxo[],
    unsignedBytes: Bytes = encodeUnsignedTx(tx),
  ): Promise<Omit<Extract<ApprovalSummary, { kind: 'tx' }>, 'action' | 'complete'>> {
    const { preset } = await this.engines.selected();
    const identity = await this.networks.identity(preset);
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
      const info = await this.networks.assetDescription(preset, assetID).catch(() => undefined);
      // An asset the node cannot describe is shown by its ID alone.
      if (info) assets[assetID] = { symbol: info.symbol, denomination: info.denomination, verified: false };
    }
    if (view.asset) assets[NEW_ASSET] = { symbol: view.asset.symbol, denomination: view.asset.denomination, verified: false };
    return { kind: 'tx', chain: view.chain, unsignedHex: `0x${toHex(unsignedBytes)}`, view, assets };
  }
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

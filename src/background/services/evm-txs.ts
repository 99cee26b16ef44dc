// evm.*: the account's C-Chain EVM txs the node has not decided on (the outbox), and their
// replacement at the same nonce with higher fees: a speed-up (the same tx) or a cancel (nothing, to
// the account itself). Whichever of the two the chain runs, the other can never run. docs/tokens.md.
import { fromHex } from '../../core/bytes.js';
import { isEvmHash } from '../../core/engine.js';
import { WalletError } from '../../core/errors.js';
import { decodeEvmTx, type EvmTxRequest, PLAIN_TRANSFER_GAS, replacementFees, roomCap } from '../../core/tx/c.js';
import type { ActivityItem, PendingEvmTxView, RequestParams as P } from '../../shared/messages.js';
import type { AccountContext, AccountEngines } from '../account-engines.js';
import type { Delivery } from '../delivery.js';
import { evmNonceOf, type OutboxEntry, waitingEntry } from '../outbox.js';
import { feeQuote } from './tokens.js';

function pendingView(e: OutboxEntry): PendingEvmTxView {
  const tx = decodeEvmTx(fromHex(e.signedHex));
  return {
    txHash: e.txID,
    nonce: tx.nonce.toString(),
    to: tx.to ?? '',
    valueWei: tx.value.toString(),
    gasLimit: tx.gasLimit.toString(),
    maxFeePerGas: tx.maxFeePerGas.toString(),
    maxPriorityFeePerGas: tx.maxPriorityFeePerGas.toString(),
    createdAt: e.createdAt,
    kind: e.item.kind,
    ...(e.item.token ? { token: e.item.token, ...(e.item.amount !== undefined ? { amount: e.item.amount } : {}), ...(e.item.to ? { counterparty: e.item.to } : {}), ...(e.item.increase ? { increase: true as const } : {}), ...(e.item.unlimited ? { unlimited: true as const } : {}) } : {}),
  };
}

/**
 * Gas a replacement likely uses: the node's estimate of the same call, as its limit has room over
 * it (gasLimitFor); never above the limit, and the limit when the node cannot estimate it.
 */
async function likelyUse(ctx: AccountContext, req: EvmTxRequest): Promise<bigint> {
  if (req.gasLimit <= PLAIN_TRANSFER_GAS) return req.gasLimit;
  const call = { from: ctx.engine.evmAddress, ...(req.to ? { to: req.to } : {}), value: `0x${req.value.toString(16)}`, ...(req.data ? { data: req.data } : {}) };
  const use = await ctx.engine.node.eth.estimateGas(call).catch(() => req.gasLimit);
  return use < req.gasLimit ? use : req.gasLimit;
}

export class EvmTxService {
  constructor(
    private readonly engines: AccountEngines,
    private readonly delivery: Delivery,
  ) {}

  /** Outbox EVM txs whose nonce the chain has not used yet: only those can still be replaced. */
  private async pendingEntries(ctx: AccountContext): Promise<OutboxEntry[]> {
    const used = await ctx.engine.node.eth.getTransactionCount(ctx.engine.evmAddress, 'latest');
    return (await this.live(ctx)).filter((e) => evmNonceOf(e)! >= used);
  }

  private async live(ctx: AccountContext): Promise<OutboxEntry[]> {
    // One that cannot be read (damaged storage) is left out: it holds no nonce (ownEvmNonces).
    return (await (await this.engines.outbox(ctx.preset, ctx.account.id)).list()).filter((e) => e.chain === 'C' && isEvmHash(e.txID) && !e.voided && evmNonceOf(e) !== undefined);
  }

  async evmPending() {
    const ctx = await this.engines.open();
    return { txs: (await this.pendingEntries(ctx)).map(pendingView) };
  }

  /** The replacement of `old` for `action`, at today's fees (each at least +10%). */
  private async replacement(ctx: AccountContext, old: OutboxEntry, action: 'speed-up' | 'cancel'): Promise<{ req: EvmTxRequest; baseFeeWei: bigint; gasUse?: bigint }> {
    const prior = decodeEvmTx(fromHex(old.signedHex));
    const [baseFeeWei, tip] = await ctx.engine.cFeeInputs();
    // Bumped from the highest fees at this nonce: the node holds the last replacement, and refuses
    // one priced against the first (a second speed-up or a cancel pressed on the original).
    const rivals = (await this.live(ctx)).map((e) => decodeEvmTx(fromHex(e.signedHex))).filter((t) => t.nonce === prior.nonce);
    const top = (k: 'maxFeePerGas' | 'maxPriorityFeePerGas'): bigint => rivals.reduce((m, t) => (t[k] > m ? t[k] : m), prior[k]);
    const fees = replacementFees({ maxFeePerGas: top('maxFeePerGas'), maxPriorityFeePerGas: top('maxPriorityFeePerGas') }, baseFeeWei, tip);
    const { from: _from, ...same } = prior;
    const req: EvmTxRequest =
      action === 'speed-up'
        ? { ...same, ...fees }
        : { chainId: prior.chainId, nonce: prior.nonce, to: ctx.engine.evmAddress, value: 0n, gasLimit: PLAIN_TRANSFER_GAS, ...fees };
    // The node takes a tx only if the balance covers its value and its whole fee: a sped-up send of
    // (nearly) everything cannot be, as its higher fee no longer fits. Said before a review. The
    // room of a limit over what the call uses (gasLimitFor) is given back first.
    // The gas use, when read here, is handed on: the quote prices the likely fee at it.
    let gasUse: bigint | undefined;
    if (action === 'speed-up') {
      const balance = await ctx.engine.cBalanceWei();
      const affordable = roomCap(req.gasLimit, balance - req.value, req.maxFeePerGas);
      if (affordable < req.gasLimit) {
        gasUse = await likelyUse(ctx, req);
        req.gasLimit = affordable > gasUse ? affordable : gasUse;
      }
      if (req.value + req.gasLimit * req.maxFeePerGas > balance) {
        throw new WalletError('replacement-unaffordable', 'speeding this up would cost more than the account holds, as its amount and the higher fee no longer fit; cancel it instead, or wait for the fee to fall');
      }
    }
    return { req, baseFeeWei, ...(gasUse !== undefined ? { gasUse } : {}) };
  }

  private async entry(ctx: AccountContext, txHash: string): Promise<OutboxEntry> {
    return waitingEntry(await this.pendingEntries(ctx), txHash);
  }

  async evmEstimateReplace(p: P<'evm.estimateReplace'>) {
    const ctx = await this.engines.open();
    const old = await this.entry(ctx, p.txHash);
    const { req, baseFeeWei, gasUse } = await this.replacement(ctx, old, p.action);
    return { ...feeQuote({ ...req, baseFeeWei, gasUse: gasUse ?? (await likelyUse(ctx, req)) }), replaces: pendingView(old) };
  }

  async evmReplace(p: P<'evm.replace'>) {
    const ctx = await this.engines.open();
    const txHash = await this.delivery.sendReplacement(ctx, p.txHash, async (old) => {
      const { req } = await this.replacement(ctx, old, p.action);
      if (req.gasLimit * req.maxFeePerGas > BigInt(p.maxFeeWei)) {
        throw new WalletError('fee-above-approved', `the fee of up to ${req.gasLimit * req.maxFeePerGas} wei is above the approved maximum of ${p.maxFeeWei} wei`);
      }
      const signed = ctx.engine.signEvm(req);
      const item: ActivityItem =
        p.action === 'speed-up'
          ? { ...old.item, txID: signed.txID, status: 'pending', fee: signed.maxFeeWei.toString(), createdAt: Date.now() }
          : { txID: signed.txID, chain: 'C', kind: 'send', status: 'pending', amount: '0', to: ctx.engine.evmAddress, toSelf: true, fee: signed.maxFeeWei.toString(), createdAt: Date.now() };
      delete item.checking;
      return { signed: { chain: 'C' as const, ...signed }, item };
    });
    return { txHash };
  }
}

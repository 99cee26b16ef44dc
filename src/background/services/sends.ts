// Sends on each chain (send.x, send.p, send.c) and their estimates: the fee and the most that can
// go. Built by the core engine from the account's UTXOs; sent through Delivery.
import { toHex } from '../../core/bytes.js';
import { cb58Encode, formatAddress, parseId } from '../../core/encoding.js';
import { InsufficientFundsError } from '../../core/errors.js';
import type { WalletEngine } from '../../core/engine.js';
import type { OutputOwners } from '../../core/codec/types.js';
import { buildPSend } from '../../core/tx/p.js';
import { buildXSend } from '../../core/tx/x.js';
import type { RequestParams as P, SendEstimate } from '../../shared/messages.js';
import type { AccountEngines } from '../account-engines.js';
import type { Delivery } from '../delivery.js';
import { avaxOutput, largestAmount, oneTxOnly, pSpendFees } from '../max-amount.js';
import { ownersFrom } from '../request-fields.js';

export class SendsService {
  constructor(
    private readonly engines: AccountEngines,
    private readonly delivery: Delivery,
  ) {}

  async sendX(p: P<'send.x'>) {
    const ctx = await this.engines.open();
    const { engine } = ctx;
    const to = ownersFrom(p.to, 'X', engine.ctx.hrp);
    const built = await engine.buildXSend([{ assetID: parseId(p.assetID), amount: BigInt(p.amount), owners: to }], p.memo ? new TextEncoder().encode(p.memo) : undefined);
    const issued = await this.delivery.issue(ctx, 'send', built, p.maxFee, { assetID: p.assetID, amount: p.amount, to: p.to.addresses.join(', '), ...toSelf(engine, 'X', to), ...(p.memo ? { memo: p.memo } : {}) });
    return { txID: issued.txID, fee: issued.fee.toString() };
  }

  async sendP(p: P<'send.p'>) {
    const ctx = await this.engines.open();
    const { engine } = ctx;
    const to = ownersFrom(p.to, 'P', engine.ctx.hrp);
    const built = await engine.buildPSend(BigInt(p.amount), to);
    const issued = await this.delivery.issue(ctx, 'send', built, p.maxFee, { assetID: cb58Encode(engine.ctx.avaxAssetID), amount: p.amount, to: p.to.addresses.join(', '), ...toSelf(engine, 'P', to) });
    return { txID: issued.txID, fee: issued.fee.toString() };
  }

  async sendC(p: P<'send.c'>) {
    return this.delivery.sendEvm({ to: p.to, valueWei: BigInt(p.amountWei) }, BigInt(p.maxFeeWei), { kind: 'send', amount: p.amountWei, to: p.to });
  }

  /**
   * The fee the send would pay and the most it could send, from the same UTXOs and builder the
   * send uses; nothing is signed. Not enough funds: the send's own InsufficientFundsError.
   */
  async sendEstimate(p: P<'send.estimate'>): Promise<SendEstimate> {
    const { engine } = await this.engines.open();
    if (p.chain === 'C') {
      const amount = BigInt(p.amountWei);
      const balance = await engine.cBalanceWei();
      // Gas as the send will sign it (a contract recipient's code is estimated). An amount above the
      // balance is quoted at 0, so the answer is "not enough funds", not the node's estimate failing.
      const quote = await engine.quoteC(p.to, amount <= balance ? amount : 0n);
      const fee = quote.gasLimit * quote.maxFeePerGas;
      if (amount + fee > balance) throw new InsufficientFundsError(cb58Encode(engine.ctx.avaxAssetID), amount + fee, balance, 'AVAX on the C-Chain (wei)');
      return { fee: fee.toString(), maxAmount: (balance - fee).toString(), gasLimit: quote.gasLimit.toString() };
    }
    const ctx = engine.ctx;
    const changeOwners = engine.changeOwners;
    if (p.chain === 'X') {
      const to = ownersFrom(p.to, 'X', ctx.hrp);
      const assetID = parseId(p.assetID);
      const memo = p.memo ? new TextEncoder().encode(p.memo) : undefined;
      const pool = await engine.spendable('X');
      const build = (amount: bigint) => buildXSend({ ctx, pool, changeOwners, ...(memo ? { memo } : {}), payments: [{ assetID, amount, owners: to }] });
      const fee = build(BigInt(p.amount)).fee;
      const isAvax = toHex(assetID) === toHex(ctx.avaxAssetID);
      const maxAmount = largestAmount({ pool, assetID, feesFor: () => [isAvax ? ctx.xTxFee : 0n], build });
      return { fee: fee.toString(), maxAmount: maxAmount.toString(), ...oneTxOnly(pool, assetID, maxAmount + (isAvax ? ctx.xTxFee : 0n)) };
    }
    const to = ownersFrom(p.to, 'P', ctx.hrp);
    const [pool, feeCtx] = await Promise.all([engine.spendable('P'), engine.pFeeContext()]);
    const build = (amount: bigint) => buildPSend({ ctx, fee: feeCtx, pool, changeOwners, amount, to });
    const fee = build(BigInt(p.amount)).fee;
    const payment = avaxOutput(ctx, to);
    const maxAmount = largestAmount({ pool, assetID: ctx.avaxAssetID, feesFor: (inputs) => pSpendFees(ctx, feeCtx, 'BaseTx', inputs, payment, changeOwners), build });
    return { fee: fee.toString(), maxAmount: maxAmount.toString(), ...oneTxOnly(pool, ctx.avaxAssetID, maxAmount + build(maxAmount).fee) };
  }
}

/** A send whose every recipient address is one of the account's own: Activity says "Sent to yourself". */
function toSelf(engine: WalletEngine, chain: 'X' | 'P', to: OutputOwners): { toSelf?: true } {
  const own = new Set(engine.addresses(chain));
  return to.addresses.every((id) => own.has(formatAddress(chain, engine.ctx.hrp, id))) ? { toSelf: true } : {};
}

// Staking on the P-Chain (staking.*, docs/staking.md): the validator list and a pick from it,
// delegations, validations (fixed or auto-renewed) and changes to an auto-renewed validator, each
// estimated for its review with the exact fee and then signed, sent through Delivery and followed
// to the node's decision; the account's stakes and rewards, and their CSV. Every rule the network
// would refuse a stake for is checked first, so a refused stake costs nothing and signs nothing.
import { fromHex } from '../../core/bytes.js';
import type { WalletError } from '../../core/errors.js';
import { cb58Encode, parseAddress, parseId, parseNodeId } from '../../core/encoding.js';
import { DEFAULT_ATOMIC_API } from '../../core/network.js';
import { NodeClient } from '../../core/node.js';
import { ownersFromApi } from '../../core/node/checks.js';
import { splitReward, stakingReward } from '../../core/staking/reward.js';
import { checkAutoRenewChange, checkDelegation, checkDelegationTerms, checkValidation, CLOCK_AHEAD_LIMIT, cycleEndMargin, StakingRuleError } from '../../core/staking/rules.js';
import { pickValidator, validatorModels, validatorPage } from '../../core/staking/validator-list.js';
import { makeOwners } from '../../core/tx/context.js';
import type { BuiltTx } from '../../core/tx/built.js';
import { buildPAutoRenewedValidation, buildPDelegation, buildPSetAutoRenewConfig, buildPValidation } from '../../core/tx/staking.js';
import { ownedAddressSet } from '../../core/tx/utxos.js';
import type { ActivityItem, ArrivalView, RequestParams as P, RequestResult as R, ValidationParams } from '../../shared/messages.js';
import type { AccountContext, AccountEngines } from '../account-engines.js';
import type { Delivery } from '../delivery.js';
import { listedStates, locksFunds, type StakeRecord } from '../stake-book.js';
import { type StakingContext, StakingReads } from '../staking-context.js';
import type { SiteStake } from '../site-stakes.js';
import type { StorageArea } from '../storage.js';
import { hasOpenStakes } from '../stake-follow.js';
import { stakingCsv } from '../staking-csv.js';
import { followAccountStakes } from '../staking-follow-run.js';
import { apiOwnerSet, myStakeView, ownerView, paramsView, rewardViews, validatorView } from '../staking-views.js';

const NODE_KEY_TIMEOUT_MS = 10_000;

export interface StakingOptions {
  fetch?: typeof fetch;
  /** The account's activity (activity.list), for the CSV of everything. */
  activity?: () => Promise<R<'activity.list'>>;
  log?: (line: string) => void;
}

export class StakingService extends StakingReads {
  constructor(
    engines: AccountEngines,
    private readonly delivery: Delivery,
    local: StorageArea,
    private readonly options: StakingOptions = {},
  ) {
    super(engines, local);
  }

  /** Once a stake or change is sent, a stake book that cannot be written is logged, never taken for its failure. */
  private readonly bookNotUpdated = (e: Error): void => this.options.log?.(`staking: the stake book was not updated: ${e.message}`);

  async stakingParams(): Promise<R<'staking.params'>> {
    // Not refused for a clock far ahead (checkClocks): the staking screens need the rules to show the
    // list and My stakes; a stake's pick, review and confirm are refused in words. The end choices
    // count from no later than an hour past this computer's clock, whatever the node says.
    const c = await this.context();
    const latest = c.clock + CLOCK_AHEAD_LIMIT;
    return paramsView(c.rules, c.now < latest ? c.now : latest, c.chainTime < latest ? c.chainTime : latest);
  }

  async stakingValidators(p: P<'staking.validators'>): Promise<R<'staking.validators'>> {
    const c = await this.context();
    const list = await this.validators(c);
    const models = validatorModels(list, c.rules, c.now, c.mine);
    const f = p.filter ?? {};
    const { matching, page } = validatorPage(models, {
      now: c.now,
      filter: {
        ...(f.minUptime !== undefined ? { minUptime: f.minUptime } : {}),
        ...(f.maxFee !== undefined ? { maxFee: f.maxFee } : {}),
        ...(f.minFreeSpace !== undefined ? { minFreeSpace: BigInt(f.minFreeSpace) } : {}),
        ...(f.minRemainingSeconds !== undefined ? { minRemainingSeconds: BigInt(f.minRemainingSeconds) } : {}),
        ...(f.nodeID !== undefined ? { nodeID: f.nodeID } : {}),
      },
      ...(p.sort ? { sort: p.sort } : {}),
      ...(p.offset !== undefined ? { offset: p.offset } : {}),
      ...(p.limit !== undefined ? { limit: p.limit } : {}),
    });
    return { chainTime: Number(c.now), total: list.length, matching, validators: page.map(validatorView) };
  }

  async stakingPick(p: P<'staking.pick'>): Promise<R<'staking.pick'>> {
    const c = await this.context(true);
    const amount = BigInt(p.amount);
    const end = BigInt(p.end);
    // The rules that do not depend on the validator, first: a pick cannot mend them.
    checkDelegationTerms({ rules: c.rules, now: c.now, chainTime: c.chainTime, amount, end });
    const models = validatorModels(await this.validators(c), c.rules, c.now, c.mine);
    const { validator, reasons } = pickValidator(models, { amount, end, now: c.now, rules: c.rules });
    return { validator: validatorView(validator), reasons };
  }

  // ---- delegating ----

  private async delegation(p: P<'staking.estimateDelegation'>) {
    const c = await this.context(true);
    await c.book.list(); // A book that cannot be read could not record the stake: refused before it is built.
    const amount = BigInt(p.amount);
    const end = BigInt(p.end);
    const validator = await this.oneValidator(c, p.nodeID);
    checkDelegation({ rules: c.rules, now: c.now, chainTime: c.chainTime, amount, end, nodeID: p.nodeID, validator });
    await this.proveListed(c, validator!); // Before the fee and the end are used for the review.
    const rewardSet = p.rewardOwner ?? this.me(c);
    const rewardOwners = await this.owners(c, rewardSet, 'rewardOwner');
    const stakeOwners = makeOwners([parseAddress(c.pAddress).bytes]);
    const [spend, supply] = await Promise.all([this.spendParams(c), c.engine.node.platform.getCurrentSupply()]);
    const built = buildPDelegation({ ...spend, nodeID: parseNodeId(p.nodeID), amount, stakeOwners, start: c.now, end, rewardOwners });
    const split = splitReward(stakingReward(c.rules.reward, c.now, end - c.now, amount, supply), validator!.delegationFee);
    const rewardOwner = ownerView(rewardSet, c.mine);
    const arrives: ArrivalView[] = [
      { what: 'stake', amount: p.amount, estimated: false, at: p.end, to: ownerView(this.me(c), c.mine) },
      { what: 'reward', amount: split.delegator.toString(), estimated: true, at: p.end, to: rewardOwner },
    ];
    const review: R<'staking.estimateDelegation'> = {
      nodeID: p.nodeID,
      amount: p.amount,
      from: c.pAddress,
      start: Number(c.now),
      end: p.end,
      rewardOwner,
      fee: built.fee.toString(),
      estimatedReward: split.delegator.toString(),
      validatorFee: split.validator.toString(),
      validator: validatorView(validatorModels([validator!], c.rules, c.now, c.mine)[0]!),
      arrives,
    };
    return { c, built, review, rewardSet };
  }

  async stakingEstimateDelegation(p: P<'staking.estimateDelegation'>): Promise<R<'staking.estimateDelegation'>> {
    return (await this.delegation(p)).review;
  }

  async stakingDelegate(p: P<'staking.delegate'>): Promise<R<'staking.delegate'>> {
    const { c, built, review, rewardSet } = await this.delegation(p);
    return this.stake(c, 'delegate', built, p.maxFee, {}, { kind: 'delegation', nodeID: p.nodeID, amount: p.amount, start: review.start, end: p.end, rewardOwner: rewardSet });
  }

  // ---- validating ----

  async stakingNodeKey(p: P<'staking.nodeKey'>): Promise<R<'staking.nodeKey'>> {
    // The node the user names, not the wallet's: its answer is only taken for what it must be.
    const client = new NodeClient({ url: p.url, atomicApi: DEFAULT_ATOMIC_API, timeoutMs: NODE_KEY_TIMEOUT_MS, ...(this.options.fetch ? { fetch: this.options.fetch } : {}) });
    return client.info.getNodeID();
  }

  private async validation(p: ValidationParams) {
    const c = await this.context(true);
    await c.book.list(); // As for a delegation.
    const amount = BigInt(p.amount);
    const period = p.autoRenew ? BigInt(p.autoRenew.period) : undefined;
    const end = p.end !== undefined ? BigInt(p.end) : c.now + period!;
    const existing = await this.oneValidator(c, p.nodeID);
    checkValidation({ rules: c.rules, now: c.now, chainTime: c.chainTime, amount, delegationFee: p.delegationFee, ...(period !== undefined ? { period } : { end }), alreadyValidating: existing !== undefined });
    const me = this.me(c);
    const rewardSet = p.rewardOwner ?? me;
    const feeSet = p.delegationFeeOwner ?? me;
    const common = {
      ...(await this.spendParams(c)),
      nodeID: parseNodeId(p.nodeID),
      amount,
      stakeOwners: makeOwners([parseAddress(c.pAddress).bytes]),
      signer: { publicKey: fromHex(p.publicKey.slice(2)), proofOfPossession: fromHex(p.proofOfPossession.slice(2)) },
      rewardOwners: await this.owners(c, rewardSet, 'rewardOwner'),
      delegationRewardOwners: await this.owners(c, feeSet, 'delegationFeeOwner'),
      delegationShares: p.delegationFee,
    };
    const built = p.autoRenew
      ? buildPAutoRenewedValidation({ ...common, authority: makeOwners([parseAddress(c.pAddress).bytes]), restakeShares: p.autoRenew.restakeShares, period: period! })
      : buildPValidation({ ...common, start: c.now, end });
    const reward = stakingReward(c.rules.reward, c.now, end - c.now, amount, await c.engine.node.platform.getCurrentSupply());
    // An auto-renewed validator restakes its share of each cycle's reward; the rest is paid out.
    const paidOut = p.autoRenew ? splitReward(reward, p.autoRenew.restakeShares).delegator : reward;
    const rewardOwner = ownerView(rewardSet, c.mine);
    const review: R<'staking.estimateValidation'> = {
      nodeID: p.nodeID,
      publicKey: p.publicKey,
      proofOfPossession: p.proofOfPossession,
      amount: p.amount,
      from: c.pAddress,
      start: Number(c.now),
      end: Number(end),
      ...(p.autoRenew ? { autoRenew: p.autoRenew, authority: ownerView(me, c.mine) } : {}),
      delegationFee: p.delegationFee,
      rewardOwner,
      delegationFeeOwner: ownerView(feeSet, c.mine),
      fee: built.fee.toString(),
      estimatedReward: reward.toString(),
      arrives: [
        { what: 'stake', amount: p.amount, estimated: false, at: p.autoRenew ? null : Number(end), to: ownerView(me, c.mine) },
        { what: 'reward', amount: paidOut.toString(), estimated: true, at: Number(end), to: rewardOwner },
      ],
    };
    return { c, built, review, rewardSet, feeSet };
  }

  async stakingEstimateValidation(p: P<'staking.estimateValidation'>): Promise<R<'staking.estimateValidation'>> {
    return (await this.validation(p)).review;
  }

  async stakingValidate(p: P<'staking.validate'>): Promise<R<'staking.validate'>> {
    const { c, built, review, rewardSet, feeSet } = await this.validation(p);
    // An auto-renewed one has no start: its first cycle runs from the block that takes it. Never
    // sent again (a node that lost it) once that would lock the stake past the reviewed cycle's end
    // by more than the margin a cycle's end is given. From this computer's clock: the outbox judges
    // it by the later of that clock and the chain's (pClock), so however idle the chain, by the margin.
    const sendBefore = p.autoRenew ? { sendBefore: Math.floor(Date.now() / 1000) + Number(cycleEndMargin(c.rules)) } : {};
    return this.stake(c, 'validate', built, p.maxFee, sendBefore, {
      kind: p.autoRenew ? 'auto-renewed' : 'validation',
      nodeID: p.nodeID,
      amount: p.amount,
      start: review.start,
      end: review.end,
      rewardOwner: rewardSet,
      delegationFeeOwner: feeSet,
      delegationFee: p.delegationFee,
      // The first cycle's end counts from the block that accepts it, not from the review: a guess
      // until the validator is seen in the list (stake-follow.ts drops a guess the chain passed).
      ...(p.autoRenew ? { nextPeriod: p.autoRenew.period, restakeShares: p.autoRenew.restakeShares, steppedEnds: [review.end] } : {}),
    });
  }

  // ---- auto-renewed validators ----

  private async autoRenew(p: P<'staking.estimateAutoRenew'> & { takesEffect?: number }) {
    const c = await this.context();
    const known = (await c.book.list()).find((s) => s.txID === p.txID)?.nodeID ?? (await this.validators(c, true)).find((v) => v.txID === p.txID)?.nodeID;
    const v = known === undefined ? undefined : await this.oneValidator(c, known);
    if (!v || v.txID !== p.txID || !v.autoRenew) {
      throw new StakingRuleError('not-a-validator', 'That is not an auto-renewed validator validating now: it may have stopped already.', 'txID');
    }
    checkAutoRenewChange({ rules: c.rules, period: BigInt(p.period), chainTime: c.now, cycleEnd: BigInt(v.end), ...(p.takesEffect !== undefined ? { reviewedEnd: BigInt(p.takesEffect) } : {}) });
    const a = v.autoRenew.authority;
    const authority = ownersFromApi('platform.getCurrentValidators', a.addresses, BigInt(a.threshold), a.locktime);
    const owned = ownedAddressSet([...c.mine].map((x) => parseAddress(x).bytes));
    const built = buildPSetAutoRenewConfig({ ...(await this.spendParams(c)), validatorTxID: parseId(p.txID), authority, owned, restakeShares: p.restakeShares, period: BigInt(p.period) });
    const review: R<'staking.estimateAutoRenew'> = {
      txID: p.txID,
      nodeID: v.nodeID,
      current: { period: Number(v.autoRenew.nextPeriod), restakeShares: v.autoRenew.restakeShares },
      next: { period: p.period, restakeShares: p.restakeShares },
      takesEffect: Number(v.end),
      authority: ownerView(apiOwnerSet(a), c.mine),
      from: c.pAddress,
      fee: built.fee.toString(),
    };
    return { c, built, review };
  }

  async stakingEstimateAutoRenew(p: P<'staking.estimateAutoRenew'>): Promise<R<'staking.estimateAutoRenew'>> {
    return (await this.autoRenew(p)).review;
  }

  async stakingSetAutoRenew(p: P<'staking.setAutoRenew'>): Promise<R<'staking.setAutoRenew'>> {
    const { c, built, review } = await this.autoRenew(p);
    // Never sent again (a node that lost it) once the cycle it was reviewed for is about to end.
    const issued = await this.delivery.issue(c, 'staking-config', built, p.maxFee, { nodeID: review.nodeID, sendBefore: review.takesEffect - Number(cycleEndMargin(c.rules)) });
    // Sent (it may be accepted): a book that cannot be written is logged, never a failed change (the user would pay for another).
    if (issued.status === 'accepted') {
      await c.book
        .update((stakes) => {
          const s = stakes.find((x) => x.txID === p.txID);
          if (s) Object.assign(s, { nextPeriod: p.period, restakeShares: p.restakeShares });
        })
        .catch(this.bookNotUpdated);
    }
    this.lists.delete(c.preset.id);
    return { txID: issued.txID, fee: issued.fee.toString(), status: issued.status === 'accepted' ? 'accepted' : 'pending' };
  }

  // ---- the account's stakes ----

  /**
   * Signs and sends a stake, in the book (pending) before it can reach the node, as the outbox
   * holds it: a book that cannot be written sends nothing, and a worker stopped during the wait
   * leaves it followed. Once sent, a book write that fails is logged, never a failed stake.
   */
  private async stake(
    c: StakingContext,
    kind: 'delegate' | 'validate',
    built: BuiltTx,
    maxFee: string,
    extra: Pick<ActivityItem, 'sendBefore'>,
    r: Omit<StakeRecord, 'txID' | 'state' | 'rewards' | 'byWallet' | 'createdAt'>,
  ): Promise<R<'staking.delegate'>> {
    let txID = '';
    const set = (state: StakeRecord['state']) =>
      c.book
        .update((stakes) => {
          for (const s of stakes) if (s.txID === txID && s.state === 'pending') s.state = state;
        })
        .catch(this.bookNotUpdated);
    try {
      const issued = await this.delivery.issue(c, kind, built, maxFee, { assetID: cb58Encode(c.engine.ctx.avaxAssetID), amount: r.amount, nodeID: r.nodeID, ...extra }, (id) =>
        c.book.put({ ...r, txID: (txID = id), state: 'pending', rewards: [], byWallet: true, createdAt: Date.now() }),
      );
      this.lists.delete(c.preset.id);
      if (issued.status === 'accepted') await set('active');
      return { txID: issued.txID, fee: issued.fee.toString(), status: issued.status === 'accepted' ? 'accepted' : 'pending' };
    } catch (e) {
      // Refused, or failed in the node's words, or locked before it went out (deliver): nothing was
      // paid; while its outbox entry says the node may still run it, the follow asks again.
      const code = (e as WalletError).code;
      if (txID && (code === 'tx-refused' || code === 'tx-failed' || code === 'vault-locked')) await set('failed');
      throw e;
    }
  }

  async recordSiteStake(accountId: string, networkId: string, stake: NonNullable<SiteStake['record']> & { txID: string }): Promise<void> {
    // A tx sent again (a site replaying it) never wipes what the book learnt of it.
    await this.book(networkId, accountId).update((stakes) => {
      if (!stakes.some((s) => s.txID === stake.txID)) stakes.push({ ...stake, state: 'pending', rewards: [], byWallet: true, createdAt: Date.now() });
    });
    this.lists.delete(networkId);
  }

  async stakingMine(): Promise<R<'staking.mine'>> {
    const c = await this.context();
    await followAccountStakes(c, await this.validators(c, true), this.engines);
    const stakes = await c.book.list();
    const listed = listedStates(c.cache.activity);
    const rewards = rewardViews(stakes);
    const live = stakes.filter((s) => s.state === 'pending' || s.state === 'active');
    const sum = (xs: readonly string[]) => xs.reduce((t, x) => t + BigInt(x), 0n).toString();
    return {
      chainTime: Number(c.now),
      stakes: [...stakes].sort((a, b) => b.createdAt - a.createdAt).map((s) => myStakeView(s, c.mine, listed)),
      rewards,
      totals: {
        staked: sum(live.filter((s) => s.byWallet && locksFunds(s, listed)).map((s) => s.amount)),
        potentialReward: sum(live.flatMap((s) => (s.state === 'active' && s.potentialReward !== undefined && s.rewardOwner.addresses.every((a) => c.mine.has(a)) ? [s.potentialReward] : []))),
        rewardsPaid: sum(rewards.map((r) => r.amount)),
      },
    };
  }

  /**
   * After a balance refresh: follows the account's open stakes, so a reward shows in Activity
   * without the staking screen being opened. Costs nothing while no stake is open; never fails
   * the refresh.
   */
  async followAfterRefresh(ctx: AccountContext): Promise<void> {
    try {
      const book = this.book(ctx.preset.id, ctx.account.id);
      if (!hasOpenStakes(await book.list(), listedStates(ctx.cache.activity))) return;
      const c = await this.context();
      if (c.account.id !== ctx.account.id || c.preset.id !== ctx.preset.id) return;
      await followAccountStakes(c, await this.validators(c), this.engines);
    } catch (e) {
      this.options.log?.(`staking: following stakes failed: ${(e as Error).message}`);
    }
  }

  async stakingRewardsCsv(p: P<'staking.rewardsCsv'>): Promise<R<'staking.rewardsCsv'>> {
    const { engine, preset, account, cache } = await this.engines.open();
    const stakes = await this.book(preset.id, account.id).list();
    const activity = p.scope === 'all' ? ((await this.options.activity?.()) ?? { items: cache.activity }) : { items: [] };
    return stakingCsv(stakes, activity, cb58Encode(engine.ctx.avaxAssetID));
  }
}


// A staking tx a site had the wallet sign and send, taken as the wallet's own stakes are: written
// to the stake book as it is sent (followed, counted as staked, its rewards found) and listed in
// Activity as the delegation or validation it is, with its validator and amount; an auto-renewed
// validation, or a change of one, timed as the wallet's own is (autoRenewTiming); a delegation's
// approval told what the page's choice of validator means (delegationTerms).
import type { Bytes } from '../core/bytes.js';
import type { OutputOwners, TransferableOutput, UnsignedTx } from '../core/codec/types.js';
import { amountOf } from '../core/codec/rules.js';
import { cb58Encode, formatNodeId } from '../core/encoding.js';
import { pClock, type WalletEngine } from '../core/engine.js';
import { stakingRulesFor } from '../core/network.js';
import { checkAutoRenewChange, cycleEndMargin } from '../core/staking/rules.js';
import { checkListedValidator, readValidatorTerms } from '../core/staking/validator-proof.js';
import { type DetailLine, sharesText, timeText } from '../core/describe-pvm.js';
import { decodeChainTx } from '../core/tx-fate.js';
import type { ActivityItem } from '../shared/messages.js';
import type { StakeRecord } from './stake-book.js';
import { ownerSetOf } from './staking-views.js';

export interface SiteStake {
  activity: Pick<ActivityItem, 'kind'> & Partial<Pick<ActivityItem, 'assetID' | 'amount' | 'nodeID'>>;
  /** None for a change of an auto-renewed validator. */
  record?: Omit<StakeRecord, 'txID' | 'state' | 'rewards' | 'byWallet' | 'createdAt'>;
}

/**
 * The stake a site's tx makes on the Primary Network (or its change of an auto-renewed validator),
 * or undefined: not one, a subnet's, or not the account's alone. Only a stake whose every output
 * (stake, change) is plain, unlocked and the account's (`mine`, P addresses), and whose authority
 * is the account's, is one: anything else, a stake paid to another, would show as the user's, "coming back".
 */
export function siteStakeOf(tx: UnsignedTx, hrp: string, avaxAssetID: Bytes, nowSeconds: number, mine: ReadonlySet<string>): SiteStake | undefined {
  if (tx.vm !== 'pvm') return undefined;
  const owners = (o: OutputOwners) => ownerSetOf(o, hrp);
  const ours = (o: OutputOwners) => o.locktime === 0n && o.addresses.length > 0 && owners(o).addresses.every((a) => mine.has(a));
  const plain = (outs: readonly TransferableOutput[]) => outs.every((o) => o.output.kind === 'TransferOutput' && ours(o.output.owners));
  if (!plain(tx.outputs)) return undefined;
  if (tx.kind === 'SetAutoRenewedValidatorConfigTx') return { activity: { kind: 'staking-config' } };
  const renewed = tx.kind === 'AddAutoRenewedValidatorTx';
  if (!renewed && tx.kind !== 'AddPermissionlessDelegatorTx' && tx.kind !== 'AddPermissionlessValidatorTx') return undefined;
  if (renewed ? !ours(tx.validatorAuthority) : tx.subnetID.some((b) => b !== 0)) return undefined;
  const avax = cb58Encode(avaxAssetID);
  if (!plain(tx.stake) || tx.stake.some((o) => cb58Encode(o.assetID) !== avax)) return undefined;
  const amount = tx.stake.reduce((t, o) => t + amountOf(o.output), 0n).toString();
  const nodeID = formatNodeId(renewed ? tx.nodeID : tx.validator.nodeID);
  const activity = { kind: tx.kind === 'AddPermissionlessDelegatorTx' ? 'delegate' : 'validate', assetID: avax, amount, nodeID } as const;
  if (tx.kind === 'AddPermissionlessDelegatorTx') return { activity, record: { kind: 'delegation', nodeID, amount, start: Number(tx.validator.start), end: Number(tx.validator.end), rewardOwner: owners(tx.rewardsOwner) } };
  const validator = { nodeID, amount, rewardOwner: owners(tx.validationRewardsOwner), delegationFeeOwner: owners(tx.delegationRewardsOwner), delegationFee: tx.delegationShares };
  if (tx.kind === 'AddPermissionlessValidatorTx') return { activity, record: { ...validator, kind: 'validation', start: Number(tx.validator.start), end: Number(tx.validator.end) } };
  // The first cycle counts from the block that accepts it: its end a guess until the list shows it (as for the wallet's own).
  const end = nowSeconds + Number(tx.period);
  return {
    activity,
    record: { ...validator, kind: 'auto-renewed', start: nowSeconds, end, nextPeriod: Number(tx.period), restakeShares: tx.autoCompoundRewardShares, authority: owners(tx.validatorAuthority), steppedEnds: [end] },
  };
}

/**
 * A site's auto-renewed staking tx timed as the wallet's own (services/staking.ts): `sendBefore`,
 * after which the outbox never sends it again (a node that lost it), is a validation's sending time
 * plus the margin a cycle's end is given (its first cycle counts from the block that takes it), a
 * change's cycle end less it. A change is refused as the wallet's own is: within that margin of its
 * cycle's end, or, when signed (`approvedEnd`: the `cycleEnd` its approval found, 0 for none), in
 * another cycle than the one approved. `cycleEnd`: none for a validator not validating now (the
 * node refuses its change).
 */
export async function autoRenewTiming(engine: WalletEngine, tx: UnsignedTx, approvedEnd?: number): Promise<{ cycleEnd?: number; sendBefore?: number }> {
  if (tx.kind !== 'AddAutoRenewedValidatorTx' && tx.kind !== 'SetAutoRenewedValidatorConfigTx') return {};
  const rules = stakingRulesFor(engine.ctx.networkID);
  const margin = Number(cycleEndMargin(rules));
  // A validation's from this computer's clock, as the wallet's own (staking.ts says why).
  if (tx.kind === 'AddAutoRenewedValidatorTx') return { sendBefore: Number(await engine.now('X')) + margin };
  const { node } = engine;
  const id = cb58Encode(tx.txID);
  const added = decodeChainTx('P', await node.platform.getTx(id));
  const v = added.kind === 'AddAutoRenewedValidatorTx' ? (await node.platform.getCurrentValidators([formatNodeId(added.nodeID)]))[0] : undefined;
  const end = v?.txID === id ? v.end : 0n;
  // Not validating, now and when approved: nothing to time. Otherwise one that stopped or began since is another cycle.
  if (!end && !approvedEnd) return {};
  checkAutoRenewChange({ rules, period: tx.period, chainTime: (await pClock(engine)).now, cycleEnd: end, ...(approvedEnd !== undefined ? { reviewedEnd: BigInt(approvedEnd) } : {}) });
  const cycleEnd = Number(end);
  return { cycleEnd, sendBefore: cycleEnd - margin };
}

/**
 * What a site's delegation to a Primary Network validator leaves unsaid, for its approval: whether
 * the validator is validating, the share of the reward it keeps (proven against its own staking tx,
 * as the wallet's own delegations are), until when, and its uptime as the node reports it. A page
 * can pick a validator that keeps the whole reward, or one the chain would refuse.
 */
export async function delegationTerms(engine: WalletEngine, tx: UnsignedTx): Promise<DetailLine[]> {
  if (tx.kind !== 'AddDelegatorTx' && !(tx.kind === 'AddPermissionlessDelegatorTx' && tx.subnetID.every((b) => b === 0))) return [];
  const nodeID = formatNodeId(tx.validator.nodeID);
  const { platform } = engine.node;
  let listed;
  try {
    [listed] = await platform.getCurrentValidators([nodeID]);
    if (listed) checkListedValidator(listed, await readValidatorTerms((id) => platform.getTx(id), engine.ctx, listed));
  } catch {
    return [{ label: "Validator's terms", value: "not known: the node could not show them, or showed terms its own staking transaction contradicts. Only approve if you trust this site's choice of validator" }];
  }
  if (!listed) return [{ label: 'Validator', value: 'not validating now: the chain refuses a delegation to it' }];
  const lines: DetailLine[] = [
    {
      label: 'Validator keeps',
      value: listed.delegationFee >= 1_000_000 ? 'the whole reward: this delegation earns you nothing' : `${sharesText(listed.delegationFee)} of the reward (proven by its staking transaction)`,
    },
    { label: listed.autoRenew ? "Validator's current cycle ends" : 'Validator validates until', value: timeText(listed.end) },
    { label: 'Validator uptime', value: `${listed.uptime === null ? 'not reported by your node' : `${listed.uptime}%, as the node reports it`}${listed.connected ? '' : '; not connected now'}` },
  ];
  if (tx.validator.end > listed.end) lines.push({ label: 'Ends after the validator', value: 'the chain refuses a delegation that ends after its validator (or its current cycle)' });
  return lines;
}

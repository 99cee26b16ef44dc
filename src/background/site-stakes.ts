// A staking tx a site had the wallet sign and send, taken as the wallet's own stakes are: written
// to the stake book before it is sent (followed, counted as staked, its rewards found) and listed
// in Activity as the delegation or validation it is, with its validator and amount.
import type { Bytes } from '../core/bytes.js';
import type { UnsignedTx } from '../core/codec/types.js';
import { amountOf } from '../core/codec/rules.js';
import { cb58Encode, formatNodeId } from '../core/encoding.js';
import type { ActivityItem } from '../shared/messages.js';
import type { StakeRecord } from './stake-book.js';
import { ownerSetOf } from './staking-views.js';

export interface SiteStake {
  activity: Pick<ActivityItem, 'kind' | 'assetID' | 'amount' | 'nodeID'>;
  record: Omit<StakeRecord, 'txID' | 'state' | 'rewards' | 'byWallet' | 'createdAt'>;
}

/** The stake a site's tx makes on the Primary Network, or undefined (not a stake, or a subnet's). */
export function siteStakeOf(tx: UnsignedTx, hrp: string, avaxAssetID: Bytes, nowSeconds: number): SiteStake | undefined {
  if (tx.vm !== 'pvm' || !(tx.kind === 'AddAutoRenewedValidatorTx' || ((tx.kind === 'AddPermissionlessDelegatorTx' || tx.kind === 'AddPermissionlessValidatorTx') && tx.subnetID.every((b) => b === 0)))) return undefined;
  const avax = cb58Encode(avaxAssetID);
  const amount = tx.stake.reduce((t, o) => t + (cb58Encode(o.assetID) === avax ? amountOf(o.output) : 0n), 0n).toString();
  const owners = (o: Parameters<typeof ownerSetOf>[0]) => ownerSetOf(o, hrp);
  const nodeID = formatNodeId(tx.kind === 'AddAutoRenewedValidatorTx' ? tx.nodeID : tx.validator.nodeID);
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

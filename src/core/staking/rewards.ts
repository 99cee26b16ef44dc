// Finding a staking's rewards (docs/staking.md §Finding rewards). When a staking ends the chain
// issues a reward tx whose ID follows from the staking tx (and, for an auto-renewed validator, the
// cycle's end), commits it if the validator was up long enough and aborts it if not, and pays
// ordinary P-Chain UTXOs to the reward owners. Which UTXO is which reward follows from their order.
import { rewardAutoRenewedValidatorTxId, rewardValidatorTxId } from '../codec/ids.js';
import type { OutputOwners, Utxo } from '../codec/types.js';
import { ownersOf } from '../codec/rules.js';
import { toHex } from '../bytes.js';

export type StakeKind = 'delegation' | 'validation' | 'auto-renewed';
export type RewardKind = 'delegation' | 'validation' | 'delegation-fees';

/** The reward tx of a delegation or a fixed-period validation, or of one auto-renewed cycle ending at `cycleEnd`. */
export function rewardTxIdOf(kind: StakeKind, stakeTxID: string, cycleEnd?: bigint): string {
  if (kind !== 'auto-renewed') return rewardValidatorTxId(stakeTxID);
  if (cycleEnd === undefined) throw new Error('an auto-renewed validator is rewarded per cycle: its end is needed');
  return rewardAutoRenewedValidatorTxId(stakeTxID, cycleEnd);
}

export interface PaidReward {
  kind: RewardKind;
  utxo: Utxo;
  amount: bigint;
}

function sameOwners(a: OutputOwners, b: OutputOwners | undefined): boolean {
  return b !== undefined && a.threshold === b.threshold && a.addresses.length === b.addresses.length && a.addresses.every((x, i) => toHex(x) === toHex(b.addresses[i]!));
}

/**
 * What each reward UTXO of a finished staking is (as platform.getRewardUTXOs lists them, for the
 * staking tx or for an auto-renewed cycle's reward tx). The chain pays, in output order: a
 * delegation its reward (committed only); a validator its validation reward (committed only; an
 * auto-renewed one that is aborted still gets what it had restaked, if anything), then the
 * delegation fees it earned (paid either way). A lone UTXO whose owner is the delegation-fee owner
 * only is the fees. `restaked`: an auto-renewed validator restaked rewards in an earlier cycle.
 */
export function classifyRewardUtxos(
  kind: StakeKind,
  committed: boolean,
  utxos: readonly Utxo[],
  owners: { reward: OutputOwners; delegationFees?: OutputOwners },
  restaked = false,
): PaidReward[] {
  const sorted = [...utxos].sort((a, b) => a.outputIndex - b.outputIndex);
  const paid = (utxo: Utxo, k: RewardKind): PaidReward => ({ kind: k, utxo, amount: utxo.output.kind === 'TransferOutput' ? utxo.output.amount : 0n });
  if (kind === 'delegation') return committed ? sorted.map((u) => paid(u, 'delegation')) : [];
  if (sorted.length >= 2) return sorted.map((u, i) => paid(u, i === 0 ? 'validation' : 'delegation-fees'));
  return sorted.map((u) => {
    const o = ownersOf(u.output);
    const feesOnly = sameOwners(o, owners.delegationFees) && !sameOwners(o, owners.reward);
    // An abort pays the cycle's validation reward never, and restaked ones only (avalanchego's mintRewardOnAbort).
    const fees = feesOnly || (!committed && !restaked);
    return paid(u, fees ? 'delegation-fees' : 'validation');
  });
}

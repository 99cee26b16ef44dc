// Staking on the P-Chain (staking.*): the validator list, delegations, validations, auto-renew
// changes, the account's stakes and rewards. Being built: every request answers 'unavailable'.
import { WalletError } from '../../core/errors.js';
import type { RequestParams as P, RequestResult as R } from '../../shared/messages.js';

function unavailable(): never {
  throw new WalletError('unavailable', 'staking is not available in this version yet');
}

export class StakingService {
  async stakingParams(_p: P<'staking.params'>): Promise<R<'staking.params'>> {
    return unavailable();
  }
  async stakingValidators(_p: P<'staking.validators'>): Promise<R<'staking.validators'>> {
    return unavailable();
  }
  async stakingPick(_p: P<'staking.pick'>): Promise<R<'staking.pick'>> {
    return unavailable();
  }
  async stakingEstimateDelegation(_p: P<'staking.estimateDelegation'>): Promise<R<'staking.estimateDelegation'>> {
    return unavailable();
  }
  async stakingDelegate(_p: P<'staking.delegate'>): Promise<R<'staking.delegate'>> {
    return unavailable();
  }
  async stakingNodeKey(_p: P<'staking.nodeKey'>): Promise<R<'staking.nodeKey'>> {
    return unavailable();
  }
  async stakingEstimateValidation(_p: P<'staking.estimateValidation'>): Promise<R<'staking.estimateValidation'>> {
    return unavailable();
  }
  async stakingValidate(_p: P<'staking.validate'>): Promise<R<'staking.validate'>> {
    return unavailable();
  }
  async stakingEstimateAutoRenew(_p: P<'staking.estimateAutoRenew'>): Promise<R<'staking.estimateAutoRenew'>> {
    return unavailable();
  }
  async stakingSetAutoRenew(_p: P<'staking.setAutoRenew'>): Promise<R<'staking.setAutoRenew'>> {
    return unavailable();
  }
  async stakingMine(_p: P<'staking.mine'>): Promise<R<'staking.mine'>> {
    return unavailable();
  }
  async stakingRewardsCsv(_p: P<'staking.rewardsCsv'>): Promise<R<'staking.rewardsCsv'>> {
    return unavailable();
  }
}

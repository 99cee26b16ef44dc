// Addresses and views shared by the popup tests.
import { formatAddress } from '../../../src/core/encoding.js';
import { formatEvmAddress } from '../../../src/core/evm-address.js';
import type { AccountView, AssetBalanceView, BalancesView, NetworkView, WalletStatus } from '../../../src/shared/messages.js';
import type { StakingParamsView } from '../../../src/shared/messages-staking.js';

const bytes = (seed: number) => Uint8Array.from({ length: 20 }, (_, i) => (seed * 31 + i * 7) & 0xff);

export const HRP = 'local';
export const X_ADDR = formatAddress('X', HRP, bytes(1));
export const P_ADDR = formatAddress('P', HRP, bytes(1));
export const C_BECH32 = formatAddress('C', HRP, bytes(2));
export const C_ADDR = formatEvmAddress(bytes(3));
export const X_OTHER = formatAddress('X', HRP, bytes(4));
export const P_OTHER = formatAddress('P', HRP, bytes(4));
export const X_FUJI = formatAddress('X', 'fuji', bytes(4));
export const C_OTHER = formatEvmAddress(bytes(5));

export const AVAX_ID = 'U8iRqJoiJm8xZHAacmvYyZVwqQx6uDNtQeP3CQ6fcgQk3JqnK';
export const FAKE_ID = '2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe';

export const NETWORK: NetworkView = { id: 'local', kind: 'local', name: 'Local network', url: 'http://127.0.0.1:9650', atomicNamespace: 'avax', hrp: HRP };

export const ACCOUNT: AccountView = {
  id: 'acc1',
  name: 'Account 1',
  kind: 'hd',
  index: 0,
  xAddress: X_ADDR,
  pAddress: P_ADDR,
  cAddress: C_ADDR,
  cBech32Address: C_BECH32,
};

export const UNLOCKED: WalletStatus = { vault: 'unlocked', network: NETWORK, account: ACCOUNT, idleLockMinutes: 15 };

export function avax(chain: 'X' | 'P' | 'C', spendable: string, extra: Partial<AssetBalanceView> = {}): AssetBalanceView {
  return {
    chain,
    assetID: AVAX_ID,
    name: 'Avalanche',
    symbol: 'AVAX',
    denomination: chain === 'C' ? 18 : 9,
    verified: true,
    spendable,
    locked: '0',
    lockedStakeable: '0',
    unproven: '0',
    ...extra,
  };
}

export function balances(extra: Partial<BalancesView> = {}): BalancesView {
  return {
    updatedAt: Date.UTC(2026, 0, 2, 3, 4, 5),
    refreshing: false,
    balances: [avax('X', '12000000000'), avax('P', '5000000000'), avax('C', '1500000000000000000')],
    waiting: [],
    ...extra,
  };
}

/** The staking screens' tests: a P address of the account on a custom network, and the chain's rules at STAKING_NOW. */
export const STAKING_ME = 'P-custom18jma8ppw3nhx5r4ap8clazz0dps7rv5u9xde7p';
export const STAKING_NOW = 1_795_583_200;
export const STAKING_PARAMS: StakingParamsView = {
  chainTime: STAKING_NOW,
  minValidatorStake: '2000000000000',
  maxValidatorStake: '3000000000000000',
  minDelegatorStake: '25000000000',
  minDelegationFee: 20_000,
  minDelegationSeconds: 20,
  minValidationSeconds: 20,
  autoRenew: true,
  maxStakeSeconds: 365 * 86_400,
  maxEnd: STAKING_NOW + 365 * 86_400,
  maxWeightFactor: 5,
  uptimeRequirement: 90,
};

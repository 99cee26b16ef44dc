// A site's staking tx is taken as the wallet's own stakes are: what the stake book records and what
// Activity lists, read from the tx itself (its fixed validation, auto-renewed validation); a
// subnet's stake or any other tx is none. A site's delegation is tested on the node (provider.test.ts).
import { describe, expect, it } from 'vitest';
import { siteStakeOf } from '../../src/background/site-stakes.js';
import type { OutputOwners, TransferableOutput, UnsignedTx } from '../../src/core/codec/types.js';
import { cb58Encode, formatAddress, formatNodeId } from '../../src/core/encoding.js';

const HRP = 'custom';
const AVAX = new Uint8Array(32).fill(7);
const OTHER_ASSET = new Uint8Array(32).fill(8);
const NODE = new Uint8Array(20).fill(3);
const owners = (byte: number): OutputOwners => ({ locktime: 0n, threshold: 1, addresses: [new Uint8Array(20).fill(byte)] });
const set = (byte: number) => ({ addresses: [formatAddress('P', HRP, new Uint8Array(20).fill(byte))], threshold: 1 });
const out = (assetID: Uint8Array, amount: bigint): TransferableOutput => ({ assetID, output: { kind: 'TransferOutput', amount, owners: owners(1) } });
const base = { vm: 'pvm' as const, networkID: 12345, blockchainID: new Uint8Array(32), outputs: [], inputs: [], memo: new Uint8Array() };
const stake = [out(AVAX, 1_500n), out(AVAX, 500n), out(OTHER_ASSET, 9n)];
const signer = { kind: 'EmptySigner' } as const;

describe('a site staking tx', () => {
  it('a fixed validation of the Primary Network: its node, AVAX staked, dates, owners and fee', () => {
    const tx = { ...base, kind: 'AddPermissionlessValidatorTx', validator: { nodeID: NODE, start: 100n, end: 200n, weight: 2_000n }, subnetID: new Uint8Array(32), signer, stake, validationRewardsOwner: owners(1), delegationRewardsOwner: owners(2), delegationShares: 20_000 } as UnsignedTx;
    expect(siteStakeOf(tx, HRP, AVAX, 150)).toEqual({
      activity: { kind: 'validate', assetID: cb58Encode(AVAX), amount: '2000', nodeID: formatNodeId(NODE) },
      record: { kind: 'validation', nodeID: formatNodeId(NODE), amount: '2000', start: 100, end: 200, rewardOwner: set(1), delegationFeeOwner: set(2), delegationFee: 20_000 },
    });
    // A subnet's validator is no stake of the Primary Network.
    expect(siteStakeOf({ ...tx, subnetID: new Uint8Array(32).fill(1) } as UnsignedTx, HRP, AVAX, 150)).toBeUndefined();
  });

  it('an auto-renewed validation: its first cycle counted from now, a guess until the list shows it; its next period, share and authority', () => {
    const tx = { ...base, kind: 'AddAutoRenewedValidatorTx', nodeID: NODE, signer, stake, validationRewardsOwner: owners(1), delegationRewardsOwner: owners(2), validatorAuthority: owners(4), delegationShares: 30_000, autoCompoundRewardShares: 500_000, period: 40n } as UnsignedTx;
    expect(siteStakeOf(tx, HRP, AVAX, 1_000)?.record).toEqual({
      kind: 'auto-renewed',
      nodeID: formatNodeId(NODE),
      amount: '2000',
      start: 1_000,
      end: 1_040,
      steppedEnds: [1_040],
      nextPeriod: 40,
      restakeShares: 500_000,
      authority: set(4),
      rewardOwner: set(1),
      delegationFeeOwner: set(2),
      delegationFee: 30_000,
    });
  });

  it('a P-Chain send is none', () => {
    expect(siteStakeOf({ ...base, kind: 'BaseTx' } as UnsignedTx, HRP, AVAX, 0)).toBeUndefined();
  });
});

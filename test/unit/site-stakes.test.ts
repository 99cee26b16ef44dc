// A site's staking tx is taken as the wallet's own stakes are: what the stake book records and what
// Activity lists, read from the tx itself (its fixed validation, auto-renewed validation); a
// subnet's stake, one not the account's alone (a stake or change paid to another, locked, an
// authority another holds) or any other tx is none. A site's delegation is tested on the node
// (provider.test.ts).
import { describe, expect, it } from 'vitest';
import { Session } from '../../src/background/session.js';
import { createWallet } from '../../src/background/services/index.js';
import { memoryStores } from '../../src/background/storage.js';
import { Vault } from '../../src/background/vault.js';
import { generateMnemonic } from '../../src/core/keys.js';
import { autoRenewTiming, siteStakeOf } from '../../src/background/site-stakes.js';
import { ADDED_ID, ADDED_TX, autoRenewNode, STOP, WALL } from './auto-renew-node.js';
import type { OutputOwners, TransferableOutput, UnsignedTx } from '../../src/core/codec/types.js';
import type { WalletEngine } from '../../src/core/engine.js';
import { cb58Encode, formatAddress, formatNodeId } from '../../src/core/encoding.js';

const HRP = 'custom';
const AVAX = new Uint8Array(32).fill(7);
const OTHER_ASSET = new Uint8Array(32).fill(8);
const NODE = new Uint8Array(20).fill(3);
const owners = (byte: number): OutputOwners => ({ locktime: 0n, threshold: 1, addresses: [new Uint8Array(20).fill(byte)] });
const set = (byte: number) => ({ addresses: [formatAddress('P', HRP, new Uint8Array(20).fill(byte))], threshold: 1 });
const out = (assetID: Uint8Array, amount: bigint): TransferableOutput => ({ assetID, output: { kind: 'TransferOutput', amount, owners: owners(1) } });
const base = { vm: 'pvm' as const, networkID: 12345, blockchainID: new Uint8Array(32), outputs: [], inputs: [], memo: new Uint8Array() };
const stake = [out(AVAX, 1_500n), out(AVAX, 500n)];
const signer = { kind: 'EmptySigner' } as const;
/** The account's P addresses: the stake's owner (1) and an authority (4). */
const MINE = new Set([set(1).addresses[0]!, set(4).addresses[0]!]);

describe('a site staking tx', () => {
  it('a fixed validation of the Primary Network: its node, AVAX staked, dates, owners and fee', () => {
    const tx = { ...base, kind: 'AddPermissionlessValidatorTx', validator: { nodeID: NODE, start: 100n, end: 200n, weight: 2_000n }, subnetID: new Uint8Array(32), signer, stake, validationRewardsOwner: owners(1), delegationRewardsOwner: owners(2), delegationShares: 20_000 } as UnsignedTx;
    expect(siteStakeOf(tx, HRP, AVAX, 150, MINE)).toEqual({
      activity: { kind: 'validate', assetID: cb58Encode(AVAX), amount: '2000', nodeID: formatNodeId(NODE) },
      record: { kind: 'validation', nodeID: formatNodeId(NODE), amount: '2000', start: 100, end: 200, rewardOwner: set(1), delegationFeeOwner: set(2), delegationFee: 20_000 },
    });
    // A subnet's validator is no stake of the Primary Network.
    expect(siteStakeOf({ ...tx, subnetID: new Uint8Array(32).fill(1) } as UnsignedTx, HRP, AVAX, 150, MINE)).toBeUndefined();
  });

  it('an auto-renewed validation: its first cycle counted from now, a guess until the list shows it; its next period, share and authority', () => {
    const tx = { ...base, kind: 'AddAutoRenewedValidatorTx', nodeID: NODE, signer, stake, validationRewardsOwner: owners(1), delegationRewardsOwner: owners(2), validatorAuthority: owners(4), delegationShares: 30_000, autoCompoundRewardShares: 500_000, period: 40n } as UnsignedTx;
    expect(siteStakeOf(tx, HRP, AVAX, 1_000, MINE)?.record).toEqual({
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
    expect(siteStakeOf({ ...base, kind: 'BaseTx' } as UnsignedTx, HRP, AVAX, 0, MINE)).toBeUndefined();
  });

  it("is none when it is not the account's alone: a stake or change paid to another or locked, a stake not AVAX, an authority another holds", () => {
    const delegation = { ...base, kind: 'AddPermissionlessDelegatorTx', validator: { nodeID: NODE, start: 100n, end: 200n, weight: 2_000n }, subnetID: new Uint8Array(32), stake: [out(AVAX, 2_000n)], rewardsOwner: owners(9) } as UnsignedTx;
    // The reward may go anywhere: the stake comes back to the account.
    expect(siteStakeOf(delegation, HRP, AVAX, 150, MINE)?.activity).toMatchObject({ kind: 'delegate', amount: '2000' });
    const theirs = { assetID: AVAX, output: { kind: 'TransferOutput', amount: 2_000n, owners: owners(9) } } as const;
    const locked = { assetID: AVAX, output: { kind: 'TransferOutput', amount: 2_000n, owners: { ...owners(1), locktime: 99_999_999_999n } } } as const;
    for (const bad of [{ stake: [theirs] }, { stake: [locked] }, { stake: [out(OTHER_ASSET, 2_000n)] }, { outputs: [theirs] }]) {
      expect(siteStakeOf({ ...delegation, ...bad } as UnsignedTx, HRP, AVAX, 150, MINE), JSON.stringify(Object.keys(bad))).toBeUndefined();
    }
    const autoRenewed = { ...base, kind: 'AddAutoRenewedValidatorTx', nodeID: NODE, signer, stake: [out(AVAX, 2_000n)], validationRewardsOwner: owners(1), delegationRewardsOwner: owners(1), validatorAuthority: owners(9), delegationShares: 20_000, autoCompoundRewardShares: 0, period: 40n } as UnsignedTx;
    expect(siteStakeOf(autoRenewed, HRP, AVAX, 0, MINE)).toBeUndefined();
  });

  it('a change of an auto-renewed validator is listed as one, unless it pays another', () => {
    const change = { ...base, kind: 'SetAutoRenewedValidatorConfigTx', txID: new Uint8Array(32), auth: [0], autoCompoundRewardShares: 0, period: 0n } as UnsignedTx;
    expect(siteStakeOf(change, HRP, AVAX, 0, MINE)).toEqual({ activity: { kind: 'staking-config' } });
    expect(siteStakeOf({ ...change, outputs: [{ assetID: AVAX, output: { kind: 'TransferOutput', amount: 5n, owners: owners(9) } }] } as UnsignedTx, HRP, AVAX, 0, MINE)).toBeUndefined();
  });
});

describe("a site's stake in the stake book", () => {
  it('is written once: the same tx sent again (a site replaying it) never wipes what the book learnt of it', async () => {
    const stores = memoryStores();
    const wallet = createWallet(new Session(new Vault(stores, { kdfIterationsForTesting: 1_000 }), stores), stores.local, { fetch: (() => Promise.reject(new TypeError('Failed to fetch'))) as typeof fetch });
    const { account } = await wallet.accounts.walletCreate({ password: 'long enough', mnemonic: generateMnemonic(12) });
    const { selectedId } = await wallet.networks.networksList();
    const stake = { txID: 'stake-tx', kind: 'delegation' as const, nodeID: formatNodeId(NODE), amount: '2000', start: 100, end: 200, rewardOwner: set(1) };
    await wallet.staking.recordSiteStake(account!.id, selectedId, stake);
    const book = wallet.staking.book(selectedId, account!.id);
    expect(await book.list()).toMatchObject([{ ...stake, state: 'pending', rewards: [], byWallet: true }]);
    await book.update((stakes) => void Object.assign(stakes[0]!, { state: 'finished', settled: 'paid', rewards: [{ txID: 'reward', kind: 'delegation', amount: '7', paidAt: 200, to: set(1).addresses[0], yours: true }] }));
    await wallet.staking.recordSiteStake(account!.id, selectedId, stake);
    expect(await book.list()).toMatchObject([{ txID: 'stake-tx', state: 'finished', settled: 'paid', rewards: [{ amount: '7' }] }]);
  });
});

describe("a site's auto-renewed staking tx, timed as the wallet's own", () => {
  const engine = (listed: { txID: string; end: number } | undefined, chain?: number) => autoRenewNode(() => listed, chain) as unknown as WalletEngine;
  const validating = { txID: ADDED_ID, end: WALL + 100 };

  it('a validation is never sent again 5 s after it was sent; a change not within 5 s of the end of its cycle', async () => {
    expect(await autoRenewTiming(engine(undefined), ADDED_TX)).toEqual({ sendBefore: WALL + 5 });
    // A validation's counts from this computer's clock, ahead of the chain's or behind it: the outbox
    // judges it by the later of the two, so it is never sent again past the margin, however idle the chain.
    expect(await autoRenewTiming(engine(undefined, WALL + 60), ADDED_TX)).toEqual({ sendBefore: WALL + 5 });
    expect(await autoRenewTiming(engine(validating), STOP)).toEqual({ cycleEnd: WALL + 100, sendBefore: WALL + 95 });
    expect(await autoRenewTiming(engine(validating), STOP, WALL + 100)).toEqual({ cycleEnd: WALL + 100, sendBefore: WALL + 95 });
  });

  it('a change is refused within the margin, by the later of the two clocks, and in another cycle than the one approved', async () => {
    await expect(autoRenewTiming(engine({ ...validating, end: WALL + 4 }), STOP)).rejects.toMatchObject({ rule: 'cycle-ending', message: expect.stringMatching(/^This cycle ends in under 5 seconds/) });
    // The chain's last block is ahead of this computer's clock: its time counts.
    await expect(autoRenewTiming(engine(validating, WALL + 97), STOP)).rejects.toMatchObject({ rule: 'cycle-ending' });
    // Approved for the cycle before: the validator renewed since.
    await expect(autoRenewTiming(engine(validating), STOP, WALL + 60)).rejects.toMatchObject({ rule: 'cycle-ending', message: expect.stringMatching(/^A new cycle began since your review/) });
  });

  it('signed, a change is refused unless the validator is in the cycle its approval found, or still not validating', async () => {
    // Approved with no cycle (not validating then, 0): one now is not what the user saw.
    await expect(autoRenewTiming(engine(validating), STOP, 0)).rejects.toMatchObject({ rule: 'cycle-ending', message: expect.stringMatching(/^A new cycle began since your review/) });
    // Approved in a cycle the validator no longer has: it stopped since.
    await expect(autoRenewTiming(engine(undefined), STOP, WALL + 100)).rejects.toMatchObject({ rule: 'not-a-validator', message: 'The validator stopped since your review: nothing was sent.' });
    expect(await autoRenewTiming(engine(undefined), STOP, 0)).toEqual({});
  });

  it('a change of a validator not validating now (the node refuses it), or of another one on its node, is not timed; any other tx costs no call', async () => {
    expect(await autoRenewTiming(engine(undefined), STOP)).toEqual({});
    expect(await autoRenewTiming(engine({ ...validating, txID: cb58Encode(new Uint8Array(32).fill(6)) }), STOP)).toEqual({});
    expect(await autoRenewTiming({} as WalletEngine, { ...base, kind: 'BaseTx' } as UnsignedTx, 0)).toEqual({});
  });
});

// P-Chain staking builders: a delegation (26), a validation for a fixed period (25), an
// auto-renewed validation (40) and a change to one (41). Funded from the account's unlocked P
// UTXOs with the exact ACP-103 fee of the tx as built; the stake is locked in outputs to
// `stakeOwners` (it comes back to them when the staking ends), change returns to the wallet.
// Layouts and rules: docs/protocol.md §P, docs/staking.md.
import { type Bytes, toHex } from '../bytes.js';
import type {
  OutputOwners,
  PAddAutoRenewedValidatorTx,
  PAddPermissionlessDelegatorTx,
  PAddPermissionlessValidatorTx,
  PSetAutoRenewedValidatorConfigTx,
  PTx,
  Signer,
  TransferableOutput,
} from '../codec/types.js';
import { PRIMARY_NETWORK_ID, SHARES_DENOMINATOR, verifyPTx } from '../codec/pvm-rules.js';
import { SigningError, ValidationError } from '../errors.js';
import { pTxFee } from '../fees.js';
import { built, type BuiltTx } from './built.js';
import { MAX_XP_TX_SIZE, transferOutput } from './context.js';
import { fundFor, type Funding } from './fund.js';
import { baseOf, type BaseFields, type PSpendParams } from './p.js';
import { authorityRecord } from './sign.js';
import { type OwnedAddresses, signingIndices } from './utxos.js';

export interface StakeParams extends PSpendParams {
  /** 20-byte NodeID of the validator (delegated to, or added). */
  nodeID: Bytes;
  /** nAVAX staked. */
  amount: bigint;
  /** Who gets the stake back when the staking ends. */
  stakeOwners: OutputOwners;
}

/** A BLS public key (48 bytes) with its proof of possession (96 bytes), from the node's info.getNodeID. */
export interface BlsSigner {
  publicKey: Bytes;
  proofOfPossession: Bytes;
}

/**
 * Funds `needs` nAVAX plus the fee of the tx `make` builds around the chosen inputs and change:
 * the fee is that tx's own (inputs, change, stake, owners, signer, auth), re-priced until settled.
 */
function fundTx<T extends PTx>(p: PSpendParams, needs: bigint, make: (base: BaseFields) => T): { tx: T; funding: Funding } {
  const funding = fundFor(p, {
    needs: new Map([[toHex(p.ctx.avaxAssetID), needs]]),
    fee: (inputs, change) => pTxFee(make(baseOf(p, inputs, change)), p.fee),
    assetLabel: () => 'AVAX on the P-Chain',
  });
  const tx = make(baseOf(p, funding.inputs, funding.change));
  // The node's syntactic rules, checked before anything is signed.
  verifyPTx(tx);
  return { tx, funding };
}

function stakeOutputs(p: StakeParams): TransferableOutput[] {
  if (p.amount <= 0n) throw new ValidationError('a stake must be greater than zero', 'amount');
  return [transferOutput(p.ctx.avaxAssetID, p.amount, p.stakeOwners)];
}

function checkNodeId(nodeID: Bytes): void {
  if (nodeID.length !== 20 || nodeID.every((b) => b === 0)) throw new ValidationError('a NodeID is 20 bytes, not all zero', 'nodeID');
}

function checkShares(shares: number, field: string): void {
  if (!Number.isInteger(shares) || shares < 0 || shares > SHARES_DENOMINATOR) throw new ValidationError(`${field} must be from 0 to 1 000 000 millionths`, field);
}

function popSigner(s: BlsSigner): Signer {
  if (s.publicKey.length !== 48 || s.proofOfPossession.length !== 96) throw new ValidationError('a BLS key is 48 bytes and its proof of possession 96', 'publicKey');
  return { kind: 'ProofOfPossession', publicKey: s.publicKey, signature: s.proofOfPossession };
}

/** AddPermissionlessDelegatorTx (26): `amount` delegated to `nodeID` on the Primary Network until `end`. */
export function buildPDelegation(
  p: StakeParams & { start: bigint; end: bigint; rewardOwners: OutputOwners },
): BuiltTx<PAddPermissionlessDelegatorTx> {
  checkNodeId(p.nodeID);
  const stake = stakeOutputs(p);
  const { tx, funding } = fundTx(p, p.amount, (base): PAddPermissionlessDelegatorTx => ({
    ...base,
    kind: 'AddPermissionlessDelegatorTx',
    validator: { nodeID: p.nodeID, start: p.start, end: p.end, weight: p.amount },
    subnetID: PRIMARY_NETWORK_ID,
    stake,
    rewardsOwner: p.rewardOwners,
  }));
  return built(tx, funding.spent, funding.fee, MAX_XP_TX_SIZE);
}

interface ValidatorOwners {
  signer: BlsSigner;
  /** Who gets the validation rewards, and who the delegation fees. */
  rewardOwners: OutputOwners;
  delegationRewardOwners: OutputOwners;
  /** Millionths of each delegator's reward the validator keeps. */
  delegationShares: number;
}

/** AddPermissionlessValidatorTx (25): `nodeID` validates the Primary Network until `end`, staking `amount`. */
export function buildPValidation(p: StakeParams & ValidatorOwners & { start: bigint; end: bigint }): BuiltTx<PAddPermissionlessValidatorTx> {
  checkNodeId(p.nodeID);
  checkShares(p.delegationShares, 'delegationFee');
  const stake = stakeOutputs(p);
  const signer = popSigner(p.signer);
  const { tx, funding } = fundTx(p, p.amount, (base): PAddPermissionlessValidatorTx => ({
    ...base,
    kind: 'AddPermissionlessValidatorTx',
    validator: { nodeID: p.nodeID, start: p.start, end: p.end, weight: p.amount },
    subnetID: PRIMARY_NETWORK_ID,
    signer,
    stake,
    validationRewardsOwner: p.rewardOwners,
    delegationRewardsOwner: p.delegationRewardOwners,
    delegationShares: p.delegationShares,
  }));
  return built(tx, funding.spent, funding.fee, MAX_XP_TX_SIZE);
}

/**
 * AddAutoRenewedValidatorTx (40): `nodeID` validates in cycles of `period` seconds from when the
 * chain accepts it, renewed until `authority` stops it; `restakeShares` of each cycle's rewards
 * are added to the stake.
 */
export function buildPAutoRenewedValidation(
  p: StakeParams & ValidatorOwners & { authority: OutputOwners; restakeShares: number; period: bigint },
): BuiltTx<PAddAutoRenewedValidatorTx> {
  checkNodeId(p.nodeID);
  checkShares(p.delegationShares, 'delegationFee');
  checkShares(p.restakeShares, 'restakeShares');
  if (p.period <= 0n) throw new ValidationError('a cycle must last at least a second', 'period');
  const stake = stakeOutputs(p);
  const signer = popSigner(p.signer);
  const { tx, funding } = fundTx(p, p.amount, (base): PAddAutoRenewedValidatorTx => ({
    ...base,
    kind: 'AddAutoRenewedValidatorTx',
    nodeID: p.nodeID,
    signer,
    stake,
    validationRewardsOwner: p.rewardOwners,
    delegationRewardsOwner: p.delegationRewardOwners,
    validatorAuthority: p.authority,
    delegationShares: p.delegationShares,
    autoCompoundRewardShares: p.restakeShares,
    period: p.period,
  }));
  return built(tx, funding.spent, funding.fee, MAX_XP_TX_SIZE);
}

/**
 * SetAutoRenewedValidatorConfigTx (41): from the next cycle of the validator added by
 * `validatorTxID`, cycles of `period` seconds (0: it stops when the current one ends), restaking
 * `restakeShares`. Authorized by the validator's `authority` (as the chain holds it), which the
 * wallet's keys (`owned`) must be able to sign for; its record rides with the spent UTXOs so the
 * signer knows who signs the authorization.
 */
export function buildPSetAutoRenewConfig(
  p: PSpendParams & { validatorTxID: Bytes; authority: OutputOwners; owned: OwnedAddresses; restakeShares: number; period: bigint },
): BuiltTx<PSetAutoRenewedValidatorConfigTx> {
  checkShares(p.restakeShares, 'restakeShares');
  if (p.period < 0n) throw new ValidationError('a cycle cannot be negative', 'period');
  const auth = signingIndices(p.authority, p.owned);
  if (!auth) throw new SigningError('this account cannot sign for the validator’s authority, so it cannot change this validator');
  const { tx, funding } = fundTx(p, 0n, (base): PSetAutoRenewedValidatorConfigTx => ({
    ...base,
    kind: 'SetAutoRenewedValidatorConfigTx',
    txID: p.validatorTxID,
    auth,
    autoCompoundRewardShares: p.restakeShares,
    period: p.period,
  }));
  return built(tx, [...funding.spent, authorityRecord(p.validatorTxID, p.authority)], funding.fee, MAX_XP_TX_SIZE);
}

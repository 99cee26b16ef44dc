// The P-Chain's syntactic rules (what each tx type's SyntacticVerify checks on the node; those of
// transferable inputs and outputs, which the X-Chain shares, in transfer-rules.ts) and the
// facts the rest of the wallet reads off P-Chain txs: stake, L1 validator balances, and which
// owner an authorization credential answers to (docs/protocol.md §P).
import { type Bytes, equalBytes } from '../bytes.js';
import { NODE_ID_LENGTH } from './parts.js';
import { DELEGATION_OWNER, SUBNET_AUTH, VALIDATION_OWNER } from './pvm.js';
import { checkInputs, checkOutputs, checkOwners, fail, indicesAscending, isZero, strictlyAscending } from './transfer-rules.js';
import type { PTx, TransferableOutput } from './types.js';

/** 1 000 000 shares = 100% (delegation fee, auto-compounded share). */
export const SHARES_DENOMINATOR = 1_000_000;
export const MAX_CHAIN_NAME_LENGTH = 128;
export const MAX_GENESIS_LENGTH = 1024 * 1024;
export const MAX_MANAGER_ADDRESS_LENGTH = 4096;
const MAX_U64 = (1n << 64n) - 1n;
const EMPTY_ID = new Uint8Array(32);

/** Txs the P-Chain refuses today (since Durango or Etna), kept only to read history. */
const RETIRED: Partial<Record<PTx['kind'], string>> = {
  AddValidatorTx: 'AddPermissionlessValidatorTx',
  AddDelegatorTx: 'AddPermissionlessDelegatorTx',
  TransformSubnetTx: 'ConvertSubnetToL1Tx',
};

export function isRetiredPTx(tx: PTx): boolean {
  return RETIRED[tx.kind] !== undefined;
}

function checkAuth(tx: PTx, sigIndices: readonly number[], what: string): void {
  if (!indicesAscending(sigIndices)) fail(tx, `${what}: signature indices are not sorted and unique`, what);
}

function checkShares(tx: PTx, shares: number, what: string): void {
  if (shares > SHARES_DENOMINATOR) fail(tx, `${what} ${shares} is above 100% (1 000 000)`, what);
}

function checkNodeID(tx: PTx, nodeID: Bytes, what = 'nodeID'): void {
  if (nodeID.length !== NODE_ID_LENGTH) fail(tx, `${what} must be ${NODE_ID_LENGTH} bytes, not ${nodeID.length}`, what);
  if (isZero(nodeID)) fail(tx, `${what} is empty`, what);
}

/** Stake: at least one output, one asset, sorted, and the sum (which must not overflow) returned. */
function checkStake(tx: PTx, stake: readonly TransferableOutput[]): bigint {
  if (stake.length === 0) fail(tx, 'no stake', 'stake');
  checkOutputs(tx, stake, 'stake');
  if (stake.some((o) => !equalBytes(o.assetID, stake[0]!.assetID))) fail(tx, 'stake in more than one asset', 'stake');
  const total = totalOf(stake);
  if (total > MAX_U64) fail(tx, 'the stake overflows', 'stake');
  return total;
}

function totalOf(outs: readonly TransferableOutput[]): bigint {
  return outs.reduce((sum, o) => sum + (o.output.kind === 'StakeableLockOut' ? o.output.output.amount : o.output.kind === 'TransferOutput' ? o.output.amount : 0n), 0n);
}

/**
 * The syntactic rules the node checks before anything else: sorted and unique lists, owners that
 * can sign, amounts and shares in range, the stake matching the weight, an empty memo (Durango).
 * BLS keys and proofs of possession are not checked here. Throws ValidationError.
 */
export function verifyPTx(tx: PTx): void {
  const retired = RETIRED[tx.kind];
  if (retired) fail(tx, `the P-Chain no longer accepts this transaction type; ${retired} replaces it`);
  if (tx.memo.length > 0) fail(tx, 'the P-Chain requires an empty memo', 'memo');
  checkOutputs(tx, tx.outputs, 'outputs');
  checkInputs(tx, tx.inputs, 'inputs');
  switch (tx.kind) {
    case 'BaseTx':
      return;
    case 'ImportTx':
      if (tx.importedInputs.length === 0) fail(tx, 'nothing imported', 'importedInputs');
      return checkInputs(tx, tx.importedInputs, 'importedInputs');
    case 'ExportTx':
      if (tx.exportedOutputs.length === 0) fail(tx, 'nothing exported', 'exportedOutputs');
      if (tx.exportedOutputs.some((o) => o.output.kind === 'StakeableLockOut')) fail(tx, 'a locked output cannot be exported', 'exportedOutputs');
      return checkOutputs(tx, tx.exportedOutputs, 'exportedOutputs');
    case 'AddPermissionlessValidatorTx': {
      if (isZero(tx.validator.nodeID)) fail(tx, 'nodeID is empty', 'nodeID');
      checkShares(tx, tx.delegationShares, 'delegation fee');
      if (tx.validator.weight === 0n) fail(tx, 'weight 0', 'weight');
      checkOwners(tx, tx.validationRewardsOwner, VALIDATION_OWNER);
      checkOwners(tx, tx.delegationRewardsOwner, DELEGATION_OWNER);
      const primary = isZero(tx.subnetID);
      if ((tx.signer.kind === 'ProofOfPossession') !== primary) {
        fail(tx, primary ? 'a Primary Network validator needs a BLS key (signer 28)' : 'a subnet validator takes no BLS key (signer 27)', 'signer');
      }
      if (checkStake(tx, tx.stake) !== tx.validator.weight) fail(tx, 'the weight is not the sum of the stake', 'weight');
      return;
    }
    case 'AddPermissionlessDelegatorTx':
      if (tx.validator.weight === 0n) fail(tx, 'weight 0', 'weight');
      checkOwners(tx, tx.rewardsOwner, 'rewards owner');
      if (checkStake(tx, tx.stake) !== tx.validator.weight) fail(tx, 'the weight is not the sum of the stake', 'weight');
      return;
    case 'AddAutoRenewedValidatorTx':
      checkShares(tx, tx.delegationShares, 'delegation fee');
      checkShares(tx, tx.autoCompoundRewardShares, 'auto-compounded share');
      if (tx.period === 0n) fail(tx, 'the period is 0', 'period');
      checkNodeID(tx, tx.nodeID);
      if (tx.signer.kind !== 'ProofOfPossession') fail(tx, 'missing signer: an auto-renewed validator needs a BLS key', 'signer');
      checkOwners(tx, tx.validationRewardsOwner, VALIDATION_OWNER);
      checkOwners(tx, tx.delegationRewardsOwner, DELEGATION_OWNER);
      checkOwners(tx, tx.validatorAuthority, 'validator authority');
      checkStake(tx, tx.stake);
      return;
    case 'SetAutoRenewedValidatorConfigTx':
      if (isZero(tx.txID)) fail(tx, 'no validator tx named', 'txID');
      checkShares(tx, tx.autoCompoundRewardShares, 'auto-compounded share');
      return checkAuth(tx, tx.auth, 'authorization');
    case 'AddSubnetValidatorTx':
      if (isZero(tx.subnetID)) fail(tx, 'the Primary Network is not a subnet to add a validator to', 'subnetID');
      if (tx.validator.weight === 0n) fail(tx, 'weight 0', 'weight');
      return checkAuth(tx, tx.subnetAuth, SUBNET_AUTH);
    case 'RemoveSubnetValidatorTx':
    case 'TransferSubnetOwnershipTx':
      if (isZero(tx.subnetID)) fail(tx, 'not for the Primary Network', 'subnetID');
      if (tx.kind === 'TransferSubnetOwnershipTx') checkOwners(tx, tx.owner, 'new owner');
      return checkAuth(tx, tx.subnetAuth, SUBNET_AUTH);
    case 'CreateSubnetTx':
      return checkOwners(tx, tx.owner, 'subnet owner');
    case 'CreateChainTx': {
      if (isZero(tx.subnetID)) fail(tx, 'the Primary Network takes no new chains', 'subnetID');
      const name = new TextEncoder().encode(tx.chainName);
      if (name.length > MAX_CHAIN_NAME_LENGTH) fail(tx, 'the chain name is longer than 128 bytes', 'chainName');
      if (!/^[A-Za-z0-9 ]*$/.test(tx.chainName)) fail(tx, 'the chain name may hold only ASCII letters, digits and spaces', 'chainName');
      if (isZero(tx.vmID)) fail(tx, 'no VM ID', 'vmID');
      if (!strictlyAscending(tx.fxIDs)) fail(tx, 'the fx IDs are not sorted and unique', 'fxIDs');
      if (tx.genesisData.length > MAX_GENESIS_LENGTH) fail(tx, 'the genesis data is longer than 1 MiB', 'genesisData');
      return checkAuth(tx, tx.subnetAuth, SUBNET_AUTH);
    }
    case 'ConvertSubnetToL1Tx':
      if (isZero(tx.subnetID)) fail(tx, 'the Primary Network cannot be converted', 'subnetID');
      if (tx.address.length > MAX_MANAGER_ADDRESS_LENGTH) fail(tx, 'the manager address is longer than 4096 bytes', 'address');
      if (tx.validators.length === 0) fail(tx, 'no validators', 'validators');
      if (!strictlyAscending(tx.validators.map((v) => v.nodeID))) fail(tx, 'the validators are not sorted and unique by nodeID', 'validators');
      tx.validators.forEach((v, i) => {
        if (v.weight === 0n) fail(tx, `validator ${i}: weight 0`, 'validators');
        checkNodeID(tx, v.nodeID, `validator ${i} nodeID`);
        checkOwners(tx, v.remainingBalanceOwner, `validator ${i} remaining balance owner`);
        checkOwners(tx, v.deactivationOwner, `validator ${i} deactivation owner`);
      });
      return checkAuth(tx, tx.subnetAuth, SUBNET_AUTH);
    case 'IncreaseL1ValidatorBalanceTx':
      if (tx.balance === 0n) fail(tx, 'a balance increase of 0', 'balance');
      return;
    case 'DisableL1ValidatorTx':
      return checkAuth(tx, tx.disableAuth, 'disable authorization');
    case 'RegisterL1ValidatorTx':
    case 'SetL1ValidatorWeightTx':
    case 'AddValidatorTx':
    case 'AddDelegatorTx':
    case 'TransformSubnetTx':
      return;
  }
}

/** The outputs a staking tx locks (returned to their owners when the staking ends); [] for other txs. */
export function stakeOf(tx: PTx): TransferableOutput[] {
  return 'stake' in tx ? tx.stake : [];
}

/** nAVAX a tx moves into L1 validators' fee balances (not burned, not an output). */
export function l1BalanceOf(tx: PTx): bigint {
  if (tx.kind === 'ConvertSubnetToL1Tx') return tx.validators.reduce((s, v) => s + v.balance, 0n);
  if (tx.kind === 'RegisterL1ValidatorTx' || tx.kind === 'IncreaseL1ValidatorBalanceTx') return tx.balance;
  return 0n;
}

/** Who an authorization credential answers to. */
export type AuthorityKind = 'subnet-owner' | 'deactivation-owner' | 'validator-authority';

export interface Authorization {
  kind: AuthorityKind;
  /** What names that owner on the chain: the subnet ID, the validation ID, the AddAutoRenewedValidatorTx ID. */
  id: Bytes;
  sigIndices: number[];
}

/**
 * The authorization a tx carries besides its inputs, signed in one more credential after the
 * inputs' (subnetAuth, disableAuth, auth); undefined for txs without one.
 */
export function authorizationOf(tx: PTx): Authorization | undefined {
  switch (tx.kind) {
    case 'AddSubnetValidatorTx':
    case 'CreateChainTx':
    case 'RemoveSubnetValidatorTx':
    case 'TransformSubnetTx':
    case 'TransferSubnetOwnershipTx':
    case 'ConvertSubnetToL1Tx':
      return { kind: 'subnet-owner', id: tx.subnetID, sigIndices: tx.subnetAuth };
    case 'DisableL1ValidatorTx':
      return { kind: 'deactivation-owner', id: tx.validationID, sigIndices: tx.disableAuth };
    case 'SetAutoRenewedValidatorConfigTx':
      return { kind: 'validator-authority', id: tx.txID, sigIndices: tx.auth };
    default:
      return undefined;
  }
}

export { EMPTY_ID as PRIMARY_NETWORK_ID };

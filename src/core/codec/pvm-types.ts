// The decoded shape of the P-Chain's staking, subnet and L1 validator txs, and of the txs only its
// block builder issues (docs/protocol.md §P). Field names follow the node's; IDs stay raw bytes.
import type { Bytes } from '../bytes.js';
import type { BaseTxFields, OutputOwners, TransferableOutput } from './types.js';

/** A staker's node and period (44 bytes on the wire). Since Durango `start` is ignored: staking starts at chain time. */
export interface Validator {
  /** 20-byte NodeID. */
  nodeID: Bytes;
  /** Unix seconds. */
  start: bigint;
  end: bigint;
  /** nAVAX (or the subnet's staking asset units). */
  weight: bigint;
}

/** A Primary Network validator's BLS key with its proof of possession (type 28), or none (type 27, subnets only). */
export type Signer = { kind: 'EmptySigner' } | { kind: 'ProofOfPossession'; publicKey: Bytes; signature: Bytes };

/** The owner form inside L1 validator data: no locktime and no type ID. */
export interface PChainOwner {
  threshold: number;
  addresses: Bytes[];
}

/** One initial validator of a subnet converted to an L1. */
export interface L1Validator {
  /** Bytes of a NodeID (20 for a valid one; carried with a length prefix). */
  nodeID: Bytes;
  weight: bigint;
  /** nAVAX moved into the validator's fee balance. */
  balance: bigint;
  /** BLS public key (48 bytes) and proof of possession (96 bytes). */
  publicKey: Bytes;
  signature: Bytes;
  remainingBalanceOwner: PChainOwner;
  deactivationOwner: PChainOwner;
}

/**
 * The txs that add a staker lock `stake` outputs until the staking ends; `subnetAuth`,
 * `disableAuth` and `auth` are the sigIndices of an authorization (secp256k1fx Input, type 10):
 * indices into the addresses of the owner that authorizes it, signed in an extra credential.
 */
export interface PAddValidatorTx extends BaseTxFields {
  vm: 'pvm';
  kind: 'AddValidatorTx';
  validator: Validator;
  stake: TransferableOutput[];
  rewardsOwner: OutputOwners;
  /** Delegation fee in millionths (1 000 000 = 100%). */
  delegationShares: number;
}
export interface PAddSubnetValidatorTx extends BaseTxFields {
  vm: 'pvm';
  kind: 'AddSubnetValidatorTx';
  validator: Validator;
  subnetID: Bytes;
  subnetAuth: number[];
}
export interface PAddDelegatorTx extends BaseTxFields {
  vm: 'pvm';
  kind: 'AddDelegatorTx';
  validator: Validator;
  stake: TransferableOutput[];
  rewardsOwner: OutputOwners;
}
export interface PCreateChainTx extends BaseTxFields {
  vm: 'pvm';
  kind: 'CreateChainTx';
  subnetID: Bytes;
  chainName: string;
  vmID: Bytes;
  fxIDs: Bytes[];
  genesisData: Bytes;
  subnetAuth: number[];
}
export interface PCreateSubnetTx extends BaseTxFields {
  vm: 'pvm';
  kind: 'CreateSubnetTx';
  owner: OutputOwners;
}
export interface PRemoveSubnetValidatorTx extends BaseTxFields {
  vm: 'pvm';
  kind: 'RemoveSubnetValidatorTx';
  nodeID: Bytes;
  subnetID: Bytes;
  subnetAuth: number[];
}
export interface PTransformSubnetTx extends BaseTxFields {
  vm: 'pvm';
  kind: 'TransformSubnetTx';
  subnetID: Bytes;
  assetID: Bytes;
  initialSupply: bigint;
  maximumSupply: bigint;
  minConsumptionRate: bigint;
  maxConsumptionRate: bigint;
  minValidatorStake: bigint;
  maxValidatorStake: bigint;
  /** Seconds. */
  minStakeDuration: number;
  maxStakeDuration: number;
  minDelegationFee: number;
  minDelegatorStake: bigint;
  maxValidatorWeightFactor: number;
  uptimeRequirement: number;
  subnetAuth: number[];
}
export interface PAddPermissionlessValidatorTx extends BaseTxFields {
  vm: 'pvm';
  kind: 'AddPermissionlessValidatorTx';
  validator: Validator;
  subnetID: Bytes;
  signer: Signer;
  stake: TransferableOutput[];
  validationRewardsOwner: OutputOwners;
  delegationRewardsOwner: OutputOwners;
  delegationShares: number;
}
export interface PAddPermissionlessDelegatorTx extends BaseTxFields {
  vm: 'pvm';
  kind: 'AddPermissionlessDelegatorTx';
  validator: Validator;
  subnetID: Bytes;
  stake: TransferableOutput[];
  rewardsOwner: OutputOwners;
}
export interface PTransferSubnetOwnershipTx extends BaseTxFields {
  vm: 'pvm';
  kind: 'TransferSubnetOwnershipTx';
  subnetID: Bytes;
  subnetAuth: number[];
  owner: OutputOwners;
}
export interface PConvertSubnetToL1Tx extends BaseTxFields {
  vm: 'pvm';
  kind: 'ConvertSubnetToL1Tx';
  subnetID: Bytes;
  /** The chain and address of the validator manager. */
  chainID: Bytes;
  address: Bytes;
  validators: L1Validator[];
  subnetAuth: number[];
}
export interface PRegisterL1ValidatorTx extends BaseTxFields {
  vm: 'pvm';
  kind: 'RegisterL1ValidatorTx';
  balance: bigint;
  /** 96-byte BLS proof of possession. */
  proofOfPossession: Bytes;
  /** The signed Warp message from the L1's validator manager. */
  message: Bytes;
}
export interface PSetL1ValidatorWeightTx extends BaseTxFields {
  vm: 'pvm';
  kind: 'SetL1ValidatorWeightTx';
  message: Bytes;
}
export interface PIncreaseL1ValidatorBalanceTx extends BaseTxFields {
  vm: 'pvm';
  kind: 'IncreaseL1ValidatorBalanceTx';
  validationID: Bytes;
  balance: bigint;
}
export interface PDisableL1ValidatorTx extends BaseTxFields {
  vm: 'pvm';
  kind: 'DisableL1ValidatorTx';
  validationID: Bytes;
  disableAuth: number[];
}
export interface PAddAutoRenewedValidatorTx extends BaseTxFields {
  vm: 'pvm';
  kind: 'AddAutoRenewedValidatorTx';
  /** Bytes of a NodeID (20 for a valid one; carried with a length prefix). */
  nodeID: Bytes;
  signer: Signer;
  stake: TransferableOutput[];
  validationRewardsOwner: OutputOwners;
  delegationRewardsOwner: OutputOwners;
  /** Who may change the config later (SetAutoRenewedValidatorConfigTx). */
  validatorAuthority: OutputOwners;
  delegationShares: number;
  /** Millionths of each cycle's rewards restaked. */
  autoCompoundRewardShares: number;
  /** Cycle length, seconds. */
  period: bigint;
}
export interface PSetAutoRenewedValidatorConfigTx extends BaseTxFields {
  vm: 'pvm';
  kind: 'SetAutoRenewedValidatorConfigTx';
  /** The AddAutoRenewedValidatorTx. */
  txID: Bytes;
  auth: number[];
  autoCompoundRewardShares: number;
  /** Next cycle's length, seconds; 0 = leave at the end of the current cycle. */
  period: bigint;
}

/** P-Chain txs only the block builder issues: no BaseTx, no fee, no credentials. */
export interface PAdvanceTimeTx {
  vm: 'pvm';
  kind: 'AdvanceTimeTx';
  time: bigint;
}
export interface PRewardValidatorTx {
  vm: 'pvm';
  kind: 'RewardValidatorTx';
  /** The staker tx whose staking ended. */
  txID: Bytes;
}
export interface PRewardAutoRenewedValidatorTx {
  vm: 'pvm';
  kind: 'RewardAutoRenewedValidatorTx';
  txID: Bytes;
  /** End of the cycle being rewarded, Unix seconds. */
  timestamp: bigint;
}
export type PBlockTx = PAdvanceTimeTx | PRewardValidatorTx | PRewardAutoRenewedValidatorTx;

export type PStakingTx =
  | PAddValidatorTx
  | PAddDelegatorTx
  | PAddPermissionlessValidatorTx
  | PAddPermissionlessDelegatorTx
  | PAddAutoRenewedValidatorTx;


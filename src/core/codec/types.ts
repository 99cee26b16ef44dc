// The decoded shape of every X-Chain, P-Chain and C-Chain atomic structure the wallet meets.
// Field names follow the node's; IDs and addresses stay raw bytes (32 and 20 bytes).
import type { Bytes } from '../bytes.js';
import type {
  PAddSubnetValidatorTx,
  PBlockTx,
  PConvertSubnetToL1Tx,
  PCreateChainTx,
  PCreateSubnetTx,
  PDisableL1ValidatorTx,
  PIncreaseL1ValidatorBalanceTx,
  PRegisterL1ValidatorTx,
  PRemoveSubnetValidatorTx,
  PSetAutoRenewedValidatorConfigTx,
  PSetL1ValidatorWeightTx,
  PStakingTx,
  PTransferSubnetOwnershipTx,
  PTransformSubnetTx,
} from './pvm-types.js';

export type * from './pvm-types.js';

/** Which VM's type-ID table applies: X-Chain avm, P-Chain platformvm, C-Chain atomic (coreth). */
export type Vm = 'avm' | 'pvm' | 'evm';

export interface OutputOwners {
  locktime: bigint;
  threshold: number;
  /** 20-byte short IDs, strictly ascending. */
  addresses: Bytes[];
}

export interface TransferOutput {
  kind: 'TransferOutput';
  amount: bigint;
  owners: OutputOwners;
}
export interface MintOutput {
  kind: 'MintOutput';
  owners: OutputOwners;
}
export interface NftMintOutput {
  kind: 'NftMintOutput';
  groupID: number;
  owners: OutputOwners;
}
export interface NftTransferOutput {
  kind: 'NftTransferOutput';
  groupID: number;
  payload: Bytes;
  owners: OutputOwners;
}
export interface PropertyMintOutput {
  kind: 'PropertyMintOutput';
  owners: OutputOwners;
}
export interface PropertyOwnedOutput {
  kind: 'PropertyOwnedOutput';
  owners: OutputOwners;
}
/** P-Chain only: value locked until `locktime`, spendable before that only for staking. */
export interface StakeableLockOut {
  kind: 'StakeableLockOut';
  locktime: bigint;
  output: TransferOutput;
}

export type Output =
  | TransferOutput
  | MintOutput
  | NftMintOutput
  | NftTransferOutput
  | PropertyMintOutput
  | PropertyOwnedOutput
  | StakeableLockOut;

export interface TransferInput {
  kind: 'TransferInput';
  amount: bigint;
  /** Indices into the spent output's addresses, strictly ascending. */
  sigIndices: number[];
}
export interface StakeableLockIn {
  kind: 'StakeableLockIn';
  locktime: bigint;
  input: TransferInput;
}
export type Input = TransferInput | StakeableLockIn;

export interface UtxoRef {
  txID: Bytes;
  outputIndex: number;
}

export interface TransferableOutput {
  assetID: Bytes;
  output: Output;
}

export interface TransferableInput extends UtxoRef {
  assetID: Bytes;
  input: Input;
}

export interface Utxo extends UtxoRef {
  assetID: Bytes;
  output: Output;
}

// ---- X-Chain operations ----

export interface SecpMintOperation {
  kind: 'SecpMintOperation';
  mintInput: number[];
  mintOutput: OutputOwners;
  transferOutput: { amount: bigint; owners: OutputOwners };
}
export interface NftMintOperation {
  kind: 'NftMintOperation';
  mintInput: number[];
  groupID: number;
  payload: Bytes;
  outputs: OutputOwners[];
}
export interface NftTransferOperation {
  kind: 'NftTransferOperation';
  input: number[];
  output: { groupID: number; payload: Bytes; owners: OutputOwners };
}
export interface PropertyMintOperation {
  kind: 'PropertyMintOperation';
  mintInput: number[];
  mintOutput: OutputOwners;
  ownedOutput: OutputOwners;
}
export interface PropertyBurnOperation {
  kind: 'PropertyBurnOperation';
  input: number[];
}
export type FxOperation =
  | SecpMintOperation
  | NftMintOperation
  | NftTransferOperation
  | PropertyMintOperation
  | PropertyBurnOperation;

export interface Operation {
  assetID: Bytes;
  utxoIDs: UtxoRef[];
  op: FxOperation;
}

export interface InitialState {
  /** 0 secp256k1fx, 1 nftfx, 2 propertyfx. */
  fxIndex: number;
  outputs: Output[];
}

// ---- credentials ----

/** The fx whose credential type ID is used: 9 secp256k1fx, 14 nftfx, 19 propertyfx. */
export type CredentialFx = 'secp' | 'nft' | 'property';

export interface Credential {
  fx: CredentialFx;
  /** 65-byte r ‖ s ‖ v signatures, one per sigIndex of the input it authorizes. */
  signatures: Bytes[];
}

// ---- C-Chain atomic ----

export interface EvmOutput {
  address: Bytes;
  amount: bigint;
  assetID: Bytes;
}
export interface EvmInput {
  address: Bytes;
  amount: bigint;
  assetID: Bytes;
  nonce: bigint;
}

// ---- unsigned transactions ----

export interface BaseTxFields {
  networkID: number;
  blockchainID: Bytes;
  outputs: TransferableOutput[];
  inputs: TransferableInput[];
  memo: Bytes;
}

export interface XBaseTx extends BaseTxFields {
  vm: 'avm';
  kind: 'BaseTx';
}
export interface XCreateAssetTx extends BaseTxFields {
  vm: 'avm';
  kind: 'CreateAssetTx';
  name: string;
  symbol: string;
  denomination: number;
  initialStates: InitialState[];
}
export interface XOperationTx extends BaseTxFields {
  vm: 'avm';
  kind: 'OperationTx';
  operations: Operation[];
}
export interface XImportTx extends BaseTxFields {
  vm: 'avm';
  kind: 'ImportTx';
  sourceChain: Bytes;
  importedInputs: TransferableInput[];
}
export interface XExportTx extends BaseTxFields {
  vm: 'avm';
  kind: 'ExportTx';
  destinationChain: Bytes;
  exportedOutputs: TransferableOutput[];
}

export interface PBaseTx extends BaseTxFields {
  vm: 'pvm';
  kind: 'BaseTx';
}
export interface PImportTx extends BaseTxFields {
  vm: 'pvm';
  kind: 'ImportTx';
  sourceChain: Bytes;
  importedInputs: TransferableInput[];
}
export interface PExportTx extends BaseTxFields {
  vm: 'pvm';
  kind: 'ExportTx';
  destinationChain: Bytes;
  exportedOutputs: TransferableOutput[];
}

export interface CImportTx {
  vm: 'evm';
  kind: 'ImportTx';
  networkID: number;
  blockchainID: Bytes;
  sourceChain: Bytes;
  importedInputs: TransferableInput[];
  outs: EvmOutput[];
}
export interface CExportTx {
  vm: 'evm';
  kind: 'ExportTx';
  networkID: number;
  blockchainID: Bytes;
  destinationChain: Bytes;
  ins: EvmInput[];
  exportedOutputs: TransferableOutput[];
}

export type XTx = XBaseTx | XCreateAssetTx | XOperationTx | XImportTx | XExportTx;
/** Every P-Chain tx that has a BaseTx (so inputs, outputs and a fee). */
export type PTx =
  | PBaseTx
  | PImportTx
  | PExportTx
  | PStakingTx
  | PAddSubnetValidatorTx
  | PCreateChainTx
  | PCreateSubnetTx
  | PRemoveSubnetValidatorTx
  | PTransformSubnetTx
  | PTransferSubnetOwnershipTx
  | PConvertSubnetToL1Tx
  | PRegisterL1ValidatorTx
  | PSetL1ValidatorWeightTx
  | PIncreaseL1ValidatorBalanceTx
  | PDisableL1ValidatorTx
  | PSetAutoRenewedValidatorConfigTx;
export type CTx = CImportTx | CExportTx;
/** A tx a wallet signs: it has a BaseTx (or the C-Chain atomic equivalent). */
export type UnsignedTx = XTx | PTx | CTx;
/** Any tx a chain stores: wallet txs and the P-Chain's block-builder txs. */
export type ChainTx = UnsignedTx | PBlockTx;

export interface SignedTx<T extends ChainTx = UnsignedTx> {
  unsigned: T;
  credentials: Credential[];
}

// P-Chain (platformvm) transactions: every tx type of avalanchego v1.15; their staking, subnet
// and L1 validator parts are in pvm-parts.ts. Layouts: docs/protocol.md §P. The decoder is
// structural and strict (exact type IDs for every interface field, lengths bounded before
// allocating); the consensus rules on values (sorting, ranges) are checked by verifyPTx in
// pvm-rules.ts.
import type { Bytes } from '../bytes.js';
import { ByteReader, ByteWriter } from './io.js';
import {
  ID_LENGTH,
  invert,
  NODE_ID_LENGTH,
  readBaseFields,
  readList,
  readTransferableInputs,
  readTransferableOutputs,
  writeBaseFields,
  writeList,
  writeTransferableInputs,
  writeTransferableOutputs,
} from './parts.js';
import {
  BLS_PUBLIC_KEY_LENGTH,
  BLS_SIGNATURE_LENGTH,
  readAuth,
  readL1Validator,
  readOwnerField,
  readSigner,
  readValidator,
  writeAuth,
  writeL1Validator,
  writeOwnerField,
  writeSigner,
  writeValidator,
} from './pvm-parts.js';
import type { PBlockTx, PTx, TransferableOutput } from './types.js';

// Field names in errors, each written once (they repeat across the tx types; pvm-rules.ts names them too).
export const SUBNET_AUTH = 'subnet authorization';
export const VALIDATION_OWNER = 'validation rewards owner';
export const DELEGATION_OWNER = 'delegation rewards owner';

type PKind = (PTx | PBlockTx)['kind'];

/** platformvm codec type IDs (registration order; 0–4 and 29–32 are block types). */
export const PVM_TX_TYPE_IDS: Record<PKind, number> = {
  AddValidatorTx: 12,
  AddSubnetValidatorTx: 13,
  AddDelegatorTx: 14,
  CreateChainTx: 15,
  CreateSubnetTx: 16,
  ImportTx: 17,
  ExportTx: 18,
  AdvanceTimeTx: 19,
  RewardValidatorTx: 20,
  RemoveSubnetValidatorTx: 23,
  TransformSubnetTx: 24,
  AddPermissionlessValidatorTx: 25,
  AddPermissionlessDelegatorTx: 26,
  TransferSubnetOwnershipTx: 33,
  BaseTx: 34,
  ConvertSubnetToL1Tx: 35,
  RegisterL1ValidatorTx: 36,
  SetL1ValidatorWeightTx: 37,
  IncreaseL1ValidatorBalanceTx: 38,
  DisableL1ValidatorTx: 39,
  AddAutoRenewedValidatorTx: 40,
  SetAutoRenewedValidatorConfigTx: 41,
  RewardAutoRenewedValidatorTx: 42,
};
const PVM_TX_KINDS = invert(PVM_TX_TYPE_IDS);

const BLOCK_TX_KINDS: ReadonlySet<PKind> = new Set(['AdvanceTimeTx', 'RewardValidatorTx', 'RewardAutoRenewedValidatorTx']);

export function isPBlockTx(tx: PTx | PBlockTx): tx is PBlockTx {
  return BLOCK_TX_KINDS.has(tx.kind);
}

const MIN_L1_VALIDATOR = 4 + 16 + BLS_PUBLIC_KEY_LENGTH + BLS_SIGNATURE_LENGTH + 16;

// ---- transactions ----

/** Writes a P-Chain tx after the codec version: type ID, then body. */
export function writePvmTx(w: ByteWriter, tx: PTx | PBlockTx): void {
  w.u32(PVM_TX_TYPE_IDS[tx.kind]);
  switch (tx.kind) {
    case 'AdvanceTimeTx':
      return w.u64(tx.time);
    case 'RewardValidatorTx':
      return w.fixed(tx.txID, ID_LENGTH, 'txID');
    case 'RewardAutoRenewedValidatorTx':
      w.fixed(tx.txID, ID_LENGTH, 'txID');
      return w.u64(tx.timestamp);
  }
  writeBaseFields(w, 'pvm', tx);
  const id = (b: Bytes, what: string) => w.fixed(b, ID_LENGTH, what);
  const stake = (outs: readonly TransferableOutput[]) => writeTransferableOutputs(w, 'pvm', outs);
  switch (tx.kind) {
    case 'BaseTx':
      return;
    case 'ImportTx':
      id(tx.sourceChain, 'sourceChain');
      return writeTransferableInputs(w, 'pvm', tx.importedInputs);
    case 'ExportTx':
      id(tx.destinationChain, 'destinationChain');
      return writeTransferableOutputs(w, 'pvm', tx.exportedOutputs);
    case 'AddValidatorTx':
      writeValidator(w, tx.validator);
      stake(tx.stake);
      writeOwnerField(w, tx.rewardsOwner);
      return w.u32(tx.delegationShares);
    case 'AddDelegatorTx':
      writeValidator(w, tx.validator);
      stake(tx.stake);
      return writeOwnerField(w, tx.rewardsOwner);
    case 'AddSubnetValidatorTx':
      writeValidator(w, tx.validator);
      id(tx.subnetID, 'subnetID');
      return writeAuth(w, tx.subnetAuth);
    case 'CreateChainTx':
      id(tx.subnetID, 'subnetID');
      w.str(tx.chainName);
      id(tx.vmID, 'vmID');
      writeList(w, tx.fxIDs, (fx) => id(fx, 'fxID'));
      w.varBytes(tx.genesisData);
      return writeAuth(w, tx.subnetAuth);
    case 'CreateSubnetTx':
      return writeOwnerField(w, tx.owner);
    case 'RemoveSubnetValidatorTx':
      w.fixed(tx.nodeID, NODE_ID_LENGTH, 'nodeID');
      id(tx.subnetID, 'subnetID');
      return writeAuth(w, tx.subnetAuth);
    case 'TransformSubnetTx':
      id(tx.subnetID, 'subnetID');
      id(tx.assetID, 'assetID');
      for (const v of [tx.initialSupply, tx.maximumSupply, tx.minConsumptionRate, tx.maxConsumptionRate, tx.minValidatorStake, tx.maxValidatorStake]) w.u64(v);
      w.u32(tx.minStakeDuration);
      w.u32(tx.maxStakeDuration);
      w.u32(tx.minDelegationFee);
      w.u64(tx.minDelegatorStake);
      w.u8(tx.maxValidatorWeightFactor);
      w.u32(tx.uptimeRequirement);
      return writeAuth(w, tx.subnetAuth);
    case 'AddPermissionlessValidatorTx':
      writeValidator(w, tx.validator);
      id(tx.subnetID, 'subnetID');
      writeSigner(w, tx.signer);
      stake(tx.stake);
      writeOwnerField(w, tx.validationRewardsOwner);
      writeOwnerField(w, tx.delegationRewardsOwner);
      return w.u32(tx.delegationShares);
    case 'AddPermissionlessDelegatorTx':
      writeValidator(w, tx.validator);
      id(tx.subnetID, 'subnetID');
      stake(tx.stake);
      return writeOwnerField(w, tx.rewardsOwner);
    case 'TransferSubnetOwnershipTx':
      id(tx.subnetID, 'subnetID');
      writeAuth(w, tx.subnetAuth);
      return writeOwnerField(w, tx.owner);
    case 'ConvertSubnetToL1Tx':
      id(tx.subnetID, 'subnetID');
      id(tx.chainID, 'chainID');
      w.varBytes(tx.address);
      writeList(w, tx.validators, (v) => writeL1Validator(w, v));
      return writeAuth(w, tx.subnetAuth);
    case 'RegisterL1ValidatorTx':
      w.u64(tx.balance);
      w.fixed(tx.proofOfPossession, BLS_SIGNATURE_LENGTH, 'proof of possession');
      return w.varBytes(tx.message);
    case 'SetL1ValidatorWeightTx':
      return w.varBytes(tx.message);
    case 'IncreaseL1ValidatorBalanceTx':
      id(tx.validationID, 'validationID');
      return w.u64(tx.balance);
    case 'DisableL1ValidatorTx':
      id(tx.validationID, 'validationID');
      return writeAuth(w, tx.disableAuth);
    case 'AddAutoRenewedValidatorTx':
      w.varBytes(tx.nodeID);
      writeSigner(w, tx.signer);
      stake(tx.stake);
      writeOwnerField(w, tx.validationRewardsOwner);
      writeOwnerField(w, tx.delegationRewardsOwner);
      writeOwnerField(w, tx.validatorAuthority);
      w.u32(tx.delegationShares);
      w.u32(tx.autoCompoundRewardShares);
      return w.u64(tx.period);
    case 'SetAutoRenewedValidatorConfigTx':
      id(tx.txID, 'txID');
      writeAuth(w, tx.auth);
      w.u32(tx.autoCompoundRewardShares);
      return w.u64(tx.period);
  }
}

/** Reads a P-Chain tx after the codec version. */
export function readPvmTx(r: ByteReader): PTx | PBlockTx {
  const at = r.offset;
  const typeId = r.u32('transaction type ID');
  const kind = PVM_TX_KINDS.get(typeId);
  if (kind === undefined) r.fail(`unknown P-Chain transaction type ID ${typeId}`, at);
  const vm = 'pvm' as const;
  const id = (what: string) => r.fixed(ID_LENGTH, what);
  switch (kind) {
    case 'AdvanceTimeTx':
      return { vm, kind, time: r.u64('time') };
    case 'RewardValidatorTx':
      return { vm, kind, txID: id('txID') };
    case 'RewardAutoRenewedValidatorTx': {
      const txID = id('txID');
      return { vm, kind, txID, timestamp: r.u64('timestamp') };
    }
  }
  const base = { vm, ...readBaseFields(r, vm) };
  const stake = () => readTransferableOutputs(r, vm, 'stake');
  switch (kind) {
    case 'BaseTx':
      return { ...base, kind };
    case 'ImportTx': {
      const sourceChain = id('sourceChain');
      return { ...base, kind, sourceChain, importedInputs: readTransferableInputs(r, vm, 'importedInputs') };
    }
    case 'ExportTx': {
      const destinationChain = id('destinationChain');
      return { ...base, kind, destinationChain, exportedOutputs: readTransferableOutputs(r, vm, 'exportedOutputs') };
    }
    case 'AddValidatorTx': {
      const validator = readValidator(r);
      const staked = stake();
      const rewardsOwner = readOwnerField(r, 'rewards owner');
      return { ...base, kind, validator, stake: staked, rewardsOwner, delegationShares: r.u32('delegation shares') };
    }
    case 'AddDelegatorTx': {
      const validator = readValidator(r);
      const staked = stake();
      return { ...base, kind, validator, stake: staked, rewardsOwner: readOwnerField(r, 'rewards owner') };
    }
    case 'AddSubnetValidatorTx': {
      const validator = readValidator(r);
      const subnetID = id('subnetID');
      return { ...base, kind, validator, subnetID, subnetAuth: readAuth(r, SUBNET_AUTH) };
    }
    case 'CreateChainTx': {
      const subnetID = id('subnetID');
      const chainName = r.str('chain name');
      const vmID = id('vmID');
      const fxIDs = readList(r, ID_LENGTH, 'fxIDs', () => id('fxID'));
      const genesisData = r.varBytes('genesis data');
      return { ...base, kind, subnetID, chainName, vmID, fxIDs, genesisData, subnetAuth: readAuth(r, SUBNET_AUTH) };
    }
    case 'CreateSubnetTx':
      return { ...base, kind, owner: readOwnerField(r, 'subnet owner') };
    case 'RemoveSubnetValidatorTx': {
      const nodeID = r.fixed(NODE_ID_LENGTH, 'nodeID');
      const subnetID = id('subnetID');
      return { ...base, kind, nodeID, subnetID, subnetAuth: readAuth(r, SUBNET_AUTH) };
    }
    case 'TransformSubnetTx': {
      const subnetID = id('subnetID');
      const assetID = id('assetID');
      const initialSupply = r.u64('initial supply');
      const maximumSupply = r.u64('maximum supply');
      const minConsumptionRate = r.u64('min consumption rate');
      const maxConsumptionRate = r.u64('max consumption rate');
      const minValidatorStake = r.u64('min validator stake');
      const maxValidatorStake = r.u64('max validator stake');
      const minStakeDuration = r.u32('min stake duration');
      const maxStakeDuration = r.u32('max stake duration');
      const minDelegationFee = r.u32('min delegation fee');
      const minDelegatorStake = r.u64('min delegator stake');
      const maxValidatorWeightFactor = r.u8('max validator weight factor');
      const uptimeRequirement = r.u32('uptime requirement');
      return {
        ...base, kind, subnetID, assetID, initialSupply, maximumSupply, minConsumptionRate, maxConsumptionRate, minValidatorStake,
        maxValidatorStake, minStakeDuration, maxStakeDuration, minDelegationFee, minDelegatorStake, maxValidatorWeightFactor,
        uptimeRequirement, subnetAuth: readAuth(r, SUBNET_AUTH),
      };
    }
    case 'AddPermissionlessValidatorTx': {
      const validator = readValidator(r);
      const subnetID = id('subnetID');
      const signer = readSigner(r);
      const staked = stake();
      const validationRewardsOwner = readOwnerField(r, VALIDATION_OWNER);
      const delegationRewardsOwner = readOwnerField(r, DELEGATION_OWNER);
      const delegationShares = r.u32('delegation shares');
      return { ...base, kind, validator, subnetID, signer, stake: staked, validationRewardsOwner, delegationRewardsOwner, delegationShares };
    }
    case 'AddPermissionlessDelegatorTx': {
      const validator = readValidator(r);
      const subnetID = id('subnetID');
      const staked = stake();
      return { ...base, kind, validator, subnetID, stake: staked, rewardsOwner: readOwnerField(r, 'rewards owner') };
    }
    case 'TransferSubnetOwnershipTx': {
      const subnetID = id('subnetID');
      const subnetAuth = readAuth(r, SUBNET_AUTH);
      return { ...base, kind, subnetID, subnetAuth, owner: readOwnerField(r, 'subnet owner') };
    }
    case 'ConvertSubnetToL1Tx': {
      const subnetID = id('subnetID');
      const chainID = id('chainID');
      const address = r.varBytes('address');
      const validators = readList(r, MIN_L1_VALIDATOR, 'validators', () => readL1Validator(r));
      return { ...base, kind, subnetID, chainID, address, validators, subnetAuth: readAuth(r, SUBNET_AUTH) };
    }
    case 'RegisterL1ValidatorTx': {
      const balance = r.u64('balance');
      const proofOfPossession = r.fixed(BLS_SIGNATURE_LENGTH, 'proof of possession');
      return { ...base, kind, balance, proofOfPossession, message: r.varBytes('message') };
    }
    case 'SetL1ValidatorWeightTx':
      return { ...base, kind, message: r.varBytes('message') };
    case 'IncreaseL1ValidatorBalanceTx': {
      const validationID = id('validationID');
      return { ...base, kind, validationID, balance: r.u64('balance') };
    }
    case 'DisableL1ValidatorTx': {
      const validationID = id('validationID');
      return { ...base, kind, validationID, disableAuth: readAuth(r, 'disable authorization') };
    }
    case 'AddAutoRenewedValidatorTx': {
      const nodeID = r.varBytes('nodeID');
      const signer = readSigner(r);
      const staked = stake();
      const validationRewardsOwner = readOwnerField(r, VALIDATION_OWNER);
      const delegationRewardsOwner = readOwnerField(r, DELEGATION_OWNER);
      const validatorAuthority = readOwnerField(r, 'validator authority');
      const delegationShares = r.u32('delegation shares');
      const autoCompoundRewardShares = r.u32('auto-compound reward shares');
      const period = r.u64('period');
      return {
        ...base, kind, nodeID, signer, stake: staked, validationRewardsOwner, delegationRewardsOwner, validatorAuthority,
        delegationShares, autoCompoundRewardShares, period,
      };
    }
    case 'SetAutoRenewedValidatorConfigTx': {
      const txID = id('txID');
      const auth = readAuth(r, 'authorization');
      const autoCompoundRewardShares = r.u32('auto-compound reward shares');
      return { ...base, kind, txID, auth, autoCompoundRewardShares, period: r.u64('period') };
    }
  }
}

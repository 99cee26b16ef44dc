// Fee rules (docs/protocol.md §Fees). X: static; P: dynamic by complexity (ACP-103), every tx type
// the P-Chain accepts; C atomic: gas × base fee.
import { WEI_PER_NAVAX } from './amount.js';
import { type Bytes, toHex } from './bytes.js';
import type { CTx, OutputOwners, PChainOwner, PTx, Signer, TransferableInput, TransferableOutput, UnsignedTx } from './codec/types.js';
import { unsignedTxLength } from './codec/codec.js';
import { amountOf, ownersOf } from './codec/rules.js';
import { isRetiredPTx, l1BalanceOf, stakeOf } from './codec/pvm-rules.js';
import { parseWarpMessage } from './codec/warp.js';
import { CodecError, ValidationError } from './errors.js';

/** Per-dimension weights and price for the P-Chain dynamic fee. */
export interface PFeeContext {
  /** [Bandwidth, DBRead, DBWrite, Compute]. */
  weights: readonly [bigint, bigint, bigint, bigint];
  /** nAVAX per unit of gas (platform.getFeeState's `price`). */
  gasPriceNavax: bigint;
}

export type Complexity = [bigint, bigint, bigint, bigint];

const P_TX_INTRINSIC_BANDWIDTH = 58n; // version, type, network, chain, #outs, #ins, memo length, #creds
const P_OUTPUT_BANDWIDTH = 60n;
const P_ADDRESS_BANDWIDTH = 20n;
const P_INPUT_BANDWIDTH = 92n;
const P_SIGNATURE_BANDWIDTH = 69n;
const P_STAKEABLE_EXTRA = 12n;
const P_SIGNATURE_COMPUTE = 200n;
const P_OWNER_BANDWIDTH = 16n; // locktime, threshold, #addresses (the owner's type ID is intrinsic)
const P_AUTH_BANDWIDTH = 8n; // #sigIndices, #signatures (both type IDs are intrinsic)
const P_POP_BANDWIDTH = 144n; // BLS public key 48 + proof of possession 96
const P_POP_COMPUTE = 1_050n; // public key check 50 + BLS verification 1 000
const P_L1_VALIDATOR_BANDWIDTH = 36n; // nodeID length, weight, balance, 2 × (threshold, #addresses)
const P_L1_VALIDATOR_DB_WRITE = 4n;
const P_WARP_DB_READ = 23n;
const P_WARP_COMPUTE = 1_000n;
const P_WARP_SIGNER_COMPUTE = 5n;

const B = P_TX_INTRINSIC_BANDWIDTH;

/** Intrinsic complexity of each P-Chain tx type, BaseTx fields included; the parts are added. */
const INTRINSIC: Record<PTx['kind'], Complexity | undefined> = {
  BaseTx: [B, 0n, 0n, 0n],
  ImportTx: [B + 36n, 0n, 0n, 0n],
  ExportTx: [B + 36n, 0n, 0n, 0n],
  AddSubnetValidatorTx: [B + 76n + 8n, 3n, 3n, 0n],
  CreateChainTx: [B + 32n + 2n + 32n + 4n + 4n + 8n, 3n, 1n, 0n],
  CreateSubnetTx: [B + 4n, 0n, 1n, 0n],
  RemoveSubnetValidatorTx: [B + 20n + 32n + 8n, 1n, 3n, 0n],
  AddPermissionlessValidatorTx: [B + 44n + 32n + 20n, 1n, 3n, 0n],
  AddPermissionlessDelegatorTx: [B + 44n + 32n + 8n, 1n, 2n, 0n],
  TransferSubnetOwnershipTx: [B + 32n + 12n, 1n, 1n, 0n],
  ConvertSubnetToL1Tx: [B + 64n + 16n, 3n, 2n, 0n],
  RegisterL1ValidatorTx: [B + 8n + 96n + 4n, 5n, 6n, 1_050n],
  SetL1ValidatorWeightTx: [B + 4n, 3n, 5n, 0n],
  IncreaseL1ValidatorBalanceTx: [B + 32n + 8n, 1n, 5n, 0n],
  DisableL1ValidatorTx: [B + 32n + 8n, 1n, 6n, 0n],
  AddAutoRenewedValidatorTx: [B + 4n + 20n + 28n + 8n, 0n, 3n, 0n],
  SetAutoRenewedValidatorConfigTx: [B + 32n + 12n + 8n, 1n, 1n, 0n],
  // Refused by the node today: no fee rule.
  AddValidatorTx: undefined,
  AddDelegatorTx: undefined,
  TransformSubnetTx: undefined,
};

function outputComplexity(o: TransferableOutput): Complexity {
  const stakeable = o.output.kind === 'StakeableLockOut' ? P_STAKEABLE_EXTRA : 0n;
  const addrs = BigInt(ownersOf(o.output).addresses.length);
  return [P_OUTPUT_BANDWIDTH + P_ADDRESS_BANDWIDTH * addrs + stakeable, 0n, 1n, 0n];
}

function inputComplexity(i: TransferableInput): Complexity {
  const inner = i.input.kind === 'StakeableLockIn' ? i.input.input : i.input;
  const stakeable = i.input.kind === 'StakeableLockIn' ? P_STAKEABLE_EXTRA : 0n;
  const sigs = BigInt(inner.sigIndices.length);
  return [P_INPUT_BANDWIDTH + P_SIGNATURE_BANDWIDTH * sigs + stakeable, 1n, 1n, P_SIGNATURE_COMPUTE * sigs];
}

function ownerComplexity(o: OutputOwners | PChainOwner): Complexity {
  return [P_OWNER_BANDWIDTH + P_ADDRESS_BANDWIDTH * BigInt(o.addresses.length), 0n, 0n, 0n];
}

function authComplexity(sigIndices: readonly number[]): Complexity {
  const sigs = BigInt(sigIndices.length);
  return [P_AUTH_BANDWIDTH + P_SIGNATURE_BANDWIDTH * sigs, 0n, 0n, P_SIGNATURE_COMPUTE * sigs];
}

function signerComplexity(s: Signer): Complexity {
  return s.kind === 'ProofOfPossession' ? [P_POP_BANDWIDTH, 0n, 0n, P_POP_COMPUTE] : [0n, 0n, 0n, 0n];
}

function warpComplexity(message: Bytes): Complexity {
  let signers: number;
  try {
    signers = parseWarpMessage(message).signerCount;
  } catch (e) {
    if (e instanceof CodecError) throw new ValidationError(`the Warp message cannot be read: ${e.message}`, 'message');
    throw e;
  }
  return [BigInt(message.length), P_WARP_DB_READ, 0n, P_WARP_COMPUTE + P_WARP_SIGNER_COMPUTE * BigInt(signers)];
}

function add(a: Complexity, b: Complexity): Complexity {
  return [a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3]];
}

function typeComplexity(tx: PTx): Complexity[] {
  switch (tx.kind) {
    case 'ImportTx':
      return tx.importedInputs.map(inputComplexity);
    case 'ExportTx':
      return tx.exportedOutputs.map(outputComplexity);
    case 'AddPermissionlessValidatorTx':
      return [signerComplexity(tx.signer), ...tx.stake.map(outputComplexity), ownerComplexity(tx.validationRewardsOwner), ownerComplexity(tx.delegationRewardsOwner)];
    case 'AddPermissionlessDelegatorTx':
      return [...tx.stake.map(outputComplexity), ownerComplexity(tx.rewardsOwner)];
    case 'AddAutoRenewedValidatorTx':
      return [
        signerComplexity(tx.signer),
        ...tx.stake.map(outputComplexity),
        ownerComplexity(tx.validationRewardsOwner),
        ownerComplexity(tx.delegationRewardsOwner),
        ownerComplexity(tx.validatorAuthority),
      ];
    case 'SetAutoRenewedValidatorConfigTx':
      return [authComplexity(tx.auth)];
    case 'AddSubnetValidatorTx':
    case 'RemoveSubnetValidatorTx':
      return [authComplexity(tx.subnetAuth)];
    case 'CreateChainTx': {
      const dynamic = 32n * BigInt(tx.fxIDs.length) + BigInt(new TextEncoder().encode(tx.chainName).length) + BigInt(tx.genesisData.length);
      return [[dynamic, 0n, 0n, 0n], authComplexity(tx.subnetAuth)];
    }
    case 'CreateSubnetTx':
      return [ownerComplexity(tx.owner)];
    case 'TransferSubnetOwnershipTx':
      return [authComplexity(tx.subnetAuth), ownerComplexity(tx.owner)];
    case 'ConvertSubnetToL1Tx':
      return [
        [BigInt(tx.address.length), 0n, 0n, 0n],
        authComplexity(tx.subnetAuth),
        ...tx.validators.map((v): Complexity => [
          P_L1_VALIDATOR_BANDWIDTH + BigInt(v.nodeID.length) + P_POP_BANDWIDTH + P_ADDRESS_BANDWIDTH * BigInt(v.remainingBalanceOwner.addresses.length + v.deactivationOwner.addresses.length),
          0n,
          P_L1_VALIDATOR_DB_WRITE,
          P_POP_COMPUTE,
        ]),
      ];
    case 'RegisterL1ValidatorTx':
    case 'SetL1ValidatorWeightTx':
      return [warpComplexity(tx.message)];
    case 'DisableL1ValidatorTx':
      return [authComplexity(tx.disableAuth)];
    default:
      return [];
  }
}

/**
 * Complexity of a P-Chain tx, as the node meters it; its bandwidth is the signed size. Throws
 * ValidationError for the types the node no longer accepts (they have no fee rule).
 */
export function pTxComplexity(tx: PTx): Complexity {
  const intrinsic = INTRINSIC[tx.kind];
  if (!intrinsic || isRetiredPTx(tx)) throw new ValidationError(`the P-Chain no longer accepts ${tx.kind}, so it has no fee`);
  let c: Complexity = [intrinsic[0] + BigInt(tx.memo.length), intrinsic[1], intrinsic[2], intrinsic[3]];
  for (const o of tx.outputs) c = add(c, outputComplexity(o));
  for (const i of tx.inputs) c = add(c, inputComplexity(i));
  for (const part of typeComplexity(tx)) c = add(c, part);
  return c;
}

export function pGas(c: Complexity, weights: PFeeContext['weights']): bigint {
  return c[0] * weights[0] + c[1] * weights[1] + c[2] * weights[2] + c[3] * weights[3];
}

export function pTxFee(tx: PTx, ctx: PFeeContext): bigint {
  return pGas(pTxComplexity(tx), ctx.weights) * ctx.gasPriceNavax;
}

// ---- C-Chain atomic ----

const ATOMIC_INTRINSIC_GAS = 10_000n;
const ATOMIC_GAS_PER_SIGNATURE = 1_000n;
/** The C-Chain mempool refuses an atomic tx above this gas. */
export const ATOMIC_TX_MAX_GAS = 100_000n;

export function atomicSignatureCount(tx: CTx): number {
  if (tx.kind === 'ExportTx') return tx.ins.length;
  let n = 0;
  for (const i of tx.importedInputs) n += i.input.kind === 'StakeableLockIn' ? i.input.input.sigIndices.length : i.input.sigIndices.length;
  return n;
}

export function atomicTxGas(tx: CTx, unsignedLength = unsignedTxLength(tx)): bigint {
  return BigInt(unsignedLength) + ATOMIC_GAS_PER_SIGNATURE * BigInt(atomicSignatureCount(tx)) + ATOMIC_INTRINSIC_GAS;
}

/** nAVAX to burn: ceil(gas × baseFee(wei) / 10^9). */
export function atomicTxFee(gas: bigint, baseFeeWei: bigint): bigint {
  return (gas * baseFeeWei + WEI_PER_NAVAX - 1n) / WEI_PER_NAVAX;
}

/**
 * A fee the user reviewed for a C-Chain atomic tx, and the least base fee (wei) it must still pay:
 * the tx may pay that fee rather than the fee of now, as long as it pays at least `floorBaseFeeWei`.
 */
export interface AtomicFeeCap {
  maxFee: bigint;
  floorBaseFeeWei: bigint;
}

/**
 * nAVAX a C-Chain atomic tx of `gas` burns at `baseFeeWei` (headroom included); when that is above
 * `cap.maxFee` but `cap.maxFee` still pays its floor per gas, exactly `cap.maxFee`, so a base fee
 * that rose a little since the review needs no second review (the node prices the tx at
 * floor(burned × 10^9 / gas) wei per gas).
 */
export function atomicFeeWithin(gas: bigint, baseFeeWei: bigint, cap?: AtomicFeeCap): bigint {
  const fee = atomicTxFee(gas, baseFeeWei);
  if (cap === undefined || fee <= cap.maxFee) return fee;
  return (cap.maxFee * WEI_PER_NAVAX) / gas >= cap.floorBaseFeeWei ? cap.maxFee : fee;
}

/** Scales a price by a percentage, rounding up (headroom against a rising fee). */
export function withHeadroom(value: bigint, percent: bigint): bigint {
  return (value * percent + 99n) / 100n;
}

/**
 * AVAX a tx actually burns: what it consumes minus what it creates (on its chain and exported),
 * less the stake it locks and what it moves into L1 validator balances. This is the fee paid,
 * shown after acceptance next to the estimate shown before.
 */
export function avaxBurned(tx: UnsignedTx, avaxAssetID: Bytes): bigint {
  const avax = toHex(avaxAssetID);
  const isAvax = (assetID: Bytes) => toHex(assetID) === avax;
  const inSum = (ins: TransferableInput[]) =>
    ins.filter((i) => isAvax(i.assetID)).reduce((s, i) => s + (i.input.kind === 'StakeableLockIn' ? i.input.input.amount : i.input.amount), 0n);
  const outSum = (outs: TransferableOutput[]) => outs.filter((o) => isAvax(o.assetID)).reduce((s, o) => s + amountOf(o.output), 0n);
  if (tx.vm === 'evm') {
    if (tx.kind === 'ImportTx') return inSum(tx.importedInputs) - tx.outs.filter((o) => isAvax(o.assetID)).reduce((s, o) => s + o.amount, 0n);
    return tx.ins.filter((i) => isAvax(i.assetID)).reduce((s, i) => s + i.amount, 0n) - outSum(tx.exportedOutputs);
  }
  let burned = inSum(tx.inputs) - outSum(tx.outputs);
  if (tx.kind === 'ImportTx') burned += inSum(tx.importedInputs);
  if (tx.kind === 'ExportTx') burned -= outSum(tx.exportedOutputs);
  // Stake comes back when the staking ends; an L1 validator's balance pays its continuous fee.
  if (tx.vm === 'pvm') burned -= outSum(stakeOf(tx)) + l1BalanceOf(tx);
  return burned;
}

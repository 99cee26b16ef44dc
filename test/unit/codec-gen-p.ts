// fast-check arbitraries for P-Chain transactions: base, import and export, staking, subnet and L1
// validator txs, and the txs only the block builder issues (see codec-generators.ts).
import fc from 'fast-check';
import { type Bytes, compareBytes, fromHex, toHex } from '../../src/core/bytes.js';
import type {
  PBaseTx,
  PBlockTx,
  PChainOwner,
  PTx,
  Signer,
  L1Validator,
  Validator,
  PExportTx,
  PImportTx,
  TransferableOutput,
} from '../../src/core/codec/index.js';
import {
  arbAmount,
  arbBaseFields,
  arbId,
  arbOwners,
  arbSigIndices,
  arbStakeableLocktime,
  arbTransferableInputs,
  arbTransferableOutputs,
  arbU32,
  arbU64,
  consumedRefsUnique,
  record,
  sortTransferable,
  U64_MAX,
} from './codec-gen-common.js';

// ---- P-Chain transactions ----

export const arbPBaseTx: fc.Arbitrary<PBaseTx> = arbBaseFields('pvm').map((b) => ({ vm: 'pvm', kind: 'BaseTx', ...b }));

export const arbPImportTx: fc.Arbitrary<PImportTx> = fc
  .record({ base: arbBaseFields('pvm'), sourceChain: arbId, importedInputs: arbTransferableInputs('pvm', { minLength: 1 }) })
  .map(({ base, ...rest }): PImportTx => ({ vm: 'pvm', kind: 'ImportTx', ...base, ...rest }))
  .filter(consumedRefsUnique);

/** Exported outputs may not be stakeable-locked. */
export const arbPExportTx: fc.Arbitrary<PExportTx> = fc
  .record({ base: arbBaseFields('pvm'), destinationChain: arbId, exportedOutputs: arbTransferableOutputs('pvm', { minLength: 1 }) })
  .map(({ base, ...rest }) => ({ vm: 'pvm', kind: 'ExportTx', ...base, ...rest }));

// ---- P-Chain staking, subnet and L1 validator transactions ----

const arbBytes = (n: number): fc.Arbitrary<Bytes> => fc.uint8Array({ minLength: n, maxLength: n });
/** A non-empty NodeID (20 bytes, not all zero). */
export const arbNodeID: fc.Arbitrary<Bytes> = arbBytes(20).filter((b) => b.some((x) => x !== 0));
/** An ID that is not the Primary Network's (all zero). */
const arbSubnetID: fc.Arbitrary<Bytes> = arbId.filter((b) => b.some((x) => x !== 0));
const arbShares = fc.integer({ min: 0, max: 1_000_000 });
const arbPeriod = fc.bigInt({ min: 1n, max: U64_MAX });
const EMPTY_SIGNER: Signer = { kind: 'EmptySigner' };
/**
 * A valid BLS key and proof of possession (secret key 1: the G1 generator), for libraries that
 * check BLS points when they parse; otherwise BLS fields are random bytes.
 */
export const VALID_BLS = {
  publicKey: fromHex('97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb'),
  signature: fromHex('abd367bf7fe788f30632c5d7e92a9958da6164eea2f0cc2d4678a1bcc281f1bede7fc92f5624c84718da7c203f8f69cc016b555c691666c80d48dbebdbb5985eff6618683e563660d926ab2e336376e011717f4d35754ba8cac2b33e0ab21f9a'),
};

/** Owners that can sign: 1 ≤ threshold ≤ #addrs, sorted unique addresses (or none at all). */
const arbPChainOwner: fc.Arbitrary<PChainOwner> = arbOwners.map(({ threshold, addresses }) => ({ threshold, addresses }));

function arbValidator(weight: fc.Arbitrary<bigint> = arbAmount): fc.Arbitrary<Validator> {
  return record({ nodeID: arbNodeID, start: arbU64, end: arbU64, weight });
}

/** Stake in one asset, sorted, whose sum fits a u64 (so it can be the validator's weight). */
function arbStake(assetID: fc.Arbitrary<Bytes> = arbId): fc.Arbitrary<TransferableOutput[]> {
  const amount = fc.bigInt({ min: 1n, max: 1n << 60n });
  const out = fc.oneof(
    record({ kind: fc.constant('TransferOutput' as const), amount, owners: arbOwners }),
    record({ kind: fc.constant('StakeableLockOut' as const), locktime: arbStakeableLocktime, output: record({ kind: fc.constant('TransferOutput' as const), amount, owners: arbOwners }) }),
  );
  return assetID.chain((a) => fc.array(record({ assetID: fc.constant(a), output: out }), { minLength: 1, maxLength: 3 }).map((l) => sortTransferable(l, 'pvm')));
}

const stakeSum = (stake: TransferableOutput[]): bigint =>
  stake.reduce((s, o) => s + (o.output.kind === 'StakeableLockOut' ? o.output.output.amount : o.output.kind === 'TransferOutput' ? o.output.amount : 0n), 0n);

interface BlsBytes {
  publicKey: fc.Arbitrary<Bytes>;
  signature: fc.Arbitrary<Bytes>;
}
const RANDOM_BLS: BlsBytes = { publicKey: arbBytes(48), signature: arbBytes(96) };
const CONSTANT_BLS: BlsBytes = { publicKey: fc.constant(VALID_BLS.publicKey), signature: fc.constant(VALID_BLS.signature) };

const arbL1Validators = (bls: BlsBytes): fc.Arbitrary<L1Validator[]> => fc
  .uniqueArray(
    record({
      nodeID: arbNodeID,
      weight: arbAmount,
      balance: arbU64,
      publicKey: bls.publicKey,
      signature: bls.signature,
      remainingBalanceOwner: arbPChainOwner,
      deactivationOwner: arbPChainOwner,
    }),
    { minLength: 1, maxLength: 3, selector: (v) => toHex(v.nodeID) },
  )
  .map((vs) => [...vs].sort((a, b) => compareBytes(a.nodeID, b.nodeID)));

/** A Warp message as an L1 manager sends it: bit-set signature, no leading zero byte in the set. */
export const arbWarpMessage = (bls: BlsBytes): fc.Arbitrary<Bytes> => fc
  .record({ networkID: arbU32, chain: arbId, payload: fc.uint8Array({ maxLength: 40 }), signers: fc.uint8Array({ maxLength: 4 }), sig: bls.signature })
  .map(({ networkID, chain, payload, signers, sig }) => {
    const set = signers.length > 0 && signers[0] === 0 ? Uint8Array.of(1, ...signers) : signers;
    const b = new Uint8Array(2 + 4 + 32 + 4 + payload.length + 4 + 4 + set.length + 96);
    const v = new DataView(b.buffer);
    let at = 2;
    v.setUint32(at, networkID);
    b.set(chain, (at += 4));
    v.setUint32((at += 32), payload.length);
    b.set(payload, (at += 4));
    v.setUint32((at += payload.length), 0);
    v.setUint32((at += 4), set.length);
    b.set(set, (at += 4));
    b.set(sig, at + set.length);
    return b;
  });

const pBase = arbBaseFields('pvm');
function pTx<K extends PTx['kind'], F extends Record<string, unknown>>(kind: K, fields: fc.Arbitrary<F>): fc.Arbitrary<PTx> {
  return fc.tuple(pBase, fields).map(([base, f]) => ({ vm: 'pvm', kind, ...base, ...f }) as unknown as PTx);
}

/**
 * Every P-Chain tx type with a BaseTx beyond Base/Import/Export, each valid for verifyPTx (except
 * the retired ones). `validBls`: BLS keys and signatures are real points (one fixed pair).
 */
export function arbPTxs(opts: { validBls?: boolean } = {}): Record<Exclude<PTx['kind'], 'BaseTx' | 'ImportTx' | 'ExportTx'>, fc.Arbitrary<PTx>> {
  const bls = opts.validBls ? CONSTANT_BLS : RANDOM_BLS;
  const arbPop: fc.Arbitrary<Signer> = record({ kind: fc.constant('ProofOfPossession' as const), publicKey: bls.publicKey, signature: bls.signature });
  return {
  AddValidatorTx: pTx('AddValidatorTx', arbStake().chain((stake) => record({ validator: arbValidator(fc.constant(stakeSum(stake))), stake: fc.constant(stake), rewardsOwner: arbOwners, delegationShares: arbShares }))),
  AddDelegatorTx: pTx('AddDelegatorTx', arbStake().chain((stake) => record({ validator: arbValidator(fc.constant(stakeSum(stake))), stake: fc.constant(stake), rewardsOwner: arbOwners }))),
  AddSubnetValidatorTx: pTx('AddSubnetValidatorTx', record({ validator: arbValidator(), subnetID: arbSubnetID, subnetAuth: arbSigIndices })),
  CreateChainTx: pTx(
    'CreateChainTx',
    record({
      subnetID: arbSubnetID,
      chainName: fc.stringMatching(/^[A-Za-z0-9 ]{0,16}$/),
      vmID: arbSubnetID,
      fxIDs: fc.uniqueArray(arbId, { maxLength: 3, selector: toHex }).map((ids) => [...ids].sort(compareBytes)),
      genesisData: fc.uint8Array({ maxLength: 64 }),
      subnetAuth: arbSigIndices,
    }),
  ),
  CreateSubnetTx: pTx('CreateSubnetTx', record({ owner: arbOwners })),
  RemoveSubnetValidatorTx: pTx('RemoveSubnetValidatorTx', record({ nodeID: arbNodeID, subnetID: arbSubnetID, subnetAuth: arbSigIndices })),
  TransformSubnetTx: pTx(
    'TransformSubnetTx',
    record({
      subnetID: arbSubnetID, assetID: arbId, initialSupply: arbU64, maximumSupply: arbU64, minConsumptionRate: arbU64, maxConsumptionRate: arbU64,
      minValidatorStake: arbU64, maxValidatorStake: arbU64, minStakeDuration: arbU32, maxStakeDuration: arbU32, minDelegationFee: arbU32,
      minDelegatorStake: arbU64, maxValidatorWeightFactor: fc.integer({ min: 0, max: 255 }), uptimeRequirement: arbU32, subnetAuth: arbSigIndices,
    }),
  ),
  AddPermissionlessValidatorTx: pTx(
    'AddPermissionlessValidatorTx',
    fc.tuple(arbStake(), fc.boolean(), arbSubnetID).chain(([stake, primary, subnet]) =>
      record({
        validator: arbValidator(fc.constant(stakeSum(stake))),
        subnetID: fc.constant(primary ? new Uint8Array(32) : subnet),
        signer: primary ? arbPop : fc.constant(EMPTY_SIGNER),
        stake: fc.constant(stake),
        validationRewardsOwner: arbOwners,
        delegationRewardsOwner: arbOwners,
        delegationShares: arbShares,
      }),
    ),
  ),
  AddPermissionlessDelegatorTx: pTx(
    'AddPermissionlessDelegatorTx',
    arbStake().chain((stake) => record({ validator: arbValidator(fc.constant(stakeSum(stake))), subnetID: arbId, stake: fc.constant(stake), rewardsOwner: arbOwners })),
  ),
  TransferSubnetOwnershipTx: pTx('TransferSubnetOwnershipTx', record({ subnetID: arbSubnetID, subnetAuth: arbSigIndices, owner: arbOwners })),
  ConvertSubnetToL1Tx: pTx(
    'ConvertSubnetToL1Tx',
    record({ subnetID: arbSubnetID, chainID: arbId, address: fc.uint8Array({ maxLength: 32 }), validators: arbL1Validators(bls), subnetAuth: arbSigIndices }),
  ),
  RegisterL1ValidatorTx: pTx('RegisterL1ValidatorTx', record({ balance: arbU64, proofOfPossession: bls.signature, message: arbWarpMessage(bls) })),
  SetL1ValidatorWeightTx: pTx('SetL1ValidatorWeightTx', record({ message: arbWarpMessage(bls) })),
  IncreaseL1ValidatorBalanceTx: pTx('IncreaseL1ValidatorBalanceTx', record({ validationID: arbId, balance: arbAmount })),
  DisableL1ValidatorTx: pTx('DisableL1ValidatorTx', record({ validationID: arbId, disableAuth: arbSigIndices })),
  AddAutoRenewedValidatorTx: pTx(
    'AddAutoRenewedValidatorTx',
    record({
      nodeID: arbNodeID,
      signer: arbPop,
      stake: arbStake(),
      validationRewardsOwner: arbOwners,
      delegationRewardsOwner: arbOwners,
      validatorAuthority: arbOwners,
      delegationShares: arbShares,
      autoCompoundRewardShares: arbShares,
      period: arbPeriod,
    }),
  ),
  SetAutoRenewedValidatorConfigTx: pTx(
    'SetAutoRenewedValidatorConfigTx',
    record({ txID: arbSubnetID, auth: arbSigIndices, autoCompoundRewardShares: arbShares, period: fc.oneof(fc.constant(0n), arbPeriod) }),
  ),
  };
}

export const ARB_P_TXS = arbPTxs();
export const arbPStakingAndSubnetTx: fc.Arbitrary<PTx> = fc.oneof(...Object.values(ARB_P_TXS));

/** The txs only the P-Chain's block builder issues. */
export const arbPBlockTx: fc.Arbitrary<PBlockTx> = fc.oneof(
  record({ vm: fc.constant('pvm' as const), kind: fc.constant('AdvanceTimeTx' as const), time: arbU64 }),
  record({ vm: fc.constant('pvm' as const), kind: fc.constant('RewardValidatorTx' as const), txID: arbId }),
  record({ vm: fc.constant('pvm' as const), kind: fc.constant('RewardAutoRenewedValidatorTx' as const), txID: arbId, timestamp: arbU64 }),
);

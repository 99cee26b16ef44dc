// fast-check arbitraries for every structure the codec handles, per VM (docs/protocol.md).
// Each arbitrary yields a structure the node would accept syntactically: sorted and unique where
// the consensus rules say so, amounts > 0, thresholds within range, credentials shaped like the
// inputs they authorize. Lists stay short (≤ 4) so property runs are fast.
import fc from 'fast-check';
import { type Bytes, compareBytes, fromHex, toHex } from '../../src/core/bytes.js';
import {
  authorizationOf,
  encodeOutput,
  sortOperations,
  type CExportTx,
  type CImportTx,
  type Credential,
  type CredentialFx,
  type EvmInput,
  type EvmOutput,
  type FxOperation,
  type InitialState,
  type Input,
  type Operation,
  type Output,
  type OutputOwners,
  type PBaseTx,
  type PBlockTx,
  type PChainOwner,
  type PTx,
  type Signer,
  type L1Validator,
  type Validator,
  type PExportTx,
  type PImportTx,
  type SignedTx,
  type StakeableLockIn,
  type StakeableLockOut,
  type TransferableInput,
  type TransferableOutput,
  type TransferInput,
  type TransferOutput,
  type UnsignedTx,
  type Utxo,
  type UtxoRef,
  type Vm,
  type XBaseTx,
  type XCreateAssetTx,
  type XExportTx,
  type XImportTx,
  type XOperationTx,
} from '../../src/core/codec/index.js';
import { CodecError } from '../../src/core/errors.js';

export const VMS: readonly Vm[] = ['avm', 'pvm', 'evm'];

/**
 * `propertyFx: false` leaves out every propertyfx type (outputs 15/16, operations 17/18,
 * credential 19), for comparisons with libraries that do not know that fx.
 */
export interface GenOptions {
  propertyFx?: boolean;
}

const MAX_LIST = 4;

/** fc.record builds null-prototype objects; the codec's decoders build plain ones. */
const record = ((model: Parameters<typeof fc.record>[0], constraints?: Parameters<typeof fc.record>[1]) =>
  fc.record(model, constraints).map((o) => ({ ...o }))) as typeof fc.record;
const U32_MAX = 0xffffffff;
const U64_MAX = (1n << 64n) - 1n;

// ---- primitives ----

export const arbId: fc.Arbitrary<Bytes> = fc.uint8Array({ minLength: 32, maxLength: 32 });
export const arbAddress: fc.Arbitrary<Bytes> = fc.uint8Array({ minLength: 20, maxLength: 20 });
export const arbSignature: fc.Arbitrary<Bytes> = fc.uint8Array({ minLength: 65, maxLength: 65 });
export const arbU32 = fc.integer({ min: 0, max: U32_MAX });
export const arbU64 = fc.bigInt({ min: 0n, max: U64_MAX });
/** Amounts must be positive. */
export const arbAmount = fc.bigInt({ min: 1n, max: U64_MAX });
/** A stakeable locktime is never zero. */
const arbStakeableLocktime = fc.bigInt({ min: 1n, max: U64_MAX });
const arbLocktime = fc.oneof(fc.constant(0n), arbU64);
export const arbMemo: fc.Arbitrary<Bytes> = fc.uint8Array({ maxLength: 256 });
/** nftfx payloads are at most 1024 bytes; keep them short. */
const arbPayload: fc.Arbitrary<Bytes> = fc.uint8Array({ maxLength: 48 });

/** Strictly ascending sigIndices. */
export const arbSigIndices: fc.Arbitrary<number[]> = fc
  .uniqueArray(arbU32, { maxLength: 3 })
  .map((xs) => [...xs].sort((a, b) => a - b));

/** Strictly ascending unique addresses; 1 ≤ threshold ≤ #addrs (or 0 with no address). */
export const arbOwners: fc.Arbitrary<OutputOwners> = fc
  .uniqueArray(arbAddress, { maxLength: 3, selector: (a) => toHex(a) })
  .chain((addrs) => {
    const addresses = [...addrs].sort(compareBytes);
    return record({
      locktime: arbLocktime,
      threshold: addresses.length === 0 ? fc.constant(0) : fc.integer({ min: 1, max: addresses.length }),
      addresses: fc.constant(addresses),
    });
  });

// ---- outputs ----

export const arbTransferOutput: fc.Arbitrary<TransferOutput> = record({
  kind: fc.constant('TransferOutput' as const),
  amount: arbAmount,
  owners: arbOwners,
});

export const arbStakeableLockOut: fc.Arbitrary<StakeableLockOut> = record({
  kind: fc.constant('StakeableLockOut' as const),
  locktime: arbStakeableLocktime,
  output: arbTransferOutput,
});

const arbSecpMintOutput: fc.Arbitrary<Output> = record({ kind: fc.constant('MintOutput' as const), owners: arbOwners });
const arbNftMintOutput: fc.Arbitrary<Output> = record({
  kind: fc.constant('NftMintOutput' as const),
  groupID: arbU32,
  owners: arbOwners,
});
const arbNftTransferOutput: fc.Arbitrary<Output> = record({
  kind: fc.constant('NftTransferOutput' as const),
  groupID: arbU32,
  payload: arbPayload,
  owners: arbOwners,
});
const arbPropertyMintOutput: fc.Arbitrary<Output> = record({
  kind: fc.constant('PropertyMintOutput' as const),
  owners: arbOwners,
});
const arbPropertyOwnedOutput: fc.Arbitrary<Output> = record({
  kind: fc.constant('PropertyOwnedOutput' as const),
  owners: arbOwners,
});

/** The outputs each X-Chain fx may hold in an initial state (index = fxIndex). */
function fxOutputs(fxIndex: number): fc.Arbitrary<Output> {
  if (fxIndex === 0) return fc.oneof(arbTransferOutput, arbSecpMintOutput);
  if (fxIndex === 1) return fc.oneof(arbNftMintOutput, arbNftTransferOutput);
  return fc.oneof(arbPropertyMintOutput, arbPropertyOwnedOutput);
}

/** Any output type registered on `vm`'s codec (what a UTXO may hold). */
export function arbOutput(vm: Vm, opts: GenOptions = {}): fc.Arbitrary<Output> {
  if (vm === 'pvm') return fc.oneof(arbTransferOutput, arbStakeableLockOut);
  if (vm === 'evm') return arbTransferOutput;
  const kinds = [arbTransferOutput, arbSecpMintOutput, arbNftMintOutput, arbNftTransferOutput];
  if (opts.propertyFx !== false) kinds.push(arbPropertyMintOutput, arbPropertyOwnedOutput);
  return fc.oneof(...kinds);
}

/** Outputs by asset ID, then by the output's codec bytes (consensus order, duplicates allowed). */
function sortTransferable(outputs: TransferableOutput[], vm: Vm): TransferableOutput[] {
  const keyed = outputs.map((o) => ({ o, key: encodeOutput(o.output, vm) }));
  keyed.sort((a, b) => compareBytes(a.o.assetID, b.o.assetID) || compareBytes(a.key, b.key));
  return keyed.map((k) => k.o);
}

function sortByCodecBytes(outputs: Output[], vm: Vm): Output[] {
  const keyed = outputs.map((o) => ({ o, key: encodeOutput(o, vm) }));
  keyed.sort((a, b) => compareBytes(a.key, b.key));
  return keyed.map((k) => k.o);
}

/**
 * A sorted list of fungible transferable outputs. `locked` allows P-Chain StakeableLockOut
 * (never in exported outputs). `assetID` pins every output to one asset (C-Chain: AVAX only).
 */
export function arbTransferableOutputs(
  vm: Vm,
  o: { minLength?: number; locked?: boolean; assetID?: Bytes } = {},
): fc.Arbitrary<TransferableOutput[]> {
  const output = vm === 'pvm' && o.locked ? fc.oneof(arbTransferOutput, arbStakeableLockOut) : arbTransferOutput;
  const assetID = o.assetID ? fc.constant(o.assetID) : arbId;
  return fc
    .array(record({ assetID, output }), { minLength: o.minLength ?? 0, maxLength: MAX_LIST })
    .map((list) => sortTransferable(list, vm));
}

// ---- inputs ----

export const arbTransferInput: fc.Arbitrary<TransferInput> = record({
  kind: fc.constant('TransferInput' as const),
  amount: arbAmount,
  sigIndices: arbSigIndices,
});

export const arbStakeableLockIn: fc.Arbitrary<StakeableLockIn> = record({
  kind: fc.constant('StakeableLockIn' as const),
  locktime: arbStakeableLocktime,
  input: arbTransferInput,
});

export function arbInput(vm: Vm): fc.Arbitrary<Input> {
  return vm === 'pvm' ? fc.oneof(arbTransferInput, arbStakeableLockIn) : arbTransferInput;
}

const refKey = (r: UtxoRef): string => `${toHex(r.txID)}:${r.outputIndex}`;
const compareRefs = (a: UtxoRef, b: UtxoRef): number => compareBytes(a.txID, b.txID) || a.outputIndex - b.outputIndex;

export const arbUtxoRef: fc.Arbitrary<UtxoRef> = record({ txID: arbId, outputIndex: arbU32 });

/** Inputs sorted by (txID, outputIndex), unique. `locked` allows StakeableLockIn on P. */
export function arbTransferableInputs(
  vm: Vm,
  o: { minLength?: number; locked?: boolean; assetID?: Bytes } = {},
): fc.Arbitrary<TransferableInput[]> {
  const input = o.locked ? arbInput(vm) : arbTransferInput;
  const assetID = o.assetID ? fc.constant(o.assetID) : arbId;
  return fc
    .uniqueArray(record({ txID: arbId, outputIndex: arbU32, assetID, input }), {
      minLength: o.minLength ?? 0,
      maxLength: MAX_LIST,
      selector: refKey,
    })
    .map((list) => [...list].sort(compareRefs));
}

// ---- X-Chain operations ----

export function arbFxOperation(opts: GenOptions = {}): fc.Arbitrary<FxOperation> {
  const ops: fc.Arbitrary<FxOperation>[] = [
    record({
      kind: fc.constant('SecpMintOperation' as const),
      mintInput: arbSigIndices,
      mintOutput: arbOwners,
      transferOutput: record({ amount: arbAmount, owners: arbOwners }),
    }),
    record({
      kind: fc.constant('NftMintOperation' as const),
      mintInput: arbSigIndices,
      groupID: arbU32,
      payload: arbPayload,
      outputs: fc.array(arbOwners, { minLength: 1, maxLength: 3 }),
    }),
    record({
      kind: fc.constant('NftTransferOperation' as const),
      input: arbSigIndices,
      output: record({ groupID: arbU32, payload: arbPayload, owners: arbOwners }),
    }),
  ];
  if (opts.propertyFx !== false) {
    ops.push(
      record({
        kind: fc.constant('PropertyMintOperation' as const),
        mintInput: arbSigIndices,
        mintOutput: arbOwners,
        ownedOutput: arbOwners,
      }),
      record({ kind: fc.constant('PropertyBurnOperation' as const), input: arbSigIndices }),
    );
  }
  return fc.oneof(...ops);
}

export function arbOperation(opts: GenOptions = {}): fc.Arbitrary<Operation> {
  return record({
    assetID: arbId,
    utxoIDs: fc
      .uniqueArray(arbUtxoRef, { minLength: 1, maxLength: 2, selector: refKey })
      .map((refs) => [...refs].sort(compareRefs)),
    op: arbFxOperation(opts),
  });
}

/** Every UTXO a tx consumes (inputs, imported inputs, operation UTXOs) must be distinct. */
function consumedRefsUnique(tx: UnsignedTx): boolean {
  const refs: UtxoRef[] = [];
  if (tx.vm !== 'evm') refs.push(...tx.inputs);
  if (tx.kind === 'ImportTx') refs.push(...tx.importedInputs);
  if (tx.kind === 'OperationTx') for (const op of tx.operations) refs.push(...op.utxoIDs);
  return new Set(refs.map(refKey)).size === refs.length;
}

// ---- X-Chain transactions ----

function arbBaseFields(vm: 'avm' | 'pvm') {
  return record({
    networkID: arbU32,
    blockchainID: arbId,
    outputs: arbTransferableOutputs(vm, { locked: true }),
    inputs: arbTransferableInputs(vm, { locked: true }),
    // P-Chain memos must be empty since Durango.
    memo: vm === 'avm' ? arbMemo : fc.constant(new Uint8Array()),
  });
}

export const arbXBaseTx: fc.Arbitrary<XBaseTx> = arbBaseFields('avm').map((b) => ({ vm: 'avm', kind: 'BaseTx', ...b }));

/** Name: 1–128 ASCII letters, digits, inner spaces; symbol: 1–4 capital letters. */
export const arbAssetName = fc.stringMatching(/^[A-Za-z0-9](?:[A-Za-z0-9 ]{0,14}[A-Za-z0-9])?$/);
export const arbAssetSymbol = fc.stringMatching(/^[A-Z]{1,4}$/);

export function arbInitialStates(opts: GenOptions = {}): fc.Arbitrary<InitialState[]> {
  const fxIndices = opts.propertyFx === false ? [0, 1] : [0, 1, 2];
  return fc
    .uniqueArray(fc.constantFrom(...fxIndices), { minLength: 1, maxLength: fxIndices.length })
    .chain((indices) =>
      fc.tuple(
        ...[...indices]
          .sort((a, b) => a - b)
          .map((fxIndex) =>
            fc
              .array(fxOutputs(fxIndex), { minLength: 1, maxLength: 3 })
              .map((outs): InitialState => ({ fxIndex, outputs: sortByCodecBytes(outs, 'avm') })),
          ),
      ),
    );
}

export function arbXCreateAssetTx(opts: GenOptions = {}): fc.Arbitrary<XCreateAssetTx> {
  return fc
    .record({
      base: arbBaseFields('avm'),
      name: arbAssetName,
      symbol: arbAssetSymbol,
      denomination: fc.integer({ min: 0, max: 32 }),
      initialStates: arbInitialStates(opts),
    })
    .map(({ base, ...rest }) => ({ vm: 'avm', kind: 'CreateAssetTx', ...base, ...rest }));
}

export function arbXOperationTx(opts: GenOptions = {}): fc.Arbitrary<XOperationTx> {
  return fc
    .record({ base: arbBaseFields('avm'), ops: fc.array(arbOperation(opts), { minLength: 1, maxLength: 3 }) })
    .map(({ base, ops }): XOperationTx => ({ vm: 'avm', kind: 'OperationTx', ...base, operations: sortOperations(ops) }))
    .filter(consumedRefsUnique);
}

export const arbXImportTx: fc.Arbitrary<XImportTx> = fc
  .record({ base: arbBaseFields('avm'), sourceChain: arbId, importedInputs: arbTransferableInputs('avm', { minLength: 1 }) })
  .map(({ base, ...rest }): XImportTx => ({ vm: 'avm', kind: 'ImportTx', ...base, ...rest }))
  .filter(consumedRefsUnique);

export const arbXExportTx: fc.Arbitrary<XExportTx> = fc
  .record({ base: arbBaseFields('avm'), destinationChain: arbId, exportedOutputs: arbTransferableOutputs('avm', { minLength: 1 }) })
  .map(({ base, ...rest }) => ({ vm: 'avm', kind: 'ExportTx', ...base, ...rest }));

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

// ---- C-Chain atomic transactions (AVAX only; EVM outs/ins sorted by address, unique) ----

function arbEvmOutputs(assetID: Bytes): fc.Arbitrary<EvmOutput[]> {
  return fc
    .uniqueArray(arbAddress, { minLength: 1, maxLength: MAX_LIST, selector: (a) => toHex(a) })
    .chain((addrs) =>
      fc.tuple(...[...addrs].sort(compareBytes).map((address) => arbAmount.map((amount): EvmOutput => ({ address, amount, assetID })))),
    );
}

function arbEvmInputs(assetID: Bytes): fc.Arbitrary<EvmInput[]> {
  return fc
    .uniqueArray(arbAddress, { minLength: 1, maxLength: MAX_LIST, selector: (a) => toHex(a) })
    .chain((addrs) =>
      fc.tuple(
        ...[...addrs]
          .sort(compareBytes)
          .map((address) => record({ amount: arbAmount, nonce: arbU64 }).map(({ amount, nonce }): EvmInput => ({ address, amount, assetID, nonce }))),
      ),
    );
}

export const arbCImportTx: fc.Arbitrary<CImportTx> = arbId.chain((avax) =>
  fc
    .record({
      networkID: arbU32,
      blockchainID: arbId,
      sourceChain: arbId,
      importedInputs: arbTransferableInputs('evm', { minLength: 1, assetID: avax }),
      outs: arbEvmOutputs(avax),
    })
    .map((t): CImportTx => ({ vm: 'evm', kind: 'ImportTx', ...t })),
);

export const arbCExportTx: fc.Arbitrary<CExportTx> = arbId.chain((avax) =>
  fc
    .record({
      networkID: arbU32,
      blockchainID: arbId,
      destinationChain: arbId,
      ins: arbEvmInputs(avax),
      exportedOutputs: arbTransferableOutputs('evm', { minLength: 1, assetID: avax }),
    })
    .map((t): CExportTx => ({ vm: 'evm', kind: 'ExportTx', ...t })),
);

// ---- by VM ----

export function arbXTx(opts: GenOptions = {}): fc.Arbitrary<UnsignedTx> {
  return fc.oneof(arbXBaseTx, arbXCreateAssetTx(opts), arbXOperationTx(opts), arbXImportTx, arbXExportTx);
}

export function arbUnsignedTx(vm: Vm, opts: GenOptions = {}): fc.Arbitrary<UnsignedTx> {
  if (vm === 'avm') return arbXTx(opts);
  if (vm === 'pvm') return fc.oneof(arbPBaseTx, arbPImportTx, arbPExportTx, arbPStakingAndSubnetTx);
  return fc.oneof(arbCImportTx, arbCExportTx);
}

// ---- credentials ----

function credentialFxs(vm: Vm, opts: GenOptions): CredentialFx[] {
  if (vm !== 'avm') return ['secp'];
  return opts.propertyFx === false ? ['secp', 'nft'] : ['secp', 'nft', 'property'];
}

/** Any credential registered on `vm` (avm: secp/nft/property fx; pvm and evm: secp). */
export function arbCredential(vm: Vm, opts: GenOptions = {}): fc.Arbitrary<Credential> {
  return record({
    fx: fc.constantFrom(...credentialFxs(vm, opts)),
    signatures: fc.array(arbSignature, { maxLength: 3 }),
  });
}

function sigCount(input: Input): number {
  return input.kind === 'StakeableLockIn' ? input.input.sigIndices.length : input.sigIndices.length;
}

function operationShape(op: FxOperation): { fx: CredentialFx; sigs: number } {
  switch (op.kind) {
    case 'SecpMintOperation':
      return { fx: 'secp', sigs: op.mintInput.length };
    case 'NftMintOperation':
      return { fx: 'nft', sigs: op.mintInput.length };
    case 'NftTransferOperation':
      return { fx: 'nft', sigs: op.input.length };
    case 'PropertyMintOperation':
      return { fx: 'property', sigs: op.mintInput.length };
    case 'PropertyBurnOperation':
      return { fx: 'property', sigs: op.input.length };
  }
}

/** The credential slots a tx needs: inputs, then imported inputs, then operations (§4.3). */
export function credentialShapes(tx: UnsignedTx): { fx: CredentialFx; sigs: number }[] {
  if (tx.vm === 'evm') {
    if (tx.kind === 'ExportTx') return tx.ins.map(() => ({ fx: 'secp', sigs: 1 }));
    return tx.importedInputs.map((i) => ({ fx: 'secp', sigs: sigCount(i.input) }));
  }
  const shapes = tx.inputs.map((i) => ({ fx: 'secp' as CredentialFx, sigs: sigCount(i.input) }));
  if (tx.kind === 'ImportTx') for (const i of tx.importedInputs) shapes.push({ fx: 'secp', sigs: sigCount(i.input) });
  if (tx.kind === 'OperationTx') for (const op of tx.operations) shapes.push(operationShape(op.op));
  const auth = tx.vm === 'pvm' ? authorizationOf(tx) : undefined;
  if (auth) shapes.push({ fx: 'secp', sigs: auth.sigIndices.length });
  return shapes;
}

/** Credentials matching the tx's inputs and operations, with random 65-byte signatures. */
export function arbCredentialsFor(tx: UnsignedTx): fc.Arbitrary<Credential[]> {
  return fc.tuple(
    ...credentialShapes(tx).map(({ fx, sigs }) =>
      fc.array(arbSignature, { minLength: sigs, maxLength: sigs }).map((signatures): Credential => ({ fx, signatures })),
    ),
  );
}

export function arbSignedTx(vm: Vm, opts: GenOptions = {}): fc.Arbitrary<SignedTx> {
  return arbUnsignedTx(vm, opts).chain((unsigned) => arbCredentialsFor(unsigned).map((credentials) => ({ unsigned, credentials })));
}

// ---- UTXOs ----

export function arbUtxo(vm: Vm, opts: GenOptions = {}): fc.Arbitrary<Utxo> {
  return record({ txID: arbId, outputIndex: arbU32, assetID: arbId, output: arbOutput(vm, opts) });
}

// ---- shared assertions ----

/**
 * Runs a decoder and returns its result, or the CodecError it threw. Anything else thrown is a
 * bug (the decoder's contract is: a value, or a CodecError) and is re-thrown after checking
 * that the error is a CodecError whose offset lies within the input.
 */
export function decodeOrCodecError<T>(decode: () => T, inputLength: number): { ok: true; value: T } | { ok: false; error: CodecError } {
  try {
    return { ok: true, value: decode() };
  } catch (e) {
    if (!(e instanceof CodecError)) throw new Error(`decoder threw a non-CodecError: ${String(e)}`, { cause: e });
    if (typeof e.offset !== 'number' || !Number.isInteger(e.offset) || e.offset < 0 || e.offset > inputLength) {
      throw new Error(`CodecError offset ${String(e.offset)} outside [0, ${inputLength}]: ${e.message}`, { cause: e });
    }
    return { ok: false, error: e };
  }
}

/** Asserts `decode` throws a CodecError (offset within the input) and returns it. */
export function expectCodecError(decode: () => unknown, inputLength: number): CodecError {
  const r = decodeOrCodecError(decode, inputLength);
  if (r.ok) throw new Error('expected a CodecError, but decoding succeeded');
  return r.error;
}

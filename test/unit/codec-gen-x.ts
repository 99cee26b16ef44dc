// fast-check arbitraries for X-Chain operations and transactions (see codec-generators.ts).
import fc from 'fast-check';
import {
  sortOperations,
  type FxOperation,
  type InitialState,
  type Operation,
  type XBaseTx,
  type XCreateAssetTx,
  type XExportTx,
  type XImportTx,
  type XOperationTx,
} from '../../src/core/codec/index.js';
import {
  arbAmount,
  arbBaseFields,
  arbId,
  arbOwners,
  arbPayload,
  arbSigIndices,
  arbTransferableInputs,
  arbTransferableOutputs,
  arbU32,
  arbUtxoRef,
  compareRefs,
  consumedRefsUnique,
  fxOutputs,
  type GenOptions,
  record,
  refKey,
  sortByCodecBytes,
} from './codec-gen-common.js';

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

// ---- X-Chain transactions ----

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

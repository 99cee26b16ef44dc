// fast-check arbitraries for C-Chain atomic transactions (see codec-generators.ts).
import fc from 'fast-check';
import { type Bytes, compareBytes, toHex } from '../../src/core/bytes.js';
import type { CExportTx, CImportTx, EvmInput, EvmOutput } from '../../src/core/codec/index.js';
import { arbAddress, arbAmount, arbId, arbTransferableInputs, arbTransferableOutputs, arbU32, arbU64, MAX_LIST, record } from './codec-gen-common.js';

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

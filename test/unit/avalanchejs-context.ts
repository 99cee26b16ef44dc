// The avalanchejs Context for one of our ChainContexts, for the tests and benchmarks that run both
// libraries on the same chain. Fee weights and limits are the local/mainnet values (wire-format §7.2).
import { Common, type Context } from '@avalabs/avalanchejs';
import { cb58Encode } from '../../src/core/encoding.js';
import type { ChainContext } from '../../src/core/tx/context.js';

export function avalanchejsContextOf(ctx: ChainContext): Context.Context {
  return {
    networkID: ctx.networkID,
    hrp: ctx.hrp,
    xBlockchainID: cb58Encode(ctx.xChainID),
    pBlockchainID: cb58Encode(ctx.pChainID),
    cBlockchainID: cb58Encode(ctx.cChainID),
    avaxAssetID: cb58Encode(ctx.avaxAssetID),
    baseTxFee: ctx.xTxFee,
    createAssetTxFee: ctx.xCreateAssetTxFee,
    platformFeeConfig: {
      weights: Common.createDimensions({ bandwidth: 1, dbRead: 1000, dbWrite: 1000, compute: 4 }),
      maxCapacity: 1_000_000n,
      maxPerSecond: 100_000n,
      targetPerSecond: 50_000n,
      minPrice: 1n,
      excessConversionConstant: 2_164_043n,
    },
  };
}

// The made-up X-Chain network the builder tests share: IDs and addresses from a number, and a
// context with the real fees (docs/protocol.md §Fees).
import type { ChainContext } from '../../src/core/tx/context.js';

/** A 32-byte ID from a number: its first two bytes, then the byte's own index. */
export const id = (n: number): Uint8Array => Uint8Array.from({ length: 32 }, (_, i) => (i === 0 ? n >> 8 : i === 1 ? n & 0xff : i));
/** A 20-byte address of one repeated byte. */
export const addr = (n: number): Uint8Array => new Uint8Array(20).fill(n);

export const ctx: ChainContext = {
  networkID: 12345,
  hrp: 'local',
  xChainID: id(1),
  pChainID: new Uint8Array(32),
  cChainID: id(3),
  avaxAssetID: id(9),
  xTxFee: 1_000_000n,
  xCreateAssetTxFee: 10_000_000n,
};

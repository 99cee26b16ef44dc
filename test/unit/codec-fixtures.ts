// Shared by codec-roundtrip.test.ts, codec-refusals.test.ts and codec-type-ids.test.ts: fixed IDs
// and an address, and small X-Chain txs written by hand.
import type { XBaseTx, XCreateAssetTx } from '../../src/core/codec/index.js';

export const ID_A = new Uint8Array(32).fill(0xaa);
export const ID_B = new Uint8Array(32).fill(0xbb);
export const ADDR = new Uint8Array(20).fill(0x11);

export function emptyXBase(kind: 'BaseTx' = 'BaseTx'): XBaseTx {
  return { vm: 'avm', kind, networkID: 1, blockchainID: ID_A, outputs: [], inputs: [], memo: new Uint8Array() };
}

export function createAsset(name: string, symbol = 'AB'): XCreateAssetTx {
  return {
    ...emptyXBase(),
    kind: 'CreateAssetTx',
    name,
    symbol,
    denomination: 9,
    initialStates: [{ fxIndex: 0, outputs: [{ kind: 'MintOutput', owners: { locktime: 0n, threshold: 1, addresses: [ADDR] } }] }],
  };
}

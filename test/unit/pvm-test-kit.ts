// Shared fixtures for the P-Chain staking/subnet/L1 tests: keys, a chain context, UTXOs, and Warp
// messages built byte by byte from their layout (docs/protocol.md §Warp).
import { sha256 } from '@noble/hashes/sha2.js';
import { type Bytes, concatBytes, utf8 } from '../../src/core/bytes.js';
import type { OutputOwners, PChainOwner, Utxo } from '../../src/core/codec/index.js';
import type { L1ManagerMessage } from '../../src/core/codec/warp.js';
import { keyPairFromSecret, parseSecretKey } from '../../src/core/keys.js';
import { type ChainContext, makeOwners } from '../../src/core/tx/context.js';

export const ewoq = keyPairFromSecret(parseSecretKey('PrivateKey-ewoqjP7PxY4yr3iLTpLisriqt94hdyDFNgchSxGGztUrTXtNN'));
export const second = keyPairFromSecret(sha256(utf8.encode('xpc-wallet P-Chain staking tests, second key')));
export const outsider = sha256(utf8.encode('an address this wallet has no key for')).slice(0, 20);

/** A test network (avalanchejs' P-Chain builders always use the primary network's all-zero chain ID). */
export const ctx: ChainContext = {
  networkID: 12345,
  hrp: 'local',
  xChainID: sha256(utf8.encode('x chain')),
  pChainID: new Uint8Array(32),
  cChainID: sha256(utf8.encode('c chain')),
  avaxAssetID: sha256(utf8.encode('avax')),
  xTxFee: 1_000_000n,
  xCreateAssetTxFee: 10_000_000n,
};

export const mine: OutputOwners = makeOwners([ewoq.shortId]);
export const both: OutputOwners = makeOwners([ewoq.shortId, second.shortId], 2);

let nextTx = 1;
export function utxo(amount: bigint, owners: OutputOwners = mine, outputIndex = 0, assetID = ctx.avaxAssetID): Utxo {
  return { txID: sha256(Uint8Array.of(0x50, nextTx++)), outputIndex, assetID, output: { kind: 'TransferOutput', amount, owners } };
}

export const u32 = (n: number): Bytes => {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, n);
  return b;
};
export const u64 = (n: bigint): Bytes => {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, n);
  return b;
};
const varBytes = (b: Bytes): Bytes => concatBytes(u32(b.length), b);
const VERSION = new Uint8Array(2);

function pChainOwner(o: PChainOwner): Bytes {
  return concatBytes(u32(o.threshold), u32(o.addresses.length), ...o.addresses);
}

/** A signed Warp message: version, networkID, source chain, payload, then a bit-set BLS signature. */
export function warpMessage(payload: Bytes, signers: Bytes = Uint8Array.of(0b1011), signature: Bytes = new Uint8Array(96).fill(7)): Bytes {
  return concatBytes(VERSION, u32(ctx.networkID), sha256(utf8.encode('L1 chain')), varBytes(payload), u32(0), varBytes(signers), signature);
}

/** An AddressedCall payload (type 1) from `source` carrying a manager message. */
export function addressedCall(message: Bytes, source: Bytes = new Uint8Array(20).fill(0xaa)): Bytes {
  return concatBytes(VERSION, u32(1), varBytes(source), varBytes(message));
}

export type RegisterMessage = Omit<Extract<L1ManagerMessage, { kind: 'RegisterL1Validator' }>, 'kind' | 'validationID'>;

/** The manager's RegisterL1Validator message (type 1). */
export function registerL1ValidatorMessage(m: RegisterMessage): Bytes {
  return concatBytes(
    VERSION, u32(1), m.subnetID, varBytes(m.nodeID), m.blsPublicKey, u64(m.expiry),
    pChainOwner(m.remainingBalanceOwner), pChainOwner(m.disableOwner), u64(m.weight),
  );
}

/** The manager's L1ValidatorWeight message (type 3). */
export function l1ValidatorWeightMessage(validationID: Bytes, nonce: bigint, weight: bigint): Bytes {
  return concatBytes(VERSION, u32(3), validationID, u64(nonce), u64(weight));
}

// Avalanche Warp messages as RegisterL1ValidatorTx and SetL1ValidatorWeightTx carry them: the
// signed envelope (whose signer count sets part of the fee) and, for describing, the validator
// manager's payload inside it (docs/protocol.md §Warp).
import { sha256 } from '@noble/hashes/sha2.js';
import type { Bytes } from '../bytes.js';
import { CodecError } from '../errors.js';
import { ByteReader } from './io.js';
import { ID_LENGTH, readVersion } from './parts.js';
import { BLS_PUBLIC_KEY_LENGTH, BLS_SIGNATURE_LENGTH, readPChainOwner } from './pvm-parts.js';
import type { PChainOwner } from './types.js';

const BIT_SET_SIGNATURE_TYPE_ID = 0;
const ADDRESSED_CALL_TYPE_ID = 1;
const REGISTER_L1_VALIDATOR_TYPE_ID = 1;
const L1_VALIDATOR_WEIGHT_TYPE_ID = 3;

export interface WarpMessage {
  networkID: number;
  sourceChainID: Bytes;
  payload: Bytes;
  /** Big-endian bit set of the signing validators' indices. */
  signers: Bytes;
  /** Aggregate BLS signature, 96 bytes. */
  signature: Bytes;
  /** How many validators signed (set bits). */
  signerCount: number;
}

function popcount(b: number): number {
  let n = 0;
  for (let x = b; x !== 0; x &= x - 1) n++;
  return n;
}

/** Strict: version 0, a bit-set signature without leading zero bytes, nothing after it. Throws CodecError. */
export function parseWarpMessage(bytes: Bytes): WarpMessage {
  const r = new ByteReader(bytes);
  readVersion(r);
  const networkID = r.u32('networkID');
  const sourceChainID = r.fixed(ID_LENGTH, 'source chain ID');
  const payload = r.varBytes('payload');
  const at = r.offset;
  const typeId = r.u32('signature type ID');
  if (typeId !== BIT_SET_SIGNATURE_TYPE_ID) r.fail(`unknown Warp signature type ${typeId}`, at);
  const signersAt = r.offset;
  const signers = r.varBytes('signers');
  if (signers.length > 0 && signers[0] === 0) r.fail('the signer bit set has a leading zero byte', signersAt);
  const signature = r.fixed(BLS_SIGNATURE_LENGTH, 'BLS signature');
  r.end();
  const signerCount = signers.reduce((n, b) => n + popcount(b), 0);
  return { networkID, sourceChainID, payload, signers, signature, signerCount };
}

/** What an L1's validator manager asks the P-Chain to do, read from a Warp payload. */
export type L1ManagerMessage =
  | {
      kind: 'RegisterL1Validator';
      subnetID: Bytes;
      nodeID: Bytes;
      blsPublicKey: Bytes;
      /** Unix seconds after which the message can no longer be used. */
      expiry: bigint;
      remainingBalanceOwner: PChainOwner;
      disableOwner: PChainOwner;
      weight: bigint;
      /** sha256 of the message: the ID of the validator it registers. */
      validationID: Bytes;
    }
  | { kind: 'L1ValidatorWeight'; validationID: Bytes; nonce: bigint; weight: bigint };

/**
 * The manager message inside a Warp payload (an AddressedCall whose own payload is a
 * RegisterL1Validator or L1ValidatorWeight message), or undefined when it is something else.
 */
export function readL1ManagerMessage(warpPayload: Bytes): L1ManagerMessage | undefined {
  try {
    const call = new ByteReader(warpPayload);
    readVersion(call);
    if (call.u32('payload type ID') !== ADDRESSED_CALL_TYPE_ID) return undefined;
    call.varBytes('source address');
    const inner = call.varBytes('payload');
    call.end();
    const r = new ByteReader(inner);
    readVersion(r);
    const typeId = r.u32('message type ID');
    if (typeId === L1_VALIDATOR_WEIGHT_TYPE_ID) {
      const validationID = r.fixed(ID_LENGTH, 'validationID');
      const nonce = r.u64('nonce');
      const weight = r.u64('weight');
      r.end();
      return { kind: 'L1ValidatorWeight', validationID, nonce, weight };
    }
    if (typeId !== REGISTER_L1_VALIDATOR_TYPE_ID) return undefined;
    const subnetID = r.fixed(ID_LENGTH, 'subnetID');
    const nodeID = r.varBytes('nodeID');
    const blsPublicKey = r.fixed(BLS_PUBLIC_KEY_LENGTH, 'BLS public key');
    const expiry = r.u64('expiry');
    const remainingBalanceOwner = readPChainOwner(r);
    const disableOwner = readPChainOwner(r);
    const weight = r.u64('weight');
    r.end();
    return { kind: 'RegisterL1Validator', subnetID, nodeID, blsPublicKey, expiry, remainingBalanceOwner, disableOwner, weight, validationID: sha256(inner) };
  } catch (e) {
    if (e instanceof CodecError) return undefined;
    throw e;
  }
}

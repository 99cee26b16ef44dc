// The P-Chain's tx fields that are not generic to all chains: validators, owner and
// authorization interface fields, BLS signers, L1 validators. Kept apart from pvm.ts so the tx
// layouts there read as lists of fields; warp.ts reads P-Chain owners and BLS keys from here too.
import { ByteReader, ByteWriter } from './io.js';
import { ADDRESS_LENGTH, expectTypeId, NODE_ID_LENGTH, readIndices, readList, readOwners, writeIndices, writeList, writeOwners } from './parts.js';
import type { L1Validator, OutputOwners, PChainOwner, Signer, Validator } from './types.js';

export const BLS_PUBLIC_KEY_LENGTH = 48;
export const BLS_SIGNATURE_LENGTH = 96;

/** Type IDs of the P-Chain's interface-typed parts. */
export const AUTH_TYPE_ID = 10; // secp256k1fx.Input
export const OWNERS_TYPE_ID = 11; // secp256k1fx.OutputOwners
export const EMPTY_SIGNER_TYPE_ID = 27;
export const POP_SIGNER_TYPE_ID = 28;

export function writeValidator(w: ByteWriter, v: Validator): void {
  w.fixed(v.nodeID, NODE_ID_LENGTH, 'nodeID');
  w.u64(v.start);
  w.u64(v.end);
  w.u64(v.weight);
}

export function readValidator(r: ByteReader): Validator {
  const nodeID = r.fixed(NODE_ID_LENGTH, 'nodeID');
  const start = r.u64('start');
  const end = r.u64('end');
  return { nodeID, start, end, weight: r.u64('weight') };
}

/** An owner interface field (rewards owner, subnet owner, validator authority): type 11 + OutputOwners. */
export function writeOwnerField(w: ByteWriter, owners: OutputOwners): void {
  w.u32(OWNERS_TYPE_ID);
  writeOwners(w, owners);
}

export function readOwnerField(r: ByteReader, what: string): OutputOwners {
  expectTypeId(r, OWNERS_TYPE_ID, what);
  return readOwners(r);
}

/** An authorization field (subnetAuth, disableAuth, auth): type 10 + sigIndices. */
export function writeAuth(w: ByteWriter, sigIndices: number[]): void {
  w.u32(AUTH_TYPE_ID);
  writeIndices(w, sigIndices);
}

export function readAuth(r: ByteReader, what: string): number[] {
  expectTypeId(r, AUTH_TYPE_ID, what);
  return readIndices(r);
}

export function writeSigner(w: ByteWriter, s: Signer): void {
  if (s.kind === 'EmptySigner') return w.u32(EMPTY_SIGNER_TYPE_ID);
  w.u32(POP_SIGNER_TYPE_ID);
  w.fixed(s.publicKey, BLS_PUBLIC_KEY_LENGTH, 'BLS public key');
  w.fixed(s.signature, BLS_SIGNATURE_LENGTH, 'proof of possession');
}

export function readSigner(r: ByteReader): Signer {
  const at = r.offset;
  const id = r.u32('signer type ID');
  if (id === EMPTY_SIGNER_TYPE_ID) return { kind: 'EmptySigner' };
  if (id !== POP_SIGNER_TYPE_ID) r.fail(`a signer must have type ID 27 or 28, not ${id}`, at);
  const publicKey = r.fixed(BLS_PUBLIC_KEY_LENGTH, 'BLS public key');
  return { kind: 'ProofOfPossession', publicKey, signature: r.fixed(BLS_SIGNATURE_LENGTH, 'proof of possession') };
}

function writePChainOwner(w: ByteWriter, o: PChainOwner): void {
  w.u32(o.threshold);
  writeList(w, o.addresses, (a) => w.fixed(a, ADDRESS_LENGTH, 'address'));
}

export function readPChainOwner(r: ByteReader): PChainOwner {
  const threshold = r.u32('threshold');
  return { threshold, addresses: readList(r, ADDRESS_LENGTH, 'addresses', () => r.fixed(ADDRESS_LENGTH, 'address')) };
}

export function writeL1Validator(w: ByteWriter, v: L1Validator): void {
  w.varBytes(v.nodeID);
  w.u64(v.weight);
  w.u64(v.balance);
  w.fixed(v.publicKey, BLS_PUBLIC_KEY_LENGTH, 'BLS public key');
  w.fixed(v.signature, BLS_SIGNATURE_LENGTH, 'proof of possession');
  writePChainOwner(w, v.remainingBalanceOwner);
  writePChainOwner(w, v.deactivationOwner);
}

export function readL1Validator(r: ByteReader): L1Validator {
  const nodeID = r.varBytes('nodeID');
  const weight = r.u64('weight');
  const balance = r.u64('balance');
  const publicKey = r.fixed(BLS_PUBLIC_KEY_LENGTH, 'BLS public key');
  const signature = r.fixed(BLS_SIGNATURE_LENGTH, 'proof of possession');
  const remainingBalanceOwner = readPChainOwner(r);
  return { nodeID, weight, balance, publicKey, signature, remainingBalanceOwner, deactivationOwner: readPChainOwner(r) };
}

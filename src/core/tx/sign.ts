// Signing a built or dApp-supplied transaction: work out which address must sign each credential
// (from the spent UTXOs' owners, and for a P-Chain authorization from the owner it answers to),
// sign each distinct key once, and check every signature by recovering its signer before
// anything leaves the wallet.
// The signing rules: docs/protocol.md §Signing.
import { sha256 } from '@noble/hashes/sha2.js';
import { type Bytes, equalBytes, toHex } from '../bytes.js';
import { appendCredentials, decodeSignedTx, encodeUnsignedTx } from '../codec/codec.js';
import { utxoId } from '../codec/ids.js';
import { authorizationOf } from '../codec/pvm-rules.js';
import { ownersOf } from '../codec/rules.js';
import type {
  Credential,
  CredentialFx,
  FxOperation,
  Input,
  OutputOwners,
  TransferableInput,
  UnsignedTx,
  Utxo,
  UtxoRef,
  Vm,
} from '../codec/types.js';
import { cb58Encode } from '../encoding.js';
import { SigningError, ValidationError } from '../errors.js';
import { evmAddressFromPublicKey, type KeyPair, recoverSigner, signDigest } from '../keys.js';
import type { BuiltTx } from './built.js';

export const EMPTY_SIGNATURE = new Uint8Array(65);

export interface Keychain {
  byShortId(shortId: Bytes): KeyPair | undefined;
  byEvmAddress(address: Bytes): KeyPair | undefined;
}

export function keychainOf(keys: Iterable<KeyPair>): Keychain {
  const byShort = new Map<string, KeyPair>();
  const byEvm = new Map<string, KeyPair>();
  for (const k of keys) {
    byShort.set(toHex(k.shortId), k);
    byEvm.set(toHex(k.evmAddress), k);
  }
  return {
    byShortId: (id) => byShort.get(toHex(id)),
    byEvmAddress: (a) => byEvm.get(toHex(a)),
  };
}

/** Who must sign one credential: 20-byte short IDs, or EVM addresses for C-Chain export inputs. */
export interface RequiredCredential {
  fx: CredentialFx;
  signers: Bytes[];
  evm: boolean;
  /**
   * Slots after `signers` whose signer the wallet cannot tell: an authorization whose owner it
   * could not look up. They keep a signature the tx already carries, else stay empty.
   */
  unknownSigners?: number;
}

/**
 * The output index under which a list of spent UTXOs carries the owner an authorization answers
 * to (subnet owner, validator authority), keyed by the ID that names that owner. No tx can have
 * that many outputs, so no real UTXO has it; an input that names it is refused.
 */
export const AUTHORITY_OUTPUT_INDEX = 0xffffffff;

/** The record of an authorizing owner, to carry among spent UTXOs. */
export function authorityRecord(id: Bytes, owners: OutputOwners): Utxo {
  return { txID: id, outputIndex: AUTHORITY_OUTPUT_INDEX, assetID: new Uint8Array(32), output: { kind: 'TransferOutput', amount: 0n, owners } };
}

/** The owner a tx's authorization answers to, when `lookup` carries its record. */
export function authorityOwnerOf(tx: UnsignedTx, lookup: UtxoLookup): OutputOwners | undefined {
  const auth = tx.vm === 'pvm' ? authorizationOf(tx) : undefined;
  const record = auth && lookup({ txID: auth.id, outputIndex: AUTHORITY_OUTPUT_INDEX });
  return record ? ownersOf(record.output) : undefined;
}

export type UtxoLookup = (ref: UtxoRef) => Utxo | undefined;

/** Map key of a UTXO reference: hex, not utxoId's CB58 (a sha256 and a base58 pass per call). */
function refKey(ref: UtxoRef): string {
  return `${toHex(ref.txID)}:${ref.outputIndex}`;
}

export function utxoLookupOf(utxos: Iterable<Utxo>): UtxoLookup {
  const map = new Map<string, Utxo>();
  for (const u of utxos) map.set(refKey(u), u);
  return (ref) => map.get(refKey(ref));
}

function sigIndicesOf(input: Input): number[] {
  return input.kind === 'StakeableLockIn' ? input.input.sigIndices : input.sigIndices;
}

function signersFor(utxo: Utxo, sigIndices: number[], ref: UtxoRef): Bytes[] {
  const owners = ownersOf(utxo.output);
  return sigIndices.map((i) => {
    const address = owners.addresses[i];
    if (!address) throw new ValidationError(`signature index ${i} is out of range for UTXO ${utxoId(ref)}`);
    return address;
  });
}

function inputCredential(input: TransferableInput, lookup: UtxoLookup): RequiredCredential {
  if (input.outputIndex === AUTHORITY_OUTPUT_INDEX) throw new ValidationError(`input ${utxoId(input)} names an output index no transaction has`);
  const utxo = lookup(input);
  if (!utxo) throw new ValidationError(`the UTXO ${utxoId(input)} spent by this transaction is unknown`);
  if (!equalBytes(utxo.assetID, input.assetID)) {
    throw new ValidationError(`input ${utxoId(input)} names another asset than its UTXO`);
  }
  return { fx: 'secp', signers: signersFor(utxo, sigIndicesOf(input.input), input), evm: false };
}

function operationFx(op: FxOperation): CredentialFx {
  if (op.kind === 'SecpMintOperation') return 'secp';
  if (op.kind === 'NftMintOperation' || op.kind === 'NftTransferOperation') return 'nft';
  return 'property';
}

function operationSigIndices(op: FxOperation): number[] {
  return 'mintInput' in op ? op.mintInput : op.input;
}

/**
 * The credentials a tx needs, in the node's order: inputs, imported inputs, operations, then a
 * P-Chain authorization (its owner read from `lookup`, see authorityRecord).
 */
export function requiredCredentials(tx: UnsignedTx, lookup: UtxoLookup): RequiredCredential[] {
  if (tx.vm === 'evm') {
    if (tx.kind === 'ExportTx') return tx.ins.map((i) => ({ fx: 'secp', signers: [i.address], evm: true }));
    return tx.importedInputs.map((i) => inputCredential(i, lookup));
  }
  const creds = tx.inputs.map((i) => inputCredential(i, lookup));
  if (tx.kind === 'ImportTx') for (const i of tx.importedInputs) creds.push(inputCredential(i, lookup));
  const auth = tx.vm === 'pvm' ? authorizationOf(tx) : undefined;
  if (auth) {
    // The authorization's credential comes last: its sigIndices index the authorizing owner.
    const owner = authorityOwnerOf(tx, lookup);
    if (!owner) {
      creds.push({ fx: 'secp', signers: [], evm: false, unknownSigners: auth.sigIndices.length });
    } else {
      const signers = auth.sigIndices.map((i) => {
        const address = owner.addresses[i];
        if (!address) throw new ValidationError(`authorization signature index ${i} is out of range for its ${owner.addresses.length} owner addresses`);
        return address;
      });
      creds.push({ fx: 'secp', signers, evm: false });
    }
  }
  if (tx.kind === 'OperationTx') {
    for (const op of tx.operations) {
      if (op.utxoIDs.length !== 1) throw new ValidationError('an operation must consume exactly one UTXO');
      const ref = op.utxoIDs[0]!;
      const utxo = lookup(ref);
      if (!utxo) throw new ValidationError(`the UTXO ${utxoId(ref)} used by an operation is unknown`);
      creds.push({ fx: operationFx(op.op), signers: signersFor(utxo, operationSigIndices(op.op), ref), evm: false });
    }
  }
  return creds;
}

export interface SignedResult {
  unsignedBytes: Bytes;
  signedBytes: Bytes;
  credentials: Credential[];
  txID: string;
  /** False when some signer's key is not in the keychain (its slots hold empty signatures). */
  complete: boolean;
}

function keyFor(keychain: Keychain, signer: Bytes, evm: boolean): KeyPair | undefined {
  return evm ? keychain.byEvmAddress(signer) : keychain.byShortId(signer);
}

/**
 * Signs every credential slot the keychain can sign; each distinct key signs the digest once.
 * With `allowPartial`, unknown signers get empty signatures (for multisig hand-offs); otherwise
 * a missing key is an error. Signatures already present in `existing` are kept.
 */
export function signTx(
  tx: UnsignedTx,
  required: RequiredCredential[],
  keychain: Keychain,
  options: { allowPartial?: boolean; existing?: Credential[]; unsignedBytes?: Bytes } = {},
): SignedResult {
  const unsignedBytes = options.unsignedBytes ?? encodeUnsignedTx(tx);
  const digest = sha256(unsignedBytes);
  // One signature per distinct key, looked up by the keychain's KeyPair object (no hex per slot).
  const cache = new Map<KeyPair, Bytes>();
  let complete = true;
  const credentials = required.map((cred, c): Credential => {
    const unknown = Array.from({ length: cred.unknownSigners ?? 0 }, (_, k) => {
      const prior = options.existing?.[c]?.signatures[cred.signers.length + k];
      if (prior && !equalBytes(prior, EMPTY_SIGNATURE)) return prior;
      if (!options.allowPartial) throw new SigningError(`the wallet cannot tell who signs credential ${c}`);
      complete = false;
      return EMPTY_SIGNATURE;
    });
    const signatures = cred.signers.map((signer, s) => {
      const prior = options.existing?.[c]?.signatures[s];
      if (prior && !equalBytes(prior, EMPTY_SIGNATURE)) return prior;
      const key = keyFor(keychain, signer, cred.evm);
      if (!key) {
        if (!options.allowPartial) throw new SigningError(`no key in this wallet for signer ${toHex(signer)}`);
        complete = false;
        return EMPTY_SIGNATURE;
      }
      let sig = cache.get(key);
      if (!sig) {
        sig = signDigest(key.secret, digest);
        cache.set(key, sig);
      }
      return sig;
    });
    return { fx: cred.fx, signatures: [...signatures, ...unknown] };
  });
  verifyCredentials(digest, required, credentials, { allowEmpty: !complete });
  const signedBytes = appendCredentials(unsignedBytes, tx.vm, credentials);
  return { unsignedBytes, signedBytes, credentials, txID: cb58Encode(sha256(signedBytes)), complete };
}

/**
 * Recovers every signature and checks it against the address that must sign that slot. Throws
 * SigningError naming the first mismatch.
 */
export function verifyCredentials(
  digest: Bytes,
  required: RequiredCredential[],
  credentials: Credential[],
  options: { allowEmpty?: boolean } = {},
): void {
  if (credentials.length !== required.length) {
    throw new SigningError(`expected ${required.length} credentials, found ${credentials.length}`);
  }
  // One key's signature fills every slot that key signs: recover each distinct signature once (a
  // recovery costs about five signings) and check every slot against it.
  const recovered = new Map<string, { publicKey: Bytes; shortId: Bytes }>();
  required.forEach((cred, c) => {
    const got = credentials[c]!;
    if (got.fx !== cred.fx) throw new SigningError(`credential ${c} has the wrong type`);
    const needed = cred.signers.length + (cred.unknownSigners ?? 0);
    if (got.signatures.length !== needed) {
      throw new SigningError(`credential ${c} needs ${needed} signatures, has ${got.signatures.length}`);
    }
    got.signatures.forEach((sig, s) => {
      // A slot whose signer is unknown holds what the tx came with: nothing to check it against.
      if (s >= cred.signers.length) return;
      if (options.allowEmpty && equalBytes(sig, EMPTY_SIGNATURE)) return;
      const key = toHex(sig);
      let signer = recovered.get(key);
      if (!signer) recovered.set(key, (signer = recoverSigner(digest, sig)));
      const { publicKey, shortId } = signer;
      const address = cred.evm ? evmAddressFromPublicKey(publicKey) : shortId;
      if (!equalBytes(address, cred.signers[s]!)) {
        throw new SigningError(`signature ${s} of credential ${c} is not from the required signer`);
      }
    });
  });
}

/**
 * A built tx, signed by `keys` in one call: every credential slot its spent UTXOs (and, on the
 * P-Chain, its authorization) require, each signature checked before the bytes are returned.
 * SigningError when a required key is not among `keys`.
 */
export function signBuilt(built: BuiltTx, keys: Iterable<KeyPair>): SignedResult {
  return signTx(built.tx, requiredCredentials(built.tx, utxoLookupOf(built.spent)), keychainOf(keys));
}

/**
 * Checks a signed X, P or C-atomic tx: it decodes strictly, and every signature is by the address
 * that must sign its slot, given the UTXOs it spends (`spent`). SigningError or CodecError if not.
 */
export function verifySignedTx(signedBytes: Bytes, vm: Vm, spent: Iterable<Utxo>): void {
  const decoded = decodeSignedTx(signedBytes, vm);
  const digest = sha256(signedBytes.subarray(0, decoded.unsignedLength));
  verifyCredentials(digest, requiredCredentials(decoded.unsigned, utxoLookupOf(spent)), decoded.credentials);
}

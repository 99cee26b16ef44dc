// Signing a built or dApp-supplied transaction: work out which address must sign each credential
// (from the spent UTXOs' owners, and for a P-Chain authorization from the owner it answers to),
// sign each distinct key once, and check every signature before anything leaves the wallet: the
// wallet's own against their key (checkOwnSignatures), any other by recovering its signer.
// The signing rules: docs/protocol.md §Signing.
import { sha256 } from '@noble/hashes/sha2.js';
import { byteKey, type Bytes, equalBytes, toHex } from '../bytes.js';
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
import { checkOwnSignatures } from '../sign-check.js';
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
    byShort.set(byteKey(k.shortId), k);
    byEvm.set(byteKey(k.evmAddress), k);
  }
  return {
    byShortId: (id) => byShort.get(byteKey(id)),
    byEvmAddress: (a) => byEvm.get(byteKey(a)),
  };
}

/**
 * An account's keychain for txs a site hands in: its X/P keys and its EVM key by short ID, but only
 * the EVM key by EVM address. The wallet holds C-Chain funds only there, so an input from another
 * key's EVM address (which the approval could not show as the wallet's) is never signed.
 */
export function accountKeychain(xp: Iterable<KeyPair>, evm: KeyPair): Keychain {
  const all = keychainOf([...xp, evm]);
  const evmOnly = keychainOf([evm]);
  return { byShortId: all.byShortId, byEvmAddress: evmOnly.byEvmAddress };
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

/** Map key of a UTXO reference: not utxoId's CB58 (a sha256 and a base58 pass per call). */
function refKey(ref: UtxoRef): string {
  return `${ref.outputIndex}:${byteKey(ref.txID)}`;
}

/**
 * Finds a UTXO by reference. A builder's inputs carry their UTXO's own txID object, so the lookup
 * tries that object first (no key to make); any other reference is found by value, through a map
 * made on the first such lookup.
 */
export function utxoLookupOf(utxos: Iterable<Utxo>): UtxoLookup {
  const list = [...utxos];
  const byObject = new Map<Bytes, Utxo | Utxo[]>();
  for (const u of list) {
    const prior = byObject.get(u.txID);
    byObject.set(u.txID, prior === undefined ? u : Array.isArray(prior) ? [...prior, u] : [prior, u]);
  }
  let byValue: Map<string, Utxo> | undefined;
  return (ref) => {
    const same = byObject.get(ref.txID);
    if (same !== undefined) {
      if (!Array.isArray(same)) {
        if (same.outputIndex === ref.outputIndex) return same;
      } else {
        // The last one wins, as in the map by value.
        for (let i = same.length - 1; i >= 0; i--) if (same[i]!.outputIndex === ref.outputIndex) return same[i];
      }
    }
    if (!byValue) {
      byValue = new Map();
      for (const u of list) byValue.set(refKey(u), u);
    }
    return byValue.get(refKey(ref));
  };
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
  // The tx ID hashes the signed bytes, which start with the unsigned ones: hash those once.
  const hasher = sha256.create().update(unsignedBytes);
  const digest = hasher.clone().digest();
  // One signature per distinct key, looked up by the keychain's KeyPair object (no hex per slot);
  // all of them checked against their keys together, before any leaves.
  const ours = new Map<KeyPair, Bytes>();
  const signerOf = new Map<Bytes, KeyPair>();
  // Slots of one owner share its address object: look each object up in the keychain once.
  const looked = { xp: new Map<Bytes, KeyPair | undefined>(), evm: new Map<Bytes, KeyPair | undefined>() };
  const lookUp = (signer: Bytes, evm: boolean): KeyPair | undefined => {
    const seen = evm ? looked.evm : looked.xp;
    if (seen.has(signer)) return seen.get(signer);
    const key = keyFor(keychain, signer, evm);
    seen.set(signer, key);
    return key;
  };
  let complete = true;
  const credentials = required.map((cred, c): Credential => {
    const prior = options.existing?.[c]?.signatures;
    const signatures: Bytes[] = [];
    for (let s = 0; s < cred.signers.length; s++) {
      const kept = prior?.[s];
      if (kept && !equalBytes(kept, EMPTY_SIGNATURE)) {
        signatures.push(kept);
        continue;
      }
      const signer = cred.signers[s]!;
      const key = lookUp(signer, cred.evm);
      if (!key) {
        if (!options.allowPartial) throw new SigningError(`no key in this wallet for signer ${toHex(signer)}`);
        complete = false;
        signatures.push(EMPTY_SIGNATURE);
        continue;
      }
      let sig = ours.get(key);
      if (!sig) {
        sig = signDigest(key.secret, digest);
        ours.set(key, sig);
        signerOf.set(sig, key);
      }
      signatures.push(sig);
    }
    for (let k = 0; k < (cred.unknownSigners ?? 0); k++) {
      const kept = prior?.[cred.signers.length + k];
      if (kept && !equalBytes(kept, EMPTY_SIGNATURE)) {
        signatures.push(kept);
        continue;
      }
      if (!options.allowPartial) throw new SigningError(`the wallet cannot tell who signs credential ${c}`);
      complete = false;
      signatures.push(EMPTY_SIGNATURE);
    }
    return { fx: cred.fx, signatures };
  });
  checkOwnSignatures(digest, Array.from(ours, ([key, signature]) => ({ key, signature })));
  verifyCredentials(digest, required, credentials, { allowEmpty: !complete, checked: signerOf });
  const signedBytes = appendCredentials(unsignedBytes, tx.vm, credentials);
  const txID = cb58Encode(hasher.update(signedBytes.subarray(unsignedBytes.length)).digest());
  return { unsignedBytes, signedBytes, credentials, txID, complete };
}

/**
 * Checks every signature against the address that must sign its slot. Throws SigningError naming
 * the first mismatch. A signature in `checked` (the object itself) was made by this wallet and
 * proven against that key (checkOwnSignatures); every other one is recovered, once per distinct
 * signature.
 */
export function verifyCredentials(
  digest: Bytes,
  required: RequiredCredential[],
  credentials: Credential[],
  options: { allowEmpty?: boolean; checked?: ReadonlyMap<Bytes, KeyPair> } = {},
): void {
  if (credentials.length !== required.length) {
    throw new SigningError(`expected ${required.length} credentials, found ${credentials.length}`);
  }
  // One key's signature fills every slot that key signs: recover each distinct signature once (a
  // recovery costs about six signings) and check every slot against it.
  interface Signer {
    shortId: Bytes;
    publicKey?: Bytes;
    evmAddress?: Bytes;
  }
  const bySignature = new Map<Bytes, Signer>();
  const recovered = new Map<string, Signer>();
  const signerOf = (sig: Bytes): Signer => {
    let signer = bySignature.get(sig);
    if (signer) return signer;
    const key = options.checked?.get(sig);
    if (key) {
      signer = key;
    } else {
      const text = byteKey(sig);
      signer = recovered.get(text);
      if (!signer) recovered.set(text, (signer = recoverSigner(digest, sig)));
    }
    bySignature.set(sig, signer);
    return signer;
  };
  for (let c = 0; c < required.length; c++) {
    const cred = required[c]!;
    const got = credentials[c]!;
    if (got.fx !== cred.fx) throw new SigningError(`credential ${c} has the wrong type`);
    const needed = cred.signers.length + (cred.unknownSigners ?? 0);
    if (got.signatures.length !== needed) {
      throw new SigningError(`credential ${c} needs ${needed} signatures, has ${got.signatures.length}`);
    }
    // Slots past `signers` have an unknown signer and hold what the tx came with: nothing to check.
    for (let s = 0; s < cred.signers.length; s++) {
      const sig = got.signatures[s]!;
      if (options.allowEmpty && equalBytes(sig, EMPTY_SIGNATURE)) continue;
      const signer = signerOf(sig);
      const address = cred.evm ? (signer.evmAddress ??= evmAddressFromPublicKey(signer.publicKey!)) : signer.shortId;
      if (!equalBytes(address, cred.signers[s]!)) {
        throw new SigningError(`signature ${s} of credential ${c} is not from the required signer`);
      }
    }
  }
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

// Message signing: the Avalanche signed-message format for X/P keys, and EIP-191 / EIP-712 for the
// EVM key (micro-eth-signer does the Ethereum encodings; we do not hand-roll them).
import { sha256 } from '@noble/hashes/sha2.js';
import { eip191Signer, signTyped, verifyTyped } from 'micro-eth-signer';
import { type Bytes, concatBytes, fromHex } from './bytes.js';
import { cb58Encode } from './encoding.js';
import { SigningError, ValidationError } from './errors.js';
import { formatEvmAddress } from './evm-address.js';
import { evmAddressOfSecret, keyPairFromSecret, recoverSigner, signDigest } from './keys.js';
import { checkOwnSignature } from './sign-check.js';

/** The node's and the Avalanche wallets' prefix: 0x1A, then the text. */
const AVALANCHE_MESSAGE_PREFIX = new TextEncoder().encode('\x1AAvalanche Signed Message:\n');
/** The message length is a 4-byte big-endian integer. */
const MAX_MESSAGE_BYTES = 0xffffffff;

/** sha256(prefix ‖ uint32 BE length ‖ message): what an X/P key signs for a message. */
export function avalancheMessageDigest(message: Bytes): Bytes {
  if (message.length > MAX_MESSAGE_BYTES) throw new ValidationError('the message is too long');
  const length = new Uint8Array(4);
  new DataView(length.buffer).setUint32(0, message.length, false);
  return sha256(concatBytes(AVALANCHE_MESSAGE_PREFIX, length, message));
}

/** The 65-byte signature (r ‖ s ‖ v) of the message, CB58 encoded as the Avalanche wallets give it. */
export function signAvalancheMessage(secret: Bytes, message: Bytes): string {
  const digest = avalancheMessageDigest(message);
  const signature = signDigest(secret, digest);
  // Checked before it leaves, as a tx's signatures are: a faulty deterministic signing leaks the key.
  checkOwnSignature(keyPairFromSecret(secret), digest, signature);
  return cb58Encode(signature);
}

/** The EVM key's address (another library than the signer's), which a message signature just made must recover to before it leaves. */
function expectedSigner(secret: Bytes): string {
  return formatEvmAddress(evmAddressOfSecret(secret));
}

/** Refuses unless `verify` says yes (a malformed signature makes the library throw: refused too). */
function mustVerify(verify: () => boolean): void {
  let ok: boolean;
  try {
    ok = verify();
  } catch {
    ok = false;
  }
  if (!ok) throw new SigningError();
}

/** The 20-byte short ID (X/P address body) that signed `message`. */
export function avalancheMessageSigner(message: Bytes, signature: Bytes): Bytes {
  return recoverSigner(avalancheMessageDigest(message), signature).shortId;
}

/** keccak256("\x19Ethereum Signed Message:\n" ‖ length ‖ message): what the EVM key signs for personal_sign. */
export function personalMessageDigest(message: Bytes): Bytes {
  return fromHex(eip191Signer.getHash(message).replace(/^0x/, ''));
}

/** EIP-191 version 0x45 ("personal_sign"): a 0x-hex signature r ‖ s ‖ v with v 27/28. */
export function signPersonalMessage(secret: Bytes, message: Bytes): string {
  const signature = eip191Signer.sign(message, secret, false);
  // Recovery is another path than signing: a faulty deterministic signing is caught before it leaves.
  mustVerify(() => eip191Signer.verify(signature, message, expectedSigner(secret)));
  return signature;
}

export interface TypedDataInput {
  types: Record<string, { name: string; type: string }[]>;
  primaryType: string;
  domain: Record<string, unknown>;
  message: Record<string, unknown>;
}

/** EIP-712 v4 signature of typed data; malformed typed data is a ValidationError. */
export function signTypedData(secret: Bytes, typed: TypedDataInput): string {
  let signature: string;
  try {
    signature = signTyped(typed as Parameters<typeof signTyped>[0], secret, false);
  } catch (e) {
    throw new ValidationError(`the typed data cannot be encoded: ${(e as Error).message}`);
  }
  mustVerify(() => verifyTyped(signature, typed as Parameters<typeof verifyTyped>[1], expectedSigner(secret)));
  return signature;
}

/** The domain fields EIP-712 knows, in its order (the library derives the domain's type so). */
const DOMAIN_FIELDS = [
  { name: 'name', type: 'string' },
  { name: 'version', type: 'string' },
  { name: 'chainId', type: 'uint256' },
  { name: 'verifyingContract', type: 'address' },
  { name: 'salt', type: 'bytes32' },
];

/**
 * One value as the signing library reads it, written the one way: an integer whose text the library
 * reads (it takes JavaScript's BigInt: spaces and newlines around it, 0x / 0o / 0b prefixes, '' as
 * 0) as its decimal digits, an address (0x + 40 hex digits in any case, checksum unchecked) in
 * lower case. A value the library refuses is left as it is (the library refuses it again).
 */
function normalisedValue(type: string, value: unknown, types: TypedDataInput['types'], depth = 0): unknown {
  // Deeper than any real typed data (the library refuses it while encoding).
  if (depth > 32) return value;
  const array = /^(.*)\[\d*\]$/.exec(type);
  if (array) return Array.isArray(value) ? value.map((v) => normalisedValue(array[1]!, v, types, depth + 1)) : value;
  if (/^u?int\d*$/.test(type)) {
    try {
      if (typeof value === 'string') return BigInt(value).toString();
      if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value).toString();
    } catch {
      return value;
    }
    return value;
  }
  if (type === 'address') return typeof value === 'string' && /^0x[0-9a-fA-F]{40}$/.test(value) ? value.toLowerCase() : value;
  // As for the library, a name of an atomic type is never a struct's.
  if (!Object.hasOwn(types, type) || typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const field of types[type]!) if (Object.hasOwn(out, field.name)) out[field.name] = normalisedValue(field.type, out[field.name], types, depth + 1);
  return out;
}

/**
 * The typed data with every integer and address written the one way the wallet reads them, encoding
 * to the same bytes as the original: what the approval decodes and shows is what is signed, and a
 * value the wallet's decoder would not read cannot hide a permit the library would still sign.
 */
export function normaliseTypedData(typed: TypedDataInput): TypedDataInput {
  const domainType = typed.types['EIP712Domain'] ?? DOMAIN_FIELDS.filter((f) => Object.hasOwn(typed.domain, f.name) && typed.domain[f.name] !== undefined);
  const types = { ...typed.types, EIP712Domain: domainType };
  return {
    types: typed.types,
    primaryType: typed.primaryType,
    domain: normalisedValue('EIP712Domain', typed.domain, types) as Record<string, unknown>,
    message: normalisedValue(typed.primaryType, typed.message, types) as Record<string, unknown>,
  };
}

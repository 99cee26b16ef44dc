// Message signing: the Avalanche signed-message format for X/P keys, and EIP-191 / EIP-712 for the
// EVM key (micro-eth-signer does the Ethereum encodings; we do not hand-roll them).
import { sha256 } from '@noble/hashes/sha2.js';
import { eip191Signer, signTyped } from 'micro-eth-signer';
import { type Bytes, concatBytes, fromHex } from './bytes.js';
import { cb58Encode } from './encoding.js';
import { ValidationError } from './errors.js';
import { recoverSigner, signDigest } from './keys.js';

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
  return cb58Encode(signDigest(secret, avalancheMessageDigest(message)));
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
  return eip191Signer.sign(message, secret, false);
}

export interface TypedDataInput {
  types: Record<string, { name: string; type: string }[]>;
  primaryType: string;
  domain: Record<string, unknown>;
  message: Record<string, unknown>;
}

/** EIP-712 v4 signature of typed data; malformed typed data is a ValidationError. */
export function signTypedData(secret: Bytes, typed: TypedDataInput): string {
  try {
    return signTyped(typed as Parameters<typeof signTyped>[0], secret, false);
  } catch (e) {
    throw new ValidationError(`the typed data cannot be encoded: ${(e as Error).message}`);
  }
}

// Key pairs, their binding, HD derivation and the two address hashes of a secp256k1 key.
// Pure: no browser APIs, so it runs unchanged in Node tests and in the service worker.
// Signing is in keys-sign.ts, mnemonics in keys-mnemonic.ts, the curve's set-up in keys-curve.ts;
// all are exported from here. The HD root stays with the key binding: only this file sets a binding.
import { secp256k1 as curves } from '@noble/curves/secp256k1.js';
import * as secp from '@noble/secp256k1';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { HARDENED_OFFSET, HDKey } from '@scure/bip32';
import { type Bytes, concatBytes, equalBytes } from './bytes.js';
import { parsePrivateKey } from './encoding.js';
import { FormatError, KeysWipedError, SigningError, ValidationError } from './errors.js';
import { isValidSecret, SECRET_LENGTH, wipe } from './keys-curve.js';

export { DIGEST_LENGTH, SECRET_LENGTH, wipe } from './keys-curve.js';
export { generateMnemonic, mnemonicToSeed, normalizeMnemonic } from './keys-mnemonic.js';
export { hashForSigning, lowSTwin, recoverSigner, signDigest } from './keys-sign.js';

// ---- key pairs and addresses ----

export interface KeyPair {
  /** 32-byte secret scalar. */
  readonly secret: Bytes;
  /** 33-byte compressed public key. */
  readonly publicKey: Bytes;
  /** 20-byte ripemd160(sha256(publicKey)): the X/P/C bech32 address body. */
  readonly shortId: Bytes;
  /** 20-byte EVM address (keccak of the uncompressed key). */
  readonly evmAddress: Bytes;
}

/** 65-byte uncompressed key → 33-byte compressed (prefix 02/03 by the parity of y). */
function compress(uncompressed: Bytes): Bytes {
  const out = new Uint8Array(33);
  out[0] = (uncompressed[64]! & 1) === 1 ? 0x03 : 0x02;
  out.set(uncompressed.subarray(1, 33), 1);
  return out;
}

/** Accepts a 33- or 65-byte SEC1 key (validated on the curve) and returns the requested form. */
function publicKeyForm(publicKey: Bytes, compressed: boolean): Bytes {
  try {
    return secp.Point.fromBytes(publicKey).toBytes(compressed);
  } catch {
    throw new FormatError(`not a valid secp256k1 public key (${publicKey.length} bytes)`);
  }
}

export function shortIdFromPublicKey(publicKey: Bytes): Bytes {
  // The node hashes the compressed form; hashing a 65-byte key would give a different address.
  const pub33 = publicKey.length === 33 ? publicKey : publicKeyForm(publicKey, true);
  return ripemd160(sha256(pub33));
}

function evmAddressOfUncompressed(uncompressed: Bytes): Bytes {
  return keccak_256(uncompressed.subarray(1)).slice(12);
}

/** EVM address of a 33- or 65-byte public key. */
export function evmAddressFromPublicKey(publicKey: Bytes): Bytes {
  return evmAddressOfUncompressed(publicKeyForm(publicKey, false));
}

// ---- key binding ----
// A key pair's public half is computed from its secret once, when the pair is made. Signing later
// must still use that secret (a byte changed in memory would sign for another key), so the pair's
// bytes are bound then by a digest, kept here where nothing else can set it: checking it costs one
// short hash, where deriving the public key again costs about one signing. The half is computed
// with @noble/curves; the first time a pair (or an HD path's pairs) signs, the signer's library
// derives it again, so a fault in that first computation is caught before a signature leaves.
interface Binding {
  readonly digest: Bytes;
  /** The signer's library has derived the same public half from the same secret. */
  proven: boolean;
}
const bindings = new WeakMap<KeyPair, Binding>();

function bindingDigest(secret: Bytes, half: PublicHalf): Bytes {
  return sha256(concatBytes(secret, half.publicKey, half.shortId, half.evmAddress));
}

const KEY_CHANGED = "this key's secret no longer gives its public key; nothing was signed";

/**
 * Throws SigningError unless the key's secret gives its public key, short ID and EVM address (what
 * the chain checks). A pair made here is checked against its binding (see above); any other object
 * has its public half derived again on every call.
 */
export function checkKeyBinding(key: KeyPair): void {
  const binding = bindings.get(key);
  // Field lengths first: the digest joins the fields without them.
  if (key.publicKey.length !== 33 || key.shortId.length !== 20 || key.evmAddress.length !== 20) throw new SigningError(KEY_CHANGED);
  if (binding) {
    if (!equalBytes(bindingDigest(key.secret, key), binding.digest)) throw new SigningError(KEY_CHANGED);
    if (binding.proven) return;
  }
  const secret = key.secret;
  if (!isValidSecret(secret)) throw new SigningError(KEY_CHANGED);
  const uncompressed = secp.getPublicKey(secret, false);
  const publicKey = compress(uncompressed);
  if (
    !equalBytes(publicKey, key.publicKey) ||
    !equalBytes(ripemd160(sha256(publicKey)), key.shortId) ||
    !equalBytes(evmAddressOfUncompressed(uncompressed), key.evmAddress)
  ) {
    throw new SigningError(KEY_CHANGED);
  }
  if (binding) binding.proven = true;
}

type PublicHalf = Omit<KeyPair, 'secret'>;

/**
 * The EVM address of a secret, derived with @noble/secp256k1: what an EVM signature (made and
 * recovered by micro-eth-signer, on @noble/curves) is checked against, so two libraries agree.
 */
export function evmAddressOfSecret(secret: Bytes): Bytes {
  if (!isValidSecret(secret)) throw new SigningError('cannot sign with an invalid private key');
  return evmAddressOfUncompressed(secp.getPublicKey(secret, false));
}

/** Builds the key pair; copies `secret`, so the caller may wipe its own buffer afterwards. */
export function keyPairFromSecret(secret: Bytes): KeyPair {
  return boundKeyPair(secret).pair;
}

const outOfRange = () => new FormatError('private key is zero or not below the curve order');

function boundKeyPair(secret: Bytes): { pair: KeyPair; binding: Binding } {
  if (secret.length !== SECRET_LENGTH) {
    throw new FormatError(`a private key holds ${SECRET_LENGTH} bytes, this one ${secret.length}`);
  }
  if (!isValidSecret(secret)) throw outOfRange();
  const own = secret.slice();
  // @noble/curves, whose generator table @scure/bip32 builds for the first HD step anyway: a
  // worker's first key then builds no second table (@noble/secp256k1's, ≈ 27 ms; signing builds
  // it later). The public half also comes from another implementation than the signer's.
  const uncompressed = curves.getPublicKey(own, false);
  const publicKey = compress(uncompressed);
  const pair: KeyPair = {
    secret: own,
    publicKey,
    shortId: ripemd160(sha256(publicKey)),
    evmAddress: evmAddressOfUncompressed(uncompressed),
  };
  const binding: Binding = { digest: bindingDigest(own, pair), proven: false };
  bindings.set(pair, binding);
  return { pair, binding };
}

/**
 * Parses a pasted private key: `PrivateKey-<cb58>` (the node's format) or 64 hex digits with or
 * without 0x (the EVM wallets' format). Returns the 32 validated secret bytes.
 */
export function parseSecretKey(text: string): Bytes {
  const trimmed = text.trim();
  let secret: Bytes;
  if (trimmed.startsWith('PrivateKey-')) {
    secret = parsePrivateKey(trimmed);
  } else {
    const body = /^0x/i.test(trimmed) ? trimmed.slice(2) : trimmed;
    if (!/^[0-9a-fA-F]*$/.test(body)) {
      throw new FormatError('a private key is PrivateKey-… or 64 hex digits; this contains other characters');
    }
    if (body.length !== 64) {
      throw new FormatError(`a hex private key has 64 hex digits, this one ${body.length}`);
    }
    secret = Uint8Array.from(body.match(/../g)!, (h) => parseInt(h, 16));
  }
  if (!isValidSecret(secret)) {
    wipe(secret);
    throw outOfRange();
  }
  return secret;
}

// ---- HD derivation ----

export const XP_COIN_TYPE = 9000;
export const EVM_COIN_TYPE = 60;
/** The highest index of a BIP-32 path step (below the hardened offset): an HD account's too. */
export const MAX_INDEX = 0x7fffffff;

function checkIndex(value: number, field: string): void {
  if (!Number.isInteger(value) || value < 0 || value > MAX_INDEX) {
    throw new ValidationError(`${field} must be an integer from 0 to ${MAX_INDEX}`, field);
  }
}

/** Account-level node of the X/P keys, m/44'/9000'/{account}' (its xpub covers both chains). */
export function xpAccountPath(account: number): string {
  checkIndex(account, 'account');
  return `m/44'/${XP_COIN_TYPE}'/${account}'`;
}

/**
 * X/P key path. Account 0 is the web wallet's layout; Core's BIP-44 mode puts its account i at
 * m/44'/9000'/0'/0/i (inside account 0 here, found by its gap scan), so accounts ≥ 1 here are not
 * Core's on X/P (docs/protocol.md §Encodings).
 */
export function xpPath(account: number, change: 0 | 1, index: number): string {
  if (change !== 0 && change !== 1) throw new ValidationError('change must be 0 (external) or 1 (change)', 'change');
  checkIndex(index, 'index');
  return `${xpAccountPath(account)}/${change}/${index}`;
}

/** EVM key path: the account number is the last (address) index, as in Core and MetaMask. */
export function evmPath(account: number): string {
  checkIndex(account, 'account');
  return `m/44'/${EVM_COIN_TYPE}'/0'/0/${account}`;
}

const PATH_RE = /^m(\/\d+'?)*$/;

/**
 * The BIP-32 master node of one seed. Parent nodes are cached by path, so deriving many
 * siblings (address scans) costs one child step each instead of a walk from the root. The public
 * half of each key (public key, short ID, EVM address) is kept by path too: a key asked for again
 * (every engine the wallet opens asks for all of an account's addresses) comes without any curve
 * arithmetic, and its secret is derived only if something reads it (a signer), once.
 */
export class HdRoot {
  readonly #master: HDKey;
  readonly #parents = new Map<string, HDKey>();
  readonly #publicHalves = new Map<string, { half: PublicHalf; binding: Binding }>();
  #wiped = false;
  /** Every secret derived for a pair it handed out (one each, read by signers only), zeroed by wipe(). */
  readonly #secrets: Bytes[] = [];

  private constructor(master: HDKey) {
    this.#master = master;
  }

  static fromSeed(seed: Bytes): HdRoot {
    if (seed.length < 16 || seed.length > 64) {
      throw new FormatError(`a BIP-32 seed holds 16 to 64 bytes, this one ${seed.length}`);
    }
    return new HdRoot(HDKey.fromMasterSeed(seed));
  }

  /** The key pair at an absolute path such as m/44'/9000'/0'/0/5 (hardened steps marked '). */
  keyAt(path: string): KeyPair {
    if (!PATH_RE.test(path)) throw new FormatError(`not a BIP-32 path: ${path}`);
    const steps = path.split('/').slice(1);
    if (steps.some((step) => Number.parseInt(step, 10) > MAX_INDEX)) {
      throw new FormatError(`BIP-32 index out of range in ${path}`);
    }
    if (this.#wiped) throw new KeysWipedError();
    const known = this.#publicHalves.get(path);
    if (known) return this.#pair(path, known);
    const raw = this.#secretAt(path);
    try {
      const { pair, binding } = boundKeyPair(raw);
      const half = { publicKey: pair.publicKey.slice(), shortId: pair.shortId.slice(), evmAddress: pair.evmAddress.slice() };
      const entry = { half, binding };
      this.#publicHalves.set(path, entry);
      this.#secrets.push(pair.secret);
      return this.#pair(path, entry, pair.secret);
    } finally {
      wipe(raw);
    }
  }

  /**
   * A key pair whose secret is read through the root: derived at its first read, and refused once
   * the root is wiped (every secret derived is zeroed then, so a holder of a pair from before a
   * lock, such as a move's engine, can no longer sign).
   */
  #pair(path: string, known: { half: PublicHalf; binding: Binding }, first?: Bytes): KeyPair {
    let secret = first;
    const derive = (): Bytes => {
      if (this.#wiped) throw new KeysWipedError();
      if (!secret) this.#secrets.push((secret = this.#secretAt(path)));
      return secret;
    };
    // The checked signer proves, through the binding, that the secret derived now is the one
    // this public half was computed from, before any signature leaves.
    // Copies of the public half: a holder that changes its pair's bytes changes no other pair.
    const { publicKey, shortId, evmAddress } = known.half;
    const pair: KeyPair = {
      publicKey: publicKey.slice(),
      shortId: shortId.slice(),
      evmAddress: evmAddress.slice(),
      get secret(): Bytes {
        return derive();
      },
    };
    bindings.set(pair, known.binding);
    return pair;
  }

  /** Drops every private key this root holds; the root is unusable afterwards. */
  wipe(): void {
    this.#wiped = true;
    for (const secret of this.#secrets) wipe(secret);
    this.#secrets.length = 0;
    for (const node of this.#parents.values()) node.wipePrivateData();
    this.#parents.clear();
    this.#master.wipePrivateData();
  }

  #parent(path: string): HDKey {
    if (path === 'm') return this.#master;
    let node = this.#parents.get(path);
    if (!node) {
      node = this.#master.derive(path);
      this.#parents.set(path, node);
    }
    return node;
  }

  /** A copy of the secret at `path` (the derived node's own copy is wiped). */
  #secretAt(path: string): Bytes {
    if (this.#wiped) throw new KeysWipedError();
    const slash = path.lastIndexOf('/');
    if (slash < 0) return this.#copyOf(this.#master);
    const last = path.slice(slash + 1);
    const hardened = last.endsWith("'");
    const index = Number(hardened ? last.slice(0, -1) : last);
    const child = this.#parent(path.slice(0, slash)).deriveChild(index + (hardened ? HARDENED_OFFSET : 0));
    try {
      return this.#copyOf(child);
    } finally {
      child.wipePrivateData();
    }
  }

  #copyOf(node: HDKey): Bytes {
    const secret = node.privateKey;
    if (!secret) throw new KeysWipedError();
    return secret.slice();
  }
}

/** X/P key m/44'/9000'/{account}'/{change}/{index}. */
export function deriveXpKey(root: HdRoot, account: number, change: 0 | 1, index: number): KeyPair {
  return root.keyAt(xpPath(account, change, index));
}

/** C-Chain EVM key m/44'/60'/0'/0/{account}. */
export function deriveEvmKey(root: HdRoot, account: number): KeyPair {
  return root.keyAt(evmPath(account));
}

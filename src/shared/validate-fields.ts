// The building blocks of the request validators (src/shared/validate.ts): the limits on every
// field, and one checker per kind of field (strings, amounts, IDs, addresses, owner sets, URLs).
// Each returns the clean value or throws ValidationError naming the field; none repeats the value.
import { toHex } from '../core/bytes.js';
import { MAX_MEMO_SIZE } from '../core/codec/avm-rules.js';
import { parseUtxoId } from '../core/codec/ids.js';
import { parseAddress, parseId } from '../core/encoding.js';
import { ValidationError, WalletError } from '../core/errors.js';
import { parseEvmAddress } from '../core/evm-address.js';
import type { Amount, ChainName, OwnerSet } from './messages.js';

export const MAX_PASSWORD_LENGTH = 1024;
export const MAX_NAME_LENGTH = 64;
export const MAX_MNEMONIC_LENGTH = 300;
export const MAX_MNEMONIC_WORDS = 24;
export const MAX_URL_LENGTH = 2048;
/** Account and network IDs: the wallet makes them short ([A-Za-z0-9_-]). */
export const MAX_ID_LENGTH = 64;
export const MAX_OWNERS = 64;
export const MAX_HOLDERS = 64;
export const MAX_MINTERS = 64;
export const MAX_NFT_RECIPIENTS = 64;
/** The idle lock's range, in whole minutes ('never' aside): the shortest is what the idle alarm's period can keep. */
export const MIN_IDLE_LOCK_MINUTES = 1;
export const MAX_IDLE_LOCK_MINUTES = 24 * 60;
export const MAX_DENOMINATION = 32;
/** Hidden asset IDs kept per network. */
export const MAX_HIDDEN_ASSETS = 200;
export const U64_MAX = (1n << 64n) - 1n;
export const U256_MAX = (1n << 256n) - 1n;
export const U32_MAX = 0xffff_ffff;

// Bounds on raw string lengths, checked before any parsing.
export const MAX_ADDRESS_LENGTH = 128;
export const MAX_CB58_ID_LENGTH = 64;
export const MAX_UTXO_ID_LENGTH = MAX_CB58_ID_LENGTH + 11;
export const MAX_EVM_ADDRESS_LENGTH = 64;
export const MAX_PRIVATE_KEY_LENGTH = 128;
export const MAX_NAMESPACE_LENGTH = 64;

export type Fields = Record<string, unknown>;

export function fail(field: string, message: string): never {
  throw new ValidationError(`${field}: ${message}`, field);
}

export function child(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

export function item(path: string, index: number): string {
  return `${path}[${index}]`;
}

/**
 * A plain object with exactly the allowed keys. A key whose value is `undefined` counts as absent
 * (JSON drops such keys; structured clone, as Firefox uses, keeps them).
 */
export function record(value: unknown, path: string, required: readonly string[], optional: readonly string[] = []): Fields {
  const label = path === '' ? 'params' : path;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(label, 'must be an object');
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) fail(label, 'must be a plain object');
  const fields = value as Fields;
  for (const key of Object.keys(fields)) {
    if (!required.includes(key) && !optional.includes(key)) fail(child(path, key), 'unknown field');
  }
  for (const key of required) {
    if (!Object.hasOwn(fields, key) || fields[key] === undefined) fail(child(path, key), 'is required');
  }
  return fields;
}

export function present(fields: Fields, key: string): boolean {
  return Object.hasOwn(fields, key) && fields[key] !== undefined;
}

export interface StringRules {
  min?: number;
  max: number;
  /** Says what the limit counts, for the error message. */
  unit?: string;
}

/** A string of `min`…`max` UTF-16 code units, with no lone surrogates. */
export function str(value: unknown, field: string, rules: StringRules): string {
  if (typeof value !== 'string') fail(field, 'must be a string');
  const min = rules.min ?? 0;
  if (value.length < min) fail(field, min === 1 ? 'must not be empty' : `must be at least ${min} characters`);
  if (value.length > rules.max) fail(field, `must be at most ${rules.max} ${rules.unit ?? 'characters'}`);
  if (!value.isWellFormed()) fail(field, 'contains an unpaired surrogate (malformed text)');
  return value;
}

export function bool(value: unknown, field: string): boolean {
  if (typeof value !== 'boolean') fail(field, 'must be true or false');
  return value;
}

export function int(value: unknown, field: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) fail(field, 'must be a whole number');
  if (value < min || value > max) fail(field, `must be from ${min} to ${max}`);
  return value;
}

export function oneOf<V extends string | number>(value: unknown, field: string, allowed: readonly V[]): V {
  if (!allowed.includes(value as V)) fail(field, `must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}`);
  return value as V;
}

export function array(value: unknown, field: string, min: number, max: number): unknown[] {
  if (!Array.isArray(value)) fail(field, 'must be an array');
  if (value.length < min) fail(field, min === 1 ? 'must not be empty' : `must hold at least ${min} entries`);
  if (value.length > max) fail(field, `must hold at most ${max} entries`);
  return value;
}

export function hasControlChars(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

/**
 * Characters that show nothing and join nothing (zero-width spaces, soft hyphens, fillers, bidi
 * controls, a blank braille cell); not the joiner, variation selectors and tags emoji are made of.
 */
const SHOWS_NOTHING = /(?!\u200d|\p{Variation_Selector}|[\u{e0020}-\u{e007f}])(?:\p{Default_Ignorable_Code_Point}|\u2800)/gu;

/** Bidi overrides, embeddings and isolates: they can make a name show as another (U+202E then "sgnivaS" shows "Savings"). */
const REORDERS = /[\u202a-\u202e\u2066-\u2069]/u;

/**
 * Whether two display names read as one: letter case, Unicode forms, characters that show nothing
 * and spaces at the ends or repeated aside. Accounts must differ by name: lists, approvals and sites
 * tell them apart by it.
 */
export function sameDisplayName(a: string, b: string): boolean {
  const key = (s: string) => s.replace(SHOWS_NOTHING, '').normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();
  return key(a) === key(b);
}

/** A display name (account, network): 1–64 characters, no control characters nor bidi controls, not only spaces or what shows nothing. */
export function displayName(value: unknown, field: string): string {
  const s = str(value, field, { min: 1, max: MAX_NAME_LENGTH });
  if (s.replace(SHOWS_NOTHING, '').trim() === '') fail(field, 'must not be blank');
  if (hasControlChars(s)) fail(field, 'must not contain control characters');
  if (REORDERS.test(s)) fail(field, 'must not contain characters that reverse the direction of the text');
  return s;
}

export function password(value: unknown, field: string): string {
  return str(value, field, { min: 1, max: MAX_PASSWORD_LENGTH });
}

export function mnemonic(value: unknown, field: string): string {
  const s = str(value, field, { min: 1, max: MAX_MNEMONIC_LENGTH });
  const words = s.trim().split(/\s+/).filter((w) => w !== '');
  if (words.length === 0) fail(field, 'must not be blank');
  if (words.length > MAX_MNEMONIC_WORDS) fail(field, `must have at most ${MAX_MNEMONIC_WORDS} words`);
  return s;
}

export const PRIVATE_KEY_CB58 = /^PrivateKey-[1-9A-HJ-NP-Za-km-z]+$/;
export const PRIVATE_KEY_HEX = /^(0x)?[0-9a-f]{64}$/i;

/**
 * The shape of a pasted private key (PrivateKey-<cb58> or 64 hex digits, optionally 0x), trimmed.
 * The key itself is parsed and checked by the wallet service, so no secret bytes exist here.
 */
export function privateKey(value: unknown, field: string): string {
  const s = str(value, field, { min: 1, max: MAX_PRIVATE_KEY_LENGTH }).trim();
  if (!PRIVATE_KEY_CB58.test(s) && !PRIVATE_KEY_HEX.test(s)) {
    fail(field, 'a private key is PrivateKey-… or 64 hex digits');
  }
  return s;
}

export const LOCAL_ID = /^[A-Za-z0-9_-]+$/;

/** An account or network ID. */
export function localId(value: unknown, field: string): string {
  const s = str(value, field, { min: 1, max: MAX_ID_LENGTH });
  if (!LOCAL_ID.test(s)) fail(field, 'is not a valid ID');
  return s;
}

export const AMOUNT = /^(0|[1-9][0-9]*)$/;

/** A decimal base-unit amount no larger than `max`; `positive` refuses zero. */
export function amount(value: unknown, field: string, max: bigint, positive: boolean): Amount {
  if (typeof value !== 'string') fail(field, 'must be a decimal string');
  if (!AMOUNT.test(value)) fail(field, 'must be a whole number in base units: digits only, no sign, no leading zeros');
  if (value.length > max.toString().length || BigInt(value) > max) fail(field, `must be at most ${max}`);
  if (positive && value === '0') fail(field, 'must be greater than zero');
  return value;
}

export function chainName(value: unknown, field: string): ChainName {
  return oneOf(value, field, ['X', 'P', 'C'] as const);
}

/** A 32-byte CB58 ID (asset ID, tx ID), trimmed. */
export function cb58Id(value: unknown, field: string): string {
  const s = str(value, field, { min: 1, max: MAX_CB58_ID_LENGTH }).trim();
  try {
    parseId(s);
  } catch (e) {
    fail(field, `not a valid ID: ${reason(e)}`);
  }
  return s;
}

export function utxoIdString(value: unknown, field: string): string {
  const s = str(value, field, { min: 1, max: MAX_UTXO_ID_LENGTH }).trim();
  try {
    parseUtxoId(s);
  } catch (e) {
    fail(field, `not a valid UTXO ID: ${reason(e)}`);
  }
  return s;
}

export function reason(e: unknown): string {
  return e instanceof WalletError ? e.message : 'malformed';
}

/** A bech32 chain address `<chain>-<hrp>1…` of 20 bytes, trimmed; returns its bytes as hex too. */
export function chainAddress(value: unknown, field: string): { text: string; key: string } {
  const s = str(value, field, { min: 1, max: MAX_ADDRESS_LENGTH }).trim();
  try {
    return { text: s, key: toHex(parseAddress(s).bytes) };
  } catch (e) {
    fail(field, `not a valid address: ${reason(e)}`);
  }
}

export function evmAddress(value: unknown, field: string): string {
  const s = str(value, field, { min: 1, max: MAX_EVM_ADDRESS_LENGTH }).trim();
  try {
    parseEvmAddress(s);
  } catch (e) {
    fail(field, reason(e));
  }
  return s;
}

export function ownerSet(value: unknown, path: string): OwnerSet {
  const f = record(value, path, ['addresses', 'threshold'], ['locktime']);
  const list = array(f.addresses, child(path, 'addresses'), 1, MAX_OWNERS);
  const seen = new Set<string>();
  const addresses = list.map((a, i) => {
    const field = item(child(path, 'addresses'), i);
    const { text, key } = chainAddress(a, field);
    if (seen.has(key)) fail(field, 'this address is listed twice');
    seen.add(key);
    return text;
  });
  const threshold = int(f.threshold, child(path, 'threshold'), 1, addresses.length);
  const out: OwnerSet = { addresses, threshold };
  if (present(f, 'locktime')) out.locktime = amount(f.locktime, child(path, 'locktime'), U64_MAX, false);
  return out;
}

export function ownerSets(value: unknown, field: string, min: number, max: number): OwnerSet[] {
  return array(value, field, min, max).map((o, i) => ownerSet(o, item(field, i)));
}

export function memo(value: unknown, field: string): string {
  // A UTF-16 code unit never encodes to fewer than one UTF-8 byte: check the cheap bound first.
  const s = str(value, field, { max: MAX_MEMO_SIZE, unit: 'bytes' });
  if (new TextEncoder().encode(s).length > MAX_MEMO_SIZE) fail(field, `must be at most ${MAX_MEMO_SIZE} bytes as UTF-8`);
  return s;
}

export const HEX_BODY = /^[0-9a-fA-F]*$/;

/** Hex bytes, optionally 0x-prefixed, of at most `maxBytes` bytes. */
export function hexBytes(value: unknown, field: string, maxBytes: number): string {
  const s = str(value, field, { max: 2 + 2 * maxBytes });
  const body = s.startsWith('0x') || s.startsWith('0X') ? s.slice(2) : s;
  if (!HEX_BODY.test(body)) fail(field, 'must be hex digits');
  if (body.length % 2 !== 0) fail(field, 'must have an even number of hex digits');
  if (body.length > 2 * maxBytes) fail(field, `must be at most ${maxBytes} bytes`);
  return s;
}

export const HTTP_PROTOCOLS = ['http:', 'https:'];
export const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** A node's base URL: http(s), no credentials, no query or fragment. */
export function nodeUrl(value: unknown, field: string): string {
  const s = str(value, field, { min: 1, max: MAX_URL_LENGTH }).trim();
  let url: URL;
  try {
    url = new URL(s);
  } catch {
    fail(field, 'is not a valid URL');
  }
  if (!HTTP_PROTOCOLS.includes(url.protocol)) fail(field, 'must start with http:// or https://');
  // Plain http only to this machine: anywhere else, whoever sits on the path would be the node.
  if (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname)) fail(field, 'must use https:// unless the node is on this machine (127.0.0.1, localhost, [::1])');
  if (url.username !== '' || url.password !== '') fail(field, 'must not contain a user name or password');
  // The raw text too: an empty "?" or "#" parses as no query, yet every API path would follow it.
  if (url.search !== '' || url.hash !== '' || /[?#]/.test(s)) fail(field, 'must not contain a query (?…) or fragment (#…)');
  return s;
}

export function namespace(value: unknown, field: string): string {
  const s = str(value, field, { min: 1, max: MAX_NAMESPACE_LENGTH });
  if (!LOCAL_ID.test(s)) fail(field, 'may hold only letters, digits, "-" and "_"');
  return s;
}

export function idleMinutes(value: unknown, field: string): number | 'never' {
  if (value === 'never') return value;
  if (typeof value !== 'number') fail(field, 'must be a number of minutes or "never"');
  return int(value, field, MIN_IDLE_LOCK_MINUTES, MAX_IDLE_LOCK_MINUTES);
}

/** A request that takes no params (an empty object, or none). */
export function none(params: unknown): Record<string, never> {
  record(params, '', []);
  return {};
}

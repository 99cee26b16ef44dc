// Hand-written validators for every request of the protocol in messages.ts. The background runs
// each incoming message through `validateRequestMessage` before anything else sees it.
//
// Each validator takes the untrusted `params` and returns a fresh object holding only the known
// fields (trimmed where the wallet trims anyway), or throws ValidationError naming the offending
// field with a path such as `to.addresses[2]` or `holders[0].owners.threshold`. Checks are about
// shape, types and sizes: lengths are bounded before any parsing, arrays before any iteration.
// Whether an address belongs to the current network, an account ID exists, etc. is the wallet
// service's business, not this file's.
//
// Error messages never repeat the rejected value: some fields hold passwords, recovery phrases or
// private keys.
import { toHex } from '../core/bytes.js';
import { parseUtxoId } from '../core/codec/ids.js';
import { parseAddress, parseId } from '../core/encoding.js';
import { ValidationError, WalletError } from '../core/errors.js';
import { parseEvmAddress } from '../core/evm-address.js';
import { MAX_MEMO_SIZE, MAX_NFT_PAYLOAD } from '../core/tx/context.js';
import { MAX_ASSET_NAME, MAX_ASSET_SYMBOL, validateAssetDescription } from '../core/tx/x.js';
import type {
  Amount,
  ChainName,
  OwnerSet,
  RequestMessage,
  RequestParams,
  RequestType,
} from './messages.js';

export const CHANNEL = 'xpc-wallet';

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
export const MAX_IDLE_LOCK_MINUTES = 24 * 60;
export const MAX_DENOMINATION = 32;
/** Hidden asset IDs kept per network. */
export const MAX_HIDDEN_ASSETS = 200;
export const U64_MAX = (1n << 64n) - 1n;
export const U256_MAX = (1n << 256n) - 1n;
const U32_MAX = 0xffff_ffff;

// Bounds on raw string lengths, checked before any parsing.
const MAX_ADDRESS_LENGTH = 128;
const MAX_CB58_ID_LENGTH = 64;
const MAX_UTXO_ID_LENGTH = MAX_CB58_ID_LENGTH + 11;
const MAX_EVM_ADDRESS_LENGTH = 64;
const MAX_PRIVATE_KEY_LENGTH = 128;
const MAX_NAMESPACE_LENGTH = 64;

/** An unknown request type: answered with code 'unknown-request' rather than 'validation'. */
export class UnknownRequestError extends WalletError {
  constructor(message: string) {
    super('unknown-request', message);
  }
}

// ---- building blocks ----

type Fields = Record<string, unknown>;

function fail(field: string, message: string): never {
  throw new ValidationError(`${field}: ${message}`, field);
}

function child(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

function item(path: string, index: number): string {
  return `${path}[${index}]`;
}

/**
 * A plain object with exactly the allowed keys. A key whose value is `undefined` counts as absent
 * (JSON drops such keys; structured clone, as Firefox uses, keeps them).
 */
function record(value: unknown, path: string, required: readonly string[], optional: readonly string[] = []): Fields {
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

function present(fields: Fields, key: string): boolean {
  return Object.hasOwn(fields, key) && fields[key] !== undefined;
}

interface StringRules {
  min?: number;
  max: number;
  /** Says what the limit counts, for the error message. */
  unit?: string;
}

/** A string of `min`…`max` UTF-16 code units, with no lone surrogates. */
function str(value: unknown, field: string, rules: StringRules): string {
  if (typeof value !== 'string') fail(field, 'must be a string');
  const min = rules.min ?? 0;
  if (value.length < min) fail(field, min === 1 ? 'must not be empty' : `must be at least ${min} characters`);
  if (value.length > rules.max) fail(field, `must be at most ${rules.max} ${rules.unit ?? 'characters'}`);
  if (!value.isWellFormed()) fail(field, 'contains an unpaired surrogate (malformed text)');
  return value;
}

function bool(value: unknown, field: string): boolean {
  if (typeof value !== 'boolean') fail(field, 'must be true or false');
  return value;
}

function int(value: unknown, field: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) fail(field, 'must be a whole number');
  if (value < min || value > max) fail(field, `must be from ${min} to ${max}`);
  return value;
}

function oneOf<V extends string | number>(value: unknown, field: string, allowed: readonly V[]): V {
  if (!allowed.includes(value as V)) fail(field, `must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}`);
  return value as V;
}

function array(value: unknown, field: string, min: number, max: number): unknown[] {
  if (!Array.isArray(value)) fail(field, 'must be an array');
  if (value.length < min) fail(field, min === 1 ? 'must not be empty' : `must hold at least ${min} entries`);
  if (value.length > max) fail(field, `must hold at most ${max} entries`);
  return value;
}

function hasControlChars(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

/** A display name (account, network): 1–64 characters, no control characters, not only spaces. */
function displayName(value: unknown, field: string): string {
  const s = str(value, field, { min: 1, max: MAX_NAME_LENGTH });
  if (s.trim() === '') fail(field, 'must not be blank');
  if (hasControlChars(s)) fail(field, 'must not contain control characters');
  return s;
}

function password(value: unknown, field: string): string {
  return str(value, field, { min: 1, max: MAX_PASSWORD_LENGTH });
}

function mnemonic(value: unknown, field: string): string {
  const s = str(value, field, { min: 1, max: MAX_MNEMONIC_LENGTH });
  const words = s.trim().split(/\s+/).filter((w) => w !== '');
  if (words.length === 0) fail(field, 'must not be blank');
  if (words.length > MAX_MNEMONIC_WORDS) fail(field, `must have at most ${MAX_MNEMONIC_WORDS} words`);
  return s;
}

const PRIVATE_KEY_CB58 = /^PrivateKey-[1-9A-HJ-NP-Za-km-z]+$/;
const PRIVATE_KEY_HEX = /^(0x)?[0-9a-f]{64}$/i;

/**
 * The shape of a pasted private key (PrivateKey-<cb58> or 64 hex digits, optionally 0x), trimmed.
 * The key itself is parsed and checked by the wallet service, so no secret bytes exist here.
 */
function privateKey(value: unknown, field: string): string {
  const s = str(value, field, { min: 1, max: MAX_PRIVATE_KEY_LENGTH }).trim();
  if (!PRIVATE_KEY_CB58.test(s) && !PRIVATE_KEY_HEX.test(s)) {
    fail(field, 'a private key is PrivateKey-… or 64 hex digits');
  }
  return s;
}

const LOCAL_ID = /^[A-Za-z0-9_-]+$/;

/** An account or network ID. */
function localId(value: unknown, field: string): string {
  const s = str(value, field, { min: 1, max: MAX_ID_LENGTH });
  if (!LOCAL_ID.test(s)) fail(field, 'is not a valid ID');
  return s;
}

const AMOUNT = /^(0|[1-9][0-9]*)$/;

/** A decimal base-unit amount no larger than `max`; `positive` refuses zero. */
function amount(value: unknown, field: string, max: bigint, positive: boolean): Amount {
  if (typeof value !== 'string') fail(field, 'must be a decimal string');
  if (!AMOUNT.test(value)) fail(field, 'must be a whole number in base units: digits only, no sign, no leading zeros');
  if (value.length > max.toString().length || BigInt(value) > max) fail(field, `must be at most ${max}`);
  if (positive && value === '0') fail(field, 'must be greater than zero');
  return value;
}

function chainName(value: unknown, field: string): ChainName {
  return oneOf(value, field, ['X', 'P', 'C'] as const);
}

/** A 32-byte CB58 ID (asset ID, tx ID), trimmed. */
function cb58Id(value: unknown, field: string): string {
  const s = str(value, field, { min: 1, max: MAX_CB58_ID_LENGTH }).trim();
  try {
    parseId(s);
  } catch (e) {
    fail(field, `not a valid ID: ${reason(e)}`);
  }
  return s;
}

function utxoIdString(value: unknown, field: string): string {
  const s = str(value, field, { min: 1, max: MAX_UTXO_ID_LENGTH }).trim();
  try {
    parseUtxoId(s);
  } catch (e) {
    fail(field, `not a valid UTXO ID: ${reason(e)}`);
  }
  return s;
}

function reason(e: unknown): string {
  return e instanceof WalletError ? e.message : 'malformed';
}

/** A bech32 chain address `<chain>-<hrp>1…` of 20 bytes, trimmed; returns its bytes as hex too. */
function chainAddress(value: unknown, field: string): { text: string; key: string } {
  const s = str(value, field, { min: 1, max: MAX_ADDRESS_LENGTH }).trim();
  try {
    return { text: s, key: toHex(parseAddress(s).bytes) };
  } catch (e) {
    fail(field, `not a valid address: ${reason(e)}`);
  }
}

function evmAddress(value: unknown, field: string): string {
  const s = str(value, field, { min: 1, max: MAX_EVM_ADDRESS_LENGTH }).trim();
  try {
    parseEvmAddress(s);
  } catch (e) {
    fail(field, reason(e));
  }
  return s;
}

function ownerSet(value: unknown, path: string): OwnerSet {
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

function ownerSets(value: unknown, field: string, min: number, max: number): OwnerSet[] {
  return array(value, field, min, max).map((o, i) => ownerSet(o, item(field, i)));
}

function memo(value: unknown, field: string): string {
  // A UTF-16 code unit never encodes to fewer than one UTF-8 byte: check the cheap bound first.
  const s = str(value, field, { max: MAX_MEMO_SIZE, unit: 'bytes' });
  if (new TextEncoder().encode(s).length > MAX_MEMO_SIZE) fail(field, `must be at most ${MAX_MEMO_SIZE} bytes as UTF-8`);
  return s;
}

const HEX_BODY = /^[0-9a-fA-F]*$/;

/** Hex bytes, optionally 0x-prefixed, of at most `maxBytes` bytes. */
function hexBytes(value: unknown, field: string, maxBytes: number): string {
  const s = str(value, field, { max: 2 + 2 * maxBytes });
  const body = s.startsWith('0x') || s.startsWith('0X') ? s.slice(2) : s;
  if (!HEX_BODY.test(body)) fail(field, 'must be hex digits');
  if (body.length % 2 !== 0) fail(field, 'must have an even number of hex digits');
  if (body.length > 2 * maxBytes) fail(field, `must be at most ${maxBytes} bytes`);
  return s;
}

const HTTP_PROTOCOLS = ['http:', 'https:'];
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** A node's base URL: http(s), no credentials, no query or fragment. */
function nodeUrl(value: unknown, field: string): string {
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
  if (url.search !== '' || url.hash !== '') fail(field, 'must not contain a query (?…) or fragment (#…)');
  return s;
}

function namespace(value: unknown, field: string): string {
  const s = str(value, field, { min: 1, max: MAX_NAMESPACE_LENGTH });
  if (!LOCAL_ID.test(s)) fail(field, 'may hold only letters, digits, "-" and "_"');
  return s;
}

function idleMinutes(value: unknown, field: string): number | 'never' {
  if (value === 'never') return value;
  if (typeof value !== 'number') fail(field, 'must be a number of minutes or "never"');
  return int(value, field, 1, MAX_IDLE_LOCK_MINUTES);
}

// ---- one validator per request ----

type Validators = { [T in RequestType]: (params: unknown) => RequestParams<T> };

function none(params: unknown): Record<string, never> {
  record(params, '', []);
  return {};
}

function passwordOnly(params: unknown): { password: string } {
  const f = record(params, '', ['password']);
  return { password: password(f.password, 'password') };
}

function passwordAndMnemonic(params: unknown): { password: string; mnemonic: string } {
  const f = record(params, '', ['password', 'mnemonic']);
  return { password: password(f.password, 'password'), mnemonic: mnemonic(f.mnemonic, 'mnemonic') };
}

const APPROVAL_ID = /^[0-9a-f]{24}$/;

/** An approval's ID: 12 random bytes, lowercase hex (src/background/approvals.ts). */
function approvalId(value: unknown, field: string): string {
  const text = str(value, field, { min: 1, max: 24 });
  if (!APPROVAL_ID.test(text)) fail(field, 'must be 24 hexadecimal characters');
  return text;
}

const MAX_ORIGIN_LENGTH = 300;

/** A web origin as the wallet records it: scheme://host[:port], nothing else. */
function siteOrigin(value: unknown, field: string): string {
  const text = str(value, field, { min: 1, max: MAX_ORIGIN_LENGTH });
  let origin: string;
  try {
    origin = new URL(text).origin;
  } catch {
    fail(field, 'must be a site origin such as https://example.com');
  }
  if (origin !== text) fail(field, 'must be a site origin such as https://example.com');
  return text;
}

function idOnly(params: unknown): { id: string } {
  const f = record(params, '', ['id']);
  return { id: localId(f.id, 'id') };
}

type SendXBase = Omit<RequestParams<'send.x'>, 'maxFee'>;

function sendX(f: Fields): SendXBase {
  const out: SendXBase = {
    assetID: cb58Id(f.assetID, 'assetID'),
    amount: amount(f.amount, 'amount', U64_MAX, true),
    to: ownerSet(f.to, 'to'),
  };
  if (present(f, 'memo')) out.memo = memo(f.memo, 'memo');
  return out;
}

function sendP(f: Fields): Omit<RequestParams<'send.p'>, 'maxFee'> {
  return { amount: amount(f.amount, 'amount', U64_MAX, true), to: ownerSet(f.to, 'to') };
}

function sendC(f: Fields): Omit<RequestParams<'send.c'>, 'maxFeeWei'> {
  return { to: evmAddress(f.to, 'to'), amountWei: amount(f.amountWei, 'amountWei', U256_MAX, true) };
}

/** The params of send.x, send.p or send.c, chosen by `chain`; each chain allows only its own fields. */
function sendEstimate(params: unknown): RequestParams<'send.estimate'> {
  const loose = record(params, '', ['chain'], ['assetID', 'amount', 'amountWei', 'to', 'memo']);
  const chain = chainName(loose.chain, 'chain');
  switch (chain) {
    case 'X':
      return { chain, ...sendX(record(params, '', ['chain', 'assetID', 'amount', 'to'], ['memo'])) };
    case 'P':
      return { chain, ...sendP(record(params, '', ['chain', 'amount', 'to'])) };
    case 'C':
      return { chain, ...sendC(record(params, '', ['chain', 'to', 'amountWei'])) };
  }
}

function transferRoute(f: Fields): RequestParams<'transfers.estimate'> {
  const from = chainName(f.from, 'from');
  const to = chainName(f.to, 'to');
  if (from === to) fail('to', 'must be a different chain from "from"');
  return { from, to, amount: amount(f.amount, 'amount', U64_MAX, true) };
}

function transferEstimateParams(params: unknown): RequestParams<'transfers.estimate'> {
  return transferRoute(record(params, '', ['from', 'to', 'amount']));
}

/** transfers.start: the route plus `maxFee`, the export and import fees together as approved. */
function transferParams(params: unknown): RequestParams<'transfers.start'> {
  const f = record(params, '', ['from', 'to', 'amount', 'maxFee']);
  return { ...transferRoute(f), maxFee: amount(f.maxFee, 'maxFee', U64_MAX, false) };
}

function assetIdList(value: unknown, field: string): string[] {
  const seen = new Set<string>();
  return array(value, field, 0, MAX_HIDDEN_ASSETS).map((v, i) => {
    const id = cb58Id(v, item(field, i));
    if (seen.has(id)) fail(item(field, i), 'this asset ID is listed twice');
    seen.add(id);
    return id;
  });
}

type Holder = { owners: OwnerSet; amount: Amount };

function holders(value: unknown, field: string): Holder[] {
  return array(value, field, 1, MAX_HOLDERS).map((h, i) => {
    const path = item(field, i);
    const f = record(h, path, ['owners', 'amount']);
    return { owners: ownerSet(f.owners, child(path, 'owners')), amount: amount(f.amount, child(path, 'amount'), U64_MAX, true) };
  });
}

function createAsset(params: unknown): RequestParams<'assets.create'> {
  const f = record(params, '', ['name', 'symbol', 'denomination', 'kind', 'maxFee'], ['holders', 'minters']);
  const assetName = str(f.name, 'name', { min: 1, max: MAX_ASSET_NAME });
  const symbol = str(f.symbol, 'symbol', { min: 1, max: MAX_ASSET_SYMBOL });
  const denomination = int(f.denomination, 'denomination', 0, MAX_DENOMINATION);
  try {
    validateAssetDescription(assetName, symbol, denomination);
  } catch (e) {
    if (e instanceof ValidationError && e.field !== undefined) fail(e.field, e.message);
    throw e;
  }
  const kind = oneOf(f.kind, 'kind', ['fixed', 'variable', 'nft'] as const);
  const out: RequestParams<'assets.create'> = { name: assetName, symbol, denomination, kind, maxFee: amount(f.maxFee, 'maxFee', U64_MAX, false) };
  switch (kind) {
    case 'fixed':
      if (!present(f, 'holders')) fail('holders', 'a fixed-cap asset needs at least one holder');
      if (present(f, 'minters')) fail('minters', 'a fixed-cap asset has no minters');
      out.holders = holders(f.holders, 'holders');
      break;
    case 'variable':
      if (!present(f, 'minters')) fail('minters', 'a variable-cap asset needs at least one minter set');
      out.minters = ownerSets(f.minters, 'minters', 1, MAX_MINTERS);
      if (present(f, 'holders')) out.holders = holders(f.holders, 'holders');
      break;
    case 'nft':
      if (!present(f, 'minters')) fail('minters', 'an NFT family needs at least one minter set (one per group)');
      if (present(f, 'holders')) fail('holders', 'an NFT family has no initial holders; mint NFTs instead');
      out.minters = ownerSets(f.minters, 'minters', 1, MAX_MINTERS);
      break;
  }
  return out;
}

export const REQUEST_VALIDATORS: Validators = {
  'wallet.status': none,
  'wallet.generateMnemonic': (params) => {
    const f = record(params, '', ['words']);
    return { words: oneOf(f.words, 'words', [12, 24] as const) };
  },
  'wallet.create': passwordAndMnemonic,
  'wallet.restore': (params) => {
    const f = record(params, '', ['password', 'mnemonic'], ['confirmLoss']);
    return {
      password: password(f.password, 'password'),
      mnemonic: mnemonic(f.mnemonic, 'mnemonic'),
      ...(present(f, 'confirmLoss') ? { confirmLoss: bool(f.confirmLoss, 'confirmLoss') } : {}),
    };
  },
  'wallet.createFromKey': (params) => {
    const f = record(params, '', ['password', 'privateKey', 'name']);
    return {
      password: password(f.password, 'password'),
      privateKey: privateKey(f.privateKey, 'privateKey'),
      name: displayName(f.name, 'name'),
    };
  },
  'wallet.unlock': passwordOnly,
  'wallet.lock': none,
  'wallet.changePassword': (params) => {
    const f = record(params, '', ['oldPassword', 'newPassword']);
    return { oldPassword: password(f.oldPassword, 'oldPassword'), newPassword: password(f.newPassword, 'newPassword') };
  },
  'wallet.revealMnemonic': passwordOnly,
  'wallet.exportPrivateKey': (params) => {
    const f = record(params, '', ['password', 'accountId']);
    return { password: password(f.password, 'password'), accountId: localId(f.accountId, 'accountId') };
  },
  'wallet.setIdleLock': (params) => {
    const f = record(params, '', ['minutes']);
    return { minutes: idleMinutes(f.minutes, 'minutes') };
  },

  'accounts.list': none,
  'accounts.add': (params) => {
    const f = record(params, '', ['name']);
    return { name: displayName(f.name, 'name') };
  },
  'accounts.importKey': (params) => {
    const f = record(params, '', ['name', 'privateKey']);
    return { name: displayName(f.name, 'name'), privateKey: privateKey(f.privateKey, 'privateKey') };
  },
  'accounts.rename': (params) => {
    const f = record(params, '', ['id', 'name']);
    return { id: localId(f.id, 'id'), name: displayName(f.name, 'name') };
  },
  'accounts.remove': idOnly,
  'accounts.select': idOnly,

  'networks.list': none,
  'networks.select': idOnly,
  'networks.addCustom': (params) => {
    const f = record(params, '', ['name', 'url'], ['atomicNamespace']);
    const out: RequestParams<'networks.addCustom'> = { name: displayName(f.name, 'name'), url: nodeUrl(f.url, 'url') };
    if (present(f, 'atomicNamespace')) out.atomicNamespace = namespace(f.atomicNamespace, 'atomicNamespace');
    return out;
  },
  'networks.remove': idOnly,
  'networks.health': idOnly,

  'balances.get': (params) => {
    const f = record(params, '', [], ['refresh']);
    return present(f, 'refresh') ? { refresh: bool(f.refresh, 'refresh') } : {};
  },
  'balances.refresh': none,

  'send.x': (params) => {
    const f = record(params, '', ['assetID', 'amount', 'to', 'maxFee'], ['memo']);
    return { ...sendX(f), maxFee: amount(f.maxFee, 'maxFee', U64_MAX, false) };
  },
  'send.p': (params) => {
    const f = record(params, '', ['amount', 'to', 'maxFee']);
    return { ...sendP(f), maxFee: amount(f.maxFee, 'maxFee', U64_MAX, false) };
  },
  'send.c': (params) => {
    const f = record(params, '', ['to', 'amountWei', 'maxFeeWei']);
    return { ...sendC(f), maxFeeWei: amount(f.maxFeeWei, 'maxFeeWei', U256_MAX, false) };
  },
  'send.estimate': sendEstimate,

  'assets.fees': none,
  'assets.create': createAsset,
  'assets.mint': (params) => {
    const f = record(params, '', ['assetID', 'amount', 'to', 'maxFee']);
    return {
      assetID: cb58Id(f.assetID, 'assetID'),
      amount: amount(f.amount, 'amount', U64_MAX, true),
      to: ownerSet(f.to, 'to'),
      maxFee: amount(f.maxFee, 'maxFee', U64_MAX, false),
    };
  },
  'assets.mintNft': (params) => {
    const f = record(params, '', ['assetID', 'groupID', 'payloadHex', 'to', 'maxFee']);
    return {
      assetID: cb58Id(f.assetID, 'assetID'),
      groupID: int(f.groupID, 'groupID', 0, U32_MAX),
      payloadHex: hexBytes(f.payloadHex, 'payloadHex', MAX_NFT_PAYLOAD),
      to: ownerSets(f.to, 'to', 1, MAX_NFT_RECIPIENTS),
      maxFee: amount(f.maxFee, 'maxFee', U64_MAX, false),
    };
  },
  'assets.transferNft': (params) => {
    const f = record(params, '', ['utxoID', 'to', 'maxFee']);
    return { utxoID: utxoIdString(f.utxoID, 'utxoID'), to: ownerSet(f.to, 'to'), maxFee: amount(f.maxFee, 'maxFee', U64_MAX, false) };
  },
  'assets.listNfts': none,
  'assets.mintRights': none,

  'transfers.start': transferParams,
  'transfers.estimate': transferEstimateParams,
  'transfers.list': none,
  'transfers.importWaiting': none,

  'activity.list': none,

  'settings.getHiddenAssets': none,
  'settings.setHiddenAssets': (params) => {
    const f = record(params, '', ['assetIDs']);
    return { assetIDs: assetIdList(f.assetIDs, 'assetIDs') };
  },

  'sites.list': none,
  'sites.revoke': (params) => {
    const f = record(params, '', ['origin']);
    return { origin: siteOrigin(f.origin, 'origin') };
  },
  'sites.removeChain': (params) => {
    const f = record(params, '', ['chainId']);
    const text = str(f.chainId, 'chainId', { min: 1, max: 20 });
    if (!AMOUNT.test(text)) fail('chainId', 'must be a decimal chain ID');
    return { chainId: text };
  },

  'approvals.list': none,
  'approvals.decide': (params) => {
    const f = record(params, '', ['id', 'approved']);
    return { id: approvalId(f.id, 'id'), approved: bool(f.approved, 'approved') };
  },
  'approvals.waiting': none,
};

/** Every request type, in protocol order. */
export const REQUEST_TYPES = Object.freeze(Object.keys(REQUEST_VALIDATORS) as RequestType[]);

export function isRequestType(value: unknown): value is RequestType {
  return typeof value === 'string' && Object.hasOwn(REQUEST_VALIDATORS, value);
}

/** Validates params for a known request type. */
export function validateParams<T extends RequestType>(type: T, params: unknown): RequestParams<T> {
  return (REQUEST_VALIDATORS[type] as (p: unknown) => RequestParams<T>)(params);
}

const MAX_TYPE_ECHO = 64;

/**
 * Checks a whole incoming message: `{ channel: 'xpc-wallet', type, params }` and nothing else.
 * Throws UnknownRequestError for a string `type` that is not a request, ValidationError otherwise.
 */
export function validateRequestMessage(raw: unknown): RequestMessage {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) fail('message', 'must be an object');
  const m = raw as Fields;
  if (m.channel !== CHANNEL) fail('channel', `must be "${CHANNEL}"`);
  if (typeof m.type !== 'string') fail('type', 'must be a string');
  if (!isRequestType(m.type)) {
    throw new UnknownRequestError(`unknown request type ${JSON.stringify(m.type.slice(0, MAX_TYPE_ECHO))}`);
  }
  for (const key of Object.keys(m)) {
    if (key !== 'channel' && key !== 'type' && key !== 'params') fail(key, 'unknown field in the message');
  }
  if (!present(m, 'params')) fail('params', 'is required');
  const type = m.type;
  return { channel: CHANNEL, type, params: validateParams(type, m.params) };
}

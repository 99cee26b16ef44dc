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
import { WalletError } from '../core/errors.js';
import { isRecord } from '../core/rpc-guards.js';
import { MAX_LOSS_NAME_LENGTH, type RequestMessage, type RequestParams, type RequestType } from './messages.js';
import {
  AMOUNT,
  none,
  amount,
  array,
  bool,
  cb58Id,
  chainName,
  displayName,
  evmAddress,
  fail,
  type Fields,
  idleMinutes,
  item,
  localId,
  MAX_HIDDEN_ASSETS,
  memo,
  mnemonic,
  namespace,
  nodeUrl,
  oneOf,
  ownerSet,
  password,
  present,
  privateKey,
  record,
  str,
  U256_MAX,
  U64_MAX,
} from './validate-fields.js';
import { ASSET_VALIDATORS } from './validate-assets.js';
import { STAKING_VALIDATORS } from './validate-staking.js';
import { TOKEN_VALIDATORS } from './validate-tokens.js';
import { TRANSFER_VALIDATORS } from './validate-transfers.js';
import { maxFee, maxFeeWei } from './validate-fees.js';

export const CHANNEL = 'xpc-wallet';

/** Requests that move funds or create something: each must name the account and network it was reviewed on. */
export const BOUND_TO_SELECTION: ReadonlySet<RequestType> = new Set<RequestType>([
  'send.x',
  'send.p',
  'send.c',
  'transfers.start',
  'transfers.importWaiting',
  'assets.create',
  'assets.mint',
  'assets.mintNft',
  'assets.transferNft',
  'staking.delegate',
  'staking.validate',
  'staking.setAutoRenew',
  'tokens.send',
  'tokens.revoke',
  'evm.replace',
]);

/** An unknown request type: answered with code 'unknown-request' rather than 'validation'. */
export class UnknownRequestError extends WalletError {
  constructor(message: string) {
    super('unknown-request', message);
  }
}

// ---- one validator per request ----

type Validators = { [T in RequestType]: (params: unknown) => RequestParams<T> };


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
/** What a restore's Confirm names (keys, sends, moves): far above any wallet's, well below a flood. */
const MAX_LOSS_NAMES = 10_000;

/** A web origin as the wallet records it: scheme://host[:port], nothing else. */
function siteOrigin(value: unknown, field: string): string {
  const text = str(value, field, { min: 1, max: MAX_ORIGIN_LENGTH });
  try {
    if (new URL(text).origin === text) return text;
  } catch {
    // not a URL: said below
  }
  fail(field, 'must be a site origin such as https://example.com');
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

function assetIdList(value: unknown, field: string): string[] {
  const seen = new Set<string>();
  return array(value, field, 0, MAX_HIDDEN_ASSETS).map((v, i) => {
    const id = cb58Id(v, item(field, i));
    if (seen.has(id)) fail(item(field, i), 'this asset ID is listed twice');
    seen.add(id);
    return id;
  });
}

export const REQUEST_VALIDATORS: Validators = {
  'wallet.status': none,
  'wallet.open': none,
  'wallet.generateMnemonic': (params) => {
    const f = record(params, '', ['words']);
    return { words: oneOf(f.words, 'words', [12, 24] as const) };
  },
  'wallet.create': passwordAndMnemonic,
  'wallet.checkPhrase': (params) => {
    const f = record(params, '', ['mnemonic']);
    return { mnemonic: mnemonic(f.mnemonic, 'mnemonic') };
  },
  'wallet.restore': (params) => {
    const f = record(params, '', ['password'], ['mnemonic', 'privateKey', 'name', 'confirmLoss']);
    // From a phrase, or from one private key and its account's name: never both.
    const phrase = present(f, 'mnemonic');
    if (phrase === present(f, 'privateKey')) fail('mnemonic', 'give either a recovery phrase or a private key');
    if (phrase && present(f, 'name')) fail('name', 'unknown field');
    return {
      password: password(f.password, 'password'),
      ...(phrase ? { mnemonic: mnemonic(f.mnemonic, 'mnemonic') } : { privateKey: privateKey(f.privateKey, 'privateKey'), name: displayName(f.name, 'name') }),
      ...(present(f, 'confirmLoss') ? { confirmLoss: array(f.confirmLoss, 'confirmLoss', 0, MAX_LOSS_NAMES).map((n, i) => str(n, item('confirmLoss', i), { max: MAX_LOSS_NAME_LENGTH })) } : {}),
    };
  },
  'wallet.checkKey': (params) => ({ privateKey: privateKey(record(params, '', ['privateKey']).privateKey, 'privateKey') }),
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
  'accounts.remove': (params) => {
    const f = record(params, '', ['id', 'password']);
    return { id: localId(f.id, 'id'), password: password(f.password, 'password') };
  },
  'accounts.select': idOnly,

  'networks.list': none,
  'networks.select': idOnly,
  'networks.addCustom': (params) => {
    const f = record(params, '', ['name', 'url'], ['atomicNamespace']);
    const out: RequestParams<'networks.addCustom'> = { name: displayName(f.name, 'name'), url: nodeUrl(f.url, 'url') };
    if (present(f, 'atomicNamespace')) out.atomicNamespace = namespace(f.atomicNamespace, 'atomicNamespace');
    return out;
  },
  'networks.remove': (params) => {
    const f = record(params, '', ['id'], ['confirmLoss']);
    return { id: localId(f.id, 'id'), ...(present(f, 'confirmLoss') ? { confirmLoss: bool(f.confirmLoss, 'confirmLoss') } : {}) };
  },
  'networks.health': idOnly,

  'balances.get': (params) => {
    const f = record(params, '', [], ['refresh']);
    return present(f, 'refresh') ? { refresh: bool(f.refresh, 'refresh') } : {};
  },
  'balances.refresh': none,

  'send.x': (params) => {
    const f = record(params, '', ['assetID', 'amount', 'to', 'maxFee'], ['memo']);
    return { ...sendX(f), maxFee: maxFee(f) };
  },
  'send.p': (params) => {
    const f = record(params, '', ['amount', 'to', 'maxFee']);
    return { ...sendP(f), maxFee: maxFee(f) };
  },
  'send.c': (params) => {
    const f = record(params, '', ['to', 'amountWei', 'maxFeeWei']);
    return { ...sendC(f), maxFeeWei: maxFeeWei(f) };
  },
  'send.estimate': sendEstimate,

  ...ASSET_VALIDATORS,

  ...TRANSFER_VALIDATORS,

  ...STAKING_VALIDATORS,

  'activity.list': none,

  'settings.getHiddenAssets': (params) => ({ networkId: localId(record(params, '', ['networkId']).networkId, 'networkId') }),
  'settings.setHiddenAssets': (params) => {
    const f = record(params, '', ['assetIDs', 'networkId']);
    return { assetIDs: assetIdList(f.assetIDs, 'assetIDs'), networkId: localId(f.networkId, 'networkId') };
  },

  'sites.list': none,
  'sites.revoke': (params) => {
    const f = record(params, '', ['origin']);
    return { origin: siteOrigin(f.origin, 'origin') };
  },
  'sites.resetChain': (params) => {
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
    const f = record(params, '', ['id', 'approved'], ['closing']);
    return { id: approvalId(f.id, 'id'), approved: bool(f.approved, 'approved'), ...(present(f, 'closing') ? { closing: bool(f.closing, 'closing') } : {}) };
  },
  'approvals.waiting': none,

  ...TOKEN_VALIDATORS,
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
  if (!isRecord(raw)) fail('message', 'must be an object');
  const m = raw as Fields;
  if (m.channel !== CHANNEL) fail('channel', `must be "${CHANNEL}"`);
  if (typeof m.type !== 'string') fail('type', 'must be a string');
  if (!isRequestType(m.type)) {
    throw new UnknownRequestError(`unknown request type ${JSON.stringify(m.type.slice(0, MAX_TYPE_ECHO))}`);
  }
  for (const key of Object.keys(m)) {
    if (key !== 'channel' && key !== 'type' && key !== 'params' && key !== 'selection') fail(key, 'unknown field in the message');
  }
  if (!present(m, 'params')) fail('params', 'is required');
  const type = m.type;
  const message: RequestMessage = { channel: CHANNEL, type, params: validateParams(type, m.params) };
  // What moves funds or creates something is only done on the account and network it was reviewed on.
  if (BOUND_TO_SELECTION.has(type) && !present(m, 'selection')) fail('selection', 'is required for a request that moves funds: the account and network it was reviewed on');
  if (present(m, 'selection')) {
    const f = record(m.selection, 'selection', ['accountId', 'networkId']);
    message.selection = { accountId: localId(f.accountId, 'selection.accountId'), networkId: localId(f.networkId, 'selection.networkId') };
  }
  return message;
}

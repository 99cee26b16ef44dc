// The validators of the staking requests (staking.*, src/shared/messages.ts), built from the field
// checkers of validate-fields.ts: NodeIDs, BLS keys, shares, times and durations, the validator
// list's filter. Shape only: whether a stake fits the network's rules is the staking service's.
import { parseNodeId } from '../core/encoding.js';
import type { OwnerSet, RequestParams, RequestType, Shares, ValidationParams, ValidatorFilter } from './messages.js';
import {
  amount,
  child,
  cb58Id,
  fail,
  type Fields,
  hexBytes,
  int,
  nodeUrl,
  none,
  oneOf,
  ownerSet,
  present,
  reason,
  record,
  str,
  U64_MAX,
} from './validate-fields.js';
import { maxFee } from './validate-fees.js';

/** 1 000 000 millionths = 100%. */
export const MAX_SHARES = 1_000_000;
/** Unix seconds up to 2106 (u32): far past any stake's end. */
export const MAX_UNIX_SECONDS = 0xffff_ffff;
/** Durations: at most the longest stake the P-Chain allows on any network (365 days). */
export const MAX_STAKE_SECONDS = 365 * 24 * 3600;
export const MAX_VALIDATOR_PAGE = 100;
const MAX_NODE_ID_LENGTH = 64;
const BLS_PUBLIC_KEY_BYTES = 48;
const BLS_SIGNATURE_BYTES = 96;

export function nodeId(value: unknown, field: string): string {
  const s = str(value, field, { min: 1, max: MAX_NODE_ID_LENGTH }).trim();
  try {
    parseNodeId(s);
  } catch (e) {
    fail(field, `not a valid NodeID: ${reason(e)}`);
  }
  return s;
}

export function shares(value: unknown, field: string): Shares {
  return int(value, field, 0, MAX_SHARES);
}

export function unixSeconds(value: unknown, field: string): number {
  return int(value, field, 1, MAX_UNIX_SECONDS);
}

/** Hex of exactly `bytes` bytes, 0x-prefixed on the way out. */
function exactHex(value: unknown, field: string, bytes: number): string {
  const s = hexBytes(value, field, bytes);
  const body = s.startsWith('0x') || s.startsWith('0X') ? s.slice(2) : s;
  if (body.length !== 2 * bytes) fail(field, `must be exactly ${bytes} bytes`);
  return `0x${body.toLowerCase()}`;
}

function percent(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) fail(field, 'must be a number');
  if (value < 0 || value > 100) fail(field, 'must be from 0 to 100');
  return value;
}

function filter(value: unknown, path: string): ValidatorFilter {
  const f = record(value, path, [], ['minUptime', 'maxFee', 'minFreeSpace', 'minRemainingSeconds', 'nodeID']);
  const out: ValidatorFilter = {};
  if (present(f, 'minUptime')) out.minUptime = percent(f.minUptime, child(path, 'minUptime'));
  if (present(f, 'maxFee')) out.maxFee = shares(f.maxFee, child(path, 'maxFee'));
  if (present(f, 'minFreeSpace')) out.minFreeSpace = amount(f.minFreeSpace, child(path, 'minFreeSpace'), U64_MAX, false);
  if (present(f, 'minRemainingSeconds')) out.minRemainingSeconds = int(f.minRemainingSeconds, child(path, 'minRemainingSeconds'), 0, MAX_STAKE_SECONDS);
  if (present(f, 'nodeID')) out.nodeID = str(f.nodeID, child(path, 'nodeID'), { min: 1, max: MAX_NODE_ID_LENGTH });
  return out;
}

function validators(params: unknown): RequestParams<'staking.validators'> {
  const f = record(params, '', [], ['filter', 'sort', 'offset', 'limit']);
  const out: RequestParams<'staking.validators'> = {};
  if (present(f, 'filter')) out.filter = filter(f.filter, 'filter');
  if (present(f, 'sort')) out.sort = oneOf(f.sort, 'sort', ['score', 'fee', 'uptime', 'free-space', 'end'] as const);
  if (present(f, 'offset')) out.offset = int(f.offset, 'offset', 0, 1_000_000);
  if (present(f, 'limit')) out.limit = int(f.limit, 'limit', 1, MAX_VALIDATOR_PAGE);
  return out;
}

/**
 * A stake's reward owners take no lock time: a locked reward is nothing the staking screens offer
 * or their reviews show, so it is refused, not signed unseen (the staking service checks it too).
 */
export function refuseRewardLocktime(set: OwnerSet, field: string): void {
  if ((set.locktime ?? '0') !== '0') fail(child(field, 'locktime'), 'staking rewards take no lock time');
}

function rewardOwners(value: unknown, field: string): OwnerSet {
  const set = ownerSet(value, field);
  refuseRewardLocktime(set, field);
  delete set.locktime;
  return set;
}

function delegation(f: Fields): RequestParams<'staking.estimateDelegation'> {
  const out: RequestParams<'staking.estimateDelegation'> = {
    nodeID: nodeId(f.nodeID, 'nodeID'),
    amount: amount(f.amount, 'amount', U64_MAX, true),
    end: unixSeconds(f.end, 'end'),
  };
  if (present(f, 'rewardOwner')) out.rewardOwner = rewardOwners(f.rewardOwner, 'rewardOwner');
  return out;
}

const VALIDATION_FIELDS = ['nodeID', 'publicKey', 'proofOfPossession', 'amount', 'delegationFee'];
const VALIDATION_OPTIONAL = ['end', 'autoRenew', 'rewardOwner', 'delegationFeeOwner'];

/** A validation's params: exactly one of `end` (a fixed period) and `autoRenew` (cycles). */
function validation(f: Fields): ValidationParams {
  const out: ValidationParams = {
    nodeID: nodeId(f.nodeID, 'nodeID'),
    publicKey: exactHex(f.publicKey, 'publicKey', BLS_PUBLIC_KEY_BYTES),
    proofOfPossession: exactHex(f.proofOfPossession, 'proofOfPossession', BLS_SIGNATURE_BYTES),
    amount: amount(f.amount, 'amount', U64_MAX, true),
    delegationFee: shares(f.delegationFee, 'delegationFee'),
  };
  if (present(f, 'end') === present(f, 'autoRenew')) fail('end', 'give either an end time or auto-renewal (autoRenew), not both');
  if (present(f, 'end')) out.end = unixSeconds(f.end, 'end');
  if (present(f, 'autoRenew')) {
    const a = record(f.autoRenew, 'autoRenew', ['period', 'restakeShares']);
    out.autoRenew = { period: int(a.period, 'autoRenew.period', 1, MAX_STAKE_SECONDS), restakeShares: shares(a.restakeShares, 'autoRenew.restakeShares') };
  }
  if (present(f, 'rewardOwner')) out.rewardOwner = rewardOwners(f.rewardOwner, 'rewardOwner');
  if (present(f, 'delegationFeeOwner')) out.delegationFeeOwner = rewardOwners(f.delegationFeeOwner, 'delegationFeeOwner');
  return out;
}

function autoRenew(f: Fields): RequestParams<'staking.estimateAutoRenew'> {
  return { txID: cb58Id(f.txID, 'txID'), period: int(f.period, 'period', 0, MAX_STAKE_SECONDS), restakeShares: shares(f.restakeShares, 'restakeShares') };
}


type StakingType = Extract<RequestType, `staking.${string}`>;

export const STAKING_VALIDATORS: { [T in StakingType]: (params: unknown) => RequestParams<T> } = {
  'staking.params': none,
  'staking.validators': validators,
  'staking.pick': (params) => {
    const f = record(params, '', ['amount', 'end']);
    return { amount: amount(f.amount, 'amount', U64_MAX, true), end: unixSeconds(f.end, 'end') };
  },
  'staking.estimateDelegation': (params) => delegation(record(params, '', ['nodeID', 'amount', 'end'], ['rewardOwner'])),
  'staking.delegate': (params) => {
    const f = record(params, '', ['nodeID', 'amount', 'end', 'maxFee'], ['rewardOwner']);
    return { ...delegation(f), maxFee: maxFee(f) };
  },
  'staking.nodeKey': (params) => {
    const f = record(params, '', ['url']);
    return { url: nodeUrl(f.url, 'url') };
  },
  'staking.estimateValidation': (params) => validation(record(params, '', VALIDATION_FIELDS, VALIDATION_OPTIONAL)),
  'staking.validate': (params) => {
    const f = record(params, '', [...VALIDATION_FIELDS, 'maxFee'], VALIDATION_OPTIONAL);
    return { ...validation(f), maxFee: maxFee(f) };
  },
  'staking.estimateAutoRenew': (params) => autoRenew(record(params, '', ['txID', 'period', 'restakeShares'])),
  'staking.setAutoRenew': (params) => {
    const f = record(params, '', ['txID', 'period', 'restakeShares', 'takesEffect', 'maxFee']);
    return { ...autoRenew(f), takesEffect: int(f.takesEffect, 'takesEffect', 0, Number.MAX_SAFE_INTEGER), maxFee: maxFee(f) };
  },
  'staking.mine': none,
  'staking.rewardsCsv': (params) => {
    const f = record(params, '', ['scope']);
    return { scope: oneOf(f.scope, 'scope', ['rewards', 'all'] as const) };
  },
};

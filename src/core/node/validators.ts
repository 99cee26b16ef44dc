// What platform.getCurrentValidators answers for the Primary Network, checked and typed: each
// validator (its stake, period or current cycle, fee, uptime, owners, BLS key, auto-renew
// settings, delegation totals) and, when one NodeID was asked for, its delegators. The answer of
// the whole network is about 1,500 validators on mainnet, so the checks are plain and cheap: IDs
// and addresses are checked for their form here (a NodeID is parsed in full where it is used).
import { NodeResponseError } from '../errors.js';
import { isRecord, shapeError } from '../rpc.js';

/** An owner as the P-Chain API gives it: P-… addresses kept as text. */
export interface ApiOwner {
  locktime: bigint;
  threshold: number;
  addresses: string[];
}

export interface CurrentDelegator {
  txID: string;
  nodeID: string;
  start: bigint;
  end: bigint;
  weight: bigint;
  /** Only when the node was asked about this one validator. */
  rewardOwner?: ApiOwner;
  potentialReward: bigint;
}

export interface CurrentValidator {
  txID: string;
  nodeID: string;
  start: bigint;
  /** For an auto-renewed validator: the end of its current cycle. */
  end: bigint;
  /** Its own stake (for an auto-renewed validator: with what was restaked). */
  weight: bigint;
  potentialReward: bigint;
  /** Delegation fees earned so far, paid when it stops. */
  accruedDelegateeReward: bigint;
  /** Millionths (the API gives a percentage with four decimals: exact in millionths). */
  delegationFee: number;
  /** Percent, 0–100, as the node measures it; null when the node does not say. */
  uptime: number | null;
  connected: boolean;
  validationRewardOwner?: ApiOwner;
  delegationRewardOwner?: ApiOwner;
  /** 0x hex of the BLS public key. */
  blsPublicKey?: string;
  /** Auto-renewed validators (ACP-236). */
  autoRenew?: { authority: ApiOwner; nextPeriod: bigint; restakeShares: number };
  delegatorCount: number;
  delegatorWeight: bigint;
  /** Only when the node was asked about exactly this validator. */
  delegators?: CurrentDelegator[];
}

type Rec = Record<string, unknown>;

const CB58 = /^[1-9A-HJ-NP-Za-km-z]{40,52}$/;
const NODE_ID = /^NodeID-[1-9A-HJ-NP-Za-km-z]{30,40}$/;
const P_ADDRESS = /^P-[a-z0-9]{1,83}1[02-9ac-hj-np-z]{38,}$/;
const UINT = /^(0|[1-9][0-9]{0,19})$/;
const PERCENT = /^(100(\.0{1,4})?|[1-9]?[0-9](\.[0-9]{1,4})?)$/;
const U64_MAX = 0xffff_ffff_ffff_ffffn;
const BLS_KEY = /^0x[0-9a-fA-F]{96}$/;

function rec(value: unknown, path: string): Rec {
  if (!isRecord(value)) throw shapeError(path, 'an object', value);
  return value as Rec;
}

function text(value: unknown, path: string, form: RegExp, what: string): string {
  if (typeof value !== 'string' || !form.test(value)) throw shapeError(path, what, value);
  return value;
}

function uint(value: unknown, path: string): bigint {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  if (typeof value === 'string' && UINT.test(value)) {
    const n = BigInt(value);
    if (n <= U64_MAX) return n;
  }
  throw shapeError(path, 'a non-negative integer', value);
}

function small(value: unknown, path: string, max: number): number {
  const n = uint(value, path);
  if (n > BigInt(max)) throw shapeError(path, `an integer up to ${max}`, value);
  return Number(n);
}

/** "6.2500" (percent, up to four decimals) → 62 500 millionths, exactly: no float in between. */
export function percentToShares(value: string): number {
  const [whole, fraction = ''] = value.split('.');
  return Number(whole) * 10_000 + Number(fraction.padEnd(4, '0'));
}

function percent(value: unknown, path: string): string {
  return text(value, path, PERCENT, 'a percentage from 0 to 100');
}

function owner(value: unknown, path: string): ApiOwner {
  const o = rec(value, path);
  const addresses = o['addresses'];
  if (!Array.isArray(addresses)) throw shapeError(`${path}.addresses`, 'an array', addresses);
  const list = addresses.map((a, i) => text(a, `${path}.addresses[${i}]`, P_ADDRESS, 'a P-Chain address'));
  const threshold = small(o['threshold'], `${path}.threshold`, list.length);
  if (threshold === 0 && list.length > 0) throw shapeError(`${path}.threshold`, `1 to ${list.length}`, o['threshold']);
  return { locktime: uint(o['locktime'], `${path}.locktime`), threshold, addresses: list };
}

function optionalOwner(value: unknown, path: string): ApiOwner | undefined {
  return value === undefined || value === null ? undefined : owner(value, path);
}

function period(o: Rec, path: string): { start: bigint; end: bigint } {
  const start = uint(o['startTime'], `${path}.startTime`);
  const end = uint(o['endTime'], `${path}.endTime`);
  if (end < start) throw new NodeResponseError(`${path}: ends (${end}) before it starts (${start})`);
  return { start, end };
}

function delegator(value: unknown, path: string, nodeID: string): CurrentDelegator {
  const o = rec(value, path);
  const d: CurrentDelegator = {
    txID: text(o['txID'], `${path}.txID`, CB58, 'a CB58 tx ID'),
    nodeID: text(o['nodeID'], `${path}.nodeID`, NODE_ID, 'a NodeID'),
    ...period(o, path),
    weight: uint(o['weight'], `${path}.weight`),
    potentialReward: o['potentialReward'] === undefined ? 0n : uint(o['potentialReward'], `${path}.potentialReward`),
  };
  if (d.nodeID !== nodeID) throw new NodeResponseError(`${path}: a delegator of ${nodeID} names ${d.nodeID}`);
  const rewardOwner = optionalOwner(o['rewardOwner'], `${path}.rewardOwner`);
  if (rewardOwner) d.rewardOwner = rewardOwner;
  return d;
}

function validator(value: unknown, path: string): CurrentValidator {
  const o = rec(value, path);
  const nodeID = text(o['nodeID'], `${path}.nodeID`, NODE_ID, 'a NodeID');
  const exactFee = o['exactDelegationFee'];
  const v: CurrentValidator = {
    txID: text(o['txID'], `${path}.txID`, CB58, 'a CB58 tx ID'),
    nodeID,
    ...period(o, path),
    weight: uint(o['weight'], `${path}.weight`),
    potentialReward: o['potentialReward'] === undefined ? 0n : uint(o['potentialReward'], `${path}.potentialReward`),
    accruedDelegateeReward: o['accruedDelegateeReward'] === undefined ? 0n : uint(o['accruedDelegateeReward'], `${path}.accruedDelegateeReward`),
    delegationFee: exactFee !== undefined && exactFee !== null ? small(exactFee, `${path}.exactDelegationFee`, 1_000_000) : percentToShares(percent(o['delegationFee'], `${path}.delegationFee`)),
    uptime: o['uptime'] === undefined || o['uptime'] === null ? null : Number(percent(o['uptime'], `${path}.uptime`)),
    connected: o['connected'] === true,
    delegatorCount: o['delegatorCount'] === undefined ? 0 : small(o['delegatorCount'], `${path}.delegatorCount`, Number.MAX_SAFE_INTEGER),
    delegatorWeight: o['delegatorWeight'] === undefined ? 0n : uint(o['delegatorWeight'], `${path}.delegatorWeight`),
  };
  if (o['connected'] !== undefined && typeof o['connected'] !== 'boolean') throw shapeError(`${path}.connected`, 'a boolean', o['connected']);
  const validationRewardOwner = optionalOwner(o['validationRewardOwner'], `${path}.validationRewardOwner`);
  if (validationRewardOwner) v.validationRewardOwner = validationRewardOwner;
  const delegationRewardOwner = optionalOwner(o['delegationRewardOwner'], `${path}.delegationRewardOwner`);
  if (delegationRewardOwner) v.delegationRewardOwner = delegationRewardOwner;
  const signer = o['signer'];
  if (signer !== undefined && signer !== null) v.blsPublicKey = text(rec(signer, `${path}.signer`)['publicKey'], `${path}.signer.publicKey`, BLS_KEY, 'a 48-byte BLS key').toLowerCase();
  if (o['validatorAuthority'] !== undefined && o['validatorAuthority'] !== null) {
    v.autoRenew = {
      authority: owner(o['validatorAuthority'], `${path}.validatorAuthority`),
      nextPeriod: uint(o['nextPeriod'], `${path}.nextPeriod`),
      restakeShares: small(o['autoCompoundRewardShares'], `${path}.autoCompoundRewardShares`, 1_000_000),
    };
  }
  const delegators = o['delegators'];
  if (delegators !== undefined && delegators !== null) {
    if (!Array.isArray(delegators)) throw shapeError(`${path}.delegators`, 'an array', delegators);
    v.delegators = delegators.map((d, i) => delegator(d, `${path}.delegators[${i}]`, nodeID));
    // The totals the node gave must be those of the list it gave.
    const weight = v.delegators.reduce((s, d) => s + d.weight, 0n);
    if (v.delegators.length !== v.delegatorCount || weight !== v.delegatorWeight) {
      throw new NodeResponseError(`${path}: ${v.delegators.length} delegators of ${weight} listed, but the totals say ${v.delegatorCount} of ${v.delegatorWeight}`);
    }
  }
  return v;
}

/** The result of platform.getCurrentValidators for the Primary Network, checked. */
export function parseCurrentValidators(result: unknown): CurrentValidator[] {
  const path = 'platform.getCurrentValidators result';
  const list = rec(result, path)['validators'];
  if (!Array.isArray(list)) throw shapeError(`${path}.validators`, 'an array', list);
  const seen = new Set<string>();
  return list.map((v, i) => {
    const parsed = validator(v, `${path}.validators[${i}]`);
    if (seen.has(parsed.nodeID)) throw new NodeResponseError(`${path}: ${parsed.nodeID} is listed twice`);
    seen.add(parsed.nodeID);
    return parsed;
  });
}

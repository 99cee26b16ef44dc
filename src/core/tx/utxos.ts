// Which UTXOs the wallet may spend now, and how it picks them. Locked value (a future locktime,
// or a StakeableLockOut before its locktime) is never offered as spendable.
import { byteKey, type Bytes, equalBytes, toHex } from '../bytes.js';
import { utxoId } from '../codec/ids.js';
import { ownersOf } from '../codec/rules.js';
import type { OutputOwners, TransferableInput, Utxo } from '../codec/types.js';
import { MAX_U64 } from '../codec/io.js';
import { AssetLimitError, InsufficientFundsError } from '../errors.js';
import { cb58Encode } from '../encoding.js';

export interface AssetBalance {
  assetID: Bytes;
  spendable: bigint;
  /** Held but time-locked (OutputOwners locktime in the future). */
  locked: bigint;
  /** P-Chain only: stakeable-locked (vesting), usable for staking only. */
  lockedStakeable: bigint;
  /** The part of the three above that no tx proves (genesis funds, staking rewards, or a lie). */
  unproven: bigint;
  /**
   * The part of `spendable` that keys not the account's can also spend alone (a 1-of-2 with a
   * stranger's key): the account's only until that key moves it. Still spent by sends.
   */
  shared: bigint;
  /** The same for `locked` and `lockedStakeable`: a stranger's key can take it once it unlocks. */
  sharedLocked: bigint;
}

/**
 * Exact balances per asset from every UTXO of a read, as held at chain time `now`: spendable,
 * time-locked, stakeable-locked, and the parts of them others can spend or no tx proves.
 */
export function sumBalances(utxos: Iterable<Utxo>, owned: OwnedAddresses, now: bigint, isUnproven: (u: Utxo) => boolean): AssetBalance[] {
  const byAsset = new Map<string, AssetBalance>();
  // The client's reader shares one array per asset ID: by that array first, no key to make.
  const byArray = new Map<Bytes, AssetBalance>();
  const seen = new Map<Bytes, boolean>();
  for (const u of utxos) {
    let b = byArray.get(u.assetID);
    if (!b) {
      const key = byteKey(u.assetID);
      b = byAsset.get(key);
      if (!b) byAsset.set(key, (b = { assetID: u.assetID, spendable: 0n, locked: 0n, lockedStakeable: 0n, unproven: 0n, shared: 0n, sharedLocked: 0n }));
      byArray.set(u.assetID, b);
    }
    const c = classifyUtxo(u, owned, now, seen);
    const amount = c.state === 'spendable' ? c.spendable.amount : c.state === 'locked' || c.state === 'stakeable-locked' ? c.amount : 0n;
    if (c.state === 'spendable') {
      b.spendable += amount;
      if (othersCanSpend(ownersOf(u.output), owned, c.spendable.sigIndices)) b.shared += amount;
    } else if (c.state === 'locked' || c.state === 'stakeable-locked') {
      if (c.state === 'locked') b.locked += amount;
      else b.lockedStakeable += amount;
      if (othersCanSpend(ownersOf(u.output), owned, c.sigIndices)) b.sharedLocked += amount;
    }
    if (isUnproven(u)) b.unproven += amount;
  }
  return [...byAsset.values()];
}

/** The 20-byte short IDs the wallet holds keys for, as byteKey strings (made by ownedAddressSet). */
export type OwnedAddresses = ReadonlySet<string>;

export function ownedAddressSet(shortIds: Iterable<Bytes>): Set<string> {
  const set = new Set<string>();
  for (const id of shortIds) set.add(byteKey(id));
  return set;
}

export interface SpendableUtxo {
  utxo: Utxo;
  amount: bigint;
  /** The owned addresses' indices that satisfy the threshold, ascending. */
  sigIndices: number[];
  /** No tx proves it (src/core/proof.ts): spent only when the proven ones do not cover a payment. */
  unproven?: boolean;
  /** Always taken when its asset is selected (EngineOptions.spendFirst). */
  first?: boolean;
}

/**
 * The first `threshold` owned address indices, or undefined when our keys cannot meet it. `seen`
 * remembers, for one pass over many UTXOs, which address objects are owned (decoded UTXOs share
 * them), so each is looked up once.
 */
export function signingIndices(owners: OutputOwners, owned: OwnedAddresses, seen?: Map<Bytes, boolean>): number[] | undefined {
  const indices: number[] = [];
  for (let i = 0; i < owners.addresses.length && indices.length < owners.threshold; i++) {
    const address = owners.addresses[i]!;
    let mine = seen?.get(address);
    if (mine === undefined) {
      mine = owned.has(byteKey(address));
      seen?.set(address, mine);
    }
    if (mine) indices.push(i);
  }
  return indices.length === owners.threshold ? indices : undefined;
}

/**
 * Whether keys that are not the account's meet the owners' threshold on their own: another key
 * can spend the output at any time (a 1-of-2 with a stranger), so it is the account's only until
 * that key moves it. `sigIndices`: the account's, from signingIndices (whose count bounds the
 * account's addresses, so an owner set of the account's keys alone costs no lookup).
 */
export function othersCanSpend(owners: OutputOwners, owned: OwnedAddresses, sigIndices: readonly number[]): boolean {
  if (owners.addresses.length - sigIndices.length < owners.threshold) return false;
  let others = 0;
  for (const a of owners.addresses) if (!owned.has(byteKey(a))) others++;
  return others >= owners.threshold;
}

export type UtxoState =
  | { state: 'spendable'; spendable: SpendableUtxo }
  | { state: 'locked'; until: bigint; amount: bigint; sigIndices: number[] }
  | { state: 'stakeable-locked'; until: bigint; amount: bigint; sigIndices: number[] }
  | { state: 'not-spendable' };

/**
 * Classifies a fungible UTXO at chain time `now` (seconds): spendable by our keys, locked until a
 * time, stakeable-locked (P-Chain vesting), or not ours to spend (threshold unmet, not fungible).
 */
export function classifyUtxo(utxo: Utxo, owned: OwnedAddresses, now: bigint, seen?: Map<Bytes, boolean>): UtxoState {
  const lock = utxo.output.kind === 'StakeableLockOut' ? utxo.output : undefined;
  const output = lock ? lock.output : utxo.output;
  if (output.kind !== 'TransferOutput') return { state: 'not-spendable' };
  // Threshold first, vesting included: a 2-of-2 with one key of ours is nobody's balance here.
  const sigIndices = signingIndices(output.owners, owned, seen);
  if (!sigIndices) return { state: 'not-spendable' };
  if (lock && lock.locktime > now) return { state: 'stakeable-locked', until: lock.locktime, amount: output.amount, sigIndices };
  if (output.owners.locktime > now) return { state: 'locked', until: output.owners.locktime, amount: output.amount, sigIndices };
  return { state: 'spendable', spendable: { utxo, amount: output.amount, sigIndices } };
}

export function spendableUtxos(utxos: Iterable<Utxo>, owned: OwnedAddresses, now: bigint): SpendableUtxo[] {
  const out: SpendableUtxo[] = [];
  const seen = new Map<Bytes, boolean>();
  for (const u of utxos) {
    const c = classifyUtxo(u, owned, now, seen);
    if (c.state === 'spendable') out.push(c.spendable);
  }
  return out;
}

export function toTransferableInput(s: SpendableUtxo): TransferableInput {
  return {
    txID: s.utxo.txID,
    outputIndex: s.utxo.outputIndex,
    assetID: s.utxo.assetID,
    input: { kind: 'TransferInput', amount: s.amount, sigIndices: s.sigIndices },
  };
}

/** How many of the largest UTXOs a selection may leave out, one more each try, to fit the u64 limit. */
const MAX_LEFT_OUT = 32;
/**
 * A proven-first pick of more inputs than this is weighed against the largest-first one: proven
 * first must not cost a tx more inputs than it holds (many small proven UTXOs, e.g. dust a stranger
 * sent, beside large unproven ones such as staking rewards, made such funds unsendable).
 */
export const PROVEN_FIRST_MAX_INPUTS = 256;

/**
 * Picks UTXOs of one asset until `target` is covered: every one marked `first`, then largest first
 * (fewest inputs, so the smallest and cheapest tx), proven ones before unproven ones (which the
 * chain may not hold) unless that takes over PROVEN_FIRST_MAX_INPUTS inputs where largest first
 * takes fewer. What is picked adds up to at most `max` (by default a u64: the node adds a
 * tx's inputs of one asset in one, docs/protocol.md §X). Throws InsufficientFundsError naming what
 * is missing, or AssetLimitError when the funds are there but no pick found stays within `max`.
 */
export function selectUtxos(
  pool: readonly SpendableUtxo[],
  assetID: Bytes,
  target: bigint,
  options: { exclude?: ReadonlySet<string>; assetLabel?: string; max?: bigint } = {},
): { chosen: SpendableUtxo[]; total: bigint } {
  const candidates = pool.filter((s) => equalBytes(s.utxo.assetID, assetID) && !options.exclude?.has(utxoId(s.utxo)));
  const ordered = selectionOrder(candidates, true);
  const max = options.max ?? MAX_U64;
  const assetName = cb58Encode(assetID);
  const pick = pickWithin(ordered, target, max, 0);
  if (pick.total >= target && pick.total <= max) {
    if (pick.chosen.length <= PROVEN_FIRST_MAX_INPUTS) return pick;
    const bySize = pickWithin(selectionOrder(candidates, false), target, max, 0);
    return bySize.total >= target && bySize.total <= max && bySize.chosen.length < pick.chosen.length ? bySize : pick;
  }
  const spendable = ordered.reduce((sum, s) => sum + s.amount, 0n);
  if (spendable < target) throw new InsufficientFundsError(assetName, target, spendable, options.assetLabel ?? assetName);
  // Enough, but the largest ones cannot go together: try without the largest one, two, … (when
  // 10 + 9 + 9 goes over, 9 + 9 may fit). A heuristic: an exact search is a subset-sum problem.
  for (let leftOut = 1; pick.total <= max && leftOut <= MAX_LEFT_OUT && leftOut < ordered.length; leftOut++) {
    const other = pickWithin(ordered, target, max, leftOut);
    if (other.total >= target) return other;
  }
  const most = pickWithin(ordered, max + 1n, max, 0).total;
  throw new AssetLimitError(assetName, most <= max ? most : max, options.assetLabel ?? assetName);
}

/**
 * The order selection takes `candidates` in: those marked `first`, then (`proofFirst`) proven
 * before unproven, then the largest. Sort keys are made once per candidate, the amount as a
 * Number (order-preserving, so only equal Numbers need the exact bigint comparison).
 */
export function selectionOrder(candidates: readonly SpendableUtxo[], proofFirst: boolean): SpendableUtxo[] {
  const keyed = candidates.map((s) => ({ s, rank: (s.first ? 0 : 2) + (proofFirst && s.unproven ? 1 : 0), size: Number(s.amount) }));
  keyed.sort((a, b) => a.rank - b.rank || b.size - a.size || (a.s.amount === b.s.amount ? 0 : a.s.amount > b.s.amount ? -1 : 1));
  return keyed.map((k) => k.s);
}

/**
 * Takes `ordered` in turn until `target` is covered, leaving out the first `leftOut` that are not
 * `first`, and passing by any that would take the total over `max` (a `first` one is always taken:
 * a refused send's input, which the new tx must share; the caller checks the total).
 */
function pickWithin(ordered: readonly SpendableUtxo[], target: bigint, max: bigint, leftOut: number): { chosen: SpendableUtxo[]; total: bigint } {
  const chosen: SpendableUtxo[] = [];
  let total = 0n;
  let skipped = 0;
  for (const c of ordered) {
    if (total >= target && !c.first) break;
    if (!c.first && (skipped < leftOut || total + c.amount > max)) {
      if (skipped < leftOut) skipped++;
      continue;
    }
    chosen.push(c);
    total += c.amount;
  }
  return { chosen, total };
}

/** Sum of spendable amounts per asset (hex asset ID). */
export function sumByAsset(items: Iterable<{ assetID: Bytes; amount: bigint }>): Map<string, bigint> {
  const sums = new Map<string, bigint>();
  for (const { assetID, amount } of items) {
    const key = toHex(assetID);
    sums.set(key, (sums.get(key) ?? 0n) + amount);
  }
  return sums;
}

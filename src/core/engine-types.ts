// WalletEngine's (engine.ts) exported types and helpers (keys, options, results, tx fates), its
// builders' spend params, and the P-Chain clock a tx sent now is judged by (pClock).
import type { Bytes } from './bytes.js';
import type { UnsignedTx } from './codec/types.js';
import type { WalletEngine } from './engine.js';
import { WalletError } from './errors.js';
import { CLOCK_AHEAD_LIMIT } from './staking/rules.js';
import type { KeyPair } from './keys.js';
import type { ChainAlias, TxOutcome, WaitOptions } from './node.js';
import type { ProofCache } from './proof.js';
import type { PSpendParams } from './tx/p.js';
import type { SpendableUtxo } from './tx/utxos.js';
import type { XSpendParams } from './tx/x.js';

export type { AssetBalance } from './tx/utxos.js';

export interface EngineKeys {
  /** Every X/P key of the account (receive and change addresses scanned so far). */
  xp: KeyPair[];
  /** The account's EVM key; its short ID also owns atomic UTXOs sent to the C-Chain. */
  evm: KeyPair;
  /** Short ID that receives change (a fresh change address). */
  change: Bytes;
}

export interface EngineOptions {
  /** EVM chain ID of the C-Chain (43112 on local). */
  evmChainId: bigint;
  /** Percent of the C-Chain base fee paid for atomic txs (default 125: a rise of a quarter before inclusion is absorbed). */
  atomicBaseFeeHeadroom?: bigint;
  /** Percent of it a fee the user reviewed must still pay to be paid instead of a costlier one of now (default 110). */
  atomicBaseFeeFloor?: bigint;
  /** Percent of the P-Chain gas price paid (default 100: the exact current price). */
  pPriceHeadroom?: bigint;
  wait?: WaitOptions;
  /** Proofs of UTXOs already checked against their txs (default: this engine's own, in memory). */
  proofs?: ProofCache;
  /**
   * UTXOs (by ID, each to the kept txs that spend it) every selection of their asset takes: the
   * inputs of sends the node refused or that were taken back, so that the next send conflicts with
   * them and at most one of the two can run (src/background/refused.ts).
   */
  spendFirst?: ReadonlyMap<string, readonly string[]>;
  /**
   * UTXOs (by ID, each to the kept txs that spend it) no selection takes unless in spendFirst: the
   * inputs of a move's export not decided yet, so a new tx never takes the funds of one that may
   * still run.
   */
  spendNever?: ReadonlyMap<string, readonly string[]>;
  /** What txs taken as accepted spent, to tell when a node contradicts one (see SpentRecord). */
  spent?: SpentRecord;
  /**
   * Txs another chain may prove ran, each to the txs there that spent what it created (a move's
   * export, to its imports the journal took as accepted) and to the UTXOs it spent, as far as known.
   * A read listing again what one spent (`spends`, or as noted in `spent`) is not believed if the
   * node now calls one of those imports accepted (the journal's word alone could be an earlier
   * node's lie): that UTXO is left out, never counted or selected, and the tx is not taken back.
   */
  ranElsewhere?: ReadonlyMap<string, RanElsewhere>;
}

/** A tx of EngineOptions.ranElsewhere: the txs of another chain that spent what it created, and the UTXO IDs it spent. */
export interface RanElsewhere {
  imports: readonly { chain: ChainAlias; txID: string }[];
  spends: readonly string[];
}

/**
 * The UTXOs (by ID) spent by the X, P and atomic txs this wallet took as accepted, and by which. A
 * node listing one again contradicts what was taken (it left a tx's input out of one read, say, or
 * lags now): the tx is followed again (WalletEngine.contradicted), its funds never counted twice.
 */
export interface SpentRecord {
  /** The tx that spent a UTXO; a tx taken as accepted is noted under its own ID too (a UTXO's is `txID:index`). */
  spenderOf(utxoID: string): string | undefined;
  note(txID: string, utxoIDs: readonly string[]): void;
  /** Takes back what `txID` was noted to spend (a contradicted acceptance). */
  forget(txID: string): void;
}

export interface Issued<T extends UnsignedTx = UnsignedTx> {
  chain: ChainAlias;
  txID: string;
  tx: T;
  /** nAVAX this tx burns. */
  fee: bigint;
  signedBytes: Bytes;
}

/** A tx the node did not accept (dropped, aborted, rejected), with the node's reason. */
export class TxFailedError extends WalletError {
  constructor(readonly outcome: TxOutcome) {
    super('tx-failed', `${outcome.chain}-Chain transaction ${outcome.txID} was not accepted: ${outcome.status}${outcome.reason ? ` (${outcome.reason})` : ''}`);
  }
}

/** A tx's fate as far as the node knows it. */
export type TxState = 'accepted' | 'failed' | 'processing' | 'unknown';
/** A signed tx's fate: the node's word checked against what the tx spends and creates (txFate). */
export type TxFate = Exclude<TxState, 'unknown'> | 'not-seen' | 'inputs-spent';

/** A C-Chain EVM tx, signed: its 0x hash is its ID. */
export interface SignedEvm {
  txID: string;
  signedBytes: Bytes;
  /** The most it can cost: gasLimit × maxFeePerGas, in wei. */
  maxFeeWei: bigint;
}

/** What a C-Chain EVM tx would be signed with now: gas it likely uses, the limit signed, fees (wei). */
export interface EvmQuote {
  gasLimit: bigint;
  gasUse: bigint;
  baseFeeWei: bigint;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

/** Nonces of this wallet's own EVM txs the node has not decided on: sent, and refused (see evmNonce). */
export interface EvmNonces {
  live: readonly bigint[];
  voided: readonly bigint[];
}

export const isEvmHash = (txID: string): boolean => /^0x[0-9a-fA-F]{64}$/.test(txID);

/**
 * The atomic UTXOs an import takes now. One UTXO the chain does not hold makes it refuse the whole
 * import: unproven ones wait until they are all that is left, so they never hold up proven funds.
 */
export function provenFirst(utxos: SpendableUtxo[]): SpendableUtxo[] {
  const proven = utxos.filter((u) => !u.unproven);
  return proven.length > 0 ? proven : utxos;
}

/** What an engine's X-Chain builders take: its spendable UTXOs, the chain time and its change owners. */
export async function xParams(e: WalletEngine, memo?: Bytes): Promise<XSpendParams> {
  const [pool, now] = await Promise.all([e.spendable('X'), e.now('X')]);
  return { ctx: e.ctx, pool, now, changeOwners: e.changeOwners, ...(memo ? { memo } : {}) };
}

/** What an engine's P-Chain builders take: its spendable UTXOs, the fee inputs of now and its change owners. */
export async function pParams(e: WalletEngine): Promise<PSpendParams> {
  const [pool, fee] = await Promise.all([e.spendable('P'), e.pFeeContext()]);
  return { ctx: e.ctx, fee, pool, changeOwners: e.changeOwners };
}

/**
 * The time a lock is judged ended by: the chain's (`now`), on the P-Chain never more than
 * CLOCK_AHEAD_LIMIT past this computer's clock. A node claiming a time far ahead would make
 * vesting funds look spendable; a send of them is refused, and its signed bytes, kept, hold up
 * every later send until the lock ends (refused.ts).
 */
export async function lockTime(e: Pick<WalletEngine, 'now'>, chain: ChainAlias): Promise<bigint> {
  const chainTime = await e.now(chain);
  return chain === 'P' ? lockClamp(chainTime) : chainTime;
}

/** A P-Chain time as locks are judged by it: no later than CLOCK_AHEAD_LIMIT past this computer's clock. */
export function lockClamp(chainTime: bigint): bigint {
  const latest = BigInt(Math.floor(Date.now() / 1000)) + CLOCK_AHEAD_LIMIT;
  return chainTime < latest ? chainTime : latest;
}

/**
 * The P-Chain's last block time, and `now`: the time a tx sent now is judged from, Unix seconds.
 * The node judges it by its next block's time, its own clock or its last block's if later, so the
 * later of the last block's time (an idle chain's can be minutes old) and this computer's clock (a
 * computer's can be behind the chain's, then only the chain's time says a send-before time passed).
 * `clock` is this computer's clock alone.
 */
export async function pClock(e: Pick<WalletEngine, 'now'>): Promise<{ chainTime: bigint; now: bigint; clock: bigint }> {
  const [chainTime, clock] = await Promise.all([e.now('P'), e.now('X')]);
  return { chainTime, now: chainTime > clock ? chainTime : clock, clock };
}

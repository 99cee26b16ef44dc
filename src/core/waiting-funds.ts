// Funds waiting in atomic memory for the account (exported to one of its chains, not imported yet):
// what a one-click import would bring in, and the imports that take them, built (not signed), each
// paid only from what it brings in. A move's own export is left to the move (`leave`).
import { equalBytes } from './bytes.js';
import { utxoId } from './codec/ids.js';
import type { Utxo } from './codec/types.js';
import { cb58Encode } from './encoding.js';
import { provenFirst, type WalletEngine } from './engine.js';
import { InsufficientFundsError } from './errors.js';
import type { ChainAlias } from './node.js';
import { packAtomicImports } from './tx/c.js';
import { MAX_XP_TX_SIZE } from './tx/context.js';
import type { BuiltTx } from './tx/built.js';
import type { SpendableUtxo } from './tx/utxos.js';
import * as x from './tx/x.js';

/** One import of funds waiting in atomic memory, built, not signed. */
export interface WaitingImport {
  to: ChainAlias;
  from: ChainAlias;
  built: BuiltTx;
  /** nAVAX of AVAX it takes out of atomic memory (before its fee). */
  avax: bigint;
}

export interface WaitingFunds {
  to: ChainAlias;
  from: ChainAlias;
  utxoCount: number;
  /** nAVAX waiting (before the import fee). */
  amount: bigint;
}

const CHAIN_PAIRS: readonly (readonly [ChainAlias, ChainAlias])[] = [
  ['X', 'P'], ['X', 'C'], ['P', 'X'], ['P', 'C'], ['C', 'X'], ['C', 'P'],
];

/**
 * Funds waiting in atomic memory for this wallet (owned by its X/P keys or its EVM key's
 * C-bech32 address), per destination and source chain, but what the txs in `leave` exported (a
 * move's own): what a one-click import would bring in. `moving`: nAVAX those txs exported
 * (proven), there now, by UTXO ID: in no chain's balance until their moves import it.
 */
export async function waitingFunds(engine: WalletEngine, leave: ReadonlySet<string> = new Set()): Promise<{ waiting: WaitingFunds[]; moving: Map<string, bigint> }> {
  const moving = new Map<string, bigint>();
  const found = await Promise.all(
    CHAIN_PAIRS.map(async ([to, from]) => {
      const atomic = await engine.atomicSpendable(to, from);
      for (const u of atomic) if (leave.has(cb58Encode(u.utxo.txID)) && !u.unproven) moving.set(utxoId(u.utxo), avaxOf(engine, [u.utxo]));
      const utxos = importable(engine, to, atomic, leave);
      // AVAX only: another asset's units are not nAVAX (an X import brings them in all the same).
      return { to, from, utxoCount: utxos.length, amount: avaxOf(engine, utxos.map((u) => u.utxo)) };
    }),
  );
  return { waiting: found.filter((f) => f.utxoCount > 0), moving };
}

/**
 * Builds (does not sign) the imports of everything waiting in atomic memory, on every chain, but
 * what the txs `leaveOf` names exported. `leaveOf` is asked once every chain's atomic memory has
 * been read: a move journals its export before sending it, so a journal read then knows every
 * export seen. Funds whose import would need the wallet's own funds for its fee are listed as
 * too small, not built: an import only ever pays from what it brings in.
 */
export async function buildWaitingImports(
engine: WalletEngine,
leaveOf: () => Promise<ReadonlySet<string>> = async () => new Set(),
): Promise<{ imports: WaitingImport[]; tooSmall: WaitingFunds[] }> {
  const read = await Promise.all(CHAIN_PAIRS.map(async ([to, from]) => ({ to, from, utxos: await engine.atomicSpendable(to, from) })));
  const leave = await leaveOf();
  const imports: WaitingImport[] = [];
  const tooSmall: WaitingFunds[] = [];
  for (const { to, from, utxos } of read) {
    const waiting = importable(engine, to, utxos, leave);
    if (waiting.length === 0) continue;
    const atomic = new Set(waiting.map((u) => utxoId(u.utxo)));
    // Packed as the builders pack them (largest first, one tx per group), each group built on
    // its own: one that cannot pay its own fee (dust someone sent) waits without holding up the
    // others. Within such a group, the most of its largest that can pay (a binary search: exact
    // for X's fixed fee, close for P and C, whose fee grows by input).
    const ordered = provenFirst(waiting);
    const groups = to === 'C' ? packAtomicImports(ordered) : x.packInputs(ordered, MAX_XP_TX_SIZE);
    // Paid only from what it brings in, or not at all (a top-up from the wallet's balance is a no).
    const build = async (group: SpendableUtxo[]): Promise<BuiltTx[] | undefined> => {
      try {
        const txs = await engine.buildImportsOf(to, from, group);
        return txs.every((b) => b.spent.every((u) => atomic.has(utxoId(u)))) ? txs : undefined;
      } catch (e) {
        if (!(e instanceof InsufficientFundsError)) throw e;
        return undefined;
      }
    };
    const built: BuiltTx[] = [];
    for (const group of groups) {
      let best = await build(group);
      if (!best) {
        for (let lo = 0, hi = group.length - 1; lo < hi; ) {
          const mid = Math.ceil((lo + hi) / 2);
          const tried = await build(group.slice(0, mid));
          if (tried) [lo, best] = [mid, tried];
          else hi = mid - 1;
        }
      }
      built.push(...(best ?? []));
    }
    const left = ordered.filter((u) => !built.some((b) => b.spent.includes(u.utxo)));
    if (left.length > 0) tooSmall.push({ to, from, utxoCount: left.length, amount: avaxOf(engine, left.map((u) => u.utxo)) });
    for (const b of built) imports.push({ to, from, built: b, avax: avaxOf(engine, b.spent) });
  }
  return { imports, tooSmall };
}

/** What of `utxos` an import into `to` can take: not what the txs in `leave` exported (a move's own), and on P and C AVAX only. */
function importable(engine: WalletEngine, to: ChainAlias, utxos: readonly SpendableUtxo[], leave: ReadonlySet<string>): SpendableUtxo[] {
  return utxos.filter((u) => !leave.has(cb58Encode(u.utxo.txID)) && (to === 'X' || equalBytes(u.utxo.assetID, engine.ctx.avaxAssetID)));
}

/** nAVAX of AVAX in `utxos`. */
function avaxOf(engine: WalletEngine, utxos: readonly Utxo[]): bigint {
  return utxos.reduce((t, u) => t + (equalBytes(u.assetID, engine.ctx.avaxAssetID) && u.output.kind === 'TransferOutput' ? u.output.amount : 0n), 0n);
}

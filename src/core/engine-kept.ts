// What a UTXO read is checked against: the txs the wallet keeps (refused or taken back: spendFirst;
// a move's export not decided: spendNever), what txs taken as accepted spent (the spent book), and
// what a move's export spent once another chain proves it ran (ranElsewhere); and, from the kept
// txs, which UTXOs a selection takes first or never. One per engine.
import { utxoId } from './codec/ids.js';
import type { Utxo } from './codec/types.js';
import type { EngineOptions, RanElsewhere, SpentRecord, TxState } from './engine-types.js';
import type { ChainAlias } from './node.js';
import { withoutOutputsOf } from './tx-fate.js';

/** Why a read left a UTXO out, as the engine tells it (WalletEngine.droppedUtxos). */
export type LeftOut = (id: string, reason: string) => void;

export class KeptSpenders {
  /** The txs taken as accepted whose inputs a read listed again. */
  readonly contradicted = new Set<string>();
  readonly #spendFirst: ReadonlyMap<string, readonly string[]>;
  readonly #spendNever: ReadonlyMap<string, readonly string[]>;
  readonly #spent: SpentRecord | undefined;
  readonly #ranElsewhere: ReadonlyMap<string, RanElsewhere>;
  /** What each tx of `ranElsewhere` spent, by UTXO ID: known whichever spent book this engine has. */
  readonly #spentElsewhere = new Map<string, string>();
  /** Per tx of `ranElsewhere`, whether the node calls one of its successors accepted (asked once). */
  readonly #provenElsewhere = new Map<string, Promise<boolean>>();

  constructor(
    options: Pick<EngineOptions, 'spendFirst' | 'spendNever' | 'spent' | 'ranElsewhere'>,
    private readonly txState: (chain: ChainAlias, txID: string) => Promise<TxState>,
  ) {
    this.#spent = options.spent;
    this.#spendFirst = options.spendFirst ?? new Map();
    this.#spendNever = options.spendNever ?? new Map();
    this.#ranElsewhere = options.ranElsewhere ?? new Map();
    for (const [txID, { spends }] of this.#ranElsewhere) for (const id of spends) this.#spentElsewhere.set(id, txID);
  }

  /** Whether every selection of its asset takes UTXO `id` (EngineOptions.spendFirst). */
  takenFirst(id: string): boolean {
    return this.#spendFirst.has(id);
  }

  /** Whether no selection takes UTXO `id` (EngineOptions.spendNever; spendFirst wins). */
  neverTaken(id: string): boolean {
    return !this.#spendFirst.has(id) && this.#spendNever.has(id);
  }

  /**
   * `read` (proven or not) without what the kept txs say cannot be there, each told through
   * `leftOut`: the outputs of every kept tx whose input the read lists (none of them ran), and an
   * input of a tx another chain proves ran. An input of a tx taken as accepted is kept, and that tx
   * is contradicted (counted once it is followed again: never both).
   */
  async screen(read: readonly Utxo[], leftOut: LeftOut): Promise<Utxo[]> {
    const spenders = new Set<string>();
    const listed: Utxo[] = [];
    for (const u of read) {
      const id = utxoId(u);
      // Every kept tx spending it (two refused sends may share an input): none of them ran.
      for (const kept of [...(this.#spendFirst.get(id) ?? []), ...(this.#spendNever.get(id) ?? [])]) spenders.add(kept);
      // Spent by a tx taken as accepted: the node contradicts it, now or when it was taken. Kept
      // (counted once the tx is followed again: never both), and told (`contradicted`); but for a
      // tx another chain proves ran (a move's export whose import the node calls accepted, noted
      // here or in its move's record): left out.
      const spender = this.#spent?.spenderOf(id);
      const recorded = this.#spentElsewhere.get(id);
      if ((spender !== undefined && (await this.#ranOnOtherChain(spender))) || (recorded !== undefined && recorded !== spender && (await this.#ranOnOtherChain(recorded)))) {
        leftOut(id, 'spent by a move whose funds arrived on the other chain');
        continue;
      }
      listed.push(u);
      if (spender === undefined) continue;
      this.contradicted.add(spender);
      spenders.add(spender);
    }
    const { utxos, unrun } = withoutOutputsOf(listed, spenders);
    for (const u of unrun) leftOut(utxoId(u), 'created by a transaction whose inputs the node lists as unspent');
    return utxos;
  }

  /** Whether the node calls accepted a tx of another chain that spent what `txID` created (EngineOptions.ranElsewhere). */
  #ranOnOtherChain(txID: string): Promise<boolean> {
    const successors = this.#ranElsewhere.get(txID)?.imports;
    if (successors === undefined) return Promise.resolve(false);
    let asked = this.#provenElsewhere.get(txID);
    if (asked === undefined) {
      asked = Promise.all(successors.map((s) => this.txState(s.chain, s.txID).catch(() => 'unknown'))).then((states) => states.includes('accepted'));
      this.#provenElsewhere.set(txID, asked);
    }
    return asked;
  }
}

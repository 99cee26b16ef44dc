// What the account's X, P and atomic txs taken as accepted spent (the engine's SpentRecord), kept
// per network entry beside its cache: a node that lists one of those UTXOs again contradicts the
// acceptance, and the tx is followed again (reopenContradicted in settle-activity.ts), so its funds
// never count as both spent (staked, say) and spendable (docs/architecture.md).
import type { SpentRecord } from '../core/engine.js';
import { oneAtATime, type StorageArea } from './storage.js';

/**
 * The newest this many IDs (UTXOs, and each tx's own: the last thousand txs or so) are kept, about
 * 220 KB at most: a node listing an older one again is taken at its word, as before any was kept.
 */
export const SPENT_KEPT = 2_048;

const isPair = (v: unknown): v is [string, string] => Array.isArray(v) && v.length === 2 && v.every((s) => typeof s === 'string');

export class SpentBook implements SpentRecord {
  private constructor(
    private readonly local: StorageArea,
    private readonly key: string,
    private readonly known: Map<string, string>,
    private readonly log?: (line: string) => void,
  ) {}

  /** The book as stored, after the writes under way; a damaged one reads as empty (less to go on, never a wrong balance). */
  static async open(local: StorageArea, key: string, log?: (line: string) => void): Promise<SpentBook> {
    return new SpentBook(local, key, await oneAtATime(key, () => read(local, key)), log);
  }

  spenderOf(utxoID: string): string | undefined {
    return this.known.get(utxoID);
  }

  note(txID: string, utxoIDs: readonly string[]): void {
    this.change(txID, (book) => add(book, txID, utxoIDs));
  }

  forget(txID: string): void {
    this.change(txID, (book) => {
      for (const [id, spender] of book) if (spender === txID) book.delete(id);
    });
  }

  /** Forgets all (a restarted network: its UTXO IDs start over, its genesis's first). */
  async clear(): Promise<void> {
    this.known.clear();
    await oneAtATime(this.key, () => this.local.remove([this.key]));
  }

  /** Known here at once; written in order, over what other engines wrote meanwhile (a lost write is logged: only less to go on). */
  private change(txID: string, change: (book: Map<string, string>) => void): void {
    change(this.known);
    void oneAtATime(this.key, async () => {
      const stored = await read(this.local, this.key);
      change(stored);
      await this.local.set({ [this.key]: [...stored] });
    }).catch((e: unknown) => this.log?.(`what ${txID} spent not saved: ${(e as Error).message}`));
  }
}

async function read(local: StorageArea, key: string): Promise<Map<string, string>> {
  const stored = (await local.get([key]))[key];
  return new Map(Array.isArray(stored) ? stored.filter(isPair) : []);
}

function add(book: Map<string, string>, txID: string, utxoIDs: readonly string[]): void {
  for (const id of utxoIDs) {
    book.delete(id);
    book.set(id, txID);
  }
  for (const id of book.keys()) {
    if (book.size <= SPENT_KEPT) break;
    book.delete(id);
  }
}

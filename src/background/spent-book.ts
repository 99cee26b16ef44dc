// What the account's X, P and atomic txs taken as accepted spent (the engine's SpentRecord), kept
// per network entry beside its cache: a node that lists one of those UTXOs again is not believed,
// so funds a tx took as final are never counted or spent a second time (docs/architecture.md).
import type { SpentRecord } from '../core/engine.js';
import { oneAtATime, type StorageArea } from './storage.js';

/**
 * The newest this many UTXO IDs are kept (about 450 KB at most): a node listing an older one again
 * is taken at its word, as before the wallet kept any.
 */
export const SPENT_KEPT = 4_096;

const isPair = (v: unknown): v is [string, string] => Array.isArray(v) && v.length === 2 && v.every((s) => typeof s === 'string');

export class SpentBook implements SpentRecord {
  private constructor(
    private readonly local: StorageArea,
    private readonly key: string,
    private readonly known: Map<string, string>,
    private readonly log?: (line: string) => void,
  ) {}

  /** The book as stored; a damaged one reads as empty (less to go on, never a wrong balance). */
  static async open(local: StorageArea, key: string, log?: (line: string) => void): Promise<SpentBook> {
    // After the writes under way: one noted by an engine a moment ago counts in this one.
    return new SpentBook(local, key, await oneAtATime(key, () => read(local, key)), log);
  }

  spenderOf(utxoID: string): string | undefined {
    return this.known.get(utxoID);
  }

  /** Known at once; written in order with what other engines noted meanwhile (a lost write is logged: only less to go on). */
  note(txID: string, utxoIDs: readonly string[]): void {
    add(this.known, txID, utxoIDs);
    void oneAtATime(this.key, async () => {
      const stored = await read(this.local, this.key);
      add(stored, txID, utxoIDs);
      await this.local.set({ [this.key]: [...stored] });
    }).catch((e: unknown) => this.log?.(`spent inputs of ${txID} not saved: ${(e as Error).message}`));
  }

  /** Forgets all (a restarted network: its UTXO IDs start over, its genesis's first). */
  async clear(): Promise<void> {
    this.known.clear();
    await oneAtATime(this.key, () => this.local.remove([this.key]));
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

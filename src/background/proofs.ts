// The UTXO proofs the wallet has made (src/core/proof.ts), kept across worker restarts so that a
// refresh reads each creating tx once, ever. A fingerprint says "these exact UTXO bytes are an
// output of the tx they name": true on any network, forever, so one list serves every network.
import type { ProofCache } from '../core/proof.js';
import type { StorageArea } from './storage.js';

const KEY = 'xpc.utxoProofs';
/** Beyond this the oldest proofs are forgotten (they are made again if needed): ~1.8 MB stored. */
export const MAX_PROOFS = 50_000;
const FINGERPRINT = /^[XPC]{1,2}[0-9a-f]{32}$/;

export class ProofStore {
  #cache: Promise<ProofCache & { dirty: boolean; list: string[] }> | null = null;

  constructor(private readonly area: StorageArea) {}

  /** The proofs made so far, read from storage once per worker. */
  cache(): Promise<ProofCache> {
    // A read that failed (storage busy) is tried again next time, not remembered.
    this.#cache ??= this.load().catch((e: unknown) => {
      this.#cache = null;
      throw e;
    });
    return this.#cache;
  }

  /** Writes the proofs made since the last save (a no-op when there are none). */
  async save(): Promise<void> {
    if (!this.#cache) return;
    const cache = await this.#cache;
    if (!cache.dirty) return;
    if (cache.list.length > MAX_PROOFS) cache.list.splice(0, cache.list.length - MAX_PROOFS);
    cache.dirty = false;
    await this.area.set({ [KEY]: cache.list });
  }

  private async load() {
    const stored = (await this.area.get([KEY]))[KEY];
    // A damaged list is only a lost cache: the proofs are made again from the chain.
    const valid = Array.isArray(stored) && stored.every((f) => typeof f === 'string' && FINGERPRINT.test(f));
    const list: string[] = valid ? [...(stored as string[])] : [];
    const set = new Set(list);
    const cache = {
      dirty: !valid && stored !== undefined,
      list,
      has: (f: string) => set.has(f),
      add: (f: string) => {
        if (set.has(f)) return;
        set.add(f);
        list.push(f);
        cache.dirty = true;
      },
    };
    return cache;
  }
}

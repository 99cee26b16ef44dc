import { describe, expect, it } from 'vitest';
import { MAX_PROOFS, ProofStore } from '../../src/background/proofs.js';
import { memoryStores } from '../../src/background/storage.js';
import { utxoFingerprint } from '../../src/core/proof.js';

const fp = (n: number) => utxoFingerprint('X', undefined, Uint8Array.of(n >> 16, (n >> 8) & 0xff, n & 0xff));

describe('the UTXO proof store', () => {
  it('keeps proofs across workers: a new store over the same storage knows them', async () => {
    const { local } = memoryStores();
    const first = new ProofStore(local);
    (await first.cache()).add(fp(1));
    await first.save();
    const second = await new ProofStore(local).cache();
    expect(second.has(fp(1))).toBe(true);
    expect(second.has(fp(2))).toBe(false);
  });

  it('fingerprints tell chains and atomic memory apart', () => {
    const bytes = Uint8Array.of(1, 2, 3);
    expect(new Set([utxoFingerprint('X', undefined, bytes), utxoFingerprint('P', undefined, bytes), utxoFingerprint('C', 'X', bytes), utxoFingerprint('C', 'P', bytes)]).size).toBe(4);
  });

  it('writes nothing when nothing new was proven', async () => {
    const { local } = memoryStores();
    let writes = 0;
    const counting = { ...local, set: async (items: Record<string, unknown>) => (writes++, local.set(items)) };
    const store = new ProofStore(counting);
    await store.cache();
    await store.save();
    expect(writes).toBe(0);
  });

  it('a damaged list is a lost cache, not an error: proofs are made again and the list rewritten', async () => {
    for (const damaged of ['not a list', [1, 2], ['zz'], [fp(1), 'short']]) {
      const { local } = memoryStores();
      await local.set({ 'xpc.utxoProofs': damaged });
      const store = new ProofStore(local);
      const cache = await store.cache();
      expect(cache.has(fp(1))).toBe(false);
      await store.save();
      expect((await local.get(['xpc.utxoProofs']))['xpc.utxoProofs']).toEqual([]);
    }
  });

  it(`forgets the oldest proofs beyond ${MAX_PROOFS}`, async () => {
    const { local } = memoryStores();
    const store = new ProofStore(local);
    const cache = await store.cache();
    for (let i = 0; i <= MAX_PROOFS; i++) cache.add(fp(i));
    await store.save();
    const reloaded = await new ProofStore(local).cache();
    expect(reloaded.has(fp(0))).toBe(false);
    expect(reloaded.has(fp(1))).toBe(true);
    expect(reloaded.has(fp(MAX_PROOFS))).toBe(true);
  });
});

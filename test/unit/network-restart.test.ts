// A refresh's P-Chain height: a restarted local network (other first blocks) drops the account's
// cache; a node that only answers a block behind (a load balancer's lagging backend) never does.
import { describe, expect, it } from 'vitest';
import { type AccountCache, emptyCache } from '../../src/background/account-cache.js';
import { cacheAtHeight, restartable } from '../../src/background/network-restart.js';

const GENESIS = 'genesis-A';
const FIRST = 'block-1-A';

/** A node whose P-Chain has these first blocks; counts the reads. */
function chain(ids: string[], fail = false) {
  const asked: bigint[] = [];
  return {
    asked,
    blocks: {
      idAt: async (h: bigint) => {
        asked.push(h);
        if (fail || ids[Number(h)] === undefined) throw new Error('not found');
        return ids[Number(h)]!;
      },
    },
  };
}

/** A cache with history: a send in Activity, known UTXOs, address indices handed out. */
function seen(extra: Partial<AccountCache> = {}): AccountCache {
  return {
    ...emptyCache(),
    pHeight: '100',
    pBlocks: [GENESIS, FIRST],
    receiveNext: 4,
    changeNext: 3,
    activity: [{ txID: 'mine', chain: 'X', kind: 'send', status: 'accepted', createdAt: 1 }],
    knownUtxos: ['u1'],
    knownPUtxos: ['p1'],
    ...extra,
  };
}

describe('cacheAtHeight', () => {
  it('keeps everything when a custom network\'s node answers below the height seen on the same chain (a lagging backend)', async () => {
    const { blocks } = chain([GENESIS, FIRST]);
    const cache = seen();
    const after = await cacheAtHeight(blocks, cache, 99n, true);
    expect(after.activity.map((a) => a.txID)).toEqual(['mine']);
    expect(after).toMatchObject({ knownUtxos: ['u1'], knownPUtxos: ['p1'], receiveNext: 4, changeNext: 3 });
    // The height is never lowered: the next answer from the lagging backend is checked again.
    expect(after.pHeight).toBe('100');
  });

  it('drops the history of a restarted network (other first blocks), keeping the address indices', async () => {
    const { blocks } = chain(['genesis-B', 'block-1-B']);
    const after = await cacheAtHeight(blocks, seen(), 7n, true);
    expect(after.activity).toEqual([]);
    expect(after).toMatchObject({ knownUtxos: [], receiveNext: 4, changeNext: 3, pHeight: '7', pBlocks: ['genesis-B', 'block-1-B'] });
    expect(after.knownPUtxos).toBeUndefined();
  });

  it('tells a restart by the genesis alone while the new chain has no block 1 yet', async () => {
    const { blocks } = chain(['genesis-B']);
    const after = await cacheAtHeight(blocks, seen(), 0n, true);
    expect(after).toMatchObject({ activity: [], pBlocks: ['genesis-B'], pHeight: '0' });
  });

  it('drops nothing when the first blocks cannot be read, or were never recorded (a cache from before)', async () => {
    const unreadable = await cacheAtHeight(chain([], true).blocks, seen(), 5n, true);
    expect(unreadable.activity).toHaveLength(1);
    const { pBlocks: _none, ...older } = seen();
    const unknown = await cacheAtHeight(chain(['genesis-B', 'block-1-B']).blocks, older, 5n, true);
    expect(unknown.activity).toHaveLength(1);
    // Recorded now: the next restart is told.
    expect(unknown.pBlocks).toEqual(['genesis-B', 'block-1-B']);
  });

  it('records the first blocks once the chain has them, then reads none while the height goes up', async () => {
    const fresh = chain([GENESIS]);
    let cache = await cacheAtHeight(fresh.blocks, emptyCache(), 0n, true);
    expect(cache.pBlocks).toEqual([GENESIS]);
    const grown = chain([GENESIS, FIRST]);
    cache = await cacheAtHeight(grown.blocks, cache, 3n, true);
    expect(cache).toMatchObject({ pBlocks: [GENESIS, FIRST], pHeight: '3' });
    cache = await cacheAtHeight(grown.blocks, cache, 9n, true);
    expect(grown.asked).toEqual([0n, 1n]);
    expect(cache.pHeight).toBe('9');
  });

  it('on mainnet and Fuji reads no block and only raises the height', async () => {
    const { blocks, asked } = chain(['genesis-B', 'block-1-B']);
    const after = await cacheAtHeight(blocks, seen(), 99n, false);
    expect(after).toMatchObject({ pHeight: '100', activity: [expect.objectContaining({ txID: 'mine' })] });
    expect((await cacheAtHeight(blocks, seen(), 101n, false)).pHeight).toBe('101');
    expect(asked).toEqual([]);
  });
});

describe('restartable', () => {
  it('a local or custom network may be made anew, unless it is Mainnet or Fuji (a node showing them other first blocks lies); the presets never', () => {
    expect([restartable('local', 1337), restartable('custom', 12345)]).toEqual([true, true]);
    expect([restartable('custom', 1), restartable('custom', 5), restartable('local', 1), restartable('mainnet', 1), restartable('fuji', 5)]).toEqual([false, false, false, false, false]);
  });
});

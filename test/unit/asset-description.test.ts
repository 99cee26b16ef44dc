// An asset the wallet cannot prove (the node will not show its CreateAssetTx) is listed as unknown,
// so one such asset never fails a whole list (the NFTs, the mint rights, the balances); a node that
// cannot be reached still fails, in words.
import { describe, expect, it, vi } from 'vitest';
import { ValidationError } from '../../src/core/errors.js';
import type { ActivityItem } from '../../src/shared/messages.js';
import { NetworksService, UNKNOWN_ASSET } from '../../src/background/services/networks.js';
import { SettingsStore } from '../../src/background/settings.js';
import { memoryStores } from '../../src/background/storage.js';
import { PRESETS } from '../../src/core/network.js';

const ASSET = '2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe';

function service(fetch: typeof globalThis.fetch) {
  const { local } = memoryStores();
  return new NetworksService(new SettingsStore(local), local, { status: async () => Promise.reject(new Error('unused')), fetch });
}

describe('an asset the node cannot show', () => {
  const local = { ...PRESETS.local, id: 'local' };

  it('is an unknown asset in lists, while assetDescription itself refuses it', async () => {
    const refusing: typeof fetch = async (_url, init) => {
      const { id } = JSON.parse(String(init!.body)) as { id: number };
      return new Response(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32000, message: 'couldn\'t get tx: not found' } }), { headers: { 'content-type': 'application/json' } });
    };
    const networks = service(refusing);
    expect(await networks.assetDescriptionOrUnknown(local, ASSET)).toEqual(UNKNOWN_ASSET);
    await expect(networks.assetDescription(local, ASSET)).rejects.toMatchObject({ code: 'validation' });
  });

  it('still fails when the node cannot be reached: that is not an unknown asset', async () => {
    const down: typeof fetch = async () => {
      throw new TypeError('fetch failed');
    };
    await expect(service(down).assetDescriptionOrUnknown(local, ASSET)).rejects.toMatchObject({ code: 'node-unreachable' });
  });
});

describe('the assets Activity names', () => {
  const local = { ...PRESETS.local, id: 'local' };
  const item = (txID: string, assetID?: string): ActivityItem => ({ txID, chain: 'X', kind: 'receive', status: 'accepted', amount: '150', createdAt: 1, ...(assetID ? { assetID } : {}) });

  it('are named from their creating tx, held or not; one the node cannot show, or not in time, stays unnamed', async () => {
    vi.useFakeTimers();
    try {
      const networks = service(async () => Promise.reject(new Error('unused')));
      const asked: string[] = [];
      vi.spyOn(networks, 'assetDescription').mockImplementation(async (_preset, id) => {
        asked.push(id);
        if (id === 'FOO') return { name: 'Foo', symbol: 'FOO', denomination: 2 };
        if (id === 'GONE') throw new ValidationError('the node cannot show it', 'assetID');
        return new Promise(() => undefined); // a node that never answers
      });
      const named = networks.nameAssets(local, [item('a', 'FOO'), item('b', 'GONE'), item('c', 'SLOW'), item('d', 'FOO'), item('e')]);
      await vi.advanceTimersByTimeAsync(3_000);
      expect((await named).map((a) => a.assetInfo)).toEqual([{ symbol: 'FOO', denomination: 2 }, undefined, undefined, { symbol: 'FOO', denomination: 2 }, undefined]);
      // Each asset asked once.
      expect(asked).toEqual(['FOO', 'GONE', 'SLOW']);
      // The next opening does not wait for those it could not name (for a while): FOO is cached.
      asked.length = 0;
      expect((await networks.nameAssets(local, [item('b', 'GONE'), item('c', 'SLOW'), item('d', 'FOO')])).map((a) => a.assetInfo)).toEqual([undefined, undefined, { symbol: 'FOO', denomination: 2 }]);
      expect(asked).toEqual(['FOO']);
      await vi.advanceTimersByTimeAsync(5 * 60_000);
      void networks.nameAssets(local, [item('b', 'GONE')]);
      expect(asked).toEqual(['FOO', 'GONE']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('only those asked and not answered in time wait; those the 3 s never reached are asked at the next opening', async () => {
    vi.useFakeTimers();
    try {
      const networks = service(async () => Promise.reject(new Error('unused')));
      const asked: string[] = [];
      vi.spyOn(networks, 'assetDescription').mockImplementation((_preset, id) => {
        asked.push(id);
        return new Promise((r) => setTimeout(() => r({ name: id, symbol: id, denomination: 0 }), 2_000));
      });
      const ids = Array.from({ length: 20 }, (_, i) => `A${i}`);
      const first = networks.nameAssets(local, ids.map((id) => item(id, id)));
      await vi.advanceTimersByTimeAsync(3_000);
      expect((await first).filter((a) => a.assetInfo)).toHaveLength(8);
      expect(asked).toEqual(ids.slice(0, 16));
      asked.length = 0;
      const second = networks.nameAssets(local, ids.map((id) => item(id, id)));
      await vi.advanceTimersByTimeAsync(3_000);
      await second;
      // The first 8 again (this test's stand-in keeps no cache), and the 4 never asked; not the 8 that timed out.
      expect(asked).toEqual([...ids.slice(0, 8), ...ids.slice(16)]);
    } finally {
      vi.useRealTimers();
    }
  });
});

// BlockApi: when a tx was accepted, from the X and P chains' blocks in their JSON encoding (shaped
// as a v1.15 node answers; see the recorded block below), searched newest first within a limit;
// a block's ID, from its bytes. Also the same rule for AVAX received on the C-Chain (believedTimeMs).
import { sha256 } from '@noble/hashes/sha2.js';
import { describe, expect, it } from 'vitest';
import { cb58Encode, toApiHex } from '../../src/core/encoding.js';
import { AbortedError, NodeResponseError } from '../../src/core/errors.js';
import { LOCAL } from '../../src/core/network.js';
import { MAX_BLOCKS_SEARCHED, NodeClient } from '../../src/core/node.js';
import { incomingEvmTransfers } from '../../src/core/evm-incoming.js';
import type { EthApi } from '../../src/core/node/eth.js';

/** A P-Chain block as a v1.15 node sent it (trimmed; its amount, past 2^53, is never read). */
const RECORDED_P_BLOCK = {
  time: 1795582528,
  parentID: '2PpBvVnvWw3JGf5sUEivjPjbi1rCVfZfcE7GZwXvdVnF6oM1Y4',
  height: 1,
  id: 'DwbDRUErAnPqYFVi8LdfGCdx5o5meJq9RcuS7TCDYDP4QfYjK',
  txs: [{ unsignedTx: { networkID: 1337, outputs: [{ output: { amount: 19999998999994820 } }] }, credentials: [], id: '2pwp14aRSKQXGMNY1CJqUDTEVjASmaJS5i7oSXmazt3ueVLfeD' }],
};

/** A distinct tx ID per number. */
function idOf(n: number): string {
  const id = new Uint8Array(32);
  new DataView(id.buffer).setUint32(28, n);
  return cb58Encode(id);
}

/** A chain of `top` blocks, one tx each (block h holds idOf(h)), a block every 2 s from `t0`. */
function chainOf(top: number, t0 = 1_700_000_000, edit: (h: number, block: Record<string, unknown>) => void = () => undefined) {
  const asked: number[] = [];
  const fetch = async (_url: string, init: RequestInit) => {
    const body = JSON.parse(init.body as string) as { id: number; method: string; params: { height?: string } };
    let result: unknown;
    if (body.method.endsWith('.getHeight')) result = { height: String(top) };
    else {
      const h = Number(body.params.height);
      asked.push(h);
      const block: Record<string, unknown> = h === 1 ? { ...RECORDED_P_BLOCK } : { height: h, time: t0 + 2 * h, txs: [{ id: idOf(h) }] };
      edit(h, block);
      result = { block, encoding: 'json' };
    }
    return new Response(JSON.stringify({ jsonrpc: '2.0', id: body.id, result }), { headers: { 'content-type': 'application/json' } });
  };
  const client = new NodeClient({ url: 'http://127.0.0.1:1', atomicApi: LOCAL.atomicApi, fetch });
  return { blocks: client.blocks.P, asked };
}

describe('BlockApi', () => {
  it("reads a recorded block's time and tx IDs", async () => {
    const { blocks } = chainOf(1);
    expect(await blocks.summaryAt(1n)).toEqual({ height: 1n, timeMs: 1_795_582_528_000, txIDs: ['2pwp14aRSKQXGMNY1CJqUDTEVjASmaJS5i7oSXmazt3ueVLfeD'] });
  });

  it('finds the block of each tx above the given height, newest first, and stops once all are found', async () => {
    const { blocks, asked } = chainOf(40);
    const times = await blocks.acceptedTimes([idOf(38), idOf(33)], 10n, 40n, Date.now());
    expect(times).toEqual(new Map([[idOf(38), (1_700_000_000 + 76) * 1000], [idOf(33), (1_700_000_000 + 66) * 1000]]));
    // Two rounds of 8 reads (40..33 holds both), never at or below the height given.
    expect(asked).toEqual([40, 39, 38, 37, 36, 35, 34, 33]);
  });

  it('never reads at or below `after`, nor more than the limit: what is not found there is absent', async () => {
    const { blocks, asked } = chainOf(1000);
    expect(await blocks.acceptedTimes([idOf(3)], 3n, 12n, Date.now())).toEqual(new Map());
    expect(Math.min(...asked)).toBe(4);
    asked.length = 0;
    expect((await blocks.acceptedTimes([idOf(5000)], 0n, 1000n, Date.now())).size).toBe(0);
    expect(asked).toHaveLength(MAX_BLOCKS_SEARCHED);
    expect(Math.min(...asked)).toBe(1000 - MAX_BLOCKS_SEARCHED + 1);
  });

  it('does not believe a time after the moment the wallet found the tx, nor a block without one', async () => {
    const { blocks } = chainOf(20, 1_700_000_000, (h, b) => {
      if (h === 19) delete b['time'];
    });
    const found = await blocks.acceptedTimes([idOf(20), idOf(19), idOf(18)], 0n, 20n, (1_700_000_000 + 38) * 1000);
    expect(found).toEqual(new Map([[idOf(18), (1_700_000_000 + 36) * 1000]]));
  });

  it('refuses a block of another height than asked, and a tx without a valid ID', async () => {
    const wrongHeight = chainOf(20, 1_700_000_000, (h, b) => {
      if (h === 20) b['height'] = 19;
    });
    await expect(wrongHeight.blocks.summaryAt(20n)).rejects.toThrow(NodeResponseError);
    const badId = chainOf(20, 1_700_000_000, (h, b) => {
      if (h === 20) b['txs'] = [{ id: 'not an id' }];
    });
    await expect(badId.blocks.acceptedTimes([idOf(1)], 0n, 20n, Date.now())).rejects.toThrow(NodeResponseError);
  });

  it("names a block by the hash of its bytes (hex, checksum checked), not by the node's word", async () => {
    const bytes = Uint8Array.of(0, 0, 0, 0, 0, 32, 1, 2, 3);
    const answers = [toApiHex(bytes), toApiHex(bytes).slice(0, -2) + '00'];
    const asked: unknown[] = [];
    const fetch = async (_url: string, init: RequestInit) => {
      const body = JSON.parse(init.body as string) as { id: number; method: string; params: unknown };
      asked.push([body.method, body.params]);
      return new Response(JSON.stringify({ jsonrpc: '2.0', id: body.id, result: { block: answers.shift(), encoding: 'hex' } }), { headers: { 'content-type': 'application/json' } });
    };
    const client = new NodeClient({ url: 'http://127.0.0.1:1', atomicApi: LOCAL.atomicApi, fetch });
    expect(await client.blocks.P.idAt(0n)).toBe(cb58Encode(sha256(bytes)));
    expect(asked).toEqual([['platform.getBlockByHeight', { height: '0', encoding: 'hex' }]]);
    await expect(client.blocks.P.idAt(0n)).rejects.toThrow(NodeResponseError);
  });

  it('gives up as a whole when the signal it was given ends (a node slow to answer every block)', async () => {
    const hanging = (_url: string, init: RequestInit) =>
      new Promise<Response>((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(init.signal?.reason)));
    const client = new NodeClient({ url: 'http://127.0.0.1:1', atomicApi: LOCAL.atomicApi, fetch: hanging });
    await expect(client.blocks.X.acceptedTimes([idOf(1)], 0n, 300n, Date.now(), { signal: AbortSignal.timeout(100) })).rejects.toThrow(AbortedError);
  });
});

const ME = '0x' + '11'.repeat(20);

/** A C-Chain node whose block 5 holds one transfer to the account, stamped `timestamp` (seconds). */
function cNodeAt(timestamp: bigint): EthApi {
  return {
    getBlockByNumber: async (h: bigint) => ({ number: h, timestamp, transactions: h === 5n ? [{ hash: '0x' + 'ab'.repeat(32), from: '0x' + '22'.repeat(20), to: ME, value: '0x1' }] : [] }),
    getTransactionReceipt: async () => ({ status: 1n }),
  } as unknown as EthApi;
}

// AVAX received on the C-Chain is dated by its block only as far as X and P receipts are (believedTimeMs).
describe('AVAX received on the C-Chain', () => {
  it('keeps a block time from before the wallet looked', async () => {
    const { transfers: [found], unreadBefore } = await incomingEvmTransfers(cNodeAt(1_700_000_000n), ME, 0n, 5n);
    expect(unreadBefore).toBeUndefined();
    expect(found).toMatchObject({ timeMs: 1_700_000_000_000 });
    expect(found).not.toHaveProperty('timeIsDiscovery');
  });

  it('takes the moment it looked, said so, for a block time in the future or past what a date can show', async () => {
    for (const stamp of [10n ** 17n, 2n ** 42n, BigInt(Math.floor(Date.now() / 1000) + 3600)]) {
      const before = Date.now();
      const {
        transfers: [found],
      } = await incomingEvmTransfers(cNodeAt(stamp), ME, 0n, 5n);
      expect(found!.timeIsDiscovery).toBe(true);
      expect(found!.timeMs).toBeGreaterThanOrEqual(before);
      expect(found!.timeMs).toBeLessThanOrEqual(Date.now());
    }
  });

  it('says from when transfers may be missing when it left blocks unread (past its bounds, or a block the node did not give)', async () => {
    // Block h is stamped 1,700,000,000 + h seconds; every block holds one transfer to the account.
    const minted = (h: bigint) => ({ hash: '0x' + h.toString(16).padStart(64, '0'), from: '0x' + '22'.repeat(20), to: ME, value: '0x1' });
    const chain = (missing?: bigint, every = 1, many = 1): EthApi =>
      ({
        getBlockByNumber: async (h: bigint) => (h === missing ? null : { number: h, timestamp: 1_700_000_000n + h, transactions: h % BigInt(every) === 0n ? Array(many).fill(minted(h)) : [] }),
        getTransactionReceipt: async () => ({ status: 1n }),
      }) as unknown as EthApi;
    const at = (h: bigint) => Number(1_700_000_000n + h) * 1000;
    // 100 blocks, 64 read (the newest): what came at block 37 or before was not read.
    const capped = await incomingEvmTransfers(chain(undefined, 10), ME, 0n, 100n);
    expect(capped.transfers.map((t) => t.value)).toHaveLength(7);
    expect(capped.unreadBefore).toBe(at(37n));
    // Exactly 64 blocks: all read, nothing said.
    expect((await incomingEvmTransfers(chain(undefined, 10), ME, 36n, 100n)).unreadBefore).toBeUndefined();
    // More transfers than it lists: the 32 newest, and what came before the oldest kept may be missing.
    const flooded = await incomingEvmTransfers(chain(), ME, 50n, 100n);
    expect(flooded.transfers).toHaveLength(32);
    expect(flooded.unreadBefore).toBe(at(69n));
    // Five a block, read four blocks at a time: 40 found, the newest 32 kept (the last two of block 94's five).
    const crowded = await incomingEvmTransfers(chain(undefined, 1, 5), ME, 50n, 100n);
    expect(crowded.transfers).toHaveLength(32);
    expect(crowded.unreadBefore).toBe(at(94n));
    // A block the node would not give: any time may be missing, up to when it looked.
    const before = Date.now();
    const holed = await incomingEvmTransfers(chain(3n), ME, 0n, 5n);
    expect(holed.transfers).toHaveLength(4);
    expect(holed.unreadBefore).toBeGreaterThanOrEqual(before);
  });
});

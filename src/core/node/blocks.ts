// The X and P chains' blocks, read for two things: when a tx was accepted, and a block's ID (a
// restarted local network is a new chain: its first blocks are others). The wallet finds incoming
// funds as new UTXOs; the time a person wants to see is the block's, not the moment the wallet
// happened to look. Display only: nothing here is proven, and a time later than the moment the
// wallet found the tx is not believed.
import { cb58Encode, fromApiHexWithDigest } from '../encoding.js';
import { NodeResponseError } from '../errors.js';
import { type CallOptions, type Guard, JsonRpcEndpoint, g, shapeError } from '../rpc.js';
import { cb58Id } from './checks.js';

/** One block as far as a tx's time goes. `timeMs` is absent for P-Chain blocks from before Banff. */
export interface BlockSummary {
  height: bigint;
  timeMs?: number;
  txIDs: string[];
}

/**
 * A block's time (Unix seconds) in ms, when the wallet believes it: under 2^42 s (a date can show
 * it) and not after `notAfterMs`, the moment the wallet found the tx (the node's clock or word is off).
 */
export function believedTimeMs(seconds: bigint | undefined, notAfterMs = Infinity): number | undefined {
  return seconds !== undefined && seconds < 2n ** 42n && Number(seconds) * 1000 <= notAfterMs ? Number(seconds) * 1000 : undefined;
}

/** At most this many blocks are read per search: past it, a tx keeps the time the wallet found it. */
export const MAX_BLOCKS_SEARCHED = 256;
const READS_AT_ONCE = 8;

const txGuard = g.object({ id: cb58Id });
const blockGuard = g.object({
  block: g.object({ height: g.uint, time: g.optional(g.uint), txs: g.optional(g.array(txGuard)), tx: g.optional(txGuard) }),
});

/** A block in the API's hex encoding, as its ID: the sha256 of its bytes (checksum checked). */
const blockIdOfHex: Guard<string> = (value, path) => {
  try {
    return cb58Encode(fromApiHexWithDigest(g.string(value, path)).digest);
  } catch (e) {
    if (e instanceof NodeResponseError) throw e;
    throw new NodeResponseError(`${path}: ${(e as Error).message}`);
  }
};

export class BlockApi {
  constructor(
    private readonly rpc: JsonRpcEndpoint,
    private readonly ns: 'avm' | 'platform',
  ) {}

  /** The last accepted block's height. */
  async height(opts?: CallOptions): Promise<bigint> {
    return (await this.rpc.call(`${this.ns}.getHeight`, {}, g.object({ height: g.uint }), opts)).height;
  }

  /** The ID of the block at `height`, made from its bytes (not the node's word for it). */
  async idAt(height: bigint, opts?: CallOptions): Promise<string> {
    return (await this.rpc.call(`${this.ns}.getBlockByHeight`, { height: height.toString(), encoding: 'hex' }, g.object({ block: blockIdOfHex }), opts)).block;
  }

  /**
   * The block at `height`: its time and its txs' IDs. Read in the JSON encoding, of which only the
   * IDs and the time are looked at (amounts past 2^53 there would be rounded by JSON).
   */
  async summaryAt(height: bigint, opts?: CallOptions): Promise<BlockSummary> {
    const method = `${this.ns}.getBlockByHeight`;
    const { block } = await this.rpc.call(method, { height: height.toString(), encoding: 'json' }, blockGuard, opts);
    if (block.height !== height) throw shapeError(`${method} result.block.height`, `${height}`, block.height.toString());
    const txIDs = [...(block.txs ?? []), ...(block.tx ? [block.tx] : [])].map((t) => t.id);
    const timeMs = believedTimeMs(block.time);
    return timeMs !== undefined ? { height, timeMs, txIDs } : { height, txIDs };
  }

  /**
   * When each of `txIDs` was accepted, searching the blocks above `after` up to `upTo`, newest
   * first, at most MAX_BLOCKS_SEARCHED of them. Txs not found (older, or past the limit) are
   * absent from the answer; so is a time after `notAfterMs` (the node's clock or word is off).
   */
  async acceptedTimes(txIDs: readonly string[], after: bigint, upTo: bigint, notAfterMs: number, opts?: CallOptions): Promise<Map<string, number>> {
    const wanted = new Set(txIDs);
    const found = new Map<string, number>();
    const lowest = upTo - BigInt(MAX_BLOCKS_SEARCHED) > after ? upTo - BigInt(MAX_BLOCKS_SEARCHED) : after;
    for (let top = upTo; top > lowest && wanted.size > 0; top -= BigInt(READS_AT_ONCE)) {
      const heights: bigint[] = [];
      for (let h = top; h > lowest && h > top - BigInt(READS_AT_ONCE); h--) heights.push(h);
      const blocks = await Promise.all(heights.map((h) => this.summaryAt(h, opts)));
      for (const b of blocks) {
        for (const id of b.txIDs) {
          if (!wanted.has(id)) continue;
          wanted.delete(id);
          if (b.timeMs !== undefined && b.timeMs <= notAfterMs) found.set(id, b.timeMs);
        }
      }
    }
    return found;
  }
}

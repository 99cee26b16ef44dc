// A restarted local network is a new chain: the wallet's history and known UTXOs there are not true
// any more. It is told by the chain's first P-Chain blocks, never by a height alone: a node behind a
// load balancer can answer from a backend a block behind, and history dropped then would not come
// back (Activity is the only record of the wallet's own sends).
import type { BlockApi } from '../core/node.js';
import { FUJI, MAINNET } from '../core/network-presets.js';
import { type AccountCache, emptyCache } from './account-cache.js';

/**
 * Whether a network entry's chain may be made anew: a local or custom one, unless it is Mainnet or
 * Fuji (the user's own node for them), which never restart: a node showing them other first blocks
 * lies, and must not wipe Activity.
 */
export const restartable = (kind: string, networkID: number): boolean => (kind === 'local' || kind === 'custom') && networkID !== MAINNET.networkID && networkID !== FUJI.networkID;

/** How long a node may show heights below what it showed before until they are taken (behindSince). */
export const BEHIND_AT_MOST_MS = 5 * 60_000;
/** How long that goes unsaid: a load balancer's backends a block apart are not worth a banner. */
export const BEHIND_UNSAID_MS = 60_000;

/**
 * Since when the node has shown heights (P, X) below those it showed before (a lagging backend, a
 * replay), while less than BEHIND_AT_MOST_MS: its older balances must not replace newer ones.
 * Otherwise none; past that time its heights are taken into `cache` (a height once lied about must
 * not stop refreshes for good).
 */
export function behindSince(cache: AccountCache, p: bigint, x: bigint, now = Date.now()): number | undefined {
  const since = cache.behindSince ?? now;
  delete cache.behindSince;
  if (p >= BigInt(cache.pHeight) && x >= BigInt(cache.heightsBefore?.X ?? 0)) return undefined;
  if (now - since < BEHIND_AT_MOST_MS) return since;
  cache.pHeight = p.toString();
  if (cache.heightsBefore) cache.heightsBefore = { ...cache.heightsBefore, P: p.toString(), X: x.toString() };
  return undefined;
}

/**
 * The P-Chain heights whose blocks the wallet records: the genesis (another on each start of the
 * test network, whose start time is the moment it starts) and the first block after it (another on
 * a network restarted from the same genesis file).
 */
const MARK_HEIGHTS: readonly bigint[] = [0n, 1n];

/**
 * The cache a refresh at P-Chain height `tip` goes on from, its height never lowered. With
 * `restartable` (a local or custom network), a new empty one (the address indices kept: they are the
 * wallet's own, never handed back) when the node's first blocks are not those recorded. They are
 * read the first time the chain has them, and again only when the height went back: nothing known
 * of them, or nothing read (a node that will not show them), drops nothing.
 */
export async function cacheAtHeight(
  blocks: Pick<BlockApi, 'idAt'>,
  cache: AccountCache,
  tip: bigint,
  restartable: boolean,
  log?: (line: string) => void,
): Promise<AccountCache> {
  const next = restartable ? await unlessRestarted(blocks, cache, tip, log) : cache;
  if (tip > BigInt(next.pHeight)) next.pHeight = tip.toString();
  return next;
}

async function unlessRestarted(blocks: Pick<BlockApi, 'idAt'>, cache: AccountCache, tip: bigint, log?: (line: string) => void): Promise<AccountCache> {
  const marks = cache.pBlocks ?? [];
  const heights = MARK_HEIGHTS.filter((h) => h <= tip);
  const wentBack = tip < BigInt(cache.pHeight);
  if (!wentBack && marks.length >= heights.length) return cache;
  let ids: string[];
  try {
    ids = await Promise.all(heights.map((h) => blocks.idAt(h)));
  } catch (e) {
    log?.(`the P-Chain's first blocks were not read: ${(e as Error).message}`);
    return cache;
  }
  if (ids.some((id, h) => marks[h] !== undefined && marks[h] !== id)) {
    log?.(`the P-Chain's first blocks are others (a restarted network; height ${cache.pHeight} → ${tip}): cache dropped`);
    return { ...emptyCache(), receiveNext: cache.receiveNext, changeNext: cache.changeNext, pBlocks: ids };
  }
  if (wentBack) log?.(`the node answers below the height seen before (${tip} < ${cache.pHeight}), on the same chain: it lags`);
  if (ids.length > marks.length) cache.pBlocks = ids;
  return cache;
}

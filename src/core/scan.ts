// Address discovery for an HD account: derive addresses in batches and ask the node which hold
// UTXOs (on X, on P, or waiting in atomic memory for either), stopping after a run of unused ones.
import { type Bytes, toHex } from './bytes.js';
import { ownersOf } from './codec/rules.js';
import { formatAddress } from './encoding.js';
import { WalletError } from './errors.js';
import type { KeyPair } from './keys.js';
import type { ChainAlias, NodeClient } from './node.js';

/** BIP-44's gap limit: scanning stops after this many unused addresses in a row. */
export const GAP_LIMIT = 20;
/**
 * The highest change address index the wallet hands out: every send's change goes to the next one
 * up to it, then to it. Spent change leaves its address empty, so change handed out past the first
 * gap would be out of a restore's reach once the earlier change is spent.
 */
export const LAST_CHANGE_INDEX = GAP_LIMIT - 1;
/** A node claiming every address is used would keep a scan going forever: stop here. */
export const MAX_SCANNED_ADDRESSES = 1_000;

/** Where a UTXO can be found for an X/P address: on X, on P, or in atomic memory of X or P. */
const SOURCES: readonly { chain: ChainAlias; sourceChain?: ChainAlias }[] = [
  { chain: 'X' },
  { chain: 'P' },
  { chain: 'X', sourceChain: 'P' },
  { chain: 'X', sourceChain: 'C' },
  { chain: 'P', sourceChain: 'X' },
  { chain: 'P', sourceChain: 'C' },
];

/** The short IDs (hex) among `ids` that own at least one UTXO anywhere the wallet looks. */
export async function usedShortIds(node: NodeClient, hrp: string, ids: Bytes[]): Promise<Set<string>> {
  const wanted = new Set(ids.map(toHex));
  const used = new Set<string>();
  const results = await Promise.all(
    SOURCES.map((s) =>
      node.getAllUtxos(s.chain, ids.map((id) => formatAddress(s.chain, hrp, id)), s.sourceChain ? { sourceChain: s.sourceChain } : {}),
    ),
  );
  for (const { utxos } of results) {
    for (const u of utxos) for (const a of ownersOf(u.output).addresses) if (wanted.has(toHex(a))) used.add(toHex(a));
  }
  return used;
}

export interface BranchScan {
  /** Keys 0 … lastUsed (all the branch's used addresses and the unused ones between them). */
  keys: KeyPair[];
  /** Index of the first address after the last used one: the next fresh address to hand out. */
  nextIndex: number;
}

/**
 * Scans one branch (receive or change). An address is used if it holds UTXOs or is in
 * `knownUsed` (the wallet's own history: an address whose funds were all spent still counts).
 */
export async function scanBranch(
  node: NodeClient,
  hrp: string,
  derive: (index: number) => KeyPair,
  options: { knownUsed?: ReadonlySet<string>; gap?: number } = {},
): Promise<BranchScan> {
  const gap = options.gap ?? GAP_LIMIT;
  const keys: KeyPair[] = [];
  let lastUsed = -1;
  // Batches of `gap` addresses cost one round of look-ups; within a batch the results are walked
  // in order, so an address past a full gap of unused ones is not counted even if it was fetched.
  for (let done = false; !done; ) {
    if (keys.length >= MAX_SCANNED_ADDRESSES) {
      throw new WalletError('scan-limit', `more than ${MAX_SCANNED_ADDRESSES} addresses of this branch look used; the node's answers are not plausible`);
    }
    const batch = Array.from({ length: gap }, (_, i) => derive(keys.length + i));
    const used = await usedShortIds(node, hrp, batch.map((k) => k.shortId));
    for (const k of batch) {
      const index = keys.length;
      keys.push(k);
      const hex = toHex(k.shortId);
      if (used.has(hex) || options.knownUsed?.has(hex)) lastUsed = index;
      if (index - lastUsed >= gap) {
        done = true;
        break;
      }
    }
  }
  return { keys: keys.slice(0, lastUsed + 1), nextIndex: lastUsed + 1 };
}

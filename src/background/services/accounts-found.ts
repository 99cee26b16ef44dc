// A restored phrase's used accounts, looked for on the node: the vault holds only the phrase, so
// without this a restore would bring back Account 1 alone.
import { formatEvmAddress } from '../../core/evm-address.js';
import { deriveEvmKey, deriveXpKey, type HdRoot } from '../../core/keys.js';
import type { NodeClient } from '../../core/node.js';
import { GAP_LIMIT, usedShortIds } from '../../core/scan.js';

/** A node that calls every account used cannot make the list longer than this. */
export const MAX_FOUND_ACCOUNTS = 20;
/** A restore waits at most this long for the node; what was found by then is kept. */
export const SEARCH_DEADLINE_MS = 10_000;
/** Addresses looked at on each branch (receive, change): every change address the wallet hands out (LAST_CHANGE_INDEX). */
const FIRST_ADDRESSES = GAP_LIMIT;

async function used(node: NodeClient, hrp: string, root: HdRoot, account: number): Promise<boolean> {
  const ids = ([0, 1] as const).flatMap((change) => Array.from({ length: FIRST_ADDRESSES }, (_, i) => deriveXpKey(root, account, change, i).shortId));
  const evm = formatEvmAddress(deriveEvmKey(root, account).evmAddress);
  const [xp, nonce, balance] = await Promise.all([usedShortIds(node, hrp, ids), node.eth.getTransactionCount(evm), node.eth.getBalance(evm)]);
  return xp.size > 0 || nonce > 0n || balance > 0n;
}

/**
 * How many of the phrase's accounts to restore: Account 1, then each next one while it has been
 * used (a UTXO on X or P or waiting for them at its first addresses, a C-Chain nonce or balance),
 * up to the first unused one. `complete` is false when the node failed or missed the deadline:
 * accounts after `count` may then exist ("Add account" gives them back in order).
 */
export async function foundAccounts(node: () => Promise<{ client: NodeClient; hrp: string }>, root: HdRoot, deadlineMs = SEARCH_DEADLINE_MS): Promise<{ count: number; complete: boolean }> {
  let count = 1;
  let over = false;
  const search = (async () => {
    const { client, hrp } = await node();
    while (count < MAX_FOUND_ACCOUNTS && (await used(client, hrp, root, count)) && !over) count++;
    return true;
  })();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const complete = await Promise.race([search.catch(() => false), new Promise<false>((r) => (timer = setTimeout(r, deadlineMs, false)))]);
  clearTimeout(timer);
  over = true;
  return { count, complete };
}

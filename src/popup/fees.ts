// Fees before signing. The protocol has no fee estimate request yet, so the popup only knows what a
// recent transaction of the same kind burned (from the activity list), and says so.
import type { ActivityItem, ChainName } from '../shared/messages.js';
import { AVAX_DECIMALS, chainLabel, formatValue } from './format.js';

export interface FeeHint {
  /** nAVAX. */
  amount: bigint;
  /** Where the figure comes from, for the user. */
  source: string;
}

/** The fee of the newest accepted transaction of `kinds` on `chain`, if any. */
export function recentFee(items: readonly ActivityItem[] | undefined, chain: ChainName, kinds: readonly ActivityItem['kind'][]): FeeHint | undefined {
  const item = items?.find((i) => i.chain === chain && i.status === 'accepted' && i.fee !== undefined && kinds.includes(i.kind));
  if (!item?.fee) return undefined;
  const how = chain === 'X' ? 'the X-Chain fee is fixed' : 'the P-Chain fee varies with load and size';
  return { amount: BigInt(item.fee), source: `your last ${chainLabel(chain)} ${item.kind === 'send' ? 'send' : 'transaction'} paid this; ${how}` };
}

/** "about 0.001 AVAX (…)" or what is known instead. */
export function feeText(chain: ChainName, hint: FeeHint | undefined): string {
  if (chain === 'C') return 'Set at sending from the C-Chain base fee (EIP-1559); not estimated before sending yet.';
  if (!hint) return `The ${chainLabel(chain)} fee is shown once the transaction is issued (no estimate available before).`;
  return `About ${formatValue(hint.amount, AVAX_DECIMALS, 'AVAX')}: ${hint.source}. The exact fee is shown after sending.`;
}

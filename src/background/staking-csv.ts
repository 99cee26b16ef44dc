// The CSV of staking.rewardsCsv: every reward paid to the account (from the stake book), and with
// 'all' every activity item too, oldest first; amounts in their asset's unit (a C-Chain token's in
// its own decimals, named by symbol and contract), fees in AVAX.
import { type CsvRow, csvOf } from '../core/staking/csv.js';
import type { ActivityItem, ActivityToken, RequestResult } from '../shared/messages.js';
import type { StakeRecord } from './stake-book.js';
import { rewardViews } from './staking-views.js';

const NAVAX_DECIMALS = 9;
const WEI_DECIMALS = 18;

/**
 * A C-Chain token's amount is in the token's own unit, named by its symbol and contract (a symbol
 * alone can imitate AVAX or another token); an NFT by its ID, counted in whole items.
 */
function tokenColumns(t: ActivityToken): [number, string] {
  const name = `${t.symbol || 'token'} (${t.address})`;
  return t.standard === 'erc20' ? [t.decimals, name] : [0, t.tokenId !== undefined ? `${name} #${t.tokenId}` : name];
}

/**
 * Another X asset is named by its symbol and ID (a symbol alone can imitate AVAX); one the wallet
 * cannot name is counted in its smallest units, said so, never as if they were whole ones. A change
 * of auto-renewal moves nothing: 0 AVAX, what it cost in the fee column.
 */
function activityRow(a: ActivityItem, avax: string): CsvRow {
  const evm = a.chain === 'C' && a.txID.startsWith('0x');
  const known = a.assetInfo;
  const config = a.kind === 'staking-config';
  const [denomination, asset] = a.token
    ? tokenColumns(a.token)
    : a.chain === 'C' && a.assetID === undefined
      ? [WEI_DECIMALS, 'AVAX']
      : a.assetID === avax || config
        ? [NAVAX_DECIMALS, 'AVAX']
        : known
          ? [known.denomination, `${known.symbol} (${a.assetID})`]
          : [0, `smallest units of ${a.assetID ?? 'an unknown asset'}`];
  return {
    time: a.createdAt,
    txID: a.txID,
    kind: a.status === 'accepted' ? a.kind : `${a.kind} (${a.status})`,
    ...(a.amount !== undefined || config ? { amount: BigInt(a.amount ?? 0) } : {}),
    denomination,
    asset,
    ...(a.fee !== undefined ? { fee: BigInt(a.fee), feeDenomination: evm ? WEI_DECIMALS : NAVAX_DECIMALS } : {}),
  };
}

/** `activity`: activity.list's answer; what it no longer holds is passed on, for the screen to say. */
export function stakingCsv(stakes: readonly StakeRecord[], { items: activity, trimmed }: RequestResult<'activity.list'>, avax: string): RequestResult<'staking.rewardsCsv'> {
  const rewards: CsvRow[] = rewardViews(stakes).map((r) => ({
    time: r.paidAt * 1000,
    txID: r.txID,
    kind: r.kind === 'delegation-fees' ? 'staking-delegation-fees' : 'staking-reward',
    amount: BigInt(r.amount),
    denomination: NAVAX_DECIMALS,
    asset: 'AVAX',
  }));
  // Rewards come from the book (one line per payment); Activity's reward items would repeat them.
  const rows = [...rewards, ...activity.filter((a) => a.kind !== 'staking-reward').map((a) => activityRow(a, avax))].sort((a, b) => a.time - b.time);
  return { csv: csvOf(rows), rows: rows.length, ...(trimmed ? { trimmed } : {}) };
}

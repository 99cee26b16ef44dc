// The wallet's transactions, newest first: kind, amount, chain, status and a copyable ID.
import { useRequest } from '../api.js';
import { CopyButton } from '../components/CopyButton.js';
import { AVAX_DECIMALS, chainLabel, formatDateTime, formatValue, formatUnits, shortenId, WEI_DECIMALS } from '../format.js';
import type { ActivityItem, BalancesView } from '../../shared/messages.js';

const KIND_LABEL: Record<ActivityItem['kind'], string> = {
  send: 'Sent',
  receive: 'Received',
  'create-asset': 'Created an asset',
  mint: 'Minted',
  'nft-mint': 'Minted an NFT',
  'nft-transfer': 'Sent an NFT',
  export: 'Exported (cross-chain)',
  import: 'Imported (cross-chain)',
};

/** "Exported to C-Chain", "Imported from X-Chain" when the other chain is known. */
export function activityTitle(item: ActivityItem): string {
  if (item.otherChain && item.kind === 'export') return `Exported to ${chainLabel(item.otherChain)}`;
  if (item.otherChain && item.kind === 'import') return `Imported from ${chainLabel(item.otherChain)}`;
  return KIND_LABEL[item.kind];
}

const STATUS_LABEL: Record<ActivityItem['status'], string> = { pending: 'Pending', accepted: 'Accepted', failed: 'Failed' };

/** The amount of an item with its asset's symbol when the wallet knows the asset. */
export function activityAmount(item: ActivityItem, view: BalancesView | null): string | null {
  if (item.amount === undefined) return null;
  // Native C-Chain sends are recorded in wei, without an asset ID.
  if (item.chain === 'C' && item.assetID === undefined) return formatValue(item.amount, WEI_DECIMALS, 'AVAX');
  const known = view?.balances.find((b) => b.assetID === item.assetID && b.chain !== 'C');
  if (known) return formatValue(item.amount, known.denomination, known.verified ? known.symbol : `${known.symbol} (ID ${shortenId(known.assetID)})`);
  return `${formatUnits(item.amount, 0)} base units of asset ${item.assetID ? shortenId(item.assetID) : '?'}`;
}

/** A native C-Chain send: amounts and fee in wei. */
function isEvmTx(item: ActivityItem): boolean {
  return item.chain === 'C' && item.txID.startsWith('0x');
}

export function Activity({ balances }: { balances: BalancesView | null }) {
  const list = useRequest('activity.list', {});
  const items = list.data?.items;
  return (
    <div class="activity">
      <div class="title-row">
        <h1>Activity</h1>
        <button type="button" class="small" disabled={list.loading} onClick={() => void list.reload()}>
          {list.loading ? 'Loading…' : 'Reload'}
        </button>
      </div>
      {list.error && (
        <p class="form-error" role="alert">
          {list.error}
        </p>
      )}
      {items && items.length === 0 && <p class="muted">No transactions yet.</p>}
      <ul class="tx-list">
        {items?.map((item) => {
          const amount = activityAmount(item, balances);
          return (
            <li key={item.txID + item.kind} class="tx-row" data-testid="activity-item">
              <div class="tx-top">
                <strong>{activityTitle(item)}</strong>
                <span class={`badge status-${item.status}`}>{STATUS_LABEL[item.status]}</span>
              </div>
              <div class="tx-mid">
                <span>{chainLabel(item.chain)}</span>
                {amount && <span class="amount">{amount}</span>}
              </div>
              {item.fee !== undefined && <div class="muted">Fee {formatValue(item.fee, isEvmTx(item) ? WEI_DECIMALS : AVAX_DECIMALS, 'AVAX')}</div>}
              {item.memo && <div class="muted break">Memo: {item.memo}</div>}
              <div class="tx-bottom">
                <span class="mono" title={item.txID}>
                  {shortenId(item.txID)}
                </span>
                <CopyButton text={item.txID} what="transaction ID" />
                <span class="muted">{formatDateTime(item.createdAt)}</span>
              </div>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

// The wallet's transactions, newest first: kind, amount, chain, status, fee and a copyable ID, each
// with its details; followed while any is pending, and reloaded from scratch for another account.
import { useEffect, useState } from 'preact/hooks';
import { UNLIMITED_ALLOWANCE } from '../../core/amount.js';
import { useCall, useRequest } from '../api.js';
import { AmountText } from '../components/AmountText.js';
import { CopyButton } from '../components/CopyButton.js';
import { Facts, FormError, Muted, MutedText, ReloadButton, ScreenReaderText } from '../components/Field.js';
import { Term } from '../components/Term.js';
import { AVAX_DECIMALS, chainLabel, formatDateTime, formatValue, formatUnits, memoShown, partLabels, shortenId, tokenSymbol, WEI_DECIMALS } from '../format.js';
import type { ActivityItem, ActivityTrimmed, BalancesView, Selection } from '../../shared/messages.js';
import { LazyTokenActivity } from './lazy.js';

const KIND_LABEL: Record<ActivityItem['kind'], string> = {
  send: 'Sent',
  receive: 'Received',
  'create-asset': 'Created an asset',
  mint: 'Minted',
  'nft-mint': 'Minted an NFT',
  'nft-transfer': 'Sent an NFT',
  export: 'Exported (cross-chain)',
  import: 'Imported (cross-chain)',
  delegate: 'Delegated stake',
  validate: 'Started validating',
  'staking-config': 'Changed auto-renewal of a validation',
  'staking-reward': 'Staking reward',
  deploy: 'Deployed a contract',
  call: 'Called a contract',
  approve: 'Approved a spender',
  revoke: 'Revoked an approval',
};

/** "Exported to C-Chain", "Imported from X-Chain" when the other chain is known. */
export function activityTitle(item: ActivityItem): string {
  if (item.otherChain && item.kind === 'export') return `Exported to ${chainLabel(item.otherChain)}`;
  if (item.otherChain && item.kind === 'import') return `Imported from ${chainLabel(item.otherChain)}`;
  // An ERC-20 approve(spender, 0) recorded before the background listed it as the revoke it is.
  if (item.kind === 'approve' && item.token?.standard === 'erc20' && item.amount === '0' && !item.increase) return KIND_LABEL.revoke;
  if (item.kind === 'receive' && item.ownKeys) return 'Received from yourself';
  if (item.kind === 'send' && item.toSelf) return 'Sent to yourself';
  if (item.created) return `Created ${item.created.name} (${item.created.symbol})`;
  return KIND_LABEL[item.kind];
}

const STATUS_LABEL: Record<ActivityItem['status'], string> = { pending: 'Pending', accepted: 'Accepted', failed: 'Failed' };


/** The amount of an item with its asset's symbol when the wallet knows the asset; `exact`: an unlimited allowance with its number too. */
export function activityAmount(item: ActivityItem, view: BalancesView | null, exact = false): string | null {
  if (item.amount === undefined) return null;
  // A token's amount is in its own units; an ERC-721 is its ID, an ERC-1155 send a quantity of one ID.
  if (item.token) {
    const symbol = tokenSymbol(item.token.symbol, item.token.address);
    const name = symbol || item.token.address;
    const unit = symbol || `units of ${item.token.address}`;
    if (item.token.tokenId === undefined && item.kind === 'approve' && (item.unlimited || BigInt(item.amount) >= UNLIMITED_ALLOWANCE)) {
      return `Unlimited ${unit}${exact ? ` (exactly ${formatValue(item.amount, item.token.decimals, unit)})` : ''}`;
    }
    // increaseAllowance: the amount comes on top of what the spender may take already.
    if (item.token.tokenId === undefined) return `${formatValue(item.amount, item.token.decimals, unit)}${item.increase ? ' more' : ''}`;
    return item.token.standard === 'erc1155' ? `${formatUnits(item.amount, 0)} × #${item.token.tokenId} of ${name}` : `#${item.token.tokenId} of ${name}`;
  }
  // Native C-Chain sends are recorded in wei, without an asset ID.
  if (item.chain === 'C' && item.assetID === undefined) return formatValue(item.amount, WEI_DECIMALS, 'AVAX');
  // Named by the background from the asset's creating tx, held or not; else as the balances name it.
  const held = view?.balances.find((b) => b.assetID === item.assetID && b.chain !== 'C');
  const known = held?.verified ? held : (item.assetInfo ?? held);
  if (known) return formatValue(item.amount, known.denomination, held?.verified ? known.symbol : `${known.symbol} (ID ${shortenId(item.assetID ?? '')})`);
  return `${formatUnits(item.amount, 0)} in the smallest units of an asset the wallet cannot name`;
}

/** Funds received that another key can also spend alone (shared 1-of-2 with a stranger), in words; or null. */
export function sharedReceipt(item: ActivityItem, view: BalancesView | null): string | null {
  if (item.shared === undefined) return null;
  return `Shared: another key can also spend ${item.shared === item.amount ? 'it' : `${activityAmount({ ...item, amount: item.shared }, view)} of this`} at any time, so it is yours only until that key moves it.`;
}

/**
 * What the list no longer holds, in words (older items are dropped to keep its size), and what it
 * may never have held (AVAX received on the C-Chain in blocks the wallet did not read), or null.
 */
export function trimmedText(t: ActivityTrimmed | undefined): string | null {
  const lost = [t?.own !== undefined && `your own transactions from ${formatDateTime(t.own)} and before`, t?.received !== undefined && `funds received from ${formatDateTime(t.received)} and before`].filter(Boolean);
  const said = [
    lost.length > 0 && `Activity no longer holds older items, to keep its size: ${lost.join(', and ')}.`,
    t?.cReceived !== undefined &&
      `AVAX received on the C-Chain up to ${formatDateTime(t.cReceived)} may be missing from this list: the wallet reads only the newest blocks each time it looks. Your balance counts it.`,
  ].filter(Boolean);
  return said.length > 0 ? said.join(' ') : null;
}

/** A native C-Chain send: amounts and fee in wei. */
function isEvmTx(item: ActivityItem): boolean {
  return item.chain === 'C' && item.txID.startsWith('0x');
}

/** Nothing was paid: an X/P/atomic tx that failed (the chains charge only what they accept), or an EVM tx replaced at its nonce (it never ran). */
function unpaid(item: ActivityItem): boolean {
  return item.replaced === true || (item.status === 'failed' && !isEvmTx(item));
}

/** While something is pending, the list is read again this often (and the node asked every third time). */
const PENDING_POLL_MS = 3000;

/** Reads the list again while an item is pending; a balances refresh is what settles pending items. */
function useFollowPending(items: ActivityItem[] | undefined, reload: () => Promise<void>): void {
  const call = useCall();
  const pending = items?.some((i) => i.status === 'pending') ?? false;
  useEffect(() => {
    if (!pending) return;
    let round = 0;
    const timer = setInterval(() => {
      round += 1;
      if (round % 3 === 1) void call('balances.get', { refresh: true }).catch(() => undefined);
      void reload();
    }, PENDING_POLL_MS);
    return () => clearInterval(timer);
  }, [pending, call, reload]);
}

/** `toggle`: false for the second showing (the details), so one amount is one control, not two. */
function ItemAmount({ item, view, toggle = true }: { item: ActivityItem; view: BalancesView | null; toggle?: boolean }) {
  if (item.amount === undefined) return null;
  // Native C-Chain sends are recorded in wei: rounded for reading, exact one click away.
  if (item.chain === 'C' && item.assetID === undefined && !item.token) return <AmountText toggle={toggle} value={item.amount} denomination={WEI_DECIMALS} symbol="AVAX" />;
  return <span class="amount">{activityAmount(item, view, !toggle)}</span>;
}

/** Items shown at first and added by each "Show older": the newest are what people look for, and a
 * list of hundreds would make the screen slow to open. */
export const ACTIVITY_PAGE = 50;

/** `listKey`: the network and account shown; another one reloads the list from scratch. `selection`: what a speed-up or cancel is reviewed on. */
export function Activity({ balances, listKey = '', selection }: { balances: BalancesView | null; listKey?: string; selection?: Selection | undefined }) {
  const list = useRequest('activity.list', {}, listKey);
  const items = list.data?.items;
  const trimmed = trimmedText(list.data?.trimmed);
  const [shown, setShown] = useState(ACTIVITY_PAGE);
  useEffect(() => setShown(ACTIVITY_PAGE), [listKey]);
  useFollowPending(items, list.reload);
  const visible = items?.slice(0, shown) ?? [];
  const parts = partLabels(visible.map((item) => item.txID));
  return (
    <div class="activity">
      <div class="title-row">
        <h1>Activity</h1>
        <ReloadButton list={list} />
      </div>
      <FormError error={list.error} />
      {selection && <LazyTokenActivity part="pending" selection={selection} listKey={listKey} />}
      {items && items.length === 0 && <Muted>No transactions yet.</Muted>}
      {!items && !list.error && <Muted>Loading…</Muted>}
      <ul class="tx-list">
        {visible.map((item, i) => (
          <ActivityRow key={`${item.txID} ${item.kind} ${item.assetID ?? ''}`} item={item} balances={balances} part={parts[i]} />
        ))}
      </ul>
      {items && items.length > shown && (
        <button type="button" class="secondary" onClick={() => setShown(shown + ACTIVITY_PAGE)}>
          Show {Math.min(ACTIVITY_PAGE, items.length - shown)} older ({items.length - shown} not shown)
        </button>
      )}
      {trimmed && <Muted>{trimmed}</Muted>}
      {selection && <LazyTokenActivity part="transfers" selection={selection} listKey={listKey} />}
    </div>
  );
}

/** One item: what, status, chain and amount, fee, counterparty and memo, with every fact under Details. */
function ActivityRow({ item, balances, part = '' }: { item: ActivityItem; balances: BalancesView | null; part?: string }) {
  return (
    <li class="tx-row" data-testid="activity-item">
      <div class="tx-top">
        <strong>{activityTitle(item)}</strong>
        <span class={`badge status-${item.status}`}>{item.status === 'pending' && item.checking ? 'Checking' : STATUS_LABEL[item.status]}</span>
      </div>
      <div class="tx-mid">
        <span>
          {chainLabel(item.chain)}
          {item.nodeID && <MutedText title={item.nodeID}> · {shortenId(item.nodeID, 11, 4)}</MutedText>}
        </span>
        <ItemAmount item={item} view={balances} />
      </div>
      {item.ownKeys && (
        <div class="muted" data-testid="activity-own-keys">
          Signed by your own keys outside this list (another wallet with your phrase or key, or another network entry): the change of a send, an import or a stake coming back.
        </div>
      )}
      {item.shared !== undefined && (
        <div class="badge warn" role="note" data-testid="activity-shared">
          {sharedReceipt(item, balances)}
        </div>
      )}
      {item.fee !== undefined && !unpaid(item) && (
        <div class="muted">
          {isEvmTx(item) && item.status === 'pending' ? 'Fee at most' : 'Fee'} <AmountText value={item.fee} denomination={isEvmTx(item) ? WEI_DECIMALS : AVAX_DECIMALS} symbol="AVAX" />
        </div>
      )}
      <Counterparty item={item} />
      {item.memo && <div class="muted break keep-spaces">Memo: {memoShown(item.memo)}</div>}
      <details class="tx-details">
        <summary>
          Details<ScreenReaderText> of the transaction {item.txID}{part}</ScreenReaderText>
        </summary>
        <Facts>
          <Term term="Transaction ID" class="id-line">
            <span class="mono break">{item.txID}</span>
            <CopyButton text={item.txID} what={`transaction ID ${shortenId(item.txID)} (${activityTitle(item)}, ${formatDateTime(item.createdAt)})${part}`} />
          </Term>
          <Term term="Chain">{chainLabel(item.chain)}{item.otherChain ? ` (with the ${chainLabel(item.otherChain)})` : ''}</Term>
          {item.assetID && <Term term="Asset ID" class="mono break">{item.assetID}</Term>}
          {item.amount !== undefined && (
            <Term term="Amount">
              <ItemAmount item={item} view={balances} toggle={false} />
            </Term>
          )}
          {item.nodeID && <Term term={item.kind === 'staking-reward' ? 'For the stake with' : 'Validator'} class="mono break">{item.nodeID}</Term>}
          {item.from && <Term term="From" class="mono break">{item.from.join(', ')}</Term>}
          {item.to && <Term term={item.kind === 'approve' || item.kind === 'revoke' ? 'Spender' : 'To'} class="mono break">{item.to}</Term>}
          {item.contract && (
            <Term term="Contract created" class="mono break" data-testid="activity-contract">
              {item.contract}
            </Term>
          )}
          {(item.replaces || item.replaced) && <Term term="Replacement" class="break">{item.replaced ? `Never ran: ${isEvmTx(item) ? 'a speed-up or cancel with the same nonce' : 'another of your transactions spending the same funds'} took its place` : isEvmTx(item) ? `Takes the place of ${item.replaces}` : `Spends the same funds as ${item.replaces}: only one of the two can run`}</Term>}
          <Term term="Status">{item.status === 'pending' && item.checking ? 'Pending: the wallet is checking with the node what became of it' : STATUS_LABEL[item.status]}</Term>
          <Term term={timeLabel(item)}>{formatDateTime(item.createdAt)}</Term>
        </Facts>
      </details>
      <div class="tx-bottom">
        <span class="mono" title={item.txID}>
          {shortenId(item.txID)}
        </span>
        <CopyButton text={item.txID} what={`transaction ID ${shortenId(item.txID)}${part}`} />
        <MutedText>
          {item.timeIsDiscovery ? 'Found ' : ''}
          {formatDateTime(item.createdAt)}
        </MutedText>
      </div>
    </li>
  );
}

/** What an item's time is: its block's (funds received), the moment it was sent, or only when the wallet found it. */
function timeLabel(item: ActivityItem): string {
  if (item.kind === 'staking-reward') return 'Paid by the network (when the stake ended)';
  if (item.kind !== 'receive') return 'Sent by the wallet';
  return item.timeIsDiscovery ? 'Found by the wallet (when it arrived is not known)' : 'Accepted by the network';
}

/** Who was on the other side, in short (in full under Details): whom it went to, or who sent it. */
function Counterparty({ item }: { item: ActivityItem }) {
  const [word, addresses] = item.to ? [item.kind === 'approve' || item.kind === 'revoke' ? 'Spender' : 'To', item.to.split(', ')] : item.from ? ['From', item.from] : [undefined, []];
  if (!word || addresses.length === 0) return null;
  const first = addresses[0]!;
  const more = addresses.length > 1 ? ` and ${addresses.length - 1} more` : '';
  return (
    <div class="muted" title={addresses.join(', ')}>
      {word} <span class="mono">{shortenId(first, 12, 6)}</span>
      {more}
    </div>
  );
}

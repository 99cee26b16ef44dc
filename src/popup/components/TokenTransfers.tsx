// The account's token transfers as the chain's Transfer logs say (tokens.activity): which way, the
// amount in the token's units, the counterparty and the tx. Read further with Reload (a bounded
// part of the chain at a time).
import { useEffect, useState } from 'preact/hooks';
import { useRequest } from '../api.js';
import { plainError } from '../errors.js';
import { transferLine } from '../tokens-format.js';
import { formatDateTime, partLabels, shortenId } from '../format.js';
import type { LogScanView } from '../../shared/messages.js';
import { CopyButton } from './CopyButton.js';
import { ErrorDetail, FormError, Muted, MutedText, ReloadButton } from './Field.js';

/**
 * How far the chain's logs were read: why the last read stopped in plain words (the node's own
 * behind Details), or that older blocks are still to be read; and that some of what the list shows
 * (`kept`) came from too many contracts to keep.
 */
export function ScanNote({ scan, kept = 'transfers' }: { scan: LogScanView | undefined; kept?: string }) {
  const e = scan?.error ? plainError(scan.errorCode ?? '', scan.error) : undefined;
  return (
    <>
      {e ? (
        <div class="muted">
          <p>Not every block could be read yet. {e.text}</p>
          <ErrorDetail detail={e.detail} />
        </div>
      ) : (
        scan && !scan.complete && <Muted>{scan.behind ? 'The newest blocks are still to be read' : 'Older blocks are still to be read'}; Reload reads further.</Muted>
      )}
      {scan?.cut && <p class="warn-box">Too many {kept} came from contracts not in your token list: some were not kept, so this list may miss some.</p>}
      {scan?.flooded && <p class="warn-box">Some blocks held more records naming this account than the wallet reads (someone may be flooding it): they were passed by, so this list may miss what they hold.</p>}
    </>
  );
}

/** Transfers shown at first and added by each "Show older" (the scan keeps up to 500: all at once would make the screen slow to open). */
export const TRANSFERS_PAGE = 50;

export function TokenTransfers({ listKey }: { listKey: string }) {
  const list = useRequest('tokens.activity', { refresh: true }, listKey);
  const items = list.data?.items;
  const scan = list.data?.scan;
  const [shown, setShown] = useState(TRANSFERS_PAGE);
  useEffect(() => setShown(TRANSFERS_PAGE), [listKey]);
  const visible = items?.slice(0, shown) ?? [];
  const parts = partLabels(visible.map((t) => t.txHash));
  return (
    <section class="token-transfers" aria-labelledby="token-transfers-head">
      <div class="title-row">
        <h2 id="token-transfers-head">Token transfers</h2>
        <ReloadButton list={list} busy="Reading…" label="Reload token transfers" />
      </div>
      <FormError error={list.error} />
      <ScanNote scan={scan} />
      {items && items.length === 0 && <Muted>{scan?.complete && !scan.error && !scan.cut ? 'No token transfers found.' : 'None found in the blocks read so far.'}</Muted>}
      <ul class="tx-list">
        {visible.map((t, i) => {
          const line = transferLine(t);
          return (
            <li key={`${t.txHash}-${t.logIndex}`} class="tx-row" data-testid="token-transfer">
              <div class="tx-top">
                <strong data-testid={`transfer-${t.direction}`}>{line.title}</strong>
                {!t.listed && <span class="badge warn">Not in your list</span>}
              </div>
              <div class="amount">{line.amount}</div>
              <div class="muted mono break">{line.counterparty}</div>
              <div class="tx-bottom">
                <span class="mono" title={t.txHash}>
                  {shortenId(t.txHash)}
                </span>
                <CopyButton text={t.txHash} what={`transaction hash ${shortenId(t.txHash)}${parts[i]}`} />
                <MutedText>{t.time !== undefined ? formatDateTime(t.time) : `block ${BigInt(t.blockNumber).toLocaleString('en-US')}`}</MutedText>
              </div>
            </li>
          );
        })}
      </ul>
      {items && items.length > shown && (
        <button type="button" class="secondary" onClick={() => setShown(shown + TRANSFERS_PAGE)}>
          Show {Math.min(TRANSFERS_PAGE, items.length - shown)} older token transfers ({items.length - shown} not shown)
        </button>
      )}
    </section>
  );
}

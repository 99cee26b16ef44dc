// The account's C-Chain txs the node has not taken yet (evm.pending), shown where a stuck tx is
// seen (Activity, Tokens), each with Speed up and Cancel: a replacement at the same nonce with a
// higher fee (evm.estimateReplace), reviewed (old fee against new, what happens), then sent
// (evm.replace) and followed until the chain decides.
import { useRef, useState } from 'preact/hooks';
import { useCall, useRequest } from '../api.js';
import { formatDateTime, formatValue, shortenId, WEI_DECIMALS } from '../format.js';
import { replaceOutcome, tokenCallText } from '../tokens-format.js';
import type { PendingEvmTxView, Selection } from '../../shared/messages.js';
import { AmountText } from './AmountText.js';
import { EvmFee, useEvmFlow } from './EvmFlow.js';
import { FormError, Muted, ScreenReaderText, SmallButton } from './Field.js';
import { type Fact, Review } from './Review.js';
import { TxStatus } from './TxStatus.js';

type Action = 'speed-up' | 'cancel';

/** What a waiting tx does: a token call in the token's words, else where it goes and the AVAX it carries. */
function whatItDoes(tx: PendingEvmTxView): string {
  const call = tokenCallText(tx);
  if (call) return `${call} (through the token's contract ${tx.to})`;
  return `${tx.to === '' ? 'A contract deployment' : `To ${tx.to}`}${BigInt(tx.valueWei) > 0n ? ` · ${formatValue(tx.valueWei, WEI_DECIMALS, 'AVAX')}` : ''}`;
}

/** The most a tx can cost in fees, wei: gas limit × max fee per gas. */
function maxFeeOf(tx: PendingEvmTxView): bigint {
  return BigInt(tx.gasLimit) * BigInt(tx.maxFeePerGas);
}

function PendingRow({ tx, selection }: { tx: PendingEvmTxView; selection: Selection | undefined }) {
  const call = useCall();
  const [action, setAction] = useState<Action>('speed-up');
  // What the flow's requests ask for: set with the click, before the state's next render.
  const chosen = useRef<Action>('speed-up');
  const flow = useEvmFlow(
    () => call('evm.estimateReplace', { txHash: tx.txHash, action: chosen.current }),
    (q) => call('evm.replace', { txHash: tx.txHash, action: chosen.current, maxFeeWei: q.maxFee }, selection),
  );
  const { stage } = flow;
  const start = (a: Action) => {
    chosen.current = a;
    setAction(a);
    void flow.review();
  };
  const label = action === 'speed-up' ? 'Speed up' : 'Cancel';
  if (stage.k === 'review' || stage.k === 'sending') {
    const facts: Fact[] = [
      { term: 'Replaces', value: tx.txHash, mono: true },
      // A speed-up signs it again: what it sends is said here, as every review says it.
      { term: action === 'speed-up' ? 'It sends' : 'It would have sent', value: whatItDoes(tx), testid: 'review-replaced', mono: true },
      { term: 'Nonce', value: `${tx.nonce} (the same: only one of the two can run)` },
      { term: 'Old fee', value: <AmountText up prefix="at most " value={maxFeeOf(tx)} denomination={WEI_DECIMALS} symbol="AVAX" /> },
      { term: 'New fee', value: <EvmFee quote={stage.quote} />, testid: 'review-fee' },
      { term: 'What happens', value: replaceOutcome(action) },
    ];
    return (
      <li class="tx-row">
        <Review
          level={3}
          title={`Review: ${label.toLowerCase()}`}
          facts={facts}
          error={flow.error?.text}
          detail={flow.error?.detail}
          busy={stage.k === 'sending'}
          busyText="Signing and sending the replacement…"
          confirmLabel={`Confirm: ${label.toLowerCase()}`}
          // Two stuck txs may be under review at once (a sped-up one and its original share a nonce).
          about={`nonce ${tx.nonce}, ${shortenId(tx.txHash)}`}
          onEdit={flow.edit}
          onConfirm={() => void flow.confirm()}
        />
      </li>
    );
  }
  return (
    <li class="tx-row" data-testid="pending-evm">
      <div class="tx-top">
        {/* Replaced: the replacement's own status below says what the chain did; this one no longer waits as it was. */}
        {stage.k === 'done' ? (
          <strong>{action === 'speed-up' ? 'Speed-up' : 'Cancellation'} sent: it takes this one's place once the chain takes it</strong>
        ) : (
          <>
            <strong>Waiting since {formatDateTime(tx.createdAt)}</strong>
            <span class="badge status-pending">Pending</span>
          </>
        )}
      </div>
      <div class="muted break">
        {whatItDoes(tx)} · nonce {tx.nonce}
      </div>
      {stage.k === 'done' ? (
        <TxStatus chain="C" txID={stage.txHash} />
      ) : (
        <div class="actions">
          <SmallButton disabled={stage.k === 'estimating'} onClick={() => start('speed-up')}>
            Speed up<ScreenReaderText> the transaction {shortenId(tx.txHash)}</ScreenReaderText>
          </SmallButton>
          <SmallButton disabled={stage.k === 'estimating'} onClick={() => start('cancel')}>
            Cancel<ScreenReaderText> the transaction {shortenId(tx.txHash)}</ScreenReaderText>
          </SmallButton>
        </div>
      )}
      <FormError error={flow.error?.text} detail={flow.error?.detail} />
    </li>
  );
}

/** Nothing when no C-Chain tx of the account waits; else the list, under its own heading. */
export function PendingEvm({ selection, listKey, level = 2 }: { selection: Selection | undefined; listKey: string; level?: 2 | 3 }) {
  const list = useRequest('evm.pending', {}, listKey);
  const txs = list.data?.txs ?? [];
  if (txs.length === 0) return null;
  const Heading = `h${level}` as 'h2';
  return (
    <section class="pending-evm" aria-labelledby="pending-evm-head">
      <Heading id="pending-evm-head">C-Chain transactions waiting</Heading>
      <Muted>The network has not taken these yet (a fee below what blocks need keeps one waiting). A later one waits for them.</Muted>
      <ul class="tx-list">
        {txs.map((tx) => (
          <PendingRow key={tx.txHash} tx={tx} selection={selection} />
        ))}
      </ul>
    </section>
  );
}

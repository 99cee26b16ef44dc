// The rights this account gave to take its tokens (ERC-20 allowances, NFT operators, allowances
// Permit2 keeps), as its Approval logs say and the chain confirms now, each with Revoke:
// approve(spender, 0), setApprovalForAll(operator, false) or Permit2's approve to 0, through the
// review and followed until the chain decides.
import { useCall, useRequest } from '../api.js';
import { EvmFee, useEvmFlow } from '../components/EvmFlow.js';
import { FormError, Muted, ReloadButton, ScreenReaderText, SmallButton } from '../components/Field.js';
import { ScanNote } from '../components/TokenTransfers.js';
import { type Fact, Review } from '../components/Review.js';
import { TxStatus } from '../components/TxStatus.js';
import { shortenId, untilText, WEI_DECIMALS } from '../format.js';
import { allowanceText, spenderNote, unitName } from '../tokens-format.js';
import type { AllowanceView, Selection } from '../../shared/messages.js';

function AllowanceRow({ a, from, selection, onDone }: { a: AllowanceView; from: string; selection: Selection | undefined; onDone: () => void }) {
  const call = useCall();
  const target = { address: a.token, spender: a.spender, kind: a.kind };
  const flow = useEvmFlow(
    () => call('tokens.estimateRevoke', target),
    (q) => call('tokens.revoke', { ...target, maxFeeWei: q.maxFee }, selection),
  );
  const name = unitName(a.symbol, a.token);
  const { stage } = flow;
  if (stage.k === 'review' || stage.k === 'sending') {
    const facts: Fact[] = [
      { term: 'Token', value: `${name} (${a.token})`, mono: true },
      { term: a.kind === 'operator' ? 'Operator' : 'Spender', value: a.spender, mono: true },
      { term: 'It may take now', value: allowanceText(a) },
      { term: 'After this', value: a.kind === 'operator' ? 'It may take none of your NFTs of this contract' : `It may take none of these tokens${a.kind === 'permit2' ? ' through Permit2' : ''}` },
      { term: 'From', value: from, mono: true },
      { term: 'Network fee', value: <EvmFee quote={stage.quote} />, testid: 'review-fee' },
    ];
    return (
      <li class="tx-row">
        <Review
          level={2}
          title={`Review: revoke ${name}`}
          facts={facts}
          note="Nothing leaves your account but the fee. Tokens already taken are not given back."
          error={flow.error?.text}
          detail={flow.error?.detail}
          busy={stage.k === 'sending'}
          busyText="Signing and sending; waiting for the C-Chain to accept it…"
          confirmLabel="Confirm and revoke"
          about={`${name} for ${shortenId(a.spender)}`}
          onEdit={flow.edit}
          onConfirm={() => void flow.confirm()}
        />
      </li>
    );
  }
  return (
    <li class="tx-row" data-testid="allowance">
      <div class="tx-top">
        <strong>{allowanceText(a)}</strong>
        <span class="badge">{a.kind === 'operator' ? 'Operator' : a.kind === 'permit2' ? 'Permit2' : 'Allowance'}</span>
      </div>
      {a.expiration !== undefined && <div class="muted">Taken through Permit2, {untilText(a.expiration)}</div>}
      <div class="muted break">
        {a.kind === 'operator' ? 'Operator' : 'Spender'}: <span class="mono">{a.spender}</span>
      </div>
      <div class={a.spenderIsContract ? 'muted' : 'error-text'}>{spenderNote(a)}</div>
      {stage.k === 'done' ? (
        <TxStatus chain="C" txID={stage.txHash} fee={stage.fee} feeDenomination={WEI_DECIMALS} />
      ) : (
        <div class="actions">
          <SmallButton disabled={stage.k === 'estimating'} onClick={() => void flow.review()}>
            {stage.k === 'estimating' ? 'Estimating…' : 'Revoke'}
            <ScreenReaderText>
              {' '}
              {name} for {shortenId(a.spender)}
            </ScreenReaderText>
          </SmallButton>
          {stage.k === 'idle' && flow.error === undefined ? null : <FormError error={flow.error?.text} detail={flow.error?.detail} />}
        </div>
      )}
      {stage.k === 'done' && (
        <SmallButton onClick={onDone}>
          Reload the list<ScreenReaderText> after revoking {name}</ScreenReaderText>
        </SmallButton>
      )}
    </li>
  );
}

export function Allowances({ from, selection, listKey, onBack }: { from: string; selection: Selection | undefined; listKey: string; onBack: () => void }) {
  const list = useRequest('tokens.allowances', { refresh: true }, listKey);
  const rows = list.data?.allowances;
  const scan = list.data?.scan;
  return (
    <div class="allowances">
      <div class="title-row">
        <h1>Allowances</h1>
        <SmallButton onClick={onBack}>
          Back
        </SmallButton>
      </div>
      <Muted>
        Who may take tokens from this account without asking again: what you approved on sites, still in force on the chain. Not listed: an NFT approved on its own (one token, not the whole
        contract); sending that NFT ends it.
      </Muted>
      <ReloadButton list={list} busy="Reading the chain…" />
      <FormError error={list.error} />
      <ScanNote scan={scan} kept="approvals" />
      {scan?.cut && <Muted>Add a token yourself to keep all of its approvals from now on (one cut before is not read again).</Muted>}
      {rows && rows.length === 0 && (
        <Muted>{scan?.cut ? 'None found among the approvals kept.' : scan?.complete && !scan.error ? 'None: no one may take tokens from this account.' : 'None found in the blocks read so far.'}</Muted>
      )}
      <ul class="tx-list">
        {rows?.map((a) => (
          <AllowanceRow key={`${a.token}-${a.spender}-${a.kind}`} a={a} from={from} selection={selection} onDone={() => void list.reload()} />
        ))}
      </ul>
    </div>
  );
}

// A token send on the C-Chain: an ERC-20 amount in the token's units, or one NFT by its ID, to an
// EVM address; the fee quoted and the send tried on the user's node (tokens.estimateSend), the
// review, then the send with the reviewed fee as its ceiling, followed until the chain decides.
import { useState } from 'preact/hooks';
import { useCall } from '../api.js';
import { checkAddress, checkAmount, U256_MAX } from '../checks.js';
import { AddressInput, sameAddress } from '../components/AddressInput.js';
import { AmountInput } from '../components/AmountInput.js';
import { AmountText } from '../components/AmountText.js';
import { EvmFee, useEvmFlow } from '../components/EvmFlow.js';
import { ErrorDetail, FormError, MutedText, SmallButton, TextField } from '../components/Field.js';
import { type Fact, Review } from '../components/Review.js';
import { useSentBefore } from '../components/SentBefore.js';
import { TxStatus } from '../components/TxStatus.js';
import { formatValue, WEI_DECIMALS } from '../format.js';
import { checkTokenId, tokenFlags, unitName } from '../tokens-format.js';
import type { Selection, SimulationView, TokenSendParams, TokenView } from '../../shared/messages.js';

export interface TokenSendProps {
  token: TokenView;
  /** The wallet's C-Chain address (what the send is from). */
  from: string;
  hrp: string;
  /** The account and network the send is reviewed on. */
  selection: Selection | undefined;
  onBack: () => void;
  /** An NFT ID to start with (from the NFT list). */
  tokenId?: string;
}

/** What the user's node says the send does to the account, in words. */
export function SimulationLine({ sim }: { sim: SimulationView }) {
  if (sim.reverted !== undefined) {
    return (
      <div class="error-text">
        Your node says it would fail. Sending it would still cost the fee.
        <ErrorDetail detail={sim.reverted ? `The reason your node reported: “${sim.reverted}”` : undefined} about="of why it would fail" />
      </div>
    );
  }
  if (sim.method === 'none') return <div class="muted">Your node could not try it.<ErrorDetail detail={sim.nodeSaid && `Your node said: ${sim.nodeSaid}`} about="of the trial run" /></div>;
  if (sim.changes.length === 0) return <MutedText>{sim.method === 'call' ? 'Your node ran it without error (it could not say what moves).' : 'Tried on your node: nothing of yours moves.'}</MutedText>;
  return (
    <ul class="plain-list">
      {sim.changes.map((c) => {
        const name = c.asset === 'native' ? 'AVAX' : unitName(c.symbol, c.asset);
        const what = c.tokenId !== undefined ? `NFT #${c.tokenId} of ${name}` : formatValue(c.delta.replace(/^-/, ''), c.decimals, name);
        return <li key={`${c.asset}-${c.tokenId ?? ''}`}>{c.delta.startsWith('-') ? `Leaves you: ${what}` : `You get: ${what}`}</li>;
      })}
    </ul>
  );
}

export const TO_CONTRACT = "This is the token's own contract, not a recipient: tokens sent to it are lost for good. Enter the address of whoever should get them.";

export function TokenSend(p: TokenSendProps) {
  const call = useCall();
  const nft = p.token.standard !== 'erc20';
  const symbol = unitName(p.token.symbol, p.token.address);
  const [to, setTo] = useState('');
  const [amount, setAmount] = useState('');
  const [tokenId, setTokenId] = useState(p.tokenId ?? '');
  const spendable = p.token.standard === 'erc20' && p.token.balance !== undefined ? BigInt(p.token.balance) : undefined;
  const toCheck = checkAddress(to, 'C-evm', p.hrp);
  const amountCheck = p.token.standard === 'erc721' ? null : checkAmount(amount, { denomination: p.token.decimals, symbol, max: U256_MAX, ...(spendable !== undefined ? { spendable } : {}) });
  const idCheck = nft ? checkTokenId(tokenId) : null;
  // Tokens sent to their own contract are stuck there for good: no one can send them back.
  const toContract = toCheck.ok && sameAddress(toCheck.value, p.token.address) ? TO_CONTRACT : undefined;
  const ready = toCheck.ok && !toContract && (amountCheck === null || amountCheck.ok) && (idCheck === null || idCheck.ok);

  const params = (): TokenSendParams => ({
    address: p.token.address,
    to: toCheck.ok ? toCheck.value : '',
    ...(amountCheck?.ok ? { amount: amountCheck.value.toString() } : {}),
    ...(idCheck?.ok ? { tokenId: idCheck.value.toString() } : {}),
  });
  const flow = useEvmFlow(
    () => call('tokens.estimateSend', params()),
    (q) => call('tokens.send', { ...params(), maxFeeWei: q.maxFee }, p.selection),
  );
  const { stage } = flow;
  const id = `NFT #${idCheck?.ok ? idCheck.value : '?'} of ${symbol}`;
  // An ERC-1155 send is an amount of one ID: the review names both.
  const amt = (v: bigint | string) => <AmountText digits={p.token.decimals} value={v} denomination={p.token.decimals} symbol={symbol} />;
  const what = !amountCheck?.ok ? id : nft ? `${amountCheck.value} × ${id}` : amt(amountCheck.value);
  const reviewing = (stage.k === 'review' || stage.k === 'sending') && ready;
  const sentBefore = useSentBefore(reviewing ? { chain: 'C', token: p.token.address, ...(idCheck?.ok ? { tokenId: idCheck.value.toString() } : {}), amount: amountCheck?.ok ? amountCheck.value : 1n, to: toCheck.value, sending: stage.k === 'sending' } : undefined);

  if (stage.k === 'done') {
    return (
      <div class="token-send">
        {/* Its heading follows what became of it ("Checking whether it went out", "Refused"), as Send's does. */}
        <TxStatus heading="Sent" chain="C" txID={stage.txHash} fee={stage.fee} feeDenomination={WEI_DECIMALS} />
        <div class="actions">
          <button type="button" class="primary" onClick={p.onBack}>
            Back to tokens
          </button>
        </div>
      </div>
    );
  }

  // Repeated on the review: it is what is read before Confirm.
  const flags = tokenFlags(p.token.checks);
  if (reviewing) {
    // A token that keeps a cut of each transfer: the node's trial run says what reaches the recipient.
    const got = stage.quote.arrives;
    const kept = got && amountCheck?.ok ? amountCheck.value - BigInt(got) : 0n;
    const facts: Fact[] = [
      { term: 'Token', value: `${p.token.name} (${symbol})` },
      { term: 'Token contract', value: p.token.address, mono: true },
      ...(flags.length > 0 ? [{ term: 'Beware', value: <span class="badge warn">{flags.join(' ')}</span>, testid: 'review-flags' }] : []),
      { term: nft ? 'NFT' : 'Amount', value: what, testid: 'review-amount' },
      { term: 'From', value: p.from, mono: true },
      { term: 'To', value: toCheck.value, testid: 'review-to', mono: true },
      ...sentBefore,
      { term: 'Network fee', value: <EvmFee quote={stage.quote} />, testid: 'review-fee' },
      {
        term: 'Arrives',
        value:
          got === '0' ? (
            <span class="badge warn">Nothing, by your node's trial run: the token does not pass it on to the address above. You would still send {what} and pay the fee.</span>
          ) : (
            <>{got ? amt(got) : what} at the address above{kept > 0n && <> (the token keeps {amt(kept)})</>}; the fee is paid in AVAX</>
          ),
        testid: 'review-arrives',
      },
      { term: 'Tried on your node', value: <SimulationLine sim={stage.quote.simulation} /> },
    ];
    return (
      <div class="token-send">
        <Review
          level={1}
          title={`Review: send ${symbol}`}
          facts={facts}
          error={flow.error?.text}
          detail={flow.error?.detail}
          busy={stage.k === 'sending'}
          busyText="Signing and sending; waiting for the C-Chain to accept it…"
          confirmLabel="Confirm and send"
          onEdit={flow.edit}
          onConfirm={() => void flow.confirm()}
        />
      </div>
    );
  }

  return (
    <form
      class="token-send"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (ready) void flow.review();
      }}
    >
      <div class="title-row">
        <h1>Send {symbol}</h1>
        <SmallButton onClick={p.onBack}>
          Back
        </SmallButton>
      </div>
      <p class="muted break">
        {p.token.name} · contract <span class="mono">{p.token.address}</span>
      </p>
      {flags.map((f) => (
        <p key={f} class="badge warn" role="note">
          {f}
        </p>
      ))}
      <AddressInput kind="C-evm" hrp={p.hrp} value={to} onInput={setTo} own={p.from} error={toContract} />
      {nft && <TextField label="Token ID" value={tokenId} onInput={setTokenId} inputMode="numeric" mono error={tokenId !== '' && idCheck && !idCheck.ok ? idCheck.error : undefined} />}
      {amountCheck && (
        <AmountInput
          value={amount}
          onInput={setAmount}
          denomination={p.token.decimals}
          symbol={symbol}
          max={U256_MAX}
          {...(spendable !== undefined ? { spendable, maxValue: spendable } : {})}
        />
      )}
      <p class="fee-line muted">The network fee is paid in AVAX from this account; the review shows it.</p>
      <FormError error={flow.error?.text} detail={flow.error?.detail} />
      <button class="primary wide" type="submit" disabled={!ready || stage.k === 'estimating'}>
        {stage.k === 'estimating' ? 'Estimating the fee…' : 'Review'}
      </button>
    </form>
  );
}

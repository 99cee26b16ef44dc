// Send: X (any asset, optional memo), P (AVAX), C (native AVAX in wei). The form checks as the user
// types and asks the background for the exact fee and the largest sendable amount (send.estimate);
// a review screen shows exactly what will be signed, with its fee; then the status until accepted.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { BackgroundError } from '../../shared/client.js';
import { errorField, errorInfo, errorText, selectionOf, useCall } from '../api.js';
import { type AddressKind, checkAddress, checkAmount, checkMemo, MAX_MEMO_BYTES, U256_MAX, utf8Length } from '../checks.js';
import { AddressInput, OWN_ADDRESS, sameAddress } from '../components/AddressInput.js';
import { AmountInput } from '../components/AmountInput.js';
import { AssetLabel } from '../components/AssetLabel.js';
import { FormError, Muted, TextField } from '../components/Field.js';
import { Segmented } from '../components/Segmented.js';
import { AmountText } from '../components/AmountText.js';
import { SendFee } from '../components/SendFee.js';
import { useSentBefore } from '../components/SentBefore.js';
import { type Fact, Review } from '../components/Review.js';
import { TxStatus } from '../components/TxStatus.js';
import { assetsLeftWithoutFee, MAX_ONE_TX, maxOf, noFeeLeftText, useEstimate } from '../fees.js';
import { FEE_WENT_UP } from '../errors.js';
import { chainLabel, memoShown, noBalancesText, units, WEI_DECIMALS } from '../format.js';
import type { Amount, AssetBalanceView, BalancesView, ChainName, SendEstimate, SendEstimateParams, WalletStatus } from '../../shared/messages.js';
import { AssetPicker, sendableAssets } from './SendAssets.js';

export interface SendProps {
  status: WalletStatus;
  hrp: string;
  balances: BalancesView | null;
  /** Assets the user hid on Home: not counted as left without their fee. */
  hidden?: ReadonlySet<string>;
  onSent: () => void;
  /** Test hook: the pause in typing before an estimate is asked for. */
  estimateDelayMs?: number;
}

/** `key`: the inputs (chain, asset, amount, address, memo) a review is for; it is shown for those only. */
type Stage =
  | { k: 'form' }
  | { k: 'estimating'; key: string }
  | { k: 'review'; key: string; estimate: SendEstimate }
  /** What is being sent, as reviewed: shown until the background answers, whatever a refresh does to the form meanwhile. */
  | { k: 'sending'; key: string; estimate: SendEstimate; sent: Reviewed }
  | { k: 'done'; chain: ChainName; txID: string; fee: Amount };

/** The send a review shows: the asset, the amount in its base units, the recipient and (X only) the memo. */
interface Reviewed {
  asset: AssetBalanceView;
  amount: bigint;
  to: string;
  memo: string;
}

const ADDRESS_KIND: Record<ChainName, AddressKind> = { X: 'X', P: 'P', C: 'C-evm' };

/** Background fields that belong to a form field here. */
const FIELD_OF: Record<string, 'to' | 'amount' | 'memo'> = { to: 'to', amount: 'amount', amountWei: 'amount', memo: 'memo', assetID: 'amount' };

/** A failure the amount field should show (the background names no field for missing funds, but 'fee' for the fee's). */
function fieldOf(e: unknown): string | undefined {
  return errorField(e) ?? (e instanceof BackgroundError && e.code === 'insufficient-funds' ? 'amount' : undefined);
}

/** A failure as the form shows it, with the field it is about; `short`: the amount and its fee are more than there is. */
function failure(e: unknown): { field: string | undefined; message: string; detail: string | undefined; short: boolean } {
  const field = fieldOf(e);
  return { field, message: errorText(e), detail: errorInfo(e).detail, short: field === 'amount' && e instanceof BackgroundError && e.code === 'insufficient-funds' };
}

export function Send(p: SendProps) {
  const call = useCall();
  const [chain, setChain] = useState<ChainName>('X');
  const [assetID, setAssetID] = useState('');
  const [to, setTo] = useState('');
  const [amount, setAmount] = useState('');
  const [memo, setMemo] = useState('');
  const [stage, setStage] = useState<Stage>({ k: 'form' });
  const [server, setServer] = useState<{ field: string | undefined; message: string; detail?: string | undefined; short?: boolean } | null>(null);
  /** Refusals for lack of funds so far: each asks for the most that can go again. */
  const [shortSeen, setShortSeen] = useState(0);
  const refused = (said: ReturnType<typeof failure>) => {
    setServer(said);
    if (said.short) setShortSeen((n) => n + 1);
  };

  useEffect(() => setServer(null), [chain, assetID, to, amount, memo]);

  const assets = sendableAssets(p.balances, chain);
  const asset = assets.find((b) => b.assetID === assetID) ?? assets[0];
  const kind = ADDRESS_KIND[chain];
  const feeInAsset = chain !== 'X' || asset?.verified === true;
  const spendable = asset ? units(asset.spendable) : undefined;
  const max = chain === 'C' ? { max: U256_MAX } : {};
  // Without the fee: what to ask the background about does not depend on its answer.
  const plain = asset ? checkAmount(amount, { denomination: asset.denomination, symbol: asset.symbol, ...(spendable !== undefined ? { spendable } : {}), ...max }) : null;
  const toCheck = checkAddress(to, kind, p.hrp);
  const memoCheck = checkMemo(memo);
  // Only X-Chain sends carry a memo: one typed there is kept for X and never blocks P or C.
  const memoOk = chain !== 'X' || memoCheck.ok;

  // The estimate: for the typed amount and address once they are valid; until then for the
  // smallest amount to the wallet's own address (same shape, so the same fee on X and C).
  const own = chain === 'X' ? p.status.account?.xAddress : chain === 'P' ? p.status.account?.pAddress : p.status.account?.cAddress;
  const typed = plain?.ok === true && toCheck.ok;
  const value = plain?.ok ? plain.value.toString() : '1';
  const dest = toCheck.ok ? toCheck.value : own;
  let params: SendEstimateParams | null = null;
  if (asset && dest && spendable !== undefined && spendable > 0n && memoOk) {
    const owners = { addresses: [dest], threshold: 1 };
    params =
      chain === 'X'
        ? { chain, assetID: asset.assetID, amount: value, to: owners, ...(memo !== '' ? { memo } : {}) }
        : chain === 'P'
          ? { chain, amount: value, to: owners }
          : { chain, to: dest, amountWei: value };
  }
  // A new balances snapshot (after a send, say) is asked about again.
  const group = `${chain}:${asset?.assetID ?? ''}:${p.balances?.updatedAt ?? 0}`;
  const estimate = useEstimate('send.estimate', params, group, p.estimateDelayMs);
  const shown = estimate.exact ?? estimate.latest;
  const fee = feeInAsset && shown ? units(shown.fee) : undefined;
  // The field's own check (with the fee) speaks first; the background's refusal when it passes.
  const withFee = asset && fee !== undefined ? checkAmount(amount, { denomination: asset.denomination, symbol: asset.symbol, ...(spendable !== undefined ? { spendable } : {}), fee, ...max }) : plain;
  // Not enough AVAX for the fee of another asset: said of the form, not the amount, and no review.
  const feeShort = estimate.error?.field === 'fee';
  const estimateError = typed ? estimate.error?.message : undefined;
  // The background refuses this amount (not enough funds, more than one tx can carry): said at the amount, and no review.
  const amountRefused = estimate.error !== undefined && !feeShort && (estimate.error.code === 'insufficient-funds' || FIELD_OF[estimate.error.field ?? ''] === 'amount');
  const amountError = serverError('amount') ?? (amountRefused && withFee?.ok ? estimate.error!.message : undefined);
  const strands = asset && plain?.ok && fee !== undefined ? assetsLeftWithoutFee(assets, asset, plain.value, fee, p.hidden) : 0;
  const ready = asset !== undefined && toCheck.ok && plain?.ok === true && withFee?.ok === true && memoOk && !amountRefused && !feeShort;
  // Where the typed send goes, and the memo it carries (X only), as a review shows them.
  const typedSend = { to: toCheck.ok ? toCheck.value : '', memo: chain === 'X' ? memo : '' };
  // What a review would be for now; read through the ref when an estimate asked earlier answers.
  const reviewKey = params && typed ? JSON.stringify(params) : '';
  const keyRef = useRef(reviewKey);
  keyRef.current = reviewKey;
  // A review (asked or shown) is dropped as soon as an input changes or the form is no longer ready:
  // it never comes back by itself, nor with another send's fee.
  const reviewed = stage.k === 'estimating' || stage.k === 'review' ? stage.key : undefined;
  useEffect(() => {
    if (reviewed !== undefined && (reviewed !== reviewKey || !ready)) setStage({ k: 'form' });
  }, [reviewed, reviewKey, ready]);
  // The amount refused for lack of funds (Max read before the fee rose, or before the balance fell):
  // the most that can go now is asked for again, for the smallest amount, and Max offers that.
  const short = typed && ((amountRefused && estimate.error?.code === 'insufficient-funds') || server?.short === true);
  const probe = useEstimate('send.estimate', short && params ? ({ ...params, ...(params.chain === 'C' ? { amountWei: '1' } : { amount: '1' }) } as SendEstimateParams) : null, `${group}:${shortSeen}`, p.estimateDelayMs);
  const maxQuote = probe.exact ?? estimate.latest;
  const maxValue = maxOf(maxQuote);
  const maxNote =
    maxValue !== null
      ? maxQuote?.maxOneTx
        ? MAX_ONE_TX
        : feeInAsset
          ? 'Max leaves room for the fee'
          : 'The fee is paid in AVAX'
      : spendable === 0n
        ? undefined
        : estimate.pending
          ? 'Estimating the fee…'
          : 'Max needs a fee estimate, and none is available now';
  function serverError(f: 'to' | 'amount' | 'memo') {
    return server && server.field && FIELD_OF[server.field] === f ? server.message : undefined;
  }

  let feeLine: ComponentChildren;
  if (!shown) feeLine = estimate.pending ? 'Estimating…' : (estimate.error?.message ?? 'Fill in the amount and address to see the fee.');
  // The C-Chain's is a ceiling that no amount changes; X's is fixed by the network.
  else if (chain === 'C') feeLine = <SendFee chain={chain} fee={shown.fee} gasLimit={shown.gasLimit} />;
  else if (estimate.exact && typed)
    feeLine = (
      <>
        <SendFee chain={chain} fee={shown.fee} />, exactly (this transaction, built but not signed)
      </>
    );
  else
    feeLine =
      chain === 'X' ? (
        <>
          <SendFee chain={chain} fee={shown.fee} /> (fixed on the X-Chain)
        </>
      ) : (
        <>
          about <SendFee chain={chain} fee={shown.fee} />; exact once the amount and address are filled in
        </>
      );

  const reset = () => {
    setTo('');
    setAmount('');
    setMemo('');
    setStage({ k: 'form' });
  };

  /** The exact fee for what was typed, just before the review: the review shows nothing older. */
  const review = async () => {
    if (!ready || !params || !typed) return;
    const key = reviewKey;
    setStage({ k: 'estimating', key });
    // An answer counts only while its review is still asked for, for the inputs still on screen.
    const still = (s: Stage) => s.k === 'estimating' && s.key === key && keyRef.current === key;
    try {
      const estimate = await call('send.estimate', params);
      setStage((s) => (still(s) ? { k: 'review', key, estimate } : s));
    } catch (e) {
      if (keyRef.current !== key) return;
      refused(failure(e));
      setStage((s) => (still(s) ? { k: 'form' } : s));
    }
  };

  // The account and network this is reviewed on: the background refuses the send if either changes.
  const selection = selectionOf(p.status);

  const confirm = async ({ key, estimate: estimated }: { key: string; estimate: SendEstimate }) => {
    if (!ready || !asset || !plain.ok || key !== reviewKey) return;
    setStage({ k: 'sending', key, estimate: estimated, sent: { asset, amount: plain.value, ...typedSend } });
    try {
      const v = plain.value.toString();
      // The reviewed fee is the most the background may sign for (C: wei, gas limit × max fee per gas).
      const maxFee = estimated.fee;
      let done: Stage;
      if (chain === 'X') {
        const r = await call('send.x', { assetID: asset.assetID, amount: v, to: { addresses: [toCheck.value], threshold: 1 }, ...(memo !== '' ? { memo } : {}), maxFee }, selection);
        done = { k: 'done', chain, txID: r.txID, fee: r.fee };
      } else if (chain === 'P') {
        const r = await call('send.p', { amount: v, to: { addresses: [toCheck.value], threshold: 1 }, maxFee }, selection);
        done = { k: 'done', chain, txID: r.txID, fee: r.fee };
      } else {
        const r = await call('send.c', { to: toCheck.value, amountWei: v, maxFeeWei: maxFee }, selection);
        done = { k: 'done', chain, txID: r.txHash, fee: r.fee };
      }
      setStage(done);
      p.onSent();
    } catch (e) {
      if (e instanceof BackgroundError && e.code === 'fee-above-approved') {
        await reviewAgain(key);
        return;
      }
      const said = failure(e);
      refused(said);
      setStage(said.field && FIELD_OF[said.field] ? { k: 'form' } : { k: 'review', key, estimate: estimated });
    }
  };

  /** The fee rose between the review and the send (nothing was signed): a fresh review, with the reason. */
  const reviewAgain = async (key: string) => {
    if (!params) {
      setServer({ field: undefined, message: FEE_WENT_UP });
      setStage({ k: 'form' });
      return;
    }
    try {
      const fresh = await call('send.estimate', params);
      setServer({ field: undefined, message: FEE_WENT_UP });
      setStage({ k: 'review', key, estimate: fresh });
    } catch (e) {
      refused({ ...failure(e), message: `${FEE_WENT_UP} ${errorText(e)}`, detail: undefined });
      setStage({ k: 'form' });
    }
  };

  // A send under way is shown as it was reviewed until the background answers: a refresh that makes
  // the form no longer ready (the funds it spends now gone) must not bring back a form to send again.
  const shownReview: Reviewed | undefined =
    stage.k === 'sending' ? stage.sent : stage.k === 'review' && stage.key === reviewKey && ready && asset ? { asset, amount: plain.value, ...typedSend } : undefined;
  const sentBefore = useSentBefore(shownReview && { chain, assetID: shownReview.asset.assetID, amount: shownReview.amount, to: shownReview.to, sending: stage.k === 'sending' });

  if (stage.k === 'done') {
    return (
      <div class="send">
        <TxStatus heading="Sent" chain={stage.chain} txID={stage.txID} fee={stage.fee} {...(stage.chain === 'C' ? { feeDenomination: WEI_DECIMALS } : {})} />
        <div class="actions">
          <button class="primary" onClick={reset}>
            Send another
          </button>
        </div>
      </div>
    );
  }

  if ((stage.k === 'review' || stage.k === 'sending') && shownReview) {
    const { asset: a, amount: sent, to: recipient, memo: note } = shownReview;
    const exactFee = units(stage.estimate.fee);
    const total = feeInAsset ? sent + exactFee : undefined;
    const facts: Fact[] = [
      // Which account pays, by name: a wallet with several accounts is judged by it.
      { term: 'From', value: `${p.status.account?.name ?? 'Your account'}, on the ${chainLabel(chain)}`, testid: 'review-from' },
      { term: 'Asset', value: <AssetLabel asset={a} /> },
      // What leaves is shown to the nAVAX; only wei beyond that is rounded (exact one click away).
      // Each toggle named by its line: Amount and Arrives show the same figure.
      { term: 'Amount', value: <AmountText label="Amount" digits={9} value={sent} denomination={a.denomination} symbol={a.symbol} />, testid: 'review-amount' },
      { term: 'To', value: recipient, testid: 'review-to', mono: true },
      ...(sameAddress(recipient, own) ? [{ term: 'Note', value: OWN_ADDRESS, testid: 'review-own' }] : []),
      ...(note !== '' ? [{ term: 'Memo (public)', value: <span class="keep-spaces">{memoShown(note)}</span>, testid: 'review-memo', mono: true }] : []),
      ...sentBefore,
      ...(strands > 0 ? [{ term: 'Other assets', value: noFeeLeftText(strands), testid: 'review-strands' }] : []),
      { term: 'Network fee', value: <SendFee chain={chain} fee={stage.estimate.fee} gasLimit={stage.estimate.gasLimit} />, testid: 'review-fee' },
      ...(total !== undefined ? [{ term: 'Amount + fee', value: <AmountText label="Amount + fee" digits={9} up={chain === 'C'} prefix={chain === 'C' ? 'at most ' : ''} value={total} denomination={a.denomination} symbol={a.symbol} />, testid: 'review-total' }] : []),
      { term: 'Arrives', value: <><AmountText label="Arrives" digits={9} value={sent} denomination={a.denomination} symbol={a.symbol} /> at the address above</> },
    ];
    return (
      <div class="send">
        <Review
          level={1}
          facts={facts}
          error={server?.message}
          detail={server?.detail}
          busy={stage.k === 'sending'}
          busyText="Signing and sending; waiting for the chain to accept it…"
          confirmLabel="Confirm and send"
          onEdit={() => setStage({ k: 'form' })}
          onConfirm={() => void confirm(stage)}
        />
      </div>
    );
  }

  return (
    <form
      class="send"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void review();
      }}
    >
      <h1>Send</h1>
      <Segmented
        legend="From chain"
        value={chain}
        options={(['X', 'P', 'C'] as const).map((c) => ({ value: c, label: chainLabel(c) }))}
        onChange={(c) => {
          setChain(c);
          setAssetID('');
          setTo('');
          setAmount('');
        }}
      />
      {!asset ? (
        <Muted>{p.balances?.updatedAt ? `Nothing to send on the ${chainLabel(chain)} yet.` : noBalancesText(p.balances)}</Muted>
      ) : (
        <>
          {chain === 'X' && <AssetPicker assets={assets} asset={asset} onPick={setAssetID} />}
          <AddressInput kind={kind} hrp={p.hrp} value={to} onInput={setTo} error={serverError('to')} own={own} />
          <AmountInput
            value={amount}
            onInput={setAmount}
            denomination={asset.denomination}
            symbol={asset.symbol}
            spendable={spendable}
            {...(fee !== undefined ? { fee } : {})}
            {...max}
            maxValue={maxValue}
            {...(maxNote ? { maxNote } : {})}
            error={amountError}
          />
          {strands > 0 && !amountError && (
            <p class="warn-box" role="note" data-testid="send-strands">
              {noFeeLeftText(strands)}
            </p>
          )}
          {chain === 'X' && (
            <TextField
              label="Memo (optional, public)"
              value={memo}
              onInput={setMemo}
              hint={`${utf8Length(memo)} / ${MAX_MEMO_BYTES} bytes. Anyone can read it on chain.`}
              error={serverError('memo') ?? (memoCheck.ok ? undefined : memoCheck.error)}
            />
          )}
          <p class="fee-line">
            <strong>Network fee: </strong>
            <span data-testid="fee-line">{feeLine}</span>
          </p>
          <FormError error={server && !(server.field && FIELD_OF[server.field]) ? server.message : (estimateError !== amountError ? estimateError : undefined)} detail={server && !(server.field && FIELD_OF[server.field]) ? server.detail : undefined} />
          <button class="primary wide" type="submit" disabled={!ready || stage.k === 'estimating'}>
            {stage.k === 'estimating' ? 'Estimating the fee…' : 'Review'}
          </button>
        </>
      )}
    </form>
  );
}

// Send: X (any asset, optional memo), P (AVAX), C (native AVAX in wei). The form checks as the user
// types; a review screen shows exactly what will be signed; then the status until accepted.
import { useEffect, useState } from 'preact/hooks';
import { errorField, errorText, useCall, useRequest } from '../api.js';
import { type AddressKind, checkAddress, checkAmount, checkMemo, MAX_MEMO_BYTES, maxAmount, U256_MAX, utf8Length } from '../checks.js';
import { AddressInput } from '../components/AddressInput.js';
import { AmountInput } from '../components/AmountInput.js';
import { AssetLabel } from '../components/AssetLabel.js';
import { FormError, TextField } from '../components/Field.js';
import { Segmented } from '../components/Segmented.js';
import { TxStatus } from '../components/TxStatus.js';
import { feeText, recentFee } from '../fees.js';
import { chainLabel, formatValue, shortenId, units } from '../format.js';
import type { Amount, AssetBalanceView, BalancesView, ChainName, WalletStatus } from '../../shared/messages.js';

export interface SendProps {
  status: WalletStatus;
  hrp: string;
  balances: BalancesView | null;
  onSent: () => void;
}

type Stage = { k: 'form' } | { k: 'review' } | { k: 'sending' } | { k: 'done'; chain: ChainName; txID: string; fee?: Amount };

const ADDRESS_KIND: Record<ChainName, AddressKind> = { X: 'X', P: 'P', C: 'C-evm' };

/** Background fields that belong to a form field here. */
const FIELD_OF: Record<string, 'to' | 'amount' | 'memo'> = { to: 'to', amount: 'amount', amountWei: 'amount', memo: 'memo', assetID: 'amount' };

/** The assets that can be sent from `chain`, the network's AVAX first. */
export function sendableAssets(view: BalancesView | null, chain: ChainName): AssetBalanceView[] {
  if (!view || view.updatedAt === 0) return [];
  const rows = view.balances.filter((b) => b.chain === chain && (b.verified || units(b.spendable) > 0n));
  if (chain === 'X' && !rows.some((b) => b.verified)) {
    // No X UTXO yet: AVAX is still the asset to pick (its ID is the P-Chain's AVAX).
    const avax = view.balances.find((b) => b.chain === 'P' && b.verified);
    if (avax) rows.unshift({ ...avax, chain: 'X', spendable: '0', locked: '0', lockedStakeable: '0' });
  }
  return rows.sort((a, b) => Number(b.verified) - Number(a.verified));
}

function assetOption(b: AssetBalanceView): string {
  return b.verified ? `${b.symbol} (verified)` : `${b.symbol} · ${b.name} · ID ${shortenId(b.assetID)}`;
}

export function Send(p: SendProps) {
  const call = useCall();
  const activity = useRequest('activity.list', {});
  const [chain, setChain] = useState<ChainName>('X');
  const [assetID, setAssetID] = useState('');
  const [to, setTo] = useState('');
  const [amount, setAmount] = useState('');
  const [memo, setMemo] = useState('');
  const [stage, setStage] = useState<Stage>({ k: 'form' });
  const [server, setServer] = useState<{ field: string | undefined; message: string } | null>(null);

  useEffect(() => setServer(null), [chain, assetID, to, amount, memo]);

  const assets = sendableAssets(p.balances, chain);
  const asset = assets.find((b) => b.assetID === assetID) ?? assets[0];
  const kind = ADDRESS_KIND[chain];
  const hint = chain === 'C' ? undefined : recentFee(activity.data?.items, chain, ['send']);
  const feeInAsset = chain !== 'X' || asset?.verified === true;
  const fee = feeInAsset ? hint?.amount : undefined;
  const spendable = asset ? units(asset.spendable) : undefined;
  const amountRules = asset
    ? { denomination: asset.denomination, symbol: asset.symbol, ...(spendable !== undefined ? { spendable } : {}), ...(fee !== undefined ? { fee } : {}), ...(chain === 'C' ? { max: U256_MAX } : {}) }
    : null;
  const amountCheck = amountRules ? checkAmount(amount, amountRules) : null;
  const toCheck = checkAddress(to, kind, p.hrp);
  const memoCheck = checkMemo(memo);
  const ready = asset !== undefined && toCheck.ok && amountCheck?.ok === true && memoCheck.ok;
  const maxValue = chain === 'C' || spendable === undefined ? null : maxAmount(spendable, hint?.amount, feeInAsset);
  const maxNote =
    chain === 'C'
      ? 'Max needs a C-Chain fee estimate, which is not available yet'
      : maxValue !== null
        ? feeInAsset
          ? 'Max leaves room for the fee'
          : 'The fee is paid in AVAX'
        : spendable === 0n
          ? undefined
          : 'Max needs a fee estimate: none yet on this chain';
  const serverError = (f: 'to' | 'amount' | 'memo') => (server && server.field && FIELD_OF[server.field] === f ? server.message : undefined);

  const reset = () => {
    setTo('');
    setAmount('');
    setMemo('');
    setStage({ k: 'form' });
  };

  const confirm = async () => {
    if (!ready || !asset) return;
    setStage({ k: 'sending' });
    try {
      const value = amountCheck.value.toString();
      let done: Stage;
      if (chain === 'X') {
        const r = await call('send.x', { assetID: asset.assetID, amount: value, to: { addresses: [toCheck.value], threshold: 1 }, ...(memo !== '' ? { memo } : {}) });
        done = { k: 'done', chain, txID: r.txID, fee: r.fee };
      } else if (chain === 'P') {
        const r = await call('send.p', { amount: value, to: { addresses: [toCheck.value], threshold: 1 } });
        done = { k: 'done', chain, txID: r.txID, fee: r.fee };
      } else {
        const r = await call('send.c', { to: toCheck.value, amountWei: value });
        done = { k: 'done', chain, txID: r.txHash };
      }
      setStage(done);
      p.onSent();
    } catch (e) {
      const field = errorField(e);
      setServer({ field, message: errorText(e) });
      setStage(field && FIELD_OF[field] ? { k: 'form' } : { k: 'review' });
    }
  };

  if (stage.k === 'done') {
    return (
      <div class="send">
        <h1>Sent</h1>
        <TxStatus chain={stage.chain} txID={stage.txID} fee={stage.fee} />
        <div class="actions">
          <button class="primary" onClick={reset}>
            Send another
          </button>
        </div>
      </div>
    );
  }

  if ((stage.k === 'review' || stage.k === 'sending') && ready && asset) {
    const sending = stage.k === 'sending';
    const total = fee !== undefined ? amountCheck.value + fee : undefined;
    return (
      <div class="send">
        <h1>Review</h1>
        <dl class="facts">
          <dt>From</dt>
          <dd>{chainLabel(chain)}</dd>
          <dt>Asset</dt>
          <dd>
            <AssetLabel asset={asset} />
          </dd>
          <dt>Amount</dt>
          <dd class="amount" data-testid="review-amount">
            {formatValue(amountCheck.value, asset.denomination, asset.symbol)}
          </dd>
          <dt>To</dt>
          <dd class="mono break" data-testid="review-to">
            {toCheck.value}
          </dd>
          {memo !== '' && (
            <>
              <dt>Memo (public)</dt>
              <dd class="break">{memo}</dd>
            </>
          )}
          <dt>Network fee</dt>
          <dd data-testid="review-fee">{feeText(chain, hint)}</dd>
          {total !== undefined && (
            <>
              <dt>Amount + fee</dt>
              <dd class="amount">about {formatValue(total, asset.denomination, asset.symbol)}</dd>
            </>
          )}
        </dl>
        <FormError error={server?.message} />
        <p class="muted" role="status" aria-live="polite">
          {sending ? <span class="spinner" aria-hidden="true" /> : null}
          {sending ? 'Signing and sending; waiting for the chain to accept it…' : ''}
        </p>
        <div class="actions">
          <button type="button" disabled={sending} onClick={() => setStage({ k: 'form' })}>
            Edit
          </button>
          <button type="button" class="primary" disabled={sending} onClick={() => void confirm()}>
            Confirm and send
          </button>
        </div>
      </div>
    );
  }

  return (
    <form
      class="send"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (ready) setStage({ k: 'review' });
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
        <p class="muted">Loading balances…</p>
      ) : (
        <>
          {chain === 'X' && (
            <div class="field">
              <label for="send-asset">Asset</label>
              <select id="send-asset" value={asset.assetID} onChange={(e) => setAssetID(e.currentTarget.value)}>
                {assets.map((b) => (
                  <option key={b.assetID} value={b.assetID}>
                    {assetOption(b)}
                  </option>
                ))}
              </select>
              <p class="field-hint">
                <AssetLabel asset={asset} />
              </p>
            </div>
          )}
          <AddressInput kind={kind} hrp={p.hrp} value={to} onInput={setTo} error={serverError('to')} />
          <AmountInput
            value={amount}
            onInput={setAmount}
            denomination={asset.denomination}
            symbol={asset.symbol}
            spendable={spendable}
            {...(fee !== undefined ? { fee } : {})}
            {...(chain === 'C' ? { max: U256_MAX } : {})}
            maxValue={maxValue}
            {...(maxNote ? { maxNote } : {})}
            error={serverError('amount')}
          />
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
            <span data-testid="fee-line">{feeText(chain, hint)}</span>
          </p>
          <FormError error={server && !(server.field && FIELD_OF[server.field]) ? server.message : undefined} />
          <button class="primary wide" type="submit" disabled={!ready}>
            Review
          </button>
        </>
      )}
    </form>
  );
}

// Validate with the user's own node: its NodeID and BLS key asked from the URL they name
// (staking.nodeKey, by the background), then amount, delegation fee, a fixed end or auto-renewal,
// reward owners → review → confirm → followed until the P-Chain commits it.
import { useState } from 'preact/hooks';
import { useAction, useCall } from '../api.js';
import { checkAddress, checkAmount } from '../checks.js';
import { AddressInput } from '../components/AddressInput.js';
import { AmountInput } from '../components/AmountInput.js';
import { CopyButton } from '../components/CopyButton.js';
import { EndField, endOf, OTHER_END } from '../components/EndField.js';
import { FormError, TextField } from '../components/Field.js';
import { Review } from '../components/Review.js';
import { Segmented } from '../components/Segmented.js';
import { TxStatus } from '../components/TxStatus.js';
import { AVAX_DECIMALS, formatValue } from '../format.js';
import { durationText, earliestEnd, endChoices, ownerText, parsePercent, periodChoices, sharesText, toLocalInput, unixText } from '../staking.js';
import type { Selection } from '../../shared/messages.js';
import type { NodeKeyView, StakingParamsView, StakingSent, ValidationParams, ValidationReview } from '../../shared/messages-staking.js';
import { avax, SIGNED_ON_CONFIRM, STAKE_BUSY, stakeFacts } from './stake-review.js';

export interface StakeValidateProps {
  params: StakingParamsView;
  now: number;
  spendable: bigint | undefined;
  hrp: string;
  selection: Selection | undefined;
  onSent: () => void;
}

type Stage = { k: 'form' } | { k: 'review'; review: ValidationReview; request: ValidationParams } | { k: 'done'; sent: StakingSent };

const FIELDS = ['url', 'amount', 'delegationFee', 'end', 'autoRenew', 'rewardOwner', 'delegationFeeOwner', 'nodeID'];

export function StakeValidate(p: StakeValidateProps) {
  const call = useCall();
  const [url, setUrl] = useState('');
  const [key, setKey] = useState<NodeKeyView | null>(null);
  const [amount, setAmount] = useState('');
  const [fee, setFee] = useState(() => sharesText(p.params.minDelegationFee).replace('%', ''));
  const [mode, setMode] = useState<'fixed' | 'auto'>('fixed');
  const [choice, setChoice] = useState('0');
  const [typedEnd, setTypedEnd] = useState('');
  const [period, setPeriod] = useState('0');
  const [restake, setRestake] = useState('0');
  const [otherOwner, setOtherOwner] = useState(false);
  const [owner, setOwner] = useState('');
  const [stage, setStage] = useState<Stage>({ k: 'form' });
  const action = useAction();

  const choices = endChoices({ now: p.now, minSeconds: p.params.minValidationSeconds, maxSeconds: p.params.maxEnd - p.now });
  const periods = periodChoices(p.params.minValidationSeconds, p.params.maxStakeSeconds);
  const end = endOf({ choices, choice, typed: typedEnd });
  const amountCheck = checkAmount(amount, { denomination: AVAX_DECIMALS, symbol: 'AVAX', ...(p.spendable !== undefined ? { spendable: p.spendable } : {}) });
  const feeCheck = parsePercent(fee);
  const restakeCheck = parsePercent(restake);
  const ownerCheck = checkAddress(owner, 'P', p.hrp);
  const at = (field: string) => (action.field === field ? action.error : undefined);
  const general = !FIELDS.includes(action.field ?? '');
  const edit = (f: () => void) => {
    f();
    action.clear();
  };

  const request = (): ValidationParams | null => {
    if (!key || !amountCheck.ok || !feeCheck.ok || (otherOwner && !ownerCheck.ok)) return null;
    const owners = otherOwner && ownerCheck.ok ? { rewardOwner: { addresses: [ownerCheck.value], threshold: 1 }, delegationFeeOwner: { addresses: [ownerCheck.value], threshold: 1 } } : {};
    const base = { ...key, amount: amountCheck.value.toString(), delegationFee: feeCheck.value, ...owners };
    if (mode === 'fixed') return end === null ? null : { ...base, end };
    const cycle = periods[Number(period)];
    return !cycle || !restakeCheck.ok ? null : { ...base, autoRenew: { period: cycle.seconds, restakeShares: restakeCheck.value } };
  };

  const { run } = action;
  const askKey = () => run(async () => setKey(await call('staking.nodeKey', { url: url.trim() })));
  const toReview = (e: Event) => {
    e.preventDefault();
    const r = request();
    if (r) void run(async () => setStage({ k: 'review', review: await call('staking.estimateValidation', r), request: r }));
  };
  const confirm = (review: ValidationReview, r: ValidationParams) =>
    run(async () => {
      setStage({ k: 'done', sent: await call('staking.validate', { ...r, maxFee: review.fee }, p.selection) });
      p.onSent();
    });

  if (stage.k === 'done') {
    return (
      <div class="stake-validate">
        <TxStatus heading="Validation sent" chain="P" txID={stage.sent.txID} fee={stage.sent.fee} />
      </div>
    );
  }

  if (stage.k === 'review') {
    const r = stage.review;
    const shared = stakeFacts(r);
    return (
      <Review
        level={1}
        title="Review the validation"
        facts={[
          { term: 'Node', value: r.nodeID, mono: true, testid: 'review-node' },
          shared.amount,
          shared.from,
          shared.starts,
          r.autoRenew
            ? { term: 'Runs', value: `In cycles of ${durationText(r.autoRenew.period)}, the first until ${unixText(r.end)}, renewed until you stop it; ${sharesText(r.autoRenew.restakeShares)} of each cycle's rewards restaked` }
            : { term: 'Ends', value: `${unixText(r.end)} (after about ${durationText(r.end - r.start)})` },
          { term: 'Delegation fee', value: `${sharesText(r.delegationFee)} of its delegators' rewards` },
          { term: 'Rewards to', value: ownerText(r.rewardOwner) },
          { term: 'Delegation fees to', value: ownerText(r.delegationFeeOwner) },
          ...(r.authority ? [{ term: 'May change or stop it', value: ownerText(r.authority) }] : []),
          shared.fee,
          shared.leaves,
          { term: 'Estimated reward', value: <>{avax(r.estimatedReward)}{r.autoRenew ? ' for the first cycle' : ''}, if the node stays up {p.params.uptimeRequirement}% of the time</> },
          shared.comesBack,
        ]}
        note={`${r.autoRenew ? 'The stake stays locked until you stop the renewal and the cycle then running ends' : 'The stake is locked until the end'}, and cannot be withdrawn earlier. If the node is not up enough, no reward is paid. ${SIGNED_ON_CONFIRM}`}
        error={action.error}
        detail={action.detail}
        busy={action.busy}
        busyText={STAKE_BUSY}
        confirmLabel="Confirm and validate"
        onEdit={() => edit(() => setStage({ k: 'form' }))}
        onConfirm={() => void confirm(r, stage.request)}
      />
    );
  }

  return (
    <form class="stake-validate" onSubmit={toReview} noValidate>
      <h1>Validate with your node</h1>
      <TextField label="Your node's URL" type="url" value={url} onInput={(t) => edit(() => { setUrl(t); setKey(null); })} placeholder="http://127.0.0.1:9650" hint="The wallet asks this node for its ID and its BLS key; nothing else." error={at('url')} />
      {key ? (
        <p class="id-line" data-testid="validate-node">
          <span>Node</span>
          <span class="mono break">{key.nodeID}</span>
          <CopyButton text={key.nodeID} what="node ID" />
        </p>
      ) : (
        <button type="button" disabled={action.busy || url.trim() === ''} onClick={() => void askKey()}>
          Get the node's ID
        </button>
      )}
      <FormError error={at('nodeID')} />
      <AmountInput value={amount} onInput={(t) => edit(() => setAmount(t))} denomination={AVAX_DECIMALS} symbol="AVAX" {...(p.spendable !== undefined ? { spendable: p.spendable } : {})} maxNote={`At least ${formatValue(p.params.minValidatorStake, AVAX_DECIMALS, 'AVAX')}`} error={at('amount')} />
      <TextField label="Delegation fee (%)" value={fee} onInput={(t) => edit(() => setFee(t))} inputMode="decimal" hint={`What you keep of your delegators' rewards; at least ${sharesText(p.params.minDelegationFee)}.`} error={at('delegationFee') ?? (fee !== '' && !feeCheck.ok ? feeCheck.error : undefined)} />
      {p.params.autoRenew && <Segmented legend="How long" value={mode} options={[{ value: 'fixed', label: 'Until a date' }, { value: 'auto', label: 'Auto-renew' }]} onChange={(m) => edit(() => setMode(m))} />}
      {mode === 'fixed' ? (
        <EndField
          choices={choices}
          choice={choice}
          onChoice={(c) => edit(() => { setChoice(c); if (c === OTHER_END && typedEnd === '') setTypedEnd(toLocalInput(choices[0]?.end ?? p.now)); })}
          typed={typedEnd}
          onTyped={(t) => edit(() => setTypedEnd(t))}
          earliest={earliestEnd(p.now, p.params.minValidationSeconds)}
          latest={p.params.maxEnd}
          error={at('end')}
        />
      ) : (
        <>
          <div class="field">
            <label for="validate-period">Cycle length</label>
            <select id="validate-period" value={period} aria-invalid={at('autoRenew') ? true : undefined} aria-describedby="validate-period-error" onChange={(e) => edit(() => setPeriod(e.currentTarget.value))}>
              {periods.map((c, i) => (
                <option key={c.seconds} value={String(i)}>
                  {c.label}
                </option>
              ))}
            </select>
            <p class="field-error" id="validate-period-error">{at('autoRenew') ?? ''}</p>
          </div>
          <TextField label="Rewards restaked (%)" value={restake} onInput={(t) => edit(() => setRestake(t))} inputMode="decimal" hint="The part of each cycle's rewards added to the stake; the rest is paid out when the cycle ends." error={restake !== '' && !restakeCheck.ok ? restakeCheck.error : undefined} />
        </>
      )}
      <div class="field">
        <label class="check">
          <input type="checkbox" checked={otherOwner} onChange={(e) => edit(() => setOtherOwner(e.currentTarget.checked))} /> Send rewards and fees to another address
        </label>
      </div>
      {otherOwner && <AddressInput label="Reward address (P-Chain)" kind="P" hrp={p.hrp} value={owner} onInput={(t) => edit(() => setOwner(t))} error={at('rewardOwner') ?? at('delegationFeeOwner')} />}
      {general && <FormError error={action.error} detail={action.detail} />}
      <button type="submit" class="primary wide" disabled={action.busy || !request()}>
        {action.busy ? 'Working…' : 'Review'}
      </button>
    </form>
  );
}

// Delegate: amount, end and reward address → the background's estimate as a review (fee, reward
// after the validator's cut, what comes back when) → confirm → followed until the P-Chain commits
// it. The network's rules are checked by the background; a broken one shows at its field.
import { useState } from 'preact/hooks';
import { errorField, errorInfo, useCall } from '../api.js';
import { checkAddress, checkAmount } from '../checks.js';
import { AddressInput } from '../components/AddressInput.js';
import { AmountInput } from '../components/AmountInput.js';
import { EndField, endOf, OTHER_END } from '../components/EndField.js';
import { FormError, Muted } from '../components/Field.js';
import { Review } from '../components/Review.js';
import { TxStatus } from '../components/TxStatus.js';
import type { PlainError } from '../errors.js';
import { AVAX_DECIMALS, formatValue } from '../format.js';
import { durationText, earliestEnd, endChoices, ownerText, sharesText, toLocalInput, unixText } from '../staking.js';
import { avax, SIGNED_ON_CONFIRM, STAKE_BUSY, stakeFacts } from './stake-review.js';
import { shortNode, ValidatorFacts } from './StakeValidators.js';
import type { Selection } from '../../shared/messages.js';
import type { DelegationReview, StakingParamsView, StakingSent, ValidatorView } from '../../shared/messages-staking.js';

export interface StakeDelegateProps {
  params: StakingParamsView;
  /** Chain time now. */
  now: number;
  /** The validator chosen from the list; null: the wallet picks one for the amount and end. */
  validator: ValidatorView | null;
  spendable: bigint | undefined;
  hrp: string;
  selection: Selection | undefined;
  onBack: () => void;
  onSent: () => void;
}

type Stage = { k: 'form' } | { k: 'review'; review: DelegationReview } | { k: 'done'; sent: StakingSent };

/**
 * Why the reward may not be paid at all, as the validator stands now: the chain pays a delegation
 * only if its validator was up the required share of its whole time, so one already below it, or
 * not reachable now, puts the estimate at risk. Null when neither.
 */
function rewardRisk(v: ValidatorView): string | null {
  const low = v.uptime !== null && v.uptime < v.uptimeRequirement;
  if (!low && v.uptime !== null && v.connected) return null;
  const up = v.uptime === null ? 'your node does not report how long it was up' : low ? `so far it was up only ${v.uptime}% of the time` : '';
  const state = [up, v.connected ? '' : 'it is not connected now'].filter(Boolean).join(' and ');
  return `Careful: ${state}; if it ends below ${v.uptimeRequirement}%, no reward is paid.`;
}

export function StakeDelegate(p: StakeDelegateProps) {
  const call = useCall();
  const [amount, setAmount] = useState('');
  const [choice, setChoice] = useState('0');
  const [typedEnd, setTypedEnd] = useState('');
  const [otherOwner, setOtherOwner] = useState(false);
  const [owner, setOwner] = useState('');
  const [picked, setPicked] = useState<{ validator: ValidatorView; reasons: string[] } | null>(null);
  const [stage, setStage] = useState<Stage>({ k: 'form' });
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<(PlainError & { field: string | undefined }) | null>(null);

  const validator = p.validator ?? picked?.validator ?? null;
  const choices = endChoices({ now: p.now, minSeconds: p.params.minDelegationSeconds, maxSeconds: p.params.maxEnd - p.now, latest: validator?.end, renews: (validator?.autoRenew?.nextPeriod ?? 0) > 0 });
  const end = endOf({ choices, choice, typed: typedEnd });
  const amountCheck = checkAmount(amount, { denomination: AVAX_DECIMALS, symbol: 'AVAX', ...(p.spendable !== undefined ? { spendable: p.spendable } : {}) });
  const ownerCheck = checkAddress(owner, 'P', p.hrp);
  const at = (field: string) => (failure?.field === field ? failure.text : undefined);
  const general = failure && !['amount', 'end', 'rewardOwner', 'nodeID'].includes(failure.field ?? '') ? failure : null;
  const latest = Math.min(validator?.end ?? Infinity, p.params.maxEnd);

  const fail = (e: unknown) => setFailure({ ...errorInfo(e), field: errorField(e) });
  const edit = (f: () => void) => {
    f();
    setFailure(null);
  };
  /** The amount or the end changed: a validator picked for the old ones may not fit the new. */
  const editTerms = (f: () => void) =>
    edit(() => {
      f();
      if (!p.validator) setPicked(null);
    });
  const request = () => {
    if (!amountCheck.ok || end === null || (otherOwner && !ownerCheck.ok)) return null;
    return { amount: amountCheck.value.toString(), end, ...(otherOwner && ownerCheck.ok ? { rewardOwner: { addresses: [ownerCheck.value], threshold: 1 } } : {}) };
  };

  const pick = async () => {
    const r = request();
    if (!r) return;
    setBusy(true);
    setFailure(null);
    try {
      setPicked(await call('staking.pick', { amount: r.amount, end: r.end }));
    } catch (e) {
      fail(e);
    } finally {
      setBusy(false);
    }
  };

  const toReview = async (e: Event) => {
    e.preventDefault();
    // Enter in the form does what its primary button says: pick a validator first, then review.
    if (!validator) return pick();
    const r = request();
    if (!r) return;
    setBusy(true);
    setFailure(null);
    try {
      setStage({ k: 'review', review: await call('staking.estimateDelegation', { nodeID: validator.nodeID, ...r }) });
    } catch (err) {
      fail(err);
    } finally {
      setBusy(false);
    }
  };

  const confirm = async (review: DelegationReview) => {
    setBusy(true);
    setFailure(null);
    try {
      const sent = await call('staking.delegate', { nodeID: review.nodeID, amount: review.amount, end: review.end, rewardOwner: { addresses: review.rewardOwner.addresses, threshold: review.rewardOwner.threshold }, maxFee: review.fee }, p.selection);
      setStage({ k: 'done', sent });
      p.onSent();
    } catch (err) {
      fail(err);
    } finally {
      setBusy(false);
    }
  };

  if (stage.k === 'done') {
    return (
      <div class="stake-delegate">
        <TxStatus heading="Delegation sent" chain="P" txID={stage.sent.txID} fee={stage.sent.fee} />
        <div class="actions">
          <button type="button" class="primary" onClick={p.onBack}>
            Back to staking
          </button>
        </div>
      </div>
    );
  }

  if (stage.k === 'review') {
    const r = stage.review;
    const shared = stakeFacts(r);
    const risk = rewardRisk(r.validator);
    return (
      <Review
        level={1}
        title="Review the delegation"
        facts={[
          shared.amount,
          shared.from,
          { term: 'Validator', value: r.nodeID, mono: true, testid: 'review-node' },
          shared.starts,
          { term: 'Ends', value: `${unixText(r.end)} (after about ${durationText(r.end - r.start)})`, testid: 'review-end' },
          { term: 'Rewards to', value: ownerText(r.rewardOwner), testid: 'review-owner' },
          shared.fee,
          shared.leaves,
          {
            term: 'Estimated reward',
            value: (
              <>
                {avax(r.estimatedReward)} after the validator's {sharesText(r.validator.delegationFee)} fee ({formatValue(r.validatorFee, AVAX_DECIMALS, 'AVAX')}), if it stays up {r.validator.uptimeRequirement}% of the time
                {risk && <strong class="field-error" data-testid="review-reward-risk"> {risk}</strong>}
              </>
            ),
            testid: 'review-reward',
          },
          shared.comesBack,
        ]}
        note={`The stake is locked until the end and cannot be withdrawn earlier. ${SIGNED_ON_CONFIRM}`}
        error={failure?.text}
        detail={failure?.detail}
        busy={busy}
        busyText={STAKE_BUSY}
        confirmLabel="Confirm and delegate"
        onEdit={() => edit(() => setStage({ k: 'form' }))}
        onConfirm={() => void confirm(r)}
      />
    );
  }

  const min = formatValue(p.params.minDelegatorStake, AVAX_DECIMALS, 'AVAX');
  return (
    <form class="stake-delegate" onSubmit={(e) => void toReview(e)} noValidate>
      <h1>Delegate</h1>
      {validator ? (
        <section aria-label="Validator" data-testid="delegate-validator">
          <p>
            To <span class="mono">{shortNode(validator.nodeID)}</span>
            {picked && !p.validator && ' (picked for you)'}
          </p>
          <ValidatorFacts v={validator} now={p.now} />
          {picked && !p.validator && (
            <ul class="plain" aria-label="Why this validator" data-testid="pick-reasons">
              {picked.reasons.map((r) => (
                <li key={r}>{r}</li>
              ))}
            </ul>
          )}
        </section>
      ) : (
        <Muted>Enter the amount and the end; the wallet then picks a validator that can take it and says why.</Muted>
      )}
      <FormError error={at('nodeID')} />
      <AmountInput
        value={amount}
        onInput={(t) => editTerms(() => setAmount(t))}
        denomination={AVAX_DECIMALS}
        symbol="AVAX"
        {...(p.spendable !== undefined ? { spendable: p.spendable } : {})}
        maxNote={`At least ${min}${validator ? `; this validator has room for ${formatValue(validator.freeSpace, AVAX_DECIMALS, 'AVAX')}` : ''}`}
        error={at('amount')}
      />
      <EndField
        choices={choices}
        choice={choice}
        onChoice={(c) =>
          editTerms(() => {
            setChoice(c);
            if (c === OTHER_END && typedEnd === '') setTypedEnd(toLocalInput(choices[0]?.end ?? p.now));
            // A new end drops the validator picked for the old one, and the ends bounded by it: the
            // one chosen is kept as the same time among the others, not as the same place in the list.
            const chosen = c === OTHER_END || !picked || p.validator ? undefined : choices[Number(c)]?.end;
            if (chosen === undefined) return;
            const i = endChoices({ now: p.now, minSeconds: p.params.minDelegationSeconds, maxSeconds: p.params.maxEnd - p.now }).findIndex((x) => x.end === chosen);
            if (i >= 0) setChoice(String(i));
            else {
              setChoice(OTHER_END);
              setTypedEnd(toLocalInput(chosen));
            }
          })
        }
        typed={typedEnd}
        onTyped={(t) => editTerms(() => setTypedEnd(t))}
        earliest={earliestEnd(p.now, p.params.minDelegationSeconds)}
        latest={latest}
        error={at('end') ?? (choice === OTHER_END && typedEnd !== '' && end === null ? 'Enter a date and time' : choices.length === 0 ? `No end fits: ${(validator?.autoRenew?.nextPeriod ?? 0) > 0 ? 'its current cycle ends' : 'the validator stops'} too soon for a delegation.` : undefined)}
      />
      <div class="field">
        <label class="check">
          <input type="checkbox" checked={otherOwner} onChange={(e) => edit(() => setOtherOwner(e.currentTarget.checked))} /> Send the rewards to another address
        </label>
        {!otherOwner && <p class="field-hint">Rewards go to your own P-Chain address.</p>}
      </div>
      {otherOwner && <AddressInput label="Reward address (P-Chain)" kind="P" hrp={p.hrp} value={owner} onInput={(t) => edit(() => setOwner(t))} error={at('rewardOwner')} />}
      <FormError error={general?.text} detail={general?.detail} />
      <div class="actions">
        <button type="button" onClick={p.onBack} disabled={busy}>
          Back
        </button>
        {validator ? (
          <button type="submit" class="primary" disabled={busy || !request()}>
            {busy ? 'Estimating…' : 'Review'}
          </button>
        ) : (
          <button type="submit" class="primary" disabled={busy || !request()}>
            {busy ? 'Picking…' : 'Pick for me'}
          </button>
        )}
      </div>
    </form>
  );
}

// My stakes (staking.mine): totals, each stake with its node, amount, end and when it comes back,
// the rewards paid, a CSV export, and the auto-renewal settings of the account's own validators.
import { useEffect, useState } from 'preact/hooks';
import { errorInfo, useAction, useCall, useRequest } from '../api.js';
import { AmountText, NavaxText } from '../components/AmountText.js';
import { CopyButton } from '../components/CopyButton.js';
import { Facts, FormError, Muted, ReloadButton, ScreenReaderText, TextField } from '../components/Field.js';
import { Review } from '../components/Review.js';
import { Term } from '../components/Term.js';
import { TxStatus } from '../components/TxStatus.js';
import { AVAX_DECIMALS } from '../format.js';
import { csvFileName, durationText, ownerText, parsePercent, periodChoices, sharesText, unixText } from '../staking.js';
import { trimmedText } from './Activity.js';
import { STAKE_BUSY } from './stake-review.js';
import { shortNode } from './StakeValidators.js';
import type { Selection } from '../../shared/messages.js';
import type { AutoRenewReview, MyStakeView, StakingParamsView, StakingSent } from '../../shared/messages-staking.js';

const KIND: Record<MyStakeView['kind'], string> = { delegation: 'Delegation', validation: 'Validation', 'auto-renewed': 'Auto-renewed validation' };
const STATE: Record<MyStakeView['state'], string> = { pending: 'Pending', active: 'Active', finished: 'Finished', failed: 'Failed' };
const REWARD: Record<NonNullable<MyStakeView['reward']>, string> = { paid: 'paid (below)', 'not-paid': 'not paid: the validator was not up enough', waiting: 'not settled by the chain yet',
  unknown: 'not known: it ended before this wallet saw it on the chain; whatever was paid is in your P-Chain balance',
};

function Avax({ value, testid }: { value: string | bigint; testid?: string }) {
  return <AmountText value={value} denomination={AVAX_DECIMALS} symbol="AVAX" {...(testid ? { testid } : {})} />;
}

/** A CSV export: asked from the background, offered as a file link (a Blob URL, no downloads permission). */
function CsvExport() {
  const call = useCall();
  const [file, setFile] = useState<{ url: string; name: string; rows: number; trimmed: string | null } | null>(null);
  const [error, setError] = useState<string | undefined>(undefined);
  useEffect(() => () => (file ? URL.revokeObjectURL(file.url) : undefined), [file]);
  const make = async (scope: 'rewards' | 'all') => {
    setError(undefined);
    try {
      const r = await call('staking.rewardsCsv', { scope });
      const url = URL.createObjectURL(new Blob([r.csv], { type: 'text/csv' }));
      setFile({ url, name: csvFileName(scope, Date.now()), rows: r.rows, trimmed: trimmedText(r.trimmed) });
    } catch (e) {
      setError(errorInfo(e).text);
    }
  };
  return (
    <section aria-labelledby="csv-head">
      <h2 id="csv-head">Export</h2>
      <div class="actions">
        <button type="button" onClick={() => void make('rewards')}>
          Export rewards (CSV)
        </button>
        <button type="button" onClick={() => void make('all')}>
          Export all activity (CSV)
        </button>
      </div>
      {file && (
        <p role="status">
          {file.rows} row{file.rows === 1 ? '' : 's'}:{' '}
          <a href={file.url} download={file.name} data-testid="csv-link">
            Save {file.name}
          </a>
          {file.trimmed && ` ${file.trimmed}`}
        </p>
      )}
      <FormError error={error} />
    </section>
  );
}

/** A change of an auto-renewed validator's next cycles: period (or stop) and restaked share → review → confirm. */
function AutoRenewChange({ stake, params, selection, onDone }: { stake: MyStakeView; params: StakingParamsView; selection: Selection | undefined; onDone: () => void }) {
  const call = useCall();
  // The current cycle length is offered (and chosen) as it is, even when it is none of the usual ones.
  const current = stake.autoRenew?.nextPeriod ?? 0;
  const usual = periodChoices(params.minValidationSeconds, params.maxStakeSeconds);
  const periods = current > 0 && !usual.some((c) => c.seconds === current) ? [{ label: `${durationText(current)} (as now)`, seconds: current }, ...usual] : usual;
  // One that stops already keeps stopping unless another choice is made.
  const [period, setPeriod] = useState(() => (current > 0 ? String(Math.max(0, periods.findIndex((c) => c.seconds === current))) : 'stop'));
  const [restake, setRestake] = useState(() => sharesText(stake.autoRenew?.restakeShares ?? 0).replace('%', ''));
  const [review, setReview] = useState<AutoRenewReview | null>(null);
  const [sent, setSent] = useState<StakingSent | null>(null);
  const action = useAction();
  const seconds = period === 'stop' ? 0 : (periods[Number(period)]?.seconds ?? 0);
  // Stopping pays every reward out, so the share (hidden then) is not asked for: the current one is kept.
  // Unseen words telling this change from another validator's open beside it (names stay unique).
  const about = `for ${shortNode(stake.nodeID)}`;
  const restakeCheck = period === 'stop' ? ({ ok: true, value: stake.autoRenew?.restakeShares ?? 0 } as const) : parsePercent(restake);
  if (sent) return <TxStatus chain="P" txID={sent.txID} fee={sent.fee} />;
  if (review) {
    const stops = review.next.period === 0;
    const cycle = (c: { period: number; restakeShares: number }) => (c.period === 0 ? 'stops at the end of the current cycle' : `cycles of ${durationText(c.period)}, ${sharesText(c.restakeShares)} of rewards restaked`);
    return (
      <Review
        level={3}
        title="Review the change"
        facts={[
          { term: 'Node', value: review.nodeID, mono: true },
          { term: 'Now', value: cycle(review.current) },
          // The node applies a new share to the cycle already running (split at its end); only the length waits.
          { term: 'Restaked when this cycle ends', value: stops ? 'nothing: it stops then, and all its rewards are paid out' : `${sharesText(review.next.restakeShares)} of this cycle’s rewards, and of each later cycle’s` },
          { term: 'From the next cycle', value: stops ? 'none: it stops at the end of this cycle' : `cycles of ${durationText(review.next.period)}` },
          { term: 'This cycle ends', value: unixText(review.takesEffect) },
          { term: 'May change or stop it', value: ownerText(review.authority) },
          // From the account's P funds, wherever they sit (its change addresses too), as for a delegation.
          { term: 'Fee paid from', value: `Your P-Chain account (${review.from})`, mono: true },
          { term: 'Network fee', value: <NavaxText value={review.fee} /> },
        ]}
        error={action.error}
        detail={action.detail}
        busy={action.busy}
        busyText={STAKE_BUSY}
        confirmLabel="Confirm the change"
        about={about}
        onEdit={() => setReview(null)}
        onConfirm={() =>
          void action.run(async () => {
            setSent(await call('staking.setAutoRenew', { txID: review.txID, period: review.next.period, restakeShares: review.next.restakeShares, takesEffect: review.takesEffect, maxFee: review.fee }, selection));
            onDone();
          })
        }
      />
    );
  }
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (restakeCheck.ok) void action.run(async () => setReview(await call('staking.estimateAutoRenew', { txID: stake.txID, period: seconds, restakeShares: restakeCheck.value })));
      }}
    >
      <div class="field">
        <label for={`renew-${stake.txID}`}>
          Next cycles<ScreenReaderText> ({about})</ScreenReaderText>
        </label>
        <select id={`renew-${stake.txID}`} value={period} onChange={(e) => setPeriod(e.currentTarget.value)}>
          {periods.map((c, i) => (
            <option key={c.seconds} value={String(i)}>
              {c.label}
            </option>
          ))}
          <option value="stop">Stop at the end of this cycle</option>
        </select>
      </div>
      {period !== 'stop' && <TextField label={<>Rewards restaked (%)<ScreenReaderText> ({about})</ScreenReaderText></>} value={restake} onInput={setRestake} inputMode="decimal" error={restake !== '' && !restakeCheck.ok ? restakeCheck.error : undefined} />}
      <FormError error={action.error} detail={action.detail} />
      <button type="submit" disabled={action.busy || !restakeCheck.ok}>
        Review the change<ScreenReaderText> ({about})</ScreenReaderText>
      </button>
    </form>
  );
}

function StakeItem({ s, params, selection, onChanged }: { s: MyStakeView; params: StakingParamsView; selection: Selection | undefined; onChanged: () => void }) {
  const [changing, setChanging] = useState(false);
  // Stopped, it may still be resumed until the current cycle ends (the node takes a new period until then).
  const canChange = s.kind === 'auto-renewed' && s.state === 'active' && s.autoRenew !== undefined;
  return (
    <li class="tx-row" data-testid="my-stake">
      <div class="tx-top">
        <strong>{KIND[s.kind]}</strong>
        <span class={`badge status-${s.state === 'active' || s.state === 'finished' ? 'accepted' : s.state}`}>{STATE[s.state]}</span>
      </div>
      <div class="tx-mid">
        <span class="id-line">
          <span class="mono" title={s.nodeID}>
            {shortNode(s.nodeID)}
          </span>
          <CopyButton text={s.nodeID} what={`node ID of the ${KIND[s.kind].toLowerCase()} ${shortNode(s.txID)}`} />
        </span>
        <Avax value={s.amount} testid="my-stake-amount" />
      </div>
      <Facts>
        {s.end !== null && <Term term={s.kind === 'auto-renewed' ? 'Cycle ends' : 'Ends'}>{unixText(s.end)}</Term>}
        {s.state !== 'failed' && s.state !== 'finished' && (
          // One seen among the validators may have its stake owned by another key.
          <Term term={s.byWallet ? 'Comes back' : 'Stake unlocks'}>{s.unlocksAt === null ? 'once the validation is stopped' : unixText(s.unlocksAt)}</Term>
        )}
        {s.potentialReward !== undefined && (
          <Term term="Expected reward">
            <Avax value={s.potentialReward} />
          </Term>
        )}
        {s.reward && (
          // The list below has only what was paid to this account.
          <Term term="Reward">{s.reward === 'paid' && !s.rewardOwner.yours ? 'paid, to an address that is not yours' : REWARD[s.reward]}</Term>
        )}
        {s.autoRenew && <Term term="Auto-renewal">{s.autoRenew.nextPeriod > 0 ? `${sharesText(s.autoRenew.restakeShares)} of this cycle’s rewards restaked when it ends; next cycles ${durationText(s.autoRenew.nextPeriod)}` : 'stops at the end of this cycle'}</Term>}
        <Term term="Rewards to">{s.rewardOwner.yours ? 'you' : 'an address that is not yours'}</Term>
      </Facts>
      {canChange &&
        (s.autoRenew!.yours === false ? (
          <Muted>Only its auto-renewal authority can change it.</Muted>
        ) : changing ? (
          <AutoRenewChange stake={s} params={params} selection={selection} onDone={onChanged} />
        ) : (
          <button type="button" onClick={() => setChanging(true)}>
            Change auto-renewal of {shortNode(s.nodeID)}
          </button>
        ))}
    </li>
  );
}

export function StakeMine({ params, selection, listKey }: { params: StakingParamsView; selection: Selection | undefined; listKey: string }) {
  const mine = useRequest('staking.mine', {}, listKey);
  const m = mine.data;
  return (
    <div class="stake-mine">
      <div class="title-row">
        <h1>My stakes</h1>
        <ReloadButton list={mine} />
      </div>
      <FormError error={mine.error} />
      {m && (
        <dl class="facts" data-testid="stake-totals">
          <Term term="Staked now">
            <Avax value={m.totals.staked} testid="total-staked" />
          </Term>
          <Term term="Expected rewards">
            <Avax value={m.totals.potentialReward} />
          </Term>
          <Term term="Rewards paid">
            <Avax value={m.totals.rewardsPaid} />
          </Term>
        </dl>
      )}
      <h2>Stakes</h2>
      {m && m.stakes.length === 0 && <Muted>No stakes yet.</Muted>}
      <ul class="tx-list">
        {m?.stakes.map((s) => (
          <StakeItem key={s.txID} s={s} params={params} selection={selection} onChanged={() => void mine.reload()} />
        ))}
      </ul>
      {/* The node lists a validator's delegators only one validator at a time: those of other wallets cannot be found (docs/staking.md §Finding rewards). */}
      <p class="muted small-text" data-testid="stakes-not-found">
        Delegations made with another wallet (your phrase on another computer, say) are not listed, nor counted as staked. Their stake comes back to your P-Chain balance when they end.
      </p>
      <h2>Rewards paid</h2>
      {m && m.rewards.length === 0 && <Muted>No rewards paid yet.</Muted>}
      <ul class="tx-list">
        {m?.rewards.map((r) => (
          <li key={`${r.txID}-${r.kind}`} class="tx-row" data-testid="reward">
            <div class="tx-top">
              <strong>{r.kind === 'delegation-fees' ? 'Delegation fees' : r.kind === 'delegation' ? 'Delegation reward' : 'Validation reward'}</strong>
              <Avax value={r.amount} />
            </div>
            <div class="muted">
              {unixText(r.paidAt)} · {shortNode(r.nodeID)}
            </div>
          </li>
        ))}
      </ul>
      <CsvExport />
    </div>
  );
}

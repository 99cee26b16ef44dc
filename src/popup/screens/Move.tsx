// Move AVAX between the X-, P- and C-Chains: export then import. Before it starts, the background
// estimates both fees and the most that can move (transfers.estimate). It journals every move and
// finishes it after a popup or browser restart; this screen shows where each one is.
import { useEffect, useRef, useState } from 'preact/hooks';
import { errorInfo, errorText, useCall } from '../api.js';
import { BackgroundError } from '../../shared/client.js';
import type { PlainError } from '../errors.js';
import { checkAmount } from '../checks.js';
import { AmountInput } from '../components/AmountInput.js';
import { Facts, FormError, Muted } from '../components/Field.js';
import { Review } from '../components/Review.js';
import { Segmented } from '../components/Segmented.js';
import { Term } from '../components/Term.js';
import { assetsLeftWithoutFee, MAX_ONE_TX, maxOf, noFeeLeftText, useEstimate } from '../fees.js';
import { WEI_PER_NAVAX } from '../../core/amount.js';
import { AVAX_DECIMALS, chainLabel, formatValue, units } from '../format.js';
import type { BalancesView, ChainName, Selection, TransferView } from '../../shared/messages.js';
import { WaitingFunds } from '../components/WaitingFunds.js';
import { doneBeforeFacts, doneBeforeText, SENT_BEFORE_WINDOW_MS } from '../components/SentBefore.js';
import { isActive, TransferProgress } from './MoveProgress.js';

const CHAINS: ChainName[] = ['X', 'P', 'C'];
const POLL_MS = 2000;

/** AVAX that can leave `chain`, in nAVAX (C-Chain wei rounded down to whole nAVAX). */
export function movableNavax(view: BalancesView | null, chain: ChainName): bigint | undefined {
  const row = view && view.updatedAt > 0 ? view.balances.find((b) => b.chain === chain && b.verified) : undefined;
  if (!row) return view && view.updatedAt > 0 ? 0n : undefined;
  return chain === 'C' ? units(row.spendable) / WEI_PER_NAVAX : units(row.spendable);
}

/** Stops after which a move waits for "Import now" (or a cheaper minute). */
const PARKED = new Set(['fee-above-approved', 'import-stuck']);

/** `selection`: the account and network the move is reviewed on (the background refuses it if either changes). */
export function Move({
  balances,
  hidden,
  onChanged,
  selection,
  nodeDown = false,
  pollMs = POLL_MS,
  estimateDelayMs,
}: {
  balances: BalancesView | null;
  /** Assets the user hid on Home: not counted as left without their fee. */
  hidden?: ReadonlySet<string>;
  onChanged: () => void;
  selection?: Selection | undefined;
  nodeDown?: boolean;
  pollMs?: number;
  estimateDelayMs?: number;
}) {
  const call = useCall();
  const [transfers, setTransfers] = useState<TransferView[] | null>(null);
  // A Confirm failed: until the list is read again, it may lack the move it journaled all the same.
  // Only a read asked after the failure ends it (reads are numbered), not one already on its way.
  const [recheck, setRecheck] = useState(false);
  const reads = useRef({ asked: 0, failedAfter: 0 });
  const [listError, setListError] = useState<string | undefined>(undefined);
  const [from, setFrom] = useState<ChainName>('X');
  const [to, setTo] = useState<ChainName>('P');
  const [amount, setAmount] = useState('');
  const [busy, setBusy] = useState(false);
  /** A failure of the review step (Confirm). */
  const [error, setError] = useState<PlainError | undefined>(undefined);
  /** Why "Move" did not open the review, for what was typed then (`key`): gone once the form changes. */
  const [formError, setFormError] = useState<{ key: string; e: PlainError } | null>(null);
  /** The typed move the fee check at "Move" found short of funds (a fee rose since the form's estimate): the fees and Max are asked again. */
  const [short, setShort] = useState<{ key: string; n: number } | null>(null);
  const amountRef = useRef<HTMLDivElement>(null);
  /** The move under review: what was typed and the fees it was estimated with. */
  const [review, setReview] = useState<{ from: ChainName; to: ChainName; amount: bigint; exportFee: bigint; importFee: bigint } | null>(null);
  const [tick, setTick] = useState(0);
  const hadActive = useRef(false);
  const parked = useRef(new Set<string>());
  const changed = useRef(onChanged);
  changed.current = onChanged;

  // The list, polled while a move is under way.
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = async () => {
      const read = ++reads.current.asked;
      try {
        const r = await call('transfers.list', {});
        if (stopped) return;
        setTransfers(r.transfers);
        if (read > reads.current.failedAfter) setRecheck(false);
        setListError(undefined);
        const active = r.transfers.some(isActive);
        // A move just finished: balances changed on both chains.
        if (hadActive.current && !active) changed.current();
        hadActive.current = active;
        // A move that now waits for "Import now": the balances are read again, so its funds show with the button.
        const nowParked = new Set(r.transfers.filter((t) => isActive(t) && t.paused && PARKED.has(t.paused.code)).map((t) => t.id));
        if ([...nowParked].some((id) => !parked.current.has(id))) changed.current();
        parked.current = nowParked;
        if (active) timer = setTimeout(() => void load(), pollMs);
      } catch (e) {
        if (stopped) return;
        setListError(errorText(e));
        // Read again: one failed read (a restarting background) must not freeze a move's progress.
        timer = setTimeout(() => void load(), pollMs);
      }
    };
    void load();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [call, tick, pollMs]);

  const spendable = movableNavax(balances, from);
  const rules = { denomination: AVAX_DECIMALS, symbol: 'AVAX', ...(spendable !== undefined ? { spendable } : {}) };
  // The estimate is asked without the fee check, so what is asked never depends on its answer.
  // Until an amount is typed: half of what can move, so that both fees show and Max is known.
  const typedKey = `${from}:${to}:${amount}`;
  const plain = checkAmount(amount, rules);
  const half = spendable !== undefined && spendable > 1n ? spendable / 2n : null;
  // An amount found short at "Move" is not asked again (it would only be refused again): half of
  // what can move is, so the fees of now and the Max that pays them show.
  const shortNow = short !== null && short.key === typedKey;
  const asked = plain.ok && !shortNow ? plain.value : half;
  const estimate = useEstimate('transfers.estimate', asked === null ? null : { from, to, amount: asked.toString() }, `${from}:${to}:${balances?.updatedAt ?? 0}:${short?.n ?? 0}`, estimateDelayMs);
  const shown = estimate.exact ?? estimate.latest;
  const exportFee = shown ? units(shown.exportFee) : undefined;
  const check = checkAmount(amount, { ...rules, ...(exportFee !== undefined ? { fee: exportFee } : {}) });
  const refused = plain.ok && !shortNow ? estimate.error : undefined;
  const maxValue = maxOf(estimate.latest);
  const about = estimate.exact && plain.ok && !shortNow ? '' : 'about ';
  // Once the fees of now say at the field why the amount is short, the same is not said twice.
  const formShown = formError?.key === typedKey && !(shortNow && !check.ok) ? formError.e : undefined;
  const fees = !shown ? null : { exportFee: units(shown.exportFee), importFee: units(shown.importFee) };

  const pickFrom = (c: ChainName) => {
    setFrom(c);
    if (to === c) setTo(CHAINS.find((x) => x !== c)!);
    setAmount('');
  };

  // Nothing would arrive: the import fee takes it all. Refused before the review, with the reason.
  const deliversNothing = fees !== null && check.ok && check.value <= fees.importFee;

  const typed = useRef('');
  typed.current = typedKey;
  /** The fees of exactly this amount, asked now: the review shows nothing older (a C-Chain fee follows its base fee). */
  const toReview = async (e: Event) => {
    e.preventDefault();
    if (!check.ok || deliversNothing || busy) return;
    const asked = { from, to, amount: check.value };
    const key = typed.current;
    setBusy(true);
    setError(undefined);
    setFormError(null);
    try {
      const r = await call('transfers.estimate', { from, to, amount: asked.amount.toString() });
      const fresh = { exportFee: units(r.exportFee), importFee: units(r.importFee) };
      if (typed.current !== key) return;
      if (asked.amount <= fresh.importFee) setFormError({ key, e: { text: `Nothing would arrive: the import fee on the ${chainLabel(to)} is more than the amount. Move more.` } });
      else setReview({ ...asked, ...fresh });
    } catch (err) {
      if (typed.current !== key) return;
      setFormError({ key, e: errorInfo(err) });
      if (err instanceof BackgroundError && err.code === 'insufficient-funds') setShort((s) => ({ key, n: (s?.n ?? 0) + 1 }));
      // The amount is what has to change: the keyboard goes there (the button may now be off).
      amountRef.current?.querySelector('input')?.focus();
    } finally {
      setBusy(false);
    }
  };

  const start = async () => {
    if (!review) return;
    setBusy(true);
    setError(undefined);
    try {
      // The fees reviewed are the most the move may pay: the background signs nothing costlier.
      await call('transfers.start', {
        from: review.from,
        to: review.to,
        amount: review.amount.toString(),
        maxFee: (review.exportFee + review.importFee).toString(),
        maxExportFee: review.exportFee.toString(),
      }, selection);
      setAmount('');
      setReview(null);
      setTick((t) => t + 1);
    } catch (err) {
      setError(errorInfo(err));
      // The move may have been journaled all the same (an answer lost): the list, and so the review's
      // "Moved before", is read again, and Confirm held until it has been (a restarting background).
      reads.current.failedAfter = reads.current.asked;
      setRecheck(true);
      setTick((t) => t + 1);
      // The export's fee rose since the review (nothing was journaled): the review shows the fees of now.
      if (err instanceof BackgroundError && err.code === 'fee-above-approved') {
        const now = await call('transfers.estimate', { from: review.from, to: review.to, amount: review.amount.toString() }).catch(() => undefined);
        if (now && review.amount > units(now.importFee)) setReview({ ...review, exportFee: units(now.exportFee), importFee: units(now.importFee) });
      }
    } finally {
      setBusy(false);
    }
  };

  if (review) {
    // The same move just made (its answer lost, the popup closed meanwhile): a second Confirm would move it twice.
    const before = transfers?.find((t) => t.from === review.from && t.to === review.to && BigInt(t.amount) === review.amount && t.state !== 'failed' && (isActive(t) || Date.now() - t.createdAt < SENT_BEFORE_WINDOW_MS));
    const xAvax = review.from === 'X' ? balances?.balances.find((b) => b.chain === 'X' && b.verified) : undefined;
    const strands = xAvax && balances ? assetsLeftWithoutFee(balances.balances, xAvax, review.amount, review.exportFee, hidden) : 0;
    return (
      <div class="move">
        <Review
          level={1}
          title="Review the move"
          facts={[
            { term: 'From', value: `Your ${chainLabel(review.from)} account` },
            { term: 'To', value: `Your ${chainLabel(review.to)} account` },
            { term: 'Leaves the ' + chainLabel(review.from), value: `${formatValue(review.amount + review.exportFee, AVAX_DECIMALS, 'AVAX')}`, testid: 'move-review-leaves' },
            { term: `Export fee (${chainLabel(review.from)})`, value: `${formatValue(review.exportFee, AVAX_DECIMALS, 'AVAX')}` },
            { term: `Import fee (${chainLabel(review.to)})`, value: `${formatValue(review.importFee, AVAX_DECIMALS, 'AVAX')}, taken from the amount` },
            { term: `Arrives on the ${chainLabel(review.to)}`, value: `${formatValue(review.amount - review.importFee, AVAX_DECIMALS, 'AVAX')}`, testid: 'move-review-arrives' },
            ...(strands > 0 ? [{ term: 'Other assets', value: noFeeLeftText(strands), testid: 'move-review-strands' }] : []),
            ...doneBeforeFacts('Moved before', 'moves', !transfers || recheck, before && doneBeforeText('move', before.createdAt, isActive(before), Date.now())),
          ]}
          note="An export, then an import. Once it starts it continues in the background whenever the wallet is unlocked, even after you close this popup or the browser; the fees shown are the most it may pay."
          error={error?.text}
          detail={error?.detail}
          busy={busy}
          busyText="Starting the move…"
          confirmLabel="Confirm and move"
          onEdit={() => {
            setReview(null);
            setError(undefined);
          }}
          onConfirm={() => void start()}
        />
      </div>
    );
  }

  return (
    <div class="move">
      <h1>Move between chains</h1>
      {balances && <WaitingFunds view={balances} selection={selection} onRefresh={onChanged} />}
      <form onSubmit={(e) => void toReview(e)} noValidate>
        <Segmented legend="From" value={from} options={CHAINS.map((c) => ({ value: c, label: `From ${c}` }))} onChange={pickFrom} />
        <Segmented legend="To" value={to} options={CHAINS.map((c) => ({ value: c, label: `To ${c}`, disabled: c === from }))} onChange={setTo} />
        <div ref={amountRef}>
          <AmountInput
            value={amount}
            onInput={setAmount}
            denomination={AVAX_DECIMALS}
            symbol="AVAX"
            {...(spendable !== undefined ? { spendable } : {})}
            {...(exportFee !== undefined ? { fee: exportFee } : {})}
            maxValue={maxValue}
            maxNote={maxValue !== null ? (estimate.latest?.maxOneTx ? MAX_ONE_TX : 'Max leaves room for the export fee') : estimate.pending ? 'Estimating the fees…' : 'Max needs a fee estimate, and none is available now'}
            error={refused?.message}
          />
        </div>
        <Facts data-testid="move-fees">
          <Term term={<>Export fee ({chainLabel(from)})</>}>{fees ? `${about}${formatValue(fees.exportFee, AVAX_DECIMALS, 'AVAX')}` : estimate.pending ? 'estimating…' : 'not known yet'}</Term>
          <Term term={<>Import fee ({chainLabel(to)})</>}>{fees ? `${about}${formatValue(fees.importFee, AVAX_DECIMALS, 'AVAX')}, taken from the amount` : estimate.pending ? 'estimating…' : 'not known yet'}</Term>
          {fees && check.ok && (
            <Term term={<>Arrives on the {chainLabel(to)}</>} data-testid="move-arrives">
              {check.value > fees.importFee ? `${about}${formatValue(check.value - fees.importFee, AVAX_DECIMALS, 'AVAX')}` : 'nothing: the amount does not cover the import fee'}
            </Term>
          )}
        </Facts>
        <FormError error={formShown?.text ?? (!plain.ok && estimate.error && !shown ? estimate.error.message : undefined)} detail={formShown?.detail} />
        {deliversNothing && (
          <p class="form-error" data-testid="move-nothing-arrives">
            Nothing would arrive: the import fee on the {chainLabel(to)} is more than the amount. Move more.
          </p>
        )}
        {/* An amount just found short stays off until it changes: the fees re-asked are for another amount (a P-Chain fee grows with the inputs). */}
        <button class="primary wide" type="submit" disabled={!check.ok || refused !== undefined || deliversNothing || busy || shortNow}>
          {`Move to the ${chainLabel(to)}`}
        </button>
        {busy && <Muted role="status">Getting the fees of this amount…</Muted>}
        <Muted>A move continues in the background whenever the wallet is unlocked, even after you close this popup or the browser.</Muted>
      </form>
      <h2>Moves</h2>
      {listError && <p class="form-error">{listError}</p>}
      {transfers && transfers.length === 0 && <Muted>No moves yet.</Muted>}
      <ul class="transfers">
        {transfers?.map((t) => (
          <TransferProgress key={t.id} t={t} nodeDown={nodeDown} />
        ))}
      </ul>
    </div>
  );
}

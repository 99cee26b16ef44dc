// Funds waiting in atomic memory (exported, not yet imported) and "Import now": a review of each
// import it would make (what it takes out, its fee, what arrives), then Confirm. A move that waited
// for a higher import fee than was approved is finished by it, at the fee shown here.
import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import { useAction, useCall } from '../api.js';
import { AVAX_DECIMALS, chainLabel, formatValue } from '../format.js';
import type { BalancesView, Selection, WalletRequests } from '../../shared/messages.js';
import { NavaxText } from './AmountText.js';
import { FormError } from './Field.js';
import { Review } from './Review.js';

type Plan = WalletRequests['transfers.estimateImportWaiting']['result'];


function planFacts(plan: Plan) {
  const facts = plan.imports.map((i, n) => ({
    term: `${n + 1}. ${chainLabel(i.from)} → ${chainLabel(i.to)}${i.moveID ? ' (a move’s import)' : ''}`,
    testid: `import-${n + 1}`,
    value: (
      <Fragment>
        <NavaxText value={i.amount} /> out of atomic memory; fee <NavaxText value={i.fee} />; arrives <NavaxText value={BigInt(i.amount) - BigInt(i.fee)} /> in your {chainLabel(i.to)} account
        {i.otherAssets ? ', with the other assets waiting there' : ''}
      </Fragment>
    ),
  }));
  return [...facts, { term: 'Fees in all', value: <NavaxText value={plan.fee} testid="import-fees" /> }];
}

/** `selection`: the account and network shown, which the import is bound to (see RequestMessage.selection). */
export function WaitingFunds({ view, selection, onRefresh }: { view: BalancesView; selection: Selection | undefined; onRefresh: () => void }) {
  const call = useCall();
  const action = useAction();
  const [plan, setPlan] = useState<Plan | null>(null);
  const [done, setDone] = useState<WalletRequests['transfers.importWaiting']['result'] | null>(null);
  if (view.waiting.length === 0 && plan === null && done === null) return null;
  const review = async () => {
    setDone(null);
    const r = await action.run(() => call('transfers.estimateImportWaiting', {}));
    if (r) setPlan(r);
  };
  const importAll = async () => {
    const r = await action.run(() => call('transfers.importWaiting', { planID: plan!.planID, maxFee: plan!.fee }, selection));
    if (r) {
      setPlan(null);
      setDone(r);
      onRefresh();
    }
  };
  const tooSmall = plan?.tooSmall.map((f) => `${formatValue(f.amount, AVAX_DECIMALS, 'AVAX')} from the ${chainLabel(f.from)} to the ${chainLabel(f.to)} cannot pay its own import fee: it stays waiting.`) ?? [];
  if (plan && plan.imports.length > 0) {
    return (
      <Review
        level={2}
        title="Review the import"
        facts={planFacts(plan)}
        note={[...tooSmall, 'Each import takes its fee from what it brings in. Nothing is signed before you confirm.'].join(' ')}
        error={action.error}
        detail={action.detail}
        busy={action.busy}
        busyText="Importing…"
        confirmLabel="Confirm and import"
        onEdit={() => {
          setPlan(null);
          action.clear();
        }}
        onConfirm={() => void importAll()}
      />
    );
  }
  return (
    <section class="waiting" aria-label="Funds waiting to be imported">
      {view.waiting.map((w) => (
        <p key={`${w.from}-${w.to}`}>
          {formatValue(w.amount, AVAX_DECIMALS, 'AVAX')} waiting in atomic memory: exported from the {chainLabel(w.from)}, not yet imported to the {chainLabel(w.to)}.
        </p>
      ))}
      {plan && (
        <p role="status">
          {tooSmall.length > 0 ? tooSmall.join(' ') : 'Nothing to import now: what waits belongs to a move under way, which imports it itself.'}
        </p>
      )}
      {view.waiting.length > 0 && (
        <button type="button" class="primary" disabled={action.busy} onClick={() => void review()}>
          {action.busy ? 'Looking…' : 'Import now'}
        </button>
      )}
      {done !== null && (
        <p role="status">
          {done.txIDs.length > 0 ? `Imported in ${done.txIDs.length} transaction${done.txIDs.length === 1 ? '' : 's'}.` : 'Nothing imported yet.'}
          {done.unconfirmed ? ` ${done.unconfirmed} sent and not confirmed yet: Activity shows when the chain decides.` : ''}
          {done.failed > 0 ? ` ${done.failed} could not be made now: look at what still waits.` : ''}
        </p>
      )}
      <FormError error={action.error} detail={action.detail} />
    </section>
  );
}

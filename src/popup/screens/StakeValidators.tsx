// The Primary Network's validators to delegate to: filtered, sorted and paged by the background
// (staking.validators), each with what matters for a delegation and its own "Delegate to …".
import { useState } from 'preact/hooks';
import { useRequest } from '../api.js';
import { AmountText } from '../components/AmountText.js';
import { CopyButton } from '../components/CopyButton.js';
import { Facts, FormError, Muted, ReloadButton, ScreenReaderText, TextField } from '../components/Field.js';
import { Term } from '../components/Term.js';
import { AVAX_DECIMALS, shortenId } from '../format.js';
import { durationText, type FilterText, filterOf, NO_FILTER, remainingText, sharesText, unixText } from '../staking.js';
import type { ValidatorSort, ValidatorView } from '../../shared/messages-staking.js';

export const PAGE_SIZE = 10;

/** "NodeID-P7oB…DxE5": enough to tell validators apart on screen; the full ID is one click away. */
export function shortNode(nodeID: string): string {
  return shortenId(nodeID, 11, 4);
}

const SORTS: { value: ValidatorSort; label: string }[] = [
  { value: 'score', label: 'Best overall (uptime, fee, room, time left)' },
  { value: 'fee', label: 'Lowest fee' },
  { value: 'uptime', label: 'Highest uptime' },
  { value: 'free-space', label: 'Most room' },
  { value: 'end', label: 'Validates longest' },
];

/** Rounded, the exact value one click (or key) away; `label` tells the validators' toggles apart. */
function Avax({ value, label }: { value: string; label: string }) {
  return <AmountText value={value} denomination={AVAX_DECIMALS} symbol="AVAX" label={label} />;
}

/** One validator's facts: what a delegator weighs. */
export function ValidatorFacts({ v, now }: { v: ValidatorView; now: number }) {
  return (
    <Facts>
      <Term term="Stake">
        <Avax value={v.stake} label={`Stake of ${shortNode(v.nodeID)}`} />
      </Term>
      <Term term="Room for" data-testid="validator-room">
        <Avax value={v.freeSpace} label={`Room at ${shortNode(v.nodeID)}`} />
      </Term>
      <Term term="Fee">{sharesText(v.delegationFee)} of rewards</Term>
      <Term term="Uptime">
        {v.uptime === null ? 'not reported by your node' : `${v.uptime}%`} (rewards need {v.uptimeRequirement}%) · {v.connected ? 'connected' : 'not connected now'}
      </Term>
      <Term term="Validates until">
        {unixText(v.end)} ({remainingText(v.end, now)})
        {v.autoRenew && (v.autoRenew.nextPeriod > 0 ? `, then renews for ${durationText(v.autoRenew.nextPeriod)}` : ', then stops')}
      </Term>
      <Term term="Delegators">{v.delegatorCount}</Term>
    </Facts>
  );
}

export function StakeValidators({ now, onDelegate }: { now: number; onDelegate: (v: ValidatorView | null) => void }) {
  const [typed, setTyped] = useState<FilterText>(NO_FILTER);
  const [applied, setApplied] = useState<FilterText>(NO_FILTER);
  const [sort, setSort] = useState<ValidatorSort>('score');
  const [offset, setOffset] = useState(0);
  const { filter } = filterOf(applied);
  const typedErrors = filterOf(typed).errors;
  const list = useRequest('staking.validators', { filter, sort, offset, limit: PAGE_SIZE }, JSON.stringify([filter, sort, offset]));
  const page = list.data;
  const set = (k: keyof FilterText) => (text: string) => setTyped({ ...typed, [k]: text });
  const apply = (e: Event) => {
    e.preventDefault();
    if (Object.keys(typedErrors).length > 0) return;
    setApplied(typed);
    setOffset(0);
  };
  return (
    <div class="stake-validators">
      <h1>Validators</h1>
      <Muted>Delegate AVAX to a validator to earn part of its rewards; the stake comes back when the delegation ends.</Muted>
      <button type="button" class="primary wide" onClick={() => onDelegate(null)}>
        Pick a validator for me
      </button>
      <form role="search" aria-label="Validators" onSubmit={apply} noValidate>
        <TextField label="NodeID contains" value={typed.node} onInput={set('node')} mono hint="Part of the NodeID, capitals as written" error={typedErrors.node} />
        <button type="submit">Find</button>
      </form>
      <details class="section">
        <summary>Filter and sort</summary>
        <form onSubmit={apply} noValidate>
          <TextField label="Uptime at least (%)" value={typed.minUptime} onInput={set('minUptime')} inputMode="decimal" error={typedErrors.minUptime} />
          <TextField label="Fee at most (%)" value={typed.maxFee} onInput={set('maxFee')} inputMode="decimal" error={typedErrors.maxFee} />
          <TextField label="Room for at least (AVAX)" value={typed.minFree} onInput={set('minFree')} inputMode="decimal" error={typedErrors.minFree} />
          <TextField label="Validates at least (days)" value={typed.minDays} onInput={set('minDays')} inputMode="decimal" error={typedErrors.minDays} />
          <div class="field">
            <label for="validator-sort">Order</label>
            <select
              id="validator-sort"
              value={sort}
              onChange={(e) => {
                setSort(e.currentTarget.value as ValidatorSort);
                setOffset(0);
              }}
            >
              {SORTS.map((s) => (
                <option key={s.value} value={s.value}>
                  {s.label}
                </option>
              ))}
            </select>
          </div>
          <button type="submit">Apply filters</button>
        </form>
      </details>
      <FormError error={list.error} />
      {/* Failed, the same filter asks nothing again: the list says so and can be read again. */}
      {list.error && !list.loading && <ReloadButton list={list} label="Reload the validators" />}
      <Muted role="status" data-testid="validator-count">
        {list.loading && !page ? 'Loading validators…' : !page ? 'No validators shown: they could not be read.' : page.matching === 0 ? `None of the ${page.total} validators matches.` : `${offset + 1}–${offset + page.validators.length} of ${page.matching} matching (${page.total} validators)`}
      </Muted>
      <ul class="validators">
        {page?.validators.map((v) => (
          <li key={v.nodeID} class="tx-row" data-testid="validator">
            <div class="id-line">
              <span class="mono" title={v.nodeID}>
                {shortNode(v.nodeID)}
              </span>
              <CopyButton text={v.nodeID} what={`node ID ${shortNode(v.nodeID)}`} />
              {v.yours && <span class="badge verified">Yours</span>}
            </div>
            <ValidatorFacts v={v} now={page.chainTime} />
            <details class="tx-details">
              <summary>
                More<ScreenReaderText> about {shortNode(v.nodeID)}</ScreenReaderText>
              </summary>
              <Facts>
                <Term term="Node ID" class="mono break">{v.nodeID}</Term>
                <Term term="Validating since">{unixText(v.start)}</Term>
                <Term term="Delegated to it">
                  <Avax value={v.delegated} label={`Delegated to ${shortNode(v.nodeID)}`} />
                </Term>
                <Term term="Score">{v.score} of 100</Term>
              </Facts>
            </details>
            <button type="button" onClick={() => onDelegate(v)} disabled={v.end <= now}>
              Delegate to {shortNode(v.nodeID)}
            </button>
          </li>
        ))}
      </ul>
      {page && page.matching > PAGE_SIZE && (
        <div class="actions">
          <button type="button" disabled={offset === 0 || list.loading} onClick={() => setOffset(Math.max(0, offset - PAGE_SIZE))}>
            Previous page
          </button>
          <button type="button" disabled={offset + PAGE_SIZE >= page.matching || list.loading} onClick={() => setOffset(offset + PAGE_SIZE)}>
            Next page
          </button>
        </div>
      )}
    </div>
  );
}

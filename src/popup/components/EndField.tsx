// When a stake ends: a few lengths to choose from (bounded by the network's rules and, for a
// delegation, by the validator's period), or a date and time typed in local time.
import { useId } from 'preact/hooks';
import { type EndChoice, fromLocalInput, toLocalInput, unixText } from '../staking.js';

export const OTHER_END = 'other';

export interface EndFieldProps {
  choices: EndChoice[];
  /** The index of the chosen preset as text, or OTHER_END. */
  choice: string;
  onChoice: (choice: string) => void;
  /** The typed date and time (datetime-local value). */
  typed: string;
  onTyped: (text: string) => void;
  /** The allowed range, for the date input's bounds and the hint. */
  earliest: number;
  latest: number;
  error?: string | undefined;
}

/** The end chosen: the preset's, or the typed time's (null when none is valid yet). */
export function endOf(p: Pick<EndFieldProps, 'choices' | 'choice' | 'typed'>): number | null {
  if (p.choice === OTHER_END) return fromLocalInput(p.typed);
  return p.choices[Number(p.choice)]?.end ?? null;
}

export function EndField(p: EndFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = `${hintId}${p.error ? ` ${errorId}` : ''}`;
  return (
    <div class="field">
      <label for={`${id}-select`}>Ends</label>
      <select id={`${id}-select`} value={p.choice} aria-describedby={describedBy} aria-invalid={p.error ? 'true' : undefined} onChange={(e) => p.onChoice(e.currentTarget.value)}>
        {p.choices.map((c, i) => (
          <option key={c.end} value={String(i)}>
            {c.label} ({unixText(c.end)})
          </option>
        ))}
        <option value={OTHER_END}>Another date and time…</option>
      </select>
      {p.choice === OTHER_END && (
        <div class="field">
          <label for={`${id}-date`}>End date and time (local)</label>
          <input
            id={`${id}-date`}
            type="datetime-local"
            step={1}
            value={p.typed}
            min={toLocalInput(p.earliest)}
            max={toLocalInput(p.latest)}
            aria-describedby={describedBy}
            aria-invalid={p.error ? 'true' : undefined}
            onInput={(e) => p.onTyped(e.currentTarget.value)}
          />
        </div>
      )}
      <p id={hintId} class="field-hint">
        Between {unixText(p.earliest)} and {unixText(p.latest)}. Staking starts when the network accepts it.
      </p>
      <p id={errorId} class="field-error">
        {p.error ?? ''}
      </p>
    </div>
  );
}

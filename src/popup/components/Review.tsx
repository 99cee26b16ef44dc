// The one review → confirm step every action that moves funds or creates something on chain goes
// through: what leaves, from where, to whom, every fee and what arrives, then Edit or Confirm.
// Nothing is signed before Confirm; a failure keeps the review on screen with the reason.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { errorInfo } from '../api.js';
import type { PlainError } from '../errors.js';
import { FormError, Muted, ScreenReaderText } from './Field.js';
import { Term } from './Term.js';

export interface Fact {
  term: string;
  value: ComponentChildren;
  /** For tests and for the reader: a stable name of the line. */
  testid?: string;
  /** Long values (addresses, IDs) break anywhere instead of overflowing. */
  mono?: boolean;
  /** Still being checked: Confirm waits for it. */
  hold?: boolean;
}

export interface ReviewProps {
  /** The heading's level: 1 when the review is the whole screen, else one below its section's (default 2). */
  level?: 1 | 2 | 3 | 4;
  title?: string;
  facts: Fact[];
  /** A sentence under the facts (what happens next, what cannot be undone). */
  note?: ComponentChildren;
  error?: string | undefined;
  /** What the background said about `error`, behind a Details toggle. */
  detail?: string | undefined;
  busy: boolean;
  /** What is happening while busy ("Signing and sending…"). */
  busyText: string;
  confirmLabel: string;
  /**
   * Unseen words telling this review from others open at the same time ("TUSD for 0x1234…abcd":
   * two revokes of one token): added to the names of the region, Edit and Confirm.
   */
  about?: string;
  onEdit: () => void;
  onConfirm: () => void;
}

export function Review(p: ReviewProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  // Keyboard and screen-reader users land on the review, not on a button that has gone.
  useEffect(() => heading.current?.focus(), []);
  // After a failed Confirm the button that had focus is disabled, then back: focus goes to the review
  // again, also when it failed in the same words as before (busy tells each try).
  useEffect(() => {
    if (p.error && !p.busy) heading.current?.focus();
  }, [p.error, p.busy]);
  const title = p.title ?? 'Review';
  const about = p.about !== undefined ? <ScreenReaderText> ({p.about})</ScreenReaderText> : null;
  const Heading = `h${p.level ?? 2}` as 'h2';
  return (
    <section class="review" aria-label={p.about !== undefined ? `${title} (${p.about})` : title} data-testid="review">
      <Heading ref={heading} tabIndex={-1}>
        {title}
      </Heading>
      <dl class="facts">
        {p.facts.map((f) => (
          <Term key={f.term} term={f.term} class={f.mono ? 'mono break' : undefined} data-testid={f.testid}>
            {f.value}
          </Term>
        ))}
      </dl>
      {p.note && <Muted>{p.note}</Muted>}
      <FormError error={p.error} detail={p.detail} />
      <Muted role="status">
        {p.busy ? <span class="spinner" aria-hidden="true" /> : null}
        {p.busy ? p.busyText : ''}
      </Muted>
      <div class="actions">
        <button type="button" disabled={p.busy} onClick={p.onEdit}>
          Edit
          {about}
        </button>
        <button type="button" class="primary" disabled={p.busy || p.facts.some((f) => f.hold)} onClick={p.onConfirm}>
          {p.confirmLabel}
          {about}
        </button>
      </div>
    </section>
  );
}

/**
 * The state of a form with a review step: whether the review is open, the Confirm under way and
 * its failure. `submit(ready)` opens the review from the form; `confirm(task)` runs the request
 * (the review stays on screen with the reason if it fails); `props` goes to <Review>.
 */
export function useReviewStep() {
  const [reviewing, setReviewing] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<PlainError | undefined>(undefined);
  const edit = (): void => {
    setReviewing(false);
    setError(undefined);
  };
  return {
    reviewing,
    submit:
      (ready: boolean) =>
      (e: Event): void => {
        e.preventDefault();
        if (ready) setReviewing(true);
      },
    confirm: async (task: () => Promise<void>): Promise<void> => {
      setBusy(true);
      setError(undefined);
      try {
        await task();
        setReviewing(false);
      } catch (e) {
        setError(errorInfo(e));
      } finally {
        setBusy(false);
      }
    },
    props: { error: error?.text, detail: error?.detail, busy, onEdit: edit },
  };
}

// A labelled text input or text area with its hint and its error, wired for assistive technology:
// the error sets aria-invalid and both hint and error are announced through aria-describedby.
import type { ComponentChildren, JSX } from 'preact';
import { useId } from 'preact/hooks';

export interface TextFieldProps {
  label: ComponentChildren;
  value: string;
  onInput: (value: string) => void;
  error?: string | undefined;
  hint?: ComponentChildren;
  type?: 'text' | 'password' | 'url';
  multiline?: boolean;
  rows?: number;
  placeholder?: string;
  autoComplete?: string;
  autoFocus?: boolean;
  mono?: boolean;
  inputMode?: 'text' | 'decimal' | 'numeric';
  /** Beside the input (e.g. a Max button). */
  trailing?: ComponentChildren;
  name?: string;
}

export function TextField(p: TextFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [p.hint ? hintId : '', p.error ? errorId : ''].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    name: p.name,
    value: p.value,
    placeholder: p.placeholder,
    autoFocus: p.autoFocus,
    spellcheck: false,
    autoComplete: p.autoComplete ?? 'off',
    'aria-invalid': p.error ? ('true' as const) : undefined,
    'aria-describedby': describedBy,
    class: p.mono ? 'mono' : undefined,
    onInput: (e: Event) => p.onInput((e.currentTarget as HTMLInputElement | HTMLTextAreaElement).value),
  };
  return (
    <div class="field">
      <label for={id}>{p.label}</label>
      <div class="field-row">
        {p.multiline ? (
          <textarea rows={p.rows ?? 3} {...common} />
        ) : p.type === 'password' ? (
          <input type="password" {...common} />
        ) : (
          <input type={(p.type ?? 'text') as 'text'} inputMode={p.inputMode} {...common} />
        )}
        {p.trailing}
      </div>
      {p.hint && (
        <p id={hintId} class="field-hint">
          {p.hint}
        </p>
      )}
      <p id={errorId} class="field-error">
        {p.error ?? ''}
      </p>
    </div>
  );
}

/** A form-level failure (the background's answer), announced at once; what it said, one click away. */
export function FormError({ error, detail, about }: { error: string | undefined; detail?: string | undefined; about?: string }) {
  if (!error) return null;
  return (
    <div class="form-error" role="alert">
      <p>{error}</p>
      <ErrorDetail detail={detail} about={about} />
    </div>
  );
}

/**
 * What the background said about a failure, behind a Details toggle (never in the main text).
 * `about` ("of My node") names it apart from other Details on the screen, for screen readers.
 */
export function ErrorDetail({ detail, about }: { detail: string | undefined; about?: string | undefined }) {
  return detail ? (
    <details class="error-detail">
      <summary>Details{about && <ScreenReaderText> {about}</ScreenReaderText>}</summary>
      <p class="mono break">{detail}</p>
    </details>
  ) : null;
}

/**
 * A muted paragraph, `<p class="muted">`, written once: the popup has about sixty of them. Every
 * other prop (role, data-testid…) goes on the p. Here, not in Term.tsx: every screen and the
 * approval window load this file already.
 */
export function Muted(p: Omit<JSX.IntrinsicElements['p'], 'class' | 'className'>) {
  return <p class="muted" {...p} />;
}

/** A compact fact list, `<dl class="facts compact">`, written once: the popup has about twenty. Other props go on the dl. */
export function Facts(p: Omit<JSX.IntrinsicElements['dl'], 'class' | 'className'>) {
  return <dl class="facts compact" {...p} />;
}

/** Muted words within a line, `<span class="muted">`: Muted's inline kin, about twenty of them. Other props go on the span. */
export function MutedText(p: Omit<JSX.IntrinsicElements['span'], 'class' | 'className'>) {
  return <span class="muted" {...p} />;
}

/** Words only a screen reader says, `<span class="sr-only">`, written once: the popup has about twenty. */
export function ScreenReaderText({ children }: { children: ComponentChildren }) {
  return <span class="sr-only">{children}</span>;
}

/** A small button, `<button type="button" class="small">`, written once: the popup has about thirty. Other props go on the button. */
export function SmallButton(p: Omit<JSX.IntrinsicElements['button'], 'type' | 'class' | 'className'>) {
  return <button type="button" class="small" {...p} />;
}

/** A list's Reload button, written once: disabled while it reads, saying so (`busy`). */
export function ReloadButton({ list, busy = 'Loading…', label }: { list: { loading: boolean; reload: () => unknown }; busy?: string; label?: string }) {
  return (
    <SmallButton disabled={list.loading} onClick={() => void list.reload()} aria-label={label}>
      {list.loading ? busy : 'Reload'}
    </SmallButton>
  );
}

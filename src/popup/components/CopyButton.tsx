// Copies a text to the clipboard and says so for a moment. When the browser refuses, the whole text
// takes the button's place, selected, to copy by hand (screens often show only a shortened ID);
// it stays until focus leaves it.
import { useEffect, useState } from 'preact/hooks';
import { SmallButton } from './Field.js';

export function CopyButton({ text, what }: { text: string; what: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  // "Copied" is about one text: once another takes its place (Receive's next address), it is not
  // what the clipboard holds.
  const [copiedText, setCopiedText] = useState(text);
  const copied = state === 'copied' && copiedText === text;
  useEffect(() => {
    if (state !== 'copied') return;
    const timer = setTimeout(() => setState('idle'), 1500);
    return () => clearTimeout(timer);
  }, [state]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopiedText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
  };
  if (state === 'failed') {
    // Focused at once: the button it replaces had focus, which must not fall to the page.
    return (
      <input
        class="mono"
        readOnly
        value={text}
        aria-label={`${what}, not copied: copy it yourself`}
        ref={(e) => {
          e?.focus();
          e?.select();
        }}
        onBlur={() => setState('idle')}
      />
    );
  }
  return (
    <SmallButton aria-label={`Copy ${what}`} onClick={() => void copy()}>
      <span aria-live="polite">{copied ? 'Copied' : 'Copy'}</span>
    </SmallButton>
  );
}

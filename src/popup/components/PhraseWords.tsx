// A recovery phrase shown word by word, numbered: at onboarding and in Settings.
import { MutedText } from './Field.js';

export function PhraseWords({ words }: { words: string[] }) {
  return (
    <ol class="words" aria-label="Recovery phrase">
      {words.map((w, i) => (
        <li key={i}>
          <MutedText>{i + 1}.</MutedText> <span class="mono">{w}</span>
        </li>
      ))}
    </ol>
  );
}

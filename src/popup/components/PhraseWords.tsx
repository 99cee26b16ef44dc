// A recovery phrase shown word by word, numbered: at onboarding and in Settings.
export function PhraseWords({ words }: { words: string[] }) {
  return (
    <ol class="words" aria-label="Recovery phrase">
      {words.map((w, i) => (
        <li key={i}>
          <span class="muted">{i + 1}.</span> <span class="mono">{w}</span>
        </li>
      ))}
    </ol>
  );
}

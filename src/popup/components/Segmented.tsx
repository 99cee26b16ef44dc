// A row of choices built from native radio buttons, so arrow keys and screen readers work as usual.
import { useId } from 'preact/hooks';

export interface SegmentedProps<V extends string> {
  legend: string;
  value: V;
  options: readonly { value: V; label: string; disabled?: boolean }[];
  onChange: (value: V) => void;
}

export function Segmented<V extends string>(p: SegmentedProps<V>) {
  const name = useId();
  return (
    <fieldset class="segmented">
      <legend class="sr-only">{p.legend}</legend>
      {p.options.map((o) => (
        <label key={o.value} class={o.value === p.value ? 'on' : undefined}>
          <input type="radio" name={name} value={o.value} checked={o.value === p.value} disabled={o.disabled} onChange={() => p.onChange(o.value)} />
          <span>{o.label}</span>
        </label>
      ))}
    </fieldset>
  );
}

// An amount field for one asset: parses as the user types (never through floating point), names
// what is wrong (too many decimals, more than spendable, no room for the fee), and offers "Max"
// only when it can leave room for the fee.
import { checkAmount } from '../checks.js';
import { amountInputText, formatValue } from '../format.js';
import { MutedText, TextField } from './Field.js';

export interface AmountInputProps {
  label?: string;
  value: string;
  onInput: (text: string) => void;
  denomination: number;
  symbol: string;
  spendable?: bigint;
  /** A fee paid in this asset on top of the amount, when known. */
  fee?: bigint;
  /** Largest value the field accepts (u64 unless given). */
  max?: bigint;
  /** What "Max" fills in; null shows the button disabled (e.g. the fee is not known yet). */
  maxValue?: bigint | null;
  /** Why Max is disabled, or what it leaves out. */
  maxNote?: string;
  /** An error from the background about this field. */
  error?: string | undefined;
}

export function AmountInput(p: AmountInputProps) {
  const check = checkAmount(p.value, {
    denomination: p.denomination,
    symbol: p.symbol,
    ...(p.spendable !== undefined ? { spendable: p.spendable } : {}),
    ...(p.fee !== undefined ? { fee: p.fee } : {}),
    ...(p.max !== undefined ? { max: p.max } : {}),
  });
  const shown = p.error ?? (p.value !== '' && !check.ok ? check.error : undefined);
  const maxButton =
    p.maxValue === undefined ? null : (
      <button
        type="button"
        class="small"
        disabled={p.maxValue === null}
        title={p.maxNote}
        aria-label={p.maxNote ? `Max: ${p.maxNote}` : 'Max'}
        onClick={() => p.maxValue != null && p.onInput(amountInputText(p.maxValue, p.denomination))}
      >
        Max
      </button>
    );
  return (
    <TextField
      label={`${p.label ?? 'Amount'} (${p.symbol})`}
      value={p.value}
      onInput={p.onInput}
      inputMode="decimal"
      placeholder="0.0"
      mono
      error={shown}
      trailing={maxButton}
      hint={
        p.spendable !== undefined || p.maxNote ? (
          <>
            {p.spendable !== undefined && <span>Spendable: {formatValue(p.spendable, p.denomination, p.symbol)}</span>}
            {p.maxNote && <MutedText> · {p.maxNote}</MutedText>}
          </>
        ) : undefined
      }
    />
  );
}

// An amount as people read it: rounded down to a few decimals and never broken across lines, with
// the exact value one click away (and always in the accessible name, so nothing is lost to a
// screen reader). Amounts that need no rounding are plain text.
import { useState } from 'preact/hooks';
import { AVAX_DECIMALS, roundAmount } from '../format.js';
import { ScreenReaderText } from './Field.js';
import type { Amount } from '../../shared/messages.js';

export interface AmountTextProps {
  value: Amount | bigint;
  denomination: number;
  symbol: string;
  /** Text before the amount ("at most "). */
  prefix?: string;
  /** False inside another control (a button): shown rounded, exact in the title and the name. */
  toggle?: boolean;
  /** Fraction digits shown before rounding (SHOWN_DIGITS; a review shows nAVAX whole: 9). */
  digits?: number;
  /** A ceiling ("at most …"): rounded up, never below the real limit. */
  up?: boolean;
  /** What the amount is ("X-Chain total"), leading the toggle's name: two toggles showing the same amount are told apart. */
  label?: string;
  testid?: string;
}

export function AmountText({ value, denomination, symbol, prefix = '', toggle = true, digits, up = false, label, testid }: AmountTextProps) {
  const [exactShown, setExactShown] = useState(false);
  const r = roundAmount(value, denomination, digits, up);
  if (!r.rounded) {
    return (
      <span class="amount-text" data-testid={testid}>
        {prefix}
        {r.exact} {symbol}
      </span>
    );
  }
  const exact = `${r.exact} ${symbol}`;
  const shown = `${prefix}${exactShown ? r.exact : r.text} ${symbol}`;
  // The exact value last, so whoever reads the text (or hears it) gets it whole.
  const hidden = exactShown ? null : <ScreenReaderText> (exactly {exact})</ScreenReaderText>;
  if (!toggle) {
    return (
      <span class="amount-text" title={`Exactly ${exact}`} data-testid={testid}>
        {shown}
        {hidden}
      </span>
    );
  }
  return (
    <button type="button" class="amount-toggle" title={exactShown ? 'Show rounded' : `Exactly ${exact}`} aria-pressed={exactShown} aria-label={label && `${label}: ${shown}${exactShown ? '' : ` (exactly ${exact})`}`} onClick={() => setExactShown(!exactShown)} data-testid={testid}>
      {shown}
      {hidden}
    </button>
  );
}

/** An nAVAX amount as reviews show fees and amounts: to the last nAVAX. */
export function NavaxText({ value, testid }: { value: Amount | bigint; testid?: string | undefined }) {
  return <AmountText digits={AVAX_DECIMALS} value={value} denomination={AVAX_DECIMALS} symbol="AVAX" {...(testid ? { testid } : {})} />;
}

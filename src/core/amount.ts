// Amounts are bigint base units everywhere; these convert to and from decimal text by an asset's
// denomination (number of decimal places). No floating point anywhere.
import { FormatError } from './errors.js';

/** wei per nAVAX: the C-Chain counts AVAX in 18 decimals, X and P in 9. */
export const WEI_PER_NAVAX = 1_000_000_000n;

export const MAX_DENOMINATION = 32;
export const UINT64_MAX = (1n << 64n) - 1n;
/** A token allowance this large is "unlimited" (the usual max uint256, or anything near it): said so, not as a 78-digit number. */
export const UNLIMITED_ALLOWANCE = ((1n << 256n) - 1n) >> 1n;

function checkDenomination(denomination: number): void {
  if (!Number.isInteger(denomination) || denomination < 0 || denomination > MAX_DENOMINATION) {
    throw new FormatError(`denomination must be an integer from 0 to ${MAX_DENOMINATION}`);
  }
}

/**
 * Parses user text such as "1.5" or "0.000000001" into base units. Rejects more decimals than the
 * denomination allows (trailing zeros apart), signs, exponents, separators and values above `max` (default: u64).
 */
export function parseAmount(text: string, denomination: number, max: bigint = UINT64_MAX): bigint {
  checkDenomination(denomination);
  const trimmed = text.trim();
  const match = /^(\d*)(?:\.(\d*))?$/.exec(trimmed);
  if (!match || trimmed === '' || trimmed === '.') throw new FormatError('enter an amount like 1.25');
  const whole = match[1] ?? '';
  // Trailing zeros add no precision: "1.0000000000" is exactly 1 even with 9 decimals.
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > denomination) {
    throw new FormatError(`at most ${denomination} decimal place${denomination === 1 ? '' : 's'} for this asset`);
  }
  const units = BigInt((whole || '0') + fraction.padEnd(denomination, '0'));
  if (units > max) throw new FormatError('amount is larger than the maximum allowed');
  return units;
}

/**
 * Formats base units as decimal text with the denomination, trimming trailing zeros of the
 * fraction (never rounding). `groupThousands` inserts thin grouping commas in the whole part.
 */
export function formatAmount(units: bigint, denomination: number, options: { groupThousands?: boolean } = {}): string {
  checkDenomination(denomination);
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(denomination + 1, '0');
  let whole = digits.slice(0, digits.length - denomination);
  const fraction = digits.slice(digits.length - denomination).replace(/0+$/, '');
  if (options.groupThousands) whole = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return (negative ? '-' : '') + whole + (fraction ? '.' + fraction : '');
}

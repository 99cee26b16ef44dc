// Amounts as the popup-UI tests write and read them, independently of the popup's own formatting
// code: exact base units (nAVAX, wei, an asset's smallest unit) in, the texts a user types and
// reads out, and back.

/** "1,234.5" for 1234500000000 at 9 decimals: grouped whole part, fraction without trailing zeros. */
export function amountText(units: bigint, decimals: number): string {
  const digits = units.toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}

/** The plain text to type into an amount field ("0.123456789"). */
export function typedAmount(units: bigint, decimals: number): string {
  return amountText(units, decimals).replace(/,/g, '');
}

/** The exact base units of the last "<number> <symbol>" in `text` (e.g. "fee 0.001 AVAX"). */
export function parseAmount(text: string | null, decimals: number, symbol = 'AVAX'): bigint {
  const matches = [...(text ?? '').matchAll(new RegExp(`(\\d[\\d,]*(?:\\.\\d+)?)\\s*${symbol}\\b`, 'g'))];
  const last = matches.at(-1);
  if (!last) throw new Error(`no amount in ${symbol} in ${JSON.stringify(text)}`);
  const [whole, fraction = ''] = last[1]!.replace(/,/g, '').split('.');
  if (fraction.length > decimals) throw new Error(`${last[1]} has more than ${decimals} decimals`);
  return BigInt(whole! + fraction.padEnd(decimals, '0'));
}

/** The AVAX the home screen shows per chain, as exact base units. */
export interface Totals {
  /** nAVAX */
  X: bigint;
  /** nAVAX */
  P: bigint;
  /** wei */
  C: bigint;
}

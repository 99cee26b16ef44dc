// Amounts, durations and times in the words staking messages use: AVAX with its exact decimals,
// durations in the largest whole units, times as UTC dates (shares: describe-pvm's sharesText).
// Never base units, never IDs.
import { formatAmount } from '../amount.js';

const NAVAX_DECIMALS = 9;

/** 12.5 AVAX, 2,000 AVAX, 0.000000001 AVAX: exact, grouped by thousands. */
export function avaxWords(navax: bigint): string {
  return `${formatAmount(navax, NAVAX_DECIMALS, { groupThousands: true })} AVAX`;
}

const UNITS: readonly [bigint, string][] = [
  [86_400n, 'day'],
  [3_600n, 'hour'],
  [60n, 'minute'],
  [1n, 'second'],
];

/** 14 days, 1 day 12 hours, 20 seconds: the two largest units that are not zero. */
export function durationWords(seconds: bigint): string {
  if (seconds <= 0n) return '0 seconds';
  const parts: string[] = [];
  let left = seconds;
  for (const [size, name] of UNITS) {
    const n = left / size;
    if (n > 0n) {
      parts.push(`${n} ${name}${n === 1n ? '' : 's'}`);
      left -= n * size;
    }
    if (parts.length === 2) break;
  }
  return parts.join(' ');
}

/** 2027-01-04 15:00:20 UTC. */
export function timeWords(unixSeconds: bigint): string {
  if (unixSeconds > 8_640_000_000_000n) return `the year ${unixSeconds}`;
  return new Date(Number(unixSeconds) * 1000).toISOString().replace('T', ' ').replace(/\.\d{3}Z$/, ' UTC');
}

// Display helpers: amounts (bigint base units → grouped decimal text with the asset's symbol,
// never through floating point), chain names, IDs and times.
import { formatAmount } from '../core/amount.js';
import { INVISIBLE_TEXT, invisibleAsCodes } from '../core/bytes.js';
import type { Amount, AssetBalanceView, BalancesView, ChainName } from '../shared/messages.js';

/** nAVAX: AVAX on the X-Chain, the P-Chain and in atomic memory. */
export const AVAX_DECIMALS = 9;
/** wei: native AVAX on the C-Chain's EVM side. */
export const WEI_DECIMALS = 18;

/**
 * A memo as a review shows it: characters that hide or reorder text (direction marks, zero-width)
 * written as codes, and said so, so what is read is what goes on chain. A backslash typed is then
 * written twice, so typed text never reads as a code.
 */
export const memoShown = (memo: string): string => (INVISIBLE_TEXT.test(memo) ? `${invisibleAsCodes(memo.replaceAll('\\', '\\\\'))} (hidden characters shown as codes)` : memo);

export function units(amount: Amount | bigint | undefined): bigint {
  if (amount === undefined) return 0n;
  return typeof amount === 'bigint' ? amount : BigInt(amount);
}

/** "1,234.5": grouped whole part, the fraction as far as it is non-zero (no rounding). */
export function formatUnits(amount: Amount | bigint, denomination: number): string {
  return formatAmount(units(amount), denomination, { groupThousands: true });
}

/** "1,234.5 AVAX". */
export function formatValue(amount: Amount | bigint, denomination: number, symbol: string): string {
  return `${formatUnits(amount, denomination)} ${symbol}`;
}

/** Fraction digits an amount is shown with before it is rounded (the exact value is one click away). */
export const SHOWN_DIGITS = 6;

export interface RoundedAmount {
  /** What is shown: grouped, at most SHOWN_DIGITS fraction digits, rounded down; "< 0.000001" for dust. */
  text: string;
  /** The exact amount, grouped. */
  exact: string;
  /** True when `text` is not `exact`. */
  rounded: boolean;
}

/**
 * An amount for display. Rounded down and marked "≈": a balance is never shown larger than it
 * is, and a dust amount reads "< 0.000001" rather than 0. A ceiling (`up`) is rounded up instead.
 */
export function roundAmount(amount: Amount | bigint, denomination: number, digits = SHOWN_DIGITS, up = false): RoundedAmount {
  const value = units(amount);
  const exact = formatUnits(value, denomination);
  if (denomination <= digits || value <= 0n) return { text: exact, exact, rounded: false };
  const scale = 10n ** BigInt(denomination - digits);
  // A ceiling ("at most") is rounded up, so the limit shown is never below the real one.
  const kept = up ? ((value + scale - 1n) / scale) * scale : (value / scale) * scale;
  if (kept === 0n) return { text: `< 0.${'0'.repeat(digits - 1)}1`, exact, rounded: true };
  if (kept === value) return { text: exact, exact, rounded: false };
  // Marked as not exact; a dust amount already says "<".
  return { text: `${up ? '' : '≈ '}${formatUnits(kept, denomination)}`, exact, rounded: true };
}

/** The plain text an amount field takes back (no grouping). */
export function amountInputText(amount: bigint, denomination: number): string {
  return formatAmount(amount, denomination);
}

export function chainLabel(chain: ChainName): string {
  return `${chain}-Chain`;
}

/** "an X-Chain", "a P-Chain". */
export function withArticle(chain: string): string {
  return `${chain === 'X' ? 'an' : 'a'} ${chain}-Chain`;
}

/** Start and end of a long ID: enough characters that no look-alike can be ground out. */
export function shortenId(id: string, head = 10, tail = 6): string {
  return id.length <= head + tail + 1 ? id : `${id.slice(0, head)}…${id.slice(-tail)}`;
}

/** A token's symbol as shown: a contract's claim, so one that reads as AVAX is named by its contract too ('' stays ''). */
export function tokenSymbol(symbol: string, address: string): string {
  return /avax/i.test(symbol) ? `${symbol} (${shortenId(address)})` : symbol;
}

export function totalOf(b: AssetBalanceView): bigint {
  return units(b.spendable) + units(b.locked) + units(b.lockedStakeable);
}

/** The part another key can also spend alone (1-of-2 with a stranger): never in a plain figure. */
export const sharedOf = (b: AssetBalanceView): bigint => (b.shared === undefined ? 0n : units(b.shared));
/** Spendable by the account's keys alone: what the popup shows as spendable. */
export const ownSpendable = (b: AssetBalanceView): bigint => units(b.spendable) - sharedOf(b);
/** The locked part another key can take alone once it unlocks. */
export const sharedLockedOf = (b: AssetBalanceView): bigint => (b.sharedLocked === undefined ? 0n : units(b.sharedLocked));
/** Everything the account holds but the shared parts, locked or not. */
export const ownTotal = (b: AssetBalanceView): bigint => totalOf(b) - sharedOf(b) - sharedLockedOf(b);

function pad(n: number): string {
  return n.toString().padStart(2, '0');
}

/** "14:03:09", local time. */
export function formatClock(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** "2026-11-22 14:03", local time; "an unknown date" for a time no date can show (never NaN). */
export function formatDateTime(ms: number): string {
  const d = new Date(ms);
  if (Number.isNaN(d.getTime())) return 'an unknown date';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** formatClock when `ms` is today (local time), else formatDateTime: a time of day alone reads as today's. */
export function formatSince(ms: number, now: number): string {
  const d = new Date(ms);
  const n = new Date(now);
  const today = d.getFullYear() === n.getFullYear() && d.getMonth() === n.getMonth() && d.getDate() === n.getDate();
  return today ? formatClock(ms) : formatDateTime(ms);
}

/** "just now", "40 s ago", "3 min ago", "2 h ago", then the date. */
export function formatAgo(ms: number, now: number): string {
  const seconds = Math.max(0, Math.floor((now - ms) / 1000));
  if (seconds < 5) return 'just now';
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  return formatDateTime(ms);
}

/** The last Unix second a JavaScript date can show (8.64e12 s, year 275760): anything later never comes. */
const LAST_DATE_SECONDS = 8_640_000_000_000n;

/** How long a right given until `seconds` lasts, in words: "until <date>", or "with no end". */
export const untilText = (seconds: string): string => (formatDeadline(seconds) === 'Never expires' ? 'with no end' : `until ${formatDeadline(seconds)}`);

/** The same as a line of its own: "Until <date>", or "Never expires". */
export const expiryText = (seconds: string): string => (formatDeadline(seconds) === 'Never expires' ? 'Never expires' : `Until ${formatDeadline(seconds)}`);

/** A contract's deadline or expiry in Unix seconds (decimal text) as a date, or "Never expires" (2^256 − 1, Permit2's 2^48 − 1). */
export function formatDeadline(seconds: string): string {
  let s: bigint;
  try {
    s = BigInt(seconds);
  } catch {
    return 'an unknown date';
  }
  return s > LAST_DATE_SECONDS ? 'Never expires' : formatDateTime(Number(s) * 1000);
}

/** What a screen says before the first balances arrive: waiting, or the node did not answer. */
export const noBalancesText = (b: BalancesView | null): string => (b?.error ? 'No balances yet: the node did not answer.' : 'Loading balances…');

/**
 * Per row of a list, " (part 2 of 3)" when others shown share its transaction (`ids`: each row's):
 * unseen words keeping the rows' Details and Copy names apart (one receipt per asset, a swap's
 * two token logs); '' for a row of its own.
 */
export function partLabels(ids: readonly string[]): string[] {
  const total = new Map<string, number>();
  for (const id of ids) total.set(id, (total.get(id) ?? 0) + 1);
  const seen = new Map<string, number>();
  return ids.map((id) => {
    const n = (seen.get(id) ?? 0) + 1;
    seen.set(id, n);
    const of = total.get(id)!;
    return of > 1 ? ` (part ${n} of ${of})` : '';
  });
}

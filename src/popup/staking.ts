// Pure helpers of the staking screens: percentages typed as shares, the ends and periods offered,
// the validator filter from what was typed, times in words. No requests, no DOM.
import { durationWords } from '../core/staking/words.js';
import { parseAmount } from '../core/amount.js';
import type { ArrivalView, Shares, StakingParamsView, UnixSeconds, ValidatorFilter } from '../shared/messages-staking.js';
import { type Check } from './checks.js';
import { AVAX_DECIMALS, formatDateTime, formatValue } from './format.js';

export { sharesText } from '../core/describe-pvm.js';

const fail = (error: string): Check<never> => ({ ok: false, error });

/** "2", "6.25", "100": a percentage with at most four decimals, as millionths (6.25 → 62 500). */
export function parsePercent(text: string): Check<Shares> {
  const t = text.trim().replace(/%$/, '').trim();
  if (t === '') return fail('Enter a percentage');
  const m = /^(\d{1,3})(?:\.(\d{0,4}))?$/.exec(t);
  if (!m) return /^\d*\.\d{5,}$/.test(t) ? fail('At most four decimals') : fail('Enter a number from 0 to 100, like 2 or 6.25');
  const shares = Number(m[1]) * 10_000 + Number((m[2] ?? '').padEnd(4, '0'));
  if (shares > 1_000_000) return fail('At most 100%');
  return { ok: true, value: shares };
}

/** "20 seconds", "14 days", "1 day 12 hours". */
export function durationText(seconds: number): string {
  return durationWords(BigInt(Math.max(0, Math.round(seconds))));
}

/** A Unix time in local time, "2026-11-22 14:03". */
export function unixText(seconds: UnixSeconds): string {
  return formatDateTime(seconds * 1000);
}

/** "in 3 days 4 hours", "ended". */
export function remainingText(end: UnixSeconds, now: UnixSeconds): string {
  return end <= now ? 'ended' : `in ${durationText(end - now)}`;
}

/**
 * The chain time now, from the time the node reported and how long ago that was: the presets and
 * bounds count from the chain's clock, not the computer's.
 */
export function chainNow(params: Pick<StakingParamsView, 'chainTime'>, readAtMs: number, nowMs: number): UnixSeconds {
  return params.chainTime + Math.max(0, Math.floor((nowMs - readAtMs) / 1000));
}

/**
 * Kept beyond the shortest allowed stake: the rule counts from when the network accepts the tx,
 * which is a little after the review.
 */
export const END_MARGIN_SECONDS = 60;

/**
 * The earliest end a typed date may have, as the hint shows it (to the minute): the shortest stake
 * with the margin, rounded up to a whole minute, so the minute shown is never one the rule refuses.
 */
export function earliestEnd(now: UnixSeconds, minSeconds: number): UnixSeconds {
  return Math.ceil((now + minSeconds + END_MARGIN_SECONDS) / 60) * 60;
}

const PRESET_SECONDS = [7 * 86_400, 14 * 86_400, 30 * 86_400, 90 * 86_400, 182 * 86_400, 365 * 86_400];

export interface EndChoice {
  label: string;
  end: UnixSeconds;
}

/**
 * The ends offered for a stake starting about `now`: the shortest the rules allow (with a margin),
 * a few usual lengths, and (delegations) the end of the validator's period; only those inside
 * [shortest, longest] and no later than `latest`.
 */
export function endChoices(p: { now: UnixSeconds; minSeconds: number; maxSeconds: number; latest?: UnixSeconds | undefined; renews?: boolean }): EndChoice[] {
  const first = p.minSeconds + END_MARGIN_SECONDS;
  const limit = Math.min(p.now + p.maxSeconds, p.latest ?? Infinity);
  const out: EndChoice[] = [];
  const add = (label: string, end: UnixSeconds) => {
    if (end >= p.now + first && end <= limit && !out.some((c) => c.end === end)) out.push({ label, end });
  };
  add(`Shortest: ${durationText(first)}`, p.now + first);
  for (const s of PRESET_SECONDS) if (s > first) add(durationText(s), p.now + s);
  // A validator that stops before the longest stake allowed: its end. One that validates longer
  // does not stop then, so that end is the longest allowed, named as such.
  // An auto-renewed one (`renews`) does not stop then: a delegation ends by its current cycle's end.
  if (p.latest !== undefined && p.latest <= p.now + p.maxSeconds) add(p.renews ? 'Until its current cycle ends' : 'Until the validator stops', p.latest);
  // The longest stake counts from the network's last block, a little before now: a year then falls
  // just past it, so the longest it allows is offered in its place.
  else if (!out.some((c) => c.end === limit)) add(`The longest allowed (${durationText(Math.max(1, Math.round(p.maxSeconds / 3_600)) * 3_600)})`, limit);
  return out;
}

/** The cycle lengths offered for an auto-renewed validation: the shortest allowed, then usual ones. */
export function periodChoices(minSeconds: number, maxSeconds: number): { label: string; seconds: number }[] {
  const lengths = [minSeconds, ...PRESET_SECONDS.filter((s) => s > minSeconds && s <= maxSeconds)];
  return lengths.map((s, i) => ({ label: i === 0 ? `Shortest: ${durationText(s)}` : durationText(s), seconds: s }));
}

/** What a datetime-local input holds for a Unix time, in local time to the second. */
export function toLocalInput(seconds: UnixSeconds): string {
  const d = new Date(seconds * 1000);
  const pad = (n: number) => n.toString().padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** The Unix time of a datetime-local value (local time; seconds optional); null if it is no time. */
export function fromLocalInput(text: string): UnixSeconds | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(text.trim());
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map((x) => Number(x ?? 0)) as [number, number, number, number, number, number];
  const date = new Date(y, mo - 1, d, h, mi, s);
  if (date.getMonth() !== mo - 1 || date.getDate() !== d) return null;
  return Math.floor(date.getTime() / 1000);
}

/** What the filter fields hold, as typed. */
export interface FilterText {
  minUptime: string;
  maxFee: string;
  /** AVAX. */
  minFree: string;
  /** Days. */
  minDays: string;
  /** Part of a NodeID (NodeIDs are case-sensitive). */
  node: string;
}

export const NO_FILTER: FilterText = { minUptime: '', maxFee: '', minFree: '', minDays: '', node: '' };
/** The longest stake on any network (validate-staking.ts MAX_STAKE_SECONDS), in days. */
const MAX_FILTER_DAYS = 365;

/**
 * The request's filter from the fields; a field that does not parse is named in `errors` and left
 * out (the list keeps what it can filter by).
 */
export function filterOf(t: FilterText): { filter: ValidatorFilter; errors: Partial<Record<keyof FilterText, string>> } {
  const filter: ValidatorFilter = {};
  const errors: Partial<Record<keyof FilterText, string>> = {};
  if (t.minUptime.trim() !== '') {
    const v = parsePercent(t.minUptime);
    if (v.ok) filter.minUptime = v.value / 10_000;
    else errors.minUptime = v.error;
  }
  if (t.maxFee.trim() !== '') {
    const v = parsePercent(t.maxFee);
    if (v.ok) filter.maxFee = v.value;
    else errors.maxFee = v.error;
  }
  if (t.minFree.trim() !== '') {
    try {
      filter.minFreeSpace = parseAmount(t.minFree.trim(), AVAX_DECIMALS).toString();
    } catch {
      errors.minFree = 'Enter an amount of AVAX, like 25';
    }
  }
  if (t.minDays.trim() !== '') {
    const days = Number(t.minDays.trim());
    if (!/^\d+(\.\d+)?$/.test(t.minDays.trim()) || !Number.isFinite(days)) errors.minDays = 'Enter a number of days, like 14 or 0.5';
    // No stake lasts longer, so no validator has more left: more would only be refused.
    else if (days > MAX_FILTER_DAYS) errors.minDays = `At most ${MAX_FILTER_DAYS} days: no validator validates longer`;
    else filter.minRemainingSeconds = Math.round(days * 86_400);
  }
  const node = t.node.trim();
  if (node.length > 64) errors.node = 'A NodeID is shorter than that';
  else if (node !== '') filter.nodeID = node;
  return { filter, errors };
}

/** "staking-rewards-2026-11-22.csv": the file an export is saved as. */
export function csvFileName(scope: 'rewards' | 'all', nowMs: number): string {
  const d = new Date(nowMs);
  const pad = (n: number) => n.toString().padStart(2, '0');
  return `${scope === 'rewards' ? 'staking-rewards' : 'wallet-activity'}-${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}.csv`;
}

/** "P-custom1…xyz (yours)": who gets a reward or a stake back, and whether that is this account. */
export function ownerText(o: { addresses: string[]; threshold: number; yours: boolean }): string {
  const who = o.addresses.join(', ');
  const needs = o.addresses.length > 1 ? ` (${o.threshold} of ${o.addresses.length} must sign)` : '';
  return `${who}${needs} — ${o.yours ? 'yours' : 'not yours'}`;
}

const ARRIVAL: Record<ArrivalView['what'], string> = { stake: 'The stake', reward: 'The reward', 'delegation-fees': 'Delegation fees' };

/** "The stake, 25 AVAX, on 2026-11-22 14:03, to you". */
export function arrivalText(a: ArrivalView): string {
  const amount = `${a.estimated ? 'about ' : ''}${formatValue(a.amount, AVAX_DECIMALS, 'AVAX')}`;
  const when = a.at === null ? 'once the validation is stopped' : `on ${unixText(a.at)}`;
  return `${ARRIVAL[a.what]}, ${amount}, ${when}, to ${a.to.yours ? 'you' : `${a.to.addresses.join(', ')} (not yours)`}`;
}

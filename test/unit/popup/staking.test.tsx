// @vitest-environment happy-dom
// The staking screens' pure helpers: percentages as shares, the ends and periods offered within
// the rules, local date-time input, the validator filter from typed text, owners and arrivals in
// words; Home's staked lines; staking refusals kept in the background's words.
import { describe, expect, it } from 'vitest';
import { plainError } from '../../../src/popup/errors.js';
import { stakedLines } from '../../../src/popup/screens/Home.js';
import {
  arrivalText,
  chainNow,
  csvFileName,
  END_MARGIN_SECONDS,
  earliestEnd,
  endChoices,
  filterOf,
  fromLocalInput,
  ownerText,
  parsePercent,
  periodChoices,
  toLocalInput,
} from '../../../src/popup/staking.js';
import { shortNode } from '../../../src/popup/screens/StakeValidators.js';

const DAY = 86_400;

describe('parsePercent', () => {
  it.each([
    ['2', 20_000],
    ['6.25', 62_500],
    ['100', 1_000_000],
    ['0', 0],
    ['2.0001', 20_001],
    [' 5 % ', 50_000],
  ])('%s → %i millionths', (text, shares) => expect(parsePercent(text)).toEqual({ ok: true, value: shares }));
  it.each([
    ['', 'Enter a percentage'],
    ['100.5', 'At most 100%'],
    ['1.23456', 'At most four decimals'],
    ['-1', 'Enter a number from 0 to 100, like 2 or 6.25'],
    ['abc', 'Enter a number from 0 to 100, like 2 or 6.25'],
  ])('%j is refused: %s', (text, error) => expect(parsePercent(text)).toEqual({ ok: false, error }));
});

describe('endChoices', () => {
  const now = 1_800_000_000;
  it('mainnet rules: the shortest (with the margin), then the usual lengths up to a year, and no later than the validator', () => {
    const all = endChoices({ now, minSeconds: 14 * DAY, maxSeconds: 365 * DAY });
    expect(all.map((c) => c.label)).toEqual(['Shortest: 14 days 1 minute', '30 days', '90 days', '182 days', '365 days']);
    expect(all[0]!.end).toBe(now + 14 * DAY + END_MARGIN_SECONDS);
    const bounded = endChoices({ now, minSeconds: 14 * DAY, maxSeconds: 365 * DAY, latest: now + 60 * DAY });
    expect(bounded.map((c) => c.label)).toEqual(['Shortest: 14 days 1 minute', '30 days', 'Until the validator stops']);
    expect(bounded.at(-1)!.end).toBe(now + 60 * DAY);
  });
  it('the longest, counted from a last block a little old, replaces the year it cuts short', () => {
    const all = endChoices({ now, minSeconds: 14 * DAY, maxSeconds: 365 * DAY - 40 });
    expect(all.map((c) => c.label)).toEqual(['Shortest: 14 days 1 minute', '30 days', '90 days', '182 days', 'The longest allowed (365 days)']);
    expect(all.at(-1)!.end).toBe(now + 365 * DAY - 40);
  });
  it('a validator that validates past the longest stake allowed: that end is named the longest allowed, not when the validator stops', () => {
    const choices = endChoices({ now, minSeconds: 14 * DAY, maxSeconds: 365 * DAY - 40, latest: now + 400 * DAY });
    expect(choices.map((c) => c.label)).toEqual(['Shortest: 14 days 1 minute', '30 days', '90 days', '182 days', 'The longest allowed (365 days)']);
    expect(choices.at(-1)!.end).toBe(now + 365 * DAY - 40);
  });
  it('an auto-renewed validator that renews does not stop at its cycle end: that end is named as the cycle’s', () => {
    const choices = endChoices({ now, minSeconds: 14 * DAY, maxSeconds: 365 * DAY, latest: now + 60 * DAY, renews: true });
    expect(choices.at(-1)).toEqual({ label: 'Until its current cycle ends', end: now + 60 * DAY });
  });
  it('the test network: a shortest end of 20 s plus the margin', () => {
    const [first] = endChoices({ now, minSeconds: 20, maxSeconds: 365 * DAY });
    expect(first).toEqual({ label: 'Shortest: 1 minute 20 seconds', end: now + 80 });
  });
  it('nothing when the validator stops before the shortest delegation could end', () => {
    expect(endChoices({ now, minSeconds: 14 * DAY, maxSeconds: 365 * DAY, latest: now + 10 * DAY })).toEqual([]);
  });
});

it('earliestEnd: a whole minute, never before the shortest stake with its margin', () => {
  for (const now of [1_800_000_000, 1_800_000_001, 1_800_000_059]) {
    const e = earliestEnd(now, 14 * DAY);
    expect(e % 60).toBe(0);
    expect(e).toBeGreaterThanOrEqual(now + 14 * DAY + END_MARGIN_SECONDS);
    expect(e).toBeLessThan(now + 14 * DAY + END_MARGIN_SECONDS + 60);
  }
});

it('periodChoices: the shortest cycle first, then the usual lengths within the maximum', () => {
  expect(periodChoices(48 * 3600, 365 * DAY).map((p) => p.label)).toEqual(['Shortest: 2 days', '7 days', '14 days', '30 days', '90 days', '182 days', '365 days']);
  expect(periodChoices(20, 30 * DAY).map((p) => p.seconds)).toEqual([20, 7 * DAY, 14 * DAY, 30 * DAY]);
});

it('chainNow counts from the chain time read, not from the computer clock', () => {
  expect(chainNow({ chainTime: 1000 }, 50_000, 62_900)).toBe(1012);
  expect(chainNow({ chainTime: 1000 }, 50_000, 40_000)).toBe(1000);
});

describe('local date-time input', () => {
  it('round-trips a Unix time to the second', () => {
    const t = 1_800_000_123;
    expect(fromLocalInput(toLocalInput(t))).toBe(t);
  });
  it('takes a time without seconds and refuses impossible dates', () => {
    expect(fromLocalInput('2027-01-04T15:00')).toBe(Math.floor(new Date(2027, 0, 4, 15, 0, 0).getTime() / 1000));
    expect(fromLocalInput('2027-02-30T10:00')).toBeNull();
    expect(fromLocalInput('tomorrow')).toBeNull();
  });
});

describe('filterOf', () => {
  it('turns what was typed into the request filter', () => {
    expect(filterOf({ minUptime: '95', maxFee: '5', minFree: '25.5', minDays: '0.5', node: ' P7oB ' })).toEqual({
      filter: { minUptime: 95, maxFee: 50_000, minFreeSpace: '25500000000', minRemainingSeconds: 43_200, nodeID: 'P7oB' },
      errors: {},
    });
  });
  it('leaves out, and names, the fields that do not parse', () => {
    const { filter, errors } = filterOf({ minUptime: 'high', maxFee: '', minFree: '1.0000000001', minDays: '-3', node: '' });
    expect(filter).toEqual({});
    expect(Object.keys(errors).sort()).toEqual(['minDays', 'minFree', 'minUptime']);
  });
  it('names a number of days no validator can have left (the background would refuse the whole list for it), and an overlong NodeID', () => {
    expect(filterOf({ minUptime: '', maxFee: '', minFree: '', minDays: '365', node: '' })).toEqual({ filter: { minRemainingSeconds: 365 * DAY }, errors: {} });
    expect(filterOf({ minUptime: '', maxFee: '', minFree: '', minDays: '400', node: 'x'.repeat(65) })).toEqual({
      filter: {},
      errors: { minDays: 'At most 365 days: no validator validates longer', node: 'A NodeID is shorter than that' },
    });
  });
});

describe('words', () => {
  const mine = { addresses: ['P-custom1abc'], threshold: 1, yours: true };
  const theirs = { addresses: ['P-custom1x', 'P-custom1y'], threshold: 2, yours: false };
  it('owners say whose they are', () => {
    expect(ownerText(mine)).toBe('P-custom1abc — yours');
    expect(ownerText(theirs)).toBe('P-custom1x, P-custom1y (2 of 2 must sign) — not yours');
  });
  it('arrivals say what, how much, when and to whom', () => {
    expect(arrivalText({ what: 'stake', amount: '25000000000', estimated: false, at: null, to: mine })).toBe('The stake, 25 AVAX, once the validation is stopped, to you');
    expect(arrivalText({ what: 'reward', amount: '7087', estimated: true, at: null, to: theirs })).toBe('The reward, about 0.000007087 AVAX, once the validation is stopped, to P-custom1x, P-custom1y (not yours)');
  });
  it('node IDs shortened as the screens name them', () => {
    expect(shortNode('NodeID-P7oB2McjBGgW2NXXWVYjV8JEDFoW9xDE5')).toBe('NodeID-P7oB…xDE5');
  });
  it('the CSV file name says what and when', () => {
    expect(csvFileName('rewards', new Date(2026, 10, 2, 9).getTime())).toBe('staking-rewards-2026-11-02.csv');
    expect(csvFileName('all', new Date(2026, 0, 31).getTime())).toBe('wallet-activity-2026-01-31.csv');
  });
});

it("Home's staked lines: the amount and when it comes back", () => {
  const row = { chain: 'P' as const, assetID: 'a', name: 'Avalanche', symbol: 'AVAX', denomination: 9, verified: true, spendable: '0', locked: '0', lockedStakeable: '0', unproven: '0' };
  expect(stakedLines(row)).toEqual([]);
  const lines = stakedLines({ ...row, staked: [{ amount: '25000000000', unlocksAt: 1_800_000_000 }, { amount: '2000000000000', unlocksAt: null }] });
  expect(lines[0]).toMatch(/^\+ 25 AVAX staked: back \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
  expect(lines[1]).toBe('+ 2,000 AVAX staked: back once the validation is stopped');
});

describe('staking refusals', () => {
  it("keep the background's sentence, which says what was asked and what is allowed", () => {
    const said = 'A delegation needs at least 25 AVAX; this one is 1 AVAX.';
    expect(plainError('staking-rule', said)).toEqual({ text: said });
    expect(plainError('no-validator', 'No validator can take 5,000,000 AVAX until 2027-01-04 15:00:20 UTC now while up and connected: try a smaller amount.').text).toMatch(/^No validator can take 5,000,000 AVAX/);
  });
  it('fall back to a fixed sentence if one ever carries an internal', () => {
    const plain = plainError('staking-rule', 'NodeID-P7oB2McjBGgW2NXXWVYjV8JEDFoW9xDE5 has 123456789012345 nAVAX of room');
    expect(plain.text).toBe("This stake breaks one of the network's staking rules, so nothing was signed.");
    expect(plain.detail).toContain('nAVAX');
  });
});

// The request log a re-sent site request is answered from (src/background/site-request-log.ts): what
// it keeps when it is trimmed decides whether a request the worker was acting on could be acted on again.
import { describe, expect, it } from 'vitest';
import { MAX_LOGGED_REQUESTS, MAX_RUNNING_LOGGED, withLoggedRequest, type LoggedRequest } from '../../src/background/site-request-log.js';

const HOUR = 3_600_000;
const done = (at: number): LoggedRequest => ({ state: 'done', response: { ok: true, result: at }, at });
const running = (at: number): LoggedRequest => ({ state: 'running', at });

/** The log after writing `entries` one after the other. */
function written(entries: [string, LoggedRequest][], start: Record<string, unknown> = {}): Record<string, LoggedRequest> {
  let log: Record<string, unknown> = start;
  for (const [key, entry] of entries) log = withLoggedRequest(log, key, entry);
  return log as Record<string, LoggedRequest>;
}

describe('the site request log', () => {
  it('keeps the newest written, whatever the clock says: an entry written after the clock went back is kept', () => {
    const now = 1_800_000_000_000;
    const before = Array.from({ length: MAX_LOGGED_REQUESTS }, (_, i): [string, LoggedRequest] => [`r${i}`, done(now + i)]);
    const log = written([...before, ['after-clock-went-back', done(now - HOUR)]]);
    expect(Object.keys(log)).toHaveLength(MAX_LOGGED_REQUESTS);
    expect(log['after-clock-went-back']).toMatchObject({ state: 'done', at: now - HOUR });
    // The first one written is the one that went.
    expect(log['r0']).toBeUndefined();
    expect(log['r1']).toBeDefined();
  });

  it('never lets finished requests push out one still running (it keeps a re-sent request from being acted on twice)', () => {
    const later = Array.from({ length: MAX_LOGGED_REQUESTS + 5 }, (_, i): [string, LoggedRequest] => [`later${i}`, done(i)]);
    const log = written([['acting', running(0)], ...later]);
    expect(log['acting']).toMatchObject({ state: 'running' });
    expect(Object.values(log).filter((e) => e.state === 'done')).toHaveLength(MAX_LOGGED_REQUESTS);
  });

  it('a request written again (running, then done) is one entry, at its newest place', () => {
    const log = written([['a', running(1)], ['b', done(2)], ['a', done(3)]]);
    expect(Object.keys(log).sort()).toEqual(['a', 'b']);
    expect(log['a']).toMatchObject({ state: 'done', at: 3 });
    expect(log['a']!.seq).toBeGreaterThan(log['b']!.seq!);
  });

  it(`keeps at most ${MAX_RUNNING_LOGGED} running and ${MAX_LOGGED_REQUESTS} finished`, () => {
    const many = Array.from({ length: 3 * MAX_RUNNING_LOGGED }, (_, i): [string, LoggedRequest] => [`k${i}`, i % 2 ? running(i) : done(i)]);
    const log = written(many);
    expect(Object.values(log).filter((e) => e.state === 'running')).toHaveLength(MAX_RUNNING_LOGGED);
    expect(Object.values(log).filter((e) => e.state === 'done')).toHaveLength(MAX_LOGGED_REQUESTS);
    // The newest of each: the last written are there, the first are not.
    expect(log[`k${3 * MAX_RUNNING_LOGGED - 1}`]).toMatchObject({ state: 'running' });
    expect(log[`k${3 * MAX_RUNNING_LOGGED - 2}`]).toMatchObject({ state: 'done' });
    expect(log['k1']).toBeUndefined();
    // Renumbered on every write: the numbers stay small.
    expect(Math.max(...Object.values(log).map((e) => e.seq!))).toBeLessThanOrEqual(MAX_RUNNING_LOGGED + MAX_LOGGED_REQUESTS + 1);
  });

  it('a stored order number that is huge, fractional or not a number cannot outrank what is written after it', () => {
    const poisoned = { big: { ...done(1), seq: Number.MAX_VALUE }, safe: { ...done(2), seq: 2 ** 53 }, nan: { ...done(3), seq: Number.NaN }, neg: { ...done(4), seq: -5 }, frac: { ...done(5), seq: 1.5 } };
    const later = Array.from({ length: MAX_LOGGED_REQUESTS }, (_, i): [string, LoggedRequest] => [`new${i}`, done(10 + i)]);
    const log = written(later, poisoned);
    expect(Object.keys(log).sort()).toEqual(later.map(([k]) => k).sort());
  });

  it('drops what corrupt storage holds instead of failing', () => {
    const corrupt = { a: null, b: 'text', c: { state: 'done' }, d: { state: 'other' }, e: done(5), f: { state: 'done', response: 7 } };
    const log = withLoggedRequest(corrupt, 'new', running(6));
    expect(Object.keys(log).sort()).toEqual(['e', 'new']);
  });
});

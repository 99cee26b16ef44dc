// The request log a re-sent site request is answered from (src/background/site-gate.ts): what it
// keeps when it is trimmed decides whether a request the worker was acting on could be acted on again.
import { describe, expect, it } from 'vitest';
import { MAX_LOGGED_REQUESTS, withLoggedRequest, type LoggedRequest } from '../../src/background/site-gate.js';

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

  it(`keeps at most ${MAX_LOGGED_REQUESTS} running and ${MAX_LOGGED_REQUESTS} finished`, () => {
    const many = Array.from({ length: 3 * MAX_LOGGED_REQUESTS }, (_, i): [string, LoggedRequest] => [`k${i}`, i % 2 ? running(i) : done(i)]);
    const log = Object.values(written(many));
    expect(log.filter((e) => e.state === 'running')).toHaveLength(MAX_LOGGED_REQUESTS);
    expect(log.filter((e) => e.state === 'done')).toHaveLength(MAX_LOGGED_REQUESTS);
  });

  it('drops what corrupt storage holds instead of failing', () => {
    const corrupt = { a: null, b: 'text', c: { state: 'done' }, d: { state: 'other' }, e: done(5), f: { state: 'done', response: 7 } };
    const log = withLoggedRequest(corrupt, 'new', running(6));
    expect(Object.keys(log).sort()).toEqual(['e', 'new']);
  });
});

// The sites' request log (storage.session, written by site-gate.ts): what an entry holds, and the
// log trimmed so finished requests never push out one the worker is still acting on.
import type { ProviderResponse } from '../shared/provider-protocol.js';

/** Answers kept for re-sent requests; bounded so storage.session (10 MB in Chrome) never fills. */
export const MAX_LOGGED_REQUESTS = 20;
/**
 * Requests still being acted on that the log keeps: more than can be approved and acting at once
 * (the approval queue remembers 50 decisions), so none is pushed out while it acts.
 */
export const MAX_RUNNING_LOGGED = 100;

export interface LoggedRequest {
  state: 'running' | 'done';
  response?: ProviderResponse;
  at: number;
  /** Order of writing, newest highest: what the log is trimmed by (the clock can go back). */
  seq?: number;
}

/** An entry as the log writes it: anything else read back (corrupt storage) counts as none. */
export function isLoggedRequest(value: unknown): value is LoggedRequest {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Partial<LoggedRequest>;
  if (v.state === 'running') return true;
  return v.state === 'done' && typeof v.response === 'object' && v.response !== null && typeof v.response.ok === 'boolean';
}

/**
 * The log with `entry` written under `key`, trimmed: the newest MAX_LOGGED_REQUESTS finished
 * requests, and up to MAX_RUNNING_LOGGED still running. A running entry is what keeps a request
 * the worker was acting on from being acted on again when it is re-sent, so finished ones never
 * push it out. Entries are ordered by when they were written, never by the clock.
 */
export function withLoggedRequest(log: Record<string, unknown>, key: string, entry: LoggedRequest): Record<string, LoggedRequest> {
  // What storage held, oldest first (a seq that is not a positive safe integer counts as oldest), then
  // the new entry; renumbered 1… in that order, so no stored value can outrank a new entry.
  const seqOf = (e: LoggedRequest): number => (Number.isSafeInteger(e.seq) && e.seq! > 0 ? e.seq! : 0);
  const oldestFirst = Object.entries(log)
    .filter((e): e is [string, LoggedRequest] => isLoggedRequest(e[1]) && e[0] !== key)
    .sort((a, b) => seqOf(a[1]) - seqOf(b[1]));
  oldestFirst.push([key, entry]);
  const newestFirst = oldestFirst.map(([k, e], i): [string, LoggedRequest] => [k, { ...e, seq: i + 1 }]).reverse();
  const running = newestFirst.filter(([, e]) => e.state === 'running').slice(0, MAX_RUNNING_LOGGED);
  const done = newestFirst.filter(([, e]) => e.state === 'done').slice(0, MAX_LOGGED_REQUESTS);
  return Object.fromEntries([...running, ...done]);
}

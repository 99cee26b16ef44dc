// The node's health in one place, above every screen: reachable (no banner), slow (a refresh has
// waited too long for an answer) or unreachable (refreshes fail), each with since when and the age
// of the balances on screen. Its text changes only when the state does, so a screen reader is told
// once, not every few seconds.
import { useEffect, useState } from 'preact/hooks';
import { type PlainError, plainError } from '../errors.js';
import { ErrorDetail } from './Field.js';
import { formatSince } from '../format.js';
import type { BalancesView } from '../../shared/messages.js';

/** A refresh waiting this long for the node is called slow. */
export const SLOW_AFTER_MS = 10_000;

export type NodeHealth =
  | { state: 'ok' }
  | { state: 'slow'; since: number }
  | { state: 'unreachable'; since: number; text: string; detail?: string }
  /** The refresh failed for a reason of the wallet's own (unreadable storage, a bug): not the node's. */
  | { state: 'failing'; since: number; text: string; detail?: string };

/**
 * What avalanchego answers (HTTP 503, plain text) for a chain still bootstrapping or state-syncing:
 * the node is up, so "can't be reached" would send the user to check an address that is right.
 */
const BOOTSTRAPPING = /not done bootstrapping/i;
const SYNCING = 'The node is still catching up with the network (bootstrapping): it cannot give balances or take transactions until it has.';

/** The sentence for a node still bootstrapping, when the failure's own words say it is. */
export function stillSyncing(message: string | undefined): string | undefined {
  return message !== undefined && BOOTSTRAPPING.test(message) ? SYNCING : undefined;
}

/** The failure in words, a node still bootstrapping told apart from one that cannot be reached. */
export function nodeFailure(code: string, message: string): PlainError {
  const syncing = stillSyncing(message);
  return syncing ? { text: syncing, detail: message } : plainError(code, message);
}

/** The node itself did not answer, or not in a way that could be believed. */
const NODE_CODES = new Set(['node-unreachable', 'timeout', 'node-response', 'codec', 'format', 'rpc', 'network-mismatch', 'node-behind']);

/** What the balances snapshot says of the node at `now`. */
export function nodeHealth(view: BalancesView | null, now: number): NodeHealth {
  if (!view) return { state: 'ok' };
  if (view.refreshing && view.refreshStartedAt !== undefined && now - view.refreshStartedAt >= SLOW_AFTER_MS) {
    // Already failing: still unreachable while the retry hangs.
    if (!view.error) return { state: 'slow', since: view.refreshStartedAt };
  }
  if (view.error) {
    const plain = nodeFailure(view.errorCode ?? '', view.error);
    // Snapshots from before error codes existed carry none: their failure was the node's.
    const state = view.errorCode === undefined || NODE_CODES.has(view.errorCode) ? 'unreachable' : 'failing';
    return { state, since: view.failingSince ?? view.updatedAt, text: plain.text, ...(plain.detail ? { detail: plain.detail } : {}) };
  }
  return { state: 'ok' };
}

/** The time, re-read every `ms` (a fixed one for tests): "slow" and "2 min ago" stay true without a new snapshot. */
export function useTick(ms: number, fixed?: number): number {
  const [now, setNow] = useState(() => fixed ?? Date.now());
  useEffect(() => {
    if (fixed !== undefined) return;
    const timer = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(timer);
  }, [ms, fixed]);
  return fixed ?? now;
}

export function NodeBanner({ view, now: fixedNow }: { view: BalancesView | null; now?: number }) {
  const now = useTick(2000, fixedNow);
  const health = nodeHealth(view, now);
  if (health.state === 'ok' || !view) return null;
  const age = view.updatedAt > 0 ? ` Balances shown are from ${formatSince(view.updatedAt, now)}.` : ' No balances could be loaded yet.';
  if (health.state === 'slow') {
    return (
      <div class="node-banner warn" role="status" data-testid="node-banner" data-state="slow">
        <p>
          <strong>The node is slow.</strong> A refresh started at {formatSince(health.since, now)} is still waiting for it.{age}
        </p>
      </div>
    );
  }
  return (
    <div class="node-banner error" role="alert" data-testid="node-banner" data-state={health.state}>
      <p>
        <strong>{health.state === 'failing' ? `The balances could not be updated: ${health.text}` : health.text}</strong> Since {formatSince(health.since, now)}.{age}
      </p>
      <ErrorDetail detail={health.detail} about="of the node's failure" />
    </div>
  );
}

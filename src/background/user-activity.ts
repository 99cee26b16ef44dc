// What counts as the user doing something, for the idle lock: only requests from the wallet's own
// pages that passed the sender check and validation, and of those not the ones an open popup or
// approval window makes on its own timer. Site requests never reach this (they go to the provider),
// so no page can keep the wallet unlocked.
import type { Session } from './session.js';

/**
 * Requests an open popup makes on its own, on a timer (is it still unlocked? has the refresh or the
 * move got further?): they are not the user doing something, so they never keep the wallet from
 * locking when idle.
 */
export const PASSIVE_REQUESTS: ReadonlySet<string> = new Set([
  'wallet.status',
  'wallet.open',
  'balances.get',
  'activity.list',
  'transfers.list',
  'approvals.list',
  'approvals.waiting',
  // Re-asked whenever the balances change, typed or not.
  'send.estimate',
  'transfers.estimate',
]);

/** The router's onValidRequest: lock if idle, else count the request as the user's activity unless passive. */
export function userActivity(session: Pick<Session, 'isUnlocked' | 'checkIdle' | 'touch'>): (type: string) => Promise<void> {
  return async (type) => {
    if (!session.isUnlocked()) return;
    if (!(await session.checkIdle()) && !PASSIVE_REQUESTS.has(type)) await session.touch();
  };
}

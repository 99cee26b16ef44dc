// Shared by approval.test.tsx, approval-messages.test.tsx and approval-decisions.test.tsx: approval
// views and summaries, and a fake background holding a queue of them.
import type { ApprovalSummary, ApprovalView } from '../../../src/shared/messages.js';
import { fakeBackground } from './fake-background.js';
import { C_ADDR, P_ADDR, UNLOCKED, X_ADDR } from './fixtures.js';

export function connect(accounts: string[] = [C_ADDR, X_ADDR, P_ADDR]): ApprovalSummary {
  return { kind: 'connect', accountName: 'Account 1', accounts };
}

export function approval(n: number, summary: ApprovalSummary, extra: Partial<ApprovalView> = {}): ApprovalView {
  return { id: n.toString(16).padStart(24, '0'), origin: `https://site${n}.example`, method: 'avax_sendTransaction', createdAt: Date.UTC(2026, 0, 2, 3, 4, 5), summary, ...extra };
}

/** A background holding `list`; a decision removes the request from it. */
export function queue(list: ApprovalView[]) {
  const pending = [...list];
  const bg = fakeBackground({
    'wallet.status': () => UNLOCKED,
    'approvals.list': () => ({ approvals: [...pending] }),
    'approvals.decide': (p) => {
      const i = pending.findIndex((a) => a.id === p.id);
      if (i >= 0) pending.splice(i, 1);
      return { ok: true };
    },
  });
  return { ...bg, pending };
}

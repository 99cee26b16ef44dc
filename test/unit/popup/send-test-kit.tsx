// The Send screen's test bench: typing into a field and reading its error, a background that
// estimates fees as the real one does, the screen rendered over it, and Review once it can be pressed.
import { fireEvent, screen, waitFor } from '@testing-library/preact';
import { expect, vi } from 'vitest';
import { Send } from '../../../src/popup/screens/Send.js';
import type { ActivityItem, BalancesView, RequestParams } from '../../../src/shared/messages.js';
import { fakeBackground, type Handlers, Refuse, renderWith } from './fake-background.js';
import { AVAX_ID, balances, HRP, UNLOCKED } from './fixtures.js';

export function type(label: string | RegExp, value: string) {
  fireEvent.input(screen.getByLabelText(label), { target: { value } });
}

export function errorOf(label: RegExp | string): string {
  const ids = screen.getByLabelText(label).getAttribute('aria-describedby')?.split(' ') ?? [];
  return ids.map((id) => document.getElementById(id)).find((el) => el?.classList.contains('field-error'))?.textContent ?? '';
}

export const X_FEE = 1_000_000n;
export const C_MAX_FEE = 21_000n * 50_000_000_000n; // 21000 gas × 50 gwei

/**
 * A background that estimates like the real one: X 0.001 AVAX fixed; P 0.00025 AVAX, or 0.0003
 * when the amount needs a second input (above 4 AVAX); C 21000 × 50 gwei at most. Not enough
 * funds: refused as the real one refuses.
 */
export function estimator(view: BalancesView) {
  const spendableOf = (chain: string, assetID = AVAX_ID) => BigInt(view.balances.find((b) => b.chain === chain && b.assetID === assetID)?.spendable ?? '0');
  const refuse = (need: bigint, have: bigint) => {
    throw new Refuse({ code: 'insufficient-funds', message: `insufficient funds of AVAX: need ${need}, spendable ${have}` });
  };
  return (p: RequestParams<'send.estimate'>) => {
    if (p.chain === 'C') {
      const have = spendableOf('C');
      if (BigInt(p.amountWei) + C_MAX_FEE > have) refuse(BigInt(p.amountWei) + C_MAX_FEE, have);
      return { fee: C_MAX_FEE.toString(), maxAmount: (have - C_MAX_FEE).toString() };
    }
    if (p.chain === 'P') {
      const have = spendableOf('P');
      const fee = BigInt(p.amount) > 4_000_000_000n ? 300_000n : 250_000n;
      if (BigInt(p.amount) + fee > have) refuse(BigInt(p.amount) + fee, have);
      return { fee: fee.toString(), maxAmount: (have - 300_000n).toString() };
    }
    const have = spendableOf('X', p.assetID);
    const isAvax = p.assetID === AVAX_ID;
    if (BigInt(p.amount) + (isAvax ? X_FEE : 0n) > have) refuse(BigInt(p.amount), have);
    return { fee: X_FEE.toString(), maxAmount: (isAvax ? have - X_FEE : have).toString() };
  };
}

export function setup(handlers: Handlers, view: BalancesView = balances(), items: ActivityItem[] = [], hidden: ReadonlySet<string> = new Set()) {
  const activity = [...items];
  const bg = fakeBackground({
    'activity.list': () => ({ items: activity }),
    'balances.get': () => view,
    'send.estimate': estimator(view),
    ...handlers,
  });
  const onSent = vi.fn();
  renderWith(bg, <Send status={UNLOCKED} hrp={HRP} balances={view} hidden={hidden} onSent={onSent} estimateDelayMs={0} />);
  return { bg, onSent, activity };
}

export function reviewButton(): HTMLButtonElement {
  return screen.getByRole('button', { name: 'Review' }) as HTMLButtonElement;
}

/** Review, once the form allows it (its estimate answered). */
export async function clickReview(): Promise<void> {
  await waitFor(() => expect(reviewButton().disabled).toBe(false));
  fireEvent.click(reviewButton());
}

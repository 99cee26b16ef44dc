// @vitest-environment happy-dom
// The Send screen's review: its names, the account that pays, a send to the wallet's own address,
// and a review that belongs to exactly the inputs it was estimated for.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiContext, makeCall } from '../../../src/popup/api.js';
import { Send } from '../../../src/popup/screens/Send.js';
import type { BalancesView, RequestParams } from '../../../src/shared/messages.js';
import { fakeBackground } from './fake-background.js';
import { clickConfirm } from './confirm.js';
import { ACCOUNT, avax, balances, C_OTHER, HRP, P_OTHER, UNLOCKED, X_ADDR, X_OTHER } from './fixtures.js';
import { clickReview, estimator, reviewButton, setup, type } from './send-test-kit.js';

afterEach(cleanup);

describe('Send: the review read by name', () => {
  it('an amount rounded on screen (wei past the nAVAX) gives its toggles distinct names: Amount, Amount + fee, Arrives', async () => {
    setup({});
    fireEvent.click(screen.getByRole('radio', { name: 'C-Chain' }));
    type(/^To/, C_OTHER);
    type('Amount (AVAX)', '0.1234567891');
    await clickReview();
    const review = await screen.findByTestId('review');
    const names = within(review).getAllByRole('button').map((b) => b.getAttribute('aria-label') ?? b.textContent);
    expect(new Set(names).size).toBe(names.length);
    expect(within(review).getByRole('button', { name: /^Arrives: ≈ 0\.123456789 AVAX \(exactly 0\.1234567891 AVAX\)$/ })).toBeTruthy();
  });
});

describe('Send: which account pays', () => {
  it('the review names the account sending, not only "your account" (a wallet may hold several)', async () => {
    setup({});
    fireEvent.click(screen.getByRole('radio', { name: 'P-Chain' }));
    type(/^To/, P_OTHER);
    type('Amount (AVAX)', '1');
    await clickReview();
    await screen.findByRole('heading', { name: 'Review' });
    expect(screen.getByTestId('review-from').textContent).toBe(`${ACCOUNT.name}, on the P-Chain`);
  });
});

describe("Send: to the wallet's own address", () => {
  it('says so at the address and on the review (the amount stays, only the fee is spent); another address gets no such note', async () => {
    setup({});
    type(/^To/, X_ADDR);
    type('Amount (AVAX)', '1');
    expect(screen.getByText('This is your own address: what you send stays in this account, and only the fee is spent.')).toBeTruthy();
    await clickReview();
    await screen.findByRole('heading', { name: 'Review' });
    expect(screen.getByTestId('review-own').textContent).toBe('This is your own address: what you send stays in this account, and only the fee is spent.');
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    type(/^To/, X_OTHER);
    expect(screen.queryByText(/your own address/)).toBeNull();
    await clickReview();
    await screen.findByRole('heading', { name: 'Review' });
    expect(screen.queryByTestId('review-own')).toBeNull();
  });
});

const settle = () => new Promise((r) => setTimeout(r, 20));

/** Send over `bg` with the default balances; the returned function renders it again with a new snapshot (a refresh). */
function renderRefreshable(bg: ReturnType<typeof fakeBackground>): (view: BalancesView) => void {
  const call = makeCall(bg.send);
  const ui = (view: BalancesView) => (
    <ApiContext.Provider value={call}>
      <Send status={UNLOCKED} hrp={HRP} balances={view} onSent={() => undefined} estimateDelayMs={0} />
    </ApiContext.Provider>
  );
  const { rerender } = render(ui(balances()));
  return (view) => rerender(ui(view));
}

/** The estimator, with the answer to the next estimate once armed (the one Review asks for) held until released. */
function holdNext(view: BalancesView) {
  const normal = estimator(view);
  let armed = false;
  let release = () => {};
  return {
    arm: () => void (armed = true),
    release: () => release(),
    handler: async (p: RequestParams<'send.estimate'>) => {
      if (armed) {
        armed = false;
        await new Promise<void>((r) => (release = r));
      }
      return normal(p);
    },
  };
}

describe('Send: a review belongs to exactly the inputs it was estimated for', () => {
  it('a chain switch while the review is estimated: the old answer opens nothing, and the new review has its own fee', async () => {
    const view = balances();
    const held = holdNext(view);
    const { bg } = setup({ 'send.estimate': held.handler, 'send.p': () => ({ txID: 'ptx', fee: '250000' }) }, view);
    fireEvent.click(screen.getByRole('radio', { name: 'C-Chain' }));
    type(/^To/, C_OTHER);
    type('Amount (AVAX)', '0.5');
    await waitFor(() => expect(reviewButton().disabled).toBe(false));
    held.arm();
    fireEvent.click(reviewButton());
    await screen.findByRole('button', { name: 'Estimating the fee…' });
    fireEvent.click(screen.getByRole('radio', { name: 'P-Chain' }));
    type(/^To/, P_OTHER);
    type('Amount (AVAX)', '0.5');
    await waitFor(() => expect(screen.getByTestId('fee-line').textContent).toContain('exactly'));
    // The C-Chain's answer (a wei ceiling) arrives: no review opens, with its fee or any other.
    held.release();
    await settle();
    expect(screen.queryByTestId('review-fee')).toBeNull();
    fireEvent.click(reviewButton());
    expect((await screen.findByTestId('review-fee')).textContent).toBe('0.00025 AVAX');
    await clickConfirm();
    await waitFor(() => expect(bg.callsOf('send.p')).toEqual([{ amount: '500000000', to: { addresses: [P_OTHER], threshold: 1 }, maxFee: '250000' }]));
  });

  it('typing while the review is estimated drops it: the answer opens nothing, even with the inputs typed back', async () => {
    const view = balances();
    const held = holdNext(view);
    setup({ 'send.estimate': held.handler }, view);
    type(/^To/, X_OTHER);
    type('Amount (AVAX)', '1');
    await waitFor(() => expect(reviewButton().disabled).toBe(false));
    held.arm();
    fireEvent.click(reviewButton());
    await screen.findByRole('button', { name: 'Estimating the fee…' });
    type('Amount (AVAX)', '2');
    await settle();
    held.release();
    await settle();
    expect(screen.queryByTestId('review-amount')).toBeNull();

    held.arm();
    fireEvent.click(reviewButton());
    await screen.findByRole('button', { name: 'Estimating the fee…' });
    type('Amount (AVAX)', '3');
    await settle();
    type('Amount (AVAX)', '2');
    await settle();
    held.release();
    await settle();
    expect(screen.queryByTestId('review-amount')).toBeNull();
    expect(screen.getByRole('heading', { name: 'Send' })).toBeTruthy();
  });

  it('a review the form can no longer send (the balance fell) goes back to the form, and does not come back by itself', async () => {
    const bg = fakeBackground({ 'send.estimate': estimator(balances()) });
    const refresh = renderRefreshable(bg);
    type(/^To/, X_OTHER);
    type('Amount (AVAX)', '10');
    await clickReview();
    await screen.findByTestId('review-amount');
    refresh(balances({ balances: [avax('X', '5000000000'), avax('P', '0'), avax('C', '0')] }));
    await screen.findByRole('heading', { name: 'Send' });
    refresh(balances());
    await settle();
    expect(screen.queryByTestId('review-amount')).toBeNull();
    expect(screen.getByRole('heading', { name: 'Send' })).toBeTruthy();
  });

  it('a send under way stays on its review while a refresh makes the form not ready (the funds it spends gone): no second send can be started', async () => {
    let finish: (v: { txID: string; fee: string }) => void = () => undefined;
    const bg = fakeBackground({ 'send.estimate': estimator(balances()), 'send.x': () => new Promise((r) => (finish = r)), 'activity.list': () => ({ items: [] }) });
    const refresh = renderRefreshable(bg);
    type(/^To/, X_OTHER);
    type('Amount (AVAX)', '10');
    await clickReview();
    await clickConfirm();
    await waitFor(() => expect(bg.callsOf('send.x')).toHaveLength(1));
    // The refresh after the send's inputs were spent: 10 AVAX no longer fits.
    refresh(balances({ balances: [avax('X', '2000000000'), avax('P', '0'), avax('C', '0')] }));
    await settle();
    expect(screen.queryByRole('button', { name: 'Review' })).toBeNull();
    expect(screen.getByTestId('review-amount').textContent).toContain('10 AVAX');
    finish({ txID: 'xtx', fee: '1000000' });
    await screen.findByRole('heading', { name: 'Sent' });
    expect(bg.callsOf('send.x')).toHaveLength(1);
  });

  it('a memo holding characters that hide or reorder text is reviewed with them as codes, and said so; a plain one as typed', async () => {
    for (const [typed, shown] of [
      ['tag\u202E321', 'tag\\u202e321 (hidden characters shown as codes)'],
      ['a\u200Bb\u{E0041}', 'a\\u200bb\\u{e0041} (hidden characters shown as codes)'],
      // A code typed as text beside a hidden character: its backslash written twice, never read as that character's code.
      ['a\\u200bb\u200C', 'a\\\\u200bb\\u200c (hidden characters shown as codes)'],
      ['exchange-tag-123', 'exchange-tag-123'],
      ['12  3\\n', '12  3\\n'],
    ]) {
      setup({});
      type(/^Memo/, typed!);
      type(/^To/, X_OTHER);
      type('Amount (AVAX)', '0.5');
      await clickReview();
      const memo = await screen.findByTestId('review-memo');
      expect(memo.textContent).toContain(shown);
      // Shown with its spaces as typed, and broken anywhere rather than running off the popup.
      expect(memo.className).toContain('break');
      expect(memo.querySelector('.keep-spaces')).not.toBeNull();
      cleanup();
    }
  });

  it('a memo typed for X is not on a C-Chain review (C sends carry none)', async () => {
    setup({});
    type(/^Memo/, 'exchange-tag-123');
    fireEvent.click(screen.getByRole('radio', { name: 'C-Chain' }));
    type(/^To/, C_OTHER);
    type('Amount (AVAX)', '0.5');
    await clickReview();
    await screen.findByTestId('review-amount');
    expect(screen.queryByText('Memo (public)')).toBeNull();
    expect(screen.queryByText('exchange-tag-123')).toBeNull();
  });
});

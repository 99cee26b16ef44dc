// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiContext, makeCall } from '../../../src/popup/api.js';
import { Send } from '../../../src/popup/screens/Send.js';
import type { ActivityItem, BalancesView, RequestParams } from '../../../src/shared/messages.js';
import { fakeBackground, type Handlers, Refuse, renderWith } from './fake-background.js';
import { clickConfirm } from './confirm.js';
import { ACCOUNT, avax, AVAX_ID, balances, C_OTHER, FAKE_ID, HRP, P_ADDR, P_OTHER, UNLOCKED, X_ADDR, X_OTHER } from './fixtures.js';

afterEach(cleanup);

function type(label: string | RegExp, value: string) {
  fireEvent.input(screen.getByLabelText(label), { target: { value } });
}

function errorOf(label: RegExp | string): string {
  const ids = screen.getByLabelText(label).getAttribute('aria-describedby')?.split(' ') ?? [];
  return ids.map((id) => document.getElementById(id)).find((el) => el?.classList.contains('field-error'))?.textContent ?? '';
}

function maxButton(): HTMLButtonElement {
  return screen.getByRole('button', { name: /^Max/ }) as HTMLButtonElement;
}

const X_FEE = 1_000_000n;
const C_MAX_FEE = 21_000n * 50_000_000_000n; // 21000 gas × 50 gwei

/**
 * A background that estimates like the real one: X 0.001 AVAX fixed; P 0.00025 AVAX, or 0.0003
 * when the amount needs a second input (above 4 AVAX); C 21000 × 50 gwei at most. Not enough
 * funds: refused as the real one refuses.
 */
function estimator(view: BalancesView) {
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

function setup(handlers: Handlers, view: BalancesView = balances(), items: ActivityItem[] = []) {
  const activity = [...items];
  const bg = fakeBackground({
    'activity.list': () => ({ items: activity }),
    'balances.get': () => view,
    'send.estimate': estimator(view),
    ...handlers,
  });
  const onSent = vi.fn();
  renderWith(bg, <Send status={UNLOCKED} hrp={HRP} balances={view} onSent={onSent} estimateDelayMs={0} />);
  return { bg, onSent, activity };
}

describe('Send', () => {
  it('sends X-Chain AVAX with a memo: the exact fee before the review, Max from the estimate, status until accepted', async () => {
    const { bg, onSent, activity } = setup({
      'send.x': () => {
        activity.unshift({ txID: 'newtx', chain: 'X', kind: 'send', status: 'accepted', fee: '1000000', createdAt: 2 });
        return { txID: 'newtx', fee: '1000000' };
      },
    });
    // Before anything is typed: the fee of a send to the wallet's own address, and Max.
    await waitFor(() => expect(screen.getByTestId('fee-line').textContent).toBe('0.001 AVAX (fixed on the X-Chain)'));
    expect(bg.callsOf('send.estimate')[0]).toEqual({ chain: 'X', assetID: AVAX_ID, amount: '1', to: { addresses: [ACCOUNT.xAddress], threshold: 1 } });
    type(/^To/, P_ADDR);
    expect(errorOf(/^To/)).toBe('This is a P-Chain address; an X-Chain address is needed here');
    expect((screen.getByRole('button', { name: 'Review' }) as HTMLButtonElement).disabled).toBe(true);
    type(/^To/, X_OTHER);
    type('Amount (AVAX)', '12');
    expect(errorOf('Amount (AVAX)')).toBe('With the fee of 0.001 AVAX this is more than you can spend; at most 11.999 AVAX');
    fireEvent.click(maxButton());
    expect((screen.getByLabelText('Amount (AVAX)') as HTMLInputElement).value).toBe('11.999');
    type('Amount (AVAX)', '1.5');
    type(/^Memo/, 'rent');
    const exact = { chain: 'X', assetID: AVAX_ID, amount: '1500000000', to: { addresses: [X_OTHER], threshold: 1 }, memo: 'rent' };
    await waitFor(() => expect(screen.getByTestId('fee-line').textContent).toBe('0.001 AVAX, exactly (this transaction, built but not signed)'));
    expect(bg.callsOf('send.estimate')).toContainEqual(exact);

    const before = bg.callsOf('send.estimate').length;
    fireEvent.click(screen.getByRole('button', { name: 'Review' }));
    await screen.findByRole('heading', { name: 'Review' });
    // The review asked once more, for exactly what it shows.
    expect(bg.callsOf('send.estimate').slice(before)).toEqual([exact]);
    expect(screen.getByTestId('review-amount').textContent).toBe('1.5 AVAX');
    expect(screen.getByTestId('review-to').textContent).toBe(X_OTHER);
    expect(screen.getByTestId('review-fee').textContent).toBe('0.001 AVAX');
    expect(screen.getByTestId('review-total').textContent).toBe('1.501 AVAX');
    expect(bg.callsOf('send.x')).toEqual([]);

    await clickConfirm();
    await waitFor(() => expect(screen.getByTestId('tx-status').textContent).toBe('Accepted by the X-Chain'));
    // The reviewed fee is the most the background may sign for.
    expect(bg.callsOf('send.x')).toEqual([{ assetID: AVAX_ID, amount: '1500000000', to: { addresses: [X_OTHER], threshold: 1 }, memo: 'rent', maxFee: '1000000' }]);
    // Sent with the account and network it was reviewed on: the background refuses it if either changed.
    expect(bg.calls.find((m) => m.type === 'send.x')?.selection).toEqual({ accountId: UNLOCKED.account!.id, networkId: UNLOCKED.network.id });
    expect(screen.getByText('newtx')).toBeTruthy();
    expect(screen.getByText('0.001 AVAX')).toBeTruthy();
    expect(onSent).toHaveBeenCalled();
  });

  it('sends another X asset: its ID is shown, Max is its whole balance, and the fee (in AVAX) is not added to it', async () => {
    const gold = { ...avax('X', '250'), assetID: FAKE_ID, name: 'Gold', symbol: 'GOLD', denomination: 2, verified: false };
    const { bg } = setup({ 'send.x': () => ({ txID: 't', fee: '1000000' }) }, balances({ balances: [avax('X', '5000000000'), gold, avax('P', '0'), avax('C', '0')] }));
    fireEvent.change(screen.getByLabelText('Asset'), { target: { value: FAKE_ID } });
    expect(screen.getByText('ID 2fombhL7aG…JyFDbe')).toBeTruthy();
    type(/^To/, X_OTHER);
    await waitFor(() => expect(maxButton().disabled).toBe(false));
    expect(maxButton().getAttribute('aria-label')).toBe('Max: The fee is paid in AVAX');
    fireEvent.click(maxButton());
    expect((screen.getByLabelText('Amount (GOLD)') as HTMLInputElement).value).toBe('2.5');
    fireEvent.click(screen.getByRole('button', { name: 'Review' }));
    await clickConfirm();
    expect(screen.getByTestId('review-fee').textContent).toBe('0.001 AVAX');
    expect(screen.queryByTestId('review-total')).toBeNull();
    await waitFor(() => expect(bg.callsOf('send.x')).toHaveLength(1));
    expect(bg.callsOf('send.x')[0]).toEqual({ assetID: FAKE_ID, amount: '250', to: { addresses: [X_OTHER], threshold: 1 }, maxFee: '1000000' });
  });

  it('another X asset without the AVAX for its fee: said of the fee, in AVAX, not of the amount; and no review', async () => {
    const gold = { ...avax('X', '250'), assetID: FAKE_ID, name: 'Gold', symbol: 'GOLD', denomination: 2, verified: false };
    setup(
      {
        // As the background refuses it (FeeFundsError): the fee's AVAX is short, named by the field.
        'send.estimate': () => {
          throw new Refuse({ code: 'insufficient-funds', message: 'insufficient funds of AVAX for the network fee: need 1000000, spendable 0', field: 'fee' });
        },
      },
      balances({ balances: [avax('X', '0'), gold, avax('P', '0'), avax('C', '0')] }),
    );
    fireEvent.change(screen.getByLabelText('Asset'), { target: { value: FAKE_ID } });
    type(/^To/, X_OTHER);
    type('Amount (GOLD)', '1');
    expect((await screen.findByRole('alert')).textContent).toBe('The network fee is paid in AVAX, and your AVAX on this chain does not cover it.');
    expect(errorOf('Amount (GOLD)')).toBe('');
    expect(reviewButton().disabled).toBe(true);
  });

  it('sends P-Chain AVAX: an approximate fee until the amount is known, then the exact one', async () => {
    const { bg } = setup({ 'send.p': () => ({ txID: 'ptx', fee: '300000' }) });
    fireEvent.click(screen.getByRole('radio', { name: 'P-Chain' }));
    await waitFor(() => expect(screen.getByTestId('fee-line').textContent).toBe('about 0.00025 AVAX; exact once the amount and address are filled in'));
    expect(bg.callsOf('send.estimate').at(-1)).toEqual({ chain: 'P', amount: '1', to: { addresses: [ACCOUNT.pAddress], threshold: 1 } });
    fireEvent.click(maxButton());
    expect((screen.getByLabelText('Amount (AVAX)') as HTMLInputElement).value).toBe('4.9997');
    type(/^To/, P_OTHER);
    type('Amount (AVAX)', '4.5');
    await waitFor(() => expect(screen.getByTestId('fee-line').textContent).toBe('0.0003 AVAX, exactly (this transaction, built but not signed)'));
    fireEvent.click(screen.getByRole('button', { name: 'Review' }));
    await screen.findByRole('heading', { name: 'Review' });
    expect(screen.getByTestId('review-fee').textContent).toBe('0.0003 AVAX');
    expect(screen.getByTestId('review-total').textContent).toBe('4.5003 AVAX');
    await clickConfirm();
    await waitFor(() => expect(bg.callsOf('send.p')).toEqual([{ amount: '4500000000', to: { addresses: [P_OTHER], threshold: 1 }, maxFee: '300000' }]));
    expect(await screen.findByText('0.0003 AVAX')).toBeTruthy();
  });

  it('a memo too long for X does not block a P send (no memo field there), and is kept for X', async () => {
    const { bg } = setup({ 'send.p': () => ({ txID: 'ptx', fee: '250000' }) });
    type(/^Memo/, 'm'.repeat(300));
    fireEvent.click(screen.getByRole('radio', { name: 'P-Chain' }));
    fireEvent.click(screen.getByRole('radio', { name: 'X-Chain' }));
    expect(errorOf(/^Memo/)).toBe('A memo holds at most 256 bytes; this one is 300');
    fireEvent.click(screen.getByRole('radio', { name: 'P-Chain' }));
    type(/^To/, P_OTHER);
    type('Amount (AVAX)', '1');
    await waitFor(() => expect((screen.getByRole('button', { name: 'Review' }) as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByRole('button', { name: 'Review' }));
    await clickConfirm();
    await waitFor(() => expect(bg.callsOf('send.p')).toEqual([{ amount: '1000000000', to: { addresses: [P_OTHER], threshold: 1 }, maxFee: '250000' }]));
  });

  it('keeps Max disabled and says why when no estimate can be had, and asks nothing with nothing to send', async () => {
    const { bg } = setup(
      {
        'send.estimate': () => {
          throw new Refuse({ code: 'node-unreachable', message: 'node at http://127.0.0.1:9650 is unreachable: connection refused' });
        },
      },
      balances({ balances: [avax('X', '12000000000'), avax('P', '0'), avax('C', '0')] }),
    );
    // In plain words: no URL in the sentence.
    await waitFor(() => expect(screen.getByTestId('fee-line').textContent).toBe("The node can't be reached. Check that it is running and that its address in Settings is right."));
    expect(maxButton().disabled).toBe(true);
    expect(maxButton().getAttribute('aria-label')).toBe('Max: Max needs a fee estimate, and none is available now');
    const asked = bg.callsOf('send.estimate').length;
    fireEvent.click(screen.getByRole('radio', { name: 'P-Chain' }));
    expect(maxButton().disabled).toBe(true);
    await new Promise((r) => setTimeout(r, 20));
    expect(bg.callsOf('send.estimate')).toHaveLength(asked);
  });

  it('sends C-Chain AVAX in wei to a checksummed 0x address: the most the fee can be, then what was paid', async () => {
    const { bg } = setup({ 'send.c': () => ({ txHash: '0xabc', fee: '525000000000000' }) });
    fireEvent.click(screen.getByRole('radio', { name: 'C-Chain' }));
    await waitFor(() => expect(screen.getByTestId('fee-line').textContent).toBe('at most 0.00105 AVAX (21,000 gas at the current max fee per gas; usually less is paid)'));
    type(/^To/, C_OTHER.toLowerCase());
    fireEvent.click(maxButton());
    expect((screen.getByLabelText('Amount (AVAX)') as HTMLInputElement).value).toBe('1.49895');
    await waitFor(() => expect(bg.callsOf('send.estimate')).toContainEqual({ chain: 'C', to: C_OTHER, amountWei: '1498950000000000000' }));
    fireEvent.click(screen.getByRole('button', { name: 'Review' }));
    await screen.findByRole('heading', { name: 'Review' });
    expect(screen.getByTestId('review-total').textContent).toBe('at most 1.5 AVAX');
    await clickConfirm();
    await waitFor(() => expect(bg.callsOf('send.c')).toEqual([{ to: C_OTHER, amountWei: '1498950000000000000', maxFeeWei: C_MAX_FEE.toString() }]));
    expect(await screen.findByText('0xabc')).toBeTruthy();
    // Paid: 21000 gas × 25 gwei, in wei.
    expect(screen.getByText('0.000525 AVAX')).toBeTruthy();
  });

  it('shows a refusal for lack of funds on the amount, and does not review it', async () => {
    setup({}, balances({ balances: [avax('X', '0'), avax('P', '4000300000'), avax('C', '0')] }));
    fireEvent.click(screen.getByRole('radio', { name: 'P-Chain' }));
    type(/^To/, P_OTHER);
    await waitFor(() => expect(screen.getByTestId('fee-line').textContent).toContain('about 0.00025 AVAX'));
    // Enough with the fee of a small send; not with the fee this amount needs (a second input).
    type('Amount (AVAX)', '4.00004');
    // In plain words: no base units.
    await waitFor(() => expect(errorOf('Amount (AVAX)')).toBe('Not enough funds for this amount and its network fee.'));
    expect((screen.getByRole('button', { name: 'Review' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("puts the background's field error back on the form field", async () => {
    setup({
      'send.x': () => {
        throw new Refuse({ code: 'validation', message: 'to.addresses[0]: this address is for the "fuji" network', field: 'to.addresses[0]' });
      },
    });
    type(/^To/, X_OTHER);
    type('Amount (AVAX)', '1');
    fireEvent.click(screen.getByRole('button', { name: 'Review' }));
    await clickConfirm();
    await screen.findByRole('heading', { name: 'Send' });
    expect(errorOf(/^To/)).toBe('This address is for the "fuji" network');
  });

  it('an amount the background refuses in its estimate (more than one tx can carry) is said at the amount, and Review stays off', async () => {
    const view = balances();
    const normal = estimator(view);
    setup({
      'send.estimate': (p) => {
        if (p.chain === 'X' && p.amount === '5000000000') throw new Refuse({ code: 'validation', field: 'amount', message: 'this is more of the asset than one transaction can carry: send less, and the rest in another transaction' });
        return normal(p);
      },
    }, view);
    type(/^To/, X_OTHER);
    type('Amount (AVAX)', '5');
    await waitFor(() => expect(errorOf('Amount (AVAX)')).toBe('This is more of the asset than one transaction can carry: send less, and the rest in another transaction'));
    expect((screen.getByRole('button', { name: 'Review' }) as HTMLButtonElement).disabled).toBe(true);
    type('Amount (AVAX)', '1');
    await waitFor(() => expect((screen.getByRole('button', { name: 'Review' }) as HTMLButtonElement).disabled).toBe(false));
  });

  it('takes a send refused for lack of funds back to the amount, and keeps any other failure on the review screen', async () => {
    let refusal = { code: 'insufficient-funds', message: 'insufficient funds of AVAX: need 2001000000, spendable 12000000000' };
    setup({
      'send.x': () => {
        throw new Refuse(refusal);
      },
    });
    type(/^To/, X_OTHER);
    type('Amount (AVAX)', '1');
    fireEvent.click(screen.getByRole('button', { name: 'Review' }));
    await clickConfirm();
    await screen.findByRole('heading', { name: 'Send' });
    expect(errorOf('Amount (AVAX)')).toBe('Not enough funds for this amount and its network fee.');

    refusal = { code: 'tx-failed', message: 'the X-Chain did not accept the transaction: rejected' };
    type('Amount (AVAX)', '1.1');
    await waitFor(() => expect((screen.getByRole('button', { name: 'Review' }) as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByRole('button', { name: 'Review' }));
    await clickConfirm();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('The X-Chain did not accept the transaction: rejected');
    expect(within(document.body).getByRole('heading', { name: 'Review' })).toBeTruthy();
  });

  it('goes back to a fresh review, saying why, when the fee rose after the review; the new fee is the new ceiling', async () => {
    const view = balances();
    const estimate = estimator(view);
    let xFee = X_FEE;
    const { bg } = setup(
      {
        'send.estimate': (p) => ({ ...estimate(p), fee: xFee.toString() }),
        'send.x': (p) => {
          if (BigInt(p.maxFee) < xFee) throw new Refuse({ code: 'fee-above-approved', message: `the fee of ${xFee} nAVAX is above the approved maximum of ${p.maxFee} nAVAX` });
          return { txID: 'tx2', fee: xFee.toString() };
        },
      },
      view,
    );
    type(/^To/, X_OTHER);
    type('Amount (AVAX)', '1');
    fireEvent.click(screen.getByRole('button', { name: 'Review' }));
    await screen.findByRole('heading', { name: 'Review' });
    expect(screen.getByTestId('review-fee').textContent).toBe('0.001 AVAX');
    // Meanwhile the node raised the fee: the send is refused unsigned.
    xFee = 2_000_000n;
    await clickConfirm();
    expect((await screen.findByRole('alert')).textContent).toBe('The network fee went up since you reviewed it. Nothing was sent: review it again.');
    await waitFor(() => expect(screen.getByTestId('review-fee').textContent).toBe('0.002 AVAX'));
    expect(screen.getByRole('heading', { name: 'Review' })).toBeTruthy();
    await clickConfirm();
    await waitFor(() => expect(screen.getByTestId('tx-status')).toBeTruthy());
    expect(bg.callsOf('send.x').map((c) => c.maxFee)).toEqual(['1000000', '2000000']);
  });
});

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

describe('Send: Max after the fee rose', () => {
  it('C-Chain: Max read before the fee rose is refused at Review; Max then offers the most that can go at the new fee', async () => {
    const view = balances();
    const have = BigInt(view.balances.find((b) => b.chain === 'C')!.spendable);
    let fee = C_MAX_FEE;
    const { bg } = setup(
      {
        'send.estimate': (p) => {
          if (p.chain !== 'C') return estimator(view)(p);
          if (BigInt(p.amountWei) + fee > have) throw new Refuse({ code: 'insufficient-funds', message: `insufficient funds of AVAX: need ${BigInt(p.amountWei) + fee}, spendable ${have}` });
          return { fee: fee.toString(), maxAmount: (have - fee).toString(), gasLimit: '21000' };
        },
        'send.c': () => ({ txHash: '0xabc', fee: fee.toString() }),
      },
      view,
    );
    fireEvent.click(screen.getByRole('radio', { name: 'C-Chain' }));
    type(/^To/, C_OTHER);
    await waitFor(() => expect(maxButton().disabled).toBe(false));
    fireEvent.click(maxButton());
    expect((screen.getByLabelText('Amount (AVAX)') as HTMLInputElement).value).toBe('1.49895');
    await waitFor(() => expect(bg.callsOf('send.estimate')).toContainEqual({ chain: 'C', to: C_OTHER, amountWei: (have - C_MAX_FEE).toString() }));
    await waitFor(() => expect(reviewButton().disabled).toBe(false));
    // The base fee rises before Review: that amount and the new fee are more than the balance.
    fee = 2n * C_MAX_FEE;
    fireEvent.click(reviewButton());
    await waitFor(() => expect(errorOf('Amount (AVAX)')).toBe('Not enough funds for this amount and its network fee.'));
    // Max offers what goes at the new fee (it kept offering the refused amount).
    await waitFor(() => expect(bg.callsOf('send.estimate')).toContainEqual({ chain: 'C', to: C_OTHER, amountWei: '1' }));
    await waitFor(() => {
      fireEvent.click(maxButton());
      expect((screen.getByLabelText('Amount (AVAX)') as HTMLInputElement).value).toBe('1.4979');
    });
    await clickReview();
    await screen.findByRole('heading', { name: 'Review' });
    await clickConfirm();
    await waitFor(() => expect(bg.callsOf('send.c')).toEqual([{ to: C_OTHER, amountWei: (have - 2n * C_MAX_FEE).toString(), maxFeeWei: (2n * C_MAX_FEE).toString() }]));
  });
});

function reviewButton(): HTMLButtonElement {
  return screen.getByRole('button', { name: 'Review' }) as HTMLButtonElement;
}

/** Review, once the form allows it (its estimate answered). */
async function clickReview(): Promise<void> {
  await waitFor(() => expect(reviewButton().disabled).toBe(false));
  fireEvent.click(reviewButton());
}

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

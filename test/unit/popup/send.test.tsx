// @vitest-environment happy-dom
// The Send screen against a fake background (send-test-kit.tsx): each chain's send with its fee
// before the review and Max from the estimate, refusals put back on the form, and a fee that rose.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { Refuse } from './fake-background.js';
import { clickConfirm } from './confirm.js';
import { ACCOUNT, avax, AVAX_ID, balances, C_OTHER, FAKE_ID, P_ADDR, P_OTHER, UNLOCKED, X_OTHER } from './fixtures.js';
import { C_MAX_FEE, clickReview, errorOf, estimator, reviewButton, setup, type, X_FEE } from './send-test-kit.js';

afterEach(cleanup);

function maxButton(): HTMLButtonElement {
  return screen.getByRole('button', { name: /^Max/ }) as HTMLButtonElement;
}

describe('Send', () => {
  it('says the node did not answer when no balances ever came (never "Loading" for good), and a chain with nothing to send says so', () => {
    setup({}, balances({ updatedAt: 0, balances: [], error: 'unreachable' }));
    expect(screen.getByText('No balances yet: the node did not answer.')).toBeTruthy();
    expect(screen.queryByText(/Loading balances/)).toBeNull();
    cleanup();
    setup({}, balances({ balances: [avax('X', '12000000000')] }));
    fireEvent.click(screen.getByRole('radio', { name: /P-Chain/ }));
    expect(screen.getByText('Nothing to send on the P-Chain yet.')).toBeTruthy();
  });

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

  it('says when Max is what one transaction can carry, less than the balance (too many UTXOs for one)', async () => {
    const view = balances();
    const base = estimator(view);
    setup({ 'send.estimate': (p) => ({ ...base(p), maxAmount: '4000000000', maxOneTx: true as const }) }, view);
    type(/^To/, X_OTHER);
    await waitFor(() => expect(maxButton().disabled).toBe(false));
    expect(maxButton().getAttribute('aria-label')).toBe('Max: Max is the most one transaction can carry: your funds are in too many pieces for one. The rest can go in another');
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

  it('warns, on the form and the review, when an X AVAX send leaves too little AVAX to pay for sending the other X assets held', async () => {
    const gold = { ...avax('X', '250'), assetID: FAKE_ID, name: 'Gold', symbol: 'GOLD', denomination: 2, verified: false };
    setup({ 'send.x': () => ({ txID: 't', fee: '1000000' }) }, balances({ balances: [avax('X', '5000000000'), gold, avax('P', '0'), avax('C', '0')] }));
    type(/^To/, X_OTHER);
    // 5 AVAX − 4.998 − fee 0.001 leaves 0.001: one more send of GOLD still pays its fee.
    type('Amount (AVAX)', '4.998');
    await waitFor(() => expect(reviewButton().disabled).toBe(false));
    expect(screen.queryByTestId('send-strands')).toBeNull();
    // Max leaves nothing: said at once, and again on the review.
    await waitFor(() => {
      fireEvent.click(maxButton());
      expect((screen.getByLabelText('Amount (AVAX)') as HTMLInputElement).value).toBe('4.999');
    });
    const said = 'This leaves too little AVAX on the X-Chain to pay the fee for sending your other asset there, until more AVAX arrives.';
    await waitFor(() => expect(screen.getByTestId('send-strands').textContent).toBe(said));
    await clickReview();
    await waitFor(() => expect(screen.getByTestId('review-strands').textContent).toContain(said));
  });

  it('says nothing of an asset the user hid (an unasked-for airdrop)', async () => {
    const spam = { ...avax('X', '250'), assetID: FAKE_ID, name: 'Free', symbol: 'FREE', denomination: 0, verified: false };
    setup({}, balances({ balances: [avax('X', '5000000000'), spam, avax('P', '0'), avax('C', '0')] }), [], new Set([FAKE_ID]));
    type(/^To/, X_OTHER);
    await waitFor(() => expect(maxButton().disabled).toBe(false));
    fireEvent.click(maxButton());
    await waitFor(() => expect(reviewButton().disabled).toBe(false));
    expect(screen.queryByTestId('send-strands')).toBeNull();
  });

  it('says nothing of other assets when none is held, nor when sending one of them', async () => {
    setup({}, balances({ balances: [avax('X', '5000000000'), avax('P', '0'), avax('C', '0')] }));
    type(/^To/, X_OTHER);
    await waitFor(() => expect(maxButton().disabled).toBe(false));
    fireEvent.click(maxButton());
    await waitFor(() => expect(reviewButton().disabled).toBe(false));
    expect(screen.queryByTestId('send-strands')).toBeNull();
    cleanup();
    const gold = { ...avax('X', '250'), assetID: FAKE_ID, name: 'Gold', symbol: 'GOLD', denomination: 2, verified: false };
    setup({}, balances({ balances: [avax('X', '1000000'), gold, avax('P', '0'), avax('C', '0')] }));
    fireEvent.change(screen.getByLabelText('Asset'), { target: { value: FAKE_ID } });
    type(/^To/, X_OTHER);
    type('Amount (GOLD)', '1');
    await waitFor(() => expect(reviewButton().disabled).toBe(false));
    expect(screen.queryByTestId('send-strands')).toBeNull();
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

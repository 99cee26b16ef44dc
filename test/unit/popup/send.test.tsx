// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Send } from '../../../src/popup/screens/Send.js';
import type { ActivityItem, BalancesView } from '../../../src/shared/messages.js';
import { fakeBackground, type Handlers, Refuse, renderWith } from './fake-background.js';
import { avax, AVAX_ID, balances, C_OTHER, FAKE_ID, HRP, P_ADDR, P_OTHER, UNLOCKED, X_OTHER } from './fixtures.js';

afterEach(cleanup);

function type(label: string | RegExp, value: string) {
  fireEvent.input(screen.getByLabelText(label), { target: { value } });
}

function errorOf(label: RegExp | string): string {
  const ids = screen.getByLabelText(label).getAttribute('aria-describedby')?.split(' ') ?? [];
  return ids.map((id) => document.getElementById(id)).find((el) => el?.classList.contains('field-error'))?.textContent ?? '';
}

const LAST_X_SEND: ActivityItem = { txID: 'oldtx', chain: 'X', kind: 'send', status: 'accepted', fee: '1000000', createdAt: 1 };

function setup(handlers: Handlers, view: BalancesView = balances(), items: ActivityItem[] = [LAST_X_SEND]) {
  const activity = [...items];
  const bg = fakeBackground({
    'activity.list': () => ({ items: activity }),
    'balances.get': () => view,
    ...handlers,
  });
  const onSent = vi.fn();
  renderWith(bg, <Send status={UNLOCKED} hrp={HRP} balances={view} onSent={onSent} />);
  return { bg, onSent, activity };
}

describe('Send', () => {
  it('sends X-Chain AVAX with a memo: form, review with the fee, confirm, status until accepted', async () => {
    const { bg, onSent, activity } = setup({
      'send.x': () => {
        activity.unshift({ txID: 'newtx', chain: 'X', kind: 'send', status: 'accepted', fee: '1000000', createdAt: 2 });
        return { txID: 'newtx', fee: '1000000' };
      },
    });
    await waitFor(() => expect(screen.getByTestId('fee-line').textContent).toContain('About 0.001 AVAX'));
    type(/^To/, P_ADDR);
    expect(errorOf(/^To/)).toBe('This is a P-Chain address; an X-Chain address is needed here');
    expect((screen.getByRole('button', { name: 'Review' }) as HTMLButtonElement).disabled).toBe(true);
    type(/^To/, X_OTHER);
    type('Amount (AVAX)', '12');
    expect(errorOf('Amount (AVAX)')).toBe('With the fee of 0.001 AVAX this is more than you can spend; at most 11.999 AVAX');
    fireEvent.click(screen.getByRole('button', { name: /^Max/ }));
    expect((screen.getByLabelText('Amount (AVAX)') as HTMLInputElement).value).toBe('11.999');
    type('Amount (AVAX)', '1.5');
    type(/^Memo/, 'rent');
    fireEvent.click(screen.getByRole('button', { name: 'Review' }));

    await screen.findByRole('heading', { name: 'Review' });
    expect(screen.getByTestId('review-amount').textContent).toBe('1.5 AVAX');
    expect(screen.getByTestId('review-to').textContent).toBe(X_OTHER);
    expect(screen.getByTestId('review-fee').textContent).toContain('About 0.001 AVAX');
    expect(screen.getByText('about 1.501 AVAX')).toBeTruthy();
    expect(bg.callsOf('send.x')).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Confirm and send' }));
    await waitFor(() => expect(screen.getByTestId('tx-status').textContent).toBe('Accepted by the X-Chain'));
    expect(bg.callsOf('send.x')).toEqual([{ assetID: AVAX_ID, amount: '1500000000', to: { addresses: [X_OTHER], threshold: 1 }, memo: 'rent' }]);
    expect(screen.getByText('newtx')).toBeTruthy();
    expect(screen.getByText('0.001 AVAX')).toBeTruthy();
    expect(onSent).toHaveBeenCalled();
  });

  it('sends another X asset: its ID is shown, and Max is the whole balance since the fee is paid in AVAX', async () => {
    const gold = { ...avax('X', '250'), assetID: FAKE_ID, name: 'Gold', symbol: 'GOLD', denomination: 2, verified: false };
    const { bg } = setup({ 'send.x': () => ({ txID: 't', fee: '1000000' }) }, balances({ balances: [avax('X', '5000000000'), gold, avax('P', '0'), avax('C', '0')] }));
    fireEvent.change(screen.getByLabelText('Asset'), { target: { value: FAKE_ID } });
    expect(screen.getByText('ID 2fombhL7aG…JyFDbe')).toBeTruthy();
    type(/^To/, X_OTHER);
    fireEvent.click(screen.getByRole('button', { name: /^Max/ }));
    expect((screen.getByLabelText('Amount (GOLD)') as HTMLInputElement).value).toBe('2.5');
    fireEvent.click(screen.getByRole('button', { name: 'Review' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Confirm and send' }));
    await waitFor(() => expect(bg.callsOf('send.x')).toHaveLength(1));
    expect(bg.callsOf('send.x')[0]).toEqual({ assetID: FAKE_ID, amount: '250', to: { addresses: [X_OTHER], threshold: 1 } });
  });

  it('sends P-Chain AVAX; without a fee estimate it says the fee comes after issuing and Max waits', async () => {
    const { bg } = setup({ 'send.p': () => ({ txID: 'ptx', fee: '250000' }) }, balances(), []);
    fireEvent.click(screen.getByRole('radio', { name: 'P-Chain' }));
    expect(screen.getByTestId('fee-line').textContent).toBe('The P-Chain fee is shown once the transaction is issued (no estimate available before).');
    expect((screen.getByRole('button', { name: /^Max/ }) as HTMLButtonElement).disabled).toBe(true);
    type(/^To/, P_OTHER);
    type('Amount (AVAX)', '0.000000001');
    fireEvent.click(screen.getByRole('button', { name: 'Review' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Confirm and send' }));
    await waitFor(() => expect(bg.callsOf('send.p')).toEqual([{ amount: '1', to: { addresses: [P_OTHER], threshold: 1 } }]));
    expect(await screen.findByText('0.00025 AVAX')).toBeTruthy();
  });

  it('sends C-Chain AVAX in wei to a checksummed 0x address', async () => {
    const { bg } = setup({ 'send.c': () => ({ txHash: '0xabc' }) });
    fireEvent.click(screen.getByRole('radio', { name: 'C-Chain' }));
    type(/^To/, C_OTHER.toLowerCase());
    type('Amount (AVAX)', '0.25');
    expect(screen.getByTestId('fee-line').textContent).toContain('EIP-1559');
    fireEvent.click(screen.getByRole('button', { name: 'Review' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Confirm and send' }));
    await waitFor(() => expect(bg.callsOf('send.c')).toEqual([{ to: C_OTHER, amountWei: '250000000000000000' }]));
    expect(await screen.findByText('0xabc')).toBeTruthy();
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
    fireEvent.click(await screen.findByRole('button', { name: 'Confirm and send' }));
    await screen.findByRole('heading', { name: 'Send' });
    expect(errorOf(/^To/)).toBe('This address is for the "fuji" network');
  });

  it('keeps a failure without a field on the review screen', async () => {
    setup({
      'send.x': () => {
        throw new Refuse({ code: 'insufficient-funds', message: 'insufficient funds of AVAX: need 2001000000, spendable 12000000000' });
      },
    });
    type(/^To/, X_OTHER);
    type('Amount (AVAX)', '1');
    fireEvent.click(screen.getByRole('button', { name: 'Review' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Confirm and send' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Insufficient funds of AVAX');
    expect(within(document.body).getByRole('heading', { name: 'Review' })).toBeTruthy();
  });
});

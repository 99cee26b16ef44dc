// @vitest-environment happy-dom
// The whole popup (App) switching accounts from the header, and following a switch made in another
// window (with a notice, and no going back on a status read from before the switch).
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { Refuse } from './fake-background.js';
import { ACCOUNT, NETWORK, UNLOCKED } from './fixtures.js';
import { start } from './app-test-kit.js';

afterEach(cleanup);

describe('App', () => {
  it('switches accounts from the header', async () => {
    const second = { ...ACCOUNT, id: 'acc2', name: 'Savings' };
    const bg = start({
      'wallet.status': () => UNLOCKED,
      'accounts.list': () => ({ accounts: [ACCOUNT, second], selectedId: ACCOUNT.id }),
      'accounts.select': () => ({ ...UNLOCKED, account: second }),
    });
    await screen.findByRole('option', { name: 'Savings' });
    fireEvent.change(screen.getByLabelText('Account'), { target: { value: 'acc2' } });
    await waitFor(() => expect(bg.callsOf('accounts.select')).toEqual([{ id: 'acc2' }]));
    await waitFor(() => expect((screen.getByLabelText('Account') as HTMLSelectElement).value).toBe('acc2'));
  });

  it('keeps the account switcher focused and enabled during a switch, and ignores another choice meanwhile', async () => {
    const second = { ...ACCOUNT, id: 'acc2', name: 'Savings' };
    const third = { ...ACCOUNT, id: 'acc3', name: 'Spare' };
    let answer: (() => void) | undefined;
    const bg = start({
      'wallet.status': () => UNLOCKED,
      'accounts.list': () => ({ accounts: [ACCOUNT, second, third], selectedId: ACCOUNT.id }),
      'accounts.select': async () => {
        await new Promise<void>((r) => (answer = r));
        return { ...UNLOCKED, account: second };
      },
    });
    await screen.findByRole('option', { name: 'Spare' });
    const switcher = screen.getByLabelText('Account') as HTMLSelectElement;
    switcher.focus();
    fireEvent.change(switcher, { target: { value: 'acc2' } });
    await waitFor(() => expect(switcher.getAttribute('aria-disabled')).toBe('true'));
    expect(switcher.disabled).toBe(false);
    expect(document.activeElement).toBe(switcher);
    fireEvent.change(switcher, { target: { value: 'acc3' } });
    answer!();
    await waitFor(() => expect(switcher.value).toBe('acc2'));
    expect(bg.callsOf('accounts.select')).toEqual([{ id: 'acc2' }]);
  });

  it('says in the header, not in a tooltip, when a switch fails; the account stays', async () => {
    const second = { ...ACCOUNT, id: 'acc2', name: 'Savings' };
    start({
      'wallet.status': () => UNLOCKED,
      'accounts.list': () => ({ accounts: [ACCOUNT, second], selectedId: ACCOUNT.id }),
      'accounts.select': () => {
        throw new Refuse({ code: 'storage', message: 'the settings could not be saved' });
      },
    });
    await screen.findByRole('option', { name: 'Savings' });
    fireEvent.change(screen.getByLabelText('Account'), { target: { value: 'acc2' } });
    expect((await screen.findByRole('alert')).textContent).toBe('The settings could not be saved');
    await waitFor(() => expect((screen.getByLabelText('Account') as HTMLSelectElement).value).toBe(ACCOUNT.id));
  });

  it('follows an account selected in another window, so the header names the account whose data it shows', async () => {
    const second = { ...ACCOUNT, id: 'acc2', name: 'Savings' };
    let selected = ACCOUNT;
    start({
      'wallet.status': () => ({ ...UNLOCKED, account: selected }),
      'accounts.list': () => ({ accounts: [ACCOUNT, second], selectedId: selected.id }),
    });
    await screen.findByRole('option', { name: 'Savings' });
    expect((screen.getByLabelText('Account') as HTMLSelectElement).value).toBe(ACCOUNT.id);
    // Another window switches; the popup's next look at the status (here: it regains focus) follows.
    selected = second;
    window.dispatchEvent(new Event('focus'));
    await waitFor(() => expect((screen.getByLabelText('Account') as HTMLSelectElement).value).toBe('acc2'));
    expect(screen.getByTestId('followed-switch').textContent).toContain(`Switched in another window to Savings on ${NETWORK.name}.`);
    expect(screen.getByTestId('followed-switch').textContent).not.toContain('What was open here was closed');
  });

  it('says a form open during a switch made elsewhere was closed, and that only what was confirmed went out; the notice goes on the next tab', async () => {
    const second = { ...ACCOUNT, id: 'acc2', name: 'Savings' };
    let selected = ACCOUNT;
    start({
      'wallet.status': () => ({ ...UNLOCKED, account: selected }),
      'accounts.list': () => ({ accounts: [ACCOUNT, second], selectedId: selected.id }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Send' }));
    await screen.findByRole('heading', { name: 'Send' });
    selected = second;
    window.dispatchEvent(new Event('focus'));
    const notice = await screen.findByTestId('followed-switch');
    expect(notice.textContent).toContain('What was open here was closed: anything not yet confirmed was not sent (Activity shows what was).');
    expect(notice.getAttribute('role')).toBe('status');
    fireEvent.click(screen.getByRole('button', { name: 'Activity' }));
    expect(screen.queryByTestId('followed-switch')).toBeNull();
  });

  it('shows no notice for a switch made in this popup', async () => {
    const second = { ...ACCOUNT, id: 'acc2', name: 'Savings' };
    let selected = ACCOUNT;
    const bg = start({
      'wallet.status': () => ({ ...UNLOCKED, account: selected }),
      'accounts.list': () => ({ accounts: [ACCOUNT, second], selectedId: selected.id }),
      'accounts.select': () => {
        selected = second;
        return { ...UNLOCKED, account: second };
      },
    });
    await screen.findByRole('option', { name: 'Savings' });
    fireEvent.change(screen.getByLabelText('Account'), { target: { value: 'acc2' } });
    await waitFor(() => expect(bg.callsOf('accounts.select')).toEqual([{ id: 'acc2' }]));
    window.dispatchEvent(new Event('focus'));
    await waitFor(() => expect(bg.callsOf('wallet.status').length).toBeGreaterThan(1));
    await new Promise((r) => setTimeout(r, 20));
    expect(screen.queryByTestId('followed-switch')).toBeNull();
  });

  it('drops a status check asked before the user switched here: no notice, no going back to the old account', async () => {
    const second = { ...ACCOUNT, id: 'acc2', name: 'Savings' };
    let selected = ACCOUNT;
    let answerLate: (() => void) | undefined;
    let statusReads = 0;
    start({
      'wallet.status': async () => {
        const now = selected;
        // The focus check below (the read after the opening's): read before the switch, answered after it.
        if (++statusReads === 2) await new Promise<void>((r) => (answerLate = r));
        return { ...UNLOCKED, account: now };
      },
      'accounts.list': () => ({ accounts: [ACCOUNT, second], selectedId: selected.id }),
      'accounts.select': () => {
        selected = second;
        return { ...UNLOCKED, account: second };
      },
    });
    await screen.findByRole('option', { name: 'Savings' });
    window.dispatchEvent(new Event('focus'));
    await waitFor(() => expect(answerLate).toBeDefined());
    fireEvent.change(screen.getByLabelText('Account'), { target: { value: 'acc2' } });
    await waitFor(() => expect((screen.getByLabelText('Account') as HTMLSelectElement).value).toBe('acc2'));
    answerLate!();
    await new Promise((r) => setTimeout(r, 20));
    expect((screen.getByLabelText('Account') as HTMLSelectElement).value).toBe('acc2');
    expect(screen.queryByTestId('followed-switch')).toBeNull();
  });
});

// @vitest-environment happy-dom
// The approval window's decisions (Approve and Reject guarded against stray clicks and keys, close,
// Escape, failures), its polling for requests, and the unlock it asks for first.
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApprovalWindow } from '../../../src/popup/approval-window.js';
import type { WalletStatus } from '../../../src/shared/messages.js';
import { fakeBackground, Refuse, renderWith } from './fake-background.js';
import { UNLOCKED } from './fixtures.js';
import { approval, connect, queue } from './approval-fixtures.js';

const LOCKED_STATUS: WalletStatus = { ...UNLOCKED, vault: 'locked', account: null };

afterEach(cleanup);

describe('approval window: decisions', () => {
  it('Reject is focused; Approve and Reject send the right decision, the next request shows, then the window closes', async () => {
    const a = approval(1, connect());
    const b = approval(2, connect());
    const bg = queue([a, b]);
    const close = vi.fn();
    renderWith(bg, <ApprovalWindow armMs={0} close={close} />);
    await screen.findByText('https://site1.example');
    const reject = screen.getByRole('button', { name: 'Reject' });
    expect(document.activeElement).toBe(reject);

    fireEvent.click(screen.getByRole('button', { name: 'Approve' }));
    await screen.findByText('https://site2.example');
    expect(bg.callsOf('approvals.decide')).toEqual([{ id: a.id, approved: true }]);
    expect(close).not.toHaveBeenCalled();
    expect(screen.queryByTestId('more-waiting')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(close).toHaveBeenCalledTimes(1));
    expect(bg.callsOf('approvals.decide')).toEqual([{ id: a.id, approved: true }, { id: b.id, approved: false }]);
  });

  it('Approve is disabled for a moment whenever a new request shows: a double click cannot approve the next one', async () => {
    const a = approval(1, connect());
    const b = approval(2, connect());
    const bg = queue([a, b]);
    renderWith(bg, <ApprovalWindow armMs={300} close={() => undefined} />);
    await screen.findByText('https://site1.example');
    const approve = () => screen.getByRole('button', { name: 'Approve' }) as HTMLButtonElement;
    expect(approve().disabled).toBe(true);
    await waitFor(() => expect(approve().disabled).toBe(false));
    fireEvent.click(approve());
    await screen.findByText('https://site2.example');
    // The second click of a double click lands on the next request's disabled button.
    expect(approve().disabled).toBe(true);
    fireEvent.click(approve());
    expect(bg.callsOf('approvals.decide')).toEqual([{ id: a.id, approved: true }]);
    await waitFor(() => expect(approve().disabled).toBe(false));
  });

  it('Approve is disabled for a moment again whenever the window comes to the front: a click meant for the page behind cannot approve', async () => {
    const bg = queue([approval(1, connect())]);
    renderWith(bg, <ApprovalWindow armMs={300} close={() => undefined} />);
    await screen.findByText('https://site1.example');
    const approve = () => screen.getByRole('button', { name: 'Approve' }) as HTMLButtonElement;
    await waitFor(() => expect(approve().disabled).toBe(false));
    // Another request of the site focuses this window, which was left behind the page.
    window.dispatchEvent(new Event('focus'));
    await waitFor(() => expect(approve().disabled).toBe(true));
    fireEvent.click(approve(), { detail: 1 });
    expect(bg.callsOf('approvals.decide')).toEqual([]);
    await waitFor(() => expect(approve().disabled).toBe(false));
  });

  it('a window brought to the front has Reject focused again: keys meant for the page behind never approve', async () => {
    const bg = queue([approval(1, connect())]);
    renderWith(bg, <ApprovalWindow armMs={0} close={() => undefined} />);
    await screen.findByText('https://site1.example');
    // The user had moved the focus to Approve (Tab, or a click the stream rule ignored), then went back to the page.
    screen.getByRole('button', { name: 'Approve' }).focus();
    window.dispatchEvent(new Event('focus'));
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Reject' }));
  });

  it('a pointer click in a fast stream of clicks approves nothing; one from the keyboard, or after a pause, does', async () => {
    const [a, b] = [approval(1, connect()), approval(2, connect())];
    const bg = queue([a, b]);
    renderWith(bg, <ApprovalWindow armMs={0} close={() => undefined} />);
    await screen.findByText('https://site1.example');
    const approve = () => screen.getByRole('button', { name: 'Approve' });
    fireEvent.pointerDown(approve());
    fireEvent.pointerDown(approve());
    fireEvent.click(approve(), { detail: 1 });
    await new Promise((r) => setTimeout(r, 50));
    expect(bg.callsOf('approvals.decide')).toEqual([]);
    // From the keyboard (Tab to it, then Space): a click with no pointer behind it.
    fireEvent.click(approve(), { detail: 0 });
    await screen.findByText('https://site2.example');
    await new Promise((r) => setTimeout(r, 500));
    fireEvent.pointerDown(approve());
    fireEvent.click(approve(), { detail: 1 });
    await waitFor(() => expect(bg.callsOf('approvals.decide')).toEqual([{ id: a.id, approved: true }, { id: b.id, approved: true }]));
  });

  it('closing the window rejects the request on screen', async () => {
    const a = approval(1, connect());
    const bg = queue([a, approval(2, connect([]))]);
    renderWith(bg, <ApprovalWindow armMs={0} close={() => undefined} />);
    await screen.findByText('https://site1.example');
    window.dispatchEvent(new Event('pagehide'));
    // Said to be the close: the background holds the site off, as the close does.
    await waitFor(() => expect(bg.callsOf('approvals.decide')).toEqual([{ id: a.id, approved: false, closing: true }]));
  });

  it('a failed decision is shown and the list reloaded', async () => {
    const a = approval(1, connect());
    const bg = fakeBackground({
      'wallet.status': () => UNLOCKED,
      'approvals.list': () => ({ approvals: [a] }),
      'approvals.decide': () => {
        throw new Refuse({ code: 'unknown-approval', message: 'boom' });
      },
    });
    renderWith(bg, <ApprovalWindow armMs={0} close={() => undefined} />);
    await screen.findByText('https://site1.example');
    const before = bg.callsOf('approvals.list').length;
    fireEvent.click(screen.getByRole('button', { name: 'Approve' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Boom');
    expect(bg.callsOf('approvals.list').length).toBeGreaterThan(before);
    // Still there: it shows again and can be answered.
    expect(screen.getByTestId('origin').textContent).toBe('https://site1.example');
  });

  it('Escape rejects the request on screen', async () => {
    const a = approval(1, connect());
    const bg = queue([a]);
    const close = vi.fn();
    renderWith(bg, <ApprovalWindow armMs={0} close={close} />);
    await screen.findByText('https://site1.example');
    fireEvent.keyDown(screen.getByRole('button', { name: 'Reject' }), { key: 'Escape' });
    await waitFor(() => expect(bg.callsOf('approvals.decide')).toEqual([{ id: a.id, approved: false }]));
    await waitFor(() => expect(close).toHaveBeenCalledTimes(1));
  });

  it('a failed first check says so under the window’s heading and can be tried again', async () => {
    let fails = true;
    const bg = fakeBackground({
      'wallet.status': () => {
        if (fails) throw new Refuse({ code: 'timeout', message: 'no answer' });
        return UNLOCKED;
      },
      'approvals.list': () => ({ approvals: [approval(1, connect())] }),
    });
    renderWith(bg, <ApprovalWindow armMs={0} close={() => undefined} />);
    expect((await screen.findByRole('alert')).textContent).toMatch(/took too long/);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('XPC Wallet');
    fails = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('https://site1.example')).toBeTruthy();
  });

  it('with nothing waiting it says so, but only after the grace time, and does not close itself', async () => {
    const close = vi.fn();
    renderWith(queue([]), <ApprovalWindow armMs={0} close={close} graceMs={150} pollMs={20} />);
    expect(await screen.findByText('Loading the request…')).toBeTruthy();
    await new Promise((r) => setTimeout(r, 60));
    expect(screen.queryByTestId('approval-empty')).toBeNull();
    expect(await screen.findByTestId('approval-empty')).toBeTruthy();
    expect(close).not.toHaveBeenCalled();
  });
});

describe('approval window: polling and unlock', () => {
  it('shows a request that arrives after the window opened (within the grace time and after it)', async () => {
    const bg = queue([]);
    renderWith(bg, <ApprovalWindow armMs={0} close={() => undefined} graceMs={100} pollMs={20} />);
    await waitFor(() => expect(bg.callsOf('approvals.list').length).toBeGreaterThan(1));
    bg.pending.push(approval(1, connect()));
    expect(await screen.findByText('https://site1.example')).toBeTruthy();
    expect(screen.queryByTestId('approval-empty')).toBeNull();

    // Answered: the empty list is not the end while the window is open and polling.
    fireEvent.click(screen.getByRole('button', { name: 'Reject' }));
    await screen.findByTestId('approval-empty');
    bg.pending.push(approval(2, connect()));
    expect(await screen.findByText('https://site2.example')).toBeTruthy();
  });

  it('polls every second by default', async () => {
    vi.useFakeTimers();
    try {
      const bg = queue([]);
      renderWith(bg, <ApprovalWindow armMs={0} close={() => undefined} />);
      await vi.advanceTimersByTimeAsync(10);
      expect(bg.callsOf('approvals.list')).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(2000);
      expect(bg.callsOf('approvals.list')).toHaveLength(3);
      // Within the first 3 s an empty list is a request still on its way.
      expect(screen.queryByTestId('approval-empty')).toBeNull();
      bg.pending.push(approval(1, connect()));
      await vi.advanceTimersByTimeAsync(1000);
      expect(screen.getByTestId('origin').textContent).toBe('https://site1.example');
    } finally {
      vi.useRealTimers();
    }
  });

  it('a locked wallet asks for the password first, shows a wrong one, then shows the requests', async () => {
    let unlocked = false;
    let waiting: string[] = [];
    const a = approval(1, connect());
    const bg = fakeBackground({
      'wallet.status': () => (unlocked ? UNLOCKED : LOCKED_STATUS),
      'wallet.unlock': ({ password }) => {
        if (password !== 'right password') throw new Refuse({ code: 'wrong-password', message: 'the password is not correct', field: 'password' });
        unlocked = true;
        return UNLOCKED;
      },
      // The request only appears once the wallet is unlocked (the site asked again, or it was prepared meanwhile).
      'approvals.list': () => ({ approvals: unlocked ? [a] : [] }),
      'approvals.waiting': () => ({ sites: waiting }),
      'approvals.decide': () => ({ ok: true }),
    });
    renderWith(bg, <ApprovalWindow armMs={0} close={() => undefined} graceMs={100} pollMs={20} />);
    const field = await screen.findByLabelText('Password');
    expect(screen.getByText('The wallet is locked.')).toBeTruthy();
    // Who is asking, before the password is typed, also when a site starts waiting after the form showed.
    expect(await screen.findByText('A site is waiting for your answer. Unlock the wallet to see its request.')).toBeTruthy();
    waiting = ['https://site1.example'];
    expect(await screen.findByText('https://site1.example is waiting for your answer. Unlock the wallet to see the request.')).toBeTruthy();
    waiting = ['https://site1.example', 'https://frame.example'];
    expect(await screen.findByText('https://site1.example and https://frame.example are waiting for your answer. Unlock the wallet to see the request.')).toBeTruthy();
    expect(screen.queryByText(/Restore from your recovery phrase/)).toBeNull();
    expect(screen.queryByTestId('origin')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();

    fireEvent.input(field, { target: { value: 'wrong' } });
    fireEvent.click(screen.getByRole('button', { name: 'Unlock' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The password is not correct');
    expect(screen.queryByTestId('origin')).toBeNull();

    fireEvent.input(screen.getByLabelText('Password'), { target: { value: 'right password' } });
    fireEvent.click(screen.getByRole('button', { name: 'Unlock' }));
    expect(await screen.findByText('https://site1.example')).toBeTruthy();
    expect(bg.callsOf('wallet.unlock')).toEqual([{ password: 'wrong' }, { password: 'right password' }]);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Reject' }));
  });

  it('when the wallet locks itself while a request is on screen, the window goes back to the unlock form', async () => {
    let locked = false;
    const refuseLocked = () => {
      if (locked) throw new Refuse({ code: 'vault-locked', message: 'the wallet is locked' });
    };
    const bg = fakeBackground({
      'wallet.status': () => (locked ? LOCKED_STATUS : UNLOCKED),
      'approvals.list': () => (refuseLocked(), { approvals: [approval(1, connect())] }),
      'approvals.decide': () => (refuseLocked(), { ok: true }),
    });
    renderWith(bg, <ApprovalWindow armMs={0} close={() => undefined} graceMs={100} pollMs={20} />);
    expect(await screen.findByText('https://site1.example')).toBeTruthy();
    locked = true;
    await screen.findByLabelText('Password');
    expect(screen.queryByTestId('origin')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(bg.callsOf('approvals.decide')).toEqual([]);
  });

  it('while locked, closing the window answers nothing itself (the background rejects them all)', async () => {
    const bg = fakeBackground({ 'wallet.status': () => LOCKED_STATUS, 'approvals.list': () => ({ approvals: [approval(1, connect())] }) });
    renderWith(bg, <ApprovalWindow armMs={0} close={() => undefined} />);
    await screen.findByLabelText('Password');
    window.dispatchEvent(new Event('pagehide'));
    expect(bg.callsOf('approvals.decide')).toEqual([]);
    expect(bg.callsOf('approvals.list')).toEqual([]);
  });

  it('with no wallet set up, says it must be set up first and links to the wallet; no password form, nothing asked for', async () => {
    const bg = fakeBackground({ 'wallet.status': () => ({ ...UNLOCKED, vault: 'none', account: null }), 'approvals.list': () => ({ approvals: [] }) });
    renderWith(bg, <ApprovalWindow armMs={0} close={() => undefined} />);
    expect((await screen.findByTestId('not-set-up')).textContent).toMatch(/not set up yet/);
    expect(screen.getByRole('link', { name: 'Open XPC Wallet' }).getAttribute('href')).toBe('index.html');
    expect(screen.queryByLabelText('Password')).toBeNull();
    expect(bg.callsOf('approvals.list')).toEqual([]);
  });
});

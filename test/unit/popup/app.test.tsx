// @vitest-environment happy-dom
// The whole popup (App) over a fake background: onboarding, unlock and lock, opening and refreshing
// balances, Receive, focus on a new screen, and a background that cannot be reached.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { App, hrpOf } from '../../../src/popup/app.js';
import { PASSIVE_REQUESTS } from '../../../src/background/user-activity.js';
import type { WalletStatus } from '../../../src/shared/messages.js';
import { Refuse } from './fake-background.js';
import { ACCOUNT, avax, balances, C_ADDR, C_BECH32, NETWORK, UNLOCKED, X_ADDR } from './fixtures.js';
import { start } from './app-test-kit.js';

afterEach(cleanup);

const LOCKED: WalletStatus = { vault: 'locked', network: NETWORK, account: null, idleLockMinutes: 15 };

describe('App', () => {
  it("takes the hrp from the network, else from the account's addresses", () => {
    expect(hrpOf(UNLOCKED)).toBe('local');
    expect(hrpOf({ ...UNLOCKED, network: { ...NETWORK, hrp: 'fuji' } })).toBe('fuji');
    expect(hrpOf({ ...UNLOCKED, network: { ...NETWORK, hrp: '' } })).toBe('local');
    expect(hrpOf({ ...LOCKED, network: { ...NETWORK, hrp: '' } })).toBe('');
  });

  it('Refresh clicked asks for balances.refresh, which counts as the user doing something (the idle lock); the polls never do', async () => {
    const bg = start({ 'wallet.status': () => UNLOCKED, 'balances.refresh': () => balances() });
    const button = await screen.findByRole('button', { name: 'Refresh balances' });
    // The refresh asked on opening is the popup's own: passive.
    await waitFor(() => expect(bg.callsOf('balances.get')).toContainEqual({ refresh: true }));
    expect(bg.callsOf('balances.refresh')).toHaveLength(0);
    fireEvent.click(button);
    await waitFor(() => expect(bg.callsOf('balances.refresh')).toHaveLength(1));
    expect(PASSIVE_REQUESTS.has('balances.refresh')).toBe(false);
  });

  it('starts onboarding when there is no wallet', async () => {
    start({ 'wallet.status': () => ({ ...LOCKED, vault: 'none' }) });
    expect(await screen.findByRole('heading', { name: 'Welcome to XPC Wallet' })).toBeTruthy();
  });

  it('unlocks with the password, shows balances, and locks again', async () => {
    const bg = start({
      'wallet.status': () => LOCKED,
      'wallet.unlock': ({ password }) => {
        if (password !== 'right password') throw new Refuse({ code: 'wrong-password', message: 'the password is not correct', field: 'password' });
        return UNLOCKED;
      },
      'wallet.lock': () => LOCKED,
    });
    const field = await screen.findByLabelText('Password');
    fireEvent.input(field, { target: { value: 'wrong' } });
    fireEvent.click(screen.getByRole('button', { name: 'Unlock' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The password is not correct');
    fireEvent.input(screen.getByLabelText('Password'), { target: { value: 'right password' } });
    fireEvent.click(screen.getByRole('button', { name: 'Unlock' }));
    expect(await screen.findByTestId('total-all')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('total-all').textContent).toBe('18.5 AVAX'));
    expect(bg.callsOf('balances.get')[0]).toEqual({ refresh: true });
    expect(screen.getByText('Local network')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Lock' }));
    expect(await screen.findByText('The wallet is locked.')).toBeTruthy();
    expect(bg.callsOf('wallet.lock')).toEqual([{}]);
  });

  it('says when a lock failed and the wallet is still unlocked, and shows the lock screen only once the background says locked', async () => {
    let locked = false;
    let lockWorks = false;
    const bg = start({
      'wallet.status': () => (locked ? LOCKED : UNLOCKED),
      'balances.get': () => balances(),
      'wallet.lock': () => {
        if (!lockWorks) throw new Refuse({ code: 'internal', message: 'something went wrong in the wallet background; nothing was signed or sent' });
        locked = true;
        return LOCKED;
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Lock' }));
    const alert = await screen.findByRole('alert');
    expect(alert.querySelector('p')!.textContent).toBe('The wallet could not be locked, so it may still be unlocked. Try again; closing the browser also locks it.');
    // The reason one click away, under Details.
    expect(alert.querySelector('details')!.textContent).toContain('Something went wrong in the wallet background');
    expect(screen.queryByText('The wallet is locked.')).toBeNull();
    expect(screen.getByTestId('total-all')).toBeTruthy();

    lockWorks = true;
    fireEvent.click(screen.getByRole('button', { name: 'Lock' }));
    expect(await screen.findByText('The wallet is locked.')).toBeTruthy();
    expect(bg.callsOf('wallet.lock')).toHaveLength(2);
  });

  it('shows the lock screen when a lock request failed but the background is locked anyway', async () => {
    let locked = false;
    start({
      'wallet.status': () => (locked ? LOCKED : UNLOCKED),
      'balances.get': () => balances(),
      'wallet.lock': () => {
        locked = true;
        throw new Refuse({ code: 'internal', message: 'something went wrong in the wallet background; nothing was signed or sent' });
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Lock' }));
    expect(await screen.findByText('The wallet is locked.')).toBeTruthy();
  });

  it('opens on one request: the cached balances come with the status, shown before the refresh it then asks for answers', async () => {
    let answerRefresh: (() => void) | undefined;
    const bg = start({
      'wallet.open': () => ({ status: UNLOCKED, balances: balances() }),
      'wallet.status': () => UNLOCKED,
      'balances.get': async () => {
        await new Promise<void>((r) => (answerRefresh = r));
        return { ...balances(), refreshing: true, refreshStartedAt: Date.now() };
      },
    });
    await waitFor(() => expect(screen.getByTestId('total-all').textContent).toBe('18.5 AVAX'));
    expect(bg.calls[0]!.type).toBe('wallet.open');
    // Shown from the opening's answer; the refresh is asked for after, and followed once it answers.
    await waitFor(() => expect(bg.callsOf('balances.get')).toEqual([{ refresh: true }]));
    expect(answerRefresh).toBeDefined();
    answerRefresh!();
    await waitFor(() => expect(screen.getByTestId('refresh-state').textContent).toMatch(/^Refreshing…/));
  });

  it("never shows another account or network's snapshot under this one's name (switched elsewhere)", async () => {
    let of = `${NETWORK.id}:other-account`;
    start({
      'wallet.open': () => ({ status: UNLOCKED, balances: null }),
      'wallet.status': () => UNLOCKED,
      'balances.get': () => ({ ...balances({ balances: [avax('X', of.endsWith('other-account') ? '999000000000' : '1000000000'), avax('P', '0'), avax('C', '0')] }), of }),
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByTestId('total-all')?.textContent ?? '').not.toContain('999');
    of = `${NETWORK.id}:${ACCOUNT.id}`;
    await waitFor(() => expect(screen.getByTestId('total-all').textContent).toBe('1 AVAX'), { timeout: 3_000 });
  });

  it('goes to the unlock screen when a request finds the wallet locked (idle lock)', async () => {
    let locked = false;
    start({
      'wallet.status': () => (locked ? LOCKED : UNLOCKED),
      'balances.get': () => {
        locked = true;
        throw new Refuse({ code: 'vault-locked', message: 'the wallet is locked' });
      },
    });
    expect(await screen.findByText('The wallet is locked.')).toBeTruthy();
  });

  it('stays on the wallet when a request was refused for a lock the user already undid (locked and unlocked under it)', async () => {
    const bg = start({
      'wallet.status': () => UNLOCKED,
      'balances.get': () => {
        throw new Refuse({ code: 'vault-locked', message: 'the wallet was locked: its keys are wiped' });
      },
    });
    // The refusal is checked against the background's status, which says unlocked.
    await waitFor(() => expect(bg.callsOf('wallet.status').length).toBeGreaterThan(1));
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByText('The wallet is locked.')).toBeNull();
    expect(screen.getByRole('button', { name: 'Lock' })).toBeTruthy();
  });

  it('goes to the unlock screen when a request finds the wallet locked and the status cannot be read either', async () => {
    let opened = false;
    start({
      'wallet.status': () => {
        if (opened) throw new Refuse({ code: 'internal', message: 'something went wrong in the wallet background; nothing was signed or sent' });
        opened = true;
        return UNLOCKED;
      },
      'balances.get': () => {
        throw new Refuse({ code: 'vault-locked', message: 'the wallet is locked' });
      },
    });
    expect(await screen.findByText('The wallet is locked.')).toBeTruthy();
  });

  it('polls while the background refreshes, then shows the time of the snapshot', async () => {
    let calls = 0;
    start({
      'wallet.status': () => UNLOCKED,
      'balances.get': () => (++calls === 1 ? { ...balances(), refreshing: true } : balances()),
    });
    await waitFor(() => expect(screen.getByTestId('refresh-state').textContent).toMatch(/^Refreshing…/));
    await waitFor(() => expect(screen.getByTestId('refresh-state').textContent).toMatch(/^Updated /), { timeout: 3000 });
  });

  it('shows every receive address with a QR code', async () => {
    start({ 'wallet.status': () => UNLOCKED });
    fireEvent.click(await screen.findByRole('button', { name: 'Receive' }));
    expect(screen.getByTestId('receive-address').textContent).toBe(X_ADDR);
    expect(await screen.findByRole('img', { name: 'QR code of your X-Chain address' })).toBeTruthy();
    fireEvent.click(screen.getByRole('radio', { name: 'C-Chain' }));
    expect(screen.getByTestId('receive-address').textContent).toBe(C_ADDR);
    fireEvent.click(screen.getByRole('radio', { name: 'C-bech32' }));
    expect(screen.getByTestId('receive-address').textContent).toBe(C_BECH32);
    expect(screen.getByRole('button', { name: 'Copy C-bech32 address' })).toBeTruthy();
  });

  it('moves focus to the new screen’s heading when the control that opened it goes away; a tab that stays keeps it', async () => {
    start({ 'wallet.status': () => UNLOCKED });
    const receive = await screen.findByRole('button', { name: 'Receive' });
    receive.focus();
    fireEvent.click(receive);
    await waitFor(() => expect(document.activeElement?.tagName).toBe('H1'));
    expect(document.activeElement?.textContent).toBe(screen.getByRole('heading', { level: 1 }).textContent);
    const home = screen.getByRole('button', { name: 'Home' });
    home.focus();
    fireEvent.click(home);
    // A screen loaded on demand swaps its placeholder heading for its own: focus follows.
    const send = await screen.findByRole('button', { name: 'Send' });
    expect(document.activeElement).toBe(home);
    send.focus();
    fireEvent.click(send);
    await screen.findByRole('textbox', { name: /To/ });
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1, name: 'Send' })));
  });

  it('says so when the background cannot be reached', async () => {
    render(
      <App
        send={() => {
          throw new Error('Could not establish connection');
        }}
      />,
    );
    expect((await screen.findByRole('alert')).textContent).toContain('not answering');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});

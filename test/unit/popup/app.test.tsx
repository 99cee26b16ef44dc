// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { App, hrpOf } from '../../../src/popup/app.js';
import { PASSIVE_REQUESTS } from '../../../src/background/user-activity.js';
import type { WalletStatus } from '../../../src/shared/messages.js';
import { fakeBackground, type Handlers, Refuse } from './fake-background.js';
import { ACCOUNT, avax, balances, C_ADDR, C_BECH32, FAKE_ID, NETWORK, UNLOCKED, X_ADDR } from './fixtures.js';

afterEach(cleanup);

const LOCKED: WalletStatus = { vault: 'locked', network: NETWORK, account: null, idleLockMinutes: 15 };

function start(handlers: Handlers) {
  const bg = fakeBackground({
    'balances.get': () => balances(),
    'accounts.list': () => ({ accounts: [ACCOUNT], selectedId: ACCOUNT.id }),
    'activity.list': () => ({ items: [] }),
    'networks.list': () => ({ networks: [NETWORK], selectedId: NETWORK.id }),
    'settings.getHiddenAssets': () => ({ assetIDs: [] }),
    ...handlers,
  });
  render(<App send={bg.send} />);
  return bg;
}

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

  it('keeps hidden assets through the background, so they stay hidden in the next popup', async () => {
    let stored = [FAKE_ID];
    const view = balances({ balances: [avax('X', '1'), { ...avax('X', '5'), assetID: FAKE_ID, symbol: 'GLD', name: 'Gold', verified: false }, avax('P', '0'), avax('C', '0')] });
    const bg = start({
      'wallet.status': () => UNLOCKED,
      'balances.get': () => view,
      'settings.getHiddenAssets': () => ({ assetIDs: stored }),
      'settings.setHiddenAssets': ({ assetIDs }) => {
        stored = assetIDs;
        return { ok: true as const };
      },
    });
    expect(await screen.findByText('1 hidden asset ·')).toBeTruthy();
    expect(screen.queryByTestId(`asset-X-${FAKE_ID}`)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Show' }));
    fireEvent.click(within(screen.getByTestId(`asset-X-${FAKE_ID}`)).getByRole('button', { name: /^Unhide / }));
    await waitFor(() => expect(bg.callsOf('settings.setHiddenAssets')).toEqual([{ assetIDs: [], networkId: 'local' }]));
    expect(bg.callsOf('settings.getHiddenAssets')).toEqual([{ networkId: 'local' }]);
    fireEvent.click(within(screen.getByTestId(`asset-X-${FAKE_ID}`)).getByRole('button', { name: /^Hide / }));
    await waitFor(() => expect(stored).toEqual([FAKE_ID]));

    cleanup();
    start({ 'wallet.status': () => UNLOCKED, 'balances.get': () => view, 'settings.getHiddenAssets': () => ({ assetIDs: stored }) });
    expect(await screen.findByText('1 hidden asset ·')).toBeTruthy();
  });

  it('says when a hidden asset could not be saved, and keeps it hidden on screen', async () => {
    const view = balances({ balances: [avax('X', '1'), { ...avax('X', '5'), assetID: FAKE_ID, verified: false }, avax('P', '0'), avax('C', '0')] });
    start({
      'wallet.status': () => UNLOCKED,
      'balances.get': () => view,
      'settings.setHiddenAssets': () => {
        throw new Refuse({ code: 'internal', message: 'something went wrong in the wallet background; nothing was signed or sent' });
      },
    });
    fireEvent.click(within(await screen.findByTestId(`asset-X-${FAKE_ID}`)).getByRole('button', { name: /^Hide / }));
    expect((await screen.findByRole('alert')).textContent).toBe('Not saved: Something went wrong in the wallet background; nothing was signed or sent');
    expect(screen.queryByTestId(`asset-X-${FAKE_ID}`)).toBeNull();
  });

  it('a hide refused because another window switched the network says so, and the words go once the popup follows the switch', async () => {
    const fuji = { ...NETWORK, id: 'fuji', name: 'Fuji' };
    let network = NETWORK;
    const view = balances({ balances: [avax('X', '1'), { ...avax('X', '5'), assetID: FAKE_ID, verified: false }, avax('P', '0'), avax('C', '0')] });
    const bg = start({
      'wallet.status': () => ({ ...UNLOCKED, network }),
      'networks.list': () => ({ networks: [NETWORK, fuji], selectedId: network.id }),
      'balances.get': () => view,
      'settings.setHiddenAssets': () => {
        throw new Refuse({ code: 'selection-changed', message: 'the network was switched in another window' });
      },
    });
    fireEvent.click(within(await screen.findByTestId(`asset-X-${FAKE_ID}`)).getByRole('button', { name: /^Hide / }));
    expect((await screen.findByRole('alert')).textContent).toBe('Not saved: The network was switched in another window');
    expect(bg.callsOf('settings.setHiddenAssets')).toEqual([{ assetIDs: [FAKE_ID], networkId: 'local' }]);
    network = fuji;
    window.dispatchEvent(new Event('focus'));
    await waitFor(() => expect(bg.callsOf('settings.getHiddenAssets')).toContainEqual({ networkId: 'fuji' }));
    await waitFor(() => expect(screen.queryByText('Not saved: The network was switched in another window')).toBeNull());
  });

  it('starts onboarding when there is no wallet', async () => {
    start({ 'wallet.status': () => ({ ...LOCKED, vault: 'none' }) });
    expect(await screen.findByRole('heading', { name: 'Welcome to XPC Wallet' })).toBeTruthy();
  });

  it('unlocks with the password, shows balances, and locks again', async () => {
    const bg = start({
      'wallet.status': () => LOCKED,
      'wallet.unlock': ({ password }) => {
        if (password !== 'right password') throw new Refuse({ code: 'wrong-password', message: 'the password is not correct' });
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
    start({
      'wallet.status': () => UNLOCKED,
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

  it('saves no hide when the stored list could not be read, so it cannot drop what the list holds', async () => {
    const view = balances({ balances: [avax('X', '1'), { ...avax('X', '5'), assetID: FAKE_ID, verified: false }, avax('P', '0'), avax('C', '0')] });
    const bg = start({
      'wallet.status': () => UNLOCKED,
      'balances.get': () => view,
      'settings.getHiddenAssets': () => {
        throw new Refuse({ code: 'storage-corrupt', message: 'the wallet settings in storage are unreadable' });
      },
    });
    fireEvent.click(within(await screen.findByTestId(`asset-X-${FAKE_ID}`)).getByRole('button', { name: /^Hide / }));
    await waitFor(() => expect(screen.getAllByRole('alert').map((a) => a.textContent)).toContain('Not saved: the list of hidden assets could not be read, so changing it could lose what it holds'));
    expect(bg.callsOf('settings.setHiddenAssets')).toEqual([]);
    expect(screen.getByTestId(`asset-X-${FAKE_ID}`)).toBeTruthy();
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

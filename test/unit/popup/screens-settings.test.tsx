// @vitest-environment happy-dom
// The Settings screen against a fake background: password, networks, auto-lock, the recovery
// phrase, exporting a private key, and connected sites.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Settings } from '../../../src/popup/screens/Settings.js';
import type { AddedChainView, SiteView } from '../../../src/shared/messages.js';
import { fakeBackground, Refuse, renderWith } from './fake-background.js';
import { ApiContext, makeCall } from '../../../src/popup/api.js';
import { ACCOUNT, C_ADDR, C_OTHER, NETWORK, UNLOCKED } from './fixtures.js';
import { type } from './screens-fixtures.js';

afterEach(cleanup);

describe('Settings', () => {
  function open(name: string) {
    const summary = screen.getByText(name, { selector: 'summary' });
    (summary.parentElement as HTMLDetailsElement).open = true;
  }

  it('says when the accounts could not be read (the list would look empty), and reads them again on Reload', async () => {
    let fail = true;
    const bg = fakeBackground({
      'networks.list': () => ({ networks: [NETWORK], selectedId: NETWORK.id }),
      'accounts.list': () => {
        if (fail) throw new Refuse({ code: 'storage-corrupt', message: 'the accounts record is damaged' });
        return { accounts: [ACCOUNT], selectedId: ACCOUNT.id };
      },
    });
    renderWith(bg, <Settings status={UNLOCKED} onStatus={vi.fn()} />);
    open('Accounts');
    expect((await screen.findByText(/Your accounts could not be read/)).closest('[role="alert"]')).not.toBeNull();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Reload the accounts' }));
    await waitFor(() => expect(screen.queryByText(/Your accounts could not be read/)).toBeNull());
    expect(bg.callsOf('accounts.list')).toHaveLength(2);
  });

  it('removes an account after saying what it costs and asking the password; a refusal is said and nothing changes; the last one offers no Remove', async () => {
    const IMPORTED = { ...ACCOUNT, id: 'acc2', name: 'Trading', kind: 'imported' as const, index: undefined };
    let accounts = [ACCOUNT, IMPORTED];
    let refuse: Refuse | undefined = new Refuse({ code: 'wrong-password', message: 'the password is not correct' });
    const onStatus = vi.fn();
    const bg = fakeBackground({
      'networks.list': () => ({ networks: [NETWORK], selectedId: NETWORK.id }),
      'accounts.list': () => ({ accounts, selectedId: ACCOUNT.id }),
      'wallet.status': () => UNLOCKED,
      'accounts.remove': (p: { id: string }) => {
        if (refuse) throw refuse;
        accounts = accounts.filter((a) => a.id !== p.id);
        return { ok: true as const };
      },
    });
    renderWith(bg, <Settings status={UNLOCKED} onStatus={onStatus} />);
    open('Accounts');
    fireEvent.click(await screen.findByRole('button', { name: 'Remove Trading…' }));
    const form = screen.getByRole('form', { name: 'Remove Trading' });
    // An imported key: its loss is said before anything is asked.
    expect(form.textContent).toContain('deletes its private key from this wallet');
    // Read first: focus is on what it costs, not on the password.
    await waitFor(() => expect(document.activeElement?.textContent).toContain('deletes its private key'));
    const confirm = within(form).getByRole('button', { name: 'Remove “Trading”' });
    expect((confirm as HTMLButtonElement).disabled).toBe(true);
    type('Password to remove “Trading”', 'not the one');
    fireEvent.click(confirm);
    expect((await within(form).findByRole('alert')).textContent).toMatch(/password is not correct/i);
    expect(bg.callsOf('accounts.remove')).toEqual([{ id: 'acc2', password: 'not the one' }]);
    expect(screen.getByText('Account 1')).toBeTruthy();
    // Kept: back to the list, both there.
    fireEvent.click(within(form).getByRole('button', { name: 'Keep it' }));
    expect(screen.getByText('Trading')).toBeTruthy();
    // Focus goes back to where the user left from.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Remove Trading…' })));
    // Then with the right password.
    refuse = undefined;
    fireEvent.click(screen.getByRole('button', { name: 'Remove Trading…' }));
    type('Password to remove “Trading”', 'long enough');
    fireEvent.click(screen.getByRole('button', { name: 'Remove “Trading”' }));
    await waitFor(() => expect(screen.queryByText('Trading')).toBeNull());
    await waitFor(() => expect(onStatus).toHaveBeenCalled());
    // Its row gone, focus is on the list of accounts.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('list', { name: 'Your accounts' })));
    // The last account left: no Remove offered.
    expect(screen.queryByRole('button', { name: 'Remove Account 1…' })).toBeNull();
  });

  it('an account of the recovery phrase offers no Remove: nothing would give it back', async () => {
    const SECOND = { ...ACCOUNT, id: 'acc2', name: 'Account 2', index: 1 };
    const bg = fakeBackground({
      'networks.list': () => ({ networks: [NETWORK], selectedId: NETWORK.id }),
      'accounts.list': () => ({ accounts: [ACCOUNT, SECOND], selectedId: ACCOUNT.id }),
    });
    renderWith(bg, <Settings status={UNLOCKED} onStatus={vi.fn()} />);
    open('Accounts');
    await screen.findByRole('button', { name: 'Rename Account 2' });
    expect(screen.queryByRole('button', { name: /^Remove/ })).toBeNull();
  });

  it("says at once that another account has a name, and sends no rename or add with it", async () => {
    const SECOND = { ...ACCOUNT, id: 'acc2', name: 'Savings', index: 1 };
    const bg = fakeBackground({
      'networks.list': () => ({ networks: [NETWORK], selectedId: NETWORK.id }),
      'accounts.list': () => ({ accounts: [ACCOUNT, SECOND], selectedId: ACCOUNT.id }),
    });
    renderWith(bg, <Settings status={UNLOCKED} onStatus={vi.fn()} />);
    open('Accounts');
    fireEvent.click(await screen.findByRole('button', { name: 'Rename Savings' }));
    type('Account name (renaming Savings)', 'account 1');
    expect(screen.getByText('Another account is named “Account 1”: choose another name')).toBeTruthy();
    const save = screen.getByRole('button', { name: 'Save the name of Savings' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    fireEvent.click(save);
    // Its own name in other letters is no clash.
    type('Account name (renaming Savings)', 'SAVINGS');
    expect(save.disabled).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel renaming Savings' }));
    // Focus back on the row it left from, not at the top of Settings.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Rename Savings' })));
    fireEvent.click(screen.getByRole('button', { name: 'Add account' }));
    type('New account name', 'Savings');
    expect(screen.getByText('Another account is named “Savings”: choose another name')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Add' }) as HTMLButtonElement).disabled).toBe(true);
    expect(bg.callsOf('accounts.rename')).toEqual([]);
    expect(bg.callsOf('accounts.add')).toEqual([]);
  });

  it('changes the password only with a strong, confirmed new one, and shows a wrong current password', async () => {
    const bg = fakeBackground({
      'networks.list': () => ({ networks: [NETWORK], selectedId: NETWORK.id }),
      'accounts.list': () => ({ accounts: [ACCOUNT], selectedId: ACCOUNT.id }),
      'wallet.changePassword': ({ oldPassword }) => {
        if (oldPassword !== 'old one!') throw new Refuse({ code: 'wrong-password', message: 'the password is not correct', field: 'oldPassword' });
        return { ok: true as const };
      },
    });
    renderWith(bg, <Settings status={UNLOCKED} onStatus={vi.fn()} />);
    open('Change password');
    const submit = screen.getByRole('button', { name: 'Change password' }) as HTMLButtonElement;
    type('Current password', 'nope');
    type('New password', 'correct horse battery staple');
    type('Confirm password', 'correct horse battery');
    expect(submit.disabled).toBe(true);
    type('Confirm password', 'correct horse battery staple');
    expect(submit.disabled).toBe(false);
    fireEvent.click(submit);
    expect(await screen.findByText('The password is not correct')).toBeTruthy();
    type('Current password', 'old one!');
    fireEvent.click(submit);
    expect(await screen.findByText('Password changed.')).toBeTruthy();
    expect(bg.callsOf('wallet.changePassword')[1]).toEqual({ oldPassword: 'old one!', newPassword: 'correct horse battery staple' });
  });

  it("links the network's explorer when it has one", () => {
    const bg = fakeBackground({
      'networks.list': () => ({ networks: [NETWORK], selectedId: NETWORK.id }),
      'accounts.list': () => ({ accounts: [ACCOUNT], selectedId: ACCOUNT.id }),
    });
    const fuji = { ...NETWORK, id: 'fuji', kind: 'fuji' as const, name: 'Fuji testnet', hrp: 'fuji', explorerUrl: 'https://subnets-test.avax.network' };
    renderWith(bg, <Settings status={{ ...UNLOCKED, network: fuji }} onStatus={vi.fn()} />);
    open('About');
    expect(screen.getByRole('link', { name: 'https://subnets-test.avax.network' }).getAttribute('rel')).toContain('noopener');
    cleanup();
    renderWith(bg, <Settings status={UNLOCKED} onStatus={vi.fn()} />);
    open('About');
    expect(screen.getByText('none for this network')).toBeTruthy();
  });

  it("shows a node's health in words, its own message and address behind Details; each network's buttons named apart", async () => {
    const custom = { ...NETWORK, id: 'mine', name: 'My node', kind: 'custom' as const, url: 'http://10.0.0.5:9650' };
    const bg = fakeBackground({
      'networks.list': () => ({ networks: [NETWORK, custom], selectedId: NETWORK.id }),
      'accounts.list': () => ({ accounts: [ACCOUNT], selectedId: ACCOUNT.id }),
      'networks.health': ({ id }: { id: string }) =>
        id === 'mine' ? { healthy: false, checks: [], passed: 0, error: 'node at http://10.0.0.5:9650/ext/health is unreachable: fetch failed', errorCode: 'node-unreachable' } : { healthy: false, checks: ['bootstrapped'], passed: 4 },
    });
    renderWith(bg, <Settings status={UNLOCKED} onStatus={vi.fn()} />);
    open('Network');
    fireEvent.click(await screen.findByRole('button', { name: 'Check health of My node' }));
    const line = await screen.findByText(/^Not healthy: The node can't be reached/);
    const details = line.querySelector('details')!;
    expect(details.textContent).toContain('http://10.0.0.5:9650/ext/health');
    expect(line.textContent!.replace(details.textContent!, '')).toBe("Not healthy: The node can't be reached. Check that it is running and that its address in Settings is right.");
    // Each failed network's Details is named by the network it is about.
    expect(details.querySelector('summary')!.textContent).toBe('Details of My node');
    fireEvent.click(screen.getByRole('button', { name: `Check health of ${NETWORK.name}` }));
    expect(await screen.findByText('Not healthy: still catching up with the network (failing checks: bootstrapped)')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Remove My node' })).toBeTruthy();
    expect(bg.callsOf('networks.health')).toEqual([{ id: 'mine' }, { id: 'local' }]);
  });

  it('switches network only on its Use button (no radio for arrow keys to run through); busy, the focused button stays enabled and ignores presses', async () => {
    const fuji = { ...NETWORK, id: 'fuji', name: 'Fuji testnet', kind: 'fuji' as const };
    let answer: (() => void) | undefined;
    const onStatus = vi.fn();
    const bg = fakeBackground({
      'networks.list': () => ({ networks: [NETWORK, fuji], selectedId: NETWORK.id }),
      'accounts.list': () => ({ accounts: [ACCOUNT], selectedId: ACCOUNT.id }),
      'networks.select': async () => {
        await new Promise<void>((r) => (answer = r));
        return { ...UNLOCKED, network: fuji };
      },
    });
    renderWith(bg, <Settings status={UNLOCKED} onStatus={onStatus} />);
    open('Network');
    expect(screen.queryByRole('radio')).toBeNull();
    const use = await screen.findByRole('button', { name: 'Use: Fuji testnet' });
    expect(screen.getByRole('button', { name: `In use: ${NETWORK.name}` }).getAttribute('aria-disabled')).toBe('true');
    const regions = [...document.querySelectorAll('[role="status"]')];
    use.focus();
    fireEvent.click(use);
    // Said in a polite live region, there before the wait so the wait is announced.
    const wait = await screen.findByText('Checking the node before switching…');
    expect(wait.getAttribute('role')).toBe('status');
    expect(regions).toContain(wait);
    expect(use.hasAttribute('disabled')).toBe(false);
    expect(use.getAttribute('aria-disabled')).toBe('true');
    expect(document.activeElement).toBe(use);
    fireEvent.click(use);
    answer!();
    await waitFor(() => expect(onStatus).toHaveBeenCalledWith({ ...UNLOCKED, network: fuji }));
    expect(bg.callsOf('networks.select')).toEqual([{ id: 'fuji' }]);
  });

  it('keeps the auto-lock choice focused and enabled while it is saved, and ignores another change meanwhile', async () => {
    let answer: (() => void) | undefined;
    const bg = fakeBackground({
      'networks.list': () => ({ networks: [NETWORK], selectedId: NETWORK.id }),
      'accounts.list': () => ({ accounts: [ACCOUNT], selectedId: ACCOUNT.id }),
      'wallet.setIdleLock': async ({ minutes }) => {
        await new Promise<void>((r) => (answer = r));
        return { minutes };
      },
    });
    renderWith(bg, <Settings status={UNLOCKED} onStatus={vi.fn()} />);
    open('Auto-lock');
    const choice = screen.getByLabelText('Lock after this long without use') as HTMLSelectElement;
    choice.focus();
    fireEvent.change(choice, { target: { value: '5' } });
    await waitFor(() => expect(choice.getAttribute('aria-disabled')).toBe('true'));
    expect(choice.disabled).toBe(false);
    expect(document.activeElement).toBe(choice);
    fireEvent.change(choice, { target: { value: '60' } });
    answer!();
    await waitFor(() => expect(choice.getAttribute('aria-disabled')).toBe('false'));
    expect(bg.callsOf('wallet.setIdleLock')).toEqual([{ minutes: 5 }]);
  });

  it('asks before removing a network with unfinished moves, and removes it only on "Remove anyway"', async () => {
    const custom = { ...NETWORK, id: 'mine', name: 'My node', kind: 'custom' as const, url: 'http://10.0.0.5:9650' };
    let networks = [NETWORK, custom];
    const bg = fakeBackground({
      'networks.list': () => ({ networks, selectedId: NETWORK.id }),
      'accounts.list': () => ({ accounts: [ACCOUNT], selectedId: ACCOUNT.id }),
      'networks.remove': (p: { id: string; confirmLoss?: boolean }) => {
        if (!p.confirmLoss) throw new Refuse({ code: 'network-has-moves', message: '1 move(s) between chains on this network are not finished; removing it stops them. Remove it anyway?' });
        networks = [NETWORK];
        return { ok: true as const };
      },
    });
    renderWith(bg, <Settings status={UNLOCKED} onStatus={vi.fn()} />);
    open('Network');
    fireEvent.click(await screen.findByRole('button', { name: 'Remove My node' }));
    expect((await screen.findByRole('alert')).textContent).toContain('1 move(s) between chains on this network are not finished');
    fireEvent.click(screen.getByRole('button', { name: 'Keep My node' }));
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Remove My node' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Remove My node anyway' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Remove My node' })).toBeNull());
    expect(bg.callsOf('networks.remove')).toEqual([{ id: 'mine' }, { id: 'mine' }, { id: 'mine', confirmLoss: true }]);
  });

  it('reveals the recovery phrase behind the password and sets auto-lock with its warning', async () => {
    const onStatus = vi.fn();
    const bg = fakeBackground({
      'networks.list': () => ({ networks: [NETWORK], selectedId: NETWORK.id }),
      'accounts.list': () => ({ accounts: [ACCOUNT], selectedId: ACCOUNT.id }),
      'wallet.revealMnemonic': () => ({ mnemonic: 'alpha beta gamma' }),
      'wallet.setIdleLock': ({ minutes }) => ({ minutes, warning: 'the wallet stays unlocked until the browser closes' }),
    });
    renderWith(bg, <Settings status={UNLOCKED} onStatus={onStatus} />);
    open('Recovery phrase');
    type('Password', 'pw');
    fireEvent.click(screen.getByRole('button', { name: 'Show recovery phrase' }));
    const words = await screen.findByRole('list', { name: 'Recovery phrase' });
    expect(words.textContent).toContain('gamma');
    expect(bg.callsOf('wallet.revealMnemonic')).toEqual([{ password: 'pw' }]);

    open('Auto-lock');
    fireEvent.change(screen.getByLabelText('Lock after this long without use'), { target: { value: 'never' } });
    expect(await screen.findByText('the wallet stays unlocked until the browser closes')).toBeTruthy();
    expect(bg.callsOf('wallet.setIdleLock')).toEqual([{ minutes: 'never' }]);
    expect(onStatus).toHaveBeenCalledWith({ ...UNLOCKED, idleLockMinutes: 'never' });
  });
});

describe('Settings: export a private key', () => {
  it('never shows one account\'s key under another\'s name after a switch', async () => {
    const alpha = { ...ACCOUNT, id: 'alpha', name: 'Alpha', kind: 'imported' as const };
    const beta = { ...ACCOUNT, id: 'beta', name: 'Beta', kind: 'imported' as const };
    delete (alpha as { index?: number }).index;
    delete (beta as { index?: number }).index;
    const bg = fakeBackground({
      'networks.list': () => ({ networks: [NETWORK], selectedId: NETWORK.id }),
      'accounts.list': () => ({ accounts: [alpha, beta], selectedId: alpha.id }),
      'wallet.exportPrivateKey': ({ accountId }) => ({ privateKey: `PrivateKey-of-${accountId}` }),
    });
    const { rerender } = renderWith(bg, <Settings status={{ ...UNLOCKED, account: alpha }} onStatus={vi.fn()} />);
    const summary = screen.getByText('Export private key', { selector: 'summary' });
    (summary.parentElement as HTMLDetailsElement).open = true;
    const button = screen.getByRole('button', { name: 'Show private key of “Alpha”' });
    fireEvent.input(within(button.closest('form')!).getByLabelText('Password'), { target: { value: 'the password' } });
    fireEvent.click(button);
    await screen.findByText('PrivateKey-of-alpha');
    rerender(
      <ApiContext.Provider value={makeCall(bg.send)}>
        <Settings status={{ ...UNLOCKED, account: beta }} onStatus={vi.fn()} />
      </ApiContext.Provider>,
    );
    expect(screen.queryByText('PrivateKey-of-alpha')).toBeNull();
    expect(screen.getByRole('button', { name: 'Show private key of “Beta”' })).toBeTruthy();
  });
});

describe('Settings: connected sites', () => {
  function open(name: string) {
    const summary = screen.getByText(name, { selector: 'summary' });
    (summary.parentElement as HTMLDetailsElement).open = true;
  }
  const base = {
    'networks.list': () => ({ networks: [NETWORK], selectedId: NETWORK.id }),
    'accounts.list': () => ({ accounts: [ACCOUNT], selectedId: ACCOUNT.id }),
  };
  const DEX: AddedChainView = { chainId: '432204', name: 'Dexalot', rpcUrl: 'https://rpc.dexalot.example/ext/bc/C/rpc', symbol: 'ALOT', decimals: 18, usedBy: 2 };

  it('lists connected sites with their accounts, and disconnects one', async () => {
    const sites: SiteView[] = [
      { origin: 'https://app.example', accounts: [{ id: ACCOUNT.id, name: 'Account 1', cAddress: C_ADDR }], connectedAt: Date.UTC(2026, 0, 2, 3, 4, 5) },
      { origin: 'https://other.example', accounts: [{ id: 'acc2', name: 'Savings', cAddress: C_OTHER }], connectedAt: Date.UTC(2026, 0, 3) },
    ];
    const bg = fakeBackground({
      ...base,
      'sites.list': () => ({ sites: [...sites], chains: [] }),
      'sites.revoke': ({ origin }) => {
        sites.splice(sites.findIndex((s) => s.origin === origin), 1);
        return { ok: true as const };
      },
    });
    renderWith(bg, <Settings status={UNLOCKED} onStatus={vi.fn()} />);
    open('Connected sites');
    const rows = await screen.findAllByTestId('site');
    expect(rows).toHaveLength(2);
    expect(rows[0]!.textContent).toContain('https://app.example');
    expect(rows[0]!.textContent).toContain('Account 1');
    expect(rows[0]!.textContent).toContain(C_ADDR);
    expect(rows[0]!.textContent).toMatch(/Connected 2026-01-0\d \d\d:\d\d/);
    expect(rows[1]!.textContent).toContain('Savings');

    fireEvent.click(screen.getByRole('button', { name: 'Disconnect https://app.example' }));
    await waitFor(() => expect(screen.getAllByTestId('site')).toHaveLength(1));
    expect(bg.callsOf('sites.revoke')).toEqual([{ origin: 'https://app.example' }]);
    expect(screen.getByTestId('site').textContent).toContain('https://other.example');

    fireEvent.click(screen.getByRole('button', { name: 'Disconnect https://other.example' }));
    expect(await screen.findByText('No site is connected')).toBeTruthy();
  });

  it('shows the chain each site sees, and puts a site back on the wallet’s network (also one that is not connected)', async () => {
    const sites: SiteView[] = [
      { origin: 'https://app.example', accounts: [{ id: ACCOUNT.id, name: 'Account 1', cAddress: C_ADDR }], connectedAt: Date.UTC(2026, 0, 2), chain: { chainId: '432204', name: 'Dexalot' } },
      { origin: 'https://other.example', accounts: [{ id: 'acc2', name: 'Savings', cAddress: C_OTHER }], connectedAt: Date.UTC(2026, 0, 1) },
      { origin: 'https://switched.example', accounts: [], chain: { chainId: '432204', name: 'Dexalot' } },
    ];
    const bg = fakeBackground({
      ...base,
      'sites.list': () => ({ sites: sites.map((x) => ({ ...x })), chains: [DEX] }),
      'sites.resetChain': ({ origin }) => {
        delete sites.find((x) => x.origin === origin)!.chain;
        return { ok: true as const };
      },
    });
    renderWith(bg, <Settings status={UNLOCKED} onStatus={vi.fn()} />);
    open('Connected sites');
    const chains = await screen.findAllByTestId('site-chain');
    expect(chains.map((c) => c.textContent)).toEqual([
      'Sees chain ID 432204 (“Dexalot”)Use the wallet\'s network',
      "Sees the wallet's network",
      'Sees chain ID 432204 (“Dexalot”)Use the wallet\'s network',
    ]);
    const rows = screen.getAllByTestId('site');
    expect(rows[2]!.textContent).toContain('Not connected');
    expect(within(rows[2]!).queryByRole('button', { name: /Disconnect/ })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: "Use the wallet's network on https://app.example" }));
    await waitFor(() => expect(screen.getAllByTestId('site-chain')[0]!.textContent).toBe("Sees the wallet's network"));
    expect(bg.callsOf('sites.resetChain')).toEqual([{ origin: 'https://app.example' }]);
    expect(screen.getAllByTestId('site-chain')[2]!.textContent).toContain('432204');
  });

  it('lists chains sites added, says how many sites use each, and removes one', async () => {
    const chains: AddedChainView[] = [DEX, { ...DEX, chainId: '1234', name: 'Test EVM', symbol: 'TST', usedBy: 0, explorerUrl: 'https://scan.example' }];
    const bg = fakeBackground({
      ...base,
      'sites.list': () => ({ sites: [], chains: [...chains] }),
      'sites.removeChain': ({ chainId }) => {
        chains.splice(chains.findIndex((c) => c.chainId === chainId), 1);
        return { ok: true as const };
      },
    });
    renderWith(bg, <Settings status={UNLOCKED} onStatus={vi.fn()} />);
    open('Connected sites');
    const rows = await screen.findAllByTestId('added-chain');
    expect(screen.getByText('No site is connected')).toBeTruthy();
    expect(rows[0]!.textContent).toContain('432204');
    expect(rows[0]!.textContent).toContain('https://rpc.dexalot.example/ext/bc/C/rpc');
    expect(rows[0]!.textContent).toContain('ALOT');
    expect(within(rows[0]!).getByText('in use by 2 sites')).toBeTruthy();
    expect(within(rows[1]!).queryByText(/in use by/)).toBeNull();
    expect(rows[1]!.textContent).toContain('https://scan.example');

    fireEvent.click(screen.getByRole('button', { name: 'Remove Dexalot (chain 432204)' }));
    await waitFor(() => expect(screen.getAllByTestId('added-chain')).toHaveLength(1));
    expect(bg.callsOf('sites.removeChain')).toEqual([{ chainId: '432204' }]);
  });

  it('two added chains a site named alike get Remove buttons told apart by chain ID', async () => {
    const bg = fakeBackground({ ...base, 'sites.list': () => ({ sites: [], chains: [DEX, { ...DEX, chainId: '43114', usedBy: 0 }] }), 'sites.removeChain': () => ({ ok: true as const }) });
    renderWith(bg, <Settings status={UNLOCKED} onStatus={vi.fn()} />);
    open('Connected sites');
    await screen.findAllByTestId('added-chain');
    expect(screen.getAllByRole('button', { name: /^Remove Dexalot/ }).map((b) => b.getAttribute('aria-label'))).toEqual(['Remove Dexalot (chain 432204)', 'Remove Dexalot (chain 43114)']);
    fireEvent.click(screen.getByRole('button', { name: 'Remove Dexalot (chain 43114)' }));
    await waitFor(() => expect(bg.callsOf('sites.removeChain')).toEqual([{ chainId: '43114' }]));
  });

  it('shows a refused disconnect', async () => {
    const bg = fakeBackground({
      ...base,
      'sites.list': () => ({ sites: [{ origin: 'https://app.example', accounts: [], connectedAt: 1 }], chains: [] }),
      'sites.revoke': () => {
        throw new Refuse({ code: 'validation', message: 'that site is not connected', field: 'origin' });
      },
    });
    renderWith(bg, <Settings status={UNLOCKED} onStatus={vi.fn()} />);
    open('Connected sites');
    fireEvent.click(await screen.findByRole('button', { name: 'Disconnect https://app.example' }));
    expect(await screen.findByText('That site is not connected')).toBeTruthy();
  });
});

// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Activity } from '../../../src/popup/screens/Activity.js';
import { Assets } from '../../../src/popup/screens/Assets.js';
import { Move } from '../../../src/popup/screens/Move.js';
import { Settings } from '../../../src/popup/screens/Settings.js';
import type { ActivityItem, TransferView } from '../../../src/shared/messages.js';
import { fakeBackground, Refuse, renderWith } from './fake-background.js';
import { ACCOUNT, avax, AVAX_ID, balances, FAKE_ID, HRP, NETWORK, UNLOCKED, X_ADDR, X_OTHER } from './fixtures.js';

afterEach(cleanup);

function type(label: string | RegExp, value: string) {
  fireEvent.input(screen.getByLabelText(label), { target: { value } });
}

describe('Move', () => {
  it('starts a move in nAVAX, shows both fees and the progress of each move', async () => {
    const transfers: TransferView[] = [
      { id: 'm1', from: 'P', to: 'C', amount: '2000000000', state: 'export-accepted', exportTxID: 'exp1', exportFee: '280000', importTxIDs: [] },
    ];
    const items: ActivityItem[] = [
      { txID: 'e', chain: 'X', kind: 'export', status: 'accepted', fee: '1000000', createdAt: 1 },
      { txID: 'i', chain: 'P', kind: 'import', status: 'accepted', fee: '300000', createdAt: 1 },
    ];
    const bg = fakeBackground({
      'transfers.list': () => ({ transfers }),
      'activity.list': () => ({ items }),
      'transfers.start': (p) => {
        const t: TransferView = { id: 'm2', ...p, state: 'pending', importTxIDs: [] };
        transfers.unshift(t);
        return t;
      },
    });
    renderWith(bg, <Move balances={balances()} onChanged={vi.fn()} pollMs={20} />);
    expect(await screen.findByText('P-Chain → C-Chain')).toBeTruthy();
    const transfer = screen.getByTestId('transfer');
    expect([...transfer.querySelectorAll('.steps .done')].map((li) => li.textContent)).toEqual(['Started', 'Export issued', 'Export accepted']);
    expect(transfer.querySelector('[aria-current="step"]')?.textContent).toBe('Import issued');
    await waitFor(() => expect(screen.getByTestId('move-fees').textContent).toContain('about 0.001 AVAX (your last export)'));
    expect(screen.getByTestId('move-fees').textContent).toContain('about 0.0003 AVAX (your last import), taken from the amount');

    type('Amount (AVAX)', '12');
    expect(screen.getByText('With the fee of 0.001 AVAX this is more than you can spend; at most 11.999 AVAX')).toBeTruthy();
    type('Amount (AVAX)', '2.5');
    fireEvent.click(screen.getByRole('button', { name: 'Move to the P-Chain' }));
    await waitFor(() => expect(bg.callsOf('transfers.start')).toEqual([{ from: 'X', to: 'P', amount: '2500000000' }]));
    expect(await screen.findByText('X-Chain → P-Chain')).toBeTruthy();
  });

  it('counts C-Chain AVAX in whole nAVAX and never offers the source as destination', async () => {
    const bg = fakeBackground({ 'transfers.list': () => ({ transfers: [] }), 'activity.list': () => ({ items: [] }) });
    renderWith(bg, <Move balances={balances({ balances: [avax('C', '1500000000123456789')] })} onChanged={vi.fn()} />);
    fireEvent.click(screen.getByRole('radio', { name: 'From C' }));
    expect((screen.getByRole('radio', { name: 'To C' }) as HTMLInputElement).disabled).toBe(true);
    expect(screen.getByText('Spendable: 1.5 AVAX')).toBeTruthy();
    expect(await screen.findByText('No moves yet.')).toBeTruthy();
  });
});

describe('Activity', () => {
  it('lists kind, amount with its unit, chain, status and a copyable ID', async () => {
    const bg = fakeBackground({
      'activity.list': () => ({
        items: [
          { txID: '0x' + 'ab'.repeat(32), chain: 'C', kind: 'send', status: 'accepted', amount: '250000000000000000', createdAt: 1 },
          { txID: 'TxAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', chain: 'X', kind: 'receive', status: 'pending', assetID: AVAX_ID, amount: '1500000000', createdAt: 2 },
          { txID: 'TxBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB', chain: 'X', kind: 'send', status: 'failed', assetID: FAKE_ID, amount: '7', fee: '1000000', createdAt: 3 },
        ],
      }),
    });
    const gold = { ...avax('X', '250'), assetID: FAKE_ID, name: 'Gold', symbol: 'GOLD', denomination: 2, verified: false };
    renderWith(bg, <Activity balances={balances({ balances: [avax('X', '1'), gold] })} />);
    const rows = await screen.findAllByTestId('activity-item');
    expect(rows).toHaveLength(3);
    expect(rows[0]!.textContent).toContain('Sent');
    expect(rows[0]!.textContent).toContain('0.25 AVAX');
    expect(rows[0]!.textContent).toContain('C-Chain');
    expect(rows[1]!.textContent).toContain('Received');
    expect(rows[1]!.textContent).toContain('1.5 AVAX');
    expect(within(rows[1]!).getByText('Pending')).toBeTruthy();
    expect(rows[2]!.textContent).toContain('0.07 GOLD (ID 2fombhL7aG…JyFDbe)');
    expect(rows[2]!.textContent).toContain('Fee 0.001 AVAX');
    expect(within(rows[2]!).getByText('Failed')).toBeTruthy();
    expect(within(rows[2]!).getByRole('button', { name: 'Copy transaction ID' })).toBeTruthy();
  });
});

describe('Settings', () => {
  function open(name: string) {
    const summary = screen.getByText(name, { selector: 'summary' });
    (summary.parentElement as HTMLDetailsElement).open = true;
  }

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

  it("shows a node's health from /ext/health", async () => {
    const bg = fakeBackground({
      'networks.list': () => ({ networks: [NETWORK], selectedId: NETWORK.id }),
      'accounts.list': () => ({ accounts: [ACCOUNT], selectedId: ACCOUNT.id }),
      'networks.health': () => ({ healthy: false, checks: [], error: 'connection refused' }),
    });
    renderWith(bg, <Settings status={UNLOCKED} onStatus={vi.fn()} />);
    open('Network');
    fireEvent.click(await screen.findByRole('button', { name: 'Check health' }));
    expect(await screen.findByText('Unhealthy: connection refused')).toBeTruthy();
    expect(bg.callsOf('networks.health')).toEqual([{ id: 'local' }]);
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

describe('Assets', () => {
  function renderAssets(handlers: Parameters<typeof fakeBackground>[0] = {}) {
    const bg = fakeBackground({ 'activity.list': () => ({ items: [] }), ...handlers });
    const gold = { ...avax('X', '250'), assetID: FAKE_ID, name: 'Gold', symbol: 'GOLD', denomination: 2, verified: false };
    renderWith(bg, <Assets status={UNLOCKED} hrp={HRP} balances={balances({ balances: [avax('X', '1'), gold] })} onChanged={vi.fn()} />);
    return bg;
  }

  it('shows asset details with the full ID, denomination and an honest supply line', () => {
    renderAssets();
    fireEvent.click(screen.getByRole('button', { name: `Details of GOLD ${FAKE_ID}` }));
    expect(screen.getByText(FAKE_ID)).toBeTruthy();
    expect(screen.getByText('2 decimal places')).toBeTruthy();
    expect(screen.getAllByText('2.5 GOLD', { selector: 'dd' })).toHaveLength(2);
    expect(screen.getByText(/Not known/)).toBeTruthy();
  });

  it('creates a fixed-cap asset with its initial holders', async () => {
    const bg = renderAssets({ 'assets.create': () => ({ txID: 'ctx', assetID: 'ctx', fee: '10000000' }) });
    fireEvent.click(screen.getByRole('radio', { name: 'Create' }));
    type('Name', 'Gold Coin');
    type('Symbol', 'gld');
    expect((screen.getByLabelText('Symbol') as HTMLInputElement).value).toBe('GLD');
    type('Decimal places (denomination)', '2');
    type(/^Amount for holder 1/, '1000.255');
    expect(screen.getByText('At most 2 decimal places for this asset')).toBeTruthy();
    type(/^Amount for holder 1/, '1000.25');
    fireEvent.click(screen.getByRole('button', { name: 'Add holder' }));
    type('Holder 2', X_OTHER);
    type(/^Amount for holder 2/, '5');
    fireEvent.click(screen.getByRole('button', { name: 'Create asset' }));
    await waitFor(() => expect(bg.callsOf('assets.create')).toHaveLength(1));
    expect(bg.callsOf('assets.create')[0]).toEqual({
      name: 'Gold Coin',
      symbol: 'GLD',
      denomination: 2,
      kind: 'fixed',
      holders: [
        { owners: { addresses: [X_ADDR], threshold: 1 }, amount: '100025' },
        { owners: { addresses: [X_OTHER], threshold: 1 }, amount: '500' },
      ],
    });
    expect(await screen.findByText('New asset ID')).toBeTruthy();
  });

  it('creates a variable-cap asset with a 2-of-2 minter set', async () => {
    const bg = renderAssets({ 'assets.create': () => ({ txID: 'v', assetID: 'v', fee: '1' }) });
    fireEvent.click(screen.getByRole('radio', { name: 'Create' }));
    fireEvent.click(screen.getByRole('radio', { name: 'Variable cap' }));
    type('Name', 'Points');
    type('Symbol', 'PTS');
    type('Addresses (one per line)', `${X_ADDR}\n${X_OTHER}`);
    type('Signatures needed', '3');
    expect(screen.getByText('Signatures needed: a whole number from 1 to 2')).toBeTruthy();
    type('Signatures needed', '2');
    fireEvent.click(screen.getByRole('button', { name: 'Create asset' }));
    await waitFor(() => expect(bg.callsOf('assets.create')).toHaveLength(1));
    expect(bg.callsOf('assets.create')[0]).toEqual({ name: 'Points', symbol: 'PTS', denomination: 9, kind: 'variable', minters: [{ addresses: [X_ADDR, X_OTHER], threshold: 2 }] });
  });

  it('mints an NFT whose payload is a link: shown, not fetched, sent as UTF-8 hex', async () => {
    const bg = renderAssets({ 'assets.mintNft': () => ({ txID: 'n', fee: '1000000' }) });
    fireEvent.click(screen.getByRole('radio', { name: 'NFTs' }));
    type('NFT family asset ID', FAKE_ID);
    fireEvent.click(screen.getByRole('radio', { name: 'Image URL' }));
    type('Payload', 'https://example.org/cat.png');
    const link = screen.getByRole('link', { name: 'https://example.org/cat.png' });
    expect(link.getAttribute('rel')).toContain('noreferrer');
    expect(document.querySelector('img')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Mint NFT' }));
    await waitFor(() => expect(bg.callsOf('assets.mintNft')).toHaveLength(1));
    const hex = Array.from(new TextEncoder().encode('https://example.org/cat.png'), (b) => b.toString(16).padStart(2, '0')).join('');
    expect(bg.callsOf('assets.mintNft')[0]).toEqual({ assetID: FAKE_ID, groupID: 0, payloadHex: hex, to: [{ addresses: [X_ADDR], threshold: 1 }] });
  });

  it('checks an NFT UTXO ID before sending it', async () => {
    const bg = renderAssets({ 'assets.transferNft': () => ({ txID: 't', fee: '1000000' }) });
    fireEvent.click(screen.getByRole('radio', { name: 'NFTs' }));
    type('NFT UTXO ID', 'nonsense');
    expect(screen.getByText('A UTXO ID looks like <txID>:<outputIndex>')).toBeTruthy();
    type('NFT UTXO ID', `${FAKE_ID}:1`);
    type(/^To/, X_OTHER);
    fireEvent.click(screen.getByRole('button', { name: 'Send NFT' }));
    await waitFor(() => expect(bg.callsOf('assets.transferNft')).toEqual([{ utxoID: `${FAKE_ID}:1`, to: { addresses: [X_OTHER], threshold: 1 } }]));
  });
});

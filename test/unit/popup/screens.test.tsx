// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Activity, ACTIVITY_PAGE } from '../../../src/popup/screens/Activity.js';
import { Assets } from '../../../src/popup/screens/Assets.js';
import { Move, TransferProgress } from '../../../src/popup/screens/Move.js';
import { formatClock, shortenId } from '../../../src/popup/format.js';
import { keepFocusOnScreen } from '../../../src/popup/focus.js';
import { Settings } from '../../../src/popup/screens/Settings.js';
import type { AddedChainView, RequestParams, SiteView, TransferView } from '../../../src/shared/messages.js';
import { fakeBackground, Refuse, renderWith } from './fake-background.js';
import { clickConfirm } from './confirm.js';
import { ApiContext, makeCall } from '../../../src/popup/api.js';
import { ACCOUNT, avax, AVAX_ID, balances, C_ADDR, C_OTHER, FAKE_ID, HRP, NETWORK, UNLOCKED, X_ADDR, X_OTHER } from './fixtures.js';

afterEach(cleanup);

function type(label: string | RegExp, value: string) {
  fireEvent.input(screen.getByLabelText(label), { target: { value } });
}

/** Fees like the real background's: per source (export) and destination (import), in nAVAX. */
const EXPORT_FEE = { X: 1_000_000n, P: 280_000n, C: 500_000n };
const IMPORT_FEE = { X: 1_000_000n, P: 300_000n, C: 350_000n };

function transferEstimator(spendable: bigint) {
  return (p: RequestParams<'transfers.estimate'>) => {
    const amount = BigInt(p.amount);
    if (amount + EXPORT_FEE[p.from] > spendable) {
      throw new Refuse({ code: 'insufficient-funds', message: `insufficient funds of AVAX: need ${amount + EXPORT_FEE[p.from]}, spendable ${spendable}` });
    }
    if (p.to === 'C' && amount <= IMPORT_FEE.C) {
      throw new Refuse({ code: 'insufficient-funds', message: 'insufficient funds of AVAX waiting to be imported (less than the import fee)' });
    }
    return { exportFee: EXPORT_FEE[p.from].toString(), importFee: IMPORT_FEE[p.to].toString(), maxAmount: (spendable - EXPORT_FEE[p.from]).toString() };
  };
}

describe('Move', () => {
  it('says a move under way is paused while the node does not answer, and only waiting otherwise; a finished one is neither', () => {
    const since = Date.UTC(2026, 10, 25, 2, 0, 0);
    const base: TransferView = { id: 'm', from: 'X', to: 'P', amount: '1000000000', state: 'export-signed', exportTxID: 'e', importTxIDs: [] };
    render(
      <ul>
        <TransferProgress t={{ ...base, paused: { code: 'node-unreachable', message: 'node at http://127.0.0.1:9650 is unreachable', since } }} />
      </ul>,
    );
    const paused = screen.getByTestId('transfer-paused');
    expect(paused.dataset.reason).toBe('node');
    expect(paused.querySelector('p')?.textContent).toBe(`Paused — waiting for the node to answer (since ${formatClock(since)}). The move continues by itself when it does; nothing is lost meanwhile.`);
    expect(paused.querySelector('details')?.textContent).toContain('http://127.0.0.1:9650');
    cleanup();
    render(
      <ul>
        <TransferProgress t={{ ...base, state: 'export-accepted', error: 'the exported funds do not show in the P-Chain atomic memory yet' }} />
      </ul>,
    );
    expect(screen.getByTestId('transfer-paused').dataset.reason).toBe('waiting');
    cleanup();
    // Its import costs more than was approved: it says so, and where to finish it at the new fee.
    render(
      <ul>
        <TransferProgress t={{ ...base, state: 'export-accepted', paused: { code: 'fee-above-approved', message: 'above the approved maximum', since } }} />
      </ul>,
    );
    expect(screen.getByTestId('transfer-paused').querySelector('p')?.textContent).toBe(
      'Waiting — its import now costs more than you approved. It is tried again every minute within the fee you approved; or use Import now at the top of this screen, reviewing the new fee first.',
    );
    cleanup();
    render(
      <ul>
        <TransferProgress t={{ ...base, state: 'export-accepted', paused: { code: 'import-stuck', message: 'failed 5 times', since } }} />
      </ul>,
    );
    expect(screen.getByTestId('transfer-paused').querySelector('p')?.textContent).toMatch(/^Waiting — the network refused its import several times; the funds wait in atomic memory\. .*use Import now at the top of this screen/);
    cleanup();
    // The popup's own view of the node (the banner's) pauses it too, with no reason from the background yet.
    render(
      <ul>
        <TransferProgress t={base} nodeDown />
      </ul>,
    );
    expect(screen.getByTestId('transfer-paused').dataset.reason).toBe('node');
    cleanup();
    render(
      <ul>
        <TransferProgress t={{ ...base, state: 'completed', importTxIDs: ['i'], paused: { code: 'timeout', message: 'late', since } }} nodeDown />
      </ul>,
    );
    expect(screen.queryByTestId('transfer-paused')).toBeNull();
  });

  it("rounds a move's amount and fees as Home does, the exact amounts one click away", () => {
    render(
      <ul>
        <TransferProgress t={{ id: 'm', from: 'X', to: 'P', amount: '1234567891', state: 'completed', exportTxID: 'e', exportFee: '1000123', importTxIDs: ['i'], importFee: '280456' }} />
      </ul>,
    );
    expect(screen.getByRole('button', { name: '≈ 1.234567 AVAX (exactly 1.234567891 AVAX)' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '≈ 0.001 AVAX (exactly 0.001000123 AVAX)' })).toBeTruthy();
    const importFee = screen.getByRole('button', { name: '≈ 0.00028 AVAX (exactly 0.000280456 AVAX)' });
    fireEvent.click(importFee);
    expect(importFee.textContent).toBe('0.000280456 AVAX');
  });

  it("names each move's copy buttons apart, by the shortened ID they copy", () => {
    const ids = ['2oGdK1Mbt5gxQ8YHtWMm8Nm3hPZzAR7FNHgbbmEyTbHy4Fhk3F', 'nBuYH7LtqK4HmmVVnG6A7E3UDmW6zbexBx8JLrEtqvHW1o4Mq'];
    render(
      <ul>
        {ids.map((id, i) => (
          <TransferProgress key={id} t={{ id: `m${i}`, from: 'X', to: 'P', amount: '1000000000', state: 'completed', exportTxID: id, importTxIDs: [`${id}i`] }} />
        ))}
      </ul>,
    );
    for (const id of ids) {
      expect(screen.getByRole('button', { name: `Copy export transaction ID ${shortenId(id)}` })).toBeTruthy();
      expect(screen.getByRole('button', { name: `Copy import transaction ID ${shortenId(`${id}i`)}` })).toBeTruthy();
    }
  });

  it("names each move's Details apart (which move it is about), and a failed move's too", () => {
    const since = Date.UTC(2026, 10, 25, 2, 0, 0);
    const paused = { code: 'node-unreachable', message: 'node at http://127.0.0.1:9650 is unreachable', since };
    render(
      <ul>
        <TransferProgress t={{ id: 'a', from: 'X', to: 'P', amount: '1000000000', state: 'export-signed', importTxIDs: [], paused }} nodeDown />
        <TransferProgress t={{ id: 'b', from: 'C', to: 'X', amount: '2500000000', state: 'export-signed', importTxIDs: [], paused }} nodeDown />
        <TransferProgress t={{ id: 'c', from: 'P', to: 'C', amount: '3000000000', state: 'failed', importTxIDs: [], error: 'refused by the node' }} />
      </ul>,
    );
    expect([...document.querySelectorAll('summary')].map((s) => s.textContent)).toEqual([
      'Details of moving 1 AVAX from the X-Chain to the P-Chain',
      'Details of moving 2.5 AVAX from the C-Chain to the X-Chain',
      'Details of moving 3 AVAX from the P-Chain to the C-Chain',
    ]);
  });

  it('starts a move in nAVAX, shows both estimated fees, what arrives, and the progress of each move', async () => {
    const transfers: TransferView[] = [
      { id: 'm1', from: 'P', to: 'C', amount: '2000000000', state: 'export-accepted', exportTxID: 'exp1', exportFee: '280000', importTxIDs: [] },
    ];
    const bg = fakeBackground({
      'transfers.list': () => ({ transfers }),
      'transfers.estimate': transferEstimator(12_000_000_000n),
      'transfers.start': (p) => {
        const t: TransferView = { id: 'm2', ...p, state: 'pending', importTxIDs: [] };
        transfers.unshift(t);
        return t;
      },
    });
    renderWith(bg, <Move balances={balances()} onChanged={vi.fn()} pollMs={20} estimateDelayMs={0} />);
    expect(await screen.findByText('P-Chain → C-Chain')).toBeTruthy();
    const transfer = screen.getByTestId('transfer');
    expect([...transfer.querySelectorAll('.steps .done')].map((li) => li.textContent)).toEqual(['Started', 'Export issued', 'Export accepted']);
    expect(transfer.querySelector('[aria-current="step"]')?.textContent).toBe('Import issued');

    // Before an amount is typed: the fees of a move of half the balance, marked as approximate.
    await waitFor(() => expect(screen.getByTestId('move-fees').textContent).toContain('about 0.001 AVAX'));
    expect(bg.callsOf('transfers.estimate')[0]).toEqual({ from: 'X', to: 'P', amount: '6000000000' });
    expect(screen.getByTestId('move-fees').textContent).toContain('about 0.0003 AVAX, taken from the amount');

    type('Amount (AVAX)', '12');
    expect(screen.getByText('With the fee of 0.001 AVAX this is more than you can spend; at most 11.999 AVAX')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /^Max/ }));
    expect((screen.getByLabelText('Amount (AVAX)') as HTMLInputElement).value).toBe('11.999');
    type('Amount (AVAX)', '2.5');
    await waitFor(() => expect(screen.getByTestId('move-arrives').textContent).toBe('2.4997 AVAX'));
    expect(screen.getByTestId('move-fees').textContent).toBe('Export fee (X-Chain)0.001 AVAXImport fee (P-Chain)0.0003 AVAX, taken from the amountArrives on the P-Chain2.4997 AVAX');
    expect(bg.callsOf('transfers.estimate')).toContainEqual({ from: 'X', to: 'P', amount: '2500000000' });
    fireEvent.click(screen.getByRole('button', { name: 'Move to the P-Chain' }));
    // The review: nothing starts before Confirm; what leaves (amount and export fee) and what arrives.
    const review = await screen.findByTestId('review');
    expect(review.querySelector('h1')?.textContent).toBe('Review the move');
    expect(screen.getByTestId('move-review-leaves').textContent).toBe('2.501 AVAX');
    expect(screen.getByTestId('move-review-arrives').textContent).toBe('2.4997 AVAX');
    expect(bg.callsOf('transfers.start')).toEqual([]);
    // Edit goes back with the amount kept.
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    expect((screen.getByLabelText('Amount (AVAX)') as HTMLInputElement).value).toBe('2.5');
    fireEvent.click(screen.getByRole('button', { name: 'Move to the P-Chain' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Confirm and move' }));
    // The fees reviewed are the most it may pay: the export's alone, and both together.
    await waitFor(() => expect(bg.callsOf('transfers.start')).toEqual([{ from: 'X', to: 'P', amount: '2500000000', maxFee: '1300000', maxExportFee: '1000000' }]));
    expect(await screen.findByText('X-Chain → P-Chain')).toBeTruthy();
  });

  it('shows the refusal of an amount that cannot pay the import fee, and does not start it', async () => {
    const bg = fakeBackground({ 'transfers.list': () => ({ transfers: [] }), 'transfers.estimate': transferEstimator(12_000_000_000n) });
    renderWith(bg, <Move balances={balances()} onChanged={vi.fn()} estimateDelayMs={0} />);
    fireEvent.click(screen.getByRole('radio', { name: 'To C' }));
    await waitFor(() => expect(screen.getByTestId('move-fees').textContent).toContain('about 0.00035 AVAX'));
    type('Amount (AVAX)', '0.0003');
    expect(await screen.findByText('The amount does not cover the import fee: nothing would arrive.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Move to the C-Chain' }) as HTMLButtonElement).disabled).toBe(true);
    // Max still comes from the last estimate that worked.
    fireEvent.click(screen.getByRole('button', { name: /^Max/ }));
    expect((screen.getByLabelText('Amount (AVAX)') as HTMLInputElement).value).toBe('11.999');
    await waitFor(() => expect((screen.getByRole('button', { name: 'Move to the C-Chain' }) as HTMLButtonElement).disabled).toBe(false));
  });

  it('counts C-Chain AVAX in whole nAVAX and never offers the source as destination', async () => {
    const bg = fakeBackground({ 'transfers.list': () => ({ transfers: [] }), 'transfers.estimate': transferEstimator(1_500_000_000n) });
    renderWith(bg, <Move balances={balances({ balances: [avax('C', '1500000000123456789')] })} onChanged={vi.fn()} estimateDelayMs={0} />);
    fireEvent.click(screen.getByRole('radio', { name: 'From C' }));
    expect((screen.getByRole('radio', { name: 'To C' }) as HTMLInputElement).disabled).toBe(true);
    expect(screen.getByText('Spendable: 1.5 AVAX')).toBeTruthy();
    expect(await screen.findByText('No moves yet.')).toBeTruthy();
    await waitFor(() => expect(bg.callsOf('transfers.estimate')).toEqual([{ from: 'C', to: 'P', amount: '750000000' }]));
    await waitFor(() => expect((screen.getByRole('button', { name: /^Max/ }) as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByRole('button', { name: /^Max/ }));
    expect((screen.getByLabelText('Amount (AVAX)') as HTMLInputElement).value).toBe('1.4995');
  });
});

describe('Activity', () => {
  it('shows an asset no longer held in its own unit, as the background named it, and one it cannot name in plain words', async () => {
    const bg = fakeBackground({
      'activity.list': () => ({
        items: [
          { txID: 'Tx' + 'f'.repeat(48), chain: 'X' as const, kind: 'mint' as const, status: 'accepted' as const, assetID: FAKE_ID, amount: '250', assetInfo: { symbol: 'FOO', denomination: 2 }, createdAt: 2 },
          { txID: 'Tx' + 'g'.repeat(48), chain: 'X' as const, kind: 'receive' as const, status: 'accepted' as const, assetID: FAKE_ID, amount: '250', createdAt: 1 },
        ],
      }),
    });
    renderWith(bg, <Activity balances={balances()} listKey="net:a" />);
    const rows = await screen.findAllByTestId('activity-item');
    expect(rows[0]!.querySelector('.tx-mid')!.textContent).toBe('X-Chain2.5 FOO (ID 2fombhL7aG…JyFDbe)');
    expect(rows[1]!.querySelector('.tx-mid')!.textContent).toBe('X-Chain250 in the smallest units of an asset the wallet cannot name');
  });

  it('says on a receipt that another key can also spend what came (1-of-2 with a stranger), all of it or a part', async () => {
    const receipt = (n: string, amount: string, shared?: string) => ({ txID: 'Tx' + n.repeat(48), chain: 'X' as const, kind: 'receive' as const, status: 'accepted' as const, assetID: AVAX_ID, amount, ...(shared ? { shared } : {}), createdAt: 1 });
    const bg = fakeBackground({ 'activity.list': () => ({ items: [receipt('a', '7000000000', '7000000000'), receipt('b', '3000000000', '1000000000'), receipt('c', '2000000000')] }) });
    renderWith(bg, <Activity balances={balances()} listKey="net:a" />);
    const rows = await screen.findAllByTestId('activity-item');
    expect(within(rows[0]!).getByTestId('activity-shared').textContent).toBe('Shared: another key can also spend it at any time, so it is yours only until that key moves it.');
    expect(within(rows[1]!).getByTestId('activity-shared').textContent).toBe('Shared: another key can also spend 1 AVAX of this at any time, so it is yours only until that key moves it.');
    expect(within(rows[2]!).queryByTestId('activity-shared')).toBeNull();
  });

  it('says in words when older items are no longer held, and nothing when none went', async () => {
    const item = { txID: 'Tx' + 'a'.repeat(48), chain: 'X' as const, kind: 'send' as const, status: 'accepted' as const, createdAt: 9 };
    let trimmed: { received?: number; own?: number; cReceived?: number } | undefined = { received: new Date(2026, 0, 2, 10, 30).getTime(), own: new Date(2025, 11, 1, 8, 0).getTime() };
    const bg = fakeBackground({ 'activity.list': () => ({ items: [item], ...(trimmed ? { trimmed } : {}) }) });
    const view = renderWith(bg, <Activity balances={balances()} listKey="net:a" />);
    expect(await screen.findByText('Activity no longer holds older items, to keep its size: your own transactions from 2025-12-01 08:00 and before, and funds received from 2026-01-02 10:30 and before.')).toBeTruthy();
    // C-Chain blocks left unread: what may be missing is said, and that the balance counts it.
    trimmed = { cReceived: new Date(2026, 10, 29, 9, 5).getTime() };
    view.rerender(
      <ApiContext.Provider value={makeCall(bg.send)}>
        <Activity balances={balances()} listKey="net:c" />
      </ApiContext.Provider>,
    );
    expect(
      await screen.findByText('AVAX received on the C-Chain up to 2026-11-29 09:05 may be missing from this list: the wallet reads only the newest blocks each time it looks. Your balance counts it.'),
    ).toBeTruthy();
    expect(screen.queryByText(/no longer holds/)).toBeNull();
    trimmed = undefined;
    view.rerender(
      <ApiContext.Provider value={makeCall(bg.send)}>
        <Activity balances={balances()} listKey="net:b" />
      </ApiContext.Provider>,
    );
    await waitFor(() => expect(screen.queryByText(/no longer holds/)).toBeNull());
    expect(await screen.findByTestId('activity-item')).toBeTruthy();
  });

  it("shows nothing of the previous account's list after a switch, and follows pending items until they settle", async () => {
    let account = 'a';
    let release: () => void = () => undefined;
    let settled = false;
    const bg = fakeBackground({
      'activity.list': async () => {
        if (account === 'b') await new Promise<void>((r) => (release = r));
        const status = settled ? ('accepted' as const) : ('pending' as const);
        return { items: [{ txID: `Tx${account.repeat(47)}`, chain: 'X' as const, kind: 'send' as const, status, createdAt: 1 }] };
      },
      'balances.get': () => {
        settled = true;
        return balances();
      },
    });
    const view = renderWith(bg, <Activity balances={balances()} listKey="net:a" />);
    expect((await screen.findByTestId('activity-item')).textContent).toContain('Txaaaa');
    // Pending: the list is read again, and the node asked (a refresh is what settles it).
    await waitFor(() => expect(screen.getByTestId('activity-item').querySelector('.badge')?.textContent).toBe('Accepted'), { timeout: 5_000 });
    expect(bg.callsOf('balances.get')).toContainEqual({ refresh: true });

    account = 'b';
    view.rerender(
      <ApiContext.Provider value={makeCall(bg.send)}>
        <Activity balances={balances()} listKey="net:b" />
      </ApiContext.Provider>,
    );
    // While the other account's list loads, the old one is gone.
    await waitFor(() => expect(screen.queryByTestId('activity-item')).toBeNull());
    expect(screen.getByText('Loading…', { selector: 'p' })).toBeTruthy();
    release();
    expect((await screen.findByTestId('activity-item')).textContent).toContain('Txbbbb');
  });

  it('shows the newest items first and the older ones a page at a time, from the start again for another account', async () => {
    const items = (n: number, who: string) =>
      Array.from({ length: n }, (_, i) => ({ txID: `Tx${who}${String(i).padStart(46, '0')}`, chain: 'X' as const, kind: 'send' as const, status: 'accepted' as const, createdAt: n - i }));
    let account = 'a';
    const bg = fakeBackground({ 'activity.list': () => ({ items: items(account === 'a' ? 120 : 60, account) }) });
    const view = renderWith(bg, <Activity balances={balances()} listKey="net:a" />);
    expect(await screen.findAllByTestId('activity-item')).toHaveLength(ACTIVITY_PAGE);
    expect(screen.getAllByTestId('activity-item')[0]!.textContent).toContain('Txa000');
    fireEvent.click(screen.getByRole('button', { name: 'Show 50 older (70 not shown)' }));
    expect(screen.getAllByTestId('activity-item')).toHaveLength(100);
    fireEvent.click(screen.getByRole('button', { name: 'Show 20 older (20 not shown)' }));
    expect(screen.getAllByTestId('activity-item')).toHaveLength(120);
    expect(screen.getAllByTestId('activity-item')[119]!.textContent).toContain('000119');
    expect(screen.queryByRole('button', { name: /^Show .* older/ })).toBeNull();
    account = 'b';
    view.rerender(
      <ApiContext.Provider value={makeCall(bg.send)}>
        <Activity balances={balances()} listKey="net:b" />
      </ApiContext.Provider>,
    );
    await waitFor(() => expect(screen.getAllByTestId('activity-item')[0]!.textContent).toContain('Txb000'));
    expect(screen.getAllByTestId('activity-item')).toHaveLength(ACTIVITY_PAGE);
    expect(screen.getByRole('button', { name: 'Show 10 older (10 not shown)' })).toBeTruthy();
  });

  it('says a waiting C-Chain send\'s fee is at most its ceiling, and shows none for a tx replaced at its nonce', async () => {
    const bg = fakeBackground({
      'activity.list': () => ({
        items: [
          { txID: '0x' + 'ef'.repeat(32), chain: 'C', kind: 'send', status: 'pending', amount: '1', fee: '525000000000000', createdAt: 2 },
          { txID: '0x' + '12'.repeat(32), chain: 'C', kind: 'send', status: 'failed', replaced: true, amount: '1', fee: '525000000000000', createdAt: 1 },
        ],
      }),
    });
    renderWith(bg, <Activity balances={balances()} />);
    const rows = await screen.findAllByTestId('activity-item');
    expect(rows[0]!.textContent).toContain('Fee at most 0.000525 AVAX');
    expect(rows[1]!.textContent).not.toContain('Fee');
  });

  it('lists kind, amount with its unit, chain, status and a copyable ID', async () => {
    const bg = fakeBackground({
      'activity.list': () => ({
        items: [
          { txID: '0x' + 'ab'.repeat(32), chain: 'C', kind: 'send', status: 'accepted', amount: '250000000000000000', createdAt: 1 },
          { txID: 'TxAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', chain: 'X', kind: 'receive', status: 'pending', assetID: AVAX_ID, amount: '1500000000', from: [X_OTHER], timeIsDiscovery: true, createdAt: 2 },
          { txID: 'TxBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB', chain: 'X', kind: 'send', status: 'failed', assetID: FAKE_ID, amount: '7', fee: '1000000', to: X_OTHER, createdAt: 3 },
          { txID: '0x' + 'cd'.repeat(32), chain: 'C', kind: 'send', status: 'accepted', amount: '1', fee: '525000000000000', createdAt: 4 },
          { txID: 'TxCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC', chain: 'C', kind: 'import', status: 'accepted', fee: '350000', createdAt: 5 },
          { txID: 'TxDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDD', chain: 'P', otherChain: 'X', kind: 'export', status: 'pending', assetID: AVAX_ID, amount: '250000000', fee: '5215', createdAt: 6 },
          { txID: 'TxEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEE', chain: 'X', otherChain: 'P', kind: 'import', status: 'accepted', assetID: AVAX_ID, fee: '1000000', createdAt: 7 },
        ],
      }),
    });
    const gold = { ...avax('X', '250'), assetID: FAKE_ID, name: 'Gold', symbol: 'GOLD', denomination: 2, verified: false };
    renderWith(bg, <Activity balances={balances({ balances: [avax('X', '1'), gold] })} />);
    const rows = await screen.findAllByTestId('activity-item');
    expect(rows).toHaveLength(7);
    expect(rows[0]!.textContent).toContain('Sent');
    expect(rows[0]!.textContent).toContain('0.25 AVAX');
    expect(rows[0]!.textContent).toContain('C-Chain');
    expect(rows[1]!.textContent).toContain('Received');
    expect(rows[1]!.textContent).toContain('1.5 AVAX');
    expect(rows[1]!.querySelector('.badge')?.textContent).toBe('Pending');
    // Who sent it, in short (in full under Details), and a time that is only when the wallet found it says so.
    expect(rows[1]!.textContent).toContain(`From ${X_OTHER.slice(0, 12)}…${X_OTHER.slice(-6)}`);
    expect(rows[1]!.querySelector('details')!.textContent).toContain(`From${X_OTHER}`);
    expect(rows[1]!.querySelector('.tx-bottom')!.textContent).toContain('Found ');
    expect(rows[1]!.querySelector('details')!.textContent).toContain('Found by the wallet (when it arrived is not known)');
    expect(rows[2]!.textContent).toContain('0.07 GOLD (ID 2fombhL7aG…JyFDbe)');
    // Failed on the X-Chain: nothing was paid, so no fee is shown.
    expect(rows[2]!.textContent).not.toContain('Fee');
    expect(rows[2]!.querySelector('.badge')?.textContent).toBe('Failed');
    // Each copy button named by its transaction, so no two share a name.
    expect(within(rows[2]!).getByRole('button', { name: 'Copy transaction ID TxBBBBBBBB…BBBBBB' })).toBeTruthy();
    // The details: the whole ID, the asset's ID, the status in words.
    const details = rows[2]!.querySelector('details')!;
    expect(details.open).toBe(false);
    expect(details.querySelector('summary')?.textContent).toBe('Details of the transaction TxBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB');
    expect(details.textContent).toContain(`Asset ID${FAKE_ID}`);
    expect(details.textContent).toContain(`To${X_OTHER}`);
    expect(rows[2]!.textContent).toContain(`To ${X_OTHER.slice(0, 12)}…${X_OTHER.slice(-6)}`);
    // A C-Chain EVM send paid its fee in wei; an atomic import burned nAVAX. Wei amounts are rounded
    // for reading: dust says so, the exact amount is in the name.
    expect(rows[3]!.textContent).toContain('Fee 0.000525 AVAX');
    expect(rows[3]!.querySelector('.tx-mid')?.textContent).toBe('C-Chain< 0.000001 AVAX (exactly 0.000000000000000001 AVAX)');
    expect(rows[4]!.textContent).toContain('Fee 0.00035 AVAX');
    expect(rows[4]!.textContent).toContain('Imported (cross-chain)');
    // A move's txs name the other chain; the export carries the amount moved.
    expect(rows[5]!.querySelector('strong')?.textContent).toBe('Exported to X-Chain');
    expect(rows[5]!.textContent).toContain('P-Chain0.25 AVAX');
    expect(rows[6]!.querySelector('strong')?.textContent).toBe('Imported from P-Chain');
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
    use.focus();
    fireEvent.click(use);
    await screen.findByText('Checking the node before switching…');
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

    fireEvent.click(screen.getByRole('button', { name: 'Remove Dexalot' }));
    await waitFor(() => expect(screen.getAllByTestId('added-chain')).toHaveLength(1));
    expect(bg.callsOf('sites.removeChain')).toEqual([{ chainId: '432204' }]);
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

const PIC = { assetID: FAKE_ID, utxoID: `${FAKE_ID}:4`, name: 'Pictures', symbol: 'PIC', denomination: 0, kind: 'nft' as const, threshold: 1, addresses: [X_ADDR] };
const GOLD_RIGHT = { assetID: FAKE_ID, utxoID: `${FAKE_ID}:2`, name: 'Gold', symbol: 'GOLD', denomination: 2, kind: 'variable' as const, threshold: 2, addresses: [X_ADDR, X_OTHER] };
const hexOf = (text: string) => Array.from(new TextEncoder().encode(text), (b) => b.toString(16).padStart(2, '0')).join('');

describe('Assets', () => {
  /** The X-Chain's fixed fees, as assets.fees gives them (nAVAX). */
  const FEES = { createAsset: '10000000', operation: '1000000' };
  /** The fee line of the form on screen, once the fees are loaded. */
  const feeLine = async (text: string) => expect((await screen.findByTestId('asset-fee')).textContent).toBe(`Network fee: ${text}`);

  function renderAssets(handlers: Parameters<typeof fakeBackground>[0] = {}) {
    const bg = fakeBackground({ 'assets.fees': () => FEES, 'assets.mintRights': () => ({ rights: [] }), 'assets.listNfts': () => ({ nfts: [] }), ...handlers });
    const gold = { ...avax('X', '250'), assetID: FAKE_ID, name: 'Gold', symbol: 'GOLD', denomination: 2, verified: false };
    renderWith(bg, <Assets status={UNLOCKED} hrp={HRP} balances={balances({ balances: [avax('X', '1'), gold] })} onChanged={vi.fn()} />);
    return bg;
  }

  it('says balances are loading, or that the node did not answer, not that nothing is held, before any snapshot', () => {
    const bg = fakeBackground({ 'assets.fees': () => FEES, 'assets.mintRights': () => ({ rights: [] }), 'assets.listNfts': () => ({ nfts: [] }) });
    const never = balances({ updatedAt: 0, balances: [] });
    renderWith(bg, <Assets status={UNLOCKED} hrp={HRP} balances={never} onChanged={vi.fn()} />);
    expect(screen.getByText('Loading balances…')).toBeTruthy();
    cleanup();
    renderWith(bg, <Assets status={UNLOCKED} hrp={HRP} balances={{ ...never, error: 'node unreachable' }} onChanged={vi.fn()} />);
    expect(screen.getByText('No balances yet: the node did not answer.')).toBeTruthy();
    expect(screen.queryByText(/No X-Chain assets/)).toBeNull();
  });

  it('rounds held amounts as Home does (and the mint hint), the exact amount in the name and one click away in the details', async () => {
    const gold = { ...avax('X', '1234567891'), assetID: FAKE_ID, name: 'Gold', symbol: 'GOLD', verified: false };
    const bg = fakeBackground({ 'assets.fees': () => FEES, 'assets.mintRights': () => ({ rights: [{ ...GOLD_RIGHT, denomination: 9 }] }), 'assets.listNfts': () => ({ nfts: [] }) });
    renderWith(bg, <Assets status={UNLOCKED} hrp={HRP} balances={balances({ balances: [avax('X', '1234567891'), gold] })} onChanged={vi.fn()} />);
    const row = screen.getByRole('button', { name: /^Details of AVAX/ });
    // No button inside the row's button: rounded, the exact amount in its name.
    expect(row.querySelector('.amount')!.textContent).toBe('≈ 1.234567 AVAX (exactly 1.234567891 AVAX)');
    expect(row.querySelector('button')).toBeNull();
    fireEvent.click(row);
    const exact = screen.getAllByRole('button', { name: /^≈ 1\.234567 AVAX \(exactly 1\.234567891 AVAX\)$/ });
    expect(exact).toHaveLength(2);
    fireEvent.click(exact[0]!);
    expect(exact[0]!.textContent).toBe('1.234567891 AVAX');
    fireEvent.click(screen.getByRole('radio', { name: 'Mint' }));
    expect(await screen.findByRole('button', { name: '≈ 1.234567 GOLD (exactly 1.234567891 GOLD)' })).toBeTruthy();
  });

  it('leaves funds another key can also spend out of what is held and spendable, and shows them apart', () => {
    const bg = fakeBackground({ 'assets.fees': () => FEES, 'assets.mintRights': () => ({ rights: [] }), 'assets.listNfts': () => ({ nfts: [] }) });
    const gold = { ...avax('X', '250'), shared: '100', assetID: FAKE_ID, name: 'Gold', symbol: 'GOLD', denomination: 2, verified: false };
    renderWith(bg, <Assets status={UNLOCKED} hrp={HRP} balances={balances({ balances: [avax('X', '1'), gold] })} onChanged={vi.fn()} />);
    const row = screen.getByRole('button', { name: new RegExp(`^Details of GOLD .*\\(asset ID ${FAKE_ID}\\)$`) });
    expect(row.querySelector('.amount')!.textContent).toBe('1.5 GOLD');
    fireEvent.click(row);
    expect(screen.getAllByText('1.5 GOLD', { selector: 'dd .amount-text' })).toHaveLength(2);
    expect(screen.getByText('1 GOLD', { selector: 'dd .amount-text' }).parentElement!.textContent).toBe('1 GOLD another key can also spend, at any time');
  });

  it('leaves locked funds another key can take once unlocked out of what is held, and shows them apart', () => {
    const bg = fakeBackground({ 'assets.fees': () => FEES, 'assets.mintRights': () => ({ rights: [] }), 'assets.listNfts': () => ({ nfts: [] }) });
    const gold = { ...avax('X', '250'), locked: '300', sharedLocked: '200', assetID: FAKE_ID, name: 'Gold', symbol: 'GOLD', denomination: 2, verified: false };
    renderWith(bg, <Assets status={UNLOCKED} hrp={HRP} balances={balances({ balances: [avax('X', '1'), gold] })} onChanged={vi.fn()} />);
    fireEvent.click(screen.getByRole('button', { name: new RegExp(`^Details of GOLD .*\\(asset ID ${FAKE_ID}\\)$`) }));
    // Held: 2.5 spendable + 1 of the 3 locked; the 2 a stranger's key can take at unlock are apart.
    expect(screen.getByText('3.5 GOLD', { selector: 'dd .amount-text' })).toBeTruthy();
    expect(screen.getByText('2 GOLD', { selector: 'dd .amount-text' }).parentElement!.textContent).toBe('2 GOLD another key can take once it unlocks');
  });

  it('shows asset details with the full ID, denomination and an honest supply line', () => {
    renderAssets();
    fireEvent.click(screen.getByRole('button', { name: new RegExp(`^Details of GOLD .*\\(asset ID ${FAKE_ID}\\)$`) }));
    expect(screen.getByText(FAKE_ID)).toBeTruthy();
    expect(screen.getByText('2 decimal places')).toBeTruthy();
    expect(screen.getAllByText('2.5 GOLD', { selector: 'dd .amount-text' })).toHaveLength(2);
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
    await feeLine('0.01 AVAX');
    fireEvent.click(screen.getByRole('button', { name: 'Create asset' }));
    // Reviewed first: who receives what, and the fee; nothing is created before Confirm.
    expect(screen.getByTestId('review').textContent).toContain(`Holder 1 receives1,000.25 GLD at ${X_ADDR}`);
    expect(screen.getByTestId('review').textContent).toContain(`Holder 2 receives5 GLD at ${X_OTHER}`);
    expect(screen.getByTestId('review-fee').textContent).toBe('0.01 AVAX');
    expect(bg.callsOf('assets.create')).toEqual([]);
    await clickConfirm('Confirm and create');
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
      maxFee: FEES.createAsset,
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
    await feeLine('0.01 AVAX');
    fireEvent.click(screen.getByRole('button', { name: 'Create asset' }));
    expect(screen.getByTestId('review').textContent).toContain(`Minter set 12 of ${X_ADDR}, ${X_OTHER}`);
    await clickConfirm('Confirm and create');
    await waitFor(() => expect(bg.callsOf('assets.create')).toHaveLength(1));
    expect(bg.callsOf('assets.create')[0]).toEqual({ name: 'Points', symbol: 'PTS', denomination: 9, kind: 'variable', minters: [{ addresses: [X_ADDR, X_OTHER], threshold: 2 }], maxFee: FEES.createAsset });
  });

  it("puts an owner set's address errors on its addresses and a threshold error on Signatures needed", () => {
    renderAssets();
    fireEvent.click(screen.getByRole('radio', { name: 'Create' }));
    fireEvent.click(screen.getByRole('radio', { name: 'Variable cap' }));
    const errorOf = (label: string) => screen.getByLabelText(label).getAttribute('aria-invalid') === 'true' ? document.getElementById(`${screen.getByLabelText(label).id}-error`)!.textContent : '';
    type('Addresses (one per line)', `${X_ADDR}\n${X_ADDR.slice(0, -1)}`);
    expect(errorOf('Addresses (one per line)')).toMatch(/^Address 2: /);
    expect(errorOf('Signatures needed')).toBe('');
    type('Addresses (one per line)', `${X_ADDR}\n${X_OTHER}`);
    type('Signatures needed', '3');
    expect(errorOf('Addresses (one per line)')).toBe('');
    expect(errorOf('Signatures needed')).toBe('Signatures needed: a whole number from 1 to 2');
  });

  it('mints more from a mint right the wallet holds, reached from the asset details: no ID to paste', async () => {
    const bg = renderAssets({ 'assets.mintRights': () => ({ rights: [GOLD_RIGHT] }), 'assets.mint': () => ({ txID: 'm', fee: '1000000' }) });
    fireEvent.click(screen.getByRole('button', { name: new RegExp(`^Details of GOLD .*\\(asset ID ${FAKE_ID}\\)$`) }));
    fireEvent.click(await screen.findByRole('button', { name: 'Mint more' }));
    expect((screen.getByLabelText('Asset') as HTMLSelectElement).value).toBe(FAKE_ID);
    expect(screen.getByRole('option').textContent).toBe('GOLD · Gold · ID 2fombhL7aG…JyFDbe · 2 of 2 signatures');
    type('Amount (GOLD)', '1.5');
    await feeLine('0.001 AVAX');
    fireEvent.click(screen.getByRole('button', { name: 'Mint' }));
    expect(screen.getByTestId('review-amount').textContent).toBe('1.5 GOLD');
    expect(screen.getByTestId('review-to').textContent).toBe(X_ADDR);
    // Confirm waits for the check of recent mints (SentBefore).
    await waitFor(() => expect(screen.queryByText(/Checking recent mints/)).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Confirm and mint' }));
    await waitFor(() => expect(bg.callsOf('assets.mint')).toEqual([{ assetID: FAKE_ID, utxoID: GOLD_RIGHT.utxoID, amount: '150', to: { addresses: [X_ADDR], threshold: 1 }, maxFee: FEES.operation }]));
    // What the mint changed is asked for again.
    await waitFor(() => expect(bg.callsOf('assets.mintRights')).toHaveLength(2));
  });

  it('without the network fee nothing is signed: the fee line says why and Create stays disabled', async () => {
    const bg = renderAssets({
      'assets.fees': () => {
        throw new Refuse({ code: 'node-unreachable', message: 'could not reach http://127.0.0.1:9650' });
      },
    });
    fireEvent.click(screen.getByRole('radio', { name: 'Create' }));
    fireEvent.click(screen.getByRole('radio', { name: 'Variable cap' }));
    type('Name', 'Points');
    type('Symbol', 'PTS');
    // In plain words, the URL only behind the detail.
    await feeLine("unknown. The node can't be reached. Check that it is running and that its address in Settings is right.");
    const create = screen.getByRole('button', { name: 'Create asset' }) as HTMLButtonElement;
    expect(create.disabled).toBe(true);
    fireEvent.click(create);
    expect(bg.callsOf('assets.create')).toEqual([]);
  });

  it('says when there is no mint right, and offers no Mint more without one', async () => {
    const bg = renderAssets();
    fireEvent.click(screen.getByRole('button', { name: new RegExp(`^Details of GOLD .*\\(asset ID ${FAKE_ID}\\)$`) }));
    await waitFor(() => expect(bg.callsOf('assets.mintRights')).toHaveLength(1));
    expect(screen.queryByRole('button', { name: 'Mint more' })).toBeNull();
    fireEvent.click(screen.getByRole('radio', { name: 'Mint' }));
    expect(await screen.findByText('This wallet holds no mint right of a variable-cap asset. Create one under Create.')).toBeTruthy();
    fireEvent.click(screen.getByRole('radio', { name: 'NFTs' }));
    expect(await screen.findByText('This wallet holds no mint right of an NFT group. Create one under Create.')).toBeTruthy();
    expect(screen.getByText('No NFTs on the X-Chain yet.')).toBeTruthy();
  });

  it('mints an NFT of a chosen group whose payload is a link: shown, not fetched, sent as UTF-8 hex', async () => {
    const bg = renderAssets({
      'assets.mintRights': () => ({ rights: [{ ...PIC, groupID: 0 }, { ...PIC, utxoID: `${FAKE_ID}:5`, groupID: 1 }] }),
      'assets.mintNft': () => ({ txID: 'n', fee: '1000000' }),
    });
    fireEvent.click(screen.getByRole('radio', { name: 'NFTs' }));
    const group = (await screen.findByLabelText('NFT family and group')) as HTMLSelectElement;
    expect([...group.options].map((o) => o.textContent)).toEqual(['PIC · Pictures · group 0 · ID 2fombhL7aG…JyFDbe', 'PIC · Pictures · group 1 · ID 2fombhL7aG…JyFDbe']);
    fireEvent.change(group, { target: { value: `${FAKE_ID}:1` } });
    fireEvent.click(screen.getByRole('radio', { name: 'Image URL' }));
    type('Payload', 'https://example.org/cat.png');
    const link = screen.getByRole('link', { name: 'https://example.org/cat.png' });
    expect(link.getAttribute('rel')).toContain('noreferrer');
    expect(document.querySelector('img')).toBeNull();
    await feeLine('0.001 AVAX');
    fireEvent.click(screen.getByRole('button', { name: 'Mint NFT' }));
    expect(within(screen.getByTestId('review')).getByRole('link').textContent).toBe('https://example.org/cat.png');
    fireEvent.click(screen.getByRole('button', { name: 'Confirm and mint NFT' }));
    await waitFor(() => expect(bg.callsOf('assets.mintNft')).toHaveLength(1));
    expect(bg.callsOf('assets.mintNft')[0]).toEqual({ assetID: FAKE_ID, utxoID: `${FAKE_ID}:5`, groupID: 1, payloadHex: hexOf('https://example.org/cat.png'), to: [{ addresses: [X_ADDR], threshold: 1 }], maxFee: FEES.operation });
    await waitFor(() => expect(bg.callsOf('assets.listNfts')).toHaveLength(2));
  });

  it("focuses an NFT's address field when its Send opens, and its Send button again on Cancel (not the heading)", async () => {
    const nfts = [{ utxoID: `${FAKE_ID}:1`, assetID: FAKE_ID, groupID: 0, payloadHex: '00', name: 'Pictures', symbol: 'PIC' }];
    renderAssets({ 'assets.listNfts': () => ({ nfts }) });
    // As the popup does: focus lost with a control that went goes to the heading.
    const stop = keepFocusOnScreen(document);
    fireEvent.click(screen.getByRole('radio', { name: 'NFTs' }));
    const send = await screen.findByRole('button', { name: `Send PIC NFT ${FAKE_ID}:1` });
    send.focus();
    fireEvent.click(send);
    const to = await screen.findByLabelText(/^To/);
    await new Promise((r) => setTimeout(r, 10));
    expect(document.activeElement).toBe(to);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    const again = await screen.findByRole('button', { name: `Send PIC NFT ${FAKE_ID}:1` });
    await new Promise((r) => setTimeout(r, 10));
    expect(document.activeElement).toBe(again);
    stop();
  });

  it('lists the NFTs the wallet holds, payloads shown safely, and sends one with its Send button', async () => {
    const nfts = [
      { utxoID: `${FAKE_ID}:1`, assetID: FAKE_ID, groupID: 0, payloadHex: hexOf('https://example.org/cat.png'), name: 'Pictures', symbol: 'PIC' },
      { utxoID: `${FAKE_ID}:2`, assetID: FAKE_ID, groupID: 3, payloadHex: '00ff10', name: 'Pictures', symbol: 'PIC' },
      { utxoID: `${FAKE_ID}:3`, assetID: FAKE_ID, groupID: 4, payloadHex: hexOf('{"name":"Tom"}'), name: 'Pictures', symbol: 'PIC' },
    ];
    const bg = renderAssets({
      'assets.listNfts': () => ({ nfts }),
      'assets.transferNft': (p) => {
        nfts.splice(nfts.findIndex((n) => n.utxoID === p.utxoID), 1);
        return { txID: 't', fee: '1000000' };
      },
    });
    fireEvent.click(screen.getByRole('radio', { name: 'NFTs' }));
    const items = await screen.findAllByTestId('nft');
    expect(items).toHaveLength(3);
    expect(within(items[0]!).getByRole('link').textContent).toBe('https://example.org/cat.png');
    expect(items[1]!.textContent).toContain('group 3');
    expect(items[1]!.textContent).toContain('hex 00ff10');
    expect(items[2]!.querySelector('pre')?.textContent).toBe('{\n  "name": "Tom"\n}');
    expect(document.querySelector('img')).toBeNull();

    fireEvent.click(within(items[1]!).getByRole('button', { name: `Send PIC NFT ${FAKE_ID}:2` }));
    const send = within(screen.getAllByTestId('nft')[1]!);
    fireEvent.input(send.getByLabelText(/^To/), { target: { value: X_OTHER } });
    expect(send.getByTestId('asset-fee').textContent).toBe('Network fee: 0.001 AVAX');
    fireEvent.click(send.getByRole('button', { name: 'Send NFT' }));
    expect(send.getByTestId('review-to').textContent).toBe(X_OTHER);
    fireEvent.click(send.getByRole('button', { name: 'Confirm and send NFT' }));
    await waitFor(() => expect(bg.callsOf('assets.transferNft')).toEqual([{ utxoID: `${FAKE_ID}:2`, to: { addresses: [X_OTHER], threshold: 1 }, maxFee: FEES.operation }]));
    fireEvent.click(await screen.findByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.getAllByTestId('nft')).toHaveLength(2));
  });
});

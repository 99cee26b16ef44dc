// @vitest-environment happy-dom
// The Move screen against a fake background: moves under way, their amounts, fees and buttons, and
// starting one.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Move } from '../../../src/popup/screens/Move.js';
import { TransferProgress } from '../../../src/popup/screens/MoveProgress.js';
import { formatSince, shortenId } from '../../../src/popup/format.js';
import type { RequestParams, TransferView } from '../../../src/shared/messages.js';
import { fakeBackground, Refuse, renderWith } from './fake-background.js';
import { avax, balances } from './fixtures.js';
import { type } from './screens-fixtures.js';

afterEach(cleanup);

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
    const base: TransferView = { id: 'm', createdAt: 1, from: 'X', to: 'P', amount: '1000000000', state: 'export-signed', exportTxID: 'e', importTxIDs: [] };
    render(
      <ul>
        <TransferProgress t={{ ...base, paused: { code: 'node-unreachable', message: 'node at http://127.0.0.1:9650 is unreachable', since } }} />
      </ul>,
    );
    const paused = screen.getByTestId('transfer-paused');
    expect(paused.dataset.reason).toBe('node');
    expect(paused.querySelector('p')?.textContent).toBe(`Paused — waiting for the node to answer (since ${formatSince(since, Date.now())}). The move continues by itself when it does; nothing is lost meanwhile.`);
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
        <TransferProgress t={{ id: 'm', createdAt: 1, from: 'X', to: 'P', amount: '1234567891', state: 'completed', exportTxID: 'e', exportFee: '1000123', importTxIDs: ['i'], importFee: '280456' }} />
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
          <TransferProgress key={id} t={{ id: `m${i}`, createdAt: 1, from: 'X', to: 'P', amount: '1000000000', state: 'completed', exportTxID: id, importTxIDs: [`${id}i`] }} />
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
        <TransferProgress t={{ id: 'a', createdAt: 1, from: 'X', to: 'P', amount: '1000000000', state: 'export-signed', importTxIDs: [], paused }} nodeDown />
        <TransferProgress t={{ id: 'b', createdAt: 1, from: 'C', to: 'X', amount: '2500000000', state: 'export-signed', importTxIDs: [], paused }} nodeDown />
        <TransferProgress t={{ id: 'c', createdAt: 1, from: 'P', to: 'C', amount: '3000000000', state: 'failed', importTxIDs: [], error: 'refused by the node' }} />
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
      { id: 'm1', createdAt: 1, from: 'P', to: 'C', amount: '2000000000', state: 'export-accepted', exportTxID: 'exp1', exportFee: '280000', importTxIDs: [] },
    ];
    const bg = fakeBackground({
      'transfers.list': () => ({ transfers }),
      'transfers.estimate': transferEstimator(12_000_000_000n),
      'transfers.start': (p) => {
        const t: TransferView = { id: 'm2', createdAt: 1, ...p, state: 'pending', importTxIDs: [] };
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

// @vitest-environment happy-dom
// A move's progress on the Move screen: how it ended, and why one under way waits.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Move } from '../../../src/popup/screens/Move.js';
import { TransferProgress } from '../../../src/popup/screens/MoveProgress.js';
import type { TransferView } from '../../../src/shared/messages.js';
import { fakeBackground, Refuse, renderWith } from './fake-background.js';
import { avax, balances, FAKE_ID } from './fixtures.js';
import { formatDateTime } from '../../../src/popup/format.js';

afterEach(cleanup);

const base: TransferView = { id: 'm', createdAt: 1, from: 'X', to: 'P', amount: '1000000000', state: 'pending', importTxIDs: [] };

function progress(t: TransferView) {
  render(
    <ul>
      <TransferProgress t={t} />
    </ul>,
  );
}

describe('a finished move', () => {
  it('whose export could not be made says it did not happen and nothing left the wallet, the reason one click away', () => {
    progress({ ...base, state: 'failed', error: 'insufficient funds of AVAX: need 5100, spendable 5000' });
    const failed = screen.getByText(/^This move did not happen/);
    expect(failed.textContent).toMatch(/^This move did not happen: its export was not made, so nothing left the wallet\./);
    expect(screen.getByText(/need 5100/)).toBeTruthy();
    expect(screen.queryByTestId('transfer-paused')).toBeNull();
  });

  it('whose export the node called failed: the promise that the next move takes its place only when its export was kept; "may have gone through" when its funds are gone', () => {
    const failed = { ...base, state: 'failed' as const, exportTxID: 'e', error: 'Rejected' };
    progress(failed);
    expect(screen.getByText(/^This move did not happen/).textContent).toBe('This move did not happen: its export was not accepted, so nothing left the wallet.');
    cleanup();
    progress({ ...failed, exportKept: 'kept' });
    expect(screen.getByText(/^This move did not happen/).textContent).toMatch(/Your next X-Chain move or send takes its place, so the two can never both go through\.$/);
    cleanup();
    progress({ ...failed, exportKept: 'unclear' });
    expect(screen.queryByText(/did not happen/)).toBeNull();
    expect(screen.getByText(/^This move may have gone through after all/)).toBeTruthy();
  });

  it('whose funds another import took says they are not lost, and is not shown as waiting', () => {
    progress({ ...base, state: 'completed', exportTxID: 'e', importTxIDs: ['i'], error: 'its funds were imported by another import, not its own' });
    expect(screen.getByTestId('transfer-elsewhere').textContent).toBe("Another import, not this move's own, brought its funds into the P-Chain: they are not lost.");
    expect(screen.queryByTestId('transfer-paused')).toBeNull();
    cleanup();
    progress({ ...base, state: 'completed', exportTxID: 'e', importTxIDs: [], error: 'its funds no longer show in atomic memory, and none of its own imports took them' });
    expect(screen.getByTestId('transfer-elsewhere').textContent).toBe(
      'Its funds no longer wait in the P-Chain\'s atomic memory, and no import of this move took them: most likely "Import now" brought them in with other waiting funds. They are not lost; if they show as waiting again, Import now brings them.',
    );
    cleanup();
    progress({ ...base, state: 'completed', exportTxID: 'e', importTxIDs: ['i'] });
    expect(screen.queryByTestId('transfer-elsewhere')).toBeNull();
  });
});

describe('a move under way that stopped', () => {
  const since = Date.UTC(2026, 10, 25, 2, 0, 0);

  it('for a reason the Move screen has no words of its own for: the reason in words, and that it is tried again, not that it goes on by itself', () => {
    progress({ ...base, paused: { code: 'internal', message: 'that account no longer exists', since } });
    const p = screen.getByTestId('transfer-paused').querySelector('p')!.textContent!;
    expect(p).toBe('Stopped — That account no longer exists. The wallet tries it again every minute.');
    cleanup();
    progress({ ...base, state: 'export-accepted', exportTxID: 'e', paused: { code: 'insufficient-funds', message: 'insufficient funds of AVAX: need 5100, spendable 5000', since } });
    const paused = screen.getByTestId('transfer-paused');
    expect(paused.querySelector('p')!.textContent).toBe('Stopped — Not enough funds for this amount and its network fee. The wallet tries it again every minute.');
    expect(paused.querySelector('details')!.textContent).toContain('need 5100');
  });

  it('whose funds have not shown for a while: where they may be, not a promise that the chain brings them', () => {
    progress({ ...base, state: 'export-accepted', exportTxID: 'e', paused: { code: 'funds-not-shown', message: 'the exported funds do not show', since } });
    expect(screen.getByTestId('transfer-paused').querySelector('p')!.textContent).toBe(
      'Waiting — its funds have not shown in the P-Chain for a while. If another wallet with your phrase, or a site, imported them, they are already in your P-Chain balance; if they show again, the move imports them by itself.',
    );
  });

  it('its details give the reason once, with the move\'s last error only when the reason does not already quote it', () => {
    const missing = "the exported funds do not show in the P-Chain's atomic memory yet";
    progress({ ...base, state: 'export-accepted', exportTxID: 'e', error: missing, paused: { code: 'tx-processing', message: `transfer t: ${missing}; it is looked at again later`, since } });
    const details = screen.getByTestId('transfer-paused').querySelector('details')!.textContent!;
    expect(details.split(missing)).toHaveLength(2);
    cleanup();
    progress({ ...base, state: 'export-accepted', exportTxID: 'e', error: 'the import was refused: fee too low', paused: { code: 'fee-above-approved', message: 'import fees above the approved', since } });
    expect(screen.getByTestId('transfer-paused').querySelector('details')!.textContent).toContain('import fees above the approved · the import was refused: fee too low');
  });

  it('waiting for the node since another day: the date is said, not a bare clock time that reads as today', () => {
    const yesterday = Date.now() - 30 * 3_600_000;
    progress({ ...base, paused: { code: 'node-unreachable', message: 'the node did not answer', since: yesterday } });
    expect(screen.getByTestId('transfer-paused').querySelector('p')!.textContent).toContain(`(since ${formatDateTime(yesterday)})`);
  });

  it('waiting for the chain to decide a tx: it goes on by itself', () => {
    progress({ ...base, state: 'export-signed', exportTxID: 'e', paused: { code: 'tx-processing', message: 'the X-Chain is still processing e', since } });
    expect(screen.getByTestId('transfer-paused').querySelector('p')!.textContent).toBe('Waiting for the chain — the move continues by itself.');
  });
});

describe('the Move list while a move is under way', () => {
  it('keeps following the move after a read fails (a restarting background): its end is shown, and the balances are read again', async () => {
    let state: TransferView['state'] = 'export-accepted';
    let fail = false;
    const bg = fakeBackground({
      'transfers.list': () => {
        if (fail) {
          fail = false;
          throw new Refuse({ code: 'unreachable', message: 'the background did not answer' });
        }
        return { transfers: [{ ...base, state, exportTxID: 'e' }] };
      },
    });
    const changed = vi.fn();
    renderWith(bg, <Move balances={balances()} onChanged={changed} pollMs={10} estimateDelayMs={0} />);
    await screen.findByText('X-Chain → P-Chain');
    fail = true;
    await waitFor(() => expect(fail).toBe(false));
    state = 'completed';
    await waitFor(() => expect(screen.getByTestId('transfer').querySelector('[aria-current="step"]')).toBeNull());
    expect([...screen.getByTestId('transfer').querySelectorAll('.steps .done')].map((li) => li.textContent)).toContain('Imported');
    expect(changed).toHaveBeenCalled();
  });

  it('reads the balances again when a move starts waiting for "Import now", so its funds show there with the button', async () => {
    const since = Date.UTC(2026, 10, 25, 2, 0, 0);
    let paused: TransferView['paused'] = undefined;
    const bg = fakeBackground({ 'transfers.list': () => ({ transfers: [{ ...base, state: 'export-accepted', exportTxID: 'e', ...(paused ? { paused } : {}) }] }) });
    const changed = vi.fn();
    renderWith(bg, <Move balances={balances()} onChanged={changed} pollMs={10} estimateDelayMs={0} />);
    await screen.findByText('X-Chain → P-Chain');
    await new Promise((r) => setTimeout(r, 50));
    expect(changed).not.toHaveBeenCalled();
    paused = { code: 'fee-above-approved', message: 'import fees above the approved', since };
    await waitFor(() => expect(changed).toHaveBeenCalledTimes(1));
    expect(screen.getByTestId('transfer-paused').textContent).toContain('use Import now at the top of this screen');
    // Once only: not again at every read while it stays parked.
    await new Promise((r) => setTimeout(r, 50));
    expect(changed).toHaveBeenCalledTimes(1);
  });
});

describe("the Move form's Max", () => {
  it('says when it is the most one export can carry (the funds in too many UTXOs for one)', async () => {
    const bg = fakeBackground({ 'transfers.list': () => ({ transfers: [] }), 'transfers.estimate': () => ({ exportFee: '1000000', importFee: '300000', maxAmount: '4000000000', maxOneTx: true as const }) });
    renderWith(bg, <Move balances={balances()} onChanged={vi.fn()} estimateDelayMs={0} />);
    const max = () => screen.getByRole('button', { name: /^Max/ }) as HTMLButtonElement;
    await waitFor(() => expect(max().disabled).toBe(false));
    expect(max().getAttribute('aria-label')).toBe('Max: Max is the most one transaction can carry: your funds are in too many pieces for one. The rest can go in another');
  });
});

describe('the review of a move', () => {
  /**
   * The Move form with 2.5 AVAX typed and estimated, over an estimate that answers until
   * `node.refusal` is set, then throws it (the node or the fee changed since the form's estimate).
   */
  async function typedThenRefused(): Promise<{ bg: ReturnType<typeof fakeBackground>; node: { refusal: Refuse | undefined } }> {
    const node: { refusal: Refuse | undefined } = { refusal: undefined };
    const bg = fakeBackground({
      'transfers.list': () => ({ transfers: [] }),
      'transfers.estimate': () => {
        if (node.refusal) throw node.refusal;
        return { exportFee: '1000000', importFee: '300000', maxAmount: '11999000000' };
      },
    });
    renderWith(bg, <Move balances={balances()} onChanged={vi.fn()} estimateDelayMs={0} />);
    fireEvent.input(screen.getByLabelText('Amount (AVAX)'), { target: { value: '2.5' } });
    await waitFor(() => expect(screen.getByTestId('move-arrives').textContent).toBe('2.4997 AVAX'));
    return { bg, node };
  }

  it('shows the fees of exactly the amount typed, asked when Move is clicked, not the older ones the form showed; those are what the move may pay', async () => {
    let exportFee = 1_000_000n;
    const bg = fakeBackground({
      'transfers.list': () => ({ transfers: [] }),
      'transfers.estimate': () => ({ exportFee: exportFee.toString(), importFee: '300000', maxAmount: '11999000000' }),
      'transfers.start': (p) => ({ id: 'm', createdAt: 1, ...p, state: 'pending' as const, importTxIDs: [] }),
    });
    renderWith(bg, <Move balances={balances()} onChanged={vi.fn()} estimateDelayMs={0} />);
    fireEvent.input(screen.getByLabelText('Amount (AVAX)'), { target: { value: '2.5' } });
    await waitFor(() => expect(screen.getByTestId('move-fees').textContent).toContain('Export fee (X-Chain)0.001 AVAX'));
    // The fee went up since the form's estimate.
    exportFee = 1_200_000n;
    fireEvent.click(screen.getByRole('button', { name: 'Move to the P-Chain' }));
    await screen.findByTestId('review');
    expect(screen.getByTestId('move-review-leaves').textContent).toBe('2.5012 AVAX');
    expect(screen.getByTestId('move-review-arrives').textContent).toBe('2.4997 AVAX');
    fireEvent.click(screen.getByRole('button', { name: 'Confirm and move' }));
    await waitFor(() => expect(bg.callsOf('transfers.start')).toEqual([{ from: 'X', to: 'P', amount: '2500000000', maxFee: '1500000', maxExportFee: '1200000' }]));
  });

  it('a move of all X-Chain AVAX while other X assets are held says, on the review, that they are left without the AVAX for their fee', async () => {
    const gold = { ...avax('X', '250'), assetID: FAKE_ID, name: 'Gold', symbol: 'GOLD', denomination: 2, verified: false };
    const other = { ...gold, assetID: 'other', symbol: 'SILV' };
    const bg = fakeBackground({
      'transfers.list': () => ({ transfers: [] }),
      'transfers.estimate': () => ({ exportFee: '1000000', importFee: '300000', maxAmount: '11999000000' }),
    });
    renderWith(bg, <Move balances={balances({ balances: [avax('X', '12000000000'), gold, other, avax('P', '0'), avax('C', '0')] })} onChanged={vi.fn()} estimateDelayMs={0} />);
    const reviewOf = async (amount: string) => {
      fireEvent.input(screen.getByLabelText('Amount (AVAX)'), { target: { value: amount } });
      await waitFor(() => expect(screen.getByTestId('move-arrives').textContent).not.toBe(''));
      fireEvent.click(screen.getByRole('button', { name: 'Move to the P-Chain' }));
      await screen.findByTestId('review');
    };
    await reviewOf('11.999');
    expect(screen.getByTestId('move-review-strands').textContent).toContain('This leaves too little AVAX on the X-Chain to pay the fee for sending your 2 other assets there');
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    // 0.001 AVAX stays: the fee of one more X-Chain send is still there.
    await reviewOf('11.998');
    expect(screen.queryByTestId('move-review-strands')).toBeNull();
  });

  it('confirmed after the export fee rose (refused, nothing journaled): says so, and shows the fees of now to be confirmed again', async () => {
    let exportFee = 1_000_000n;
    const bg = fakeBackground({
      'transfers.list': () => ({ transfers: [] }),
      'transfers.estimate': () => ({ exportFee: exportFee.toString(), importFee: '300000', maxAmount: '11999000000' }),
      'transfers.start': (p) => {
        if (BigInt(p.maxExportFee!) < exportFee) throw new Refuse({ code: 'fee-above-approved', message: `the export's fee of ${exportFee} nAVAX is above the ${p.maxExportFee} nAVAX reviewed` });
        return { id: 'm', createdAt: 1, ...p, state: 'pending' as const, importTxIDs: [] };
      },
    });
    renderWith(bg, <Move balances={balances()} onChanged={vi.fn()} estimateDelayMs={0} />);
    fireEvent.input(screen.getByLabelText('Amount (AVAX)'), { target: { value: '2.5' } });
    await waitFor(() => expect(screen.getByTestId('move-arrives').textContent).toBe('2.4997 AVAX'));
    fireEvent.click(screen.getByRole('button', { name: 'Move to the P-Chain' }));
    await screen.findByTestId('review');
    expect(screen.getByTestId('move-review-leaves').textContent).toBe('2.501 AVAX');
    exportFee = 1_500_000n;
    fireEvent.click(screen.getByRole('button', { name: 'Confirm and move' }));
    expect(await screen.findByText('The network fee went up since you reviewed it. Nothing was sent: review it again.')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('move-review-leaves').textContent).toBe('2.5015 AVAX'));
    // Held until the list is read again (a refused Confirm may have been journaled all the same).
    await waitFor(() => expect((screen.getByRole('button', { name: 'Confirm and move' }) as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByRole('button', { name: 'Confirm and move' }));
    await waitFor(() => expect(bg.callsOf('transfers.start').at(-1)).toEqual({ from: 'X', to: 'P', amount: '2500000000', maxFee: '1800000', maxExportFee: '1500000' }));
    expect(bg.callsOf('transfers.start')).toHaveLength(2);
  });

  it('is not opened when the amount can no longer be moved: the reason shows on the form', async () => {
    const { node } = await typedThenRefused();
    node.refusal = new Refuse({ code: 'insufficient-funds', message: 'insufficient funds of AVAX: need 2501200000, spendable 2501000000' });
    fireEvent.click(screen.getByRole('button', { name: 'Move to the P-Chain' }));
    expect(await screen.findByText('Not enough funds for this amount and its network fee.')).toBeTruthy();
    expect(screen.queryByTestId('review')).toBeNull();
  });

  it('found short at Move (the fee rose after Max): the fees of now and the Max that pays them are asked again, the keyboard goes to the amount, and the refusal goes once the amount changes', async () => {
    const have = 12_000_000_000n;
    let fee = 1_000_000n;
    const bg = fakeBackground({
      'transfers.list': () => ({ transfers: [] }),
      'transfers.estimate': (p) => {
        if (BigInt(p.amount) + fee > have) throw new Refuse({ code: 'insufficient-funds', message: `insufficient funds of AVAX: need ${BigInt(p.amount) + fee}, spendable ${have}` });
        return { exportFee: fee.toString(), importFee: '300000', maxAmount: (have - fee).toString() };
      },
    });
    renderWith(bg, <Move balances={balances()} onChanged={vi.fn()} estimateDelayMs={0} />);
    const max = () => screen.getByRole('button', { name: /^Max/ }) as HTMLButtonElement;
    const input = screen.getByLabelText('Amount (AVAX)') as HTMLInputElement;
    await waitFor(() => expect(max().disabled).toBe(false));
    fireEvent.click(max());
    await waitFor(() => expect(screen.getByTestId('move-arrives').textContent).toBe('11.9987 AVAX'));
    fee = 2_000_000n;
    fireEvent.click(screen.getByRole('button', { name: 'Move to the P-Chain' }));
    await waitFor(() => expect(document.activeElement).toBe(input));
    // The fees of now: the field says the amount no longer leaves room for them, and Max pays them.
    await waitFor(() => expect(screen.getByTestId('move-fees').textContent).toContain('Export fee (X-Chain)about 0.002 AVAX'));
    expect((screen.getByRole('button', { name: 'Move to the P-Chain' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(max());
    await waitFor(() => expect(input.value).toBe('11.998'));
    expect(screen.queryByText('Not enough funds for this amount and its network fee.')).toBeNull();
    await waitFor(() => expect((screen.getByRole('button', { name: 'Move to the P-Chain' }) as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByRole('button', { name: 'Move to the P-Chain' }));
    expect(await screen.findByTestId('review')).toBeTruthy();
    expect(screen.getByTestId('move-review-leaves').textContent).toBe('12 AVAX');
  });

  it('a refusal at Move is said for what was typed then, and goes once the amount changes', async () => {
    const { node } = await typedThenRefused();
    node.refusal = new Refuse({ code: 'node-unreachable', message: 'fetch failed' });
    fireEvent.click(screen.getByRole('button', { name: 'Move to the P-Chain' }));
    const said = (await screen.findByRole('alert')).querySelector('p')!.textContent!;
    expect(screen.getByText(said)).toBeTruthy();
    node.refusal = undefined;
    fireEvent.input(screen.getByLabelText('Amount (AVAX)'), { target: { value: '1' } });
    expect(screen.queryByText(said)).toBeNull();
  });

  it('an amount found short at Move stays off until it changes, even when the fees asked for another amount would let it pass (a P-Chain fee grows with the inputs)', async () => {
    let refuse = false;
    const bg = fakeBackground({
      'transfers.list': () => ({ transfers: [] }),
      'transfers.estimate': (p) => {
        if (refuse && p.amount === '11999000000') throw new Refuse({ code: 'insufficient-funds', message: 'insufficient funds of AVAX: need 12000500000, spendable 12000000000' });
        return { exportFee: '1000000', importFee: '300000', maxAmount: '11999000000' };
      },
    });
    renderWith(bg, <Move balances={balances()} onChanged={vi.fn()} estimateDelayMs={0} />);
    const button = () => screen.getByRole('button', { name: 'Move to the P-Chain' }) as HTMLButtonElement;
    fireEvent.input(screen.getByLabelText('Amount (AVAX)'), { target: { value: '11.999' } });
    await waitFor(() => expect(button().disabled).toBe(false));
    refuse = true;
    fireEvent.click(button());
    expect(await screen.findByText('Not enough funds for this amount and its network fee.')).toBeTruthy();
    // The fees of half the balance let 11.999 pass the form's own check: still off.
    await waitFor(() => expect(bg.callsOf('transfers.estimate').some((c) => c.amount === '6000000000')).toBe(true));
    await new Promise((r) => setTimeout(r, 20));
    expect(button().disabled).toBe(true);
    fireEvent.input(screen.getByLabelText('Amount (AVAX)'), { target: { value: '11.99' } });
    await waitFor(() => expect(button().disabled).toBe(false));
  });
});

describe('the review of a move made a little while ago', () => {
  const estimate = () => ({ exportFee: '1000000', importFee: '300000', maxAmount: '11999000000' });
  const review = async (amount: string) => {
    fireEvent.input(screen.getByLabelText('Amount (AVAX)'), { target: { value: amount } });
    await waitFor(() => expect(screen.getByTestId('move-arrives').textContent).not.toBe(''));
    fireEvent.click(screen.getByRole('button', { name: 'Move to the P-Chain' }));
    await screen.findByTestId('review');
  };

  it('whose Confirm lost its answer (the move was journaled all the same): Confirm is held until the list is read again, which names it before a second Confirm moves it twice', async () => {
    const transfers: TransferView[] = [];
    let restarting = false;
    const bg = fakeBackground({
      // A copy each time, as the background's answer is: the screen sees the move only by reading again.
      'transfers.list': () => {
        if (restarting) {
          restarting = false;
          throw new Refuse({ code: 'unreachable', message: 'the background stopped answering' });
        }
        return { transfers: [...transfers] };
      },
      'transfers.estimate': estimate,
      'transfers.start': (p) => {
        transfers.unshift({ id: 'm', createdAt: Date.now(), ...p, state: 'pending', importTxIDs: [] });
        restarting = true;
        throw new Refuse({ code: 'unreachable', message: 'the background stopped answering' });
      },
    });
    renderWith(bg, <Move balances={balances()} onChanged={vi.fn()} estimateDelayMs={0} pollMs={50} />);
    await review('2.5');
    expect(screen.queryByTestId('review-sent-before')).toBeNull();
    const confirm = () => screen.getByRole('button', { name: 'Confirm and move' }) as HTMLButtonElement;
    fireEvent.click(confirm());
    await waitFor(() => expect(screen.getByTestId('review-sent-before').textContent).toBe('Checking recent moves…'));
    expect(confirm().disabled).toBe(true);
    await waitFor(() => expect(screen.getByTestId('review-sent-before').textContent).toBe('You started the same move less than a minute ago, and it has not finished yet. Confirm only to move it a second time.'));
    expect(confirm().disabled).toBe(false);
    expect(bg.callsOf('transfers.start')).toHaveLength(1);
  });

  it('names one finished within the hour, not one older, failed, of another amount or to another chain', async () => {
    const now = Date.now();
    const done = { ...base, amount: '2500000000', state: 'completed' as const };
    const transfers: TransferView[] = [
      { ...done, id: 'old', createdAt: now - 61 * 60_000 },
      { ...done, id: 'failed', createdAt: now, state: 'failed' },
      { ...done, id: 'other-amount', createdAt: now, amount: '2400000000' },
      { ...done, id: 'other-chain', createdAt: now, to: 'C' },
    ];
    const bg = fakeBackground({ 'transfers.list': () => ({ transfers }), 'transfers.estimate': estimate });
    renderWith(bg, <Move balances={balances()} onChanged={vi.fn()} estimateDelayMs={0} />);
    await review('2.5');
    expect(screen.queryByTestId('review-sent-before')).toBeNull();
    cleanup();
    transfers.push({ ...done, id: 'recent', createdAt: now - 5 * 60_000 });
    renderWith(bg, <Move balances={balances()} onChanged={vi.fn()} estimateDelayMs={0} />);
    await review('2.5');
    expect(screen.getByTestId('review-sent-before').textContent).toBe('You started the same move 5 minutes ago. Confirm only to move it again.');
  });
});

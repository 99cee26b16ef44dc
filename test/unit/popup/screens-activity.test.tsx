// @vitest-environment happy-dom
// The Activity screen against a fake background: units, co-owned receipts, paging, pending items
// and what each item lists.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { Activity, ACTIVITY_PAGE } from '../../../src/popup/screens/Activity.js';
import { fakeBackground, renderWith } from './fake-background.js';
import { ApiContext, makeCall } from '../../../src/popup/api.js';
import { avax, AVAX_ID, balances, FAKE_ID, X_OTHER } from './fixtures.js';

afterEach(cleanup);

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

  it('names apart the rows of one transaction that brought two assets (Details and each Copy), and leaves a row of its own as it is', async () => {
    const tx = 'Tx' + 'h'.repeat(48);
    const bg = fakeBackground({
      'activity.list': () => ({
        items: [
          { txID: tx, chain: 'X' as const, kind: 'receive' as const, status: 'accepted' as const, assetID: AVAX_ID, amount: '1000000000', createdAt: 3 },
          { txID: tx, chain: 'X' as const, kind: 'receive' as const, status: 'accepted' as const, assetID: FAKE_ID, amount: '250', createdAt: 3 },
          { txID: 'Tx' + 'i'.repeat(48), chain: 'X' as const, kind: 'receive' as const, status: 'accepted' as const, assetID: AVAX_ID, amount: '5', createdAt: 2 },
        ],
      }),
    });
    renderWith(bg, <Activity balances={balances()} listKey="net:a" />);
    await screen.findAllByTestId('activity-item');
    const names = [...screen.getAllByRole('button'), ...document.querySelectorAll('summary')].map((e) => e.getAttribute('aria-label') ?? e.textContent);
    expect(new Set(names).size).toBe(names.length);
    expect(screen.getByText(`of the transaction ${tx} (part 2 of 2)`)).toBeTruthy();
    expect(screen.getByText(`of the transaction ${'Tx' + 'i'.repeat(48)}`)).toBeTruthy();
  });

  it("shows a send's memo as the review did: characters that hide or reorder text as codes, said so", async () => {
    const sent = (n: string, memo: string) => ({ txID: 'Tx' + n.repeat(48), chain: 'X' as const, kind: 'send' as const, status: 'accepted' as const, memo, createdAt: 1 });
    const bg = fakeBackground({ 'activity.list': () => ({ items: [sent('a', 'tag\u202E321'), sent('b', 'tag 123')] }) });
    renderWith(bg, <Activity balances={balances()} listKey="net:a" />);
    const rows = await screen.findAllByTestId('activity-item');
    expect(within(rows[0]!).getByText(/^Memo:/).textContent).toBe('Memo: tag\\u202e321 (hidden characters shown as codes)');
    expect(within(rows[1]!).getByText(/^Memo:/).textContent).toBe('Memo: tag 123');
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

  it('names every copy button by its row: two sends at the same minute never share a "Copy transaction ID"', async () => {
    const send = (n: string) => ({ txID: 'Tx' + n.repeat(48), chain: 'X' as const, kind: 'send' as const, status: 'accepted' as const, assetID: AVAX_ID, amount: '1000000000', createdAt: 60_000 });
    renderWith(fakeBackground({ 'activity.list': () => ({ items: [send('Q'), send('R')] }) }), <Activity balances={balances()} />);
    const rows = await screen.findAllByTestId('activity-item');
    const names = rows.flatMap((r) => [...r.querySelectorAll('button[aria-label^="Copy"]')].map((b) => b.getAttribute('aria-label')));
    expect(names).toHaveLength(4);
    expect(new Set(names).size).toBe(4);
    // The one under Details says which item it is of, and when.
    expect(within(rows[1]!.querySelector('details')!).getByRole('button', { name: /^Copy transaction ID TxRRRRRRRR…RRRRRR \(Sent, \d{4}-\d\d-\d\d \d\d:\d\d\)$/ })).toBeTruthy();
  });
});

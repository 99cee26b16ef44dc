// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Home, lockedLine } from '../../../src/popup/screens/Home.js';
import { formatClock, formatDateTime } from '../../../src/popup/format.js';
import type { BalancesView } from '../../../src/shared/messages.js';
import { fakeBackground, renderWith } from './fake-background.js';
import { avax, AVAX_ID, balances, FAKE_ID } from './fixtures.js';

afterEach(cleanup);

const NOW = Date.UTC(2026, 0, 2, 3, 6, 5); // two minutes after the fixture's snapshot

function show(view: BalancesView | null, extra: { loadError?: string; hidden?: Set<string>; onToggleHidden?: (id: string) => void; onRefresh?: () => void; imported?: { txIDs: string[]; failed: number; unconfirmed?: number } } = {}) {
  const bg = fakeBackground({
    'transfers.estimateImportWaiting': () => ({
      planID: 'p1',
      imports: [
        { from: 'X', to: 'P', amount: '1000000000', fee: '1000000', otherAssets: false },
        { from: 'X', to: 'P', amount: '500000000', fee: '1200000', otherAssets: false, moveID: 'm1' },
      ],
      fee: '2200000',
      tooSmall: [{ from: 'C', to: 'X', amount: '100', utxoCount: 1 }],
    }),
    'transfers.importWaiting': () => extra.imported ?? { txIDs: ['tx1', 'tx2'], failed: 0 },
  });
  renderWith(
    bg,
    <Home view={view} loadError={extra.loadError} hidden={extra.hidden ?? new Set()} onToggleHidden={extra.onToggleHidden ?? vi.fn()} onRefresh={extra.onRefresh ?? vi.fn()} now={NOW} />,
  );
  return bg;
}

const LOOKALIKE = { ...avax('X', '5000000000000'), assetID: FAKE_ID, verified: false };

describe('Home', () => {
  it('shows one balance per chain, rounded down for reading, the exact amount one click away and always in its name', () => {
    const view = balances({
      balances: [avax('X', '12000000001'), avax('P', '5000000000'), avax('C', '1500000000000000007')],
    });
    show(view);
    // Rounded down to 6 decimals (never shown larger than it is); the exact amount is in the name.
    const x = within(screen.getByTestId('total-X')).getByRole('button');
    expect(x.textContent).toBe('≈ 12 AVAX (exactly 12.000000001 AVAX)');
    expect(x.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(x);
    expect(x.textContent).toBe('12.000000001 AVAX');
    // Nothing to round: plain text.
    expect(screen.getByTestId('total-P').textContent).toBe('Spendable now 5 AVAX');
    expect(within(screen.getByTestId('total-C')).getByRole('button').textContent).toBe('≈ 1.5 AVAX (exactly 1.500000000000000007 AVAX)');
    // 12.000000001 + 5 + 1.500000000000000007, in wei.
    expect(screen.getByTestId('total-all').textContent).toBe('≈ 18.5 AVAX (exactly 18.500000001000000007 AVAX)');
    // Each chain's AVAX is its header's figure: no second row repeating it, no "decimals" noise.
    expect(screen.queryByTestId(`asset-X-${AVAX_ID}`)).toBeNull();
    expect(screen.queryByText(/decimals/)).toBeNull();
  });

  it('counts what the account has staked in the all-chains total, and says how much of it is staked', () => {
    const p = { ...avax('P', '5000000000'), staked: [{ amount: '2000000000000', unlocksAt: null }, { amount: '25000000000', unlocksAt: 1_800_000_000 }] };
    show(balances({ balances: [avax('X', '1000000000'), p, avax('C', '0')] }));
    // 1 + 5 + 2,000 + 25 AVAX: the P-Chain's own figure stays what it can spend.
    expect(screen.getByTestId('total-all').textContent).toBe('2,031 AVAX');
    expect(screen.getByTestId('total-all-staked').textContent).toBe('of which staked: 2,025 AVAX');
    expect(screen.getByTestId('total-P').textContent).toBe('Spendable now 5 AVAX');
    cleanup();
    show(balances({ balances: [avax('X', '1000000000'), avax('P', '0'), avax('C', '0')] }));
    expect(screen.queryByTestId('total-all-staked')).toBeNull();
  });

  it('counts what a move under way carries between chains in the all-chains total, and says how much', () => {
    show(balances({ balances: [avax('X', '1000000000'), avax('P', '0'), avax('C', '0')], moving: '4000000001' }));
    expect(screen.getByTestId('total-all').textContent).toBe('≈ 5 AVAX (exactly 5.000000001 AVAX)');
    expect(screen.getByTestId('total-all-moving').textContent).toBe('of which moving between chains: ≈ 4 AVAX (exactly 4.000000001 AVAX)');
    cleanup();
    show(balances({ balances: [avax('X', '1000000000'), avax('P', '0'), avax('C', '0')] }));
    expect(screen.queryByTestId('total-all-moving')).toBeNull();
  });

  it("names the X-Chain total's and the all-chains total's toggles apart, also when they show the same amount", () => {
    show(balances({ balances: [avax('X', '12000000001'), avax('P', '0'), avax('C', '0')] }));
    const x = within(screen.getByTestId('total-X')).getByRole('button', { name: 'X-Chain total: ≈ 12 AVAX (exactly 12.000000001 AVAX)' });
    const all = within(screen.getByTestId('total-all')).getByRole('button', { name: 'Total, all chains: ≈ 12 AVAX (exactly 12.000000001 AVAX)' });
    fireEvent.click(all);
    expect(all.getAttribute('aria-label')).toBe('Total, all chains: 12.000000001 AVAX');
    expect(x.textContent).toBe('≈ 12 AVAX (exactly 12.000000001 AVAX)');
  });

  it('reads dust as "< 0.000001", never as 0', () => {
    show(balances({ balances: [avax('X', '0'), avax('P', '0'), avax('C', '63000')] }));
    expect(within(screen.getByTestId('total-C')).getByRole('button').textContent).toBe('< 0.000001 AVAX (exactly 0.000000000000063 AVAX)');
  });

  it('shows a look-alike "AVAX" with its ID and a warning, apart from the real one', () => {
    show(balances({ balances: [avax('X', '1000000000', { unproven: '1000000000' }), LOOKALIKE, avax('P', '0'), avax('C', '0')] }));
    // The real AVAX gets a row only to explain part of it (here: unproven), marked as the real one.
    const real = screen.getByTestId(`asset-X-${AVAX_ID}`);
    expect(within(real).getByText('✓ Verified')).toBeTruthy();
    expect(within(real).queryByText(/^ID /)).toBeNull();
    const fake = screen.getByTestId(`asset-X-${FAKE_ID}`);
    expect(within(fake).queryByText('✓ Verified')).toBeNull();
    expect(within(fake).getByText('ID 2fombhL7aG…JyFDbe').getAttribute('title')).toBe(FAKE_ID);
    expect(within(fake).getByRole('note').textContent).toContain('Not AVAX');
    // The look-alike is not counted as AVAX.
    expect(screen.getByTestId('total-X').textContent).toBe('AVAX 1 AVAX');
  });

  it('lists no row for an asset of which no amount is held (an NFT family, a mint right alone): it read "0"', () => {
    const family = { ...avax('X', '0'), assetID: FAKE_ID, name: 'Pictures', symbol: 'PIC', denomination: 0, verified: false };
    show(balances({ balances: [avax('X', '1000000000'), family, avax('P', '0'), avax('C', '0')] }));
    expect(screen.queryByTestId(`asset-X-${FAKE_ID}`)).toBeNull();
    cleanup();
    // Nothing but NFTs on X: said so, not "Nothing on the X-Chain"; hidden before, not counted as a hidden row.
    show(balances({ balances: [avax('X', '0'), family, avax('P', '0'), avax('C', '0')] }), { hidden: new Set([FAKE_ID]) });
    expect(screen.getByText('No amounts on the X-Chain: its NFTs and mint rights are under Assets.')).toBeTruthy();
    expect(screen.queryByText(/hidden/)).toBeNull();
    cleanup();
    show(balances({ balances: [avax('X', '1000000000'), { ...family, locked: '5' }, avax('P', '0'), avax('C', '0')] }));
    expect(screen.getByTestId(`asset-X-${FAKE_ID}`)).toBeTruthy();
  });

  it('explains locked P-Chain amounts in one line, apart from what is spendable now', () => {
    show(balances({ balances: [avax('P', '1000000000', { locked: '2000000000', lockedStakeable: '500000000' }), avax('C', '0')] }));
    expect(screen.getByTestId('total-P').textContent).toBe('Spendable now 1 AVAX');
    expect(screen.getByText('+ 2.5 AVAX locked (2 time-locked, 0.5 vesting): not spendable yet')).toBeTruthy();
    expect(lockedLine(avax('P', '0', { lockedStakeable: '500000000' }))).toBe('+ 0.5 AVAX vesting (stakeable-locked): spendable once it unlocks; this wallet does not stake it');
  });

  it('says under a balance how much of it no transaction proves, and nothing when all of it is proven', () => {
    show(balances({ balances: [avax('X', '3000000000'), avax('P', '1500000000', { unproven: '1000000000' }), avax('C', '0')] }));
    expect(screen.getByTestId(`unproven-P-${AVAX_ID}`).textContent).toBe(
      "1 AVAX of this is unproven: your node showed no transaction that created it. Funds from the network's start and staking rewards look like this; anything else may not be there.",
    );
    expect(screen.queryByTestId(`unproven-X-${AVAX_ID}`)).toBeNull();
    // Still counted: the total is what the node says, the line says how much of it is unproven.
    expect(screen.getByTestId('total-P').textContent).toBe('Spendable now 1.5 AVAX');
  });

  it('shows funds another key can also spend (1-of-2 with a stranger) apart: not in the spendable figures or the total', () => {
    const tokenID = FAKE_ID;
    const token = { ...avax('X', '700', { shared: '700' }), assetID: tokenID, symbol: 'GIFT', name: 'Gift', denomination: 0, verified: false };
    show(balances({ balances: [avax('X', '9000000000', { shared: '7000000000' }), token, avax('P', '8000000000', { shared: '5000000000' }), avax('C', '0')] }));
    expect(screen.getByTestId('total-X').textContent).toBe('AVAX 2 AVAX');
    expect(screen.getByTestId('total-P').textContent).toBe('Spendable now 3 AVAX');
    expect(screen.getByTestId('total-all').textContent).toBe('5 AVAX');
    expect(screen.getByTestId(`shared-X-${AVAX_ID}`).textContent).toBe(
      '+ 7 AVAX shared: another key can also spend it, at any time, so it is yours only until that key moves it. You can still send it.',
    );
    expect(screen.getByTestId(`shared-P-${AVAX_ID}`).textContent).toContain('+ 5 AVAX shared');
    // Another asset's row: 0 of its own, the 700 apart.
    const row = screen.getByTestId(`asset-X-${tokenID}`);
    expect(within(row).getByLabelText('0 GIFT spendable')).toBeTruthy();
    expect(within(row).getByTestId(`shared-X-${tokenID}`).textContent).toContain('+ 700 GIFT shared');
    cleanup();
    // None shared (or a snapshot from before the field): no line, the figures as they were.
    show(balances({ balances: [avax('X', '9000000000'), avax('P', '8000000000'), avax('C', '0')] }));
    expect(screen.getByTestId('total-X').textContent).toBe('AVAX 9 AVAX');
    expect(screen.queryByTestId(`shared-X-${AVAX_ID}`)).toBeNull();
  });

  it('says in words what the node sent that was not counted, and shows none when there is none', () => {
    const warning = 'The node sent 2 entries for the X-Chain that the wallet could not check (its checksum or encoding is wrong): not counted in these balances.';
    show(balances({ warnings: [warning] }));
    expect(within(screen.getByTestId('balance-warnings')).getByRole('note').textContent).toBe(warning);
    cleanup();
    show(balances());
    expect(screen.queryByTestId('balance-warnings')).toBeNull();
  });

  it('dates a snapshot from another day: a time of day alone would read as today', () => {
    const old = balances({ updatedAt: NOW - 3 * 86_400_000 });
    show({ ...old, refreshing: true });
    expect(screen.getByTestId('refresh-state').textContent).toBe(`Refreshing… (last updated ${formatDateTime(old.updatedAt)})`);
    cleanup();
    show({ ...old, error: 'timed out', errorCode: 'timeout' });
    expect(screen.getByTestId('refresh-state').textContent).toBe(`Not up to date: these balances are from ${formatDateTime(old.updatedAt)}`);
  });

  it('keeps the age of the balances shown when the balances request itself fails', () => {
    const view = balances();
    show(view, { loadError: 'The wallet did not answer.' });
    expect(screen.getByTestId('refresh-state').textContent).toBe(`The wallet did not answer. Balances shown are from ${formatClock(view.updatedAt)}.`);
    cleanup();
    // None shown: nothing to date.
    show(null, { loadError: 'The wallet did not answer.' });
    expect(screen.getByTestId('refresh-state').textContent).toBe('The wallet did not answer.');
  });

  it('shows last updated, refreshing, and node unreachable', () => {
    const view = balances();
    show(view);
    expect(screen.getByTestId('refresh-state').textContent).toBe(`Updated ${formatClock(view.updatedAt)} · 2 min ago`);
    // Only the state is a live region: the age ticking on ("2 min ago") is not re-announced.
    expect(screen.getByTestId('refresh-state').querySelector('[role="status"]')?.textContent).toBe(`Updated ${formatClock(view.updatedAt)}`);
    expect(screen.getByTestId('refresh-state').querySelector('[aria-hidden="true"]')?.textContent).toBe(' · 2 min ago');
    cleanup();
    show({ ...view, refreshing: true });
    expect(screen.getByTestId('refresh-state').textContent).toBe(`Refreshing… (last updated ${formatClock(view.updatedAt)})`);
    expect((screen.getByRole('button', { name: 'Refresh balances' }) as HTMLButtonElement).disabled).toBe(true);
    cleanup();
    show({ ...view, error: 'could not reach http://127.0.0.1:9650', errorCode: 'node-unreachable' });
    // What it means for these numbers; why is the banner's (NodeBanner), and no URL is shown.
    expect(screen.getByTestId('refresh-state').textContent).toBe(`Not up to date: these balances are from ${formatClock(view.updatedAt)}`);
    cleanup();
    show({ updatedAt: 0, refreshing: true, balances: [], waiting: [] });
    expect(screen.getByTestId('refresh-state').textContent).toBe('Loading balances…');
    expect(screen.getByTestId('total-all').textContent).toBe('—');
  });

  it('keeps the same sections while loading (no layout jump)', () => {
    show(null);
    for (const c of ['X', 'P', 'C']) expect(screen.getByRole('heading', { name: `${c}-Chain` })).toBeTruthy();
    expect(screen.getByTestId('total-X').textContent).toContain('—');
  });

  it('hides an asset and can show hidden ones again', () => {
    const onToggleHidden = vi.fn();
    const view = balances({ balances: [avax('X', '1'), LOOKALIKE, avax('P', '0'), avax('C', '0')] });
    show(view, { onToggleHidden });
    fireEvent.click(within(screen.getByTestId(`asset-X-${FAKE_ID}`)).getByRole('button', { name: `Hide AVAX (asset ID ${FAKE_ID})` }));
    expect(onToggleHidden).toHaveBeenCalledWith(FAKE_ID);
    cleanup();
    show(view, { hidden: new Set([FAKE_ID]) });
    expect(screen.queryByTestId(`asset-X-${FAKE_ID}`)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Show' }));
    expect(screen.getByTestId(`asset-X-${FAKE_ID}`)).toBeTruthy();
  });

  it('shows funds waiting in atomic memory; Import now reviews each import, its fee and what arrives, and confirms with those fees as the most', async () => {
    const onRefresh = vi.fn();
    const bg = show(balances({ waiting: [{ from: 'X', to: 'P', amount: '1500000000', utxoCount: 2 }] }), { onRefresh });
    expect(await screen.findByText(/1\.5 AVAX waiting in atomic memory: exported from the X-Chain, not yet imported to the P-Chain/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Import now' }));
    await screen.findByRole('heading', { name: 'Review the import' });
    expect(bg.callsOf('transfers.importWaiting')).toEqual([]);
    expect(screen.getByTestId('import-1').textContent).toBe('1 AVAX out of atomic memory; fee 0.001 AVAX; arrives 0.999 AVAX in your P-Chain account');
    expect(screen.getByText('2. X-Chain → P-Chain (a move’s import)')).toBeTruthy();
    expect(screen.getByTestId('import-2').textContent).toContain('arrives 0.4988 AVAX');
    expect(screen.getByTestId('import-fees').textContent).toBe('0.0022 AVAX');
    expect(screen.getByText(/0\.0000001 AVAX from the C-Chain to the X-Chain cannot pay its own import fee: it stays waiting/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Confirm and import' }));
    await waitFor(() => expect(onRefresh).toHaveBeenCalled());
    expect(bg.callsOf('transfers.importWaiting')).toEqual([{ planID: 'p1', maxFee: '2200000' }]);
    expect(screen.getByText('Imported in 2 transactions.')).toBeTruthy();
  });

  it('says an import sent and not yet decided apart from one that could not be made', async () => {
    show(balances({ waiting: [{ from: 'X', to: 'P', amount: '1500000000', utxoCount: 2 }] }), { imported: { txIDs: [], failed: 1, unconfirmed: 1 } });
    fireEvent.click(await screen.findByRole('button', { name: 'Import now' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Confirm and import' }));
    expect((await screen.findByText(/^Nothing imported yet/)).textContent).toBe(
      'Nothing imported yet. 1 sent and not confirmed yet: Activity shows when the chain decides. 1 could not be made now: look at what still waits.',
    );
  });
});

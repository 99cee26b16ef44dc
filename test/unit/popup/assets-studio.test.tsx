// @vitest-environment happy-dom
// The asset studio's reviews say what the chain will do: an NFT group is minted once (nftfx's mint
// spends the group's mint right and makes none back), and an NFT about to leave is named by its
// asset ID, with a look-alike of AVAX flagged, as everywhere else.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Assets } from '../../../src/popup/screens/Assets.js';
import type { ActivityItem } from '../../../src/shared/messages.js';
import { fakeBackground, renderWith } from './fake-background.js';
import { avax, balances, FAKE_ID, HRP, UNLOCKED, X_ADDR, X_OTHER } from './fixtures.js';

afterEach(cleanup);

const FEES = { createAsset: '10000000', operation: '1000000' };

function renderAssets(handlers: Parameters<typeof fakeBackground>[0] = {}) {
  const bg = fakeBackground({ 'assets.fees': () => FEES, 'assets.mintRights': () => ({ rights: [] }), 'assets.listNfts': () => ({ nfts: [] }), ...handlers });
  renderWith(bg, <Assets status={UNLOCKED} hrp={HRP} balances={balances({ balances: [avax('X', '1')] })} onChanged={vi.fn()} />);
  return bg;
}

const type = (label: string | RegExp, value: string) => fireEvent.input(screen.getByLabelText(label), { target: { value } });

describe('Asset studio reviews', () => {
  it('an NFT family: the form and the review say each group is minted once', async () => {
    renderAssets();
    fireEvent.click(screen.getByRole('radio', { name: 'Create' }));
    fireEvent.click(screen.getByRole('radio', { name: 'NFT family' }));
    expect(screen.getByText(/Each group is minted once/)).toBeTruthy();
    type('Name', 'Pictures');
    type('Symbol', 'PIC');
    await screen.findByText(/0\.01 AVAX/);
    fireEvent.click(screen.getByRole('button', { name: 'Create asset' }));
    const review = screen.getByTestId('review').textContent ?? '';
    expect(review).toContain('each group minted once');
    expect(review).not.toMatch(/minted later, one group/);
  });

  it('the denomination says how much one output can hold (a 64-bit amount), in the form and the review', async () => {
    renderAssets();
    fireEvent.click(screen.getByRole('radio', { name: 'Create' }));
    type('Name', 'Wei Like');
    type('Symbol', 'WEI');
    type('Decimal places (denomination)', '18');
    expect(screen.getByText('One output holds at most 18.446744073709551615 WEI.')).toBeTruthy();
    type('Decimal places (denomination)', '20');
    expect(screen.getByText('One output holds at most 0.18446744073709551615 WEI.')).toBeTruthy();
    type('Holder 1', X_ADDR);
    type('Amount for holder 1 (WEI)', '0.1');
    await screen.findByText(/0\.01 AVAX/);
    fireEvent.click(screen.getByRole('button', { name: 'Create asset' }));
    expect(screen.getByTestId('review').textContent).toContain('20. One output holds at most 0.18446744073709551615 WEI.');
  });

  it('the review of an NFT send names the NFT by its asset ID and flags one posing as AVAX', async () => {
    const nfts = [{ utxoID: `${FAKE_ID}:1`, assetID: FAKE_ID, groupID: 2, payloadHex: '00', name: 'Avalanche', symbol: 'AVAX' }];
    renderAssets({ 'assets.listNfts': () => ({ nfts }) });
    fireEvent.click(screen.getByRole('radio', { name: 'NFTs' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Send NFT 1: AVAX, group 2' }));
    type(/^To/, X_OTHER);
    await screen.findByText(/0\.001 AVAX/);
    fireEvent.click(screen.getByRole('button', { name: 'Send NFT' }));
    const review = within(screen.getByTestId('review'));
    const nft = review.getByText('NFT').nextElementSibling as HTMLElement;
    expect(nft.textContent).toContain('group 2');
    expect(nft.querySelector('.asset-id')?.getAttribute('title')).toBe(FAKE_ID);
    expect(within(nft).getByText(/Not AVAX/)).toBeTruthy();
  });

  it('the review of a mint names who keeps the mint right: a stranger sharing it is not hidden behind "stays with you"', async () => {
    const shared = { assetID: FAKE_ID, utxoID: `${FAKE_ID}:2`, name: 'Gold', symbol: 'GOLD', denomination: 2, kind: 'variable' as const, threshold: 1, addresses: [X_ADDR, X_OTHER] };
    const bg = renderAssets({ 'assets.mintRights': () => ({ rights: [shared] }), 'assets.mint': () => ({ txID: 'm', fee: '1000000' }) });
    fireEvent.click(screen.getByRole('radio', { name: 'Mint' }));
    await screen.findByLabelText('Amount (GOLD)');
    type('Amount (GOLD)', '1');
    await screen.findByText(/0\.001 AVAX/);
    fireEvent.click(screen.getByRole('button', { name: 'Mint' }));
    expect(screen.getByTestId('review-minters').textContent).toBe(`1 of ${X_ADDR}, ${X_OTHER}`);
    expect(screen.getByTestId('review').textContent).not.toMatch(/stays with you/);
    expect(bg.callsOf('assets.mint')).toEqual([]);
    // The mint spends that right, the one reviewed: its UTXO goes with the request (once recent mints are checked).
    await waitFor(() => expect(screen.queryByText(/Checking recent mints/)).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Confirm and mint' }));
    await waitFor(() => expect(bg.callsOf('assets.mint')).toMatchObject([{ assetID: FAKE_ID, utxoID: shared.utxoID }]));
  });

  it('the review of a mint says when the same mint was made a little while ago (a popup closed while it ran opens on an empty form), and only then', async () => {
    const gold = { assetID: FAKE_ID, utxoID: `${FAKE_ID}:2`, name: 'Gold', symbol: 'GOLD', denomination: 2, kind: 'variable' as const, threshold: 1, addresses: [X_ADDR] };
    const minted = { txID: 'm1', chain: 'X' as const, kind: 'mint' as const, status: 'accepted' as const, assetID: FAKE_ID, amount: '100', to: X_ADDR, createdAt: Date.now() - 5 * 60_000 };
    const reviewMint = async (amount: string, items: ActivityItem[]) => {
      renderAssets({ 'assets.mintRights': () => ({ rights: [gold] }), 'activity.list': () => ({ items }) });
      fireEvent.click(screen.getByRole('radio', { name: 'Mint' }));
      await screen.findByLabelText('Amount (GOLD)');
      type('Amount (GOLD)', amount);
      type(/^Mint to/, X_ADDR);
      await screen.findByText(/0\.001 AVAX/);
      fireEvent.click(screen.getByRole('button', { name: 'Mint' }));
      await waitFor(() => expect(screen.queryByText(/Checking recent mints/)).toBeNull());
    };
    await reviewMint('1', [minted, { ...minted, txID: 's1', kind: 'send' }]);
    expect(screen.getByText('Minted before').nextElementSibling!.textContent).toBe('You minted the same amount to this address 5 minutes ago. Confirm only to mint it again.');
    cleanup();
    // Another amount, or the same amount sent rather than minted, is no such mint.
    await reviewMint('2', [minted, { ...minted, txID: 's2', kind: 'send', amount: '200' }]);
    expect(screen.queryByTestId('review-sent-before')).toBeNull();
    expect(screen.getByRole('button', { name: 'Confirm and mint' })).toBeTruthy();
  });

  it('the review of a new asset says when one of the same name and symbol was just created (a second one is a second fee), and only then', async () => {
    const created = { txID: 'c1', chain: 'X' as const, kind: 'create-asset' as const, status: 'pending' as const, created: { name: 'Pictures', symbol: 'PIC' }, createdAt: Date.now() - 2 * 60_000 };
    const reviewCreate = async (symbol: string, items: ActivityItem[]) => {
      renderAssets({ 'activity.list': () => ({ items }) });
      fireEvent.click(screen.getByRole('radio', { name: 'Create' }));
      fireEvent.click(screen.getByRole('radio', { name: 'NFT family' }));
      type('Name', 'Pictures');
      type('Symbol', symbol);
      await screen.findByText(/0\.01 AVAX/);
      fireEvent.click(screen.getByRole('button', { name: 'Create asset' }));
      await waitFor(() => expect(screen.queryByText(/Checking recent assets created/)).toBeNull());
    };
    await reviewCreate('PIC', [created]);
    expect(screen.getByText('Created before').nextElementSibling!.textContent).toBe('You created an asset of this name and symbol 2 minutes ago, and the chain has not accepted it yet. Confirm only to create a second one.');
    cleanup();
    // Another symbol, or a failed creation (nothing was made), is no such asset.
    await reviewCreate('PICS', [created, { ...created, txID: 'c2', status: 'failed', created: { name: 'Pictures', symbol: 'PICS' } }]);
    expect(screen.queryByTestId('review-sent-before')).toBeNull();
    expect(screen.getByRole('button', { name: 'Confirm and create' })).toBeTruthy();
  });

  it("an asset's details say how much of it no transaction proves, as Home does", () => {
    const gold = { ...avax('X', '250'), unproven: '200', assetID: FAKE_ID, name: 'Gold', symbol: 'GOLD', denomination: 2, verified: false };
    const bg = fakeBackground({ 'assets.fees': () => FEES, 'assets.mintRights': () => ({ rights: [] }), 'assets.listNfts': () => ({ nfts: [] }) });
    renderWith(bg, <Assets status={UNLOCKED} hrp={HRP} balances={balances({ balances: [avax('X', '1'), gold] })} onChanged={vi.fn()} />);
    fireEvent.click(screen.getByRole('button', { name: new RegExp(`^Details of GOLD .*\\(asset ID ${FAKE_ID}\\)$`) }));
    expect(screen.getByText(/^2 GOLD of this is unproven: your node showed no transaction that created it/)).toBeTruthy();
  });

  it("an asset no creating transaction names does not claim 0 decimal places: its denomination is not known", () => {
    const odd = { ...avax('X', '250'), assetID: FAKE_ID, name: 'Unknown asset (no creating transaction)', symbol: '?', denomination: 0, verified: false };
    const gold = { ...odd, assetID: `${FAKE_ID.slice(0, -1)}x`, name: 'Gold', symbol: 'GOLD', denomination: 2 };
    const bg = fakeBackground({ 'assets.fees': () => FEES, 'assets.mintRights': () => ({ rights: [] }), 'assets.listNfts': () => ({ nfts: [] }) });
    renderWith(bg, <Assets status={UNLOCKED} hrp={HRP} balances={balances({ balances: [avax('X', '1'), odd, gold] })} onChanged={vi.fn()} />);
    fireEvent.click(screen.getByRole('button', { name: new RegExp(`^Details of \\? .*\\(asset ID ${FAKE_ID}\\)$`) }));
    expect(screen.getByText('Its decimal places are not known: amounts are in its smallest units')).toBeTruthy();
    expect(screen.queryByText('0 decimal places')).toBeNull();
  });

  it('a mint of such an asset says, in the form and the review, that its amount is in smallest units', async () => {
    const odd = { assetID: FAKE_ID, utxoID: `${FAKE_ID}:2`, name: 'Unknown asset (no creating transaction)', symbol: '?', denomination: 0, kind: 'variable' as const, threshold: 1, addresses: [X_ADDR] };
    renderAssets({ 'assets.mintRights': () => ({ rights: [odd] }), 'activity.list': () => ({ items: [] }) });
    fireEvent.click(screen.getByRole('radio', { name: 'Mint' }));
    await screen.findByLabelText('Amount (?)');
    type('Amount (?)', '5');
    expect(screen.getByText('Its decimal places are not known: amounts are in its smallest units.')).toBeTruthy();
    type(/^Mint to/, X_ADDR);
    await screen.findByText(/0\.001 AVAX/);
    fireEvent.click(screen.getByRole('button', { name: 'Mint' }));
    expect(screen.getByTestId('review-amount').textContent).toBe('5 ?. Its decimal places are not known: amounts are in its smallest units');
  });
});

// @vitest-environment happy-dom
// A mint names the mint right its review showed (its UTXO). Another of its minters minting meanwhile
// spends that UTXO (a variable-cap right comes back under a new one; an NFT group's is gone): the
// background refuses, nothing signed. The rights are then read again and the mint is reviewed again
// from the form, never re-sent with the stale right, nor left on a review that now names another.
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Assets } from '../../../src/popup/screens/Assets.js';
import { payloadHash } from '../../../src/popup/components/SentBefore.js';
import type { MintRightView } from '../../../src/shared/messages.js';
import { fakeBackground, Refuse, renderWith } from './fake-background.js';
import { avax, AVAX_ID, balances, FAKE_ID, HRP, UNLOCKED, X_ADDR, X_OTHER } from './fixtures.js';

afterEach(cleanup);

const FEES = { createAsset: '10000000', operation: '1000000' };
const USED = { code: 'validation', message: 'this wallet cannot sign for that mint right of this asset (it may have been used since the review); nothing was signed', field: 'utxoID' };
const type = (label: string | RegExp, value: string) => fireEvent.input(screen.getByLabelText(label), { target: { value } });

/** The rights the background lists: `lists[n]` on the n-th ask (the last one after that). */
function renderAssets(lists: MintRightView[][], mint: 'assets.mint' | 'assets.mintNft') {
  let asked = 0;
  const bg = fakeBackground({
    'assets.fees': () => FEES,
    'assets.listNfts': () => ({ nfts: [] }),
    'assets.mintRights': () => ({ rights: lists[Math.min(asked++, lists.length - 1)]! }),
    // The first mint's right was used since; the next one goes through.
    [mint]: (p: { utxoID: string }) => {
      if (p.utxoID.endsWith(':2')) throw new Refuse(USED);
      return { txID: 'm', fee: FEES.operation };
    },
  });
  renderWith(bg, <Assets status={UNLOCKED} hrp={HRP} balances={balances({ balances: [avax('X', '1')] })} onChanged={vi.fn()} />);
  return bg;
}

describe('a mint whose right was used since its review', () => {
  it('variable cap: the rights are read again, the form says why, and the next review names and spends the right there is now', async () => {
    const gold = { assetID: FAKE_ID, utxoID: `${FAKE_ID}:2`, name: 'Gold', symbol: 'GOLD', denomination: 2, kind: 'variable' as const, threshold: 1, addresses: [X_ADDR, X_OTHER] };
    // Read again, another asset's right is listed first: the one reviewed stays picked.
    const silver = { ...gold, assetID: AVAX_ID, utxoID: `${AVAX_ID}:5`, name: 'Silver', symbol: 'SLV' };
    const bg = renderAssets([[gold], [silver, { ...gold, utxoID: `${FAKE_ID}:7` }]], 'assets.mint');
    fireEvent.click(screen.getByRole('radio', { name: 'Mint' }));
    await screen.findByLabelText('Amount (GOLD)');
    type('Amount (GOLD)', '1');
    await screen.findByText(/0\.001 AVAX/);
    fireEvent.click(screen.getByRole('button', { name: 'Mint' }));
    // Confirm waits for the check of recent mints (SentBefore).
    await waitFor(() => expect(screen.queryByText(/Checking recent mints/)).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Confirm and mint' }));
    await screen.findByText(/used since the review/);
    expect(screen.queryByTestId('review')).toBeNull();
    await waitFor(() => expect(bg.callsOf('assets.mintRights')).toHaveLength(2));
    fireEvent.click(screen.getByRole('button', { name: 'Mint' }));
    expect(screen.getByTestId('review').textContent).toContain('GOLD');
    // Confirm waits for the check of recent mints (SentBefore).
    await waitFor(() => expect(screen.queryByText(/Checking recent mints/)).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Confirm and mint' }));
    await waitFor(() => expect(bg.callsOf('assets.mint').map((m) => m.utxoID)).toEqual([`${FAKE_ID}:2`, `${FAKE_ID}:7`]));
  });

  it("NFT: the group's right gone, the review never turns to another group; the form comes back", async () => {
    const pic = { assetID: FAKE_ID, name: 'Pictures', symbol: 'PIC', denomination: 0, kind: 'nft' as const, threshold: 1, addresses: [X_ADDR, X_OTHER] };
    const bg = renderAssets([[{ ...pic, utxoID: `${FAKE_ID}:2`, groupID: 0 }, { ...pic, utxoID: `${FAKE_ID}:3`, groupID: 1 }], [{ ...pic, utxoID: `${FAKE_ID}:3`, groupID: 1 }]], 'assets.mintNft');
    fireEvent.click(screen.getByRole('radio', { name: 'NFTs' }));
    await screen.findByLabelText('Payload');
    type('Payload', 'hi');
    await screen.findAllByText(/0\.001 AVAX/);
    fireEvent.click(screen.getByRole('button', { name: 'Mint NFT' }));
    expect(screen.getByTestId('review').textContent).toContain('group 0');
    // Confirm waits for the check of recent mints (SentBefore).
    await waitFor(() => expect(screen.queryByText(/Checking recent mints/)).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Confirm and mint NFT' }));
    await screen.findByText(/used since the review/);
    await waitFor(() => expect(bg.callsOf('assets.mintRights')).toHaveLength(2));
    expect(screen.queryByTestId('review')).toBeNull();
    expect(bg.callsOf('assets.mintNft')).toHaveLength(1);
    // Group 1 is not picked in its place: the same NFT minted again would use up its right too.
    expect((screen.getByLabelText('NFT family and group') as HTMLSelectElement).value).toBe('');
    expect(screen.getByRole('option', { name: 'Choose a group' })).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Mint NFT' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('NFT family and group'), { target: { value: `${FAKE_ID}:1` } });
    expect((screen.getByRole('button', { name: 'Mint NFT' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('NFT: a mint whose answer was lost is named on the review of the same NFT again, held until Activity is read', async () => {
    const pic = { assetID: FAKE_ID, name: 'Pictures', symbol: 'PIC', denomination: 0, kind: 'nft' as const, threshold: 1, addresses: [X_ADDR] };
    const hiHash = await payloadHash('6869');
    const minted = { txID: 'T1', chain: 'X' as const, kind: 'nft-mint' as const, status: 'accepted' as const, assetID: FAKE_ID, to: X_ADDR, payloadHash: hiHash, createdAt: Date.now() - 120_000 };
    const bg = fakeBackground({
      'assets.fees': () => FEES,
      'assets.listNfts': () => ({ nfts: [] }),
      'assets.mintRights': () => ({ rights: [{ ...pic, utxoID: `${FAKE_ID}:3`, groupID: 1 }] }),
      'activity.list': () => ({ items: [minted] }),
    });
    renderWith(bg, <Assets status={UNLOCKED} hrp={HRP} balances={balances({ balances: [avax('X', '1')] })} onChanged={vi.fn()} />);
    fireEvent.click(screen.getByRole('radio', { name: 'NFTs' }));
    await screen.findByLabelText('Payload');
    type('Payload', 'hi');
    await screen.findAllByText(/0\.001 AVAX/);
    fireEvent.click(screen.getByRole('button', { name: 'Mint NFT' }));
    expect(screen.getByRole('button', { name: 'Confirm and mint NFT' }).hasAttribute('disabled')).toBe(true);
    expect(screen.getByTestId('review-sent-before').textContent).toBe('Checking recent mints…');
    await waitFor(() => expect(screen.getByTestId('review-sent-before').textContent).toMatch(/You minted an NFT of this family with the same payload to this address 2 minutes ago\. Confirm only to mint another\./));
    // Another payload is another NFT: nothing said.
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    type('Payload', 'hello');
    fireEvent.click(screen.getByRole('button', { name: 'Mint NFT' }));
    await waitFor(() => expect(screen.queryByTestId('review-sent-before')).toBeNull());
  });
});

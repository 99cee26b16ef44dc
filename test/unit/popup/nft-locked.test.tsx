// @vitest-environment happy-dom
// An NFT still time-locked (NftView.lockedUntil) is listed with when it unlocks, in local time,
// and offers no Send; one that can be sent now keeps its Send button.
import { cleanup, fireEvent, screen } from '@testing-library/preact';
import { afterEach, expect, it, vi } from 'vitest';
import { formatDateTime } from '../../../src/popup/format.js';
import { Assets } from '../../../src/popup/screens/Assets.js';
import { fakeBackground, renderWith } from './fake-background.js';
import { avax, balances, FAKE_ID, HRP, UNLOCKED } from './fixtures.js';

afterEach(cleanup);

it('a time-locked NFT says "Locked until <local date and time>" instead of offering Send', async () => {
  const until = 1_900_000_000;
  const nft = { assetID: FAKE_ID, groupID: 0, payloadHex: '00', name: 'Art', symbol: 'ART' };
  const nfts = [{ ...nft, utxoID: `${FAKE_ID}:1`, lockedUntil: until }, { ...nft, utxoID: `${FAKE_ID}:2` }];
  const bg = fakeBackground({ 'assets.fees': () => ({ createAsset: '10000000', operation: '1000000' }), 'assets.mintRights': () => ({ rights: [] }), 'assets.listNfts': () => ({ nfts }) });
  renderWith(bg, <Assets status={UNLOCKED} hrp={HRP} balances={balances({ balances: [avax('X', '1')] })} onChanged={vi.fn()} />);
  fireEvent.click(screen.getByRole('radio', { name: 'NFTs' }));
  await screen.findByRole('button', { name: 'Send NFT 2: ART, group 0' });
  const [locked] = screen.getAllByTestId('nft');
  expect(locked!.textContent).toContain(`Locked until ${formatDateTime(until * 1000)}`);
  expect(locked!.querySelector('button')).toBeNull();
  expect(screen.queryByRole('button', { name: 'Send NFT 1: ART, group 0' })).toBeNull();
});

it('an NFT that unlocks while the list is open gets its Send button: the list is read again once its lock ends', async () => {
  const until = Math.floor(Date.now() / 1000) + 2;
  const nft = { assetID: FAKE_ID, groupID: 0, payloadHex: '00', name: 'Art', symbol: 'ART', utxoID: `${FAKE_ID}:1` };
  let reads = 0;
  // The background's answer once the lock has passed, as AssetsService.listNfts gives it.
  const listNfts = () => ({ nfts: [reads++ === 0 || Date.now() < until * 1000 ? { ...nft, lockedUntil: until } : nft] });
  const bg = fakeBackground({ 'assets.fees': () => ({ createAsset: '10000000', operation: '1000000' }), 'assets.mintRights': () => ({ rights: [] }), 'assets.listNfts': listNfts });
  renderWith(bg, <Assets status={UNLOCKED} hrp={HRP} balances={balances({ balances: [avax('X', '1')] })} onChanged={vi.fn()} />);
  fireEvent.click(screen.getByRole('radio', { name: 'NFTs' }));
  await screen.findByText(/^Locked until/);
  expect(await screen.findByRole('button', { name: 'Send NFT 1: ART, group 0' }, { timeout: 6000 })).toBeTruthy();
  expect(screen.queryByText(/^Locked until/)).toBeNull();
}, 10_000);

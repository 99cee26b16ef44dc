// @vitest-environment happy-dom
// The Assets screen against a fake background: held amounts, asset details, creating and minting
// assets, and NFTs.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Assets } from '../../../src/popup/screens/Assets.js';
import { keepFocusOnScreen } from '../../../src/popup/focus.js';
import { fakeBackground, Refuse, renderWith } from './fake-background.js';
import { clickConfirm } from './confirm.js';
import { avax, balances, FAKE_ID, HRP, UNLOCKED, X_ADDR, X_OTHER } from './fixtures.js';
import { type } from './screens-fixtures.js';

afterEach(cleanup);

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

  it('an NFT family held says how many NFTs, not "0" of its units', async () => {
    const pic = { ...avax('X', '0'), assetID: FAKE_ID, name: 'Pictures', symbol: 'PIC', denomination: 0, verified: false };
    const nft = { assetID: FAKE_ID, groupID: 0, payloadHex: '00', name: 'Pictures', symbol: 'PIC' };
    const bg = fakeBackground({ 'assets.fees': () => FEES, 'assets.mintRights': () => ({ rights: [] }), 'assets.listNfts': () => ({ nfts: [{ ...nft, utxoID: `${FAKE_ID}:1` }, { ...nft, utxoID: `${FAKE_ID}:2` }] }) });
    renderWith(bg, <Assets status={UNLOCKED} hrp={HRP} balances={balances({ balances: [avax('X', '1'), pic] })} onChanged={vi.fn()} />);
    const row = await screen.findByRole('button', { name: /^Details of PIC.*2 NFTs/ });
    fireEvent.click(row);
    expect(screen.getByText('You hold').nextElementSibling!.textContent).toBe('2 NFTs (listed under NFTs)');
  });

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
    expect(screen.getByTestId('review').textContent).toContain(`Holder 1 receives1,000.25 GLD at ${X_ADDR} (this account)`);
    expect(screen.getByTestId('review').textContent).toContain(`Holder 2 receives5 GLD at ${X_OTHER}`);
    expect(screen.getByTestId('review').textContent).not.toMatch(/None of the supply/);
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

  it('says when none of a fixed supply comes to this account', async () => {
    renderAssets();
    fireEvent.click(screen.getByRole('radio', { name: 'Create' }));
    type('Name', 'Gold Coin');
    type('Symbol', 'GLD');
    type('Holder 1', X_OTHER);
    type(/^Amount for holder 1/, '5');
    await feeLine('0.01 AVAX');
    fireEvent.click(screen.getByRole('button', { name: 'Create asset' }));
    expect(screen.getByTestId('review').textContent).toContain('This account getsNone of the supply: it all goes to the addresses above.');
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
    // A 2-of-2 with another key: the account can never mint more alone, said before Confirm.
    expect(screen.getByTestId('review').textContent).toContain(`Minter set 12 of ${X_ADDR} (this account), ${X_OTHER}This account cannot mint with it alone.`);
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
    await clickConfirm('Confirm and mint NFT');
    await waitFor(() => expect(bg.callsOf('assets.mintNft')).toHaveLength(1));
    expect(bg.callsOf('assets.mintNft')[0]).toEqual({ assetID: FAKE_ID, utxoID: `${FAKE_ID}:5`, groupID: 1, payloadHex: hexOf('https://example.org/cat.png'), to: [{ addresses: [X_ADDR], threshold: 1 }], maxFee: FEES.operation });
    await waitFor(() => expect(bg.callsOf('assets.listNfts')).toHaveLength(2));
    // The next mint starts from a group there is (the one used is gone once read again), not "Choose a group".
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect((screen.getByLabelText('NFT family and group') as HTMLSelectElement).value).toBe(`${FAKE_ID}:0`);
  });

  it("focuses an NFT's address field when its Send opens, and its Send button again on Cancel (not the heading)", async () => {
    const nfts = [{ utxoID: `${FAKE_ID}:1`, assetID: FAKE_ID, groupID: 0, payloadHex: '00', name: 'Pictures', symbol: 'PIC' }];
    renderAssets({ 'assets.listNfts': () => ({ nfts }) });
    // As the popup does: focus lost with a control that went goes to the heading.
    const stop = keepFocusOnScreen(document);
    fireEvent.click(screen.getByRole('radio', { name: 'NFTs' }));
    const send = await screen.findByRole('button', { name: 'Send NFT 1: PIC, group 0' });
    send.focus();
    fireEvent.click(send);
    const to = await screen.findByLabelText(/^To/);
    await new Promise((r) => setTimeout(r, 10));
    expect(document.activeElement).toBe(to);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    const again = await screen.findByRole('button', { name: 'Send NFT 1: PIC, group 0' });
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
    // Anyone can send one: its words are said to be the minter's, not the wallet's.
    expect(screen.getByText(/written by whoever minted it/)).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Your NFTs', level: 2 })).toBeTruthy();
    expect(within(items[0]!).getByRole('link').textContent).toBe('https://example.org/cat.png');
    expect(items[1]!.textContent).toContain('group 3');
    expect(items[1]!.textContent).toContain('hex 00ff10');
    expect(items[2]!.querySelector('pre')?.textContent).toBe('{\n  "name": "Tom"\n}');
    expect(document.querySelector('img')).toBeNull();

    fireEvent.click(within(items[1]!).getByRole('button', { name: 'Send NFT 2: PIC, group 3' }));
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

  it("a mint's review keeps the group it showed when the rights are read again in another order (an NFT sent meanwhile)", async () => {
    const pic = { assetID: FAKE_ID, name: 'Pictures', symbol: 'PIC', denomination: 0, kind: 'nft' as const, threshold: 1, addresses: [X_ADDR] };
    const g0 = { ...pic, utxoID: `${FAKE_ID}:5`, groupID: 0 };
    const g1 = { ...pic, utxoID: `${FAKE_ID}:6`, groupID: 1 };
    let reads = 0;
    const bg = renderAssets({
      'assets.mintRights': () => ({ rights: reads++ === 0 ? [g0, g1] : [g1, g0] }),
      'assets.listNfts': () => ({ nfts: [{ utxoID: `${FAKE_ID}:1`, assetID: FAKE_ID, groupID: 0, payloadHex: '00', name: 'Pictures', symbol: 'PIC' }] }),
      'assets.transferNft': () => ({ txID: 't', fee: '1000000' }),
      'assets.mintNft': () => ({ txID: 'm', fee: '1000000' }),
      'activity.list': () => ({ items: [] }),
    });
    fireEvent.click(screen.getByRole('radio', { name: 'NFTs' }));
    await screen.findByLabelText('Payload');
    type('Payload', 'hi');
    await feeLine('0.001 AVAX');
    fireEvent.click(screen.getByRole('button', { name: 'Mint NFT' }));
    expect(screen.getByTestId('review').textContent).toContain('group 0');
    // The NFT above sent: the rights are read again, group 1 first now.
    fireEvent.click(await screen.findByRole('button', { name: 'Send NFT 1: PIC, group 0' }));
    const send = within(screen.getAllByTestId('nft')[0]!);
    fireEvent.input(send.getByLabelText(/^To/), { target: { value: X_OTHER } });
    fireEvent.click(send.getByRole('button', { name: 'Send NFT' }));
    fireEvent.click(send.getByRole('button', { name: 'Confirm and send NFT' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Done' }));
    await waitFor(() => expect(reads).toBeGreaterThan(1));
    expect(screen.getByTestId('review').textContent).toContain('group 0');
    await clickConfirm('Confirm and mint NFT');
    await waitFor(() => expect(bg.callsOf('assets.mintNft').map((m) => m.utxoID)).toEqual([`${FAKE_ID}:5`]));
  });
});

// @vitest-environment happy-dom
// TokenSend against a fake background: reviewed in token units, sent in base units under the
// reviewed fee and selection; a fee that rose, a token that keeps a cut, NFTs and ERC-1155.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { SimulationLine, TO_CONTRACT, TokenSend } from '../../../src/popup/screens/TokenSend.js';
import { FEE_WENT_UP } from '../../../src/popup/errors.js';
import type { TokenView } from '../../../src/shared/messages.js';
import { fakeBackground, Refuse, renderWith } from './fake-background.js';
import { clickConfirm } from './confirm.js';
import { C_ADDR, C_OTHER, HRP } from './fixtures.js';
import { clean, erc20, HASH, quote, SELECTION, TOKEN, type } from './tokens-test-kit.js';

afterEach(cleanup);

const sim = { method: 'trace' as const, changes: [{ asset: TOKEN, standard: 'erc20' as const, symbol: 'TUSD', decimals: 6, delta: '-1250000' }], touched: [TOKEN] };

describe('TokenSend', () => {
  it('reviews the amount in token units, then sends it in base units with the reviewed fee as ceiling, under the reviewed selection', async () => {
    const bg = fakeBackground({
      'tokens.estimateSend': () => ({ ...quote(52_000_000_000_000n), simulation: sim }),
      'tokens.send': () => ({ txHash: HASH, fee: '13000000000000' }),
      'activity.list': () => ({ items: [{ txID: HASH, chain: 'C', kind: 'send', status: 'accepted', createdAt: 1 }] }),
    });
    renderWith(bg, <TokenSend token={erc20} from={C_ADDR} hrp={HRP} selection={SELECTION} onBack={() => undefined} />);
    type('To (C-Chain address)', C_OTHER);
    type('Amount (TUSD)', '6');
    expect(screen.getByText('More than you can spend: 5 TUSD')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Review' }) as HTMLButtonElement).disabled).toBe(true);
    type('Amount (TUSD)', '1.25');
    fireEvent.click(screen.getByRole('button', { name: 'Review' }));
    await screen.findByRole('heading', { name: 'Review: send TUSD' });
    expect(bg.callsOf('tokens.estimateSend')).toEqual([{ address: TOKEN, to: C_OTHER, amount: '1250000' }]);
    expect(screen.getByTestId('review-amount').textContent).toBe('1.25 TUSD');
    expect(screen.getByText('Leaves you: 1.25 TUSD')).toBeTruthy();
    await clickConfirm();
    await screen.findByText('Accepted by the C-Chain');
    expect(bg.callsOf('tokens.send')).toEqual([{ address: TOKEN, to: C_OTHER, amount: '1250000', maxFeeWei: '52000000000000' }]);
    expect(bg.calls.find((c) => c.type === 'tokens.send')?.selection).toEqual(SELECTION);
  });

  it('a fee that rose since the review is quoted again and reviewed again, with the reason; nothing else is sent', async () => {
    let fee = 52_000_000_000_000n;
    const bg = fakeBackground({
      'tokens.estimateSend': () => ({ ...quote(fee), simulation: sim }),
      'tokens.send': () => {
        throw new Refuse({ code: 'fee-above-approved', message: 'the fee is above the approved maximum' });
      },
    });
    renderWith(bg, <TokenSend token={erc20} from={C_ADDR} hrp={HRP} selection={SELECTION} onBack={() => undefined} />);
    type('To (C-Chain address)', C_OTHER);
    type('Amount (TUSD)', '1');
    fireEvent.click(screen.getByRole('button', { name: 'Review' }));
    await screen.findByRole('heading', { name: 'Review: send TUSD' });
    fee = 104_000_000_000_000n;
    await clickConfirm();
    await screen.findByText(FEE_WENT_UP);
    expect(bg.callsOf('tokens.estimateSend')).toHaveLength(2);
    expect(bg.callsOf('tokens.send')).toHaveLength(1);
    await waitFor(() => expect(screen.getByTestId('review-fee').textContent).toMatch(/^at most 0\.000104 AVAX/));
  });

  it('a token that keeps a cut of each transfer: the review says what arrives (the trial run) and what the token keeps, not the amount sent', async () => {
    let arrives: string | undefined = '1125000';
    const bg = fakeBackground({ 'tokens.estimateSend': () => ({ ...quote(52_000_000_000_000n), simulation: sim, ...(arrives ? { arrives } : {}) }) });
    renderWith(bg, <TokenSend token={erc20} from={C_ADDR} hrp={HRP} selection={SELECTION} onBack={() => undefined} />);
    type('To (C-Chain address)', C_OTHER);
    type('Amount (TUSD)', '1.25');
    fireEvent.click(screen.getByRole('button', { name: 'Review' }));
    await screen.findByRole('heading', { name: 'Review: send TUSD' });
    const arrivesLine = () => screen.getByText('Arrives').nextElementSibling!.textContent;
    expect(arrivesLine()).toBe('1.125 TUSD at the address above (the token keeps 0.125 TUSD); the fee is paid in AVAX');
    expect(screen.getByTestId('review-amount').textContent).toBe('1.25 TUSD');
    // No word from the trial run: the amount sent is what the review says arrives.
    arrives = undefined;
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Review' }));
    await screen.findByRole('heading', { name: 'Review: send TUSD' });
    expect(arrivesLine()).toBe('1.25 TUSD at the address above; the fee is paid in AVAX');
    // The trial run shows none of it reaching the recipient: said as a warning, not the amount sent.
    arrives = '0';
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Review' }));
    await screen.findByRole('heading', { name: 'Review: send TUSD' });
    expect(arrivesLine()).toBe("Nothing, by your node's trial run: the token does not pass it on to the address above. You would still send 1.25 TUSD and pay the fee.");
  });

  it("a send whose answer was lost is not headed 'Sent' while the wallet checks whether it went out", async () => {
    const bg = fakeBackground({
      'tokens.estimateSend': () => ({ ...quote(52_000_000_000_000n), simulation: sim }),
      'tokens.send': () => ({ txHash: HASH, fee: '52000000000000' }),
      'activity.list': () => ({ items: [{ txID: HASH, chain: 'C', kind: 'send', status: 'pending', checking: true, createdAt: 1 }] }),
    });
    renderWith(bg, <TokenSend token={erc20} from={C_ADDR} hrp={HRP} selection={SELECTION} onBack={() => undefined} />);
    type('To (C-Chain address)', C_OTHER);
    type('Amount (TUSD)', '1');
    fireEvent.click(screen.getByRole('button', { name: 'Review' }));
    await clickConfirm();
    await screen.findByRole('heading', { name: 'Checking whether it went out' });
    expect(screen.queryByRole('heading', { name: 'Sent' })).toBeNull();
    expect(screen.getAllByRole('heading')).toHaveLength(1);
  });

  it('a token whose name reads as AVAX says so on the review, where Confirm is; a clean one says nothing there', async () => {
    const bg = fakeBackground({ 'tokens.estimateSend': () => ({ ...quote(52_000_000_000_000n), simulation: sim }) });
    for (const [checks, said] of [[{ ...clean, posesAsNative: true }, true], [clean, false]] as const) {
      renderWith(bg, <TokenSend token={{ ...erc20, checks }} from={C_ADDR} hrp={HRP} selection={SELECTION} onBack={() => undefined} />);
      type('To (C-Chain address)', C_OTHER);
      type('Amount (TUSD)', '1');
      fireEvent.click(screen.getByRole('button', { name: 'Review' }));
      await screen.findByRole('heading', { name: 'Review: send TUSD' });
      expect(screen.queryByTestId('review-flags')?.textContent).toBe(said ? "Its name or symbol reads as AVAX, the chain's own coin: it is not AVAX." : undefined);
      cleanup();
    }
  });

  it("refuses the token's own contract as the recipient (tokens sent there are lost), in words at the address", async () => {
    const bg = fakeBackground({ 'tokens.estimateSend': () => ({ ...quote(52_000_000_000_000n), simulation: sim }) });
    renderWith(bg, <TokenSend token={erc20} from={C_ADDR} hrp={HRP} selection={SELECTION} onBack={() => undefined} />);
    type('To (C-Chain address)', TOKEN.toLowerCase());
    type('Amount (TUSD)', '1');
    expect(screen.getByText(TO_CONTRACT)).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Review' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.submit(screen.getByRole('button', { name: 'Review' }).closest('form')!);
    await new Promise((r) => setTimeout(r, 10));
    expect(bg.callsOf('tokens.estimateSend')).toHaveLength(0);
    type('To (C-Chain address)', C_OTHER);
    expect(screen.queryByText(TO_CONTRACT)).toBeNull();
    expect((screen.getByRole('button', { name: 'Review' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('an NFT is sent by its token ID, checked as typed', async () => {
    const nft: TokenView = { ...erc20, standard: 'erc721', symbol: 'ART', decimals: 0, balance: '1' };
    const bg = fakeBackground({ 'tokens.estimateSend': () => ({ ...quote(1_000_000n), simulation: { method: 'call', changes: [], touched: [] } }) });
    renderWith(bg, <TokenSend token={nft} from={C_ADDR} hrp={HRP} selection={SELECTION} onBack={() => undefined} />);
    expect(screen.queryByLabelText(/^Amount/)).toBeNull();
    type('To (C-Chain address)', C_OTHER);
    type('Token ID', '4x');
    expect(screen.getByText('A token ID is a whole number (digits only)')).toBeTruthy();
    type('Token ID', '42');
    fireEvent.click(screen.getByRole('button', { name: 'Review' }));
    await screen.findByRole('heading', { name: 'Review: send ART' });
    expect(bg.callsOf('tokens.estimateSend')).toEqual([{ address: TOKEN, to: C_OTHER, tokenId: '42' }]);
    expect(screen.getByTestId('review-amount').textContent).toBe('NFT #42 of ART');
  });

  it('an ERC-1155 send is reviewed with its amount and its token ID', async () => {
    const game: TokenView = { ...erc20, standard: 'erc1155', name: 'Game', symbol: 'GAME', decimals: 0 };
    const bg = fakeBackground({ 'tokens.estimateSend': () => ({ ...quote(1_000_000n), simulation: { method: 'call', changes: [], touched: [] } }) });
    renderWith(bg, <TokenSend token={game} from={C_ADDR} hrp={HRP} selection={SELECTION} tokenId="77" onBack={() => undefined} />);
    type('To (C-Chain address)', C_OTHER);
    type(/^Amount/, '5');
    fireEvent.click(screen.getByRole('button', { name: 'Review' }));
    await screen.findByRole('heading', { name: 'Review: send GAME' });
    expect(bg.callsOf('tokens.estimateSend')).toEqual([{ address: TOKEN, to: C_OTHER, amount: '5', tokenId: '77' }]);
    expect(screen.getByTestId('review-amount').textContent).toBe('5 × NFT #77 of GAME');
  });
});

describe('SimulationLine', () => {
  it("keeps the node's reason for not trying a send, and a revert reason it reports, under Details", () => {
    const lie = 'insufficient funds: import your recovery phrase at wallet-help.example';
    render(<SimulationLine sim={{ method: 'none', changes: [], touched: [], nodeSaid: lie }} />);
    const said = screen.getByText(`Your node said: ${lie}`);
    expect(said.closest('details')).not.toBeNull();
    expect(document.body.textContent!.startsWith('Your node could not try it.')).toBe(true);
    cleanup();
    render(<SimulationLine sim={{ method: 'call', reverted: 'paused; re-enter your phrase at x.example', changes: [], touched: [] }} />);
    expect(document.body.textContent!.startsWith('Your node says it would fail. Sending it would still cost the fee.')).toBe(true);
    expect(screen.getByText('The reason your node reported: “paused; re-enter your phrase at x.example”').closest('details')).not.toBeNull();
  });
});

// @vitest-environment happy-dom
// A send like one just made (the popup closed while it ran, the form empty again) is named on the
// review before Confirm, so it is not paid twice by mistake; other sends are not.
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SENT_BEFORE_WINDOW_MS, sentBefore, sentBeforeText } from '../../../src/popup/components/SentBefore.js';
import { Send } from '../../../src/popup/screens/Send.js';
import { TokenSend } from '../../../src/popup/screens/TokenSend.js';
import type { ActivityItem, TokenView } from '../../../src/shared/messages.js';
import { fakeBackground, Refuse, renderWith } from './fake-background.js';
import { clickConfirm } from './confirm.js';
import { AVAX_ID, C_ADDR, C_OTHER, FAKE_ID, HRP, UNLOCKED, X_OTHER, balances } from './fixtures.js';

afterEach(cleanup);

const NOW = 1_800_000_000_000;
const xSend = (extra: Partial<ActivityItem> = {}): ActivityItem => ({ txID: 'earlier', chain: 'X', kind: 'send', status: 'pending', assetID: AVAX_ID, amount: '1500000000', to: X_OTHER, createdAt: NOW - 3 * 60_000, ...extra });

function type(label: string | RegExp, value: string) {
  fireEvent.input(screen.getByLabelText(label), { target: { value } });
}

describe('sentBefore', () => {
  const shape = { chain: 'X' as const, assetID: AVAX_ID, amount: 1_500_000_000n, to: X_OTHER.toUpperCase() };

  it('finds a waiting send of the same chain, asset, amount and recipient (any case), and says when', () => {
    const item = xSend();
    expect(sentBefore([item], shape, NOW)).toBe(item);
    expect(sentBeforeText(item, NOW)).toBe('You sent the same amount to this address 3 minutes ago, and the chain has not accepted it yet. Confirm only to send it a second time.');
    expect(sentBeforeText({ ...item, status: 'accepted', createdAt: NOW - 30_000 }, NOW)).toBe('You sent the same amount to this address less than a minute ago. Confirm only to send it again.');
  });

  it('an accepted send counts for an hour; a waiting one however old; a failed or replaced one never', () => {
    expect(sentBefore([xSend({ status: 'accepted', createdAt: NOW - SENT_BEFORE_WINDOW_MS + 1 })], shape, NOW)).toBeDefined();
    expect(sentBefore([xSend({ status: 'accepted', createdAt: NOW - SENT_BEFORE_WINDOW_MS })], shape, NOW)).toBeUndefined();
    expect(sentBefore([xSend({ createdAt: NOW - 24 * SENT_BEFORE_WINDOW_MS })], shape, NOW)).toBeDefined();
    expect(sentBefore([xSend({ status: 'failed' }), xSend({ replaced: true })], shape, NOW)).toBeUndefined();
    // Listed once the review showed: the send being confirmed.
    expect(sentBefore([xSend({ createdAt: NOW })], shape, NOW)).toBeUndefined();
  });

  it('another amount, asset, recipient, chain or kind is not the same send', () => {
    const others = [xSend({ amount: '1500000001' }), xSend({ assetID: FAKE_ID }), xSend({ to: `${X_OTHER}, ${X_OTHER}` }), xSend({ chain: 'P' }), xSend({ kind: 'export' })];
    expect(others.map((i) => sentBefore([i], shape, NOW))).toEqual([undefined, undefined, undefined, undefined, undefined]);
  });

  it('on the C-Chain, AVAX and each token (and each NFT ID) are told apart', () => {
    const token = { address: C_ADDR, symbol: 'T', decimals: 0, standard: 'erc721' as const, tokenId: '5' };
    const avaxSend = xSend({ chain: 'C', assetID: undefined, amount: '1', to: C_OTHER });
    const nftSend = { ...avaxSend, token };
    const c = { chain: 'C' as const, amount: 1n, to: C_OTHER.toLowerCase() };
    expect(sentBefore([nftSend], c, NOW)).toBeUndefined();
    expect(sentBefore([avaxSend], c, NOW)).toBe(avaxSend);
    expect(sentBefore([avaxSend], { ...c, token: C_ADDR.toLowerCase(), tokenId: '5' }, NOW)).toBeUndefined();
    expect(sentBefore([nftSend], { ...c, token: C_ADDR.toLowerCase(), tokenId: '5' }, NOW)).toBe(nftSend);
    expect(sentBefore([nftSend], { ...c, token: C_ADDR, tokenId: '6' }, NOW)).toBeUndefined();
  });
});

describe('the send reviews', () => {
  /** `list`: Activity's answer, when not at once from `items`. */
  async function reviewXSend(items: ActivityItem[], sendX: () => Promise<{ txID: string; fee: string }> = () => new Promise(() => undefined), list?: () => Promise<{ items: ActivityItem[] }>) {
    const activity = [...items];
    const bg = fakeBackground({
      'activity.list': list ?? (() => ({ items: activity })),
      'send.estimate': () => ({ fee: '1000000', maxAmount: '9000000000' }),
      'send.x': () => {
        // As the background does: the send is listed, waiting, before the node decides.
        activity.unshift(xSend({ txID: 'new', createdAt: Date.now() }));
        return sendX();
      },
    });
    renderWith(bg, <Send status={UNLOCKED} hrp={HRP} balances={balances()} onSent={() => undefined} estimateDelayMs={0} />);
    type(/^To/, X_OTHER);
    type('Amount (AVAX)', '1.5');
    await waitFor(() => expect((screen.getByRole('button', { name: 'Review' }) as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByRole('button', { name: 'Review' }));
    await screen.findByRole('heading', { name: 'Review' });
    return bg;
  }

  it('Send names the same send still waiting, and the send being confirmed never names itself', async () => {
    await reviewXSend([xSend({ createdAt: Date.now() - 2 * 60_000 })]);
    await waitFor(() => expect(screen.getByTestId('review-sent-before').textContent).toMatch(/^You sent the same amount to this address 2 minutes ago, and the chain has not accepted/));
    cleanup();
    await reviewXSend([]);
    await clickConfirm();
    await screen.findByText(/^Signing and sending/);
    await new Promise((r) => setTimeout(r, 20));
    expect(screen.queryByTestId('review-sent-before')).toBeNull();
  });

  it('Send says nothing of an older accepted send or of another amount', async () => {
    await reviewXSend([xSend({ status: 'accepted', createdAt: Date.now() - SENT_BEFORE_WINDOW_MS - 1 }), xSend({ amount: '1000000000' })]);
    await new Promise((r) => setTimeout(r, 20));
    expect(screen.queryByTestId('review-sent-before')).toBeNull();
  });

  it('Confirm waits for the check (Activity naming new assets can take seconds): a quick Confirm cannot beat the line', async () => {
    let answer: (items: ActivityItem[]) => void = () => undefined;
    const bg = await reviewXSend([], undefined, () => new Promise((r) => (answer = (items) => r({ items }))));
    const confirm = screen.getByRole('button', { name: 'Confirm and send' }) as HTMLButtonElement;
    expect(screen.getByTestId('review-sent-before').textContent).toBe('Checking recent sends…');
    expect(confirm.disabled).toBe(true);
    fireEvent.click(confirm);
    await new Promise((r) => setTimeout(r, 20));
    expect(bg.callsOf('send.x')).toEqual([]);
    answer([xSend({ createdAt: Date.now() - 60_000 })]);
    await waitFor(() => expect(screen.getByTestId('review-sent-before').textContent).toMatch(/^You sent the same amount to this address 1 minute ago/));
    expect(confirm.disabled).toBe(false);
  });

  it('after a Confirm whose answer was lost (the send may have gone out), the review names that send before Confirm can be pressed again', async () => {
    await reviewXSend([], () => Promise.reject(new Refuse({ code: 'unreachable', message: 'the wallet background did not answer' })));
    await clickConfirm();
    await screen.findByRole('alert');
    await waitFor(() => expect(screen.getByTestId('review-sent-before').textContent).toBe('You sent the same amount to this address less than a minute ago, and the chain has not accepted it yet. Confirm only to send it a second time.'));
  });

  it('a Confirm refused within the millisecond it was pressed still gets its check again: Confirm is not held for good', async () => {
    await reviewXSend([], () => Promise.reject(new Refuse({ code: 'unreachable', message: 'the wallet background did not answer' })));
    // The clock stands still: the review's check after the failure must differ from the one made while sending.
    const now = vi.spyOn(Date, 'now').mockReturnValue(Date.now());
    try {
      await clickConfirm();
      await screen.findByRole('alert');
      await waitFor(() => expect((screen.getByRole('button', { name: 'Confirm and send' }) as HTMLButtonElement).disabled).toBe(false));
      expect(screen.queryByText('Checking recent sends…')).toBeNull();
    } finally {
      now.mockRestore();
    }
  });

  it('TokenSend names the same token send made a minute ago', async () => {
    const token: TokenView = { address: C_ADDR, standard: 'erc20', name: 'Test Dollar', symbol: 'TUSD', decimals: 6, checks: { altered: false, posesAsNative: false }, addedBy: 'wallet', balance: '5000000' };
    const earlier = xSend({ chain: 'C', assetID: undefined, status: 'accepted', amount: '1250000', to: C_OTHER, createdAt: Date.now() - 61_000, token: { address: C_ADDR.toLowerCase(), symbol: 'TUSD', decimals: 6, standard: 'erc20' } });
    const bg = fakeBackground({
      'activity.list': () => ({ items: [earlier] }),
      'tokens.estimateSend': () => ({ gasLimit: '52000', maxFeePerGas: '1', maxPriorityFeePerGas: '1', maxFee: '52000', likelyFee: '52000', simulation: { method: 'none', changes: [], touched: [] } }),
    });
    renderWith(bg, <TokenSend token={token} from={C_OTHER} hrp={HRP} selection={undefined} onBack={() => undefined} />);
    type('To (C-Chain address)', C_OTHER);
    type('Amount (TUSD)', '1.25');
    fireEvent.click(screen.getByRole('button', { name: 'Review' }));
    await screen.findByRole('heading', { name: 'Review: send TUSD' });
    await waitFor(() => expect(screen.getByTestId('review-sent-before').textContent).toBe('You sent the same amount to this address 1 minute ago. Confirm only to send it again.'));
  });
});

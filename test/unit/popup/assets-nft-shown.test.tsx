// @vitest-environment happy-dom
// What the NFT list shows of an NFT anyone can send the wallet: one another key can also send alone
// (a stranger in a 1-of-2) says so, as shared funds do on Home; a payload whose text hides or
// reorders characters (bidi overrides, zero-width, C1 controls) is shown as its bytes, never as text
// that reads other than it is; a link is named by the host it opens. A payload about to be minted is
// judged the same way, by its bytes: the review never shows text that reads other than what is signed.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { NftView } from '../../../src/shared/messages.js';
import { Assets } from '../../../src/popup/screens/Assets.js';
import { fakeBackground, renderWith } from './fake-background.js';
import { avax, balances, FAKE_ID, HRP, UNLOCKED, X_ADDR } from './fixtures.js';

afterEach(cleanup);

const hex = (text: string) => [...new TextEncoder().encode(text)].map((b) => b.toString(16).padStart(2, '0')).join('');
const nft = (n: number, payload: string, extra: Partial<NftView> = {}): NftView => ({ utxoID: `${FAKE_ID}:${n}`, assetID: FAKE_ID, groupID: 0, payloadHex: hex(payload), name: 'Art', symbol: 'ART', ...extra });

async function nftList(nfts: NftView[]) {
  const bg = fakeBackground({ 'assets.fees': () => ({ createAsset: '10000000', operation: '1000000' }), 'assets.mintRights': () => ({ rights: [] }), 'assets.listNfts': () => ({ nfts }) });
  renderWith(bg, <Assets status={UNLOCKED} hrp={HRP} balances={balances({ balances: [avax('X', '1')] })} onChanged={vi.fn()} />);
  fireEvent.click(screen.getByRole('radio', { name: 'NFTs' }));
  return screen.findAllByTestId('nft');
}

describe('the NFT list', () => {
  it('says when another key can also send an NFT; not for one the wallet holds alone', async () => {
    const [shared, alone] = await nftList([nft(1, 'first', { shared: true }), nft(2, 'second')]);
    expect(within(shared!).getByText(/another key can also send this NFT, at any time/)).toBeTruthy();
    expect(alone!.textContent).not.toMatch(/another key/);
  });

  it('shows a payload with bidi overrides, zero-width or other invisible or C1 control characters as its hex bytes, a JSON one judged as shown; plain text, lines and JSON as text', async () => {
    // Also invisible letters (a Hangul filler), and a JSON payload's escapes, which its indented form turns into the characters.
    const spoofs = ['Ticket 1 \u202Eevas\u202C', 'VIP\u200B pass', 'seat\u0085 12', 'row\u2028 3', 'VIP\u3164 pass', '{"file":"Ticket \\u202Egnp.exe"}', '\uFEFFhttps://evil.example/x'];
    const items = await nftList([...spoofs.map((s, i) => nft(i, s)), nft(9, 'Row 4\nSeat 12'), nft(10, '{"seat":12}')]);
    spoofs.forEach((s, i) => expect(items[i]!.querySelector('.payload-preview')!.textContent).toBe(`hex ${hex(s)}`));
    // Why it is bytes, said beside them.
    expect(items[0]!.textContent).toContain('Shown as bytes: it is not plain text, or its text has characters that hide or reorder what you read.');
    expect(items[spoofs.length]!.querySelector('.payload-preview')!.textContent).toBe('Row 4\nSeat 12');
    expect(items[spoofs.length + 1]!.querySelector('.payload-preview')!.textContent).toBe('{\n  "seat": 12\n}');
  });

  it('names the host a link opens: one with user info before it reads as the host it goes to, not the name in front', async () => {
    const [item] = await nftList([nft(1, 'https://avax.network@wallet-check.example/claim')]);
    const preview = item!.querySelector('.payload-preview')!;
    expect(preview.textContent).toMatch(/^Link to wallet-check\.example \(not loaded\): /);
    expect(preview.querySelector('a')!.getAttribute('href')).toBe('https://avax.network@wallet-check.example/claim');
  });
});

describe('an NFT about to be minted', () => {
  const right = { assetID: FAKE_ID, utxoID: `${FAKE_ID}:1`, name: 'Art', symbol: 'ART', denomination: 0, kind: 'nft' as const, groupID: 0, threshold: 1, addresses: [X_ADDR] };
  async function typed(kind: 'Text' | 'JSON', payload: string) {
    const bg = fakeBackground({ 'assets.fees': () => ({ createAsset: '10000000', operation: '1000000' }), 'assets.mintRights': () => ({ rights: [right] }), 'assets.listNfts': () => ({ nfts: [] }) });
    renderWith(bg, <Assets status={UNLOCKED} hrp={HRP} balances={balances({ balances: [avax('X', '1')] })} onChanged={vi.fn()} />);
    fireEvent.click(screen.getByRole('radio', { name: 'NFTs' }));
    fireEvent.click(await screen.findByRole('radio', { name: kind }));
    fireEvent.input(screen.getByLabelText('Payload'), { target: { value: payload } });
  }

  it('is reviewed as its bytes will show: escapes that read as a bidi override, and a raw line separator, as hex', async () => {
    for (const payload of ['{"file":"Ticket \\u202Egnp.exe"}', 'row\u2028 3']) {
      await typed(payload.startsWith('{') ? 'JSON' : 'Text', payload);
      await waitFor(() => expect((screen.getByRole('button', { name: 'Mint NFT' }) as HTMLButtonElement).disabled).toBe(false));
      fireEvent.click(screen.getByRole('button', { name: 'Mint NFT' }));
      expect(within(screen.getByTestId('review')).getByText(/^hex /).textContent).toBe(`hex ${hex(payload)}`);
      cleanup();
    }
  });

  it('with half a character (a lone surrogate, which would be signed as U+FFFD) is refused', async () => {
    await typed('Text', 'seat \ud83c 12');
    expect(screen.getByText('This text has a broken character')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Mint NFT' }) as HTMLButtonElement).disabled).toBe(true);
  });
});

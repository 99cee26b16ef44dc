// @vitest-environment happy-dom
// The token screens against a fake background: what each asks for, with which amounts in base
// units, under which reviewed account and network, and what the user sees on the way.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { PendingEvm } from '../../../src/popup/components/PendingEvm.js';
import { ScanNote, TokenTransfers } from '../../../src/popup/components/TokenTransfers.js';
import { Allowances } from '../../../src/popup/screens/Allowances.js';
import { TokenAdd } from '../../../src/popup/screens/TokenAdd.js';
import { TokenNfts } from '../../../src/popup/screens/TokenNfts.js';
import { Tokens } from '../../../src/popup/screens/Tokens.js';
import type { PendingEvmTxView, TokenView } from '../../../src/shared/messages.js';
import { shortenId } from '../../../src/popup/format.js';
import { fakeBackground, renderWith } from './fake-background.js';
import { C_ADDR, C_OTHER, HRP, UNLOCKED } from './fixtures.js';
import { erc20, HASH, quote, SELECTION, TOKEN, type } from './tokens-test-kit.js';

afterEach(cleanup);

describe('TokenAdd', () => {
  it('shows what the contract says and the checks in words before anything is listed; lists it on request', async () => {
    const lookalike: TokenView = { ...erc20, symbol: 'АVАХ', checks: { altered: false, posesAsNative: true } };
    let added = false;
    const bg = fakeBackground({ 'tokens.inspect': () => ({ token: lookalike, listed: false }), 'tokens.add': () => ({ token: lookalike }) });
    renderWith(bg, <TokenAdd hrp={HRP} selection={SELECTION} onAdded={() => (added = true)} onCancel={() => undefined} />);
    type('Token contract address', TOKEN);
    fireEvent.click(screen.getByRole('button', { name: 'Look it up' }));
    const found = await screen.findByRole('heading', { name: 'What the contract says' });
    // Focus goes to what the contract says (it appeared below the form), then Tab reaches Add.
    await waitFor(() => expect(document.activeElement).toBe(found));
    expect(screen.getByText(/reads as AVAX.*it is not AVAX/)).toBeTruthy();
    expect(screen.getByTestId('token-found-balance').textContent).toBe('5 АVАХ');
    expect(bg.callsOf('tokens.add')).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Add АVАХ to my list' }));
    await waitFor(() => expect(added).toBe(true));
    expect(bg.callsOf('tokens.add')).toEqual([{ address: TOKEN }]);
    // Under the account and network it was looked up on: switched in another window, nothing is listed there.
    expect(bg.calls.find((m) => m.type === 'tokens.add')?.selection).toEqual(SELECTION);
  });
});

describe('Allowances', () => {
  const scan = { fromBlock: '0', toBlock: '90', complete: true, updatedAt: 0 };
  it('says the list may miss some when the scan could not keep every approval, and never then claims there are none', async () => {
    const bg = fakeBackground({ 'tokens.allowances': () => ({ allowances: [], scan: { ...scan, cut: true } }) });
    renderWith(bg, <Allowances from={C_ADDR} selection={SELECTION} listKey="k" onBack={() => undefined} />);
    expect((await screen.findByText(/some were not kept, so this list may miss some/)).textContent).toBe('Too many approvals came from contracts not in your token list: some were not kept, so this list may miss some.');
    expect(screen.getByText('Add a token yourself to keep all of its approvals from now on (one cut before is not read again).')).toBeTruthy();
    expect(screen.getByText('None found among the approvals kept.')).toBeTruthy();
    expect(screen.queryByText(/no one may take tokens/)).toBeNull();
  });

  it('with every approval kept, an empty list says no one may take tokens', async () => {
    const bg = fakeBackground({ 'tokens.allowances': () => ({ allowances: [], scan }) });
    renderWith(bg, <Allowances from={C_ADDR} selection={SELECTION} listKey="k" onBack={() => undefined} />);
    await screen.findByText('None: no one may take tokens from this account.');
    expect(screen.queryByText(/may miss some/)).toBeNull();
    // What the list cannot show is said: ERC-721's per-token approvals are not kept from the logs.
    expect(screen.getByText(/Not listed: an NFT approved on its own \(one token, not the whole contract\); sending that NFT ends it\./)).toBeTruthy();
  });

  it('a scan not read to block 0, or stopped by the node, never says no one may take tokens', async () => {
    for (const partial of [{ ...scan, fromBlock: '51000', complete: false }, { ...scan, error: 'eth_getLogs: limit exceeded (code -32005)', errorCode: 'rpc' }]) {
      const bg = fakeBackground({ 'tokens.allowances': () => ({ allowances: [], scan: partial }) });
      renderWith(bg, <Allowances from={C_ADDR} selection={SELECTION} listKey="k" onBack={() => undefined} />);
      await screen.findByText('None found in the blocks read so far.');
      expect(screen.queryByText(/no one may take tokens/)).toBeNull();
      cleanup();
    }
  });

  it('read to block 0 but newer blocks still waiting: says so, and never that no one may take tokens', async () => {
    const bg = fakeBackground({ 'tokens.allowances': () => ({ allowances: [], scan: { ...scan, complete: false, behind: true } }) });
    renderWith(bg, <Allowances from={C_ADDR} selection={SELECTION} listKey="k" onBack={() => undefined} />);
    await screen.findByText('The newest blocks are still to be read; Reload reads further.');
    expect(screen.queryByText(/no one may take tokens/)).toBeNull();
  });

  it('an approval the node could not check now is listed as such, and can be revoked', async () => {
    const a = { token: TOKEN, symbol: 'TUSD', decimals: 6, standard: 'erc20' as const, kind: 'allowance' as const, spender: C_OTHER, unknown: true as const, unlimited: false, spenderIsContract: true, txHash: HASH };
    const bg = fakeBackground({ 'tokens.allowances': () => ({ allowances: [a], scan }), 'tokens.estimateRevoke': () => quote(1_000_000n) });
    renderWith(bg, <Allowances from={C_ADDR} selection={SELECTION} listKey="k" onBack={() => undefined} />);
    await screen.findByText('TUSD: could not be checked now');
    fireEvent.click(screen.getByRole('button', { name: /^Revoke TUSD/ }));
    await screen.findByRole('heading', { name: 'Review: revoke TUSD' });
    expect(bg.callsOf('tokens.estimateRevoke')).toEqual([{ address: TOKEN, spender: C_OTHER, kind: 'allowance' }]);
  });

  it('an allowance Permit2 keeps says so with its end, and its revoke goes through Permit2', async () => {
    const a = { token: TOKEN, symbol: 'TUSD', decimals: 6, standard: 'erc20' as const, kind: 'permit2' as const, spender: C_OTHER, amount: ((1n << 160n) - 1n).toString(), unlimited: true, expiration: '1893456000', spenderIsContract: true, txHash: HASH };
    const bg = fakeBackground({ 'tokens.allowances': () => ({ allowances: [a, { ...a, spender: C_ADDR, amount: '2500000', unlimited: false, expiration: '281474976710655' }], scan }), 'tokens.estimateRevoke': () => quote(1_000_000n) });
    renderWith(bg, <Allowances from={C_ADDR} selection={SELECTION} listKey="k" onBack={() => undefined} />);
    const [unlimited, limited] = await screen.findAllByTestId('allowance');
    expect(unlimited!.textContent).toContain('Unlimited TUSDPermit2');
    expect(unlimited!.textContent).toMatch(/Taken through Permit2, until .*2030/);
    expect(limited!.textContent).toContain('2.5 TUSDPermit2');
    expect(limited!.textContent).toContain('Taken through Permit2, with no end');
    fireEvent.click(screen.getAllByRole('button', { name: /^Revoke TUSD/ })[0]!);
    await screen.findByRole('heading', { name: 'Review: revoke TUSD' });
    expect(screen.getByText('It may take none of these tokens through Permit2')).toBeTruthy();
    expect(bg.callsOf('tokens.estimateRevoke')).toEqual([{ address: TOKEN, spender: C_OTHER, kind: 'permit2' }]);
  });

  it('two revoke reviews of one token open at once: regions and buttons named by their spender; the likely fee exact from the keyboard', async () => {
    const a = { token: TOKEN, symbol: 'TUSD', decimals: 6, standard: 'erc20' as const, kind: 'allowance' as const, spender: C_OTHER, amount: '2500000', unlimited: false, spenderIsContract: true, txHash: HASH };
    const bg = fakeBackground({ 'tokens.allowances': () => ({ allowances: [a, { ...a, spender: C_ADDR }], scan }), 'tokens.estimateRevoke': () => quote(1_000_000n) });
    renderWith(bg, <Allowances from={C_ADDR} selection={SELECTION} listKey="k" onBack={() => undefined} />);
    await screen.findAllByTestId('allowance');
    for (const spender of [C_OTHER, C_ADDR]) fireEvent.click(screen.getByRole('button', { name: `Revoke TUSD for ${shortenId(spender)}` }));
    await waitFor(() => expect(screen.getAllByTestId('review')).toHaveLength(2));
    const regions = screen.getAllByRole('region').map((r) => r.getAttribute('aria-label'));
    expect(regions).toEqual([`Review: revoke TUSD (TUSD for ${shortenId(C_OTHER)})`, `Review: revoke TUSD (TUSD for ${shortenId(C_ADDR)})`]);
    for (const spender of [C_OTHER, C_ADDR]) {
      const review = screen.getByRole('region', { name: `Review: revoke TUSD (TUSD for ${shortenId(spender)})` });
      expect(within(review).getByRole('button', { name: `Edit (TUSD for ${shortenId(spender)})` })).toBeTruthy();
      expect(within(review).getByRole('button', { name: `Confirm and revoke (TUSD for ${shortenId(spender)})` })).toBeTruthy();
    }
    // The likely fee, rounded, is a toggle (not a hover-only title): the exact value one key away.
    const likely = within(screen.getAllByTestId('review-fee')[0]!).getByRole('button', { name: /^Likely fee: < 0\.000001 AVAX \(exactly 0\.00000000000025 AVAX\)$/ });
    fireEvent.click(likely);
    expect(likely.getAttribute('aria-pressed')).toBe('true');
    expect(likely.textContent).toBe('0.00000000000025 AVAX');
  });
});

describe('Tokens', () => {
  it('Remove asks once more with focus on Keep (keyboard users stay in the row); Keep puts focus back on Remove', async () => {
    const other: TokenView = { ...erc20, address: C_OTHER, symbol: 'OTH' };
    const scan = { fromBlock: '0', toBlock: '9', complete: true, updatedAt: 0 };
    const bg = fakeBackground({ 'tokens.list': () => ({ tokens: [erc20, other] }), 'tokens.activity': () => ({ items: [], scan }), 'evm.pending': () => ({ txs: [] }) });
    renderWith(bg, <Tokens status={UNLOCKED} hrp={HRP} selection={SELECTION} listKey="k" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Remove OTH' }));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Keep OTH' })));
    fireEvent.click(screen.getByRole('button', { name: 'Keep OTH' }));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Remove OTH' })));
    expect(bg.callsOf('tokens.remove')).toEqual([]);
    // Removed under the account and network the list was shown for.
    fireEvent.click(screen.getByRole('button', { name: 'Remove OTH' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Yes, remove OTH' }));
    await waitFor(() => expect(bg.callsOf('tokens.remove')).toEqual([{ address: C_OTHER }]));
    expect(bg.calls.find((m) => m.type === 'tokens.remove')?.selection).toEqual(SELECTION);
  });

  it("a token's balance is rounded as AVAX is, its exact amount one click away", async () => {
    const weth: TokenView = { ...erc20, symbol: 'WETH', decimals: 18, balance: '1234567890123456789' };
    const scan = { fromBlock: '0', toBlock: '9', complete: true, updatedAt: 0 };
    renderWith(fakeBackground({ 'tokens.list': () => ({ tokens: [weth] }), 'tokens.activity': () => ({ items: [], scan }), 'evm.pending': () => ({ txs: [] }) }), <Tokens status={UNLOCKED} hrp={HRP} selection={SELECTION} listKey="k" />);
    const toggle = await screen.findByRole('button', { name: /^WETH balance: / });
    expect(toggle.textContent!.startsWith('≈ 1.234567 WETH')).toBe(true);
    expect(toggle.getAttribute('aria-label')).toContain('exactly 1.234567890123456789 WETH');
    fireEvent.click(toggle);
    expect(screen.getByTestId('token-balance').textContent).toBe('1.234567890123456789 WETH');
  });
});

describe('ScanNote', () => {
  it('says blocks a flood filled were passed by, apart from records not kept', () => {
    render(<ScanNote scan={{ fromBlock: '0', toBlock: '9', complete: true, updatedAt: 0, flooded: true }} />);
    expect(screen.getByText(/Some blocks held more records naming this account than the wallet reads/).textContent).toContain('they were passed by, so this list may miss what they hold');
    expect(screen.queryByText(/came from contracts not in your token list/)).toBeNull();
  });
});

describe('TokenTransfers', () => {
  it('shows the newest 50 of up to 500 transfers, and 50 more per "Show older"', async () => {
    const transfer = (i: number) => ({ txHash: `0x${i.toString(16).padStart(64, '0')}`, logIndex: 0, blockNumber: String(1000 - i), token: TOKEN, symbol: 'TUSD', decimals: 6, standard: 'erc20' as const, listed: true, direction: 'in' as const, from: C_OTHER, to: C_ADDR, amount: '1000000' });
    const items = Array.from({ length: 120 }, (_, i) => transfer(i));
    renderWith(fakeBackground({ 'tokens.activity': () => ({ items, scan: { fromBlock: '0', toBlock: '1000', complete: true, updatedAt: 0 } }) }), <TokenTransfers listKey="k" />);
    await waitFor(() => expect(screen.getAllByTestId('token-transfer')).toHaveLength(50));
    fireEvent.click(screen.getByRole('button', { name: 'Show 50 older token transfers (70 not shown)' }));
    expect(screen.getAllByTestId('token-transfer')).toHaveLength(100);
    fireEvent.click(screen.getByRole('button', { name: 'Show 20 older token transfers (20 not shown)' }));
    expect(screen.getAllByTestId('token-transfer')).toHaveLength(120);
    expect(screen.queryByRole('button', { name: /^Show .* older/ })).toBeNull();
  });

  it("a swap's two logs under one hash have Copy buttons named apart", async () => {
    const base = { blockNumber: '7', token: TOKEN, symbol: 'TUSD', decimals: 6, standard: 'erc20' as const, listed: true, from: C_OTHER, to: C_ADDR, amount: '1000000' };
    const swap = `0x${'5'.repeat(64)}`;
    const items = [{ ...base, txHash: swap, logIndex: 0, direction: 'out' as const }, { ...base, txHash: swap, logIndex: 1, direction: 'in' as const }, { ...base, txHash: `0x${'6'.repeat(64)}`, logIndex: 0, direction: 'in' as const }];
    renderWith(fakeBackground({ 'tokens.activity': () => ({ items, scan: { fromBlock: '0', toBlock: '7', complete: true, updatedAt: 0 } }) }), <TokenTransfers listKey="k" />);
    await screen.findAllByTestId('token-transfer');
    const copies = screen.getAllByRole('button', { name: /^Copy transaction hash/ }).map((b) => b.getAttribute('aria-label'));
    expect(copies).toHaveLength(3);
    expect(new Set(copies).size).toBe(3);
    expect(copies[1]).toMatch(/\(part 2 of 2\)$/);
    expect(copies[2]).not.toMatch(/part/);
  });

  it('each transfer says when, in local time; one not dated yet says its block', async () => {
    const when = new Date(2026, 10, 22, 14, 3).getTime();
    const base = { logIndex: 0, token: TOKEN, symbol: 'TUSD', decimals: 6, standard: 'erc20' as const, listed: true, direction: 'in' as const, from: C_OTHER, to: C_ADDR, amount: '1000000' };
    const items = [{ ...base, txHash: `0x${'1'.repeat(64)}`, blockNumber: '1234567', time: when }, { ...base, txHash: `0x${'2'.repeat(64)}`, blockNumber: '1234000' }];
    renderWith(fakeBackground({ 'tokens.activity': () => ({ items, scan: { fromBlock: '0', toBlock: '1234567', complete: true, updatedAt: 0 } }) }), <TokenTransfers listKey="k" />);
    const rows = await screen.findAllByTestId('token-transfer');
    expect(rows[0]!.querySelector('.tx-bottom')!.textContent).toContain('2026-11-22 14:03');
    expect(rows[1]!.querySelector('.tx-bottom')!.textContent).toContain('block 1,234,000');
  });
});

describe('a log scan the node stopped', () => {
  const raw = 'eth_getLogs got no answer within 10000 ms from http://127.0.0.1:9650/ext/bc/C/rpc';
  const stopped = { fromBlock: '51000', toBlock: '100000', complete: false, updatedAt: 0, error: raw, errorCode: 'timeout' };
  it('says why in plain words on Allowances and Token transfers; the node\'s own words only behind Details', async () => {
    const bg = fakeBackground({ 'tokens.allowances': () => ({ allowances: [], scan: stopped }), 'tokens.activity': () => ({ items: [], scan: stopped }) });
    for (const view of [<Allowances from={C_ADDR} selection={SELECTION} listKey="k" onBack={() => undefined} />, <TokenTransfers listKey="k" />]) {
      renderWith(bg, view);
      const said = await screen.findByText(/^Not every block could be read yet\. The node took too long to answer/);
      expect(said.textContent).not.toMatch(/eth_|http|\bms\b/);
      expect(document.querySelector('details')?.textContent?.toLowerCase()).toContain(raw.toLowerCase());
      cleanup();
    }
  });
});

describe('TokenNfts', () => {
  const wholeChain = { fromBlock: '0', toBlock: '90', complete: true, updatedAt: 0 };
  it('says "you hold none" (and no token transfers) only when every block was read and every transfer kept; else none found so far, with Reload', async () => {
    const nft: TokenView = { ...erc20, standard: 'erc721', symbol: 'ART', decimals: 0, balance: '3' };
    const partial = [
      { fromBlock: '69950000', toBlock: '70000000', complete: false, updatedAt: 0 },
      { ...wholeChain, cut: true },
      { ...wholeChain, error: 'eth_getLogs: limit exceeded', errorCode: 'rpc' },
    ];
    for (const scan of partial) {
      const bg = fakeBackground({ 'tokens.nfts': () => ({ items: [], scan }) });
      renderWith(bg, <TokenNfts token={nft} listKey="k" onSend={() => undefined} />);
      await screen.findByText('None found in the blocks read so far.');
      expect(screen.queryByText(/You hold none/)).toBeNull();
      expect(screen.queryByText(/^Too many transfers came from contracts not in your token list/) !== null).toBe('cut' in scan);
      fireEvent.click(screen.getByRole('button', { name: 'Reload NFTs of ART' }));
      await waitFor(() => expect(bg.callsOf('tokens.nfts')).toHaveLength(2));
      cleanup();
    }
    renderWith(fakeBackground({ 'tokens.nfts': () => ({ items: [], scan: wholeChain }) }), <TokenNfts token={nft} listKey="k" onSend={() => undefined} />);
    await screen.findByText('You hold none of these now.');
    expect(screen.queryByRole('button', { name: /^Reload/ })).toBeNull();
    cleanup();
    // Token transfers likewise: "none found" is said of the blocks read.
    renderWith(fakeBackground({ 'tokens.activity': () => ({ items: [], scan: partial[0]! }) }), <TokenTransfers listKey="k" />);
    await screen.findByText('None found in the blocks read so far.');
    cleanup();
    renderWith(fakeBackground({ 'tokens.activity': () => ({ items: [], scan: wholeChain }) }), <TokenTransfers listKey="k" />);
    await screen.findByText('No token transfers found.');
  });

  it("shows an NFT's details on the click that asks: its metadata address, and what a data: address says; nothing loaded from elsewhere", async () => {
    const nft: TokenView = { ...erc20, standard: 'erc721', symbol: 'ART', decimals: 0, balance: '1' };
    const bg = fakeBackground({
      'tokens.nfts': () => ({ items: [{ tokenId: '7', amount: '1' }, { tokenId: '8', amount: '1' }], scan: wholeChain }),
      'tokens.nftMetadata': (p) =>
        p.tokenId === '7'
          ? { uri: 'https://art.example/7.json', error: 'its name and description are on another server, and the wallet talks only to your node, so it does not load them. Copy the address to open it yourself.' }
          : { uri: 'data:application/json,{"name":"Eight"}', fetched: { name: 'Eight', image: 'https://art.example/8.png' } },
    });
    renderWith(bg, <TokenNfts token={nft} listKey="k" onSend={() => undefined} />);
    expect(bg.callsOf('tokens.nftMetadata')).toEqual([]);
    fireEvent.click(await screen.findByRole('button', { name: 'Details of NFT #7 of ART' }));
    await screen.findByText('https://art.example/7.json');
    expect(bg.callsOf('tokens.nftMetadata')).toEqual([{ address: TOKEN, tokenId: '7' }]);
    expect(screen.getByText(/^Its name and description are on another server/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: /from the web/ })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Details of NFT #8 of ART' }));
    await screen.findByText('Eight');
    expect(screen.getByText('https://art.example/8.png')).toBeTruthy();
    expect(document.querySelector('img')).toBeNull();
  });

  it('NFTs of two contracts with the same ID get Send and Details buttons named by their collection', async () => {
    const art: TokenView = { ...erc20, standard: 'erc721', symbol: 'ART', decimals: 0, balance: '1' };
    const pix: TokenView = { ...art, address: C_OTHER, symbol: 'PIX' };
    const bg = fakeBackground({ 'tokens.nfts': () => ({ items: [{ tokenId: '1', amount: '1' }], scan: wholeChain }) });
    renderWith(
      bg,
      <>
        <TokenNfts token={art} listKey="k" onSend={() => undefined} />
        <TokenNfts token={pix} listKey="k" onSend={() => undefined} />
      </>,
    );
    await waitFor(() => expect(screen.getAllByTestId('nft-item')).toHaveLength(2));
    const names = screen.getAllByRole('button').map((b) => b.textContent);
    expect(names).toEqual(['Send NFT #1 of ART', 'Details of NFT #1 of ART', 'Send NFT #1 of PIX', 'Details of NFT #1 of PIX']);
  });

  it('a long metadata address is shown cut short, the whole of it one click away (Copy)', async () => {
    const nft: TokenView = { ...erc20, standard: 'erc721', symbol: 'ART', decimals: 0, balance: '1' };
    const uri = `data:application/json;base64,${'A'.repeat(8000)}`;
    const bg = fakeBackground({ 'tokens.nfts': () => ({ items: [{ tokenId: '7', amount: '1' }], scan: wholeChain }), 'tokens.nftMetadata': () => ({ uri }) });
    renderWith(bg, <TokenNfts token={nft} listKey="k" onSend={() => undefined} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Details of NFT #7 of ART' }));
    const shown = await screen.findByTitle(uri);
    expect(shown.textContent!.length).toBeLessThan(100);
    expect(shown.textContent!.startsWith('data:application/json;base64,')).toBe(true);
    expect(screen.getByRole('button', { name: 'Copy metadata address of NFT #7 of ART' })).toBeTruthy();
  });
});

describe('PendingEvm', () => {
  const stuck: PendingEvmTxView = { txHash: HASH, nonce: '3', to: C_OTHER, valueWei: '0', gasLimit: '21000', maxFeePerGas: '0', maxPriorityFeePerGas: '0', createdAt: 1, kind: 'send' };

  it('shows nothing while no C-Chain tx waits', async () => {
    const bg = fakeBackground({ 'evm.pending': () => ({ txs: [] }) });
    const { container } = renderWith(bg, <PendingEvm selection={SELECTION} listKey="k" />);
    await waitFor(() => expect(bg.callsOf('evm.pending')).toHaveLength(1));
    expect(container.textContent).toBe('');
  });

  it('Cancel: reviewed with the old and new fee and the same nonce, then replaced with the reviewed fee under the reviewed selection', async () => {
    const bg = fakeBackground({
      'evm.pending': () => ({ txs: [stuck] }),
      'evm.estimateReplace': (p) => ({ ...quote(21_000n * 2_000_000_000n), replaces: stuck, ...(p.action === 'cancel' ? {} : { gasLimit: '99' }) }),
      'evm.replace': () => ({ txHash: `0x${'ef'.repeat(32)}` }),
      'activity.list': () => ({ items: [] }),
    });
    renderWith(bg, <PendingEvm selection={SELECTION} listKey="k" />);
    fireEvent.click(await screen.findByRole('button', { name: /^Cancel the transaction/ }));
    await screen.findByRole('heading', { name: 'Review: cancel' });
    expect(bg.callsOf('evm.estimateReplace')).toEqual([{ txHash: HASH, action: 'cancel' }]);
    expect(screen.getByText('3 (the same: only one of the two can run)')).toBeTruthy();
    expect(screen.getByText(/0 AVAX to yourself/)).toBeTruthy();
    // Named by its nonce and hash: two stuck txs may be under review at once.
    fireEvent.click(screen.getByRole('button', { name: `Confirm: cancel (nonce 3, ${shortenId(HASH)})` }));
    await screen.findByTestId('tx-status');
    expect(bg.callsOf('evm.replace')).toEqual([{ txHash: HASH, action: 'cancel', maxFeeWei: '42000000000000' }]);
    expect(bg.calls.find((c) => c.type === 'evm.replace')?.selection).toEqual(SELECTION);
    // The replaced row no longer says it waits as it was: its replacement's status is below.
    const row = screen.getByTestId('pending-evm');
    expect(row.textContent).toContain("Cancellation sent: it takes this one's place once the chain takes it");
    expect(row.textContent).not.toMatch(/Waiting since|Pending/);
  });

  it('Speed up: the review says what the tx it signs again sends (recipient and amount), not only its hash', async () => {
    const paying = { ...stuck, valueWei: '1500000000000000000' };
    const bg = fakeBackground({
      'evm.pending': () => ({ txs: [paying] }),
      'evm.estimateReplace': () => ({ ...quote(21_000n * 2_000_000_000n), replaces: paying }),
    });
    renderWith(bg, <PendingEvm selection={SELECTION} listKey="k" />);
    fireEvent.click(await screen.findByRole('button', { name: /^Speed up the transaction/ }));
    await screen.findByRole('heading', { name: 'Review: speed up' });
    expect(screen.getByTestId('review-replaced').textContent).toBe(`To ${C_OTHER} · 1.5 AVAX`);
  });

  it('Speed up of a token send or approval: the review says what the call does in the token\'s words, not a send to its contract', async () => {
    const token = { address: TOKEN, symbol: 'TUSD', decimals: 6, standard: 'erc20' as const };
    const send = { ...stuck, to: TOKEN, kind: 'send' as const, token, amount: '2500000', counterparty: C_OTHER };
    const bg = fakeBackground({
      'evm.pending': () => ({ txs: [send] }),
      'evm.estimateReplace': () => ({ ...quote(60_000n * 2_000_000_000n), replaces: send }),
    });
    renderWith(bg, <PendingEvm selection={SELECTION} listKey="k" />);
    fireEvent.click(await screen.findByRole('button', { name: /^Speed up the transaction/ }));
    await screen.findByRole('heading', { name: 'Review: speed up' });
    expect(screen.getByTestId('review-replaced').textContent).toBe(`Sends 2.5 TUSD to ${C_OTHER} (through the token's contract ${TOKEN})`);
  });
});

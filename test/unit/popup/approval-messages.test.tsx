// @vitest-environment happy-dom
// The approval window showing a connect request, a message or typed data to sign, and a chain to
// switch to or add.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { ApprovalWindow } from '../../../src/popup/approval-window.js';
import type { ApprovalSummary } from '../../../src/shared/messages.js';
import { renderWith } from './fake-background.js';
import { C_ADDR, C_OTHER, P_ADDR, X_ADDR } from './fixtures.js';
import { approval, connect, queue } from './approval-fixtures.js';

afterEach(cleanup);

describe('approval window: connect, messages and chains', () => {
  it('connect shows the account and what the site would see of it: its name and addresses', async () => {
    renderWith(queue([approval(1, connect([C_ADDR, X_ADDR, P_ADDR]), { method: 'eth_requestAccounts' })]), <ApprovalWindow armMs={0} close={() => undefined} />);
    const view = await screen.findByTestId('connect-summary');
    expect(screen.getByTestId('connect-account').textContent).toBe('Account 1');
    // avalanche_getAccounts answers with the account's name too (site-avalanche.ts): said here.
    expect(view.textContent).toContain('The site will see its name and these addresses');
    expect(within(view).getAllByRole('listitem').map((li) => li.textContent)).toEqual([C_ADDR, X_ADDR, P_ADDR]);
    expect(screen.getByText('Connection request')).toBeTruthy();
    expect(screen.queryByTestId('frame-origin')).toBeNull();
  });

  it('sign-message shows the text, or the hex of a binary message, its format, the signer, the exact bytes and the hash signed', async () => {
    const digest = `0x${'ab'.repeat(32)}`;
    const text = approval(1, { kind: 'sign-message', format: 'avalanche', encoding: 'text', message: 'Log in to <b>site</b>\nnonce 42', bytesHex: '0x4c6f6720696e', digestHex: digest, signer: X_ADDR });
    const bin = approval(2, { kind: 'sign-message', format: 'personal', encoding: 'hex', message: '00ff10', bytesHex: '0x00ff10', digestHex: digest, signer: C_ADDR });
    renderWith(queue([text, bin]), <ApprovalWindow armMs={0} close={() => undefined} />);
    const view = await screen.findByTestId('message-summary');
    expect(view.querySelector('pre')!.textContent).toBe('Log in to <b>site</b>\nnonce 42');
    expect(view.querySelector('b')).toBeNull();
    expect(view.textContent).toContain(X_ADDR);
    expect(screen.getByTestId('message-format').textContent).toBe('Avalanche signed message');
    expect(screen.getByTestId('exact-bytes').textContent).toBe('0x4c6f6720696e');
    expect(screen.getByTestId('signed-digest').textContent).toBe(digest);
    expect(screen.getByTestId('more-waiting').textContent).toContain('1 more waiting');
    fireEvent.click(screen.getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(screen.getByTestId('message-summary').querySelector('pre')!.textContent).toBe('0x00ff10'));
    expect(screen.getByText(/binary, shown as hex/)).toBeTruthy();
    expect(screen.getByTestId('message-format').textContent).toContain('Ethereum personal message');
    expect(screen.getByTestId('message-summary').textContent).toContain(C_ADDR);
  });

  it("a sign-in message for another site than the one asking says so above the message; one for the site itself does not", async () => {
    const base = { kind: 'sign-message', format: 'personal', encoding: 'text', message: 'bank.example wants you to sign in with your Ethereum account:', bytesHex: '0x00', digestHex: `0x${'ab'.repeat(32)}`, signer: C_ADDR } as const;
    renderWith(queue([approval(1, { ...base, signInElsewhere: true }), approval(2, base)]), <ApprovalWindow armMs={0} close={() => undefined} />);
    const warning = /Signs you in to another site: the site asking could sign in there as you/;
    await screen.findByText(warning);
    fireEvent.click(screen.getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(screen.queryByTestId('more-waiting')).toBeNull());
    expect(screen.getByTestId('message-summary')).toBeTruthy();
    expect(screen.queryByText(warning)).toBeNull();
  });

  it('typed data shows its type, signer, chain ID, and the domain and message JSON as text', async () => {
    const domainJson = JSON.stringify({ name: 'Permit2', chainId: 43114, verifyingContract: C_OTHER }, null, 2);
    const messageJson = JSON.stringify({ spender: C_OTHER, amount: '1000', note: '<img src=x>' }, null, 2);
    const typesJson = JSON.stringify({ PermitSingle: [{ name: 'spender', type: 'address' }] }, null, 2);
    const summary: ApprovalSummary = { kind: 'sign-typed-data', signer: C_ADDR, primaryType: 'PermitSingle', domainJson, messageJson, typesJson, chainId: '43114' };
    renderWith(queue([approval(1, summary, { method: 'eth_signTypedData_v4' })]), <ApprovalWindow armMs={0} close={() => undefined} />);
    const view = await screen.findByTestId('typed-data-summary');
    expect(screen.getByText('Typed data to sign (EIP-712)')).toBeTruthy();
    expect(view.textContent).toContain('PermitSingle');
    expect(view.textContent).toContain(C_ADDR);
    expect(view.textContent).toContain('43114');
    expect(screen.getByTestId('typed-domain').tagName).toBe('PRE');
    expect(screen.getByTestId('typed-domain').textContent).toBe(domainJson);
    expect(screen.getByTestId('typed-message').textContent).toBe(messageJson);
    expect(screen.getByTestId('typed-types').textContent).toBe(typesJson);
    expect(document.querySelector('img')).toBeNull();
    expect(screen.queryByText(/hide or reorder what it says/)).toBeNull();
  });

  it('a binary message of 32 bytes (a hash of something else) is warned of; text of 32 characters is not', async () => {
    const base = { kind: 'sign-message', format: 'personal', digestHex: `0x${'ab'.repeat(32)}`, signer: C_ADDR } as const;
    const hash = approval(1, { ...base, encoding: 'hex', message: 'cd'.repeat(32), bytesHex: `0x${'cd'.repeat(32)}` });
    const text = approval(2, { ...base, encoding: 'text', message: 'a'.repeat(32), bytesHex: `0x${'61'.repeat(32)}` });
    renderWith(queue([hash, text]), <ApprovalWindow armMs={0} close={() => undefined} />);
    expect((await screen.findByTestId('message-hash')).textContent).toMatch(/likely a hash: a contract may take this signature as your approval/);
    fireEvent.click(screen.getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(screen.queryByTestId('more-waiting')).toBeNull());
    expect(screen.getByTestId('message-summary')).toBeTruthy();
    expect(screen.queryByTestId('message-hash')).toBeNull();
  });

  it('typed data for a contract the wallet cannot decode says the contract may take it as an approval; a decoded permit or no contract does not', async () => {
    const unknown: ApprovalSummary = { kind: 'sign-typed-data', signer: C_ADDR, primaryType: 'OrderComponents', domainJson: JSON.stringify({ name: 'Seaport', verifyingContract: C_OTHER }), messageJson: '{}', typesJson: '{}' };
    const login: ApprovalSummary = { kind: 'sign-typed-data', signer: C_ADDR, primaryType: 'Login', domainJson: JSON.stringify({ name: 'Site' }), messageJson: '{}', typesJson: '{}' };
    renderWith(queue([approval(1, unknown, { method: 'eth_signTypedData_v4' }), approval(2, login, { method: 'eth_signTypedData_v4' })]), <ApprovalWindow armMs={0} close={() => undefined} />);
    expect((await screen.findByTestId('typed-unknown')).textContent).toMatch(/may take it as your approval/);
    fireEvent.click(screen.getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(screen.queryByTestId('more-waiting')).toBeNull());
    expect(screen.getByTestId('typed-data-summary')).toBeTruthy();
    expect(screen.queryByTestId('typed-unknown')).toBeNull();
  });

  it('typed data whose text hides characters says so above the JSON', async () => {
    const summary: ApprovalSummary = { kind: 'sign-typed-data', signer: C_ADDR, primaryType: 'Note', domainJson: '{}', messageJson: '{ "text": "a\\u202eb" }', typesJson: '{}', hiddenCharacters: true };
    renderWith(queue([approval(1, summary, { method: 'eth_signTypedData_v4' })]), <ApprovalWindow armMs={0} close={() => undefined} />);
    await screen.findByTestId('typed-data-summary');
    expect(screen.getByText(/hide or reorder what it says/).textContent).toContain('shown below as \\u codes');
  });

  it('switch-chain says whose chain changes: this site only, or the wallet and the sites that follow it', async () => {
    const siteSwitch: ApprovalSummary = { kind: 'switch-chain', scope: 'site', fromName: 'Local network C-Chain (chain ID 43112)', toName: 'Dexalot', chainId: '432204', rpcHost: 'rpc.dexalot.example', afterAdd: true };
    const { unmount } = renderWith(queue([approval(1, siteSwitch, { method: 'wallet_addEthereumChain' })]), <ApprovalWindow armMs={0} close={() => undefined} />);
    expect((await screen.findByTestId('switch-what')).textContent).toBe('Switch this site to chain ID 432204, served by rpc.dexalot.example?');
    expect(screen.getByTestId('switch-after-add').textContent).toContain('separate choice');
    expect(screen.getByTestId('switch-to').textContent).toBe('chain ID 432204, which the site that added it calls “Dexalot”');
    expect(screen.queryByTestId('switch-added-by')).toBeNull();
    expect(screen.getByTestId('switch-scope').textContent).toBe('Only this site changes: other sites keep their chain. Reject keeps this site on Local network C-Chain (chain ID 43112); the chain stays added.');
    expect(screen.getAllByRole('heading')).toHaveLength(1);
    unmount();
    renderWith(queue([approval(2, { kind: 'switch-chain', scope: 'wallet', fromName: 'Local network C-Chain (chain ID 43112)', toName: 'Mainnet C-Chain', chainId: '43114' })]), <ApprovalWindow armMs={0} close={() => undefined} />);
    expect((await screen.findByTestId('switch-what')).textContent).toBe("Switch the wallet's network to chain ID 43114?");
    expect(screen.getByTestId('switch-to').textContent).toBe('Mainnet C-Chain');
    expect(screen.getByTestId('switch-scope').textContent).toMatch(/^The wallet itself \(X-Chain and P-Chain too\) and every site that follows its network change/);
  });

  it('switch-chain to a chain another site added names that site, which chose its RPC node', async () => {
    const summary: ApprovalSummary = { kind: 'switch-chain', scope: 'site', fromName: 'Local network C-Chain (chain ID 43112)', toName: 'Dexalot', chainId: '432204', rpcHost: 'rpc.evil.example', addedBy: 'evil.example' };
    renderWith(queue([approval(1, summary, { method: 'wallet_addEthereumChain' })]), <ApprovalWindow armMs={0} close={() => undefined} />);
    expect((await screen.findByTestId('switch-added-by')).textContent).toBe('Another site, evil.example, added this chain and chose its RPC node.');
    expect(screen.getByTestId('switch-added-by').getAttribute('role')).toBe('note');
  });

  const addChain = (over: Partial<Extract<ApprovalSummary, { kind: 'add-chain' }>> = {}): ApprovalSummary => ({
    kind: 'add-chain', chainName: 'Dexalot', nameAltered: false, chainId: '432204', rpcUrl: 'https://rpc.dexalot.example/ext/bc/C/rpc', rpcHost: 'rpc.dexalot.example', symbol: 'ALOT', decimals: 18, explorerUrl: 'https://explorer.example', ...over,
  });

  it('add-chain names the chain by its ID and RPC host, the site’s name only as its claim, says it does not switch, and warns about the RPC and EVM-only', async () => {
    renderWith(queue([approval(1, addChain(), { method: 'wallet_addEthereumChain' })]), <ApprovalWindow armMs={0} close={() => undefined} />);
    const view = await screen.findByTestId('add-chain-summary');
    expect(screen.getByTestId('add-chain-what').textContent).toBe('Add the EVM chain with chain ID 432204, served by rpc.dexalot.example, to the wallet.');
    expect(screen.getByTestId('add-chain-no-switch').textContent).toContain('does not switch');
    expect(screen.getByTestId('add-chain-name').textContent).toBe('“Dexalot”');
    expect(screen.queryByTestId('add-chain-name-altered')).toBeNull();
    expect(screen.queryByTestId('add-chain-lookalike')).toBeNull();
    expect(screen.getByTestId('add-chain-rpc').textContent).toBe('https://rpc.dexalot.example/ext/bc/C/rpc');
    expect(view.textContent).toContain('ALOT');
    expect(view.textContent).toContain('https://explorer.example');
    const note = within(view).getByRole('note');
    expect(note.textContent).toContain('sees your addresses');
    expect(note.textContent).toContain('EVM-only');
    expect(screen.getAllByRole('heading')).toHaveLength(1);
  });

  it('add-chain flags a name that had hidden characters and one that looks like a known chain', async () => {
    const summary = addChain({ chainName: 'Avalanche C-Chain', nameAltered: true, looksLike: { name: 'Avalanche C-Chain', chainId: '43114' } });
    renderWith(queue([approval(1, summary, { method: 'wallet_addEthereumChain' })]), <ApprovalWindow armMs={0} close={() => undefined} />);
    expect((await screen.findByTestId('add-chain-lookalike')).textContent).toBe('This name looks like Avalanche C-Chain (chain ID 43114), but this is chain ID 432204: another chain.');
    expect(screen.getByTestId('add-chain-name-altered').textContent).toContain('hidden characters');
    expect(screen.queryByText(/whatever the site calls it/)).toBeNull();
  });

  it('add-chain names the chain a well-known chain ID is, whatever the site calls it', async () => {
    const summary = addChain({ chainId: '1', chainName: 'Mainnet C-Chain', symbol: 'ETH', knownAs: 'Ethereum (ETH)' });
    renderWith(queue([approval(1, summary, { method: 'wallet_addEthereumChain' })]), <ApprovalWindow armMs={0} close={() => undefined} />);
    expect((await screen.findByText('Chain ID 1 is Ethereum (ETH), whatever the site calls it.')).className).toBe('badge warn');
  });
});

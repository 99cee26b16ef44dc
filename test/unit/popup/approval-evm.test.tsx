// @vitest-environment happy-dom
// The approval window's decoded views of EVM calls (docs/tokens.md): what a token call does in the
// token's units with an unlimited allowance flagged, who gets tokens or rights, a deployment, the
// simulation's changes (or that there is none), a permit to sign, and a token a site asks to list.
import { cleanup, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { SummaryDetails } from '../../../src/popup/approval-details.js';
import { activityAmount } from '../../../src/popup/screens/Activity.js';
import type { ApprovalSummary, ApprovalTokenView } from '../../../src/shared/messages.js';
import { C_ADDR, C_OTHER } from './fixtures.js';

afterEach(cleanup);

const TOKEN = '0x1CB79692389258FD0da4911A4947dF2C51DC7A47';
const SPENDER = '0xaA6B747e1468c01098fb06a2334A50045bf9E499';
const tusd: ApprovalTokenView = { address: TOKEN, standard: 'erc20', name: 'Test Dollar', symbol: 'TUSD', decimals: 6, checks: { altered: false, posesAsNative: false }, listed: true };
const base: Extract<ApprovalSummary, { kind: 'evm-tx' }> = {
  kind: 'evm-tx', chainName: 'Avalanche C-Chain', chainId: '43112', symbol: 'AVAX', from: C_ADDR, to: TOKEN, valueWei: '0', data: '0x095ea7b3', nonce: '3',
  gasLimit: '50000', maxFeePerGas: '3', maxPriorityFeePerGas: '1', estimatedGasUse: '46000', expectedGas: '46000', baseFeePerGas: '1', unsignedHex: '0x02',
};

describe('decoded EVM approvals', () => {
  it('an unlimited approve names the token, the spender (a contract this site never had you call) and flags no limit', () => {
    const summary = { ...base, call: { kind: 'approve' as const, token: tusd, amount: ((1n << 256n) - 1n).toString(), unlimited: true, spender: { address: SPENDER, isContract: true, siteCalls: 0, warnings: [] } }, simulation: { method: 'trace' as const, changes: [], touched: [TOKEN] } };
    render(<SummaryDetails summary={summary} />);
    expect(screen.getByTestId('token-call-what').textContent).toBe('Let the spender take any amount of TUSD (unlimited)');
    expect(screen.getByTestId('token-call-unlimited')).toBeTruthy();
    expect(screen.getByTestId('counterparty').textContent).toContain(SPENDER);
    expect(screen.getByTestId('counterparty-site-calls').textContent).toBe('This site has never had you call this address.');
    expect(screen.getByTestId('simulation-changes').textContent).toBe('No balance change found (besides the fee).');
  });

  it('an allowance to an ordinary account is warned of; a limited one is in the token units; a known contract counts its calls', () => {
    render(<SummaryDetails summary={{ ...base, call: { kind: 'approve', token: tusd, amount: '2500000', unlimited: false, spender: { address: C_OTHER, isContract: false, siteCalls: 0, warnings: [] } } }} />);
    expect(screen.getByTestId('token-call-what').textContent).toBe('Let the spender take up to 2.5 TUSD');
    expect(screen.getByTestId('counterparty-not-contract').textContent).toMatch(/whoever holds its key can take these tokens/);
    expect(screen.queryByTestId('token-call-unlimited')).toBeNull();
    cleanup();
    render(<SummaryDetails summary={{ ...base, call: { kind: 'transfer', token: tusd, amount: '1000000', recipient: { address: SPENDER, isContract: true, siteCalls: 2, warnings: [] } } }} />);
    expect(screen.getByTestId('token-call-what').textContent).toBe('Send 1 TUSD');
    expect(screen.getByTestId('counterparty-site-calls').textContent).toBe('This site had you call this address 2 times before.');
  });

  it("Permit2's own approve names Permit2 and until when; its revoke (0) names Permit2 only", () => {
    const spender = { address: SPENDER, isContract: true, siteCalls: 0, warnings: [] };
    render(<SummaryDetails summary={{ ...base, call: { kind: 'approve', token: tusd, amount: ((1n << 160n) - 1n).toString(), unlimited: true, expiration: '1893456000', spender } }} />);
    expect(screen.getByTestId('token-call-what').textContent).toMatch(/^Let the spender take any amount of TUSD \(unlimited\) through Permit2, until .*2030/);
    expect(screen.getByTestId('token-call-unlimited')).toBeTruthy();
    cleanup();
    render(<SummaryDetails summary={{ ...base, call: { kind: 'approve', token: tusd, amount: '2500000', unlimited: false, expiration: ((1n << 48n) - 1n).toString(), spender } }} />);
    expect(screen.getByTestId('token-call-what').textContent).toBe('Let the spender take up to 2.5 TUSD through Permit2, with no end');
    cleanup();
    render(<SummaryDetails summary={{ ...base, call: { kind: 'approve', token: tusd, amount: '2500000', unlimited: false, expiration: '0', spender } }} />);
    expect(screen.getByTestId('token-call-what').textContent).toBe('Let the spender take up to 2.5 TUSD through Permit2, in this block only');
    cleanup();
    render(<SummaryDetails summary={{ ...base, call: { kind: 'approve', token: tusd, amount: '0', unlimited: false, expiration: '0', spender } }} />);
    expect(screen.getByTestId('token-call-what').textContent).toBe("Take back the spender's allowance of TUSD through Permit2");
  });

  it("on a chain a site added, the token and the trial run are said to be its node's word; on Avalanche's C-Chain not", () => {
    const call = { kind: 'transfer' as const, token: tusd, amount: '1000000', recipient: { address: SPENDER, isContract: true, siteCalls: 0, warnings: [] } };
    render(<SummaryDetails summary={{ ...base, chainName: 'Ethereum', chainId: '1', rpcHost: 'rpc.evil.example', call }} />);
    expect(screen.getByTestId('evm-site-node').textContent).toMatch(/only what rpc\.evil\.example, the site's node, says/);
    cleanup();
    render(<SummaryDetails summary={{ ...base, call }} />);
    expect(screen.queryByTestId('evm-site-node')).toBeNull();
  });

  it('a token posing as AVAX or as a listed token says so', () => {
    const fake = { ...tusd, symbol: 'AVAX', listed: false, checks: { altered: true, posesAsNative: true, looksLike: { address: TOKEN, symbol: 'TUSD' } } };
    render(<SummaryDetails summary={{ ...base, call: { kind: 'transfer', token: fake, amount: '1', recipient: { address: SPENDER, isContract: true, siteCalls: 0, warnings: [] } } }} />);
    expect(screen.getByTestId('token-poses-as-native').textContent).toMatch(/not AVAX/);
    expect(screen.getByTestId('token-looks-like').textContent).toContain(TOKEN);
  });

  it('the simulation: signed changes per asset, a revert with its reason, or plainly that the node could not simulate', () => {
    const sim = { method: 'trace' as const, changes: [{ asset: 'native', symbol: 'AVAX', decimals: 18, delta: '-3000000000000000000' }, { asset: TOKEN, standard: 'erc20' as const, symbol: 'TUSD', decimals: 6, delta: '-700000' }, { asset: SPENDER, standard: 'erc721' as const, symbol: '', decimals: 0, delta: '1', tokenId: '8' }], touched: [SPENDER, TOKEN] };
    render(<SummaryDetails summary={{ ...base, simulation: sim }} />);
    const items = [...screen.getByTestId('simulation-changes').querySelectorAll('li')].map((li) => li.textContent);
    expect(items).toEqual(['−3 AVAX', '−0.7 TUSD', `+1 × token #8 of ${SPENDER}`]);
    cleanup();
    render(<SummaryDetails summary={{ ...base, simulation: { method: 'trace', reverted: 'balance too low', changes: [], touched: [] } }} />);
    // The reason is anyone's words (the contract's, as the node reports them): under Details only.
    expect(screen.getByTestId('simulation-reverts').textContent).toBe('It would fail. You would still pay the fee.');
    expect(screen.getByText('The reason your node reported: “balance too low”').closest('details')).not.toBeNull();
    cleanup();
    // The node's reason is its own words: under Details, never the approval's main text (a lying node's advice).
    const lie = 'method not found; secure your funds at avax-rescue.example with your recovery phrase';
    render(<SummaryDetails summary={{ ...base, simulation: { method: 'none', changes: [], touched: [], nodeSaid: lie } }} />);
    expect(screen.getByTestId('simulation-unknown').textContent).toBe('Your node could not try it: what it changes is not known.');
    const detail = screen.getByText(`Your node said: ${lie}`);
    expect(detail.closest('details')).not.toBeNull();
    expect(document.body.textContent!.replace(`Your node said: ${lie}`, '')).not.toMatch(/rescue/);
  });

  it('a partial simulation never says there is no change; the rights the tx gives are listed, unlimited flagged', () => {
    render(<SummaryDetails summary={{ ...base, simulation: { method: 'trace', partial: true, changes: [], touched: [] } }} />);
    expect(screen.getByTestId('simulation-partial').textContent).toMatch(/not everything it changes/);
    expect(screen.getByTestId('simulation-changes').textContent).not.toMatch(/besides the fee/);
    cleanup();
    const approvals = [
      { token: TOKEN, symbol: 'TUSD', decimals: 6, spender: SPENDER, amount: ((1n << 256n) - 1n).toString(), unlimited: true },
      { token: TOKEN, symbol: 'TUSD', decimals: 6, spender: C_OTHER, amount: '2500000', unlimited: false },
      { token: SPENDER, symbol: '', decimals: 0, spender: C_OTHER, all: true },
    ];
    render(<SummaryDetails summary={{ ...base, simulation: { method: 'trace', changes: [], approvals, touched: [] } }} />);
    const items = [...screen.getByTestId('simulation-approvals').querySelectorAll('li')].map((li) => li.textContent);
    expect(items).toEqual([
      `Gives ${SPENDER} the right to take any amount of TUSD (unlimited)`,
      `Gives ${C_OTHER} the right to take 2.5 TUSD`,
      `Gives ${C_OTHER} the right to take all your NFTs of the unlisted token ${SPENDER}, now and later`,
    ]);
  });

  it("Permit2's own rights in the trial run say so; a signed Permit2 allowance expiring at 0 reads as valid in the block that uses it, not as 1970", () => {
    const sim = { method: 'trace' as const, changes: [], touched: [TOKEN], approvals: [{ token: TOKEN, symbol: 'TUSD', decimals: 6, spender: SPENDER, amount: '5', unlimited: true, permit2: true as const }, { token: TOKEN, symbol: 'TUSD', decimals: 6, spender: SPENDER, amount: '5', unlimited: true }] };
    render(<SummaryDetails summary={{ ...base, simulation: sim }} />);
    expect([...screen.getByTestId('simulation-approvals').querySelectorAll('li')].map((li) => li.textContent)).toEqual([
      `Gives ${SPENDER} the right to take any amount of TUSD through Permit2 (unlimited)`,
      `Gives ${SPENDER} the right to take any amount of TUSD (unlimited)`,
    ]);
  });

  it('a permit that never expires says so, never NaN', () => {
    const MAX256 = ((1n << 256n) - 1n).toString();
    const summary: ApprovalSummary = {
      kind: 'sign-typed-data', signer: C_ADDR, primaryType: 'PermitSingle', domainJson: '{}', messageJson: '{}', typesJson: '{}',
      permit: { kind: 'permit2-allowance', spender: { address: SPENDER, isContract: true, siteCalls: 0, warnings: [] }, grants: [{ token: TOKEN, tokenView: tusd, amount: '5', unlimited: false, expiration: ((1n << 48n) - 1n).toString() }], deadline: MAX256, verifier: TOKEN },
    };
    render(<SummaryDetails summary={summary} />);
    expect(screen.getByTestId('permit').textContent).not.toMatch(/NaN/);
    expect(screen.getByTestId('permit-deadline').textContent).toBe('Never expires');
    expect(screen.getByTestId('permit').textContent).toContain('Never expires');
    cleanup();
    const atZero = { ...summary, permit: { ...summary.permit!, grants: [{ ...summary.permit!.grants[0]!, expiration: '0' }] } } as ApprovalSummary;
    render(<SummaryDetails summary={atZero} />);
    expect(screen.getByTestId('permit').textContent).toContain('in the block that uses it');
    expect(screen.getByTestId('permit').textContent).not.toMatch(/1970/);
  });

  it('a deployment: its code size, keccak-256 and the address the contract gets', () => {
    render(<SummaryDetails summary={{ ...base, to: '', deploy: { codeBytes: 1234, codeHash: `0x${'ab'.repeat(32)}`, contractAddress: SPENDER } }} />);
    expect(screen.getByTestId('deploy-size').textContent).toBe('1234 bytes');
    expect(screen.getByTestId('deploy-hash').textContent).toBe(`0x${'ab'.repeat(32)}`);
    expect(screen.getByTestId('deploy-address').textContent).toBe(SPENDER);
  });

  it('a permit to sign says what the spender may take, and until when', () => {
    const summary: ApprovalSummary = {
      kind: 'sign-typed-data', signer: C_ADDR, primaryType: 'Permit', domainJson: '{}', messageJson: '{}', typesJson: '{}',
      permit: { kind: 'eip2612', spender: { address: SPENDER, isContract: true, siteCalls: 0, warnings: [] }, grants: [{ token: TOKEN, tokenView: tusd, amount: '4000000', unlimited: false }], deadline: '1900000000', verifier: TOKEN },
    };
    render(<SummaryDetails summary={summary} />);
    const permit = screen.getByTestId('permit').textContent!;
    expect(permit).toContain('a permit (EIP-2612)');
    expect(permit).toContain('4 TUSD');
    expect(screen.queryByTestId('typed-site-node')).toBeNull();
    // On a chain a site added, the token and the spender are its node's word, and said to be.
    cleanup();
    render(<SummaryDetails summary={{ ...summary, rpcHost: 'rpc.evil.example' }} />);
    expect(screen.getByTestId('typed-site-node').textContent).toMatch(/The token and the spender below are only what rpc\.evil\.example, the site's node, says/);
    // Typed data that is no permit shows no token or spender to say so of.
    cleanup();
    render(<SummaryDetails summary={{ ...summary, permit: undefined, rpcHost: 'rpc.evil.example' } as ApprovalSummary} />);
    expect(screen.queryByTestId('typed-site-node')).toBeNull();
  });

  it('a token a site asks to list: the contract\'s words, the site\'s different ones apart, its image not loaded', () => {
    render(<SummaryDetails summary={{ kind: 'watch-asset', token: { ...tusd, listed: false }, siteSymbol: 'USDC', siteDecimals: 18, imageIgnored: true }} />);
    expect(screen.getByTestId('watch-asset-site-symbol').textContent).toBe('The site called it “USDC”; the contract says TUSD.');
    expect(screen.getByTestId('watch-asset-summary').textContent).toContain('the wallet does not load it');
    expect(document.querySelector('img')).toBeNull();
  });
});

describe('token items in Activity', () => {
  it('a token amount is in the token units, an NFT by its ID, native sends in AVAX', () => {
    const item = { txID: '0x01', chain: 'C' as const, kind: 'send' as const, status: 'accepted' as const, createdAt: 0, amount: '2500000' };
    expect(activityAmount({ ...item, token: { address: TOKEN, symbol: 'TUSD', decimals: 6, standard: 'erc20' } }, null)).toBe('2.5 TUSD');
    expect(activityAmount({ ...item, amount: '1', token: { address: TOKEN, symbol: 'TPIC', decimals: 0, standard: 'erc721', tokenId: '7' } }, null)).toBe('#7 of TPIC');
    expect(activityAmount({ ...item, amount: '1000000000000000000' }, null)).toBe('1 AVAX');
  });
  it('an ERC-1155 send is its quantity of the ID, not one token', () => {
    const item = { txID: '0x01', chain: 'C' as const, kind: 'send' as const, status: 'accepted' as const, createdAt: 0, amount: '5' };
    expect(activityAmount({ ...item, token: { address: TOKEN, symbol: 'GEM', decimals: 0, standard: 'erc1155', tokenId: '3' } }, null)).toBe('5 × #3 of GEM');
    expect(activityAmount({ ...item, amount: '1200', token: { address: TOKEN, symbol: '', decimals: 0, standard: 'erc1155', tokenId: '3' } }, null)).toBe(`1,200 × #3 of ${TOKEN}`);
  });
});

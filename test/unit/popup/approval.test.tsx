// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toHex } from '../../../src/core/bytes.js';
import { encodeUnsignedTx } from '../../../src/core/codec/codec.js';
import type { Utxo } from '../../../src/core/codec/types.js';
import { describeTx } from '../../../src/core/describe.js';
import { addressKey, type OwnAddress, txImpact } from '../../../src/core/tx-impact.js';
import { cb58Encode, formatAddress } from '../../../src/core/encoding.js';
import { type ChainContext, makeOwners } from '../../../src/core/tx/context.js';
import { ownedAddressSet, spendableUtxos } from '../../../src/core/tx/utxos.js';
import { buildXSend } from '../../../src/core/tx/x.js';
import { ApprovalWindow } from '../../../src/popup/approval-window.js';
import type { ApprovalSummary, ApprovalView, WalletStatus } from '../../../src/shared/messages.js';
import { fakeBackground, Refuse, renderWith } from './fake-background.js';
import { C_ADDR, C_OTHER, HRP, P_ADDR, UNLOCKED, X_ADDR } from './fixtures.js';

const LOCKED_STATUS: WalletStatus = { ...UNLOCKED, vault: 'locked', account: null };

afterEach(cleanup);

const id = (n: number) => Uint8Array.from({ length: 32 }, (_, i) => (i === 0 ? n : 7));
const ctx: ChainContext = {
  networkID: 12345, hrp: HRP, xChainID: id(1), pChainID: new Uint8Array(32), cChainID: id(3), avaxAssetID: id(9), xTxFee: 1_000_000n, xCreateAssetTxFee: 1_000_000n,
};
const me = new Uint8Array(20).fill(1);
const bob = new Uint8Array(20).fill(2);
const carol = new Uint8Array(20).fill(3);
const OTHER_ASSET = id(50);
const AVAX = cb58Encode(ctx.avaxAssetID);
const OTHER = cb58Encode(OTHER_ASSET);
const LOCKTIME = 1_900_000_000n;

function txSummary(): Extract<ApprovalSummary, { kind: 'tx' }> {
  const utxos: Utxo[] = [
    { txID: id(101), outputIndex: 0, assetID: ctx.avaxAssetID, output: { kind: 'TransferOutput', amount: 5_000_000n, owners: makeOwners([me]) } },
    { txID: id(102), outputIndex: 1, assetID: OTHER_ASSET, output: { kind: 'TransferOutput', amount: 1_000n, owners: makeOwners([me]) } },
  ];
  const built = buildXSend({
    ctx,
    pool: spendableUtxos(utxos, ownedAddressSet([me]), 0n),
    changeOwners: makeOwners([me]),
    payments: [
      { assetID: ctx.avaxAssetID, amount: 2_000_000n, owners: makeOwners([bob, carol], 2, LOCKTIME) },
      { assetID: OTHER_ASSET, amount: 400n, owners: makeOwners([bob]) },
    ],
    memo: new TextEncoder().encode('invoice 7'),
  });
  const view = describeTx(built.tx, ctx, built.spent);
  return {
    kind: 'tx',
    chain: 'X',
    action: 'send',
    complete: true,
    unsignedHex: `0x${toHex(encodeUnsignedTx(built.tx))}`,
    view,
    // The unknown asset is deliberately missing: the window must show it by ID.
    assets: { [AVAX]: { symbol: 'AVAX', denomination: 9, verified: true } },
    impact: txImpact(view, { own: ownMap(), paidBefore: new Set(), avaxAssetID: AVAX, feeCeiling: ctx.xTxFee, nowSeconds: 1_800_000_000n }),
  };
}

/** The wallet's own address in these tests: `me`, as Account 1's X/P address. */
function ownMap(): Map<string, OwnAddress> {
  const address = formatAddress('X', HRP, me);
  return new Map([[addressKey(address), { account: 'Account 1', role: 'X/P address', address }]]);
}

function connect(accounts: string[] = [C_ADDR, X_ADDR, P_ADDR]): ApprovalSummary {
  return { kind: 'connect', accountName: 'Account 1', accounts };
}

function approval(n: number, summary: ApprovalSummary, extra: Partial<ApprovalView> = {}): ApprovalView {
  return { id: n.toString(16).padStart(24, '0'), origin: `https://site${n}.example`, method: 'avax_sendTransaction', createdAt: Date.UTC(2026, 0, 2, 3, 4, 5), summary, ...extra };
}

/** A background holding `list`; a decision removes the request from it. */
function queue(list: ApprovalView[]) {
  const pending = [...list];
  const bg = fakeBackground({
    'wallet.status': () => UNLOCKED,
    'approvals.list': () => ({ approvals: [...pending] }),
    'approvals.decide': (p) => {
      const i = pending.findIndex((a) => a.id === p.id);
      if (i >= 0) pending.splice(i, 1);
      return { ok: true };
    },
  });
  return { ...bg, pending };
}

describe('approval window: a transaction', () => {
  it('shows the decoded tx: owners, amounts with denominations, verified AVAX vs an unknown asset by ID, fee, memo, exact bytes', async () => {
    const summary = txSummary();
    const bg = queue([approval(1, summary, { frameOrigin: 'https://ads.example' })]);
    renderWith(bg, <ApprovalWindow armMs={0} close={() => undefined} />);

    // The frame that asks (and would get the answer) heads the window; the page is context.
    expect(await screen.findByTestId('origin')).toHaveProperty('textContent', 'https://ads.example');
    expect(screen.getByTestId('frame-origin').textContent).toBe('a frame inside https://site1.example');
    expect(screen.getByText('avax_sendTransaction')).toBeTruthy();
    const tx = screen.getByTestId('tx-summary');
    expect(tx.textContent).toContain('X-Chain');
    expect(tx.textContent).toContain('Send');

    const inputs = screen.getByTestId('inputs');
    expect(inputs.textContent).toContain(formatAddress('X', HRP, me));
    expect(inputs.textContent).toContain('0.005 AVAX');
    expect(inputs.textContent).toContain('1,000 base units');

    const outputs = screen.getByTestId('outputs');
    const rows = within(outputs).getAllByRole('row').slice(1);
    const multisig = rows.find((r) => r.textContent!.includes(formatAddress('X', HRP, carol)))!;
    expect(multisig.textContent).toContain(formatAddress('X', HRP, bob));
    expect(multisig.textContent).toContain('0.002 AVAX');
    expect(multisig.textContent).toContain('2 of 2 signatures');
    expect(multisig.textContent).toContain(`Locked until`);
    expect(multisig.textContent).toContain(LOCKTIME.toString());
    expect(within(multisig).getByText(/✓ Verified AVAX/)).toBeTruthy();

    const other = rows.find((r) => r.textContent!.includes('400 base units'))!;
    expect(other.textContent).toContain('Unknown asset');
    expect(other.textContent).toContain(`ID ${OTHER}`);
    expect(within(other).queryByText(/Verified/)).toBeNull();
    // Change: the rest of each asset back to me.
    expect(rows.some((r) => r.textContent!.includes('0.002 AVAX') && r.textContent!.includes(formatAddress('X', HRP, me)))).toBe(true);
    expect(rows.some((r) => r.textContent!.includes('600 base units'))).toBe(true);

    expect(screen.getByTestId('fee').textContent).toBe('0.001 AVAX burned');
    expect(screen.getByTestId('memo').textContent).toBe('invoice 7');
    expect(screen.getByTestId('exact-bytes').textContent).toBe(summary.unsignedHex);
    expect(screen.getByText(/^Exact bytes \(\d+ bytes\)$/)).toBeTruthy();
    expect(document.body.innerHTML).not.toContain('<script');
  });

  it('says first what the tx does to the wallet: per asset what leaves, comes back, goes to whom and is burned; warnings in words; every owner labelled', async () => {
    const summary = txSummary();
    renderWith(queue([approval(1, summary)]), <ApprovalWindow armMs={0} close={() => undefined} />);
    const impact = await screen.findByTestId('tx-impact');
    const [avax, other] = within(impact).getAllByTestId('impact-asset');
    expect(avax!.textContent).toContain('AVAX');
    const fact = (el: HTMLElement, label: string) => within(el).getByText(label).nextElementSibling!.textContent;
    expect(fact(avax!, 'Leaves your wallet')).toBe('0.005 AVAX');
    expect(fact(avax!, 'Comes back to you')).toBe('0.002 AVAX');
    expect(fact(avax!, `Goes to ${formatAddress('X', HRP, bob)}, ${formatAddress('X', HRP, carol)} (2 signatures)`)).toBe('0.002 AVAX');
    expect(fact(avax!, 'Burned')).toBe('0.001 AVAX');
    expect(fact(other!, 'Leaves your wallet')).toBe(`1,000 base units of asset ${OTHER}`);
    expect(fact(other!, 'Comes back to you')).toBe(`600 base units of asset ${OTHER}`);
    const warnings = within(impact).getByTestId('impact-warnings').textContent!;
    expect(warnings).toContain('is paid locked until');
    expect(warnings).toContain(`This wallet has never sent anything to ${formatAddress('X', HRP, bob)} before`);
    expect(warnings).not.toContain('Destroys');
    // Each owner address says whose it is.
    const inputs = screen.getByTestId('inputs');
    expect(within(inputs).getAllByTestId('owner-yours')[0]!.textContent).toBe('Yours · Account 1, X/P address');
    expect(within(screen.getByTestId('outputs')).getAllByTestId('owner-not-yours').length).toBeGreaterThan(0);
  });

  it('heads its sections one level under the window\'s one h1, skipping none (axe heading-order)', async () => {
    renderWith(queue([approval(1, txSummary())]), <ApprovalWindow armMs={0} close={() => undefined} />);
    await screen.findByTestId('tx-impact');
    const levels = screen.getAllByRole('heading').map((h) => Number(h.tagName.slice(1)));
    expect(levels[0]).toBe(1);
    expect(levels.filter((l) => l === 1)).toHaveLength(1);
    expect(levels.length).toBeGreaterThan(2);
    levels.forEach((level, i) => expect(level).toBeLessThanOrEqual((levels[i - 1] ?? 0) + 1));
  });

  it('a tx that signs nothing of this account says so; a burned asset, an output anyone can take and a look-alike address are warned of', async () => {
    const summary = txSummary();
    const mine = formatAddress('X', HRP, me);
    const lookAlike = `${mine.slice(0, -10)}qqqqqq${mine.slice(-4)}`;
    summary.signsNothing = true;
    summary.impact = {
      ...summary.impact,
      warnings: [
        { kind: 'burn', assetID: AVAX, amount: '5000000000' },
        { kind: 'anyone', assetID: AVAX, amount: '1000000000' },
        { kind: 'look-alike', address: lookAlike, resembles: mine },
        { kind: 'not-your-owner', what: 'validation rewards', addresses: ['P-stranger'], threshold: 1 },
        { kind: 'imitation', assetID: OTHER, symbol: 'AVAX' },
        { kind: 'fee-balance', amount: '2000000000' },
        { kind: 'fee-unchecked' },
        { kind: 'owner-locked', what: 'rewards', until: '1900000000' },
      ],
      assets: [...summary.impact.assets, { assetID: OTHER, nonFungible: true, leaves: '1', fromOthers: '0', returns: '0', staked: '0', toOthers: [], burned: '0' }],
    };
    summary.assets = { ...summary.assets, [OTHER]: { symbol: 'AVAX', denomination: 9, verified: false } };
    renderWith(queue([approval(1, summary)]), <ApprovalWindow armMs={0} close={() => undefined} />);
    expect((await screen.findByTestId('signs-nothing')).textContent).toContain('approving signs nothing');
    const warnings = screen.getByTestId('impact-warnings').textContent!;
    expect(warnings).toContain('Destroys 5 AVAX: burned for good');
    expect(warnings).toContain('1 AVAX goes to an output with no owner: anyone can take it');
    expect(warnings).toContain(`${lookAlike} looks like your address ${mine} but is not yours`);
    expect(warnings).toContain('The validation rewards go to P-stranger: not this wallet');
    expect(warnings).toContain(`Asset ${OTHER} calls itself AVAX, but it is not the network's AVAX`);
    expect(warnings).toContain("2 AVAX goes into an L1 validator's fee balance; what is left of it goes to an owner this transaction does not name");
    expect(warnings).toContain('the fee burned below is not checked');
    expect(warnings).toContain('The rewards stay locked until');
    // The look-alike asset is never headed by its symbol alone; an NFT counts in items.
    const nft = screen.getAllByTestId('impact-asset').find((el) => el.textContent!.includes(OTHER) && el.textContent!.includes('item'))!;
    expect(nft.textContent).toContain(`AVAX (not the network's AVAX; asset ${OTHER})`);
    expect(nft.textContent).toContain('1 item (NFT or right to mint) of AVAX');
  });

  it('warns about an input whose UTXO the wallet cannot see', async () => {
    const summary = txSummary();
    summary.view = { ...summary.view, inputs: summary.view.inputs.map((leg) => ({ ...leg, owners: undefined, unknownUtxo: true })) };
    renderWith(queue([approval(1, summary)]), <ApprovalWindow armMs={0} close={() => undefined} />);
    expect((await screen.findAllByText(/Unknown UTXO/)).length).toBe(2);
  });

  it('says what happens to the signed tx: sent by the wallet, handed back, or partly signed', async () => {
    const cases: [Partial<Extract<ApprovalSummary, { kind: 'tx' }>>, string][] = [
      [{ action: 'send', complete: true }, 'Your signatures complete this transaction: the wallet sends it'],
      [{ action: 'send', complete: false }, 'Partly signed: the site gets it back to collect the other signatures'],
      [{ action: 'sign', complete: true }, 'Signed and handed back to the site (not sent by the wallet)'],
    ];
    for (const [extra, text] of cases) {
      renderWith(queue([approval(1, { ...txSummary(), ...extra })]), <ApprovalWindow armMs={0} close={() => undefined} />);
      expect((await screen.findByTestId('tx-action')).textContent).toBe(text);
      cleanup();
    }
  });

  it('an EVM tx: chain, from, to, value in the chain symbol from wei, nonce, fee cap = gas limit × max fee per gas, data', async () => {
    const summary: ApprovalSummary = {
      kind: 'evm-tx',
      chainName: 'Dexalot',
      chainId: '432204',
      symbol: 'ALOT',
      from: C_ADDR,
      to: C_OTHER,
      valueWei: '1500000000000000000',
      data: '0xa9059cbb0000',
      nonce: '17',
      gasLimit: '21000',
      maxFeePerGas: '50000000000',
      maxPriorityFeePerGas: '1000000000',
      estimatedGasUse: '21000',
      expectedGas: '21000',
      baseFeePerGas: '20000000000',
      unsignedHex: '0x02e88306984b11843b9aca00850ba43b740082520894',
    };
    renderWith(queue([approval(1, summary, { method: 'eth_sendTransaction' })]), <ApprovalWindow armMs={0} close={() => undefined} />);
    const view = await screen.findByTestId('evm-summary');
    expect(screen.getByText('EVM transaction to sign')).toBeTruthy();
    expect(screen.getByTestId('evm-chain').textContent).toBe('Dexalot (chain ID 432204)');
    expect(view.textContent).toContain(C_ADDR);
    expect(view.textContent).toContain(C_OTHER);
    expect(screen.getByTestId('evm-value').textContent).toBe('1.5 ALOT');
    expect(screen.getByTestId('evm-nonce').textContent).toBe('17');
    expect(screen.getByTestId('fee').textContent).toContain('0.00105 ALOT');
    expect(view.textContent).not.toContain('AVAX');
    expect(screen.getByTestId('evm-data').textContent).toContain('0xa9059cbb0000');
    expect(screen.getByTestId('evm-data').querySelector('summary')!.textContent).toBe('Call data (6 bytes, function 0xa9059cbb)');
    // The bytes the signature covers, as given.
    expect(screen.getByTestId('exact-bytes').textContent).toBe(summary.unsignedHex);
    expect(screen.getByText('Exact bytes (22 bytes)')).toBeTruthy();
    // Likely: 21,000 gas × (20 + 1) gwei; the limit fits the call, so no warning.
    expect(screen.getByTestId('fee-likely').textContent).toContain('about 0.000441 ALOT');
    expect(screen.queryByTestId('gas-limit-oversized')).toBeNull();
  });

  it('an EVM tx says whose its recipient is: the wallet\'s own (which account), or a first payment and a look-alike warned of', async () => {
    const base: ApprovalSummary = {
      kind: 'evm-tx', chainName: 'Avalanche C-Chain', chainId: '43112', symbol: 'AVAX', from: C_ADDR, to: C_OTHER, valueWei: '1', data: '0x', nonce: '0',
      gasLimit: '21000', maxFeePerGas: '3', maxPriorityFeePerGas: '1', estimatedGasUse: '21000', expectedGas: '21000', baseFeePerGas: '1', unsignedHex: '0x02',
    };
    const stranger = { ...base, recipient: { warnings: [{ kind: 'first-payment' as const, address: C_OTHER }, { kind: 'look-alike' as const, address: C_OTHER, resembles: C_ADDR }] } };
    renderWith(queue([approval(1, stranger, { method: 'eth_sendTransaction' })]), <ApprovalWindow armMs={0} close={() => undefined} />);
    await screen.findByTestId('evm-summary');
    expect(screen.getByTestId('owner-not-yours').textContent).toBe('Not yours');
    const warnings = screen.getByTestId('impact-warnings').textContent!;
    expect(warnings).toContain(`This wallet has never sent anything to ${C_OTHER} before`);
    expect(warnings).toContain(`${C_OTHER} looks like your address ${C_ADDR} but is not yours`);
    cleanup();
    const zero = '0x0000000000000000000000000000000000000000';
    renderWith(queue([approval(1, { ...base, to: zero, recipient: { warnings: [{ kind: 'burn-address', address: zero }] } }, { method: 'eth_sendTransaction' })]), <ApprovalWindow armMs={0} close={() => undefined} />);
    expect((await screen.findByTestId('impact-warnings')).textContent).toContain(`${zero} is a burn address: anything sent to it is lost for good`);
    cleanup();
    const own = { ...base, recipient: { yours: { account: 'Savings', role: 'C-Chain address', address: C_OTHER }, warnings: [] } };
    renderWith(queue([approval(1, own, { method: 'eth_sendTransaction' })]), <ApprovalWindow armMs={0} close={() => undefined} />);
    expect((await screen.findByTestId('owner-yours')).textContent).toBe('Yours · Savings, C-Chain address');
    expect(screen.queryByTestId('impact-warnings')).toBeNull();
  });

  it('a P-Chain staking tx: its kind in words, what it does, the facts behind it, the stake marked as staked, and an authorization it carries', async () => {
    const stakeOwner = { addresses: [P_ADDR], threshold: 1, locktime: '0' };
    const summary: ApprovalSummary = {
      kind: 'tx',
      chain: 'P',
      action: 'send',
      complete: true,
      unsignedHex: '0x0000',
      view: {
        chain: 'P',
        kind: 'AddPermissionlessDelegatorTx',
        networkID: 1337,
        inputs: [],
        outputs: [{ chain: 'P', assetID: AVAX, amount: '25000000000', kind: 'TransferOutput', owners: stakeOwner, staked: true }],
        burned: '8299',
        operations: [],
        action: 'Delegate 25 AVAX to NodeID-P7oB2McjBGgW2NXXWVYjV8JEDFoW9xDE5 until 2026-11-25 12:00 UTC',
        details: [
          { label: 'Node', value: 'NodeID-P7oB2McjBGgW2NXXWVYjV8JEDFoW9xDE5' },
          { label: 'Rewards to', value: P_ADDR },
        ],
        authorization: { by: 'subnet owner', of: 'subnet-id', sigIndices: [0], owners: { addresses: [P_ADDR], threshold: 1 }, signers: [P_ADDR], note: 'as the subnet was created' },
      },
      assets: { [AVAX]: { symbol: 'AVAX', denomination: 9, verified: true } },
      impact: { assets: [], warnings: [], yours: {} },
    };
    renderWith(queue([approval(1, summary)]), <ApprovalWindow armMs={0} close={() => undefined} />);
    await screen.findByTestId('tx-summary');
    expect(screen.getByText('Delegate stake')).toBeTruthy();
    expect(screen.getByTestId('tx-what').textContent).toBe('Delegate 25 AVAX to NodeID-P7oB2McjBGgW2NXXWVYjV8JEDFoW9xDE5 until 2026-11-25 12:00 UTC');
    const details = screen.getByTestId('tx-details');
    expect(within(details).getByText('Node').nextElementSibling!.textContent).toBe('NodeID-P7oB2McjBGgW2NXXWVYjV8JEDFoW9xDE5');
    expect(within(details).getByText('Rewards to').nextElementSibling!.textContent).toBe(P_ADDR);
    const outputs = screen.getByTestId('outputs');
    expect(within(outputs).getByTestId('staked').textContent).toContain('Staked');
    expect(outputs.textContent).toContain('25 AVAX');
    const auth = screen.getByTestId('tx-authorization');
    expect(auth.textContent).toContain('As the subnet owner of subnet-id');
    expect(auth.textContent).toContain(`Signed by: ${P_ADDR}`);
    expect(within(auth).getByTestId('authorization-warning').textContent).toContain('if any of your addresses is this owner, it authorizes this too');
    expect(screen.getByTestId('fee').textContent).toBe('0.000008299 AVAX burned');
  });

  it('an EVM tx whose site-set gas limit is far above what the call uses: half the limit is the likely charge, and that is flagged', async () => {
    const summary: ApprovalSummary = {
      kind: 'evm-tx',
      chainName: 'Avalanche C-Chain',
      chainId: '43112',
      symbol: 'AVAX',
      from: C_ADDR,
      to: C_OTHER,
      valueWei: '1',
      data: '0x',
      nonce: '0',
      gasLimit: '1000000',
      maxFeePerGas: '3',
      maxPriorityFeePerGas: '1',
      estimatedGasUse: '21000',
      expectedGas: '500000',
      baseFeePerGas: '1',
      unsignedHex: '0x02',
    };
    renderWith(queue([approval(1, summary, { method: 'eth_sendTransaction' })]), <ApprovalWindow armMs={0} close={() => undefined} />);
    await screen.findByTestId('evm-summary');
    expect(screen.getByTestId('fee-likely').textContent).toContain('500,000 gas charged');
    expect(screen.getByTestId('fee-likely').textContent).toContain('about 0.000000000001 AVAX');
    expect(screen.getByTestId('gas-limit-oversized').textContent).toContain('this call uses about 21,000');
    expect(screen.getByTestId('fee').textContent).toContain('0.000000000003 AVAX');
  });
});

describe('approval window: connect, messages and chains', () => {
  it('connect shows the account and the addresses the site would see', async () => {
    renderWith(queue([approval(1, connect([C_ADDR, X_ADDR, P_ADDR]), { method: 'eth_requestAccounts' })]), <ApprovalWindow armMs={0} close={() => undefined} />);
    const view = await screen.findByTestId('connect-summary');
    expect(screen.getByTestId('connect-account').textContent).toBe('Account 1');
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
  });
});

describe('approval window: decisions', () => {
  it('Reject is focused; Approve and Reject send the right decision, the next request shows, then the window closes', async () => {
    const a = approval(1, connect());
    const b = approval(2, connect());
    const bg = queue([a, b]);
    const close = vi.fn();
    renderWith(bg, <ApprovalWindow armMs={0} close={close} />);
    await screen.findByText('https://site1.example');
    const reject = screen.getByRole('button', { name: 'Reject' });
    expect(document.activeElement).toBe(reject);

    fireEvent.click(screen.getByRole('button', { name: 'Approve' }));
    await screen.findByText('https://site2.example');
    expect(bg.callsOf('approvals.decide')).toEqual([{ id: a.id, approved: true }]);
    expect(close).not.toHaveBeenCalled();
    expect(screen.queryByTestId('more-waiting')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(close).toHaveBeenCalledTimes(1));
    expect(bg.callsOf('approvals.decide')).toEqual([{ id: a.id, approved: true }, { id: b.id, approved: false }]);
  });

  it('Approve is disabled for a moment whenever a new request shows: a double click cannot approve the next one', async () => {
    const a = approval(1, connect());
    const b = approval(2, connect());
    const bg = queue([a, b]);
    renderWith(bg, <ApprovalWindow armMs={300} close={() => undefined} />);
    await screen.findByText('https://site1.example');
    const approve = () => screen.getByRole('button', { name: 'Approve' }) as HTMLButtonElement;
    expect(approve().disabled).toBe(true);
    await waitFor(() => expect(approve().disabled).toBe(false));
    fireEvent.click(approve());
    await screen.findByText('https://site2.example');
    // The second click of a double click lands on the next request's disabled button.
    expect(approve().disabled).toBe(true);
    fireEvent.click(approve());
    expect(bg.callsOf('approvals.decide')).toEqual([{ id: a.id, approved: true }]);
    await waitFor(() => expect(approve().disabled).toBe(false));
  });

  it('Approve is disabled for a moment again whenever the window comes to the front: a click meant for the page behind cannot approve', async () => {
    const bg = queue([approval(1, connect())]);
    renderWith(bg, <ApprovalWindow armMs={300} close={() => undefined} />);
    await screen.findByText('https://site1.example');
    const approve = () => screen.getByRole('button', { name: 'Approve' }) as HTMLButtonElement;
    await waitFor(() => expect(approve().disabled).toBe(false));
    // Another request of the site focuses this window, which was left behind the page.
    window.dispatchEvent(new Event('focus'));
    await waitFor(() => expect(approve().disabled).toBe(true));
    fireEvent.click(approve(), { detail: 1 });
    expect(bg.callsOf('approvals.decide')).toEqual([]);
    await waitFor(() => expect(approve().disabled).toBe(false));
  });

  it('a window brought to the front has Reject focused again: keys meant for the page behind never approve', async () => {
    const bg = queue([approval(1, connect())]);
    renderWith(bg, <ApprovalWindow armMs={0} close={() => undefined} />);
    await screen.findByText('https://site1.example');
    // The user had moved the focus to Approve (Tab, or a click the stream rule ignored), then went back to the page.
    screen.getByRole('button', { name: 'Approve' }).focus();
    window.dispatchEvent(new Event('focus'));
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Reject' }));
  });

  it('a pointer click in a fast stream of clicks approves nothing; one from the keyboard, or after a pause, does', async () => {
    const [a, b] = [approval(1, connect()), approval(2, connect())];
    const bg = queue([a, b]);
    renderWith(bg, <ApprovalWindow armMs={0} close={() => undefined} />);
    await screen.findByText('https://site1.example');
    const approve = () => screen.getByRole('button', { name: 'Approve' });
    fireEvent.pointerDown(approve());
    fireEvent.pointerDown(approve());
    fireEvent.click(approve(), { detail: 1 });
    await new Promise((r) => setTimeout(r, 50));
    expect(bg.callsOf('approvals.decide')).toEqual([]);
    // From the keyboard (Tab to it, then Space): a click with no pointer behind it.
    fireEvent.click(approve(), { detail: 0 });
    await screen.findByText('https://site2.example');
    await new Promise((r) => setTimeout(r, 500));
    fireEvent.pointerDown(approve());
    fireEvent.click(approve(), { detail: 1 });
    await waitFor(() => expect(bg.callsOf('approvals.decide')).toEqual([{ id: a.id, approved: true }, { id: b.id, approved: true }]));
  });

  it('closing the window rejects the request on screen', async () => {
    const a = approval(1, connect());
    const bg = queue([a, approval(2, connect([]))]);
    renderWith(bg, <ApprovalWindow armMs={0} close={() => undefined} />);
    await screen.findByText('https://site1.example');
    window.dispatchEvent(new Event('pagehide'));
    await waitFor(() => expect(bg.callsOf('approvals.decide')).toEqual([{ id: a.id, approved: false }]));
  });

  it('a failed decision is shown and the list reloaded', async () => {
    const a = approval(1, connect());
    const bg = fakeBackground({
      'wallet.status': () => UNLOCKED,
      'approvals.list': () => ({ approvals: [a] }),
      'approvals.decide': () => {
        throw new Refuse({ code: 'unknown-approval', message: 'boom' });
      },
    });
    renderWith(bg, <ApprovalWindow armMs={0} close={() => undefined} />);
    await screen.findByText('https://site1.example');
    const before = bg.callsOf('approvals.list').length;
    fireEvent.click(screen.getByRole('button', { name: 'Approve' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Boom');
    expect(bg.callsOf('approvals.list').length).toBeGreaterThan(before);
    // Still there: it shows again and can be answered.
    expect(screen.getByTestId('origin').textContent).toBe('https://site1.example');
  });

  it('Escape rejects the request on screen', async () => {
    const a = approval(1, connect());
    const bg = queue([a]);
    const close = vi.fn();
    renderWith(bg, <ApprovalWindow armMs={0} close={close} />);
    await screen.findByText('https://site1.example');
    fireEvent.keyDown(screen.getByRole('button', { name: 'Reject' }), { key: 'Escape' });
    await waitFor(() => expect(bg.callsOf('approvals.decide')).toEqual([{ id: a.id, approved: false }]));
    await waitFor(() => expect(close).toHaveBeenCalledTimes(1));
  });

  it('a failed first check says so under the window’s heading and can be tried again', async () => {
    let fails = true;
    const bg = fakeBackground({
      'wallet.status': () => {
        if (fails) throw new Refuse({ code: 'timeout', message: 'no answer' });
        return UNLOCKED;
      },
      'approvals.list': () => ({ approvals: [approval(1, connect())] }),
    });
    renderWith(bg, <ApprovalWindow armMs={0} close={() => undefined} />);
    expect((await screen.findByRole('alert')).textContent).toMatch(/took too long/);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('XPC Wallet');
    fails = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('https://site1.example')).toBeTruthy();
  });

  it('with nothing waiting it says so, but only after the grace time, and does not close itself', async () => {
    const close = vi.fn();
    renderWith(queue([]), <ApprovalWindow armMs={0} close={close} graceMs={150} pollMs={20} />);
    expect(await screen.findByText('Loading the request…')).toBeTruthy();
    await new Promise((r) => setTimeout(r, 60));
    expect(screen.queryByTestId('approval-empty')).toBeNull();
    expect(await screen.findByTestId('approval-empty')).toBeTruthy();
    expect(close).not.toHaveBeenCalled();
  });
});

describe('approval window: polling and unlock', () => {
  it('shows a request that arrives after the window opened (within the grace time and after it)', async () => {
    const bg = queue([]);
    renderWith(bg, <ApprovalWindow armMs={0} close={() => undefined} graceMs={100} pollMs={20} />);
    await waitFor(() => expect(bg.callsOf('approvals.list').length).toBeGreaterThan(1));
    bg.pending.push(approval(1, connect()));
    expect(await screen.findByText('https://site1.example')).toBeTruthy();
    expect(screen.queryByTestId('approval-empty')).toBeNull();

    // Answered: the empty list is not the end while the window is open and polling.
    fireEvent.click(screen.getByRole('button', { name: 'Reject' }));
    await screen.findByTestId('approval-empty');
    bg.pending.push(approval(2, connect()));
    expect(await screen.findByText('https://site2.example')).toBeTruthy();
  });

  it('polls every second by default', async () => {
    vi.useFakeTimers();
    try {
      const bg = queue([]);
      renderWith(bg, <ApprovalWindow armMs={0} close={() => undefined} />);
      await vi.advanceTimersByTimeAsync(10);
      expect(bg.callsOf('approvals.list')).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(2000);
      expect(bg.callsOf('approvals.list')).toHaveLength(3);
      // Within the first 3 s an empty list is a request still on its way.
      expect(screen.queryByTestId('approval-empty')).toBeNull();
      bg.pending.push(approval(1, connect()));
      await vi.advanceTimersByTimeAsync(1000);
      expect(screen.getByTestId('origin').textContent).toBe('https://site1.example');
    } finally {
      vi.useRealTimers();
    }
  });

  it('a locked wallet asks for the password first, shows a wrong one, then shows the requests', async () => {
    let unlocked = false;
    let waiting: string[] = [];
    const a = approval(1, connect());
    const bg = fakeBackground({
      'wallet.status': () => (unlocked ? UNLOCKED : LOCKED_STATUS),
      'wallet.unlock': ({ password }) => {
        if (password !== 'right password') throw new Refuse({ code: 'wrong-password', message: 'the password is not correct' });
        unlocked = true;
        return UNLOCKED;
      },
      // The request only appears once the wallet is unlocked (the site asked again, or it was prepared meanwhile).
      'approvals.list': () => ({ approvals: unlocked ? [a] : [] }),
      'approvals.waiting': () => ({ sites: waiting }),
      'approvals.decide': () => ({ ok: true }),
    });
    renderWith(bg, <ApprovalWindow armMs={0} close={() => undefined} graceMs={100} pollMs={20} />);
    const field = await screen.findByLabelText('Password');
    expect(screen.getByText('The wallet is locked.')).toBeTruthy();
    // Who is asking, before the password is typed, also when a site starts waiting after the form showed.
    expect(await screen.findByText('A site is waiting for your answer. Unlock the wallet to see its request.')).toBeTruthy();
    waiting = ['https://site1.example'];
    expect(await screen.findByText('https://site1.example is waiting for your answer. Unlock the wallet to see the request.')).toBeTruthy();
    waiting = ['https://site1.example', 'https://frame.example'];
    expect(await screen.findByText('https://site1.example and https://frame.example are waiting for your answer. Unlock the wallet to see the request.')).toBeTruthy();
    expect(screen.queryByText(/Restore from your recovery phrase/)).toBeNull();
    expect(screen.queryByTestId('origin')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();

    fireEvent.input(field, { target: { value: 'wrong' } });
    fireEvent.click(screen.getByRole('button', { name: 'Unlock' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The password is not correct');
    expect(screen.queryByTestId('origin')).toBeNull();

    fireEvent.input(screen.getByLabelText('Password'), { target: { value: 'right password' } });
    fireEvent.click(screen.getByRole('button', { name: 'Unlock' }));
    expect(await screen.findByText('https://site1.example')).toBeTruthy();
    expect(bg.callsOf('wallet.unlock')).toEqual([{ password: 'wrong' }, { password: 'right password' }]);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Reject' }));
  });

  it('when the wallet locks itself while a request is on screen, the window goes back to the unlock form', async () => {
    let locked = false;
    const refuseLocked = () => {
      if (locked) throw new Refuse({ code: 'vault-locked', message: 'the wallet is locked' });
    };
    const bg = fakeBackground({
      'wallet.status': () => (locked ? LOCKED_STATUS : UNLOCKED),
      'approvals.list': () => (refuseLocked(), { approvals: [approval(1, connect())] }),
      'approvals.decide': () => (refuseLocked(), { ok: true }),
    });
    renderWith(bg, <ApprovalWindow armMs={0} close={() => undefined} graceMs={100} pollMs={20} />);
    expect(await screen.findByText('https://site1.example')).toBeTruthy();
    locked = true;
    await screen.findByLabelText('Password');
    expect(screen.queryByTestId('origin')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(bg.callsOf('approvals.decide')).toEqual([]);
  });

  it('while locked, closing the window answers nothing itself (the background rejects them all)', async () => {
    const bg = fakeBackground({ 'wallet.status': () => LOCKED_STATUS, 'approvals.list': () => ({ approvals: [approval(1, connect())] }) });
    renderWith(bg, <ApprovalWindow armMs={0} close={() => undefined} />);
    await screen.findByLabelText('Password');
    window.dispatchEvent(new Event('pagehide'));
    expect(bg.callsOf('approvals.decide')).toEqual([]);
    expect(bg.callsOf('approvals.list')).toEqual([]);
  });

  it('with no wallet set up, says it must be set up first and links to the wallet; no password form, nothing asked for', async () => {
    const bg = fakeBackground({ 'wallet.status': () => ({ ...UNLOCKED, vault: 'none', account: null }), 'approvals.list': () => ({ approvals: [] }) });
    renderWith(bg, <ApprovalWindow armMs={0} close={() => undefined} />);
    expect((await screen.findByTestId('not-set-up')).textContent).toMatch(/not set up yet/);
    expect(screen.getByRole('link', { name: 'Open XPC Wallet' }).getAttribute('href')).toBe('index.html');
    expect(screen.queryByLabelText('Password')).toBeNull();
    expect(bg.callsOf('approvals.list')).toEqual([]);
  });
});

// @vitest-environment happy-dom
// The approval window showing a transaction: decoded X, P-Chain and EVM txs, what each does to the
// wallet, and the warnings it carries.
import { cleanup, render, screen, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
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
import { ImpactSummary } from '../../../src/popup/approval-impact.js';
import type { ApprovalSummary } from '../../../src/shared/messages.js';
import { renderWith } from './fake-background.js';
import { C_ADDR, C_OTHER, HRP, P_ADDR } from './fixtures.js';
import { approval, queue } from './approval-fixtures.js';

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

  it('says on its own line how much of what comes back is locked, whatever warnings fold away', () => {
    const AVAX = 'avax-id';
    const burns = Array.from({ length: 6 }, (_, i) => ({ kind: 'burn' as const, assetID: `junk-${i}`, amount: '1' }));
    const impact = { assets: [{ assetID: AVAX, leaves: '100', fromOthers: '0', returns: '99', returnsLocked: '99', staked: '0', toOthers: [], burned: '1' }], warnings: [...burns, { kind: 'locked' as const, assetID: AVAX, amount: '99', until: '30000000000', yours: true }], yours: {} };
    render(<ImpactSummary impact={impact} assets={{ [AVAX]: { symbol: 'AVAX', denomination: 9, verified: true } as never }} signsNothing={false} avaxAssetID={AVAX} />);
    const summary = screen.getByTestId('impact-asset');
    expect(within(summary).getByText('Of which locked for now (see Warnings)').nextElementSibling!.textContent).toBe('0.000000099 AVAX');
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
        { kind: 'burn', assetID: OTHER, amount: '1', items: 'items' },
        { kind: 'burn', assetID: OTHER, amount: '2', items: 'rights' },
        { kind: 'anyone', assetID: AVAX, amount: '1000000000' },
        { kind: 'look-alike', address: lookAlike, resembles: mine },
        { kind: 'not-your-owner', what: 'validation rewards', addresses: ['P-stranger'], threshold: 1 },
        { kind: 'imitation', assetID: OTHER, symbol: 'AVAX' },
        { kind: 'fee-balance', amount: '2000000000' },
        { kind: 'fee-unchecked' },
        { kind: 'owner-locked', what: 'rewards', until: '1900000000' },
        { kind: 'atomic-owner', assetID: AVAX, amount: '3000000000', chain: 'P' },
        { kind: 'shared', assetID: OTHER, amount: '1', items: 'rights', strangers: ['X-stranger'] },
        { kind: 'not-your-owner', what: 'delegation rewards', addresses: ['P-atomic'], threshold: 1, unread: true },
      ],
      assets: [...summary.impact.assets, { assetID: OTHER, nonFungible: 'items', leaves: '1', fromOthers: '0', returns: '0', staked: '0', toOthers: [], burned: '0' }, { assetID: OTHER, nonFungible: 'rights', leaves: '2', fromOthers: '0', returns: '0', staked: '0', toOthers: [], burned: '2' }],
    };
    summary.assets = { ...summary.assets, [OTHER]: { symbol: 'AVAX', denomination: 9, verified: false } };
    renderWith(queue([approval(1, summary)]), <ApprovalWindow armMs={0} close={() => undefined} />);
    expect((await screen.findByTestId('signs-nothing')).textContent).toContain('approving signs nothing');
    const warnings = screen.getByTestId('impact-warnings').textContent!;
    expect(warnings).toContain('Destroys 5 AVAX: burned for good');
    expect(warnings).toMatch(/Destroys 1 NFT or property of \S+.*: burned for good/);
    expect(warnings).toMatch(/Uses up 2 rights to mint of \S+.*: it does not come back/);
    expect(warnings).toContain('1 AVAX goes to an output with no owner: anyone can take it');
    expect(warnings).toContain(`${lookAlike} looks like your address ${mine} but is not yours`);
    expect(warnings).toContain('The validation rewards go to P-stranger: not this wallet');
    expect(warnings).not.toContain('P-stranger: not this wallet, which never');
    expect(warnings).toContain("The delegation rewards go to P-atomic: not this wallet, which never shows or spends what your C-Chain address's atomic owner holds on the P-Chain");
    expect(warnings).toContain(`Asset ${OTHER} calls itself AVAX, but it is not the network's AVAX`);
    expect(warnings).toContain("2 AVAX goes into an L1 validator's fee balance; what is left of it goes to an owner this transaction does not name");
    expect(warnings).toContain('the fee burned below is not checked');
    expect(warnings).toContain('The rewards stay locked until');
    expect(warnings).toContain("3 AVAX goes on the P-Chain to your C-Chain address's atomic owner: this wallet never shows or spends funds there");
    // A right to mint is said as one, never as an amount of the asset.
    expect(warnings).toContain('1 right to mint of AVAX (unverified asset) goes to an output shared with X-stranger, who can spend it without you');
    // The look-alike asset is never headed by its symbol alone; an NFT counts one by one.
    const nft = screen.getAllByTestId('impact-asset').find((el) => el.textContent!.includes(OTHER) && el.textContent!.includes('NFT or property'))!;
    expect(nft.textContent).toContain(`AVAX (not the network's AVAX; asset ${OTHER})`);
    expect(nft.textContent).toContain('1 NFT or property of AVAX');
    const rights = screen.getAllByTestId('impact-asset').find((el) => el.textContent!.includes('rights to mint'))!;
    expect(rights.textContent).toContain('Used up2 rights to mint of AVAX');
    expect(rights.textContent).not.toContain('Burned');
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

  it("an EVM tx on a chain a site added names the chain by its ID and RPC host, the site's name for it only as that site's claim", async () => {
    const summary: ApprovalSummary = {
      kind: 'evm-tx', chainName: 'Avalanche Test', chainId: '99999', rpcHost: 'rpc.example.org:8545', symbol: 'TST', from: C_ADDR, to: C_OTHER, valueWei: '1', data: '0x', nonce: '0',
      gasLimit: '21000', maxFeePerGas: '2', maxPriorityFeePerGas: '1', expectedGas: '21000', baseFeePerGas: '1', unsignedHex: '0x02',
    };
    renderWith(queue([approval(1, summary, { method: 'eth_sendTransaction' })]), <ApprovalWindow armMs={0} close={() => undefined} />);
    expect((await screen.findByTestId('evm-chain')).textContent).toBe('chain ID 99999, which the site that added it calls “Avalanche Test”, served by rpc.example.org:8545');
  });

  it('an EVM tx whose site asked for another nonce than the wallet takes says so, and that it replaces no waiting tx', async () => {
    const summary: ApprovalSummary = {
      kind: 'evm-tx', chainName: 'Avalanche C-Chain', chainId: '43112', symbol: 'AVAX', from: C_ADDR, to: C_OTHER, valueWei: '1', data: '0x', nonce: '8', siteNonce: '7',
      gasLimit: '21000', maxFeePerGas: '2', maxPriorityFeePerGas: '1', expectedGas: '21000', baseFeePerGas: '1', unsignedHex: '0x02',
    };
    renderWith(queue([approval(1, summary, { method: 'eth_sendTransaction' })]), <ApprovalWindow armMs={0} close={() => undefined} />);
    expect((await screen.findByTestId('evm-site-nonce')).textContent).toBe(
      'The site asked for nonce 7; the wallet uses 8. This replaces no waiting transaction: Speed up or Cancel in Activity does that.',
    );
    cleanup();
    const { siteNonce: _, ...same } = summary;
    renderWith(queue([approval(1, same, { method: 'eth_sendTransaction' })]), <ApprovalWindow armMs={0} close={() => undefined} />);
    await screen.findByTestId('evm-summary');
    expect(screen.queryByTestId('evm-site-nonce')).toBeNull();
  });

  it("an EVM tx on a chain a site added, at a nonce the site set that another tx of the account took, says it takes that one's place or is refused", async () => {
    const summary: ApprovalSummary = {
      kind: 'evm-tx', chainName: 'Other', chainId: '42', rpcHost: 'rpc.example.org', symbol: 'TST', from: C_ADDR, to: C_OTHER, valueWei: '1', data: '0x', nonce: '2', replacesWaiting: true,
      gasLimit: '21000', maxFeePerGas: '2', maxPriorityFeePerGas: '1', expectedGas: '21000', baseFeePerGas: '1', unsignedHex: '0x02',
    };
    renderWith(queue([approval(1, summary, { method: 'eth_sendTransaction' })]), <ApprovalWindow armMs={0} close={() => undefined} />);
    expect((await screen.findByTestId('evm-replaces')).textContent).toBe(
      'The site set nonce 2, which another transaction of yours already took: if that one still waits, this one takes its place and it never runs; if not, this one is refused.',
    );
    cleanup();
    const { replacesWaiting: _, ...next } = summary;
    renderWith(queue([approval(1, next, { method: 'eth_sendTransaction' })]), <ApprovalWindow armMs={0} close={() => undefined} />);
    await screen.findByTestId('evm-summary');
    expect(screen.queryByTestId('evm-replaces')).toBeNull();
    expect(screen.queryByTestId('evm-nonce-gap')).toBeNull();
    cleanup();
    // Above the next: it waits for the nonces between.
    renderWith(queue([approval(1, { ...next, nonce: '9', nextNonce: '3' }, { method: 'eth_sendTransaction' })]), <ApprovalWindow armMs={0} close={() => undefined} />);
    expect((await screen.findByTestId('evm-nonce-gap')).textContent).toBe('The site set nonce 9; your next is 3. This one waits until the nonces between are used, and may run much later.');
  });

  it("an EVM tx whose site's fee cap was under the base fee says the wallet uses its own instead, and why", async () => {
    const summary: ApprovalSummary = {
      kind: 'evm-tx', chainName: 'Avalanche C-Chain', chainId: '43112', symbol: 'AVAX', from: C_ADDR, to: C_OTHER, valueWei: '1', data: '0x', nonce: '8',
      gasLimit: '21000', maxFeePerGas: '50000000000', siteMaxFeePerGas: '10000000000', maxPriorityFeePerGas: '0', expectedGas: '21000', baseFeePerGas: '25000000000', unsignedHex: '0x02',
    };
    renderWith(queue([approval(1, summary, { method: 'eth_sendTransaction' })]), <ApprovalWindow armMs={0} close={() => undefined} />);
    expect((await screen.findByTestId('evm-site-fee')).textContent).toBe(
      "The site asked for a fee cap of 10 nAVAX per gas, under the network's base fee of now: it would wait, with every later transaction of yours behind it. The wallet uses its own.",
    );
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

// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toHex } from '../../../src/core/bytes.js';
import { encodeUnsignedTx } from '../../../src/core/codec/codec.js';
import type { Utxo } from '../../../src/core/codec/types.js';
import { describeTx } from '../../../src/core/describe.js';
import { cb58Encode, formatAddress } from '../../../src/core/encoding.js';
import { type ChainContext, makeOwners } from '../../../src/core/tx/context.js';
import { ownedAddressSet, spendableUtxos } from '../../../src/core/tx/utxos.js';
import { buildXSend } from '../../../src/core/tx/x.js';
import { ApprovalWindow } from '../../../src/popup/approval-window.js';
import type { ApprovalSummary, ApprovalView } from '../../../src/shared/messages.js';
import { fakeBackground, renderWith } from './fake-background.js';
import { C_ADDR, HRP, X_ADDR } from './fixtures.js';

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
  return {
    kind: 'tx',
    chain: 'X',
    unsignedHex: `0x${toHex(encodeUnsignedTx(built.tx))}`,
    view: describeTx(built.tx, ctx, built.spent),
    // The unknown asset is deliberately missing: the window must show it by ID.
    assets: { [AVAX]: { symbol: 'AVAX', denomination: 9, verified: true } },
  };
}

function approval(n: number, summary: ApprovalSummary, extra: Partial<ApprovalView> = {}): ApprovalView {
  return { id: n.toString(16).padStart(24, '0'), origin: `https://site${n}.example`, method: 'avax_sendTransaction', createdAt: Date.UTC(2026, 0, 2, 3, 4, 5), summary, ...extra };
}

/** A background holding `list`; a decision removes the request from it. */
function queue(list: ApprovalView[]) {
  const pending = [...list];
  return fakeBackground({
    'approvals.list': () => ({ approvals: [...pending] }),
    'approvals.decide': (p) => {
      const i = pending.findIndex((a) => a.id === p.id);
      if (i >= 0) pending.splice(i, 1);
      return { ok: true };
    },
  });
}

describe('approval window: a transaction', () => {
  it('shows the decoded tx: owners, amounts with denominations, verified AVAX vs an unknown asset by ID, fee, memo, exact bytes', async () => {
    const summary = txSummary();
    const bg = queue([approval(1, summary, { frameOrigin: 'https://ads.example' })]);
    renderWith(bg, <ApprovalWindow close={() => undefined} />);

    expect(await screen.findByTestId('origin')).toHaveProperty('textContent', 'https://site1.example');
    expect(screen.getByTestId('frame-origin').textContent).toBe('via frame https://ads.example');
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

  it('warns about an input whose UTXO the wallet cannot see', async () => {
    const summary = txSummary();
    summary.view = { ...summary.view, inputs: summary.view.inputs.map((leg) => ({ ...leg, owners: undefined, unknownUtxo: true })) };
    renderWith(queue([approval(1, summary)]), <ApprovalWindow close={() => undefined} />);
    expect((await screen.findAllByText(/Unknown UTXO/)).length).toBe(2);
  });

  it('an EVM tx: value in AVAX from wei, fee cap = gas limit × max fee per gas, data collapsed', async () => {
    const summary: ApprovalSummary = {
      kind: 'evm-tx', to: C_ADDR, valueWei: '1500000000000000000', data: '0xa9059cbb', gasLimit: '21000', maxFeePerGas: '50000000000', maxPriorityFeePerGas: '1000000000', chainId: '43112',
    };
    renderWith(queue([approval(1, summary)]), <ApprovalWindow close={() => undefined} />);
    const view = await screen.findByTestId('evm-summary');
    expect(view.textContent).toContain(C_ADDR);
    expect(view.textContent).toContain('1.5 AVAX');
    expect(screen.getByTestId('fee').textContent).toContain('0.00105 AVAX');
    expect(view.textContent).toContain('0xa9059cbb');
  });
});

describe('approval window: connect and sign-message', () => {
  it('connect shows the accounts the site would see', async () => {
    renderWith(queue([approval(1, { kind: 'connect', accounts: [X_ADDR, C_ADDR] }, { method: 'avax_requestAccounts' })]), <ApprovalWindow close={() => undefined} />);
    const view = await screen.findByTestId('connect-summary');
    expect(view.textContent).toContain(X_ADDR);
    expect(view.textContent).toContain(C_ADDR);
    expect(screen.queryByTestId('frame-origin')).toBeNull();
  });

  it('sign-message shows the text, or the hex of a binary message, and the signer', async () => {
    const text = approval(1, { kind: 'sign-message', encoding: 'text', message: 'Log in to <b>site</b>\nnonce 42', signer: X_ADDR });
    const bin = approval(2, { kind: 'sign-message', encoding: 'hex', message: '00ff10', signer: X_ADDR });
    renderWith(queue([text, bin]), <ApprovalWindow close={() => undefined} />);
    const view = await screen.findByTestId('message-summary');
    expect(view.querySelector('pre')!.textContent).toBe('Log in to <b>site</b>\nnonce 42');
    expect(view.querySelector('b')).toBeNull();
    expect(view.textContent).toContain(X_ADDR);
    expect(screen.getByTestId('more-waiting').textContent).toContain('1 more waiting');
    fireEvent.click(screen.getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(screen.getByTestId('message-summary').querySelector('pre')!.textContent).toBe('0x00ff10'));
    expect(screen.getByText(/binary, shown as hex/)).toBeTruthy();
  });
});

describe('approval window: decisions', () => {
  it('Reject is focused; Approve and Reject send the right decision, the next request shows, then the window closes', async () => {
    const a = approval(1, { kind: 'connect', accounts: [X_ADDR] });
    const b = approval(2, { kind: 'connect', accounts: [X_ADDR] });
    const bg = queue([a, b]);
    const close = vi.fn();
    renderWith(bg, <ApprovalWindow close={close} />);
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

  it('closing the window rejects the request on screen', async () => {
    const a = approval(1, { kind: 'connect', accounts: [X_ADDR] });
    const bg = queue([a, approval(2, { kind: 'connect', accounts: [] })]);
    renderWith(bg, <ApprovalWindow close={() => undefined} />);
    await screen.findByText('https://site1.example');
    window.dispatchEvent(new Event('pagehide'));
    await waitFor(() => expect(bg.callsOf('approvals.decide')).toEqual([{ id: a.id, approved: false }]));
  });

  it('a failed decision is shown and the list reloaded', async () => {
    const a = approval(1, { kind: 'connect', accounts: [X_ADDR] });
    const bg = fakeBackground({
      'approvals.list': () => ({ approvals: [a] }),
      'approvals.decide': () => {
        throw new Error('boom');
      },
    });
    renderWith(bg, <ApprovalWindow close={() => undefined} />);
    await screen.findByText('https://site1.example');
    fireEvent.click(screen.getByRole('button', { name: 'Approve' }));
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(bg.callsOf('approvals.list').length).toBe(2);
  });

  it('with nothing waiting it says so', async () => {
    renderWith(queue([]), <ApprovalWindow close={() => undefined} />);
    expect(await screen.findByTestId('approval-empty')).toBeTruthy();
  });
});

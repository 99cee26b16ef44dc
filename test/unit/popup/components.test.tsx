// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { useState } from 'preact/hooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AddressInput } from '../../../src/popup/components/AddressInput.js';
import { AmountInput, type AmountInputProps } from '../../../src/popup/components/AmountInput.js';
import { AssetLabel } from '../../../src/popup/components/AssetLabel.js';
import { CopyButton } from '../../../src/popup/components/CopyButton.js';
import { PasswordFields } from '../../../src/popup/components/PasswordFields.js';
import { lazyComponent } from '../../../src/popup/components/Lazy.js';
import { QrCode } from '../../../src/popup/components/QrCode.js';
import { TxStatus } from '../../../src/popup/components/TxStatus.js';
import type { ActivityItem } from '../../../src/shared/messages.js';
import { fakeBackground, renderWith } from './fake-background.js';
import type { AddressKind } from '../../../src/popup/checks.js';
import { C_ADDR, C_BECH32, FAKE_ID, HRP, P_ADDR, X_ADDR, X_FUJI } from './fixtures.js';

afterEach(cleanup);

function Amount(props: Omit<AmountInputProps, 'value' | 'onInput'>) {
  const [value, setValue] = useState('');
  return <AmountInput {...props} value={value} onInput={setValue} />;
}

function type(label: RegExp | string, value: string) {
  fireEvent.input(screen.getByLabelText(label), { target: { value } });
}

function errorOf(label: RegExp | string): string {
  const input = screen.getByLabelText(label);
  const ids = input.getAttribute('aria-describedby')?.split(' ') ?? [];
  const error = ids.map((id) => document.getElementById(id)).find((el) => el?.classList.contains('field-error'));
  return error?.textContent ?? '';
}

describe('AmountInput', () => {
  it('names too many decimals for the asset', () => {
    render(<Amount denomination={2} symbol="GOLD" spendable={10_000n} />);
    type('Amount (GOLD)', '1.234');
    expect(errorOf('Amount (GOLD)')).toBe('At most 2 decimal places for this asset');
    expect(screen.getByLabelText('Amount (GOLD)').getAttribute('aria-invalid')).toBe('true');
    type('Amount (GOLD)', '1.23');
    expect(errorOf('Amount (GOLD)')).toBe('');
  });

  it('refuses more than spendable, and more than spendable once the fee is added', () => {
    render(<Amount denomination={9} symbol="AVAX" spendable={2_000_000_000n} fee={1_000_000n} />);
    expect(screen.getByText(/Spendable: 2 AVAX/)).toBeTruthy();
    type('Amount (AVAX)', '2.5');
    expect(errorOf('Amount (AVAX)')).toBe('More than you can spend: 2 AVAX');
    type('Amount (AVAX)', '2');
    expect(errorOf('Amount (AVAX)')).toBe('With the fee of 0.001 AVAX this is more than you can spend; at most 1.999 AVAX');
  });

  it('fills Max with the spendable amount minus the fee, as plain decimal text', () => {
    render(<Amount denomination={9} symbol="AVAX" spendable={1_234_500_000_000n} fee={1_000_000n} maxValue={1_234_499_000_000n} maxNote="Max leaves room for the fee" />);
    fireEvent.click(screen.getByRole('button', { name: /^Max/ }));
    expect((screen.getByLabelText('Amount (AVAX)') as HTMLInputElement).value).toBe('1234.499');
    expect(errorOf('Amount (AVAX)')).toBe('');
  });

  it('disables Max and says why when the fee is not known', () => {
    render(<Amount denomination={18} symbol="AVAX" spendable={10n ** 18n} maxValue={null} maxNote="Max needs a C-Chain fee estimate, which is not available yet" />);
    const max = screen.getByRole('button', { name: /^Max/ }) as HTMLButtonElement;
    expect(max.disabled).toBe(true);
    expect(max.getAttribute('aria-label')).toContain('fee estimate');
  });
});

describe('AddressInput', () => {
  function Address({ kind }: { kind: AddressKind }) {
    const [value, setValue] = useState('');
    return <AddressInput kind={kind} hrp={HRP} value={value} onInput={setValue} label="To" />;
  }

  it('names the wrong chain as the user types', () => {
    render(<Address kind="X" />);
    type('To', P_ADDR);
    expect(errorOf('To')).toBe('This is a P-Chain address; an X-Chain address is needed here');
    type('To', C_ADDR);
    expect(errorOf('To')).toBe('This is a C-Chain 0x address; an X-Chain address is needed here');
  });

  it('names the wrong network', () => {
    render(<Address kind="X" />);
    type('To', X_FUJI);
    expect(errorOf('To')).toBe('This address is for the "fuji" network; this wallet is on "local"');
  });

  it('names a bech32 address typed where a 0x address is needed', () => {
    render(<Address kind="C-evm" />);
    type('To', X_ADDR);
    expect(errorOf('To')).toBe('This is an X-Chain address; a C-Chain 0x address is needed here');
    type('To', C_BECH32);
    expect(errorOf('To')).toContain('C-Chain bech32 address');
  });

  it.each([
    ['X', X_ADDR],
    ['P', P_ADDR],
    ['C-bech32', C_BECH32],
    ['C-evm', C_ADDR],
  ] as const)('accepts a valid %s address', (kind, address) => {
    render(<Address kind={kind} />);
    type('To', address);
    expect(errorOf('To')).toBe('');
    expect(screen.getByText(/^✓/).textContent).toContain(`on "${HRP}"`);
  });
});

describe('PasswordFields', () => {
  function Passwords() {
    const [password, setPassword] = useState('');
    const [confirm, setConfirm] = useState('');
    return <PasswordFields password={password} confirm={confirm} onPassword={setPassword} onConfirm={setConfirm} />;
  }

  it('shows the strength as the user types', () => {
    render(<Passwords />);
    type('Password', 'abc');
    expect(screen.getByText('Too short')).toBeTruthy();
    type('Password', 'password1');
    expect(screen.getByText('Weak')).toBeTruthy();
    expect(screen.getByText(/most common passwords/)).toBeTruthy();
    type('Password', 'correct horse battery staple');
    expect(screen.getByText('Strong')).toBeTruthy();
  });

  it('says when the confirmation does not match', () => {
    render(<Passwords />);
    type('Password', 'correct horse battery staple');
    type('Confirm password', 'correct horse battery stapler');
    expect(errorOf('Confirm password')).toBe('The two passwords do not match');
    type('Confirm password', 'correct horse battery staple');
    expect(errorOf('Confirm password')).toBe('');
  });
});

describe('AssetLabel and QrCode', () => {
  it('marks the real AVAX verified and shows any other asset with its ID and a look-alike warning', () => {
    render(
      <>
        <AssetLabel asset={{ assetID: 'x', name: 'Avalanche', symbol: 'AVAX', verified: true }} />
        <AssetLabel asset={{ assetID: FAKE_ID, name: 'Avalanche', symbol: 'AVAX', verified: false }} />
      </>,
    );
    expect(screen.getAllByText('✓ Verified')).toHaveLength(1);
    expect(screen.getByText(/^ID 2fombhL7aG…JyFDbe$/)).toBeTruthy();
    expect(screen.getByRole('note').textContent).toContain('Not AVAX');
  });

  it('draws a QR code as SVG elements', () => {
    render(<QrCode text={X_ADDR} label="QR of the X address" />);
    const svg = screen.getByRole('img', { name: 'QR of the X address' });
    expect(svg.tagName.toLowerCase()).toBe('svg');
    expect(svg.querySelector('path')?.getAttribute('d')).toMatch(/^M\d+ \d+h1v1h-1z/);
  });
});

describe('TxStatus', () => {
  const item = (extra: Partial<ActivityItem>): ActivityItem => ({ txID: FAKE_ID, chain: 'X', kind: 'send', status: 'pending', createdAt: 1, ...extra });
  const statusWith = async (extra: Partial<ActivityItem>) => {
    const bg = fakeBackground({ 'activity.list': () => ({ items: [item(extra)] }), 'balances.get': () => ({}) as never });
    renderWith(bg, <TxStatus heading="Sent" chain="X" txID={FAKE_ID} pollMs={5} />);
    return screen.findByTestId('tx-status');
  };
  const heading = () => screen.getByRole('heading', { level: 1 }).textContent;

  it('a send whose answer from the node was lost says it is checking whether it went through, not that it failed, nor that it was sent', async () => {
    const status = await statusWith({ checking: true });
    await waitFor(() => expect(status.textContent).toContain('Checking whether it went through'));
    expect(status.textContent).toContain("Don't send it again");
    expect(status.textContent).not.toMatch(/refused|failed/i);
    expect(heading()).toBe('Checking whether it went out');
  });

  it('pending without doubt waits for the chain; accepted and refused say so, in the heading too', async () => {
    expect((await statusWith({})).textContent).toContain('waiting for the X-Chain to accept it');
    expect(heading()).toBe('Sent');
    cleanup();
    const accepted = await statusWith({ status: 'accepted' });
    await waitFor(() => expect(accepted.textContent).toBe('Accepted by the X-Chain'));
    expect(heading()).toBe('Sent');
    cleanup();
    const refused = await statusWith({ status: 'failed' });
    await waitFor(() => expect(refused.textContent).toBe('The X-Chain refused it'));
    expect(heading()).toBe('Refused');
  });

  it('says "Fee paid" only once accepted (a C-Chain fee with its receipt\'s amount), at most until then on the C-Chain, and no fee for a refused X/P tx', async () => {
    const feeOf = async (chain: 'X' | 'C', extra: Partial<ActivityItem>, fee: string, settled: RegExp) => {
      const bg = fakeBackground({ 'activity.list': () => ({ items: [item({ chain, ...extra })] }), 'balances.get': () => ({}) as never });
      renderWith(bg, <TxStatus chain={chain} txID={FAKE_ID} fee={fee} pollMs={5} {...(chain === 'C' ? { feeDenomination: 18 } : {})} />);
      await waitFor(() => expect(screen.getByTestId('tx-status').textContent).toMatch(settled));
      const terms = [...document.querySelectorAll('dt')].map((dt) => `${dt.textContent}: ${dt.nextElementSibling!.textContent}`).filter((t) => t.startsWith('Fee'));
      cleanup();
      return terms;
    };
    expect(await feeOf('C', {}, '1050000000000000', /waiting/)).toEqual(['Fee (at most): 0.00105 AVAX']);
    // A ceiling past the digits shown is rounded up, as every "at most" is (never "≈" below it).
    expect(await feeOf('C', {}, '1050000000000001', /waiting/)).toEqual(['Fee (at most): 0.001051 AVAX (exactly 0.001050000000000001 AVAX)']);
    expect(await feeOf('C', { status: 'accepted', fee: '525000000000000' }, '1050000000000000', /Accepted/)).toEqual(['Fee paid: 0.000525 AVAX']);
    expect(await feeOf('X', {}, '1000000', /waiting/)).toEqual(['Fee: 0.001 AVAX']);
    expect(await feeOf('X', { status: 'accepted', fee: '1000000' }, '1000000', /Accepted/)).toEqual(['Fee paid: 0.001 AVAX']);
    expect(await feeOf('X', { status: 'failed' }, '1000000', /refused/)).toEqual([]);
  });

  it('once it stops asking, it says so and drops the spinner rather than seeming to wait for ever', async () => {
    let asked = 0;
    const bg = fakeBackground({ 'activity.list': () => ((asked += 1), { items: [item({})] }), 'balances.get': () => ({}) as never });
    renderWith(bg, <TxStatus chain="X" txID={FAKE_ID} pollMs={1} />);
    const status = await screen.findByTestId('tx-status');
    await waitFor(() => expect(status.textContent).toContain('has not accepted it yet'), { timeout: 5_000 });
    expect(status.textContent).toContain('Activity shows when it is decided');
    expect(status.querySelector('.spinner')).toBeNull();
    const after = asked;
    await new Promise((r) => setTimeout(r, 30));
    expect(asked).toBe(after);
  });
});

describe('lazyComponent', () => {
  it('shows the screen’s heading while it loads, then the screen; preloaded, it shows at once', async () => {
    let resolve: (c: (p: { name: string }) => preact.JSX.Element) => void = () => undefined;
    let loads = 0;
    const Screen = lazyComponent<{ name: string }>(() => {
      loads += 1;
      return new Promise((r) => (resolve = r));
    }, 'Send');
    render(<Screen name="first" />);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Send');
    expect(screen.getByText('Loading…')).toBeTruthy();
    resolve(({ name }) => <h1>Send to {name}</h1>);
    await waitFor(() => expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Send to first'));
    cleanup();
    render(<Screen name="second" />);
    // Loaded once: shown in the first render, no second load.
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Send to second');
    expect(loads).toBe(1);

    const Other = lazyComponent<object>(() => Promise.resolve(() => <h1>Other</h1>), 'Other');
    await Other.preload();
    cleanup();
    render(<Other />);
    expect(screen.queryByText('Loading…')).toBeNull();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Other');
  });

  it('says when a screen could not load, and loads it again on Try again', async () => {
    let attempts = 0;
    const Flaky = lazyComponent<object>(() => {
      attempts += 1;
      return attempts === 1 ? Promise.reject(new Error('chunk missing')) : Promise.resolve(() => <p>Loaded</p>);
    }, 'Settings');
    render(<Flaky />);
    await waitFor(() => expect(screen.getByRole('alert').textContent).toMatch(/could not be loaded/));
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Settings');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.getByText('Loaded')).toBeTruthy());
    expect(attempts).toBe(2);
  });
});

describe('CopyButton', () => {
  it('when the clipboard refuses, shows the whole text selected and focused in its place, until focus leaves it', async () => {
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('not allowed'));
    render(<CopyButton text={X_ADDR} what="X-Chain address" />);
    fireEvent.click(screen.getByRole('button', { name: 'Copy X-Chain address' }));
    const field = (await screen.findByLabelText('X-Chain address, not copied: copy it yourself')) as HTMLInputElement;
    expect(field.value).toBe(X_ADDR);
    expect(field.readOnly).toBe(true);
    expect(document.activeElement).toBe(field);
    expect([field.selectionStart, field.selectionEnd]).toEqual([0, X_ADDR.length]);
    // Not on a timer: it stays while the user copies it.
    await new Promise((r) => setTimeout(r, 1600));
    expect(screen.getByLabelText('X-Chain address, not copied: copy it yourself')).toBe(field);
    fireEvent.blur(field);
    expect(await screen.findByRole('button', { name: 'Copy X-Chain address' })).toBeTruthy();
    vi.restoreAllMocks();
  });
});

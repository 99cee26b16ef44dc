// @vitest-environment happy-dom
// Receive: each address's QR code, read back module by module with a reader written from the QR
// standard (qr-decode.ts), holds exactly the address shown and copied; "Copied" is said only of the
// address the clipboard holds.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QrCode } from '../../../src/popup/components/QrCode.js';
import { Receive } from '../../../src/popup/screens/Receive.js';
import { formatAddress } from '../../../src/core/encoding.js';
import { formatEvmAddress, parseEvmAddress } from '../../../src/core/evm-address.js';
import { ACCOUNT } from './fixtures.js';
import { decodeQr, modulesOfSvg, quietZoneOfSvg } from './qr-decode.js';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const qrText = (svg: Element) => decodeQr(modulesOfSvg(svg as SVGSVGElement)).text;

describe('the QR reader used here', () => {
  it('refuses a code with one module flipped in its data (so a wrong QR cannot read as right)', () => {
    render(<QrCode text="X-fuji1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqxj2lsm" label="QR" />);
    const svg = screen.getByRole('img', { name: 'QR' }) as unknown as SVGSVGElement;
    const grid = modulesOfSvg(svg);
    expect(decodeQr(grid)).toMatchObject({ text: 'X-fuji1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqxj2lsm', level: 'M' });
    const n = grid.length;
    grid[n - 1]![n - 1] = !grid[n - 1]![n - 1];
    expect(() => decodeQr(grid)).toThrow(/error correction codewords do not match/);
  });
});

describe('Receive', () => {
  const shortId = Uint8Array.from({ length: 20 }, (_, i) => 200 - i * 9);
  const evm = Uint8Array.from({ length: 20 }, (_, i) => (i * 37 + 11) & 0xff);
  const on = (hrp: string) => ({
    ...ACCOUNT,
    xAddress: formatAddress('X', hrp, shortId),
    pAddress: formatAddress('P', hrp, shortId),
    cAddress: formatEvmAddress(evm),
    cBech32Address: formatAddress('C', hrp, shortId),
  });

  for (const hrp of ['avax', 'fuji', 'custom']) {
    it(`on a network whose addresses start ${hrp}: each QR code holds exactly the address shown, the C-Chain one checksummed`, async () => {
      const account = on(hrp);
      render(<Receive account={account} network="Fuji" />);
      for (const [option, address] of [['X-Chain', account.xAddress], ['P-Chain', account.pAddress], ['C-Chain', account.cAddress], ['C-bech32', account.cBech32Address]] as const) {
        fireEvent.click(screen.getByRole('radio', { name: option }));
        expect(screen.getByTestId('receive-address').textContent).toBe(address);
        const svg = await screen.findByRole('img', { name: `QR code of your ${option} address` });
        await waitFor(() => expect(qrText(svg)).toBe(address));
        // The white around it is part of the code (ISO/IEC 18004: 4 modules): the popup's dark theme is none.
        expect(quietZoneOfSvg(svg as unknown as SVGSVGElement)).toBeGreaterThanOrEqual(4);
        expect(svg.querySelector('rect')?.getAttribute('fill')).toBe('#fff');
      }
      expect(account.xAddress.startsWith(`X-${hrp}1`)).toBe(true);
      // The wallet lists C-Chain tokens (docs/tokens.md): the C-Chain note must not say otherwise.
      fireEvent.click(screen.getByRole('radio', { name: 'C-Chain' }));
      expect(screen.getByText(/^For AVAX and tokens on the C-Chain/)).toBeTruthy();
      expect(screen.queryByText(/tokens.*not shown/i)).toBeNull();
      // The network is named: the 0x address is the same on every EVM chain.
      expect(screen.getByTestId('receive-network').textContent).toBe('This wallet shows what arrives on Fuji. The same 0x address exists on every EVM chain: funds sent to it on another chain are not shown here.');
      fireEvent.click(screen.getByRole('radio', { name: 'X-Chain' }));
      expect(screen.getByTestId('receive-network').textContent).toBe('On Fuji: funds sent on another network do not arrive here.');
      // EIP-55: mixed case that parses back to the same bytes (parseEvmAddress checks the checksum).
      expect(account.cAddress).toMatch(/[a-f]/);
      expect(account.cAddress).toMatch(/[A-F]/);
      expect(parseEvmAddress(account.cAddress)).toEqual(evm);
    });
  }

  it('says "Copied" only of the address copied: another address shown next is not called copied', async () => {
    const written: string[] = [];
    vi.spyOn(navigator.clipboard, 'writeText').mockImplementation(async (t: string) => void written.push(t));
    render(<Receive account={on('fuji')} network="Fuji" />);
    fireEvent.click(screen.getByRole('button', { name: 'Copy X-Chain address' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Copy X-Chain address' }).textContent).toBe('Copied'));
    fireEvent.click(screen.getByRole('radio', { name: 'C-Chain' }));
    expect(screen.getByRole('button', { name: 'Copy C-Chain address' }).textContent).toBe('Copy');
    expect(written).toEqual([on('fuji').xAddress]);
    fireEvent.click(screen.getByRole('button', { name: 'Copy C-Chain address' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Copy C-Chain address' }).textContent).toBe('Copied'));
    expect(written).toEqual([on('fuji').xAddress, on('fuji').cAddress]);
  });
});

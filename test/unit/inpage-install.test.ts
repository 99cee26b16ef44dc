// @vitest-environment happy-dom
// installXpcWallet on a fresh happy-dom window: EIP-6963 announcements, window.xpcWallet and
// window.ethereum beside another wallet's.
import { describe, expect, it, vi } from 'vitest';
import { ANNOUNCE_EVENT, REQUEST_EVENT, type Eip6963ProviderDetail } from '../../src/inpage/eip6963.js';
import { installXpcWallet } from '../../src/inpage/install.js';
import type { XpcProvider } from '../../src/inpage/provider.js';
import { makeWindow } from './inpage-fixtures.js';

describe('installXpcWallet', () => {
  function announcements(win: Window): Array<Eip6963ProviderDetail<XpcProvider>> {
    const seen: Array<Eip6963ProviderDetail<XpcProvider>> = [];
    win.addEventListener(ANNOUNCE_EVENT, (e) => seen.push((e as CustomEvent<Eip6963ProviderDetail<XpcProvider>>).detail));
    return seen;
  }

  it('announces itself over EIP-6963 at start and again on each request, with one uuid', () => {
    const win = makeWindow();
    const seen = announcements(win);
    const provider = installXpcWallet(win);

    expect(seen).toHaveLength(1);
    const [first] = seen;
    expect(first?.provider).toBe(provider);
    expect(first?.info).toMatchObject({ name: 'XPC Wallet', rdns: 'dev.xpcwallet' });
    expect(first?.info.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(first?.info.icon).toMatch(/^data:image\/svg\+xml,/);
    expect(decodeURIComponent(first!.info.icon)).toContain('<svg');
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first?.info)).toBe(true);

    win.dispatchEvent(new CustomEvent(REQUEST_EVENT));
    win.dispatchEvent(new CustomEvent(REQUEST_EVENT));
    expect(seen).toHaveLength(3);
    expect(seen.map((d) => d.info.uuid)).toEqual([first?.info.uuid, first?.info.uuid, first?.info.uuid]);
    expect(seen.every((d) => d.provider === provider)).toBe(true);

    // Another page load gets another uuid.
    const win2 = makeWindow();
    const other = announcements(win2);
    installXpcWallet(win2);
    expect(other[0]?.info.uuid).not.toBe(first?.info.uuid);
  });

  it('defines window.xpcWallet (fixed) and a replaceable window.ethereum when none exists', () => {
    const win = makeWindow();
    const provider = installXpcWallet(win);
    const g = win as unknown as Record<string, unknown>;

    expect(Object.getOwnPropertyDescriptor(win, 'xpcWallet')).toMatchObject({ value: provider, writable: false, configurable: false });
    expect(Object.getOwnPropertyDescriptor(win, 'ethereum')).toEqual({ value: provider, writable: true, configurable: true, enumerable: true });

    // A wallet injected later can still take window.ethereum, by assignment or by redefinition.
    const later = { isOtherWallet: true };
    g.ethereum = later;
    expect(g.ethereum).toBe(later);
    const latest = { isLatest: true };
    Object.defineProperty(win, 'ethereum', { get: () => latest, configurable: true });
    expect(g.ethereum).toBe(latest);
    expect(g.xpcWallet).toBe(provider);
  });

  it("leaves another wallet's window.ethereum untouched and unread", () => {
    const win = makeWindow();
    const theirs = { isOtherWallet: true };
    const get = vi.fn(() => theirs);
    const set = vi.fn();
    Object.defineProperty(win, 'ethereum', { get, set, configurable: true, enumerable: true });
    const before = Object.getOwnPropertyDescriptor(win, 'ethereum');

    const provider = installXpcWallet(win);

    expect(Object.getOwnPropertyDescriptor(win, 'ethereum')).toEqual(before);
    expect(get).not.toHaveBeenCalled();
    expect(set).not.toHaveBeenCalled();
    expect((win as unknown as { xpcWallet: unknown }).xpcWallet).toBe(provider);
  });

  it('keeps window.ethereum when it is present even as undefined', () => {
    const win = makeWindow();
    Object.defineProperty(win, 'ethereum', { value: undefined, writable: false, configurable: false });
    installXpcWallet(win);
    expect(Object.getOwnPropertyDescriptor(win, 'ethereum')).toMatchObject({ value: undefined, writable: false });
  });
});

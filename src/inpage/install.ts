// Puts the provider on a page: window.xpcWallet always (ours), window.ethereum only when no other
// wallet holds it, and EIP-6963 announcements so a dApp can pick us whatever window.ethereum is.
import { announceProvider, walletInfo } from './eip6963.js';
import { createXpcProvider, type XpcProvider } from './provider.js';

export function installXpcWallet(win: Window): XpcProvider {
  const provider = createXpcProvider(win);

  if (!Object.prototype.hasOwnProperty.call(win, 'xpcWallet')) {
    Object.defineProperty(win, 'xpcWallet', { value: provider, writable: false, configurable: false, enumerable: false });
  }

  // Another wallet got there first: leave its provider alone (no reading, wrapping or replacing);
  // dApps still find us through EIP-6963 and window.xpcWallet. When the slot is free we take it
  // replaceably, so a wallet injected after us can still claim it.
  if (!('ethereum' in win)) {
    Object.defineProperty(win, 'ethereum', { value: provider, writable: true, configurable: true, enumerable: true });
  }

  announceProvider(win, walletInfo(win.crypto.randomUUID()), provider);
  return provider;
}

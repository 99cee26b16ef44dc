// EIP-6963 multi-wallet discovery: dApps find every wallet through window events instead of
// fighting over window.ethereum. We announce once at start and again whenever a dApp asks.

export interface Eip6963ProviderInfo {
  /** Random per page load (EIP-6963: a v4 UUID, stable for the life of the page). */
  readonly uuid: string;
  readonly name: string;
  /** A data: URI (EIP-6963 forbids remote icons: they would let a wallet track pages). */
  readonly icon: string;
  /** Reverse-DNS id, the stable identity a dApp may remember the user's choice by. */
  readonly rdns: string;
}

export interface Eip6963ProviderDetail<P> {
  readonly info: Eip6963ProviderInfo;
  readonly provider: P;
}

export const ANNOUNCE_EVENT = 'eip6963:announceProvider';
export const REQUEST_EVENT = 'eip6963:requestProvider';

export const WALLET_NAME = 'XPC Wallet';
export const WALLET_RDNS = 'dev.xpcwallet';

// The toolbar icon's mark, drawn as vectors: teal and orange strokes crossed on a dark tile.
const ICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 96 96">' +
  '<rect width="96" height="96" rx="22" fill="#1b1f3a"/>' +
  '<path d="M30 28 66 68" stroke="#36d1b7" stroke-width="13" stroke-linecap="round"/>' +
  '<path d="M66 28 30 68" stroke="#f6a94b" stroke-width="13" stroke-linecap="round"/>' +
  '</svg>';

export const WALLET_ICON = `data:image/svg+xml,${encodeURIComponent(ICON_SVG)}`;

/** The wallet's EIP-6963 info with a fresh uuid, frozen. */
export function walletInfo(uuid: string): Eip6963ProviderInfo {
  return Object.freeze({ uuid, name: WALLET_NAME, icon: WALLET_ICON, rdns: WALLET_RDNS });
}

/**
 * Announces `provider` on `win` now and on every later `eip6963:requestProvider`. Every
 * announcement carries the same frozen detail, so dApps see one wallet, not one per request.
 * Returns a function that stops answering requests.
 */
export function announceProvider<P>(win: Window, info: Eip6963ProviderInfo, provider: P): () => void {
  const detail: Eip6963ProviderDetail<P> = Object.freeze({ info, provider });
  const announce = () => {
    win.dispatchEvent(new CustomEvent(ANNOUNCE_EVENT, { detail }));
  };
  win.addEventListener(REQUEST_EVENT, announce);
  announce();
  return () => win.removeEventListener(REQUEST_EVENT, announce);
}

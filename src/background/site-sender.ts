// Who sent a provider request, from the browser's MessageSender (never from the page's words):
// the requesting frame's origin, and the top-level page's origin shown next to it.
import type { Site } from './provider.js';

export interface ContentSender {
  id?: string;
  url?: string;
  origin?: string;
  frameId?: number;
  tab?: { id?: number; url?: string };
  /** Chrome: 'active', or 'prerender' / 'cached' / 'pending_deletion' for a page not on screen. */
  documentLifecycle?: string;
  /** Chrome: 'outermost_frame', 'sub_frame' or 'fenced_frame'. */
  frameType?: string;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** https anywhere, http only on this machine: a plain-http page could be anyone's on the way. */
export function isSecureOrigin(origin: string): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
}

function originOf(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    const o = new URL(url).origin;
    return o === 'null' ? undefined : o;
  } catch {
    return undefined;
  }
}

/** The site behind a content script's message, or undefined when it cannot be told or is not secure. */
export function siteOfSender(sender: ContentSender, extensionId: string): (Site & { tabId: number; frameId: number }) | undefined {
  if (sender.id !== extensionId || !sender.tab || typeof sender.tab.id !== 'number' || typeof sender.frameId !== 'number') return undefined;
  // An opaque origin ("null": a sandboxed frame) must not borrow its URL's origin.
  if (sender.origin === 'null') return undefined;
  // A page the browser prerenders (or keeps in its back/forward cache) is not what the user sees:
  // it must not open the wallet's window, least of all in the name of the page on screen. A fenced
  // frame (an ad) has no business with the wallet either.
  if (sender.documentLifecycle !== undefined && sender.documentLifecycle !== 'active') return undefined;
  if (sender.frameType === 'fenced_frame') return undefined;
  const frame = sender.origin !== undefined ? sender.origin : originOf(sender.url);
  // A prerendered page's main frame has a frameId other than 0: the frame type says it is on top.
  const outermost = sender.frameId === 0 || sender.frameType === 'outermost_frame';
  const top = outermost ? frame : originOf(sender.tab.url);
  if (!frame || !top || !isSecureOrigin(frame) || !isSecureOrigin(top)) return undefined;
  return { origin: top, ...(frame !== top ? { frameOrigin: frame } : {}), tabId: sender.tab.id, frameId: sender.frameId };
}

// Section 4's probes in the page: what popup-timing.ts (Chromium) and popup-firefox.ts install in the
// popup page and read back (first paint, the shell, interactive, home painted), and PBKDF2 timed there.

/**
 * The DOM condition for "interactive", from src/popup/screens/Home.tsx and src/popup/app.tsx: the
 * grand total shows an amount (not the '—' it shows until a snapshot with updatedAt > 0 arrives),
 * so does the X-Chain's header (its AVAX figure; '—' while its rows are not there), and the
 * wallet's controls are enabled:
 * every tab button, the Lock button and the account switcher. The Refresh button is left out on
 * purpose: it stays disabled while the refresh the popup starts on opening runs, by design.
 */
export const READY = `
  const total = document.querySelector('[data-testid="total-all"]');
  if (!total || total.textContent.trim() === '' || total.textContent.trim() === '\\u2014') return false;
  const x = document.querySelector('[data-testid="total-X"]');
  if (!x || x.textContent.trim() === '' || x.textContent.includes('\u2014')) return false;
  const tabs = document.querySelectorAll('nav.tabs button');
  if (tabs.length === 0) return false;
  for (const b of tabs) if (b.disabled) return false;
  const lock = document.querySelector('header.topbar button.lock');
  const account = document.querySelector('select.account-switcher');
  return !!lock && !lock.disabled && !!account && !account.disabled;
`;

/**
 * Installed before the page's own scripts (Chromium: page.addInitScript; Firefox: the first script of the page in the bench's copy of the add-on). Kept as text, not a function: the
 * bench runs under tsx, whose transform may add helpers to functions that do not exist in a page.
 */
export const PROBE = `(() => {
  const s = { fp: null, fcp: null, shell: null, interactive: null, homePainted: null, error: null };
  Object.defineProperty(window, '__xpcBench', { value: s });
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        if (e.name === 'first-paint' && s.fp === null) s.fp = e.startTime;
        if (e.name === 'first-contentful-paint' && s.fcp === null) s.fcp = e.startTime;
      }
    }).observe({ type: 'paint', buffered: true });
  } catch (e) {
    s.error = 'paint observer: ' + e;
  }
  const ready = () => { ${READY} };
  const observer = new MutationObserver(() => {
    if (s.shell === null && document.querySelector('nav.tabs')) s.shell = performance.now();
    if (s.interactive !== null || !ready()) return;
    s.interactive = performance.now();
    observer.disconnect();
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => { s.homePainted = performance.now(); };
      channel.port2.postMessage(null);
    });
  });
  observer.observe(document, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['disabled'] });
})();`;

export const PROBE_DONE = 'window.__xpcBench !== undefined && window.__xpcBench.homePainted !== null && window.__xpcBench.fcp !== null';

export interface Probe {
  fp: number | null;
  fcp: number | null;
  shell: number | null;
  interactive: number | null;
  homePainted: number | null;
  error: string | null;
  /** Navigation timing of the page, ms from its start. */
  domContentLoaded: number;
  load: number;
}

export const READ_PROBE = `(() => {
  const nav = performance.getEntriesByType('navigation')[0];
  return { ...window.__xpcBench, domContentLoaded: nav ? nav.domContentLoadedEventEnd : -1, load: nav ? nav.loadEventEnd : -1 };
})()`;

export /** PBKDF2-SHA256 with `iterations` to 256 bits, WebCrypto in the page, `runs` times; ms each. */
const pbkdf2Script = (iterations: number, runs: number): string => `(async () => {
  const out = [];
  const salt = crypto.getRandomValues(new Uint8Array(16));
  for (let i = 0; i < ${runs}; i++) {
    const t = performance.now();
    const base = await crypto.subtle.importKey('raw', new TextEncoder().encode('bench password ' + i), 'PBKDF2', false, ['deriveBits']);
    await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations: ${iterations} }, base, 256);
    out.push(performance.now() - t);
  }
  return out;
})()`;

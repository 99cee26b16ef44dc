// The floor under section 4's popup rows: a page of the extension holding one paragraph and one
// small module script, which asks the background the popup's own first question (wallet.open: the
// status and the cached balances) and writes one line of the answer. No popup can paint its home
// screen before such a page could: load an extension page, run a script, one runtime message round
// trip (the background reading the same session and cached balances), one frame. It is opened in
// turn with the popup, in the same browser, on the same wallet, warm and cold, so every popup row
// has its floor measured side by side. The page exists only in a copy of the built extension the
// bench makes for itself; nothing ships it.
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../test/e2e/harness.js';
import { type Stats, statsOf } from './measure.js';

export const FLOOR_PAGE = 'bench-floor.html';
/**
 * Under the floor: a page of the extension that does nothing but hold one paragraph (its one
 * classic script only watches for the first paint). Its first contentful paint is what the browser
 * itself takes to show a page of the extension, before any script of ours could count.
 */
export const EMPTY_PAGE = 'bench-empty.html';

const EMPTY_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>Bench empty page</title>
    <script src="/bench-empty.js"></script>
  </head>
  <body>
    <p>Nothing here.</p>
  </body>
</html>
`;

const EMPTY_JS = `const s = { fcp: null };
Object.defineProperty(window, '__xpcEmpty', { value: s });
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) if (e.name === 'first-contentful-paint' && s.fcp === null) s.fcp = e.startTime;
}).observe({ type: 'paint', buffered: true });
`;

const FLOOR_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>Bench floor</title>
    <script type="module" src="/bench-floor.js"></script>
  </head>
  <body>
    <p>Opening…</p>
  </body>
</html>
`;

// Marks the same moments the popup's probe does (bench/popup-timing.ts PROBE): first contentful
// paint, the answer in the DOM, and the end of the frame that shows it (requestAnimationFrame, then a task).
const FLOOR_JS = `const s = { fcp: null, answered: null, painted: null, error: null };
Object.defineProperty(window, '__xpcFloor', { value: s });
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) if (e.name === 'first-contentful-paint' && s.fcp === null) s.fcp = e.startTime;
}).observe({ type: 'paint', buffered: true });
const runtime = (globalThis.browser ?? globalThis.chrome).runtime;
runtime.sendMessage({ channel: 'xpc-wallet', type: 'wallet.open', params: {} }).then((answer) => {
  const balances = answer && answer.ok ? answer.result.balances : null;
  if (!balances) s.error = 'wallet.open answered without cached balances: ' + JSON.stringify(answer).slice(0, 200);
  document.querySelector('p').textContent = 'Balances of ' + (balances ? balances.balances.length : 0) + ' assets';
  s.answered = performance.now();
  requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => { s.painted = performance.now(); };
    channel.port2.postMessage(null);
  });
}, (e) => { s.error = String(e); });
`;

/**
 * A copy of the built extension at `dir` with the floor page added; the caller removes it. With
 * `probe`, the popup page (`popupPath`) and the floor page get it as their first script, a plain
 * one in the head, so it runs before any of the page's own (for a browser whose driver cannot
 * install a script ahead of an extension page's: Firefox over BiDi).
 */
export function extensionWithFloor(dir: string, probe?: { script: string; popupPath: string }): string {
  const copy = tempDir('xpc-bench-ext-');
  cpSync(dir, copy, { recursive: true });
  writeFileSync(join(copy, FLOOR_PAGE), FLOOR_HTML);
  writeFileSync(join(copy, 'bench-floor.js'), FLOOR_JS);
  writeFileSync(join(copy, EMPTY_PAGE), EMPTY_HTML);
  writeFileSync(join(copy, 'bench-empty.js'), EMPTY_JS);
  if (probe) {
    writeFileSync(join(copy, 'bench-probe.js'), probe.script);
    for (const page of [probe.popupPath, FLOOR_PAGE]) {
      const html = readFileSync(join(copy, page), 'utf8');
      if (!html.includes('<head>')) throw new Error(`${page} has no <head> to put the probe in`);
      writeFileSync(join(copy, page), html.replace('<head>', '<head>\n    <script src="/bench-probe.js"></script>'));
    }
  }
  return copy;
}

export const FLOOR_DONE = "window.__xpcFloor !== undefined && (window.__xpcFloor.error !== null || (window.__xpcFloor.painted !== null && window.__xpcFloor.fcp !== null))";
export const READ_FLOOR = '(() => ({ ...window.__xpcFloor }))()';
export const EMPTY_DONE = 'window.__xpcEmpty !== undefined && window.__xpcEmpty.fcp !== null';
export const READ_EMPTY_FCP = 'window.__xpcEmpty.fcp';

export interface FloorOpening {
  fcp: number;
  answered: number;
  painted: number;
}

/** Checks what the page recorded; an error in it is the bench's error, not a number. */
export function floorOpening(read: { fcp: number | null; answered: number | null; painted: number | null; error: string | null }): FloorOpening {
  if (read.error !== null) throw new Error(`the floor page: ${read.error}`);
  if (read.fcp === null || read.answered === null || read.painted === null) throw new Error('the floor page recorded no paint');
  return { fcp: read.fcp, answered: read.answered, painted: read.painted };
}

/** The floor's medians, as the popup rows use them. */
export interface FloorStats {
  fcp: Stats;
  answered: Stats;
  painted: Stats;
  coldPainted: Stats;
  /** The empty page's first contentful paint (EMPTY_PAGE), opened in turn with the warm openings. */
  emptyFcp: Stats;
}

/** The floor's medians from its openings: warm and cold floor pages, and the empty page's first paints. */
export function floorStats(warm: FloorOpening[], cold: FloorOpening[], emptyFcp: number[]): FloorStats {
  return {
    fcp: statsOf(warm.map((f) => f.fcp)),
    answered: statsOf(warm.map((f) => f.answered)),
    painted: statsOf(warm.map((f) => f.painted)),
    coldPainted: statsOf(cold.map((f) => f.painted)),
    emptyFcp: statsOf(emptyFcp),
  };
}

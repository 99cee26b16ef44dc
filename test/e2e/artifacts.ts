// Artifacts and logs of the real-browser suite (screenshots, console logs under test-artifacts/e2e),
// the wait for a quiet DOM, the steps' timings and the step runner that stops a flow at its first failure.
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { it, type TestContext } from 'vitest';
import { REPO_ROOT } from './harness.js';

export const ARTIFACTS_DIR = join(REPO_ROOT, 'test-artifacts', 'e2e');

export function artifactPath(name: string): string {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  return join(ARTIFACTS_DIR, name);
}

/** Removes a browser's artifacts of an earlier run, so that what is there is from this one. */
export function clearArtifacts(prefix: string): void {
  if (!existsSync(ARTIFACTS_DIR)) return;
  for (const name of readdirSync(ARTIFACTS_DIR)) {
    if (name.startsWith(prefix)) rmSync(join(ARTIFACTS_DIR, name), { force: true });
  }
}

/**
 * Runs IN THE PAGE (pass it to page.evaluate): resolves once the page's DOM has not changed for
 * `quietMs`, or after `maxMs`. Used before screenshots, after the popup renders what it loads.
 */
export function domQuiet({ quietMs, maxMs }: { quietMs: number; maxMs: number }): Promise<void> {
  return new Promise((done) => {
    let timer: ReturnType<typeof setTimeout>;
    const finish = (): void => {
      observer.disconnect();
      clearTimeout(timer);
      clearTimeout(cap);
      done();
    };
    const observer = new MutationObserver(() => {
      clearTimeout(timer);
      timer = setTimeout(finish, quietMs);
    });
    observer.observe(document.documentElement, { subtree: true, childList: true, characterData: true, attributes: true });
    timer = setTimeout(finish, quietMs);
    const cap = setTimeout(finish, maxMs);
  });
}

/** Timestamped lines from the browser's pages, background and process output. */
export class ConsoleLog {
  readonly lines: string[] = [];
  readonly #start = Date.now();

  add(source: string, text: string): void {
    const t = ((Date.now() - this.#start) / 1000).toFixed(3).padStart(8);
    this.lines.push(`${t}s [${source}] ${text}`);
  }

  save(name: string): string {
    const path = artifactPath(name);
    writeFileSync(path, `${this.lines.join('\n')}\n`);
    return path;
  }
}

/**
 * Runs a suite's launch; when it fails, saves the console log as `<prefix>FAILED-launch.console.log`
 * and says where before failing the suite.
 */
export async function launchOrSaveLog(log: ConsoleLog, prefix: string, suite: string, launch: () => Promise<void>): Promise<void> {
  try {
    await launch();
  } catch (e) {
    const path = log.save(`${prefix}FAILED-launch.console.log`);
    console.error(`[e2e ${suite}] launch failed; console log: ${path}`);
    throw e;
  }
}

/** Wall-clock durations of the steps of one browser's flow, for the summary line. */
export class Timings {
  readonly #entries: [string, number][] = [];

  add(step: string, ms: number): void {
    this.#entries.push([step, ms]);
  }

  summary(browser: string): string {
    const total = this.#entries.reduce((sum, [, ms]) => sum + ms, 0);
    const parts = this.#entries.map(([step, ms]) => `${step} ${(ms / 1000).toFixed(2)}s`);
    return `[e2e ${browser}] ${(total / 1000).toFixed(2)}s in steps: ${parts.join(', ')}`;
  }
}

/**
 * Declares the steps of one flow as ordered tests: each step after a failed one is skipped (its
 * state builds on the earlier steps), and the first failure calls `onFailure` once (screenshots,
 * console log).
 */
export function flowSteps(timings: Timings, onFailure: (step: string) => Promise<void>) {
  let failedAt: string | undefined;
  return (name: string, body: (ctx: TestContext) => Promise<void>, timeoutMs?: number): void => {
    it(
      name,
      async (ctx) => {
        if (failedAt !== undefined) ctx.skip(`an earlier step failed: ${failedAt}`);
        ctx.onTestFailed(async () => {
          if (failedAt !== undefined) return;
          failedAt = name;
          await onFailure(name).catch((e: unknown) => console.error(`[e2e] could not save failure artifacts: ${String(e)}`));
        });
        const started = Date.now();
        await body(ctx);
        timings.add(name, Date.now() - started);
      },
      timeoutMs,
    );
  };
}

export function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60);
}

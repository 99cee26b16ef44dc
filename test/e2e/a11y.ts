// The accessibility audit of the browser suites: axe-core (Deque's rules engine, the one browsers'
// own audits build on) run inside the popup page on each screen. Serious and critical violations
// fail the step; the rest are logged.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect } from 'vitest';

const require = createRequire(import.meta.url);

/** axe-core's browser build, evaluated in the page (through the driver: the page's CSP does not apply). */
export const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AuditResult {
  /** Serious and critical violations, one line per element: `rule: selector (help)`. */
  blocking: string[];
  /** Moderate and minor ones, the same way. */
  other: string[];
  /** How many rules ran and passed: an audit that checked nothing is no audit. */
  passed: number;
}

/**
 * Runs IN THE PAGE (pass it to page.evaluate) once AXE_SOURCE has been evaluated there: the
 * WCAG 2.x A and AA rules and the best practices over the whole document.
 */
export async function auditInPage(): Promise<AuditResult> {
  type Node = { target: string[] };
  type Violation = { id: string; impact: string | null; help: string; nodes: Node[] };
  const axe = (globalThis as unknown as { axe: { run(context: Document, options: unknown): Promise<{ violations: Violation[]; passes: unknown[] }> } }).axe;
  const { violations, passes } = await axe.run(document, { resultTypes: ['violations'], runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } });
  const lines = (v: Violation) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')} (${v.help})`);
  const serious = (v: Violation) => v.impact === 'serious' || v.impact === 'critical';
  return { blocking: violations.filter(serious).flatMap(lines), other: violations.filter((v) => !serious(v)).flatMap(lines), passed: passes.length };
}

/** What both drivers' pages offer (Playwright's and Puppeteer's `evaluate`). */
interface EvaluatingPage {
  evaluate(script: string): Promise<unknown>;
  evaluate<T>(fn: () => T | Promise<T>): Promise<T>;
}

/**
 * axe-core over a page of the extension as it is now (an approval window): no serious or critical
 * violation, one h1; the minor ones go to `log`.
 */
export async function expectAccessible(page: unknown, name: string, log?: (line: string) => void): Promise<void> {
  const p = page as EvaluatingPage;
  if (!(await p.evaluate(() => 'axe' in globalThis))) await p.evaluate(AXE_SOURCE);
  expect(await p.evaluate(() => document.querySelectorAll('h1').length), `one h1 on ${name}`).toBe(1);
  const result = await p.evaluate(auditInPage);
  if (result.other.length > 0) log?.(`axe on ${name}, minor: ${result.other.join('; ')}`);
  expect(result.blocking.map((line) => `${name}: ${line}`)).toEqual([]);
  expect(result.passed, `rules axe checked on ${name}`).toBeGreaterThan(10);
}

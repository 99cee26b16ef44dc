// bench/results.md: a header saying where and when the numbers were taken, one table with every
// case, then detail tables and notes on each missed target (cause and plan).
import { execFileSync } from 'node:child_process';
import { cpus, totalmem } from 'node:os';

export type Met = 'yes' | 'no' | '—';

export interface Row {
  /** Issue section: 1 tx building, 2 decoding, 3 node, 4 extension (sizes, popup timing, unlock), 5 CI size check, 6 staking. */
  section: string;
  case: string;
  ours: string;
  reference: string;
  ratio: string;
  limit: string;
  met: Met;
  /** A footnote for the case (shown under the table). */
  note?: string;
}

export interface Report {
  startedAt: Date;
  runtimeMs: number;
  rows: Row[];
  /** Extra markdown blocks (detail tables), in order. */
  details: string[];
  /** Gaps and their causes, one markdown paragraph each. */
  notes: string[];
  /** More lines for the header's list (e.g. the browser a section ran in), without the "- ". */
  environment?: string[];
}

function git(args: string[]): string {
  try {
    return execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return '';
  }
}

export function machineLine(): string {
  const c = cpus();
  const model = c[0]?.model.trim() ?? 'unknown CPU';
  return `${c.length} cores (${model}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM, ${process.platform}/${process.arch}, Node ${process.version}`;
}

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function markdownTable(header: string[], rows: string[][]): string {
  return [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`)].join('\n');
}

export function renderReport(r: Report, avalanchejsVersion: string): string {
  const commit = git(['rev-parse', '--short', 'HEAD']);
  // The results file itself does not count: a run before this one may have left it changed.
  const dirty = git(['status', '--porcelain', '--', ':(top)', ':(top,exclude)bench/results.md']) !== '';
  const missed = r.rows.filter((x) => x.met === 'no').length;
  const footnotes: string[] = [];
  const tableRows = r.rows.map((x) => {
    let name = `${x.section}. ${x.case}`;
    if (x.note) {
      let n = footnotes.indexOf(x.note);
      if (n < 0) n = footnotes.push(x.note) - 1;
      name += ` [${n + 1}]`;
    }
    return [name, x.ours, x.reference, x.ratio, x.limit, x.met];
  });
  return [
    '# Benchmarks',
    '',
    `Written by \`npm run bench\` (bench/run.ts). Do not edit by hand.`,
    '',
    `- Date: ${r.startedAt.toISOString()}`,
    `- Machine: ${machineLine()}`,
    `- Code: ${commit || 'unknown commit'}${dirty ? ' plus uncommitted changes in the working tree' : ''}; reference @avalabs/avalanchejs ${avalanchejsVersion}`,
    ...(r.environment ?? []).map((line) => `- ${line}`),
    `- Whole bench: ${(r.runtimeMs / 1000).toFixed(0)} s; ${r.rows.filter((x) => x.met !== '—').length} rows with a target, ${missed} missed`,
    '',
    'Every comparison is measured side by side in one process, contenders interleaved round by round;',
    'the ratio is the judged number, absolute times are informative only. Times are median',
    '(p10–p90, n = samples); ratios are the median of per-round ratios (p10–p90). "faster" ratios',
    'are reference ÷ ours.',
    '',
    markdownTable(['case', 'ours', 'reference', 'ratio', 'limit / target', 'met?'], tableRows),
    '',
    ...footnotes.map((f, i) => `[${i + 1}] ${f}  `),
    '',
    ...r.details.flatMap((d) => [d, '']),
    ...(r.notes.length > 0 ? ['## Gaps: cause and plan', '', ...r.notes.flatMap((n) => [n, ''])] : []),
  ].join('\n');
}

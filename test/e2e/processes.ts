// Processes of the real-browser suite on Linux (/proc): a browser's process tree, its main process
// found by profile, each killed by its PID when it outlives the driver's close; and a timeout.
import { readdirSync, readFileSync } from 'node:fs';

function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid …": comm may hold spaces and parentheses, so read after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[1]);
  } catch {
    return undefined;
  }
}

function allPids(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    // A zombie still answers signal 0; it is dead for our purposes.
    return !/^\d+ \(.*\) Z/s.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** `pid` and every process below it, parents first. */
export function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const p of allPids()) {
    const parent = parentOf(p);
    if (parent === undefined) continue;
    const list = children.get(parent) ?? [];
    list.push(p);
    children.set(parent, list);
  }
  const out: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const p = queue.shift()!;
    out.push(p);
    queue.push(...(children.get(p) ?? []));
  }
  return out;
}

/** The main browser process of a Chromium started with this --user-data-dir (not its helpers). */
export function chromiumPidFor(profileDir: string): number | undefined {
  for (const pid of allPids()) {
    let cmdline: string[];
    try {
      cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    if (cmdline.includes(`--user-data-dir=${profileDir}`) && !cmdline.some((a) => a.startsWith('--type='))) return pid;
  }
  return undefined;
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '?';
  }
}

/**
 * Waits up to `graceMs` for the given processes to exit on their own (after the driver's close),
 * then kills what is left, each by its PID (SIGKILL), and waits until it is gone. Returns the
 * processes it had to kill, as "pid (command)".
 */
export async function killPids(pids: number[], graceMs = 3_000): Promise<string[]> {
  const graceEnd = Date.now() + graceMs;
  while (pids.some(isAlive) && Date.now() < graceEnd) await sleep(50);
  const killed: string[] = [];
  for (const pid of pids) {
    if (!isAlive(pid)) continue;
    const command = commandOf(pid);
    try {
      process.kill(pid, 'SIGKILL');
      killed.push(`${pid} (${command})`);
    } catch {
      /* gone meanwhile */
    }
  }
  const deadline = Date.now() + 5_000;
  while (pids.some(isAlive) && Date.now() < deadline) await sleep(50);
  return killed;
}

/** Resolves with `promise`, or rejects after `ms` with `what` in the message. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

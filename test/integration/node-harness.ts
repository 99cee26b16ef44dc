// Starts and stops a real single-node local network (avalanchego v1.15, Helicon) for the
// integration suite and for `npm run node`. The node runs on loopback with OS-chosen ports and an
// in-memory database in a fresh temp dir; it is stopped by its own PID (SIGTERM, then SIGKILL after
// a grace period).
//
// Helicon is unscheduled on `--network-id=local`, and that network takes no upgrade file, so the
// node runs a custom network ID with the local genesis (start time moved to now, so the genesis
// validators' one-year stakes are current) and an upgrade file that activates every upgrade,
// Helicon included, from genesis. docs/test-network.md says why and what follows.
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import contracts from '../fixtures/contracts.json' with { type: 'json' };
import { PERMIT2_ADDRESS } from '../../src/core/evm-calls.js';
import { LOCAL_NETWORK_ID } from '../../src/core/network.js';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const INSTALL_SCRIPT = join(REPO_ROOT, 'scripts', 'install-node.sh');

export interface StartOptions {
  /** Path to the avalanchego binary; built/located with scripts/install-node.sh when omitted. */
  binary?: string;
  /** Where the node's own logs and its stdout/stderr go (default: inside the data dir). */
  logDir?: string;
  /** Deadline for the node to become ready (default 90 s). */
  readyTimeoutMs?: number;
  /** Time between SIGTERM and SIGKILL when stopping (default 10 s). */
  stopGraceMs?: number;
  /** Keep the data dir after stop (for post-mortems). */
  keepDataDir?: boolean;
  /** HTTP API port; 0 (the default) lets the OS choose. `npm run node` uses 9650, the wallet's local preset. */
  httpPort?: number;
}

export interface LocalNode {
  url: string;
  pid: number;
  dataDir: string;
  /** File holding the node's stdout and stderr. */
  outputFile: string;
  /** Milliseconds from spawn to ready. */
  startupMs: number;
  stop(): Promise<void>;
}

/**
 * Runs scripts/install-node.sh (idempotent: prints the cached path at once when built) and returns
 * the binary path from its last stdout line. Rejects with the script's own explanation on failure.
 */
export function resolveNodeBinary(): Promise<string> {
  return new Promise((resolvePath, reject) => {
    execFile('bash', [INSTALL_SCRIPT], { cwd: REPO_ROOT, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) {
        reject(new Error(`scripts/install-node.sh failed (exit ${String(error.code ?? error.signal)}):\n${stderr.trim() || error.message}`));
        return;
      }
      const lines = stdout.trim().split('\n');
      const bin = lines[lines.length - 1]?.trim() ?? '';
      if (!bin || !existsSync(bin)) {
        reject(new Error(`scripts/install-node.sh did not print an existing binary path (got ${JSON.stringify(bin)}):\n${stderr.trim()}`));
        return;
      }
      resolvePath(bin);
    });
  });
}

/**
 * The node refuses to start if its --fd-limit (default 32768) is above the hard RLIMIT_NOFILE,
 * which is lower on many CI machines and containers; ask for what the system allows.
 */
function fdLimitFlag(): string[] {
  try {
    const hard = execFileSync('sh', ['-c', 'ulimit -Hn'], { encoding: 'utf8' }).trim();
    if (hard === 'unlimited') return [];
    const n = Number(hard);
    if (Number.isInteger(n) && n > 0) return [`--fd-limit=${Math.min(n, 32768)}`];
  } catch {
    /* fall through to the node's default */
  }
  return [];
}

/** The wallet's Local preset's network ID (any ID but mainnet's, Fuji's and local's takes an upgrade file). */
export const TEST_NETWORK_ID = LOCAL_NETWORK_ID;
/** Staking minimums short enough for a test to run a whole staking period (delegators; validators). */
export const TEST_MIN_STAKE_DURATION = '20s';
export const TEST_HELICON_MIN_STAKE_DURATION = '20s';
/** Every upgrade active from this time on, the C-Chain genesis timestamp (so SAE runs from block 0). */
const INITIALLY_ACTIVE = '2020-12-05T05:00:00Z';
const UPGRADE_TIMES = [
  'apricotPhase1Time', 'apricotPhase2Time', 'apricotPhase3Time', 'apricotPhase4Time', 'apricotPhase5Time',
  'apricotPhasePre6Time', 'apricotPhase6Time', 'apricotPhasePost6Time', 'banffTime', 'cortinaTime',
  'durangoTime', 'etnaTime', 'fortunaTime', 'graniteTime', 'heliconTime',
];

/** The upgrade file: every upgrade, Helicon last, active from genesis. */
export function heliconUpgradeConfig(): Record<string, string | number> {
  const config: Record<string, string | number> = Object.fromEntries(UPGRADE_TIMES.map((k) => [k, INITIALLY_ACTIVE]));
  config['apricotPhase4MinPChainHeight'] = 0;
  config['cortinaXChainStopVertexID'] = '11111111111111111111111111111111LpoYY';
  config['graniteEpochDuration'] = 30_000_000_000; // 30 s, in nanoseconds
  return config;
}

/**
 * The local genesis (installed beside the binary by install-node.sh) for TEST_NETWORK_ID, starting
 * now: with the file's own 2024 start time its validators' one-year stakes would have ended. Its
 * C-Chain holds the test stand-in for Permit2 at Permit2's address, where the wallet knows it.
 */
export function testGenesis(binary: string, nowSeconds = Math.floor(Date.now() / 1000)): Record<string, unknown> {
  const file = join(dirname(binary), 'genesis_local.json');
  if (!existsSync(file)) throw new Error(`no ${file}: run bash scripts/install-node.sh again (it installs the genesis beside the binary)`);
  const genesis = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const cChain = JSON.parse(genesis['cChainGenesis'] as string) as { alloc: Record<string, unknown> };
  cChain.alloc[PERMIT2_ADDRESS.slice(2)] = { balance: '0x0', code: contracts.contracts.TestPermit2.runtime };
  return { ...genesis, networkID: TEST_NETWORK_ID, startTime: nowSeconds - 60, cChainGenesis: JSON.stringify(cChain) };
}

function writeNetworkFiles(binary: string, dataDir: string): { genesisFile: string; upgradeFile: string } {
  const genesisFile = join(dataDir, 'genesis.json');
  const upgradeFile = join(dataDir, 'upgrade.json');
  writeFileSync(genesisFile, JSON.stringify(testGenesis(binary)));
  writeFileSync(upgradeFile, JSON.stringify(heliconUpgradeConfig()));
  return { genesisFile, upgradeFile };
}

function nodeArgs(binary: string, dataDir: string, logDir: string, httpPort: number): string[] {
  const { genesisFile, upgradeFile } = writeNetworkFiles(binary, dataDir);
  return [
    `--network-id=${TEST_NETWORK_ID}`,
    `--genesis-file=${genesisFile}`,
    `--upgrade-file=${upgradeFile}`,
    `--min-stake-duration=${TEST_MIN_STAKE_DURATION}`,
    `--helicon-min-stake-duration=${TEST_HELICON_MIN_STAKE_DURATION}`,
    '--sybil-protection-enabled=false',
    '--staking-ephemeral-cert-enabled=true',
    '--staking-ephemeral-signer-enabled=true',
    '--db-type=memdb',
    `--data-dir=${dataDir}`,
    `--log-dir=${logDir}`,
    '--public-ip=127.0.0.1',
    '--http-host=127.0.0.1',
    `--http-port=${httpPort}`,
    '--staking-host=127.0.0.1',
    '--staking-port=0',
    '--index-enabled=true',
    '--api-admin-enabled=true',
    '--proposervm-min-block-delay=0s',
    '--system-tracker-disk-required-available-space-percentage=0',
    '--system-tracker-disk-warning-available-space-percentage=0',
    // Health checks (and so /ext/health/readiness) run every 30 s by default: ready would lag
    // bootstrapping by up to 30 s.
    '--health-check-frequency=1s',
    '--log-level=info',
    '--log-display-level=warn',
    ...fdLimitFlag(),
  ];
}

// Every node this process started, so that exit and signals take them down too.
const running = new Map<number, ChildProcess>();
let hooksInstalled = false;

const SIGNAL_NUMBERS = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 } as const;

function signalAll(signal: NodeJS.Signals): void {
  for (const [pid, child] of running) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    try {
      process.kill(pid, signal);
    } catch {
      /* already gone */
    }
  }
}

function installExitHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  // Last resort: nothing may outlive this process.
  process.on('exit', () => signalAll('SIGKILL'));
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    const handler = (): void => {
      signalAll('SIGTERM');
      // If nobody else handles the signal, exit as the default would (the exit hook then
      // SIGKILLs whatever has not stopped yet).
      if (process.listenerCount(signal) <= 1) process.exit(128 + SIGNAL_NUMBERS[signal]);
    };
    process.on(signal, handler);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

function tail(file: string, lines = 30): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no output)';
  }
}

async function rpc(url: string, method: string, params: unknown): Promise<unknown> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    signal: AbortSignal.timeout(2000),
  });
  const body = (await res.json()) as { result?: unknown };
  return body.result;
}

/** Ready = /ext/health/readiness answers 200 AND info.isBootstrapped is true for X, P and C. */
async function isReady(url: string): Promise<{ ready: boolean; detail: string }> {
  try {
    const res = await fetch(`${url}/ext/health/readiness`, { signal: AbortSignal.timeout(2000) });
    const text = await res.text();
    if (res.status !== 200) return { ready: false, detail: `readiness HTTP ${res.status}: ${text.slice(0, 200)}` };
    for (const chain of ['X', 'P', 'C']) {
      const r = (await rpc(`${url}/ext/info`, 'info.isBootstrapped', { chain })) as { isBootstrapped?: boolean } | undefined;
      if (r?.isBootstrapped !== true) return { ready: false, detail: `${chain} not bootstrapped` };
    }
    return { ready: true, detail: 'ready' };
  } catch (e) {
    return { ready: false, detail: `not answering: ${(e as Error).message}` };
  }
}

function waitForExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((r) => {
    const timer = setTimeout(() => {
      child.removeListener('exit', onExit);
      r(false);
    }, ms);
    const onExit = (): void => {
      clearTimeout(timer);
      r(true);
    };
    child.once('exit', onExit);
  });
}

export async function startLocalNode(options: StartOptions = {}): Promise<LocalNode> {
  const binary = options.binary ?? (await resolveNodeBinary());
  if (!existsSync(binary)) throw new Error(`no avalanchego binary at ${binary} (run: bash scripts/install-node.sh)`);
  const readyTimeoutMs = options.readyTimeoutMs ?? 90_000;
  const grace = options.stopGraceMs ?? 10_000;
  const dataDir = mkdtempSync(join(tmpdir(), 'xpc-avalanchego-'));
  const logDir = options.logDir ?? join(dataDir, 'logs');
  mkdirSync(logDir, { recursive: true });
  const outputFile = join(logDir, `node-${Date.now()}.out`);
  const out = openSync(outputFile, 'a');

  installExitHooks();
  const started = Date.now();
  const child = spawn(binary, nodeArgs(binary, dataDir, logDir, options.httpPort ?? 0), { stdio: ['ignore', out, out] });
  closeSync(out);
  let spawnError: Error | undefined;
  child.on('error', (e) => (spawnError = e));
  const pid = child.pid;
  if (pid === undefined) {
    await new Promise((r) => setImmediate(r)); // let the spawn error arrive
    rmSync(dataDir, { recursive: true, force: true });
    throw new Error(`could not start ${binary}: ${spawnError?.message ?? 'no pid'}`);
  }
  running.set(pid, child);

  let keepDataDir = options.keepDataDir ?? false;
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    if (child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        /* gone */
      }
      if (!(await waitForExit(child, grace))) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          /* gone */
        }
        await waitForExit(child, 5_000);
      }
    }
    running.delete(pid);
    if (!keepDataDir) rmSync(dataDir, { recursive: true, force: true });
  };

  const fail = async (why: string): Promise<never> => {
    const output = tail(outputFile);
    keepDataDir = true; // keep the logs for whoever reads the message
    await stop();
    throw new Error(`avalanchego did not become ready: ${why}\n--- last output (${outputFile}) ---\n${output}\n(data dir kept: ${dataDir})`);
  };

  // 1. The node writes its chosen URI to <data-dir>/process.json once the HTTP server is up.
  const deadline = started + readyTimeoutMs;
  const processFile = join(dataDir, 'process.json');
  let url: string | undefined;
  while (!url) {
    if (spawnError) return fail(`spawn failed: ${spawnError.message}`);
    if (child.exitCode !== null || child.signalCode !== null) {
      return fail(`the process exited (${child.exitCode ?? child.signalCode}) before serving its API`);
    }
    if (Date.now() > deadline) return fail(`no ${processFile} within ${readyTimeoutMs} ms`);
    if (existsSync(processFile)) {
      try {
        const info = JSON.parse(readFileSync(processFile, 'utf8')) as { uri?: unknown; pid?: unknown };
        if (typeof info.uri === 'string' && info.uri.startsWith('http')) {
          if (info.pid !== undefined && info.pid !== pid) return fail(`process.json names pid ${String(info.pid)}, we started ${pid}`);
          url = info.uri.replace(/\/+$/, '');
          break;
        }
      } catch {
        /* half-written: try again */
      }
    }
    await sleep(50);
  }

  // 2. Ready and bootstrapped.
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) return fail(`the process exited (${child.exitCode ?? child.signalCode})`);
    const r = await isReady(url);
    if (r.ready) break;
    if (Date.now() > deadline) return fail(`not ready within ${readyTimeoutMs} ms; last: ${r.detail}`);
    await sleep(100);
  }

  return { url, pid, dataDir, outputFile, startupMs: Date.now() - started, stop };
}

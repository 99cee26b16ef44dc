#!/usr/bin/env node
// `npm start`: builds the extension for both browsers, then runs a local node (`npm run node`)
// in the foreground until Ctrl-C. The e2e work will add launching a browser with the extension.
import { spawn, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

// Under `npm start`, npm tells us which npm to run; otherwise fall back to the one on PATH.
function npmCommand(args) {
  const npmCli = process.env.npm_execpath;
  return npmCli && /\.c?js$/.test(npmCli)
    ? { cmd: process.execPath, args: [npmCli, ...args] }
    : { cmd: 'npm', args };
}

const build = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], {
  cwd: ROOT,
  stdio: 'inherit',
});
if (build.status !== 0) {
  console.error('start: build failed; not starting the node.');
  process.exit(build.status ?? 1);
}

console.log(`
start: extension built.
  Chrome/Chromium: open chrome://extensions, turn on Developer mode, "Load unpacked" and pick
                   ${join(ROOT, 'dist', 'chrome')}
  Firefox:         open about:debugging#/runtime/this-firefox, "Load Temporary Add-on…" and pick
                   ${join(ROOT, 'dist', 'firefox', 'manifest.json')}
  (Launching a browser with the wallet loaded comes with the e2e work.)
start: starting the local node (Ctrl-C to stop)…
`);

const { cmd, args } = npmCommand(['run', 'node']);
const node = spawn(cmd, args, { cwd: ROOT, stdio: 'inherit' });

// The child shares the terminal, so Ctrl-C reaches it directly; forward signals sent to us alone.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (node.exitCode === null) node.kill(signal);
  });
}

node.on('error', (err) => {
  console.error(`start: could not run "npm run node": ${err.message}`);
  process.exit(1);
});
node.on('exit', (code, signal) => {
  // Stopped by Ctrl-C or a plain kill counts as a normal end; any other signal is a failure.
  process.exit(code ?? (signal === 'SIGINT' || signal === 'SIGTERM' ? 0 : 1));
});

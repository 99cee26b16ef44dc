#!/usr/bin/env node
// `npm start`: builds the extension for both browsers, starts the local network on
// 127.0.0.1:9650 (the wallet's "Local network" preset), then opens a browser with the wallet
// loaded in a fresh profile and its page open. Ctrl-C (or closing the browser, then Ctrl-C)
// stops everything.
//
//   npm start                 Chromium (Debian's chromium, or Chrome/Chromium on PATH)
//   npm start -- --firefox    Firefox ESR, the add-on installed as a temporary add-on (web-ext run)
//   npm start -- --no-browser build and run the node only
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { unpackedExtensionId } from './extension-id.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = new Set(process.argv.slice(2));
const browserChoice = args.has('--no-browser') ? 'none' : args.has('--firefox') ? 'firefox' : 'chromium';

const CHROMIUM_CANDIDATES = ['/usr/lib/chromium/chromium', '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];
const FIREFOX_CANDIDATES = ['/usr/bin/firefox-esr', '/usr/bin/firefox'];

// Under `npm start`, npm tells us which npm to run; otherwise fall back to the one on PATH.
function npmCommand(npmArgs) {
  const npmCli = process.env.npm_execpath;
  return npmCli && /\.c?js$/.test(npmCli) ? { cmd: process.execPath, args: [npmCli, ...npmArgs] } : { cmd: 'npm', args: npmArgs };
}

const children = [];
const tempDirs = [];
function stopAll(code) {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  process.exit(code);
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stopAll(0));

const build = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, stdio: 'inherit' });
if (build.status !== 0) {
  console.error('start: build failed; nothing started.');
  process.exit(build.status ?? 1);
}

console.log('start: extension built; starting the local network on http://127.0.0.1:9650 …');
const { cmd, args: nodeArgs } = npmCommand(['run', '--silent', 'node']);
const node = spawn(cmd, nodeArgs, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, XPC_NODE_PORT: '9650' } });
children.push(node);
node.on('error', (err) => {
  console.error(`start: could not run "npm run node": ${err.message}`);
  stopAll(1);
});
node.on('exit', (code) => {
  console.error(`start: the node stopped (exit ${code}).`);
  stopAll(code ?? 1);
});

let launched = false;
let pending = '';
node.stdout.on('data', (chunk) => {
  process.stdout.write(chunk);
  pending += chunk.toString();
  if (!launched && /avalanchego ready/.test(pending) && /Ctrl-C to stop/.test(pending)) {
    launched = true;
    openBrowser();
  }
});

function firstExisting(paths) {
  return paths.find((p) => existsSync(p));
}

function hasDisplay() {
  return process.platform !== 'linux' || Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
}

function printManualSteps() {
  console.log(`
start: load the wallet by hand:
  Chrome/Chromium: chrome://extensions → Developer mode → "Load unpacked" → ${join(ROOT, 'dist', 'chrome')}
  Firefox:         about:debugging#/runtime/this-firefox → "Load Temporary Add-on…" → ${join(ROOT, 'dist', 'firefox', 'manifest.json')}`);
}

function printKeyHelp() {
  console.log(`
start: the wallet opens on the "Local network" (127.0.0.1:9650). To use the funded test key:
  on the first screen choose "Import a private key" and paste the private key printed above
  (PrivateKey-ewoq…; public knowledge, for this local network only). Or create a new wallet and
  send it funds from a wallet holding that key.
start: Ctrl-C stops the node${browserChoice === 'none' ? '' : ' and the browser'}.`);
}

function openBrowser() {
  if (browserChoice === 'none') {
    printManualSteps();
    printKeyHelp();
    return;
  }
  if (!hasDisplay()) {
    console.log('start: no display (DISPLAY/WAYLAND_DISPLAY unset), so no browser is opened.');
    printManualSteps();
    printKeyHelp();
    return;
  }
  if (browserChoice === 'firefox') {
    const firefox = firstExisting(FIREFOX_CANDIDATES);
    if (!firefox) {
      console.log('start: Firefox not found (bash scripts/browsers.sh installs firefox-esr).');
      printManualSteps();
      printKeyHelp();
      return;
    }
    const webExt = join(ROOT, 'node_modules', '.bin', 'web-ext');
    const ff = spawn(webExt, ['run', '--source-dir', join(ROOT, 'dist', 'firefox'), '--firefox', firefox, '--no-reload', '--start-url', 'about:addons'], { cwd: ROOT, stdio: 'inherit' });
    children.push(ff);
    console.log(`start: Firefox (${firefox}) with the wallet as a temporary add-on; open it from the toolbar's extensions menu.`);
    printKeyHelp();
    return;
  }
  const chromium = firstExisting(CHROMIUM_CANDIDATES);
  if (!chromium) {
    console.log('start: Chromium not found (bash scripts/browsers.sh installs Debian\'s chromium).');
    printManualSteps();
    printKeyHelp();
    return;
  }
  const extensionDir = join(ROOT, 'dist', 'chrome');
  const profile = mkdtempSync(join(tmpdir(), 'xpc-wallet-profile-'));
  tempDirs.push(profile);
  const popupUrl = `chrome-extension://${unpackedExtensionId(extensionDir)}/src/popup/index.html`;
  const browser = spawn(
    chromium,
    [
      `--user-data-dir=${profile}`,
      `--disable-extensions-except=${extensionDir}`,
      `--load-extension=${extensionDir}`,
      '--no-first-run',
      '--no-default-browser-check',
      popupUrl,
    ],
    { stdio: 'ignore' },
  );
  children.push(browser);
  browser.on('exit', () => console.log('start: the browser closed; the node keeps running (Ctrl-C to stop).'));
  console.log(`start: Chromium (${chromium}) with the wallet loaded, fresh profile ${profile}, the wallet at ${popupUrl}`);
  printKeyHelp();
}

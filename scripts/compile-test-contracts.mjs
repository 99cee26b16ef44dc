#!/usr/bin/env node
// Compiles the test contracts (test/fixtures/contracts/*.sol, written for this project) into
// test/fixtures/contracts.json: each contract's ABI and creation bytecode (and the runtime code of
// those the test genesis places at a fixed address, GENESIS_CODE), with the compiler
// version, its settings and each source's SHA-256 (test/unit/evm-tokens.test.ts checks that
// the sources still match what was compiled).
//
// solc is not a dependency of the project (9 MB for a step that runs only when a test contract
// changes). To recompile: `npm install --no-save solc@0.8.37` (or point XPC_SOLC at a directory
// holding that package), then `node scripts/compile-test-contracts.mjs`.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DIR = join(ROOT, 'test', 'fixtures', 'contracts');
const OUT = join(ROOT, 'test', 'fixtures', 'contracts.json');
const VERSION = '0.8.37';
/** Contracts whose runtime code the test network's genesis holds (test/integration/node-harness.ts). */
const GENESIS_CODE = new Set(['TestPermit2']);

const require = createRequire(process.env.XPC_SOLC ? join(process.env.XPC_SOLC, 'x.js') : import.meta.url);
const solc = require('solc');
if (!solc.version().startsWith(`${VERSION}+`)) throw new Error(`solc ${VERSION} is needed, found ${solc.version()}`);

const settings = { optimizer: { enabled: true, runs: 200 }, evmVersion: 'cancun', outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } } };
const files = readdirSync(DIR).filter((f) => f.endsWith('.sol')).sort();
const sources = Object.fromEntries(files.map((f) => [f, { content: readFileSync(join(DIR, f), 'utf8') }]));
const output = JSON.parse(solc.compile(JSON.stringify({ language: 'Solidity', sources, settings })));
const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
if (errors.length) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
const contracts = {};
for (const f of files) {
  for (const [name, c] of Object.entries(output.contracts[f] ?? {})) {
    if (c.evm.bytecode.object === '') continue;
    contracts[name] = { source: f, abi: c.abi, bytecode: `0x${c.evm.bytecode.object}`, ...(GENESIS_CODE.has(name) ? { runtime: `0x${c.evm.deployedBytecode.object}` } : {}) };
  }
}
const sha256 = Object.fromEntries(files.map((f) => [f, createHash('sha256').update(sources[f].content).digest('hex')]));
writeFileSync(OUT, `${JSON.stringify({ compiler: solc.version(), settings, sha256, contracts }, null, 1)}\n`);
console.log(`wrote ${OUT}: ${Object.keys(contracts).join(', ')}`);

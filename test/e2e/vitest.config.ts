// The real-browser suite: `npm run test:e2e` (after `npm run build`).
// Its own config, apart from the root vitest.config.ts, because it needs the built extension and
// the Debian browsers (scripts/browsers.sh) on top of what the integration project needs. It
// shares the integration project's globalSetup: one local avalanchego for the run, its URL
// handed to the tests as inject('nodeUrl').
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export default defineConfig({
  root: ROOT,
  test: {
    name: 'e2e',
    include: ['test/e2e/**/*.e2e.test.ts'],
    environment: 'node',
    globalSetup: ['test/e2e/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // One node and one browser at a time: balances stay predictable and the machine stays calm.
    fileParallelism: false,
  },
});

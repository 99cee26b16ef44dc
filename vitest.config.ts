import { defineConfig } from 'vitest/config';

// Kept apart from the extension's vite.config.ts: the crx plugin has no place in Node tests.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts', 'test/unit/**/*.test.tsx'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/integration/global-setup.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
          // One node is shared by the run; files run one at a time so balances stay predictable.
          fileParallelism: false,
        },
      },
    ],
  },
});

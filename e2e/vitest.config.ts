import { defineConfig } from 'vitest/config';

/**
 * Browser tests: `npm run test:e2e` (step 7 of `npm test`). One gateway for the whole run, started from the bundle
 * `npm start` runs (globalSetup), files one after another, each in its own browser context(s).
 */
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    globalSetup: ['e2e/globalSetup.ts'],
    fileParallelism: false,
    maxWorkers: 1,
    testTimeout: 90_000,
    hookTimeout: 180_000,
    pool: 'forks',
  },
});

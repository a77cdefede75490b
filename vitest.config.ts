import { defineConfig } from 'vitest/config';

/** Server tests: schema/ and gateway/ (browser tests have their own config in e2e/). */
export default defineConfig({
  test: {
    include: ['schema/src/**/*.test.ts', 'gateway/src/**/*.test.ts', 'scripts/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    maxWorkers: 2,
  },
});

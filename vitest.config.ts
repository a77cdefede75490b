import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

/** Server tests: schema/ and gateway/ (browser tests have their own config in e2e/). */
export default defineConfig({
  resolve: {
    // graphql 16 has no "exports": Node loads index.js (CommonJS) while Vite would pick "module" (index.mjs).
    // Two copies of graphql break schema checks ("from another module or realm"), so tests use Node's copy.
    // Only the bare name: a deep import of a CommonJS file (graphql/execution/collectFields.js) is already that copy.
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
  },
  test: {
    include: ['schema/src/**/*.test.ts', 'gateway/src/**/*.test.ts', 'gateway/test/**/*.test.ts', 'scripts/**/*.test.ts', 'web/src/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    maxWorkers: 2,
  },
});

import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);
const GRAPHQL_DIR = dirname(require.resolve('graphql'));

/**
 * Browser tests: `npm run test:e2e` (step 5 of `npm test`). One real gateway for the whole run (globalSetup),
 * files one after another, each in its own browser context(s).
 */
export default defineConfig({
  resolve: {
    // As in the server suite's config: the gateway started by globalSetup must load Node's (CommonJS) copy of
    // graphql only. Vite would pick index.mjs for gateway sources, and a second copy breaks the websocket server's
    // validation of subscriptions ("Cannot use GraphQLSchema ... from another module or realm").
    // Deep imports too (graphql-armor imports graphql/language/parser).
    alias: [
      { find: /^graphql$/, replacement: `${GRAPHQL_DIR}/index.js` },
      { find: /^graphql\/(.+?)(\.js)?$/, replacement: `${GRAPHQL_DIR}/$1.js` },
    ],
  },
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

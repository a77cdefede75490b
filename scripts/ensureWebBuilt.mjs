// Builds the web app only when web/dist is missing or older than its sources, so a restart is fast. `npm start`
// and the browser tests (e2e/globalSetup.ts) both call it, so the suite tests the build a user gets.
import { existsSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT, newestMtime } from '../gateway/bundle.mjs';

const built = join(REPO_ROOT, 'web/dist/index.html');
const sources = ['web/src', 'web/index.html', 'web/vite.config.ts', 'web/public', 'web/explorer', 'schema/src/validation'].map((path) => join(REPO_ROOT, path));

export function ensureWebBuilt() {
  const builtAt = existsSync(built) ? statSync(built).mtimeMs : 0;
  if (builtAt > Math.max(...sources.map(newestMtime))) return;
  console.log(builtAt ? 'Web sources changed: rebuilding the web app...' : 'Building the web app (first start)...');
  // Always the production build: under a test runner NODE_ENV=test would make Vite bundle React's development build.
  const result = spawnSync('npm', ['run', 'build', '--workspace', 'web'], {
    cwd: REPO_ROOT,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

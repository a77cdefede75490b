// Builds the web app only when web/dist is missing or older than its sources, so a restart is fast.
import { existsSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { newestMtime } from '../gateway/bundle.mjs';

const built = 'web/dist/index.html';
const sources = ['web/src', 'web/index.html', 'web/vite.config.ts', 'web/public', 'web/explorer', 'schema/src/validation'];

export function ensureWebBuilt() {
  const builtAt = existsSync(built) ? statSync(built).mtimeMs : 0;
  if (builtAt > Math.max(...sources.map(newestMtime))) return;
  console.log(builtAt ? 'Web sources changed: rebuilding the web app...' : 'Building the web app (first start)...');
  const result = spawnSync('npm', ['run', 'build', '--workspace', 'web'], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

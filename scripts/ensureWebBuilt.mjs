// `npm start` builds the web app only when web/dist is missing or older than its sources, so a restart is fast.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const built = 'web/dist/index.html';
const sources = ['web/src', 'web/index.html', 'web/vite.config.ts', 'web/public', 'web/explorer', 'schema/src/validation'];

function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newest(join(path, name))));
}

const builtAt = existsSync(built) ? statSync(built).mtimeMs : 0;
if (builtAt > Math.max(...sources.map(newest))) process.exit(0);
console.log(builtAt ? 'Web sources changed: rebuilding the web app...' : 'Building the web app (first start)...');
const result = spawnSync('npm', ['run', 'build', '--workspace', 'web'], { stdio: 'inherit' });
process.exit(result.status ?? 1);

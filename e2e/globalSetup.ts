/**
 * Starts the real gateway once for all browser tests: 127.0.0.1, a free port, a fresh temp DATA_DIR with the
 * demo seed, serving the built web app. Builds web/dist first when it is missing or older than its sources
 * (`npm test` builds it anyway; this keeps `npm run test:e2e` honest on its own).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startGateway } from '../gateway/src/app';

const ROOT = resolve(import.meta.dirname, '..');
const WEB = join(ROOT, 'web');
const DIST_INDEX = join(WEB, 'dist', 'index.html');

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

function ensureWebBuilt(): void {
  const sources = [
    join(WEB, 'src'),
    join(WEB, 'index.html'),
    join(WEB, 'vite.config.ts'),
    join(WEB, 'public'),
    join(WEB, 'explorer'),
    join(ROOT, 'schema', 'src', 'validation'),
  ];
  const stale = !existsSync(DIST_INDEX) || Math.max(...sources.filter(existsSync).map(newestMtime)) > statSync(DIST_INDEX).mtimeMs;
  if (stale) {
    console.log('[e2e] building web/dist ...');
    // vitest sets NODE_ENV=test, which would make Vite bundle React's development build (StrictMode double effects).
    execFileSync('npm', ['run', 'build', '--workspace', 'web'], { cwd: ROOT, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
  }
}

export default async function setup(project: TestProject) {
  ensureWebBuilt();
  const dataDir = mkdtempSync(join(tmpdir(), 'fulcrum-e2e-'));
  const gateway = await startGateway({
    port: 0,
    host: '127.0.0.1',
    dataDir,
    demo: true,
    webDist: join(WEB, 'dist'),
    logErrors: process.env.FULCRUM_TEST_LOG === '1',
    // Many logins from 127.0.0.1 in one run: generous limits, like the server suite's harness.
    authLimits: { loginFailuresPerAccount: 1000, loginFailuresPerIp: 10000, signupsPerIp: 10000, windowSeconds: 60 },
    // Webhook receivers of the e2e tests listen on 127.0.0.1 (docs/webhooks.md, allowlisting).
    webhooks: { allowHosts: '127.0.0.1' },
  });
  project.provide('baseURL', gateway.url);
  return async () => {
    await gateway.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
}

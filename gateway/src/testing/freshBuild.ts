/**
 * A test gateway serving a fresh production build of web/ (the app, or the explorer), made into a temp folder for
 * the file's tests, so they check what the sources and the Vite configs make today, not a stale web/dist.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { REPO_ROOT } from './processes.js';
import { startTestGateway, type TestGateway } from './harness.js';

const BUILDS = {
  /** web/vite.config.ts: the agents' app, with its compressed copies. */
  app: (out: string) => ['--outDir', out],
  /** web/explorer/vite.config.ts: the GraphQL explorer, served under /graphiql. */
  explorer: (out: string) => ['-c', 'explorer/vite.config.ts', '--outDir', join(out, 'graphiql')],
};

/** Registers the build and the gateway (beforeAll) and their removal (afterAll); returns the running gateway's getter. */
export function useGatewayOnFreshBuild(build: keyof typeof BUILDS): { gateway(): TestGateway; webDist(): string } {
  let webDist: string;
  let gw: TestGateway;
  beforeAll(async () => {
    webDist = mkdtempSync(join(tmpdir(), `fulcrum-${build}-`));
    execFileSync('npx', ['vite', 'build', ...BUILDS[build](webDist), '--emptyOutDir', '--logLevel', 'error'], {
      cwd: join(REPO_ROOT, 'web'),
      env: { ...process.env, NODE_ENV: 'production' },
      stdio: 'pipe',
    });
    gw = await startTestGateway({ webDist });
  }, 180_000);
  afterAll(async () => {
    await gw?.destroy();
    rmSync(webDist, { recursive: true, force: true });
  });
  return { gateway: () => gw, webDist: () => webDist };
}

/** Scenario 7: `npm start` to the first answered request, on an empty and on an existing DATA_DIR. */
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { sleep } from '../../gateway/src/testing/measure.js';
import { bundleServer, freePort } from '../../gateway/src/testing/processes.js';
import { rows, tmp } from '../context.js';
import { log, ROOT } from '../lib.js';

/**
 * Time from spawning `command` to its first answer on /api/auth/, polled every 10 ms: what a user waits for,
 * so not the "listening" line the test kit's startProcess waits for (npm and its shell print before the server).
 */
async function timeToFirstAnswer(command: string, args: string[], env: Record<string, string>, port: number): Promise<{ ms: number; log: string }> {
  const t0 = performance.now();
  const proc = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  proc.stdout.on('data', (c) => (output += c));
  proc.stderr.on('data', (c) => (output += c));
  let exited = false;
  proc.on('exit', () => (exited = true));
  try {
    for (;;) {
      if (exited) throw new Error(`${command} ${args.join(' ')} exited before answering:\n${output.slice(-2000)}`);
      if (performance.now() - t0 > 120_000) throw new Error(`${command} ${args.join(' ')}: no answer in 120 s`);
      try {
        const res = await fetch(`http://127.0.0.1:${port}/api/auth/`);
        await res.text();
        return { ms: performance.now() - t0, log: output };
      } catch {
        await sleep(10);
      }
    }
  } finally {
    // The whole process group we started (npm, its shell, tsx, node).
    try {
      process.kill(-proc.pid!, 'SIGTERM');
    } catch {
      // already gone
    }
    await new Promise((r) => (exited ? r(null) : proc.once('exit', r)));
  }
}

export async function start(): Promise<void> {
  const fresh = join(tmp, 'start');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const env = { DATA_DIR: fresh, NODE_ENV: 'production' };
  const first = await timeToFirstAnswer(npm, ['start', '--silent'], env, await freePort());
  log(`  7. npm start, empty DATA_DIR: first answer after ${(first.ms / 1000).toFixed(2)} s`);
  const again = await timeToFirstAnswer(npm, ['start', '--silent'], env, await freePort());
  log(`  7. npm start, existing DATA_DIR: first answer after ${(again.ms / 1000).toFixed(2)} s`);
  const gatewayOnly = await timeToFirstAnswer(process.execPath, ['--import', 'tsx', 'gateway/src/main.ts'], env, await freePort());
  log(`  7. gateway under tsx (node --import tsx gateway/src/main.ts), existing DATA_DIR: ${(gatewayOnly.ms / 1000).toFixed(2)} s`);
  // The bundle alone (gateway/bundle.mjs, what `npm start` runs once it is up to date), started by plain node.
  let bundled: number | undefined;
  try {
    const outfile = await bundleServer(`fulcrum-bench-${process.pid}`);
    try {
      bundled = (await timeToFirstAnswer(process.execPath, [outfile], env, await freePort())).ms;
      log(`  7. gateway bundled with esbuild, plain node, existing DATA_DIR: ${(bundled / 1000).toFixed(2)} s`);
    } finally {
      rmSync(dirname(outfile), { recursive: true, force: true });
    }
  } catch (error) {
    log(`  7. bundled start not measured: ${(error as Error).message.split('\n')[0]}`);
  }
  const builds = /build/.test(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.start);
  rows.push({
    scenario: '7. Start: `npm start` → first answered request, empty DATA_DIR (migrate + demo seed)',
    value: `${(first.ms / 1000).toFixed(2)} s`,
    budget: '< 3 s',
    met: first.ms < 3000,
    note: builds ? 'the start script builds the web app first' : undefined,
  });
  rows.push({
    scenario: '7. Start: `npm start` → first answered request, existing DATA_DIR',
    value: `${(again.ms / 1000).toFixed(2)} s`,
    budget: '< 3 s',
    met: again.ms < 3000,
  });
  rows.push({
    scenario: '7. Start: the gateway under tsx (`node --import tsx gateway/src/main.ts`, no bundle), existing DATA_DIR',
    value: `${(gatewayOnly.ms / 1000).toFixed(2)} s`,
    budget: '—',
    met: null,
  });
  if (bundled !== undefined) {
    rows.push({
      scenario: '7. Start: the gateway bundled with esbuild, plain `node` (no tsx loader), existing DATA_DIR',
      value: `${(bundled / 1000).toFixed(2)} s`,
      budget: '—',
      met: null,
      note: 'the gateway bundle alone (gateway/bundle.mjs), without npm and its up-to-date checks',
    });
  }
}

/**
 * scripts/withTestServices.sh on its provisioning path, on a machine where PostgreSQL and Redis may well be running:
 * FULCRUM_TEST_DEFAULT_PG_PORT / _REDIS_PORT point the default addresses at closed ports, so the script finds
 * nothing and starts private servers. Real PostgreSQL + Redis test files pass on them; afterwards (success, failure,
 * Ctrl-C) the servers are stopped, their ports closed and their temp dir removed. A variable that is set but does
 * not answer still fails plainly, before anything is started.
 * Runs in the SQLite pass of `npm test` only: it starts its own servers, so the second pass would only repeat it.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import { resolve } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const SCRIPT = 'scripts/withTestServices.sh';
// Two real test files that need both servers: migrations on PostgreSQL, and the Redis event bus between gateways
// on PostgreSQL.
const PG_AND_REDIS_TESTS = ['schema/src/migrations/migrations.test.ts', 'gateway/test/scaleout/bus.test.ts'];

/** A port on 127.0.0.1 that nothing listens on (taken from the OS, then released). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((done) => server.close(done));
  return port;
}

async function answers(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => (socket.destroy(), done(true)));
    socket.once('error', () => done(false));
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

interface Run {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** What the script said it started (absent when it started nothing). */
  workdir?: string;
  pg?: { port: number; pid: number };
  redis?: { port: number; pid: number };
}

/** Runs the script in a process group of its own (like a terminal job); `onReady` may signal that group. */
async function runScript(command: string[], env: Record<string, string | undefined>, onReady?: (pgid: number) => void): Promise<Run> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST') && !key.startsWith('FULCRUM_TEST_')));
  const child = spawn('bash', [SCRIPT, ...command], { cwd: ROOT, env: { ...base, ...env }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const run: Run = { status: null, signal: null, stdout: '', stderr: '' };
  child.stdout.on('data', (chunk: Buffer) => (run.stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => {
    run.stderr += chunk.toString();
    if (onReady && /private servers ready/.test(run.stderr)) {
      const ready = onReady;
      onReady = undefined;
      ready(child.pid!);
    }
  });
  [run.status, run.signal] = await new Promise<[number | null, NodeJS.Signals | null]>((done) => child.on('close', (code, signal) => done([code, signal])));
  run.workdir = /\[test services\] workdir (\S+)/.exec(run.stderr)?.[1];
  const pg = /PostgreSQL: postgres:\/\/postgres@127\.0\.0\.1:(\d+)\/test \(pid (\d+)/.exec(run.stderr);
  const redis = /Redis: redis:\/\/127\.0\.0\.1:(\d+) \(pid (\d+)/.exec(run.stderr);
  if (pg) run.pg = { port: Number(pg[1]), pid: Number(pg[2]) };
  if (redis) run.redis = { port: Number(redis[1]), pid: Number(redis[2]) };
  return run;
}

/** Everything the run started is gone: the process group, both servers, their ports and the temp dir. */
async function expectAllGone(run: Run, pgid?: number) {
  expect(run.workdir && existsSync(run.workdir)).toBe(false);
  expect(run.pg && alive(run.pg.pid)).toBe(false);
  expect(run.redis && alive(run.redis.pid)).toBe(false);
  expect(await answers(run.pg!.port)).toBe(false);
  expect(await answers(run.redis!.port)).toBe(false);
  if (pgid) expect(alive(-pgid)).toBe(false);
}

describe.skipIf(process.env.FULCRUM_TEST_DATABASE === 'postgres')('scripts/withTestServices.sh provisions its own servers', () => {
  it('nothing on the defaults: starts private PostgreSQL + Redis, real test files pass on them, then all is removed', { timeout: 240_000 }, async () => {
    const defaults = { FULCRUM_TEST_DEFAULT_PG_PORT: String(await closedPort()), FULCRUM_TEST_DEFAULT_REDIS_PORT: String(await closedPort()) };
    // The command proves the tests used the private servers: their counters before and after.
    const counters = [
      `psql "$FULCRUM_TEST_PG_URL" -tAc "select 'xact_commit:' || xact_commit from pg_stat_database where datname = 'test'"`,
      `redis-cli -u "$FULCRUM_TEST_REDIS_URL" info stats | grep -o 'total_connections_received:[0-9]*'`,
    ].join(' && ');
    const run = await runScript(['bash', '-c', `${counters} && npx vitest run ${PG_AND_REDIS_TESTS.join(' ')} && ${counters}; s=$?; ${counters}; exit $s`], {
      ...defaults,
      FULCRUM_TEST_DATABASE: 'postgres',
      FULCRUM_TEST_REDIS: '1',
    });
    expect(run.stderr).toContain(`PostgreSQL: nothing on 127.0.0.1:${defaults.FULCRUM_TEST_DEFAULT_PG_PORT}/test, FULCRUM_TEST_PG_URL unset`);
    expect(run.stderr).toContain(`Redis: nothing on 127.0.0.1:${defaults.FULCRUM_TEST_DEFAULT_REDIS_PORT}, FULCRUM_TEST_REDIS_URL unset`);
    expect(stripVTControlCharacters(run.stdout)).toMatch(/Test Files\s+2 passed \(2\)/);
    expect(run.status).toBe(0);
    const redisConnections = [...run.stdout.matchAll(/total_connections_received:(\d+)/g)].map((m) => Number(m[1]));
    expect(redisConnections[1] - redisConnections[0]).toBeGreaterThan(2); // the bus tests' connections
    const pgCommits = [...run.stdout.matchAll(/xact_commit:(\d+)/g)].map((m) => Number(m[1]));
    expect(pgCommits[1] - pgCommits[0]).toBeGreaterThan(2); // the tests' `create database` on the admin database
    expect(run.pg!.port).not.toBe(5432);
    await expectAllGone(run);
  });

  it('the command fails: its status is the script status, and the servers are removed all the same', { timeout: 60_000 }, async () => {
    const run = await runScript(['bash', '-c', 'exit 3'], {
      FULCRUM_TEST_DEFAULT_PG_PORT: String(await closedPort()),
      FULCRUM_TEST_DEFAULT_REDIS_PORT: String(await closedPort()),
    });
    expect(run.status).toBe(3);
    expect(run.stderr).toContain('private servers stopped');
    await expectAllGone(run);
  });

  it('Ctrl-C (SIGINT to the whole job) mid-run: the tests stop, the servers are stopped and removed', { timeout: 120_000 }, async () => {
    let pgid = 0;
    const run = await runScript(
      ['npx', 'vitest', 'run', 'gateway/test/scaleout/bus.test.ts'],
      {
        FULCRUM_TEST_DEFAULT_PG_PORT: String(await closedPort()),
        FULCRUM_TEST_DEFAULT_REDIS_PORT: String(await closedPort()),
        FULCRUM_TEST_DATABASE: 'postgres',
        FULCRUM_TEST_REDIS: '1',
      },
      (group) => {
        pgid = group;
        setTimeout(() => process.kill(-group, 'SIGINT'), 1500); // vitest is starting or running by then
      },
    );
    expect(pgid).toBeGreaterThan(0);
    expect(run.status).toBe(130);
    expect(run.stderr).toContain('private servers stopped');
    await expectAllGone(run, pgid);
  });

  it('a variable that is set but does not answer fails plainly; nothing is started', { timeout: 30_000 }, async () => {
    const port = await closedPort();
    const run = await runScript(['bash', '-c', 'echo ran'], { FULCRUM_TEST_PG_URL: `postgres://postgres@127.0.0.1:${port}/test` });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`PostgreSQL is NOT reachable at 127.0.0.1:${port}`);
    expect(run.stdout).not.toContain('ran');
    expect(run.workdir).toBeUndefined();
  });
});

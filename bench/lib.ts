/** Process plumbing for the bench: pinned children (on the test kit's startProcess), the load generators, memory, progress lines. */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { REPO_ROOT, startProcess, type StartedProcess } from '../gateway/src/testing/processes.js';
import { bundleGateway } from '../gateway/bundle.mjs';

export const ROOT = REPO_ROOT;

/** `taskset` pins the server to one core and the load to the other, where it exists and there are two cores. */
export const HAS_TASKSET = cpus().length >= 2 && spawnSync('taskset', ['-V']).status === 0;
const SERVER_CPU = '0';
export const LOAD_CPU = '1';

export function pinned(cpu: string, command: string, args: string[]): [string, string[]] {
  return HAS_TASKSET ? ['taskset', ['-c', cpu, command, ...args]] : [command, args];
}

export interface Child extends StartedProcess {
  pid: number;
  request<T>(type: string, extra?: Record<string, unknown>): Promise<T>;
}

/** Starts a node script pinned to the server core; resolves once it prints "READY <url>". Its requests go over IPC. */
export async function startChild(script: string, env: Record<string, string>, nodeArgs: string[] = []): Promise<Child> {
  const [command, args] = pinned(SERVER_CPU, process.execPath, [...nodeArgs, script]);
  const started = await startProcess(command, args, {
    name: script,
    env,
    cwd: ROOT,
    ready: /READY (\S+)/,
    ipc: true,
    // A 1,000,000-ticket workspace opens slowly on a loaded machine: the timeout only catches a hung start.
    timeoutMs: 10 * 60_000,
    onOutput: (chunk, stream) => process.env.BENCH_VERBOSE && (stream === 'stdout' ? process.stdout : process.stderr).write(chunk),
  });
  const proc = started.child;
  return {
    ...started,
    pid: proc.pid!,
    request: <T>(type: string, extra: Record<string, unknown> = {}) =>
      new Promise<T>((resolve) => {
        const listener = (message: { type: string }) => {
          if (message.type !== type) return;
          proc.off('message', listener);
          resolve(message as T);
        };
        proc.on('message', listener);
        proc.send({ type, ...extra });
      }),
  };
}

/** Runs a node script pinned to the load core to its end; resolves with its stdout (rejects on a non-zero exit). */
export function runPinned(args: string[], what: string): Promise<string> {
  const [command, argv] = pinned(LOAD_CPU, process.execPath, args);
  return new Promise<string>((resolve, reject) => {
    const proc = spawn(command, argv, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (c) => (stdout += c));
    proc.stderr.on('data', (c) => (stderr += c));
    proc.on('exit', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`${what} exited ${code}: ${stderr.slice(-2000)}`))));
  });
}

/** The last line a load script printed, as JSON. */
export const lastJsonLine = <T>(out: string): T => JSON.parse(out.trim().split('\n').pop()!) as T;

function gatewayEnv(dataDir: string, secret: string, extra: Record<string, string> = {}): Record<string, string> {
  // SQLite in DATA_DIR and no mail server unless a scenario sets these (never inherited from the caller's shell).
  return { DATA_DIR: dataDir, SESSION_SECRET: secret, NODE_ENV: 'production', PORT: '0', DATABASE_URL: '', REDIS_URL: '', SMTP_URL: '', ...extra };
}

/**
 * A gateway bundle (gateway/bundle.mjs's output) started by plain node as `npm start` runs it, pinned to the server
 * core; resolves once it prints its "fulcrum listening on" line. Environment as startGateway's (FULCRUM_DEMO=1).
 */
export async function startBundle(bundle: string, dataDir: string, secret: string, env: Record<string, string> = {}): Promise<StartedProcess> {
  const [command, args] = pinned(SERVER_CPU, process.execPath, [bundle]);
  return startProcess(command, args, {
    name: bundle,
    env: gatewayEnv(dataDir, secret, { FULCRUM_DEMO: '1', ...env }),
    cwd: ROOT,
    timeoutMs: 5 * 60_000,
    onOutput: (chunk, stream) => process.env.BENCH_VERBOSE && (stream === 'stdout' ? process.stdout : process.stderr).write(chunk),
  });
}

/**
 * How the gateway under test runs: `bundle` (the default) is bench/server.ts compiled by gateway/bundle.mjs, the
 * definition `npm start`'s bundle is built by (esbuild, dependencies inlined, started by plain node): the code users
 * run, plus the bench's counters over IPC. `BENCH_GATEWAY=tsx` runs the TypeScript sources under the tsx loader, as
 * the bench did before (the dashboard measured faster there than the bundle `npm start` ran).
 */
export const GATEWAY_BUILD: 'bundle' | 'tsx' = process.env.BENCH_GATEWAY === 'tsx' ? 'tsx' : 'bundle';
let serverBundle: Promise<string> | undefined;

export async function startGateway(
  dataDir: string,
  secret: string,
  options: { demo?: boolean; nodeArgs?: string[]; env?: Record<string, string> } = {},
): Promise<Child> {
  const env = gatewayEnv(dataDir, secret, { FULCRUM_DEMO: options.demo === false ? '0' : '1', ...options.env });
  if (GATEWAY_BUILD === 'tsx') return startChild(join(ROOT, 'bench/server.ts'), env, ['--import', 'tsx', ...(options.nodeArgs ?? [])]);
  // Beside main.mjs (same depth as gateway/src: paths relative to a module hold), built once per bench run.
  serverBundle ??= bundleGateway(join(ROOT, 'gateway/dist/bench-server.mjs'), join(ROOT, 'bench/server.ts'));
  return startChild(await serverBundle, env, options.nodeArgs ?? []);
}

export interface LoadResult {
  /** Median of the per-second request counts. */
  rps: number;
  p50: number;
  /** Sequential runs (bench/latency.ts) only. */
  p95?: number;
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** GraphQL answers with `errors` (bench/load.mjs), counted even when the status was 2xx. */
  mismatches?: number;
}

export interface LoadSpec {
  url: string;
  method?: 'GET' | 'POST' | 'PUT';
  headers?: Record<string, string>;
  body?: string | Buffer;
  connections?: number;
  seconds?: number;
  /**
   * Requests sent in turn instead of the one `body` (autocannon only): request n of the run, whichever connection
   * sends it, goes to `path` with `body` and `headers` of entry n modulo the list's length (writes that each change
   * something; reads spread over many signed-in agents). What an entry leaves out is the spec's.
   */
  requests?: { path?: string; body?: string; headers?: Record<string, string> }[];
}

/**
 * One autocannon run in its own process (bench/load.mjs), pinned to the load core. GraphQL answers (a POST to a
 * `/graphql` URL) are checked one by one: a 2xx carrying `errors` is a failed request (`mismatches`).
 */
export async function autocannon(spec: LoadSpec): Promise<LoadResult> {
  const dir = mkdtempSync(join(tmpdir(), 'fulcrum-bench-load-'));
  const bodyFile = spec.body === undefined ? undefined : join(dir, 'body');
  if (bodyFile) writeFileSync(bodyFile, spec.body!);
  const specFile = join(dir, 'spec.json');
  writeFileSync(
    specFile,
    JSON.stringify({
      url: spec.url,
      method: spec.method ?? 'GET',
      headers: spec.headers ?? {},
      bodyFile,
      connections: spec.connections ?? 50,
      seconds: spec.seconds ?? 10,
      graphql: (spec.method ?? 'GET') === 'POST' && new URL(spec.url).pathname.endsWith('/graphql'),
      requests: spec.requests,
    }),
  );
  const result = await runPinned([join(ROOT, 'bench/load.mjs'), specFile], 'autocannon');
  rmSync(dir, { recursive: true, force: true });
  const json = lastJsonLine<{
    requests: { p50: number; total: number };
    latency: { p50: number; p99: number };
    non2xx: number;
    errors: number;
    timeouts: number;
    mismatches: number;
  }>(result);
  return {
    rps: json.requests.p50,
    p50: json.latency.p50,
    p99: json.latency.p99,
    requests: json.requests.total,
    non2xx: json.non2xx,
    errors: json.errors,
    timeouts: json.timeouts,
    mismatches: json.mismatches,
  };
}

/** Resident set size of a process, in MB (Linux /proc). */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

export function progress(line: string): void {
  if (process.stdout.isTTY) process.stdout.write(`\r\x1b[K${line}`);
  else process.stdout.write(`${line}\n`);
}

export function log(line: string): void {
  if (process.stdout.isTTY) process.stdout.write('\r\x1b[K');
  console.log(line);
}

/** One connection, one request at a time (bench/latency.ts in its own process on the load core), sub-ms latencies. */
export async function sequential(spec: LoadSpec & { warmupSeconds?: number; anyStatus?: boolean }): Promise<LoadResult> {
  const file = join(mkdtempSync(join(tmpdir(), 'fulcrum-bench-seq-')), 'spec.json');
  writeFileSync(
    file,
    JSON.stringify({
      url: spec.url,
      method: spec.method,
      headers: spec.headers,
      body: spec.body === undefined ? undefined : String(spec.body),
      seconds: spec.seconds ?? 5,
      warmupSeconds: spec.warmupSeconds ?? 1,
      anyStatus: spec.anyStatus,
    }),
  );
  const out = await runPinned(['--import', 'tsx', join(ROOT, 'bench/latency.ts'), file], 'latency run');
  rmSync(dirname(file), { recursive: true, force: true });
  return lastJsonLine<LoadResult>(out);
}

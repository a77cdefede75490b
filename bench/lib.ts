/** Process plumbing for the bench: pinned children, the load generator, and small statistics. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { cpus } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
export const AUTOCANNON = require.resolve('autocannon/autocannon.js');

/** `taskset` pins the server to one core and the load to the other, where it exists and there are two cores. */
export const HAS_TASKSET = cpus().length >= 2 && spawnSync('taskset', ['-V']).status === 0;
export const SERVER_CPU = '0';
export const LOAD_CPU = '1';

export function pinned(cpu: string, command: string, args: string[]): [string, string[]] {
  return HAS_TASKSET ? ['taskset', ['-c', cpu, command, ...args]] : [command, args];
}

export interface Child {
  proc: ChildProcess;
  url: string;
  pid: number;
  stop(): Promise<void>;
  request<T>(type: string, extra?: Record<string, unknown>): Promise<T>;
}

/** Starts a node script pinned to the server core; resolves once it prints "READY <url>". */
export function startChild(script: string, env: Record<string, string>, nodeArgs: string[] = []): Promise<Child> {
  const [command, args] = pinned(SERVER_CPU, process.execPath, [...nodeArgs, script]);
  const proc = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /READY (\S+)/.exec(output);
      if (!match) return;
      proc.stdout!.off('data', onData);
      proc.stdout!.on('data', (c: Buffer) => process.env.BENCH_VERBOSE && process.stdout.write(c));
      resolve({
        proc,
        url: match[1],
        pid: proc.pid!,
        stop: () =>
          new Promise((done) => {
            if (proc.exitCode !== null) return done();
            proc.once('exit', () => done());
            proc.kill('SIGTERM');
          }),
        request: <T>(type: string, extra: Record<string, unknown> = {}) =>
          new Promise<T>((res) => {
            const listener = (message: { type: string }) => {
              if (message.type !== type) return;
              proc.off('message', listener);
              res(message as T);
            };
            proc.on('message', listener);
            proc.send({ type, ...extra });
          }),
      });
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (process.env.BENCH_VERBOSE) process.stderr.write(chunk);
    });
    proc.once('exit', (code) => reject(new Error(`${script} exited with ${code} before it was ready:\n${output.slice(-3000)}`)));
  });
}

export function gatewayEnv(dataDir: string, secret: string, extra: Record<string, string> = {}): Record<string, string> {
  return { DATA_DIR: dataDir, SESSION_SECRET: secret, NODE_ENV: 'production', PORT: '0', ...extra };
}

export function startGateway(dataDir: string, secret: string, options: { demo?: boolean; nodeArgs?: string[] } = {}): Promise<Child> {
  return startChild(join(ROOT, 'bench/server.ts'), gatewayEnv(dataDir, secret, { FULCRUM_DEMO: options.demo === false ? '0' : '1' }), ['--import', 'tsx', ...(options.nodeArgs ?? [])]);
}

export interface LoadResult {
  /** Median of the per-second request counts. */
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

export interface LoadSpec {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string | Buffer;
  connections?: number;
  seconds?: number;
}

/** One autocannon run in its own process, pinned to the load core. */
export async function autocannon(spec: LoadSpec): Promise<LoadResult> {
  const args = [AUTOCANNON, '-j', '-n', '-c', String(spec.connections ?? 50), '-d', String(spec.seconds ?? 10), '-m', spec.method ?? 'GET'];
  for (const [k, v] of Object.entries(spec.headers ?? {})) args.push('-H', `${k}=${v}`);
  let bodyFile: string | undefined;
  if (spec.body !== undefined) {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    bodyFile = join(mkdtempSync(join(tmpdir(), 'fulcrum-bench-body-')), 'body');
    writeFileSync(bodyFile, spec.body);
    args.push('-i', bodyFile);
  }
  args.push(spec.url);
  const [command, argv] = pinned(LOAD_CPU, process.execPath, args);
  const result = await new Promise<string>((resolve, reject) => {
    const proc = spawn(command, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    proc.stdout.on('data', (c) => (out += c));
    proc.stderr.on('data', (c) => (err += c));
    proc.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`autocannon exited ${code}: ${err}`))));
  });
  if (bodyFile) rmSync(dirname(bodyFile), { recursive: true, force: true });
  const json = JSON.parse(result) as {
    requests: { p50: number; total: number };
    latency: { p50: number; p99: number };
    non2xx: number;
    errors: number;
    timeouts: number;
  };
  return { rps: json.requests.p50, p50: json.latency.p50, p99: json.latency.p99, requests: json.requests.total, non2xx: json.non2xx, errors: json.errors, timeouts: json.timeouts };
}

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN;
}

export function percentile(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  if (!s.length) return NaN;
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

/** Resident set size of a process, in MB (Linux /proc). */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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
  const { mkdtempSync, writeFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const file = join(mkdtempSync(join(tmpdir(), 'fulcrum-bench-seq-')), 'spec.json');
  writeFileSync(file, JSON.stringify({ url: spec.url, method: spec.method, headers: spec.headers, body: spec.body === undefined ? undefined : String(spec.body), seconds: spec.seconds ?? 5, warmupSeconds: spec.warmupSeconds ?? 1, anyStatus: spec.anyStatus }));
  const [command, argv] = pinned(LOAD_CPU, process.execPath, ['--import', 'tsx', join(ROOT, 'bench/latency.ts'), file]);
  const out = await new Promise<string>((resolve, reject) => {
    const proc = spawn(command, argv, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (c) => (stdout += c));
    proc.stderr.on('data', (c) => (stderr += c));
    proc.on('exit', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`latency run exited ${code}: ${stderr.slice(-1000)}`))));
  });
  rmSync(dirname(file), { recursive: true, force: true });
  return JSON.parse(out.trim().split('\n').pop()!) as LoadResult;
}

/**
 * Real server processes for the tests and the bench: the esbuild bundle `npm start` runs (gateway/bundle.mjs),
 * or any script that prints a ready line. One spawn-and-wait routine
 * serves the scale-out gateways, the durability server and the bench's pinned children.
 */
import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleGateway, ensureGatewayBundle } from '../../bundle.mjs';
import { clientsOf, type GatewayClients } from './client.js';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** The line main.ts prints once it listens; its first group is the URL. */
const LISTENING = /fulcrum listening on (http:\/\/\S+)/;

/** A TCP port free on 127.0.0.1 right now (for a process that must be told its port). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface StartedProcess {
  url: string;
  child: ChildProcess;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  /** Resolves when the process has exited, with its exit code or signal. */
  exited: Promise<Exit>;
  /** SIGTERM, SIGKILL after `graceMs`, and wait for the exit. */
  stop(graceMs?: number): Promise<void>;
}

interface StartOptions {
  /** Names the process in errors. */
  name: string;
  env: Record<string, string | undefined>;
  cwd?: string;
  /** A stdout line that says the process is ready; its first group is the URL. */
  ready?: RegExp;
  timeoutMs?: number;
  /** Adds an IPC channel (the bench's children answer requests over it). */
  ipc?: boolean;
  /** Also called with every chunk printed (e.g. to pass it through). */
  onOutput?(chunk: string, stream: 'stdout' | 'stderr'): void;
}

/** Thrown when a process was killed by a signal before it printed anything: stopped from outside, not a failed start. */
class SignalledBeforeReady extends Error {
  constructor(
    readonly signal: string,
    message: string,
  ) {
    super(message);
  }
}

/** Spawns `command args` and resolves once its stdout prints the ready line; rejects if it exits or times out first. */
export async function startProcess(command: string, args: string[], options: StartOptions): Promise<StartedProcess> {
  const stdio: StdioOptions = ['ignore', 'pipe', 'pipe', ...(options.ipc ? ['ipc' as const] : [])];
  const child = spawn(command, args, { cwd: options.cwd ?? REPO_ROOT, env: { ...process.env, ...options.env }, stdio });
  let output = '';
  const listen = (stream: 'stdout' | 'stderr') => (chunk: Buffer) => {
    output += String(chunk);
    options.onOutput?.(String(chunk), stream);
  };
  child.stdout!.on('data', listen('stdout'));
  child.stderr!.on('data', listen('stderr'));
  const exited = new Promise<Exit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const timeoutMs = options.timeoutMs ?? 60_000;
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${options.name} did not start within ${timeoutMs} ms:\n${output}`)), timeoutMs);
    const onData = () => {
      const match = (options.ready ?? LISTENING).exec(output);
      if (!match) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      resolve(match[1]);
    };
    child.stdout!.on('data', onData);
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      const message = `${options.name} exited (${code ?? signal}) before it was ready:\n${output.slice(-3000)}`;
      reject(signal && !output ? new SignalledBeforeReady(signal, message) : new Error(message));
    });
  });
  return {
    url,
    child,
    output: () => output,
    exited,
    async stop(graceMs = 15_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * main.ts compiled once as `npm start` runs it (gateway/bundle.mjs). It starts in about 1 s instead of about
 * 2.5 s under tsx, which is what lets the crash test restart the server 20 times in its time budget. Written
 * under node_modules/.cache so the bare imports resolve; remove `dirname(file)` when done.
 */
export async function bundleServer(name = `fulcrum-server-${process.pid}`): Promise<string> {
  const dir = join(REPO_ROOT, 'node_modules', '.cache', name);
  mkdirSync(dir, { recursive: true });
  return bundleGateway(join(dir, 'main.mjs'));
}

/**
 * The real server for kill and drain tests, as `npm start` runs it: the bundle (the default one, or one from
 * bundleServer), with an optional `--import` preload, in production mode, waiting for it to listen.
 */
export async function startServerProcess(
  env: Record<string, string | undefined>,
  options: { preload?: string; bundle?: string; timeoutMs?: number } = {},
): Promise<StartedProcess> {
  const args = [...(options.preload ? ['--import', 'tsx', '--import', options.preload] : []), options.bundle ?? (await ensureGatewayBundle())];
  return startProcess(process.execPath, args, {
    name: 'server',
    env: { PORT: '0', HOST: '127.0.0.1', NODE_ENV: 'production', FULCRUM_INTROSPECTION: undefined, ...env },
    timeoutMs: options.timeoutMs,
  });
}

interface GatewayProcessOptions {
  name: string;
  databaseUrl: string;
  redisUrl: string;
  sessionSecret: string;
  /** Extra environment (e.g. TRUST_PROXY). */
  env?: Record<string, string>;
}

export interface GatewayProcess extends StartedProcess, GatewayClients {
  name: string;
  port: number;
  /** SIGTERM (graceful) and wait; removes the DATA_DIR. */
  stop(): Promise<void>;
}

/**
 * One scale-out gateway process on PostgreSQL and Redis, with PORT=0 (the "listening on" line carries the real
 * port), started from the bundle `npm start` runs. Each process gets its own empty DATA_DIR: nothing a gateway
 * needs may live on its local disk.
 */
export async function spawnGateway(options: GatewayProcessOptions, timeoutMs = 45_000): Promise<GatewayProcess> {
  try {
    return await spawnGatewayOnce(options, timeoutMs);
  } catch (error) {
    // A gateway that fails to start exits with a code; one killed by a signal before it printed anything was
    // stopped from outside (a shared, busy machine). Try once more, and say so.
    if (!(error instanceof SignalledBeforeReady)) throw error;
    console.warn(`[scale-out] gateway ${options.name} was killed by ${error.signal} before listening; starting it again`);
    return spawnGatewayOnce(options, timeoutMs);
  }
}

async function spawnGatewayOnce(options: GatewayProcessOptions, timeoutMs: number): Promise<GatewayProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), `fulcrum-scaleout-${options.name}-`));
  const removeDataDir = () => rmSync(dataDir, { recursive: true, force: true });
  let started: StartedProcess;
  try {
    started = await startProcess(process.execPath, [await ensureGatewayBundle()], {
      name: `gateway ${options.name}`,
      env: {
        PORT: '0',
        HOST: '127.0.0.1',
        DATABASE_URL: options.databaseUrl,
        REDIS_URL: options.redisUrl,
        SESSION_SECRET: options.sessionSecret,
        DATA_DIR: dataDir,
        FULCRUM_DEMO: '1',
        NODE_ENV: 'test',
        ...options.env,
      },
      timeoutMs,
    });
  } catch (error) {
    removeDataDir();
    throw error;
  }
  const { url } = started;
  return {
    ...started,
    name: options.name,
    port: Number(new URL(url).port),
    ...clientsOf(url),
    async stop() {
      await started.stop(15_000);
      removeDataDir();
    },
  };
}

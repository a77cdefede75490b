/**
 * Helpers for the scale-out tests: real gateway processes (`node --import tsx gateway/src/main.ts`, exactly what
 * `npm start` runs) on one PostgreSQL database and one Redis, graphql-ws subscribers that carry a session cookie,
 * and small figures.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { DEMO_ACCOUNTS } from '@fulcrum/schema';
import { TestClient } from '../testing/client.js';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface GatewayProcessOptions {
  name: string;
  databaseUrl: string;
  redisUrl: string;
  sessionSecret: string;
  /** Extra environment (e.g. TRUST_PROXY). */
  env?: Record<string, string>;
}

export interface GatewayProcess {
  name: string;
  url: string;
  port: number;
  child: ChildProcess;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  /** Resolves when the process has exited, with its exit code or signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  client(): TestClient;
  /** A client signed in on this gateway as demo account 0 (Demo), 1 (Marnie) or 2 (Bobbie). */
  as(index: 0 | 1 | 2): Promise<TestClient>;
  /** SIGTERM (graceful) and wait; removes the DATA_DIR. */
  stop(): Promise<void>;
}

/**
 * Starts one gateway process with PORT=0 and waits for its "listening on" line (which carries the real port).
 * Each process gets its own empty DATA_DIR: nothing a gateway needs may live on its local disk.
 */
export async function spawnGateway(options: GatewayProcessOptions, timeoutMs = 45_000): Promise<GatewayProcess> {
  try {
    return await spawnOnce(options, timeoutMs);
  } catch (error) {
    // A gateway that fails to start exits with a code; one killed by a signal before it printed anything was
    // stopped from outside (a shared, busy machine). Try once more, and say so.
    if (!(error instanceof SignalledBeforeListening)) throw error;
    console.warn(`[scale-out] gateway ${options.name} was killed by ${error.signal} before listening; starting it again`);
    return spawnOnce(options, timeoutMs);
  }
}

class SignalledBeforeListening extends Error {
  constructor(readonly signal: string, message: string) {
    super(message);
  }
}

async function spawnOnce(options: GatewayProcessOptions, timeoutMs: number): Promise<GatewayProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), `fulcrum-scaleout-${options.name}-`));
  const child = spawn(process.execPath, ['--import', 'tsx', 'gateway/src/main.ts'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
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
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += String(chunk)));
  child.stderr!.on('data', (chunk) => (output += String(chunk)));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`gateway ${options.name} did not start within ${timeoutMs} ms:\n${output}`)), timeoutMs);
    const onData = () => {
      const match = /fulcrum listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        resolve(match[1]);
      }
    };
    child.stdout!.on('data', onData);
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      rmSync(dataDir, { recursive: true, force: true });
      const message = `gateway ${options.name} exited (${code ?? signal}) before listening:\n${output}`;
      reject(signal && !output ? new SignalledBeforeListening(signal, message) : new Error(message));
    });
  });
  const port = Number(new URL(url).port);
  return {
    name: options.name,
    url,
    port,
    child,
    output: () => output,
    exited,
    client: () => new TestClient(url),
    as: (index) => new TestClient(url).login(DEMO_ACCOUNTS[index].email, DEMO_ACCOUNTS[index].password),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The same session on another gateway: a new client there with this client's cookies. */
export function carry(client: TestClient, to: { url: string }): TestClient {
  const other = new TestClient(to.url);
  other.setCookieHeader(client.cookieHeader);
  return other;
}

export interface LiveEvent {
  at: number;
  data: Record<string, any>;
}

export interface Live {
  client: Client;
  /** Close codes seen by this socket (e.g. 4401 when the session ended, 1006 when the gateway died). */
  closes: number[];
  connected: Promise<void>;
  /** Events of one subscription, in arrival order, with arrival time (performance.now()). */
  subscribe(query: string): LiveSubscription;
  dispose(): Promise<void>;
}

export interface LiveSubscription {
  events: LiveEvent[];
  /** The first event (already seen or to come) that matches. */
  waitFor(match: (data: Record<string, any>) => boolean, timeoutMs?: number): Promise<LiveEvent>;
  errors: unknown[];
  stop(): void;
}

/** A graphql-ws client (the library the web app uses) on /graphql of one gateway, authenticated by cookie. */
export function openLive(gatewayUrl: string, cookie: string, socketOptions: WebSocket.ClientOptions = {}): Live {
  const closes: number[] = [];
  let onConnected: () => void = () => {};
  let onFailed: (error: unknown) => void = () => {};
  const connected = new Promise<void>((resolve, reject) => {
    onConnected = resolve;
    onFailed = reject;
  });
  const client = createClient({
    url: `${gatewayUrl.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: class extends WebSocket {
      constructor(url: string, protocols?: string | string[]) {
        super(url, protocols, { ...socketOptions, headers: { ...socketOptions.headers, cookie } });
      }
    },
    lazy: false,
    retryAttempts: 0,
    on: {
      connected: () => onConnected(),
      closed: (event) => {
        closes.push((event as { code: number }).code);
        onFailed(new Error(`socket closed before it was acknowledged (${(event as { code: number }).code})`));
      },
      error: (error) => onFailed(error),
    },
    onNonLazyError: () => {},
  });
  return {
    client,
    closes,
    connected,
    subscribe(query) {
      const events: LiveEvent[] = [];
      const errors: unknown[] = [];
      const waiters: { match: (d: Record<string, any>) => boolean; resolve: (e: LiveEvent) => void }[] = [];
      const stop = client.subscribe<Record<string, any>>(
        { query },
        {
          next: (result) => {
            if (result.errors) errors.push(result.errors);
            if (!result.data) return;
            const event = { at: performance.now(), data: result.data };
            events.push(event);
            for (const w of [...waiters]) {
              if (w.match(event.data)) {
                waiters.splice(waiters.indexOf(w), 1);
                w.resolve(event);
              }
            }
          },
          error: (error) => errors.push(error),
          complete: () => {},
        },
      );
      return {
        events,
        errors,
        stop,
        waitFor(match, timeoutMs = 5_000) {
          const seen = events.find((e) => match(e.data));
          if (seen) return Promise.resolve(seen);
          return new Promise((resolve, reject) => {
            const waiter = { match, resolve: (e: LiveEvent) => (clearTimeout(timer), resolve(e)) };
            const timer = setTimeout(() => {
              waiters.splice(waiters.indexOf(waiter), 1);
              reject(new Error(`no matching event within ${timeoutMs} ms (${events.length} events seen, errors: ${JSON.stringify(errors)})`));
            }, timeoutMs);
            waiters.push(waiter);
          });
        },
      };
    },
    dispose: () => client.dispose() as Promise<void>,
  };
}

export const MESSAGE_EVENTS = 'subscription { messageEvents { kind id senderId receiverId message { id text } } }';
export const TICKET_EVENTS = 'subscription { ticketEvents { kind id ticket { id title } } }';

/**
 * Waits until a subscription is live end to end (the gateway has subscribed to the Redis channel): graphql-ws
 * has no acknowledgement for `subscribe`, so send probes through `trigger` until one comes back.
 */
export async function untilLive(subscription: LiveSubscription, trigger: (probe: string) => Promise<void>, isProbe: (data: Record<string, any>, probe: string) => boolean): Promise<void> {
  for (let attempt = 1; attempt <= 20; attempt++) {
    const probe = `probe-${attempt}-${Math.random().toString(36).slice(2, 8)}`;
    await trigger(probe);
    try {
      await subscription.waitFor((data) => isProbe(data, probe), 500);
      return;
    } catch {
      /* not live yet: try again */
    }
  }
  throw new Error('subscription never became live');
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** Prints one measured figure; docs/deployment.md quotes them with the command that reproduces them. */
export function figure(name: string, value: string | number): void {
  console.log(`[figure] ${name}: ${value}`);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

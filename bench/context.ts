/**
 * What every scenario shares: the settings, the table being built, the children started (stopped at the end
 * whatever happens), and the measuring steps (a checked request, a load run, a sequential latency run).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clientsOf } from '../gateway/src/testing/client.js';
import { median } from '../gateway/src/testing/measure.js';
import { autocannon, log, progress, ROOT, sequential, startBundle, startChild, startGateway, type Child, type LoadResult, type LoadSpec } from './lib.js';
import type { StartedProcess } from '../gateway/src/testing/processes.js';
import { fmtInt, type LadderStep, type Row } from './report.js';

export const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
export const SCALE = (process.env.BENCH_SCALE ?? '1000,100000,1000000').split(',').map(Number);
/** Writes run at 10 connections: one SQLite writer, and a help desk's agents do not all save at once. */
export const WRITE_CONNECTIONS = Number(process.env.BENCH_WRITE_CONNECTIONS ?? 10);
export const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 1000);
export const ONLY = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(',').map(Number)) : null;
export const runs = (n: number) => !ONLY || ONLY.has(n);

/**
 * Paired write rows (10c/10d, 11b, 12c): BENCH_WRITE_PAIRS alternated pairs (default 7) of BENCH_PAIR_SECONDS runs
 * (default 5) each, after a 2 s warm-up each.
 */
export const PAIRS = Number(process.env.BENCH_WRITE_PAIRS ?? 7);
export const PAIR_SECONDS = Number(process.env.BENCH_PAIR_SECONDS ?? 5);

/**
 * The ratio of a paired comparison: the median of the pairs' own ratios (each pair's two runs are seconds apart, so
 * the machine's drift cancels within a pair). Not the ratio of the means: on this shared 2-core host one burst of a
 * neighbour's load can halve a single 5-10 s run (pairs of one run went from 0.73 to 1.17), and a mean carries that
 * one run into the figure; the median of seven pairs needs four of them to move.
 */
export function pairedRatio(subject: readonly LoadResult[], yardstick: readonly LoadResult[]): { ratio: number; pairs: number[]; ofMeans: number } {
  const pairs = subject.map((r, i) => r.rps / yardstick[i].rps);
  const mean = (rs: readonly LoadResult[]) => rs.reduce((sum, r) => sum + r.rps, 0) / rs.length;
  return { ratio: median(pairs), pairs, ofMeans: mean(subject) / mean(yardstick) };
}

/** How a paired ratio was read, for a row's note. */
export const pairedNote = (p: { pairs: number[]; ofMeans: number }) =>
  `median of ${p.pairs.length} alternated pairs' ratios (pair by pair ${p.pairs.map((r) => r.toFixed(2)).join(', ')}; ratio of the means ${p.ofMeans.toFixed(3)})`;

export const rows: Row[] = [];
/** Sequential latencies of ever larger slices of the stack: where a request's time goes. */
export const ladder: LadderStep[] = [];
export const notes: string[] = [];
export const tmp = mkdtempSync(join(tmpdir(), 'fulcrum-bench-'));
export const secret = randomBytes(32).toString('base64url');

const children: StartedProcess[] = [];

/** A gateway (bench/server.ts) on `dataDir`, pinned to the server core. */
export async function gateway(dataDir: string, options: { demo?: boolean; nodeArgs?: string[]; env?: Record<string, string> } = {}): Promise<Child> {
  const child = await startGateway(dataDir, secret, options);
  children.push(child);
  return child;
}

/** The yardstick: a bare node:http server answering a 200-byte JSON body, on the server core. */
export async function startBaseline(): Promise<Child> {
  const child = await startChild(join(ROOT, 'bench/baseline.mjs'), {});
  children.push(child);
  return child;
}

/** A gateway bundle started by plain node (lib.ts startBundle) on `dataDir`, pinned to the server core; no IPC. */
export async function bundledGateway(bundle: string, dataDir: string, env: Record<string, string> = {}): Promise<StartedProcess> {
  const child = await startBundle(bundle, dataDir, secret, env);
  children.push(child);
  return child;
}

export async function stop(child: StartedProcess): Promise<void> {
  await child.stop();
  if (children.includes(child)) children.splice(children.indexOf(child), 1);
}

export async function stopAll(): Promise<void> {
  for (const child of [...children]) await child.stop().catch(() => undefined);
}

/** A GraphQL request as a signed-in agent (set-up steps of a scenario, not timed); its errors thrown. */
export async function gql(url: string, cookie: string, query: string, variables: Record<string, unknown> = {}) {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as { data?: any; errors?: { message: string }[] };
  if (body.errors?.length) throw new Error(body.errors.map((e) => e.message).join('; '));
  return body.data;
}

/** The session cookie of a demo account (0 Demo, 1 Marnie, 2 Bobbie) signed in on `url`. */
export async function login(url: string, account: 0 | 1 | 2): Promise<string> {
  return (await clientsOf(url).as(account)).cookieHeader;
}

/**
 * A new workspace on `dir`: a gateway runs the migrations and the demo seed, signs in the demo accounts asked for
 * and stops, so the bench can seed in bulk; the sessions hold for the next gateway on `dir`. Their cookies.
 */
export async function newWorkspace(dir: string, ...accounts: (0 | 1 | 2)[]): Promise<string[]> {
  const gw = await gateway(dir);
  const cookies: string[] = [];
  for (const account of accounts) cookies.push(await login(gw.url, account));
  await stop(gw);
  return cookies;
}

/**
 * The main workspace (the demo agent with 50 tickets, many more agents with sessions) that scenarios 1, 2, 3,
 * 5 and 6 measure; `gw` is replaced when a scenario needs a fresh gateway.
 */
export interface Workspace {
  dir: string;
  gw: Child;
  /** Session cookies of the demo agent and of Marnie. */
  demo: string;
  marnie: string;
  customerIds: number[];
  agents: number[];
  agentCookies: Map<number, string>;
  /** Agents with 50 tickets each and a session (rows 1m and 2m); none in the PostgreSQL pass's workspace. */
  busyAgents?: number[];
  baselineUrl: string;
}

/** How many agents of 50 tickets each the read rows' load is spread over in rows 1m and 2m. */
export const BUSY_AGENTS = Number(process.env.BENCH_BUSY_AGENTS ?? 200);

/**
 * A load's requests taken in turn by the workspace's busy agents (request n by agent n mod their number), each with
 * `headersOf` that agent's cookie; null when the workspace has none (the PostgreSQL pass).
 */
export function spreadOverBusyAgents(ws: Workspace, headersOf: (cookie: string) => Record<string, string>) {
  if (!ws.busyAgents?.length) return null;
  return { requests: ws.busyAgents.map((id) => ({ headers: headersOf(ws.agentCookies.get(id)!) })) };
}

/** One request done the way the load will do it, checked: a 2xx whose body has no GraphQL errors. */
export async function check(spec: LoadSpec, validate: (body: any) => void): Promise<any> {
  const res = await fetch(spec.url, {
    method: spec.method ?? 'GET',
    headers: spec.headers,
    body: spec.body as BodyInit | undefined,
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  if (res.status < 200 || res.status > 299) throw new Error(`${spec.method ?? 'GET'} ${spec.url}: ${res.status} ${text.slice(0, 500)}`);
  const body = JSON.parse(text);
  if (body?.errors) throw new Error(`${spec.url}: ${JSON.stringify(body.errors).slice(0, 500)}`);
  validate(body);
  return body;
}

/** Non-2xx answers, socket errors and timeouts (10 s) of a run, as text; '' when there were none. */
export function failures(r: LoadResult): string {
  const parts = [
    r.non2xx && `${r.non2xx} non-2xx`,
    r.mismatches && `${r.mismatches} GraphQL errors`,
    r.errors && `${r.errors} errors`,
    r.timeouts && `${r.timeouts} timeouts`,
  ].filter(Boolean);
  return parts.length ? `FAILED REQUESTS: ${parts.join(', ')} of ${r.requests + r.timeouts}` : '';
}
export const withFailures = (r: LoadResult, note?: string) => [note, failures(r)].filter(Boolean).join('; ') || undefined;

/** A 2 s warm-up run (discarded), then the measured run; failed requests are reported in the row. */
export async function load(label: string, spec: LoadSpec): Promise<LoadResult> {
  progress(`  ${label}: warm-up`);
  await autocannon({ ...spec, seconds: 2 });
  progress(`  ${label}: ${spec.seconds ?? SECONDS} s at ${spec.connections ?? 50} connections`);
  const result = await autocannon({ seconds: SECONDS, ...spec });
  const failed = failures(result);
  log(`  ${label}: ${fmtInt(result.rps)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms${failed ? `; ${failed}` : ''}`);
  return result;
}

/**
 * Neighbours' load on a shared machine drifts within a run, so every throughput row is paired with a baseline
 * run at the same connection count measured just before it, and its ratio is to that one.
 */
export async function paired(ws: Workspace, label: string, spec: LoadSpec): Promise<[LoadResult, LoadResult]> {
  const base = await load(`  baseline just before, ${spec.connections ?? 50} connections`, { url: ws.baselineUrl, connections: spec.connections ?? 50 });
  return [await load(label, spec), base];
}
export const ratioTo = (r: LoadResult, base: LoadResult) => r.rps / base.rps;
export const baseNote = (base: LoadResult) => `baseline just before: ${fmtInt(base.rps)} req/s`;

/** Runs one scenario; a failure becomes a row of the table (with the error) instead of ending the bench. */
export async function guard(name: string, fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (error) {
    const message = (error as Error).message.split('\n')[0].slice(0, 300);
    log(`  scenario ${name} FAILED: ${message}`);
    rows.push({ scenario: `${name}: failed`, value: message, budget: '—', met: false });
  }
}

/** One connection, one request at a time: latency with sub-millisecond resolution. */
export async function latency(label: string, spec: LoadSpec & { anyStatus?: boolean }): Promise<LoadResult> {
  progress(`  ${label}: ${spec.seconds ?? 5} s, 1 connection, sequential`);
  const result = await sequential({ seconds: 5, ...spec });
  log(`  ${label}: p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms (${fmtInt(result.rps)} req/s)`);
  return result;
}

/** The SQL statements the gateway runs for one request (after a warm-up request). */
export async function statementsOf(gw: Child, request: () => Promise<unknown>): Promise<string[]> {
  await request(); // warm
  await gw.request('reset');
  await request();
  return (await gw.request<{ statements: string[] }>('statements')).statements;
}

export const DASHBOARD = `query Dashboard($first: Int!, $after: String) {
  tickets(first: $first, after: $after) {
    totalCount
    nodes { id title type priority requester { id name } macro { id name } image { id url } }
    pageInfo { endCursor hasNextPage }
  }
}`;
export const gqlHeaders = (cookie: string) => ({ 'content-type': 'application/json', cookie });
export const dashboardSpec = (url: string, cookie: string, first = 50, after?: string): LoadSpec => ({
  url: `${url}/graphql`,
  method: 'POST',
  headers: gqlHeaders(cookie),
  body: JSON.stringify({ query: DASHBOARD, variables: { first, after } }),
});

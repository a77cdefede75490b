/**
 * `npm run bench`: every scenario of docs/performance.md against a real gateway on 127.0.0.1, on temp DATA_DIRs,
 * with the load from other processes. The gateway (and the baseline) run on core 0, the load on core 1 (taskset,
 * where present). Prints one table and writes it into docs/performance.md between the bench markers.
 *
 *   BENCH_SECONDS=10     duration of each throughput run (after a 2 s warm-up run)
 *   BENCH_SCALE=1000,100000,1000000   the scale points of scenario 4
 *   BENCH_SUBSCRIBERS=1000            scenario 5's sockets
 *   BENCH_ONLY=1,2,4     run only these scenarios (the table then says which were skipped)
 *   BENCH_MESSAGES=1000000            scenario 8's messages (the message center at scale)
 *   BENCH_LIVE_PRESENCE=0             scenario 5's sockets without the presence subscription
 *   BENCH_VERBOSE=1      show the gateway's output
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { DEMO_ACCOUNTS } from '@fulcrum/schema';
import {
  HAS_TASKSET, LOAD_CPU, ROOT, autocannon, log, pinned, progress, sequential, sleep, startChild, startGateway, type Child, type LoadResult, type LoadSpec,
} from './lib.js';
import { addAgents, addCustomers, addTickets, count, forgeSessions, openDb, rng, shuffle, TINY_PNG } from './seed.js';
import { SEARCH_TERMS, matchCount, measureTriage, seededTicket, triageRows, type TriagePoint } from './triage.js';
import { measureWeb, type WebResult } from './web.js';
import { summarizeProfile, type ProfileSummary } from './profile.js';
import { messageCenterScale } from './messageCenter.js';
import { measureWebhooks } from './webhooks.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const SCALE = (process.env.BENCH_SCALE ?? '1000,100000,1000000').split(',').map(Number);
/** Writes run at 10 connections: one SQLite writer, and a help desk's agents do not all save at once. */
const WRITE_CONNECTIONS = Number(process.env.BENCH_WRITE_CONNECTIONS ?? 10);
const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 1000);
const ONLY = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(',').map(Number)) : null;
const runs = (n: number) => !ONLY || ONLY.has(n);
const benchStarted = performance.now();
const loadAtStart = loadavg()[0];

// The orchestrator and everything it spawns unpinned (autocannon, the subscribers, Chromium) stay on the load core.
if (HAS_TASKSET) spawnSync('taskset', ['-a', '-p', '-c', LOAD_CPU, String(process.pid)], { stdio: 'ignore' });

interface Row {
  scenario: string;
  rps?: number;
  p50?: number;
  p99?: number;
  ratio?: number;
  /** Free text for rows that are not throughput (sizes, memory, start time). */
  value?: string;
  budget: string;
  met: boolean | null;
  note?: string;
}
const rows: Row[] = [];
/** Sequential latencies of ever larger slices of the stack: where a request's time goes. */
const ladder: { step: string; p50: number; p99: number }[] = [];
const notes: string[] = [];
const tmp = mkdtempSync(join(tmpdir(), 'fulcrum-bench-'));
const secret = randomBytes(32).toString('base64url');
const children: Child[] = [];

const fmt = (n: number | undefined, digits = 1) => (n === undefined || Number.isNaN(n) ? '—' : n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }));
const fmtInt = (n: number | undefined) => (n === undefined ? '—' : Math.round(n).toLocaleString('en-US'));

async function gateway(dataDir: string, options: { demo?: boolean; nodeArgs?: string[] } = {}): Promise<Child> {
  const child = await startGateway(dataDir, secret, options);
  children.push(child);
  return child;
}

async function stop(child: Child): Promise<void> {
  await child.stop();
  children.splice(children.indexOf(child), 1);
}

async function login(url: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  if (!res.ok) throw new Error(`login ${email}: ${res.status} ${await res.text()}`);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('fulcrum.sid='));
  if (!cookie) throw new Error(`login ${email}: no session cookie`);
  return cookie.split(';')[0];
}

/** One request done the way the load will do it, checked: a 2xx whose body has no GraphQL errors. */
async function check(spec: LoadSpec, validate: (body: any) => void): Promise<any> {
  const res = await fetch(spec.url, { method: spec.method ?? 'GET', headers: spec.headers, body: spec.body as BodyInit | undefined, signal: AbortSignal.timeout(30_000) });
  const text = await res.text();
  if (res.status < 200 || res.status > 299) throw new Error(`${spec.method ?? 'GET'} ${spec.url}: ${res.status} ${text.slice(0, 500)}`);
  const body = JSON.parse(text);
  if (body?.errors) throw new Error(`${spec.url}: ${JSON.stringify(body.errors).slice(0, 500)}`);
  validate(body);
  return body;
}

/** Non-2xx answers, socket errors and timeouts (10 s) of a run, as text; '' when there were none. */
function failures(r: LoadResult): string {
  const parts = [r.non2xx && `${r.non2xx} non-2xx`, r.errors && `${r.errors} errors`, r.timeouts && `${r.timeouts} timeouts`].filter(Boolean);
  return parts.length ? `FAILED REQUESTS: ${parts.join(', ')} of ${r.requests + r.timeouts}` : '';
}
const withFailures = (r: LoadResult, note?: string) => [note, failures(r)].filter(Boolean).join('; ') || undefined;

/** A 2 s warm-up run (discarded), then the measured run; failed requests are reported in the row. */
async function load(label: string, spec: LoadSpec): Promise<LoadResult> {
  progress(`  ${label}: warm-up`);
  await autocannon({ ...spec, seconds: 2 });
  progress(`  ${label}: ${spec.seconds ?? SECONDS} s at ${spec.connections ?? 50} connections`);
  const result = await autocannon({ seconds: SECONDS, ...spec });
  const failed = failures(result);
  log(`  ${label}: ${fmtInt(result.rps)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms${failed ? `; ${failed}` : ''}`);
  return result;
}

/** Runs one scenario; a failure becomes a row of the table (with the error) instead of ending the bench. */
async function guard(name: string, fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (error) {
    const message = (error as Error).message.split('\n')[0].slice(0, 300);
    log(`  scenario ${name} FAILED: ${message}`);
    rows.push({ scenario: `${name}: failed`, value: message, budget: '—', met: false });
  }
}

/** One connection, one request at a time: latency with sub-millisecond resolution. */
async function latency(label: string, spec: LoadSpec & { anyStatus?: boolean }): Promise<LoadResult> {
  progress(`  ${label}: ${spec.seconds ?? 5} s, 1 connection, sequential`);
  const result = await sequential({ seconds: 5, ...spec });
  log(`  ${label}: p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms (${fmtInt(result.rps)} req/s)`);
  return result;
}

async function statementsOf(gw: Child, request: () => Promise<unknown>): Promise<string[]> {
  await request(); // warm
  await gw.request('reset');
  await request();
  return (await gw.request<{ statements: string[] }>('statements')).statements;
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const DASHBOARD = `query Dashboard($first: Int!, $after: String) {
  tickets(first: $first, after: $after) {
    totalCount
    nodes { id title type priority requester { id name } macro { id name } image { id url } }
    pageInfo { endCursor hasNextPage }
  }
}`;
const gqlHeaders = (cookie: string) => ({ 'content-type': 'application/json', cookie });
const dashboardSpec = (url: string, cookie: string, first = 50, after?: string): LoadSpec => ({
  url: `${url}/graphql`, method: 'POST', headers: gqlHeaders(cookie), body: JSON.stringify({ query: DASHBOARD, variables: { first, after } }),
});

// ---------------------------------------------------------------------------------------------------------------
async function main() {
  log(`fulcrum bench: ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), Node ${process.version}, taskset ${HAS_TASKSET ? 'yes: server on core 0, load on core 1' : 'not found: unpinned'}`);
  log(`temp data under ${tmp}`);

  // ---- seed the main workspace: demo seed through the gateway, the rest in bulk straight into SQLite --------
  const mainDir = join(tmp, 'main');
  let t0 = performance.now();
  progress('seeding main workspace: migrations and demo seed');
  let gw = await gateway(mainDir);
  await stop(gw);
  let db = openDb(mainDir);
  const demoImage = db.prepare('select data, mime_type as mimeType, width, height from ticket_images order by id limit 1').get() as { data: Buffer; mimeType: string; width: number; height: number };
  const customerIds = (db.prepare('select id from customers').all() as { id: number }[]).map((r) => r.id);
  const macroIds = (db.prepare('select id from macros').all() as { id: number }[]).map((r) => r.id);
  const demoHas = count(db, 'select count(*) as n from tickets where assignee_id = 1');
  addTickets(db, { assignees: Array(Math.max(0, 50 - demoHas)).fill(1), requesterIds: customerIds, macroIds, image: demoImage, label: 'demo agent to 50 tickets' });
  const agents = await addAgents(db, 'bench', Math.max(SUBSCRIBERS, 2));
  const agentCookies = forgeSessions(db, agents, secret);
  db.close();
  log(`seeded main workspace in ${((performance.now() - t0) / 1000).toFixed(1)} s: demo agent with 50 tickets, ${agents.length} more agents with sessions`);

  gw = await gateway(mainDir);
  const demo = await login(gw.url, DEMO_ACCOUNTS[0].email, DEMO_ACCOUNTS[0].password);
  const marnie = await login(gw.url, DEMO_ACCOUNTS[1].email, DEMO_ACCOUNTS[1].password);

  // ---- baseline --------------------------------------------------------------------------------------------
  const baselineChild = await startChild(join(ROOT, 'bench/baseline.mjs'), {});
  children.push(baselineChild);
  const baseline = await load('baseline node:http, 200-byte JSON', { url: `${baselineChild.url}/` });
  const baseline1 = await latency('baseline node:http, 1 connection', { url: `${baselineChild.url}/` });
  const baselineUrl = `${baselineChild.url}/`;
  rows.push({ scenario: 'Baseline: bare node:http, 200-byte JSON, 50 connections', rps: baseline.rps, p50: baseline.p50, p99: baseline.p99, ratio: 1, budget: '—', met: null });
  // Neighbours' load on a shared machine drifts within a run, so every throughput row is paired with a baseline
  // run at the same connection count measured just before it, and its ratio is to that one.
  const paired = async (label: string, spec: LoadSpec): Promise<[LoadResult, LoadResult]> => {
    const base = await load(`  baseline just before, ${spec.connections ?? 50} connections`, { url: baselineUrl, connections: spec.connections ?? 50 });
    return [await load(label, spec), base];
  };
  const ratioTo = (r: LoadResult, base: LoadResult) => r.rps / base.rps;
  const baseNote = (base: LoadResult) => `baseline just before: ${fmtInt(base.rps)} req/s`;

  // ---- 1. REST list --------------------------------------------------------------------------------------
  if (runs(1)) await guard('1', async () => {
    const spec: LoadSpec = { url: `${gw.url}/api/tickets/`, headers: { cookie: demo } };
    await check(spec, (b) => {
      if (!Array.isArray(b) || b.length !== 50) throw new Error(`REST list: expected 50 tickets, got ${b?.length}`);
    });
    const statements = await statementsOf(gw, () => fetch(spec.url, { headers: spec.headers }).then((r) => r.text()));
    const [r, base] = await paired('1. REST GET /api/tickets/ (50 tickets)', spec);
    rows.push({
      scenario: '1. REST `GET /api/tickets/`, agent with 50 tickets', rps: r.rps, p50: r.p50, p99: r.p99, ratio: ratioTo(r, base),
      budget: 'ratio ≥ 0.05, p99 < 25 ms', met: ratioTo(r, base) >= 0.05 && r.p99 < 25 && !failures(r), note: withFailures(r, `${statements.length} SQL statements per request; ${baseNote(base)}`),
    });
  });

  // ---- 2. dashboard GraphQL --------------------------------------------------------------------------------
  let dashboardStatements: Record<number, number> = {};
  if (runs(2)) await guard('2', async () => {
    const spec = dashboardSpec(gw.url, demo);
    await check(spec, (b) => {
      const t = b.data.tickets;
      if (t.nodes.length !== 50 || !t.nodes.every((n: any) => n.requester?.name && n.macro?.name && n.image?.url)) throw new Error('dashboard: expected 50 tickets with requester, macro and image');
    });
    for (const first of [5, 50, 100]) {
      const s = dashboardSpec(gw.url, demo, first);
      dashboardStatements[first] = (await statementsOf(gw, () => fetch(s.url, { method: 'POST', headers: s.headers, body: s.body as string }).then((r) => r.text()))).length;
    }
    const sample = await statementsOf(gw, () => fetch(spec.url, { method: 'POST', headers: spec.headers, body: spec.body as string }).then((r) => r.text()));
    notes.push(`Dashboard request, SQL statements (50 tickets): ${sample.map((s) => '`' + s.replace(/\s+/g, ' ').slice(0, 90) + (s.length > 90 ? '…`' : '`')).join('; ')}`);
    const [r, base] = await paired('2. GraphQL dashboard (50 tickets)', spec);
    const counts = Object.values(dashboardStatements);
    const constant = counts.every((c) => c === counts[0]) && counts[0] >= 1 && counts[0] <= 3;
    rows.push({
      scenario: '2. GraphQL dashboard: 50 tickets + requester, macro, image URL', rps: r.rps, p50: r.p50, p99: r.p99, ratio: ratioTo(r, base),
      budget: 'ratio ≥ 0.03, p99 ≤ 3× p50, SQL 1–3 constant', met: ratioTo(r, base) >= 0.03 && r.p99 <= 3 * r.p50 && constant && !failures(r),
      note: `${failures(r) ? failures(r) + '; ' : ''}SQL statements per request at first = 5 / 50 / 100: ${counts.join(' / ')} (session read + page; the session touch is written at most once a minute); p99/p50 = ${(r.p99 / r.p50).toFixed(2)}; ${baseNote(base)}`,
    });
  });

  // ---- the cost ladder: one connection, one request at a time, each step adding a layer ---------------------
  if (runs(2)) await guard('ladder', async () => {
    const steps: [string, LoadSpec][] = [
      ['bare node:http, 200-byte JSON (the baseline)', { url: baselineUrl }],
      ['gateway: unknown path under /api (Express, security headers, session middleware without a cookie, 404)', { url: `${gw.url}/api/nope` }],
      ['gateway: `GET /api/auth/` signed out (no session read)', { url: `${gw.url}/api/auth/` }],
      ['gateway: `GET /api/auth/` signed in (session read + touch, user by id)', { url: `${gw.url}/api/auth/`, headers: { cookie: demo } }],
      ['gateway: GraphQL `{ __typename }` signed in (Apollo pipeline, no resolver)', { url: `${gw.url}/graphql`, method: 'POST', headers: gqlHeaders(demo), body: JSON.stringify({ query: '{ __typename }' }) }],
      ['gateway: REST `GET /api/tickets/` (50 tickets)', { url: `${gw.url}/api/tickets/`, headers: { cookie: demo } }],
      ['gateway: GraphQL dashboard, 5 tickets', dashboardSpec(gw.url, demo, 5)],
      ['gateway: GraphQL dashboard, 50 tickets', dashboardSpec(gw.url, demo, 50)],
    ];
    for (const [step, spec] of steps) {
      const r = await latency(`ladder: ${step}`, { ...spec, seconds: 4, anyStatus: true }); // 404 and signed-out answers are the point of two steps
      ladder.push({ step, p50: r.p50, p99: r.p99 });
    }
  });

  // ---- 6. web (before the writes, so the dashboard shows the same 50 tickets) --------------------------------
  let web: WebResult | undefined;
  if (runs(6)) await guard('6', async () => {
    progress('  6. web: headless Chromium');
    web = await measureWeb(gw.url, demo);
    if (!web.measured) {
      log(`  6. web: not measured: ${web.reason}`);
      rows.push({ scenario: '6. Web: initial JS and time to a rendered dashboard', value: `not measured: ${web.reason}`, budget: '< 200 kB gz each, < 1 s', met: null });
    } else {
      const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;
      log(`  6. web: landing ${kb(web.landing.gzip)} gz, dashboard ${kb(web.dashboard.gzip)} gz, rendered in ${web.renderP50.toFixed(0)} ms (max ${web.renderMax.toFixed(0)})`);
      rows.push({ scenario: '6a. Web: landing page initial JS, gzipped', value: `${kb(web.landing.gzip)} (${web.landing.files} files, ${kb(web.landing.raw)} raw)`, budget: '< 200 kB', met: web.landing.gzip < 200 * 1024 });
      rows.push({ scenario: '6b. Web: dashboard initial JS, gzipped', value: `${kb(web.dashboard.gzip)} (${web.dashboard.files} files, ${kb(web.dashboard.raw)} raw)`, budget: '< 200 kB', met: web.dashboard.gzip < 200 * 1024 });
      rows.push({
        scenario: '6c. Web: navigation → dashboard with 50 tickets rendered (headless Chromium, cold cache)', p50: web.renderP50, p99: web.renderMax,
        value: `median ${web.renderP50.toFixed(0)} ms, max ${web.renderMax.toFixed(0)} ms over ${web.renderMs.length} runs`, budget: '< 1 s', met: web.renderMax < 1000,
      });
    }
  });

  // ---- 3. writes ---------------------------------------------------------------------------------------------
  if (runs(3)) await guard('3', async () => {
    const ticketInput = { title: 'Bench write', type: 'Incident', priority: 'High', requesterId: customerIds[0], macroId: 1, description: 'Created by the benchmark.' };
    // GraphQL requires the image on create ("Image is Required"): the smallest valid PNG, multipart.
    const boundary = '----fulcrumbench';
    const operations = JSON.stringify({ query: 'mutation($input: TicketInput!, $image: Upload) { createTicket(input: $input, image: $image) { id } }', variables: { input: ticketInput, image: null } });
    const multipart = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="operations"\r\n\r\n${operations}\r\n`),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="map"\r\n\r\n{"0":["variables.image"]}\r\n`),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="0"; filename="x.png"\r\nContent-Type: image/png\r\n\r\n`),
      TINY_PNG,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const gqlSpec: LoadSpec = { url: `${gw.url}/graphql`, method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'apollo-require-preflight': 'true', cookie: marnie }, body: multipart };
    await check(gqlSpec, (b) => {
      if (!b.data?.createTicket?.id) throw new Error('createTicket: no id');
    });
    const withoutImage = { query: 'mutation($input: TicketInput!) { createTicket(input: $input) { id } }', variables: { input: ticketInput } };
    const refused = await fetch(`${gw.url}/graphql`, { method: 'POST', headers: gqlHeaders(marnie), body: JSON.stringify(withoutImage) }).then((r) => r.json() as Promise<any>);
    const imageRequired = JSON.stringify(refused.errors ?? '').includes('Image is Required');
    const [r, base] = await paired(`3a. GraphQL createTicket (1x1 PNG), ${WRITE_CONNECTIONS} connections`, { ...gqlSpec, connections: WRITE_CONNECTIONS });
    rows.push({
      scenario: `3a. Write: GraphQL \`createTicket\` (multipart, 1×1 PNG: the image is required), ${WRITE_CONNECTIONS} connections`, rps: r.rps, p50: r.p50, p99: r.p99, ratio: ratioTo(r, base),
      budget: 'report', met: null, note: withFailures(r, `${imageRequired ? 'without an image GraphQL answers "Image is Required", so the write carries the smallest PNG; ' : ''}${baseNote(base)}`),
    });
    const restSpec: LoadSpec = {
      url: `${gw.url}/api/tickets/create`, method: 'POST', headers: { 'content-type': 'application/json', cookie: marnie },
      body: JSON.stringify({ title: 'Bench write', type: 'Incident', priority: 'High', assignee: 2, requester: customerIds[0], apply_macro: 1, description: 'Created by the benchmark.' }),
    };
    await check(restSpec, (b) => {
      if (!b.id) throw new Error('REST create: no id');
    });
    const [rr, base2] = await paired(`3b. REST create ticket without image, ${WRITE_CONNECTIONS} connections`, { ...restSpec, connections: WRITE_CONNECTIONS });
    rows.push({ scenario: `3b. Write: REST \`POST /api/tickets/create\`, no image, ${WRITE_CONNECTIONS} connections`, rps: rr.rps, p50: rr.p50, p99: rr.p99, ratio: ratioTo(rr, base2), budget: 'report', met: null, note: withFailures(rr, baseNote(base2)) });
  });

  await stop(baselineChild);

  // ---- 5. live fan-out ---------------------------------------------------------------------------------------
  if (runs(5)) await guard('5', async () => {
    // A freshly started gateway, so its RSS is the sockets' cost and not the heap left grown by the load runs.
    await stop(gw);
    gw = await gateway(mainDir);
    const subscribers = agents.slice(0, SUBSCRIBERS).map((id) => [id, agentCookies.get(id)!] as [number, string]);
    const inputFile = join(tmp, 'live.json');
    writeFileSync(inputFile, JSON.stringify({ url: gw.url, gatewayPid: gw.pid, subscribers, senderId: agents[0], receiverId: agents[1], messages: 100 }));
    progress(`  5. live: ${subscribers.length} subscribers connecting`);
    const [command, args] = pinned(LOAD_CPU, process.execPath, ['--import', 'tsx', join(ROOT, 'bench/live.ts'), inputFile]);
    const out = await new Promise<string>((resolve, reject) => {
      const proc = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      proc.stdout.on('data', (c) => (stdout += c));
      proc.stderr.on('data', (c) => (stderr += c));
      proc.on('exit', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`live bench exited ${code}: ${stderr.slice(-2000)}`))));
    });
    const live = JSON.parse(out.trim().split('\n').pop()!);
    log(`  5. live: ${live.subscribers} sockets, p50 ${live.p50.toFixed(1)} ms, p99 ${live.p99.toFixed(1)} ms, RSS ${live.rssOpen.toFixed(0)} MB open (${live.rssBefore.toFixed(0)} MB before)`);
    rows.push({
      scenario: `5a. Live: message delivery, send → receipt, ${live.subscribers} graphql-ws subscribers, 100 messages`, p50: live.p50, p99: live.p99,
      budget: 'p99 < 50 ms', met: live.p99 < 50,
      note: `events reached ${live.socketsWithEvents} of ${live.subscribers} sockets (${live.totalEvents} events: sender's and receiver's own topics only); sendMessage round trip p50 ${live.mutationP50.toFixed(1)} ms; presence on: every socket tracked and subscribed to presenceEvents (${live.presenceEvents ?? 0} presence events delivered while connecting)`,
    });
    rows.push({
      scenario: `5b. Live: gateway RSS with ${live.subscribers} sockets open`, value: `${live.rssOpen.toFixed(0)} MB (${live.rssBefore.toFixed(0)} MB before the sockets, ${live.rssAfter.toFixed(0)} MB after the messages)`,
      budget: '< 300 MB', met: live.rssOpen < 300, note: `a freshly started gateway; ${live.subscribers} sockets connected in ${live.connectSeconds.toFixed(1)} s`,
    });
  });
  await stop(gw);

  // ---- profile: where the dashboard's time goes -----------------------------------------------------------------
  let profile: ProfileSummary | undefined;
  if (runs(2) && process.env.BENCH_PROFILE !== '0') await guard('profile', async () => {
    gw = await gateway(mainDir);
    const file = join(tmp, 'dashboard.cpuprofile');
    await autocannon({ ...dashboardSpec(gw.url, demo), seconds: 2 }); // warm, unprofiled
    await gw.request('profile-start');
    await load('profile: GraphQL dashboard, V8 CPU profiler on', { ...dashboardSpec(gw.url, demo), seconds: Math.min(SECONDS, 8) });
    await gw.request('profile-stop', { file });
    await stop(gw);
    profile = summarizeProfile(file);
    if (process.env.BENCH_KEEP_PROFILE) writeFileSync(process.env.BENCH_KEEP_PROFILE, readFileSync(file));
  });

  // ---- 4. scale --------------------------------------------------------------------------------------------
  if (runs(4)) await guard('4', scale);
  if (runs(8)) await guard('8', async () => {
    rows.push(...(await messageCenterScale({
      dir: join(tmp, 'message-center'), gateway, stop, login, latency, statementsOf, demo: DEMO_ACCOUNTS[0], other: DEMO_ACCOUNTS[2],
      totalMessages: Number(process.env.BENCH_MESSAGES ?? 1_000_000),
    })));
  });

  // ---- 7. start ----------------------------------------------------------------------------------------------
  if (runs(7)) await guard('7', start);

  // ---- 8. webhooks (bench/webhooks.ts) -------------------------------------------------------------------------
  if (runs(8)) await guard('8', async () => {
    const w = await measureWebhooks({ dataDir: join(tmp, 'webhooks'), secret, seconds: SECONDS, connections: WRITE_CONNECTIONS, load, track: (child) => children.push(child) });
    rows.push({
      scenario: `8a. Webhooks: delivery lag, write acknowledged → receiver got it, REST ticket creates at ${w.lag.ratePerSecond.toFixed(0)} events/s, receiver on 127.0.0.1`,
      p50: w.lag.p50, p99: w.lag.p99, budget: 'report', met: null,
      note: `${w.lag.sent} writes sent at 100/s, ${w.lag.events} acknowledged (the rest refused or failed: see the gateway's output with BENCH_VERBOSE=1), ${w.lag.delivered} of them delivered`,
    });
    const noneRps = (w.none[0].rps + w.none[1].rps) / 2;
    const costRatio = w.one.rps / noneRps;
    rows.push({
      scenario: `8b. Webhooks: write path with one endpoint registered vs none, REST ticket create, ${WRITE_CONNECTIONS} connections`, rps: w.one.rps, p50: w.one.p50, p99: w.one.p99,
      value: `${costRatio.toFixed(3)} of the throughput without (${fmtInt(w.none[0].rps)} and ${fmtInt(w.none[1].rps)} req/s before and after)`,
      budget: 'within 15 % (≥ 0.85)', met: costRatio >= 0.85 && !failures(w.one),
      note: withFailures(w.one, `${w.deliveredDuringLoad.toLocaleString('en-US')} events delivered during the run`),
    });
  });

  // ---- report ------------------------------------------------------------------------------------------------
  const report = render(baseline, baseline1, profile);
  console.log(`\n${report}`);
  writeDoc(report);
  log(`\nbench finished in ${((performance.now() - benchStarted) / 1000 / 60).toFixed(1)} min; table written to docs/performance.md`);
}

// ---- 4. scale: 1,000 / 100,000 / 1,000,000 tickets --------------------------------------------------------------
async function scale() {
  const dir = join(tmp, 'scale');
  progress('4. scale: migrations and demo seed');
  let gw = await gateway(dir);
  const demo = await login(gw.url, DEMO_ACCOUNTS[0].email, DEMO_ACCOUNTS[0].password);
  const bobbie = await login(gw.url, DEMO_ACCOUNTS[2].email, DEMO_ACCOUNTS[2].password);
  await stop(gw);
  let db = openDb(dir);
  const others = await addAgents(db, 'scale', 98);
  const everyone = [1, 2, 3, ...others];
  const customers = addCustomers(db, everyone, 2000);
  const macros = (db.prepare('select id from macros').all() as { id: number }[]).map((r) => r.id);
  db.close();
  const random = rng(42);
  const textRandom = rng(4242);
  const triage: TriagePoint[] = [];
  // Two agents are measured: the demo agent owns 1% of all tickets (at least a full page), Bobbie 10%.
  const shares = (total: number) => ({ demo: Math.max(50, total / 100), bobbie: total / 10 });
  const results: { total: number; demo: LoadResult; bobbie: LoadResult; deep?: LoadResult; demoCount: number; bobbieCount: number; seedSeconds: number; base: LoadResult }[] = [];
  for (const total of SCALE) {
    db = openDb(dir);
    const have = count(db, 'select count(*) as n from tickets');
    const target = shares(total);
    const demoNeed = Math.max(0, target.demo - count(db, 'select count(*) as n from tickets where assignee_id = 1'));
    const bobbieNeed = Math.max(0, target.bobbie - count(db, 'select count(*) as n from tickets where assignee_id = 3'));
    const restNeed = Math.max(0, total - have - demoNeed - bobbieNeed);
    const assignees = new Int32Array(demoNeed + bobbieNeed + restNeed);
    let k = 0;
    for (let i = 0; i < demoNeed; i++) assignees[k++] = 1;
    for (let i = 0; i < bobbieNeed; i++) assignees[k++] = 3;
    const restAgents = [2, ...others];
    for (let i = 0; i < restNeed; i++) assignees[k++] = restAgents[i % restAgents.length];
    shuffle(assignees, random); // agents' tickets interleave through the table, as they would in real use
    const t0 = performance.now();
    addTickets(db, { assignees, requesterIds: customers, macroIds: macros, label: `${total.toLocaleString('en-US')} tickets`, fields: (i) => seededTicket(i, textRandom) });
    db.exec('analyze');
    const seedSeconds = (performance.now() - t0) / 1000;
    const demoCount = count(db, 'select count(*) as n from tickets where assignee_id = 1');
    const bobbieCount = count(db, 'select count(*) as n from tickets where assignee_id = 3');
    const all = count(db, 'select count(*) as n from tickets');
    const matched = { one: matchCount(db, 3, SEARCH_TERMS.one), two: matchCount(db, 3, SEARCH_TERMS.two), frequent: matchCount(db, 3, SEARCH_TERMS.frequent) };
    db.close();
    log(`  4. ${all.toLocaleString('en-US')} tickets seeded (+${assignees.length.toLocaleString('en-US')} in ${seedSeconds.toFixed(1)} s): demo agent ${demoCount.toLocaleString('en-US')}, Bobbie ${bobbieCount.toLocaleString('en-US')}`);
    const baselineChild = await startChild(join(ROOT, 'bench/baseline.mjs'), {});
    children.push(baselineChild);
    const base = await latency('  baseline just before, 1 connection', { url: `${baselineChild.url}/` });
    await stop(baselineChild);
    gw = await gateway(dir, { demo: false });
    const seconds = Math.min(SECONDS, 5);
    const demoSpec = { ...dashboardSpec(gw.url, demo), seconds };
    const bobbieSpec = { ...dashboardSpec(gw.url, bobbie), seconds };
    for (const [spec, n] of [[demoSpec, demoCount], [bobbieSpec, bobbieCount]] as const) {
      await check(spec, (b) => {
        if (b.data.tickets.totalCount !== n || b.data.tickets.nodes.length !== 50) throw new Error(`scale: expected a full page of ${n}`);
      });
    }
    const demoR = await latency(`4. ${all.toLocaleString('en-US')} tickets, first page, agent with ${demoCount.toLocaleString('en-US')}`, demoSpec);
    const bobbieR = await latency(`4. ${all.toLocaleString('en-US')} tickets, first page, agent with ${bobbieCount.toLocaleString('en-US')}`, bobbieSpec);
    let deep: LoadResult | undefined;
    if (total === SCALE[SCALE.length - 1]) {
      // A page in the middle of Bobbie's tickets, reached by its cursor (keyset: no OFFSET scan).
      db = openDb(dir);
      const mid = (db.prepare('select id from tickets where assignee_id = 3 order by id desc limit 1 offset ?').get(Math.floor(bobbieCount / 2)) as { id: number }).id;
      db.close();
      const after = Buffer.from(`ticket:${mid}`).toString('base64url');
      deep = await latency(`4. deep page (cursor in the middle of ${bobbieCount.toLocaleString('en-US')})`, { ...dashboardSpec(gw.url, bobbie, 50, after), seconds });
    }
    // Issue 14: the filtered and searched dashboard for Bobbie (10% of the tickets).
    triage.push(await measureTriage({ url: gw.url, cookie: bobbie, seconds, total: all, agentTickets: bobbieCount, baseRps: base.rps, matched }, latency, check));
    await stop(gw);
    results.push({ total: all, demo: demoR, bobbie: bobbieR, deep, demoCount, bobbieCount, seedSeconds, base });
  }
  const first = results[0];
  const last = results[results.length - 1];
  for (const r of results) {
    rows.push({
      scenario: `4. Scale: ${r.total.toLocaleString('en-US')} tickets, dashboard first page, agent with ${r.demoCount.toLocaleString('en-US')} (1 connection)`,
      rps: r.demo.rps, p50: r.demo.p50, p99: r.demo.p99, ratio: r.demo.rps / r.base.rps,
      budget: r === last ? 'p50 ≤ 1.5× the 1,000-ticket p50' : '—', met: r === last ? last.demo.p50 <= 1.5 * first.demo.p50 : null,
      note: r === last ? `p50 ${fmt(last.demo.p50, 2)} / ${fmt(first.demo.p50, 2)} ms = ${(last.demo.p50 / first.demo.p50).toFixed(2)}×` : undefined,
    });
  }
  for (const r of results) {
    rows.push({
      scenario: `4. Scale: ${r.total.toLocaleString('en-US')} tickets, dashboard first page, agent with ${r.bobbieCount.toLocaleString('en-US')} (1 connection)`,
      rps: r.bobbie.rps, p50: r.bobbie.p50, p99: r.bobbie.p99, ratio: r.bobbie.rps / r.base.rps,
      budget: r === last ? 'p50 ≤ 1.5× the 1,000-ticket p50' : '—', met: r === last ? last.bobbie.p50 <= 1.5 * first.bobbie.p50 : null,
      note: r === last ? `p50 ${fmt(last.bobbie.p50, 2)} / ${fmt(first.bobbie.p50, 2)} ms = ${(last.bobbie.p50 / first.bobbie.p50).toFixed(2)}×` : undefined,
    });
  }
  if (last.deep) {
    rows.push({
      scenario: `4. Scale: ${last.total.toLocaleString('en-US')} tickets, a page in the middle of ${last.bobbieCount.toLocaleString('en-US')} (cursor, 1 connection)`,
      rps: last.deep.rps, p50: last.deep.p50, p99: last.deep.p99, ratio: last.deep.rps / last.base.rps, budget: '—', met: null,
    });
  }
  rows.push(...triageRows(triage));
  notes.push(`Scale seeding: ${results.map((r) => `${r.total.toLocaleString('en-US')} tickets in ${r.seedSeconds.toFixed(1)} s`).join(', ')} (each with an image row, bulk inserts in 20,000-row transactions). Scale rows' ratios are to a sequential 1-connection baseline measured just before each scale point (${results.map((r) => `${fmtInt(r.base.rps)} req/s`).join(', ')}).`);
}

// ---- 7. start: `npm start` to the first answered request --------------------------------------------------------
async function timeToFirstAnswer(command: string, args: string[], env: Record<string, string>, port: number): Promise<{ ms: number; log: string }> {
  const t0 = performance.now();
  const proc = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
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
    } catch {}
    await new Promise((r) => (exited ? r(null) : proc.once('exit', r)));
  }
}

async function start() {
  const fresh = join(tmp, 'start');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const env = { DATA_DIR: fresh, NODE_ENV: 'production' };
  const first = await timeToFirstAnswer(npm, ['start', '--silent'], env, await freePort());
  log(`  7. npm start, empty DATA_DIR: first answer after ${(first.ms / 1000).toFixed(2)} s`);
  const again = await timeToFirstAnswer(npm, ['start', '--silent'], env, await freePort());
  log(`  7. npm start, existing DATA_DIR: first answer after ${(again.ms / 1000).toFixed(2)} s`);
  const gatewayOnly = await timeToFirstAnswer(process.execPath, ['--import', 'tsx', 'gateway/src/main.ts'], env, await freePort());
  log(`  7. gateway alone (node --import tsx gateway/src/main.ts), existing DATA_DIR: ${(gatewayOnly.ms / 1000).toFixed(2)} s`);
  // What `npm start` could run instead: main.ts bundled once with esbuild (our workspaces inlined, npm dependencies
  // external), started by plain node without the tsx loader. Written under node_modules/.cache so bare imports resolve.
  let bundled: number | undefined;
  try {
    const { build } = await import('esbuild');
    const deps = (file: string) => Object.keys(JSON.parse(readFileSync(join(ROOT, file), 'utf8')).dependencies ?? {});
    const external = [...deps('gateway/package.json'), ...deps('schema/package.json')].filter((d) => d !== '@fulcrum/schema').flatMap((d) => [d, `${d}/*`]);
    const dir = join(ROOT, 'node_modules', '.cache', `fulcrum-bench-${process.pid}`);
    mkdirSync(dir, { recursive: true });
    const outfile = join(dir, 'main.mjs');
    await build({ entryPoints: [join(ROOT, 'gateway/src/main.ts')], bundle: true, platform: 'node', format: 'esm', target: 'node20', external, outfile, tsconfig: join(ROOT, 'tsconfig.json'), logLevel: 'error' });
    try {
      bundled = (await timeToFirstAnswer(process.execPath, [outfile], env, await freePort())).ms;
      log(`  7. gateway bundled with esbuild, plain node, existing DATA_DIR: ${(bundled / 1000).toFixed(2)} s`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  } catch (error) {
    log(`  7. bundled start not measured: ${(error as Error).message.split('\n')[0]}`);
  }
  const builds = /build/.test(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.start);
  rows.push({
    scenario: '7. Start: `npm start` → first answered request, empty DATA_DIR (migrate + demo seed)', value: `${(first.ms / 1000).toFixed(2)} s`, budget: '< 3 s', met: first.ms < 3000,
    note: builds ? 'the start script builds the web app first' : undefined,
  });
  rows.push({ scenario: '7. Start: `npm start` → first answered request, existing DATA_DIR', value: `${(again.ms / 1000).toFixed(2)} s`, budget: '< 3 s', met: again.ms < 3000 });
  rows.push({ scenario: '7. Start: the gateway alone (`node --import tsx gateway/src/main.ts`, as `npm start` runs it), existing DATA_DIR', value: `${(gatewayOnly.ms / 1000).toFixed(2)} s`, budget: '—', met: null });
  if (bundled !== undefined) {
    rows.push({ scenario: '7. Start: the gateway bundled with esbuild, plain `node` (no tsx loader), existing DATA_DIR', value: `${(bundled / 1000).toFixed(2)} s`, budget: '—', met: null, note: 'what `npm start` would take if it ran a bundle built at install time' });
  }
}

// ---- report ----------------------------------------------------------------------------------------------------
function render(baseline: LoadResult, baseline1: LoadResult, profile?: ProfileSummary): string {
  const lines: string[] = [];
  const when = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  lines.push(`Measured ${when} on ${cpus().length} cores (${cpus()[0]?.model?.trim() ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GB), Node ${process.version}, ` +
    `${HAS_TASKSET ? 'gateway pinned to core 0 and load to core 1 with taskset' : 'no taskset: unpinned'}; autocannon, ${SECONDS} s per run after a 2 s warm-up, 50 connections unless stated. ` +
    `Baseline: ${fmtInt(baseline.rps)} req/s at 50 connections, ${fmtInt(baseline1.rps)} req/s (p50 ${baseline1.p50.toFixed(2)} ms) on 1 connection, one request at a time.`);
  lines.push(`\nOther work on the machine: 1-minute load average ${loadAtStart.toFixed(1)} at the start of the run and ${loadavg()[0].toFixed(1)} at the end (${cpus().length} cores; above ${cpus().length} every figure here is slowed by neighbours).`);
  if (ONLY) lines.push(`\nOnly scenarios ${[...ONLY].join(', ')} were run (BENCH_ONLY).`);
  lines.push('');
  lines.push('| Scenario | req/s (median) | p50 ms | p99 ms | ratio to baseline | result | budget | met |');
  lines.push('|---|---:|---:|---:|---:|---|---|:-:|');
  for (const r of rows) {
    const result = [r.value, r.note].filter(Boolean).join('; ');
    const met = r.met === null ? '' : r.met ? 'yes' : '**no**';
    lines.push(`| ${r.scenario} | ${r.rps === undefined ? '' : fmtInt(r.rps)} | ${r.p50 === undefined ? '' : fmt(r.p50, r.p50 < 10 ? 2 : 1)} | ${r.p99 === undefined ? '' : fmt(r.p99, r.p99 < 10 ? 2 : 1)} | ${r.ratio === undefined ? '' : r.ratio === 1 ? '1' : r.ratio.toFixed(3)} | ${result} | ${r.budget} | ${met} |`);
  }
  if (ladder.length) {
    lines.push('');
    lines.push('Where a request\'s time goes: one connection, one request at a time (same run, same cores), each step adding a layer:');
    lines.push('');
    lines.push('| step | p50 ms | p99 ms | p50 added by this layer |');
    lines.push('|---|---:|---:|---:|');
    ladder.forEach((l, i) => lines.push(`| ${l.step} | ${l.p50.toFixed(2)} | ${l.p99.toFixed(2)} | ${i === 0 ? '' : (l.p50 - ladder[i - 1].p50).toFixed(2)} |`));
  }
  if (notes.length) {
    lines.push('');
    for (const n of notes) lines.push(`- ${n}`);
  }
  if (profile) {
    lines.push('');
    lines.push(`CPU profile of the gateway under the dashboard load (V8 CPU profiler as in \`node --cpu-prof\`, started over IPC for the load only: ${profile.busySamples.toLocaleString('en-US')} busy samples, idle ${(profile.idleShare * 100).toFixed(0)}%), self time:`);
    lines.push('');
    lines.push('| by package | share | | by function | share |');
    lines.push('|---|---:|---|---|---:|');
    for (let i = 0; i < Math.max(profile.packages.length, profile.functions.length); i++) {
      const p = profile.packages[i];
      const f = profile.functions[i];
      lines.push(`| ${p ? p.name : ''} | ${p ? (p.share * 100).toFixed(1) + '%' : ''} | | ${f ? '`' + f.name.replace(/\|/g, '\\|') + '`' : ''} | ${f ? (f.share * 100).toFixed(1) + '%' : ''} |`);
    }
  }
  return lines.join('\n');
}

const START = '<!-- bench:start (written by `npm run bench`; edit outside these markers) -->';
const END = '<!-- bench:end -->';

function writeDoc(report: string) {
  const file = join(ROOT, 'docs/performance.md');
  const block = `${START}\n${report}\n${END}`;
  let text = existsSync(file) ? readFileSync(file, 'utf8') : '# Performance\n\nThe latest `npm run bench`:\n\n';
  const a = text.indexOf(START.slice(0, 20));
  const b = text.indexOf(END);
  text = a >= 0 && b > a ? text.slice(0, a) + block + text.slice(b + END.length) : `${text.trimEnd()}\n\n${block}\n`;
  mkdirSync(join(ROOT, 'docs'), { recursive: true });
  writeFileSync(file, text);
}

try {
  await main();
} catch (error) {
  console.error('\nbench failed:', error);
  process.exitCode = 1;
} finally {
  for (const child of [...children]) await child.stop().catch(() => undefined);
  if (!process.env.BENCH_KEEP_DATA) rmSync(tmp, { recursive: true, force: true });
}

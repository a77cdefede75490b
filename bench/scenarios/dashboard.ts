/**
 * Scenario 2: the web app's dashboard query (50 tickets with requester, macro and image URL) under load, its SQL
 * statement count at three page sizes; the cost ladder (where one request's time goes); and a CPU profile of the
 * gateway under the dashboard load.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  SECONDS,
  baseNote,
  check,
  dashboardSpec,
  failures,
  gateway,
  gqlHeaders,
  ladder,
  latency,
  load,
  notes,
  paired,
  ratioTo,
  rows,
  spreadOverBusyAgents,
  statementsOf,
  stop,
  tmp,
  type Workspace,
} from '../context.js';
import { autocannon, type LoadSpec } from '../lib.js';
import { summarizeProfile, type ProfileSummary } from '../profile.js';

/** The dashboard's answer: 50 tickets, each with its requester, macro and image. */
const fiftyWithRelations = (what: string) => (b: any) => {
  const t = b.data.tickets;
  if (t.nodes.length !== 50 || !t.nodes.every((n: any) => n.requester?.name && n.macro?.name && n.image?.url))
    throw new Error(`${what}: expected 50 tickets with requester, macro and image`);
};

export async function dashboard(ws: Workspace): Promise<void> {
  const { gw, demo } = ws;
  const spec = dashboardSpec(gw.url, demo);
  await check(spec, fiftyWithRelations('dashboard'));
  const dashboardStatements: Record<number, number> = {};
  for (const first of [5, 50, 100]) {
    const s = dashboardSpec(gw.url, demo, first);
    dashboardStatements[first] = (
      await statementsOf(gw, () => fetch(s.url, { method: 'POST', headers: s.headers, body: s.body as string }).then((r) => r.text()))
    ).length;
  }
  const sample = await statementsOf(gw, () => fetch(spec.url, { method: 'POST', headers: spec.headers, body: spec.body as string }).then((r) => r.text()));
  notes.push(
    `Dashboard request, SQL statements (50 tickets): ${sample.map((s) => '`' + s.replace(/\s+/g, ' ').slice(0, 90) + (s.length > 90 ? '…`' : '`')).join('; ')}`,
  );
  const [r, base] = await paired(ws, '2. GraphQL dashboard (50 tickets)', spec);
  const counts = Object.values(dashboardStatements);
  const constant = counts.every((c) => c === counts[0]) && counts[0] >= 1 && counts[0] <= 3;
  rows.push({
    scenario: '2. GraphQL dashboard: 50 tickets + requester, macro, image URL',
    rps: r.rps,
    p50: r.p50,
    p99: r.p99,
    ratio: ratioTo(r, base),
    budget: 'ratio ≥ 0.03, p99 ≤ 3× p50, SQL 1–3 constant',
    met: ratioTo(r, base) >= 0.03 && r.p99 <= 3 * r.p50 && constant && !failures(r),
    note: `${failures(r) ? failures(r) + '; ' : ''}SQL statements per request at first = 5 / 50 / 100: ${counts.join(' / ')} (session read + page; the session touch is written at most once a minute); p99/p50 = ${(r.p99 / r.p50).toFixed(2)}; ${baseNote(base)}`,
  });
}

/** 2m. The same dashboard with the load spread over a team of agents with 50 tickets each, each request a different agent's. */
export async function dashboardManyAgents(ws: Workspace): Promise<void> {
  const spread = spreadOverBusyAgents(ws, (cookie) => gqlHeaders(cookie));
  if (!spread) return;
  const spec = { ...dashboardSpec(ws.gw.url, ws.demo), ...spread };
  await check({ ...spec, headers: spread.requests[0].headers }, fiftyWithRelations('dashboard (many agents)'));
  const [r, base] = await paired(ws, `2m. GraphQL dashboard over ${spread.requests.length} agents`, spec);
  rows.push({
    scenario: `2m. GraphQL dashboard, the load spread over ${spread.requests.length} signed-in agents of 50 tickets each`,
    rps: r.rps,
    p50: r.p50,
    p99: r.p99,
    ratio: ratioTo(r, base),
    budget: 'ratio ≥ 0.03, p99 ≤ 3× p50',
    met: ratioTo(r, base) >= 0.03 && r.p99 <= 3 * r.p50 && !failures(r),
    note: `${failures(r) ? failures(r) + '; ' : ''}one agent after another, request n by agent n mod ${spread.requests.length}; p99/p50 = ${(r.p99 / r.p50).toFixed(2)}; ${baseNote(base)}`,
  });
}

/** 2b. The same dashboard with an API token: within 10 % of the cookie row. */
export async function bearerDashboard(ws: Workspace): Promise<void> {
  const { gw, demo } = ws;
  const created = await fetch(`${gw.url}/graphql`, {
    method: 'POST',
    headers: gqlHeaders(demo),
    body: JSON.stringify({ query: 'mutation { createApiToken(input: { name: "bench", scopes: [READ] }) { secret } }' }),
  });
  const token = ((await created.json()) as { data: { createApiToken: { secret: string } } }).data.createApiToken.secret;
  const spec: LoadSpec = { ...dashboardSpec(gw.url, ''), headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` } };
  await check(spec, (b) => {
    if (b.data.tickets.nodes.length !== 50) throw new Error('bearer dashboard: expected 50 tickets');
  });
  const statements = await statementsOf(gw, () => fetch(spec.url, { method: 'POST', headers: spec.headers, body: spec.body as string }).then((r) => r.text()));
  // Cookie and bearer back to back, each after its own baseline, so the comparison sees the same machine.
  const [cookie, cookieBase] = await paired(ws, '2b. GraphQL dashboard, cookie (for the bearer comparison)', dashboardSpec(gw.url, demo));
  const [r, base] = await paired(ws, '2b. GraphQL dashboard, Authorization: Bearer', spec);
  const relative = ratioTo(r, base) / ratioTo(cookie, cookieBase);
  rows.push({
    scenario: '2b. GraphQL dashboard with an API token (`Authorization: Bearer`), 50 tickets',
    rps: r.rps,
    p50: r.p50,
    p99: r.p99,
    ratio: ratioTo(r, base),
    budget: 'within 10 % of the cookie row (≥ 0.9×)',
    met: relative >= 0.9 && !failures(r),
    note: `${failures(r) ? failures(r) + '; ' : ''}${(relative * 100).toFixed(0)} % of the cookie dashboard measured just before (${Math.round(cookie.rps)} req/s); ${statements.length} SQL statements per request (token read + page); ${baseNote(base)}`,
  });
}

/** The cost ladder: one connection, one request at a time, each step adding a layer. */
export async function costLadder(ws: Workspace): Promise<void> {
  const { gw, demo } = ws;
  const steps: [string, LoadSpec][] = [
    ['bare node:http, 200-byte JSON (the baseline)', { url: ws.baselineUrl }],
    ['gateway: unknown path under /api (Express, security headers, session middleware without a cookie, 404)', { url: `${gw.url}/api/nope` }],
    ['gateway: `GET /api/auth/` signed out (no session read)', { url: `${gw.url}/api/auth/` }],
    ['gateway: `GET /api/auth/` signed in (session read + touch, user by id)', { url: `${gw.url}/api/auth/`, headers: { cookie: demo } }],
    [
      'gateway: GraphQL `{ __typename }` signed in (Apollo pipeline, no resolver)',
      { url: `${gw.url}/graphql`, method: 'POST', headers: gqlHeaders(demo), body: JSON.stringify({ query: '{ __typename }' }) },
    ],
    ['gateway: REST `GET /api/tickets/` (50 tickets)', { url: `${gw.url}/api/tickets/`, headers: { cookie: demo } }],
    ['gateway: GraphQL dashboard, 5 tickets', dashboardSpec(gw.url, demo, 5)],
    ['gateway: GraphQL dashboard, 50 tickets', dashboardSpec(gw.url, demo, 50)],
  ];
  for (const [step, spec] of steps) {
    const r = await latency(`ladder: ${step}`, { ...spec, seconds: 4, anyStatus: true }); // 404 and signed-out answers are the point of two steps
    ladder.push({ step, p50: r.p50, p99: r.p99 });
  }
}

/**
 * Where a hot path's time goes: the V8 CPU profiler in a fresh gateway, started over IPC for the load only. The
 * dashboard by default; `BENCH_PROFILE=rest` profiles the REST list's load instead.
 */
export async function profileLoad(ws: Workspace, target: 'dashboard' | 'rest'): Promise<ProfileSummary> {
  const gw = (ws.gw = await gateway(ws.dir));
  const file = join(tmp, `${target}.cpuprofile`);
  const spec: LoadSpec = target === 'rest' ? { url: `${gw.url}/api/tickets/`, headers: { cookie: ws.demo } } : dashboardSpec(gw.url, ws.demo);
  await autocannon({ ...spec, seconds: 2 }); // warm, unprofiled
  await gw.request('profile-start');
  await load(`profile: ${target === 'rest' ? 'REST list' : 'GraphQL dashboard'}, V8 CPU profiler on`, { ...spec, seconds: Math.min(SECONDS, 8) });
  await gw.request('profile-stop', { file });
  await stop(gw);
  const profile = { ...summarizeProfile(file), target: target === 'rest' ? 'the REST list load' : 'the dashboard load' };
  if (process.env.BENCH_KEEP_PROFILE) writeFileSync(process.env.BENCH_KEEP_PROFILE, readFileSync(file));
  return profile;
}

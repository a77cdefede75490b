/**
 * Scenario 13 (shared queues part 2): views at scale, on SQLite and on PostgreSQL + Redis.
 *
 * The workspace: 20 teams of 10 agents (200 agents, `view0001`...: agent k is in team k mod 20), 1,000 customers,
 * and BENCH_VIEW_TICKETS tickets (default 1,000,000), every one in a team: ticket i is in team i mod 20, a fifth of
 * each team's tickets unassigned, the rest spread over the team's members; 60 % SOLVED, 25 % OPEN, 15 % PENDING;
 * one description in 199 asks for a refund (the search term: about 0.5 % of the tickets, the frequency of triage's
 * budgeted one-word query, scale.ts) and one in seven names an invoice (a frequent word, measured without a budget as
 * triage measures its own). Seeded in bulk by one INSERT ... SELECT per 100,000
 * rows from a recursive row counter, the same statement on both databases (the tables' triggers keep the counts
 * and the search index in step, as they do for every write), first 1,000 tickets, then the rest.
 * The measured agent is `view0001`, a member of the first team; every agent signs in over HTTP once.
 *
 * - 13a: a team view's first page with its count: `tickets(viewId, first: 50) { totalCount nodes {...} }` on the
 *   team's default "unsolved" view (TEAM scope), one connection, sequential. Goal p50 ≤ 5 ms.
 * - 13b: "My tickets" (MINE) the same way at 1,000 tickets and at the full size. Goal: ≤ 1.5× the 1,000-ticket p50.
 * - 13c: search within the team's view (`filter: { search: "refund" }`), in relevance order (the default): triage's
 *   budgets for the same kind of query, p50 ≤ 20 ms, p99 ≤ 60 ms. Its note gives the frequent word ("invoice", 14 %
 *   of the tickets, 28 times as many matches) in relevance order and newest first (nothing ranked), without a budget:
 *   relevance ranks every match, so that cost grows with the matches, as triage's frequent-word row shows.
 * - 13d: 200 sockets, one per agent, subscribed to `viewCountEvents`; BENCH_VIEW_WRITES takes (default 60), each by
 *   a member of the next team of an unassigned ticket of that team, one after another 100 ms apart. For each, the
 *   time from sending the write to each of the team's 10 sockets receiving its team's Unassigned count changed.
 *   Goal p99 ≤ 1 s; the SQL statements the gateway ran per write (the write's own and the count reads) are in the row.
 */
import { join } from 'node:path';
import WebSocket from 'ws';
import { openDatabase, usernameKey, type Orm } from '@fulcrum/schema';
import { createPostgresDatabase } from '@fulcrum/schema/testing';
import { TestClient } from '../../gateway/src/testing/client.js';
import { percentile, sleep } from '../../gateway/src/testing/measure.js';
import { wsUrl } from '../../gateway/src/testing/wsClient.js';
import { check, gateway, gql, gqlHeaders, latency, newWorkspace, rows, stop, tmp } from '../context.js';
import { log, progress, type Child, type LoadResult, type LoadSpec } from '../lib.js';
import { fmt, fmtInt } from '../report.js';
import { BENCH_PASSWORD, passwordHash } from '../seed.js';

const TICKETS = Number(process.env.BENCH_VIEW_TICKETS ?? 1_000_000);
const WRITES = Number(process.env.BENCH_VIEW_WRITES ?? 60);
const TEAMS = 20;
const PER_TEAM = 10;
const AGENTS = TEAMS * PER_TEAM;
const CUSTOMERS = 1000;
const SMALL = 1000;
const CHUNK = 100_000;
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const SUFFIX = ' (PostgreSQL + Redis)';

const PAGE = `query ViewPage($viewId: Int!, $filter: TicketFilter, $orderBy: TicketOrder) {
  tickets(viewId: $viewId, first: 50, filter: $filter, orderBy: $orderBy) {
    totalCount
    nodes { id title type priority status version requester { id name } assignee { id username } team { id name } }
    pageInfo { endCursor hasNextPage }
  }
}`;
const VIEWS = '{ views { id name scope team { id } count } }';
const TAKE = 'mutation Take($id: Int!, $v: Int!) { takeTicket(id: $id, expectedVersion: $v) { id assigneeId } }';

interface Seeded {
  agentIds: number[];
  agentEmails: string[];
  teamIds: number[];
}

interface View {
  id: number;
  name: string;
  scope: string;
  team: { id: number } | null;
  count: number;
}

type Kind = 'sqlite' | 'postgresql';

const execute = <T = unknown>(orm: Orm, sql: string, params: unknown[] = []) => orm.em.getConnection().execute<T[]>(sql, params);

/** A block of ids inserted one after another; the seeding's arithmetic (team = base + i mod 20) relies on it. */
function contiguous(ids: number[], what: string): number[] {
  if (ids.some((id, i) => id !== ids[0] + i)) throw new Error(`the seeded ${what} ids are not contiguous`);
  return ids;
}

/** Agents, teams, memberships and customers (once per workspace). */
async function seedPeople(orm: Orm, kind: Kind): Promise<Seeded> {
  const hash = await passwordHash();
  const now = kind === 'sqlite' ? Date.now() : new Date();
  const agentIds: number[] = [];
  const agentEmails: string[] = [];
  const teamIds: number[] = [];
  await orm.em.getConnection().transactional(async (trx) => {
    const run = <T>(sql: string, params: unknown[]) => orm.em.getConnection().execute<T[]>(sql, params, 'all', trx);
    for (let k = 1; k <= AGENTS; k++) {
      const name = `view${String(k).padStart(4, '0')}`;
      const email = `${name}@bench.fulcrum.test`;
      const [row] = await run<{ id: number }>(
        'insert into users (username, username_key, email, password_hash, created_at) values (?, ?, ?, ?, ?) returning id',
        [name, usernameKey(name), email, hash, now],
      );
      agentIds.push(Number(row.id));
      agentEmails.push(email);
    }
    for (let t = 1; t <= TEAMS; t++) {
      const [row] = await run<{ id: number }>('insert into teams (name, created_at) values (?, ?) returning id', [
        `View team ${String(t).padStart(2, '0')}`,
        now,
      ]);
      teamIds.push(Number(row.id));
    }
    for (let k = 0; k < AGENTS; k++)
      await run('insert into team_members (team_id, user_id, created_at) values (?, ?, ?)', [teamIds[k % TEAMS], agentIds[k], now]);
  });
  const owner = agentIds[0];
  const stamp = kind === 'sqlite' ? '?' : 'to_timestamp(cast(? as double precision) / 1000)';
  await execute(
    orm,
    `with recursive g(i) as (select cast(? as integer) union all select i + 1 from g where i < ?)
     insert into customers (name, email, owner_id, created_at)
     select 'View customer ' || i, 'view.customer.' || i || '@example.com', ?, ${stamp} from g`,
    [1, CUSTOMERS, owner, Date.now()],
  );
  return { agentIds: contiguous(agentIds, 'agent'), agentEmails, teamIds: contiguous(teamIds, 'team') };
}

/** Tickets `from`..`to` (1-based row numbers), by INSERT ... SELECT over a recursive counter. */
async function seedTickets(orm: Orm, kind: Kind, seeded: Seeded, from: number, to: number, label: string): Promise<void> {
  const [customer] = await execute<{ id: number }>(orm, "select min(id) as id from customers where email like 'view.customer.%'");
  const [macro] = await execute<{ id: number }>(orm, 'select min(id) as id from macros');
  const base = Date.now() - TICKETS * 1000;
  const stamp = kind === 'sqlite' ? '(? + i * 1000)' : 'to_timestamp((cast(? as double precision) + i * 1000) / 1000)';
  const started = performance.now();
  for (let lo = from; lo <= to; lo += CHUNK) {
    const hi = Math.min(to, lo + CHUNK - 1);
    // team = i mod 20; a fifth unassigned ((i / 20) mod 5 = 0); else member (i / 100) mod 10 of the team, whose
    // agent index is team + 20 * member (agent k is in team k mod 20). Except every tenth of the first SMALL tickets,
    // agent 0's in team 0: so 13b's "My tickets" is a full page of 50 at both sizes (with the rule alone agent 0
    // had 4 tickets at 1,000, and 13b compared a page of 4 with a page of 50).
    const mine = `i <= ${SMALL} and i % 10 = 0`;
    await execute(
      orm,
      `with recursive g(i) as (select cast(? as integer) union all select i + 1 from g where i < ?)
       insert into tickets (title, type, priority, status, assignee_id, team_id, requester_id, macro_id, description, created_at, updated_at)
       select 'View ticket ' || i,
              case i % 4 when 0 then 'Question' when 1 then 'Incident' when 2 then 'Problem' else 'Task' end,
              case (i * 3) % 4 when 0 then 'Low' when 1 then 'Medium' when 2 then 'High' else 'Urgent' end,
              case when (i / 3) % 20 < 12 then 'SOLVED' when (i / 3) % 20 < 17 then 'OPEN' else 'PENDING' end,
              case when ${mine} then ? when (i / 20) % 5 = 0 then null else ? + (i % 20) + 20 * ((i / 100) % 10) end,
              case when ${mine} then ? else ? + (i % 20) end,
              ? + (i % ${CUSTOMERS}),
              ?,
              case when i % 199 = 0 then 'A refund for order ' || i || ' was asked for twice.'
                   when i % 7 = 0 then 'The invoice for order ' || i || ' shows the wrong amount.'
                   else 'Seeded for the views benchmark, row ' || i || ': the printer shows an error after the update.' end,
              ${stamp}, ${stamp}
         from g`,
      [lo, hi, seeded.agentIds[0], seeded.agentIds[0], seeded.teamIds[0], seeded.teamIds[0], Number(customer.id), Number(macro.id), base, base],
    );
    const secs = (performance.now() - started) / 1000;
    progress(`  13. seeding ${label}: ${fmtInt(hi)} / ${fmtInt(to)} tickets (${fmtInt((hi - from + 1) / Math.max(secs, 0.001))} rows/s)`);
  }
  if (kind === 'postgresql') await execute(orm, 'vacuum analyze');
}

const pageSpec = (url: string, cookie: string, viewId: number, filter?: Record<string, unknown>, orderBy?: string): LoadSpec => ({
  url: `${url}/graphql`,
  method: 'POST',
  headers: gqlHeaders(cookie),
  body: JSON.stringify({ query: PAGE, variables: { viewId, filter, orderBy } }),
});

async function viewsOf(url: string, cookie: string): Promise<View[]> {
  return (await gql(url, cookie, VIEWS)).views as View[];
}

/** A view's first page, checked: its total equals the view's count in `views`. */
async function measurePage(label: string, url: string, cookie: string, view: View, filter?: Record<string, unknown>, orderBy?: string): Promise<LoadResult> {
  const spec = pageSpec(url, cookie, view.id, filter, orderBy);
  await check(spec, (body) => {
    if (!filter && body.data.tickets.totalCount !== view.count)
      throw new Error(`${view.name}: totalCount ${body.data.tickets.totalCount} ≠ count ${view.count}`);
    const shown = body.data.tickets.nodes.length;
    if (!filter && shown !== Math.min(50, view.count)) throw new Error(`${view.name}: ${shown} tickets on a first page of a view of ${view.count}`);
    if (filter && !shown) throw new Error(`${view.name}: nothing found`);
  });
  return latency(label, spec);
}

interface LiveResult {
  latencies: number[];
  missing: number;
  statementsPerWrite: number;
}

/** 13d: every agent's socket on viewCountEvents; takes by each team in turn; latency to each member's socket. */
async function measureLive(gw: Child, seeded: Seeded, cookies: string[]): Promise<LiveResult> {
  const url = gw.url;
  // Per agent: its team's Unassigned view id (to recognise the change) and the arrivals waited for.
  const unassignedOf = new Map<number, number>();
  const waiting = new Map<number, (at: number) => void>();
  const sockets: WebSocket[] = [];
  const subscribe = (k: number, cookie: string) =>
    new Promise<void>((resolve, reject) => {
      const ws = new WebSocket(wsUrl(url), 'graphql-transport-ws', { headers: { cookie } });
      const timer = setTimeout(() => reject(new Error(`socket ${k}: no first counts`)), 30_000);
      ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init' })));
      ws.on('message', (raw) => {
        const at = performance.now();
        const msg = JSON.parse((raw as Buffer).toString()) as { type: string; payload?: { data?: { viewCountEvents?: { viewId: number; count: number }[] } } };
        if (msg.type === 'connection_ack')
          ws.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: 'subscription { viewCountEvents { viewId count } }' } }));
        else if (msg.type === 'ping') ws.send(JSON.stringify({ type: 'pong' }));
        else if (msg.type === 'next') {
          const counts = msg.payload?.data?.viewCountEvents ?? [];
          if (timer) {
            clearTimeout(timer);
            resolve();
          }
          if (counts.some((c) => c.viewId === unassignedOf.get(k))) waiting.get(k)?.(at);
        } else if (msg.type === 'error') reject(new Error(`socket ${k}: ${JSON.stringify(msg)}`));
      });
      ws.on('error', reject);
      sockets.push(ws);
    });
  try {
    progress('  13d. views of every agent');
    for (let k = 0; k < AGENTS; k++) {
      const team = seeded.teamIds[k % TEAMS];
      const view = (await viewsOf(url, cookies[k])).find((v) => v.scope === 'TEAM_UNASSIGNED' && v.team?.id === team);
      if (!view) throw new Error(`agent ${k}: no Unassigned view of team ${team}`);
      unassignedOf.set(k, view.id);
    }
    progress(`  13d. ${AGENTS} sockets subscribing to viewCountEvents`);
    for (let k = 0; k < AGENTS; k += 50) await Promise.all(cookies.slice(k, k + 50).map((cookie, j) => subscribe(k + j, cookie)));
    await sleep(1000);
    // Each team's unassigned tickets, read once (the takes then go down the list).
    const queue = new Map<number, { id: number; version: number }[]>();
    for (let t = 0; t < TEAMS; t++) {
      const page = await gql(url, cookies[t], PAGE, { viewId: unassignedOf.get(t) });
      queue.set(t, page.tickets.nodes as { id: number; version: number }[]);
    }
    await gw.request('reset');
    const latencies: number[] = [];
    let missing = 0;
    for (let w = 0; w < WRITES; w++) {
      const t = w % TEAMS;
      const taker = t + TEAMS * (Math.floor(w / TEAMS) % PER_TEAM);
      const ticket = queue.get(t)!.shift();
      if (!ticket) throw new Error(`team ${t}: no unassigned ticket left to take`);
      const members = Array.from({ length: PER_TEAM }, (_, m) => t + TEAMS * m);
      const sent = performance.now();
      const arrivals = members.map(
        (k) =>
          new Promise<number | null>((resolve) => {
            const timer = setTimeout(() => resolve(null), 5000);
            waiting.set(k, (at) => {
              clearTimeout(timer);
              waiting.delete(k);
              resolve(at - sent);
            });
          }),
      );
      await gql(url, cookies[taker], TAKE, { id: ticket.id, v: ticket.version });
      for (const arrival of await Promise.all(arrivals)) {
        if (arrival === null) missing += 1;
        else latencies.push(arrival);
      }
      progress(`  13d. ${w + 1} / ${WRITES} takes`);
      await sleep(100);
    }
    await sleep(500);
    const { statements } = await gw.request<{ statements: string[] }>('statements');
    return { latencies, missing, statementsPerWrite: statements.length / WRITES };
  } finally {
    for (const ws of sockets) ws.terminate();
  }
}

interface Measured {
  label: string;
  mineSmall: LoadResult;
  mine: LoadResult;
  team: LoadResult;
  /** "refund" (0.5 % of the tickets), relevance order: the budgeted row. */
  search: LoadResult;
  /** "invoice" (14 %), relevance order and newest first (nothing ranked: ticketSearch.ts matchesSql `ranked`). */
  frequent: LoadResult;
  frequentNewest: LoadResult;
  live: LiveResult;
  teamCount: number;
  mineCount: number;
  seedSeconds: number;
}

/** One database: seed 1,000 tickets, measure "My tickets", seed the rest, measure everything. */
async function measureOn(kind: Kind, label: string): Promise<Measured> {
  const dir = join(tmp, `views-${kind}`);
  const database = kind === 'postgresql' ? await createPostgresDatabase() : null;
  const env: Record<string, string> = database ? { DATABASE_URL: database.url, REDIS_URL } : {};
  try {
    progress(`13. views${label}: migrations and demo seed`);
    if (database) await stop(await gateway(dir, { env }));
    else await newWorkspace(dir);
    const open = () => openDatabase(database ? { databaseUrl: database.url } : { dataDir: dir });
    let orm = await open();
    let seeded: Seeded;
    const t0 = performance.now();
    try {
      seeded = await seedPeople(orm, kind);
      await seedTickets(orm, kind, seeded, 1, SMALL, `first ${fmtInt(SMALL)}`);
    } finally {
      await orm.close(true);
    }
    let gw = await gateway(dir, { demo: false, env });
    let mineSmall: LoadResult;
    const cookies: string[] = [];
    try {
      progress(`13. views${label}: ${AGENTS} agents signing in`);
      for (const email of seeded.agentEmails) cookies.push((await new TestClient(gw.url).login(email, BENCH_PASSWORD)).cookieHeader);
      const mineView = (await viewsOf(gw.url, cookies[0])).find((v) => v.scope === 'MINE')!;
      mineSmall = await measurePage(`13b. My tickets at ${fmtInt(SMALL)} tickets${label}`, gw.url, cookies[0], mineView);
    } finally {
      await stop(gw);
    }
    orm = await open();
    try {
      await seedTickets(orm, kind, seeded, SMALL + 1, TICKETS, `${fmtInt(TICKETS)}`);
    } finally {
      await orm.close(true);
    }
    const seedSeconds = (performance.now() - t0) / 1000;
    log(`  13. ${fmtInt(TICKETS)} tickets seeded${label} in ${fmt(seedSeconds)} s`);
    gw = await gateway(dir, { demo: false, env });
    try {
      const views = await viewsOf(gw.url, cookies[0]);
      const mineView = views.find((v) => v.scope === 'MINE')!;
      const teamView = views.find((v) => v.scope === 'TEAM' && v.team?.id === seeded.teamIds[0]);
      if (!teamView) throw new Error('no team view for the first team');
      const mine = await measurePage(`13b. My tickets at ${fmtInt(TICKETS)} tickets${label}`, gw.url, cookies[0], mineView);
      const team = await measurePage(`13a. team view first page and count${label}`, gw.url, cookies[0], teamView);
      const search = await measurePage(`13c. search within the team view${label}`, gw.url, cookies[0], teamView, { search: 'refund' });
      const frequent = await measurePage(`13c. a frequent word within the team view${label}`, gw.url, cookies[0], teamView, { search: 'invoice' });
      const frequentNewest = await measurePage(
        `13c. a frequent word within the team view, newest first${label}`,
        gw.url,
        cookies[0],
        teamView,
        { search: 'invoice' },
        'NEWEST',
      );
      const live = await measureLive(gw, seeded, cookies);
      return { label, mineSmall, mine, team, search, frequent, frequentNewest, live, teamCount: teamView.count, mineCount: mineView.count, seedSeconds };
    } finally {
      await stop(gw);
    }
  } finally {
    await database?.drop().catch(() => undefined);
  }
}

function addRows(m: Measured): void {
  const flat = m.mine.p50 / m.mineSmall.p50;
  const lat = m.live.latencies;
  const p50 = lat.length ? percentile(lat, 50) : NaN;
  const p99 = lat.length ? percentile(lat, 99) : NaN;
  rows.push(
    {
      scenario: `13a. Views: a team view's first page (50) with its count, ${fmtInt(TICKETS)} tickets, 20 teams, 200 agents (1 connection)${m.label}`,
      p50: m.team.p50,
      p99: m.team.p99,
      rps: m.team.rps,
      budget: 'p50 ≤ 5 ms',
      met: m.team.p50 <= 5,
      note: `the view holds ${fmtInt(m.teamCount)} tickets (totalCount = the view's count, checked)`,
    },
    {
      scenario: `13b. Views: "My tickets" at ${fmtInt(TICKETS)} against ${fmtInt(SMALL)} tickets (1 connection)${m.label}`,
      value: `p50 ${fmt(m.mine.p50, 2)} ms against ${fmt(m.mineSmall.p50, 2)} ms = ${flat.toFixed(2)}×`,
      budget: '≤ 1.5×',
      met: flat <= 1.5,
      note: `the agent has ${fmtInt(m.mineCount)} tickets at full size`,
    },
    {
      scenario: `13c. Views: search within a team's view ("refund", a word in 0.5 % of the tickets, 1 connection)${m.label}`,
      p50: m.search.p50,
      p99: m.search.p99,
      rps: m.search.rps,
      budget: 'p50 ≤ 20 ms, p99 ≤ 60 ms',
      met: m.search.p50 <= 20 && m.search.p99 <= 60,
      note: `in relevance order (the default with a search); a frequent word ("invoice", 14 %, no budget): p50 ${fmt(m.frequent.p50, 2)} ms, p99 ${fmt(m.frequent.p99, 2)} ms, newest first (nothing ranked) p50 ${fmt(m.frequentNewest.p50, 2)} ms, p99 ${fmt(m.frequentNewest.p99, 2)} ms`,
    },
    {
      scenario: `13d. Views: counts after a take to 200 sockets with their views open (${WRITES} takes)${m.label}`,
      value: `p50 ${fmt(p50)} ms, p99 ${fmt(p99)} ms; ${fmt(m.live.statementsPerWrite, 1)} SQL statements per write`,
      budget: 'p99 ≤ 1 s, no arrival missing',
      met: p99 <= 1000 && m.live.missing === 0,
      note: `${fmtInt(lat.length)} arrivals (10 sockets per take)${m.live.missing ? `; ${m.live.missing} MISSING (5 s)` : ''}; statements per write include the count reads of every socket's views`,
    },
  );
}

/** Scenario 13 on SQLite and, when `postgres`, on PostgreSQL + Redis. */
export async function views(postgres: boolean): Promise<void> {
  addRows(await measureOn('sqlite', ''));
  if (!postgres) return;
  try {
    addRows(await measureOn('postgresql', SUFFIX));
  } catch (error) {
    rows.push({ scenario: `13. Views${SUFFIX}: failed`, value: (error as Error).message.split('\n')[0].slice(0, 300), budget: '—', met: false });
  }
}

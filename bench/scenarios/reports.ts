/**
 * Scenario 12 ("Current and fast"): reports over the report facts (schema/src/services/reports/).
 *
 * - 12a: a 12-month daily report with a team breakdown (GraphQL `report`, Demo: an admin, so every ticket counts),
 *   sequential requests for BENCH_SECONDS; the row gives p50 and p99, and p95 (the goal: p95 ≤ 200 ms) in its note. The workspace holds BENCH_REPORT_TICKETS tickets (default 100,000; the issue's
 *   figure is 1,000,000) spread over the last 12 months in 5 teams, each with its events in the record (created;
 *   70 % a reply by an agent; 60 % solved, a tenth of those reopened and solved again), seeded in bulk (tickets,
 *   events, and their facts by the same fold the write path uses), then the rollups by the migration's rebuild
 *   (migrations/reportRollups.ts rebuildReportRollups), so every row is what the writes would have kept.
 * - 12b: write → visible: a status change through GraphQL, then the report asked until the solve counts; the time
 *   from the write's acknowledgement to the first report that shows it (20 samples; p50 and max). Goal ≤ 5 s.
 * - 12c: the write path with the facts and rollups against without (FULCRUM_REPORT_FACTS=off, the one switch of
 *   services/reports/facts.ts): GraphQL `setTicketStatus` on 100 of Marnie's tickets, each request solving or
 *   reopening one (every write makes facts: a solve, a reopen, backlog moves), two gateways on fresh workspaces,
 *   runs alternating without, with, ... (BENCH_WRITE_PAIRS pairs). Goal: with ≥ 0.9× without.
 *
 * Each on SQLite, then on PostgreSQL + Redis when the bench's PostgreSQL pass runs (BENCH_PG; BENCH_REPORT_DB=sqlite or
 * postgres: one of the two only). Seeded in bulk on both: tickets, events and facts by the fold, rollups by the
 * migration's rebuild.
 */
import { join } from 'node:path';
import { openDatabase } from '@fulcrum/schema';
import { createPostgresDatabase } from '@fulcrum/schema/testing';
import { FACT_COLUMNS, STATE_COLUMNS, factParams, foldAll, stateParams, type ReportEvent } from '../../schema/src/migrations/reportFold.js';
import { rebuildReportRollups } from '../../schema/src/migrations/reportRollups.js';
import {
  PAIRS,
  PAIR_SECONDS,
  SECONDS,
  WRITE_CONNECTIONS,
  check,
  pairedNote,
  pairedRatio,
  failures,
  gateway,
  gql,
  login,
  newWorkspace,
  rows,
  stop,
  tmp,
} from '../context.js';
import { autocannon, log, progress, sequential, type LoadResult, type LoadSpec } from '../lib.js';
import { fmtInt } from '../report.js';
import { openDb } from '../seed.js';

const TICKETS = Number(process.env.BENCH_REPORT_TICKETS ?? 100_000);
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const DAY = 86_400_000;
const TEAMS = 5;
const REPORT = `query($input: ReportInput!) { report(input: $input) {
  totals { created solved backlog firstResponse { count median p90 } resolution { count median } }
  series { bucketStart created solved reopened backlog firstResponse { median } resolution { median } }
  groups { key label totals { created solved backlog } series { bucketStart created solved backlog } } } }`;
const SET_STATUS = 'mutation($id: Int!, $status: TicketStatus!) { setTicketStatus(id: $id, status: $status) { id status } }';

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Where the seed writes: rows of a table in bulk, and any statement (the rollups' rebuild). */
interface Sink {
  postgres: boolean;
  /** Columns as [name, PostgreSQL type, an instant in ms to store as timestamptz]. */
  insert(table: string, columns: [string, string, boolean?][], rows: unknown[][]): Promise<void>;
  execute(sql: string, params: unknown[]): Promise<unknown[]>;
}

function sqliteSink(dir: string): Sink & { close(): void } {
  const db = openDb(dir);
  const prepared = new Map<string, import('better-sqlite3').Statement>();
  return {
    postgres: false,
    async insert(table, columns, list) {
      const sql = `insert into ${table} (${columns.map(([c]) => c).join(', ')}) values (${columns.map(() => '?').join(', ')})`;
      let statement = prepared.get(sql);
      if (!statement) prepared.set(sql, (statement = db.prepare(sql)));
      const run = statement;
      db.transaction(() => list.forEach((r) => run.run(...r)))();
    },
    async execute(sql, params) {
      const statement = db.prepare(sql);
      return statement.reader ? statement.all(...params) : (statement.run(...params), []);
    },
    close: () => db.close(),
  };
}

function postgresSink(orm: Awaited<ReturnType<typeof openDatabase>>): Sink {
  const connection = orm.em.getConnection();
  return {
    postgres: true,
    async insert(table, columns, list) {
      const records = list.map((r) => Object.fromEntries(columns.map(([c], i) => [c, r[i]])));
      await connection.execute(
        `insert into ${table} (${columns.map(([c]) => c).join(', ')}) select ${columns.map(([c, , time]) => (time ? `to_timestamp(${c} / 1000.0)` : c)).join(', ')}
         from json_to_recordset(?::json) as x(${columns.map(([c, type, time]) => `${c} ${time ? 'float8' : type}`).join(', ')})`,
        [JSON.stringify(records)],
      );
    },
    execute: (sql, params) => connection.execute(sql, params),
  };
}

const TICKET_COLUMNS: [string, string, boolean?][] = [
  ['id', 'int'],
  ['title', 'text'],
  ['type', 'text'],
  ['priority', 'text'],
  ['status', 'text'],
  ['team_id', 'int'],
  ['requester_id', 'int'],
  ['macro_id', 'int'],
  ['description', 'text'],
  ['created_at', '', true],
  ['updated_at', '', true],
  ['event_seq', 'int'],
];
const EVENT_COLUMNS: [string, string, boolean?][] = [
  ['ticket_id', 'int'],
  ['seq', 'int'],
  ['at', '', true],
  ['actor_kind', 'text'],
  ['actor_id', 'int'],
  ['actor_name', 'text'],
  ['via', 'text'],
  ['kind', 'text'],
  ['changes', 'text'],
  ['assignee_id', 'int'],
  ['team_id', 'int'],
];
const FACT_TYPES = ['int', 'text', 'int8', 'int', 'int8', 'bool', 'bool', 'int', 'int', 'text', 'text', 'text'];
const STATE_TYPES = ['int', 'int8', 'int', 'int', 'text', 'text', 'text', 'int8', 'bool'];
const columnsOf = (names: string, types: string[]): [string, string][] => names.split(', ').map((c, i) => [c, types[i]]);

/**
 * N tickets over the last 12 months with their events, in bulk (explicit ids after the demo's), their facts by the
 * fold the write path and the migration use (foldAll over each ticket's events), then the rollups by the
 * migration's rebuild (rebuildReportRollups), so every row is what the writes would have kept.
 */
async function seedReports(sink: Sink, label: string): Promise<void> {
  const started = performance.now();
  const now = Date.now();
  const teamIds: number[] = [];
  for (let i = 0; i < TEAMS; i++) {
    const [row] = (await sink.execute(`insert into teams (name, created_at) values (?, ${sink.postgres ? 'now()' : '?'}) returning id`, [
      `Bench team ${i}`,
      ...(sink.postgres ? [] : [now]),
    ])) as { id: number }[];
    teamIds.push(Number(row.id));
  }
  const [max] = (await sink.execute('select coalesce(max(id), 0) as n from tickets', [])) as { n: number }[];
  let nextId = Number(max.n) + 1;
  const priorities = ['Low', 'Medium', 'High', 'Urgent'];
  let seed = 42;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const chunk = 20_000;
  let factCount = 0;
  const bool = (b: unknown) => (sink.postgres ? Boolean(b) : b);
  for (let from = 0; from < TICKETS; from += chunk) {
    const tickets: unknown[][] = [];
    const events: unknown[][] = [];
    const facts: unknown[][] = [];
    const states: unknown[][] = [];
    for (let i = from; i < Math.min(TICKETS, from + chunk); i++) {
      const id = nextId++;
      const created = now - Math.floor(random() * 365 * DAY);
      const team = teamIds[i % TEAMS];
      const priority = priorities[i % 4];
      const list: [number, string, string][] = [
        [
          created,
          'CREATED',
          JSON.stringify([
            { field: 'status', from: null, to: 'OPEN' },
            { field: 'priority', from: null, to: priority },
          ]),
        ],
      ];
      let at = created;
      if (random() < 0.7) list.push([(at += Math.floor(random() * 8 * 3_600_000)), 'REPLY_ADDED', '[]']);
      let status = 'OPEN';
      if (random() < 0.6) {
        list.push([(at += Math.floor(random() * 3 * DAY)), 'UPDATED', '[{"field":"status","from":"OPEN","to":"SOLVED"}]']);
        status = 'SOLVED';
        if (random() < 0.1) {
          list.push([(at += Math.floor(random() * DAY)), 'UPDATED', '[{"field":"status","from":"SOLVED","to":"OPEN"}]']);
          list.push([(at += Math.floor(random() * DAY)), 'UPDATED', '[{"field":"status","from":"OPEN","to":"SOLVED"}]']);
        }
      }
      tickets.push([
        id,
        `Report bench ${i}`,
        'Question',
        priority,
        status,
        team,
        1,
        1,
        'Seeded for the reports benchmark.',
        created,
        Math.min(at, now),
        list.length,
      ]);
      const folded: ReportEvent[] = [];
      list.forEach(([when, kind, changes], n) => {
        const t = Math.min(when, now);
        events.push([id, n + 1, t, 'AGENT', 1, 'demo', 'WEB', kind, changes, 0, team]);
        folded.push({ kind, at: t, actorKind: 'AGENT', changes: JSON.parse(changes) as ReportEvent['changes'], assigneeId: null, teamId: team });
      });
      const result = foldAll(null, folded);
      for (const f of result.facts) facts.push(factParams(id, f).map((v, k) => (k === 5 || k === 6 ? bool(v) : v)));
      if (result.state) states.push([id, ...stateParams(result.state)].map((v, k) => (k === 8 ? bool(v) : v)));
    }
    await sink.insert('tickets', TICKET_COLUMNS, tickets);
    await sink.insert('ticket_events', EVENT_COLUMNS, events);
    await sink.insert('report_facts', columnsOf(FACT_COLUMNS, FACT_TYPES), facts);
    await sink.insert('report_state', columnsOf(`ticket_id, ${STATE_COLUMNS}`, STATE_TYPES), states);
    factCount += facts.length;
    progress(
      `12. reports${label}: seeding ${Math.min(TICKETS, from + chunk).toLocaleString('en-US')} / ${TICKETS.toLocaleString('en-US')} tickets with events and facts`,
    );
  }
  if (sink.postgres) await sink.execute(`select setval(pg_get_serial_sequence('tickets', 'id'), (select max(id) from tickets))`, []);
  progress(`12. reports${label}: folding the facts into the rollups`);
  const rollups = await rebuildReportRollups((sql, params) => sink.execute(sql, params), sink.postgres);
  await sink.execute(sink.postgres ? 'analyze' : 'analyze', []);
  log(
    `12. seeded${label} ${TICKETS.toLocaleString('en-US')} tickets, their events, ${factCount.toLocaleString('en-US')} facts and ${rollups.toLocaleString('en-US')} rollup rows in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}

/** A fresh PostgreSQL database (BENCH_PG pass) and the gateway's environment for it, or SQLite (null). */
async function database(postgres: boolean) {
  if (!postgres) return null;
  const db = await createPostgresDatabase();
  return { db, env: { DATABASE_URL: db.url, REDIS_URL } };
}

async function reportLatency(postgres: boolean): Promise<void> {
  const on = postgres ? 'PostgreSQL + Redis' : 'SQLite';
  const label = postgres ? ' (PostgreSQL)' : '';
  const dir = join(tmp, postgres ? 'reports-postgres' : 'reports');
  const pg = await database(postgres);
  try {
    if (pg) {
      const first = await gateway(dir, { env: pg.env });
      await login(first.url, 0);
      await stop(first);
      const orm = await openDatabase({ databaseUrl: pg.db.url });
      try {
        await seedReports(postgresSink(orm), label);
      } finally {
        await orm.close(true);
      }
    } else {
      await newWorkspace(dir);
      const sink = sqliteSink(dir);
      try {
        await seedReports(sink, label);
      } finally {
        sink.close();
      }
    }
    await measureReports(dir, on, pg ? { demo: false, env: pg.env } : {});
  } finally {
    await pg?.db.drop().catch(() => undefined);
  }
}

async function measureReports(dir: string, on: string, options: Parameters<typeof gateway>[1]): Promise<void> {
  const gw = await gateway(dir, options);
  try {
    const demo = await login(gw.url, 0);
    const today = isoDay(Date.now());
    const input = { from: isoDay(Date.now() - 364 * DAY), to: isoDay(Date.now() + DAY), bucket: 'DAY', timeZone: 'Europe/Berlin', breakdown: 'TEAM' };
    const first = await gql(gw.url, demo, REPORT, { input });
    const created = (first.report as { totals: { created: number } }).totals.created;
    if (created < TICKETS * 0.99) throw new Error(`12a: the report counts ${created} creations of ${TICKETS}`);
    const spec: LoadSpec = {
      url: `${gw.url}/graphql`,
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: demo },
      body: JSON.stringify({ query: REPORT, variables: { input } }),
      seconds: SECONDS,
    };
    const r = await sequential(spec);
    rows.push({
      scenario: `12a. Report: 12 months daily by team, ${TICKETS.toLocaleString('en-US')} tickets (${on}), sequential`,
      p50: r.p50,
      p99: r.p99,
      budget: 'p95 ≤ 200 ms',
      met: r.p95 !== undefined ? r.p95 <= 200 : r.p99 <= 200 ? true : r.p50 > 200 ? false : null,
      note: [failures(r), r.p95 !== undefined && `p95 ${r.p95.toFixed(1)} ms`, `${created.toLocaleString('en-US')} creations counted`]
        .filter(Boolean)
        .join('; '),
    });

    // 12b: write → visible.
    const marnie = await login(gw.url, 1);
    const mine = (await gql(gw.url, marnie, '{ tickets(first: 20) { nodes { id status } } }')) as { tickets: { nodes: { id: number; status: string }[] } };
    const todayInput = { from: today, to: isoDay(Date.now() + DAY), bucket: 'DAY', timeZone: 'UTC' };
    const solvedNow = async () =>
      (
        (await gql(gw.url, marnie, 'query($input: ReportInput!) { report(input: $input) { totals { solved } } }', { input: todayInput })) as {
          report: { totals: { solved: number } };
        }
      ).report.totals.solved;
    const samples: number[] = [];
    for (const t of mine.tickets.nodes) {
      if (t.status === 'SOLVED') await gql(gw.url, marnie, SET_STATUS, { id: t.id, status: 'OPEN' });
      const before = await solvedNow();
      await gql(gw.url, marnie, SET_STATUS, { id: t.id, status: 'SOLVED' });
      const acked = performance.now();
      while ((await solvedNow()) <= before) if (performance.now() - acked > 10_000) throw new Error('12b: a solve did not show within 10 s');
      samples.push(performance.now() - acked);
    }
    samples.sort((a, b) => a - b);
    const p50 = samples[Math.floor(samples.length / 2)];
    const max = samples[samples.length - 1];
    rows.push({
      scenario: `12b. Write → visible in a report (${on}; status change, then the report asked until it counts; ${samples.length} samples)`,
      value: `p50 ${p50.toFixed(1)} ms, max ${max.toFixed(1)} ms`,
      budget: '≤ 5 s',
      met: max <= 5000,
    });
  } finally {
    await stop(gw);
  }
}

/** 12c: setTicketStatus throughput with the facts against without, paired. */
async function writePath(postgres: boolean): Promise<void> {
  const sides = [];
  const databases: NonNullable<Awaited<ReturnType<typeof database>>>[] = [];
  for (const [name, switches] of [
    ['without', { FULCRUM_REPORT_FACTS: 'off' }],
    ['with', {}],
  ] as const) {
    const dir = join(tmp, `reports-writes-${name}${postgres ? '-postgres' : ''}`);
    const pg = await database(postgres);
    if (pg) databases.push(pg);
    else await newWorkspace(dir);
    const gw = await gateway(dir, { env: { ...switches, ...pg?.env } });
    const marnie = await login(gw.url, 1);
    const headers = { 'content-type': 'application/json', cookie: marnie };
    const ids: number[] = [];
    for (let i = 0; i < 100; i++) {
      const res = await fetch(`${gw.url}/api/tickets/create`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          title: `Status target ${i}`,
          type: 'Question',
          priority: 'Medium',
          assignee: 2,
          requester: 1,
          apply_macro: 1,
          description: 'Solved and reopened by the benchmark.',
        }),
      });
      if (!res.ok) throw new Error(`12c: creating tickets: ${res.status} ${await res.text()}`);
      ids.push(((await res.json()) as { id: number }).id);
    }
    const requests = ['SOLVED', 'OPEN'].flatMap((status) =>
      ids.map((id) => ({ path: '/graphql', body: JSON.stringify({ query: SET_STATUS, variables: { id, status } }) })),
    );
    const spec: LoadSpec = {
      url: `${gw.url}/graphql`,
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: marnie },
      connections: WRITE_CONNECTIONS,
      requests,
    };
    await check({ ...spec, body: requests[0].body }, (b: { data?: { setTicketStatus?: { status: string } } }) => {
      if (b.data?.setTicketStatus?.status !== 'SOLVED') throw new Error(`12c: ${JSON.stringify(b)}`);
    });
    sides.push({ name, gw, spec });
  }
  const results: Record<string, LoadResult[]> = { without: [], with: [] };
  try {
    for (let pair = 0; pair < PAIRS; pair++)
      for (const side of sides) {
        progress(`12c. write path ${side.name} the report facts, pair ${pair + 1} / ${PAIRS}`);
        await autocannon({ ...side.spec, seconds: 2 });
        results[side.name].push(await autocannon({ ...side.spec, seconds: PAIR_SECONDS }));
      }
  } finally {
    for (const side of sides) await stop(side.gw);
    for (const pg of databases) await pg.db.drop().catch(() => undefined);
  }
  const mean = (list: LoadResult[]) => list.reduce((s, r) => s + r.rps, 0) / list.length;
  const paired = pairedRatio(results.with, results.without);
  const ratio = paired.ratio;
  const last = results.with[results.with.length - 1];
  rows.push({
    scenario: `12c. GraphQL setTicketStatus with the report facts and rollups vs without (${postgres ? 'PostgreSQL + Redis' : 'SQLite'}, ${PAIRS} pairs, ${WRITE_CONNECTIONS} connections)`,
    rps: mean(results.with),
    p50: last.p50,
    p99: last.p99,
    ratio,
    budget: '≥ 0.9× without',
    met: ratio >= 0.9,
    note: [
      `the ${pairedNote(paired)}`,
      `without: ${fmtInt(mean(results.without))} req/s`,
      ...[...results.with, ...results.without].map(failures).filter(Boolean),
    ].join('; '),
  });
}

/** Scenario 12 on SQLite, then (`postgres`: the bench's PostgreSQL pass) on PostgreSQL + Redis. BENCH_REPORT_DB=postgres: that pass only. */
export async function reports(postgres: boolean): Promise<void> {
  const only = process.env.BENCH_REPORT_DB;
  for (const pg of [false, true]) {
    if ((pg && !postgres) || (only && only !== (pg ? 'postgres' : 'sqlite'))) continue;
    await reportLatency(pg);
    await writePath(pg);
  }
}

/**
 * The PostgreSQL + Redis pass ("the same rows on PostgreSQL + Redis, the scale-out path users move to"):
 * rows 1, 2, 3a, 3b and 3c again, against a gateway on a fresh PostgreSQL database (created for the run and
 * dropped after it) with Redis for the event bus, presence and limits. Each row is the SQLite row's scenario with
 * "(PostgreSQL + Redis)" and says its ratio to that SQLite row of the same run (goal: within 2x, at least 0.5).
 *
 *   BENCH_PG=1   run it (a failure to reach PostgreSQL or Redis is then a failed row); BENCH_PG=0 skip it;
 *                unset: run it when PostgreSQL answers on 127.0.0.1:5432 and Redis on 6379.
 *   FULCRUM_TEST_PG_URL  the server and database to create the run's database from (default the `test`
 *                database on 127.0.0.1:5432, trust auth); BENCH_REDIS_URL (default redis://127.0.0.1:6379).
 */
import { connect } from 'node:net';
import { join } from 'node:path';
import { openDatabase, usernameKey } from '@fulcrum/schema';
import { createPostgresDatabase } from '@fulcrum/schema/testing';
import { BUSY_AGENTS, gateway, gql, login, notes, rows, secret, stop, tmp, type Workspace } from '../context.js';
import { progress } from '../lib.js';
import type { Row } from '../report.js';
import { TINY_PNG, forgedSession, passwordHash } from '../seed.js';

const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const SUFFIX = ' (PostgreSQL + Redis)';

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** Whether this run has the PostgreSQL pass (see BENCH_PG above); a skip leaves a note under the table. */
export async function postgresPassWanted(): Promise<boolean> {
  if (process.env.BENCH_PG === '0') return false;
  if (process.env.BENCH_PG === '1') return true;
  const [pg, redis] = await Promise.all([answers(5432), answers(Number(new URL(REDIS_URL).port || 6379))]);
  if (!pg || !redis)
    notes.push(`PostgreSQL + Redis rows not run: nothing answers on 127.0.0.1:${pg ? new URL(REDIS_URL).port || 6379 : 5432} (BENCH_PG=1 requires them).`);
  return pg && redis;
}

/** The demo agent's tickets up to 50 (each with an image, like the SQLite workspace), through GraphQL. */
async function fillDemoTickets(url: string, cookie: string, customerIds: number[]): Promise<void> {
  // The demo agent's own tickets (an admin's list without the filter counts every agent's).
  const has = (await gql(url, cookie, '{ tickets(first: 1, filter: { assignedToMe: true }) { totalCount } }')).tickets.totalCount as number;
  for (let i = has; i < 50; i++) {
    const form = new FormData();
    const input = {
      title: `Bench ticket ${i}`,
      type: 'Incident',
      priority: 'Medium',
      requesterId: customerIds[i % customerIds.length],
      macroId: 1,
      description: 'Seeded by the benchmark.',
    };
    form.append(
      'operations',
      JSON.stringify({
        query: 'mutation($input: TicketInput!, $image: Upload) { createTicket(input: $input, image: $image) { id } }',
        variables: { input, image: null },
      }),
    );
    form.append('map', JSON.stringify({ 0: ['variables.image'] }));
    form.append('0', new Blob([new Uint8Array(TINY_PNG)], { type: 'image/png' }), 'x.png');
    const res = await fetch(`${url}/graphql`, { method: 'POST', headers: { cookie, 'apollo-require-preflight': 'true' }, body: form });
    const body = (await res.json()) as { errors?: { message: string }[] };
    if (body.errors?.length) throw new Error(`seeding PostgreSQL: ${body.errors[0].message}`);
  }
}

/**
 * Rows 1m and 2m on PostgreSQL: BUSY_AGENTS agents with 50 tickets each (with an image) and a signed-in session
 * each, written in bulk as the SQLite workspace's are (bench/seed.ts: addAgents, addTickets, forgeSessions).
 */
async function seedBusyAgents(databaseUrl: string, customerIds: number[]): Promise<{ busyAgents: number[]; agentCookies: Map<number, string> }> {
  const orm = await openDatabase({ databaseUrl });
  const agentCookies = new Map<number, string>();
  const busyAgents: number[] = [];
  try {
    const hash = await passwordHash();
    const connection = orm.em.getConnection();
    await connection.transactional(async (trx) => {
      const run = <T>(sql: string, params: unknown[]) => connection.execute<T[]>(sql, params, 'all', trx);
      for (let k = 1; k <= BUSY_AGENTS; k++) {
        const name = `busy${String(k).padStart(4, '0')}`;
        const [row] = await run<{ id: number }>(
          'insert into users (username, username_key, email, password_hash, created_at) values (?, ?, ?, ?, now()) returning id',
          [name, usernameKey(name), `${name}@bench.fulcrum.test`, hash],
        );
        const userId = Number(row.id);
        busyAgents.push(userId);
        const session = forgedSession(userId, secret);
        await run('insert into sessions (sid, data, user_id, expires_at) values (?, ?, ?, ?)', [session.sid, session.data, userId, session.expires]);
        agentCookies.set(userId, session.cookie);
      }
      // A PostgreSQL array literal: knex would spread a JS array into a list of bindings.
      const agentIds = `{${busyAgents.join(',')}}`;
      await run(
        `insert into tickets (title, type, priority, status, assignee_id, requester_id, macro_id, description, created_at, updated_at)
         select 'Bench ticket ' || a.n || '.' || g, 'Task', 'Low', 'OPEN', a.id, ?, 1, 'Seeded for the benchmark.', now(), now()
           from unnest(cast(? as integer[])) with ordinality as a(id, n), generate_series(1, 50) as g`,
        [customerIds[0], agentIds],
      );
      await run(
        `insert into ticket_images (ticket_id, mime_type, byte_size, width, height, data, created_at)
         select t.id, 'image/png', ?, 1, 1, ?, now() from tickets t where t.assignee_id = any(cast(? as integer[]))`,
        [TINY_PNG.length, TINY_PNG, agentIds],
      );
    });
    await connection.execute('vacuum analyze');
  } finally {
    await orm.close(true);
  }
  return { busyAgents, agentCookies };
}

/**
 * Runs `scenarios` (the SQLite rows' own functions) against a PostgreSQL + Redis gateway and turns the rows they
 * add into "(PostgreSQL + Redis)" rows with their ratio to the SQLite row of the same name.
 */
export async function postgresRows(sqlite: Workspace, scenarios: ((ws: Workspace) => Promise<void>)[]): Promise<void> {
  progress('PostgreSQL + Redis: creating a database, migrations and demo seed');
  const db = await createPostgresDatabase();
  const dir = join(tmp, 'postgres');
  let gw: Workspace['gw'] | undefined;
  try {
    gw = await gateway(dir, { env: { DATABASE_URL: db.url, REDIS_URL } });
    const demo = await login(gw.url, 0);
    const marnie = await login(gw.url, 1);
    const customerIds = ((await gql(gw.url, demo, '{ customers(first: 100) { nodes { id } } }')).customers.nodes as { id: number }[]).map((c) => c.id);
    await fillDemoTickets(gw.url, demo, customerIds);
    const busy = sqlite.busyAgents?.length ? await seedBusyAgents(db.url, customerIds) : { busyAgents: [], agentCookies: new Map<number, string>() };
    const ws: Workspace = { dir, gw, demo, marnie, customerIds, agents: busy.busyAgents, ...busy, baselineUrl: sqlite.baselineUrl };
    for (const scenario of scenarios) {
      const from = rows.length;
      const notesFrom = notes.length;
      try {
        await scenario(ws);
      } catch (error) {
        rows.push({ scenario: `${scenario.name}: failed`, value: (error as Error).message.split('\n')[0].slice(0, 300), budget: '—', met: false });
      }
      for (const row of rows.slice(from)) relabel(row);
      for (let i = notesFrom; i < notes.length; i++) notes[i] = `${SUFFIX.trim()}: ${notes[i]}`;
    }
  } finally {
    if (gw) await stop(gw);
    await db.drop().catch(() => undefined);
  }
}

function relabel(row: Row): void {
  const twin = rows.find((r) => r !== row && r.scenario === row.scenario);
  row.scenario += SUFFIX;
  if (!twin?.ratio || row.ratio === undefined) {
    row.budget = 'within 2× of the SQLite row (≥ 0.5×)';
    row.met = null;
    row.note = ['no SQLite row in this run to compare with', row.note].filter(Boolean).join('; ');
    return;
  }
  const relative = row.ratio / twin.ratio;
  row.budget = 'within 2× of the SQLite row (≥ 0.5×)';
  row.met = relative >= 0.5 && !row.note?.includes('FAILED');
  row.note = [`${relative.toFixed(2)}× the SQLite row (ratio ${row.ratio.toFixed(3)} vs ${twin.ratio.toFixed(3)})`, row.note].filter(Boolean).join('; ');
}

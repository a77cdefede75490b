/**
 * Scenario 10a/10b ("Fast"): a ticket's timeline at scale. BENCH_TIMELINE_EVENTS events (default
 * 1,000,000) in `ticket_events`, spread over many tickets (about 50 entries each, interleaved through the table),
 * one ticket of the demo agent with 5,000 entries (a fifth of them notes, some edited or deleted). Measured one
 * request at a time: the first page (50) of `Ticket.timeline` as the web app asks for it (budget: p50 ≤ 5 ms),
 * and a page in the middle reached by its cursor; the SQL statements of a request are counted at 5 and 50 entries
 * per page, on a cursor page, and on a ticket with 10 entries: they must not change. On SQLite, and on PostgreSQL +
 * Redis when the bench's PostgreSQL pass runs (bench/scenarios/postgres.ts: BENCH_PG), each on its own workspace
 * seeded in bulk by timelineSeed.ts.
 */
import { join } from 'node:path';
import { openDatabase } from '@fulcrum/schema';
import { createPostgresDatabase } from '@fulcrum/schema/testing';
import { gateway, latency, login, newWorkspace, rows, startBaseline, statementsOf, stop, tmp } from '../context.js';
import { log, progress, type Child, type LoadResult, type LoadSpec } from '../lib.js';
import { fmt, fmtInt } from '../report.js';
import { count, openDb } from '../seed.js';
import { postgresSink, seedTimeline, sqliteSink, type SeededTimeline, type Sink, type TimelinePlan } from './timelineSeed.js';

/** BENCH_TIMELINE_EVENTS: the events in the table (default 1,000,000). */
const TOTAL_EVENTS = Number(process.env.BENCH_TIMELINE_EVENTS ?? 1_000_000);
const BIG = 5_000;
const SMALL = 10;
const DEMO_ID = 1;
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const SUFFIX = ' (PostgreSQL + Redis)';

/** The timeline as the ticket page asks for it: notes with author, text and edit mark, changes with actor, door, kind and fields. */
export const TIMELINE = `query Timeline($id: Int!, $first: Int, $after: String) {
  ticket(id: $id) {
    id
    timeline(first: $first, after: $after) {
      totalCount
      pageInfo { endCursor hasNextPage }
      nodes {
        __typename
        ... on TicketNote { id seq at body editedAt deletedAt author { id username } }
        ... on TicketChange { seq at kind via noteId actor { kind name user { id username } } changes { field from to } }
      }
    }
  }
}`;

interface Measured {
  label: string;
  seeded: SeededTimeline;
  seedSeconds: number;
  first: LoadResult;
  deep: LoadResult;
  /** The same page asking each entry's seq only, and the smallest signed-in request: where the time goes. */
  seqOnly: LoadResult;
  floor: LoadResult;
  base: LoadResult;
  statements: { page5: number; page50: number; cursor: number; small: number };
  mix: { notes: number; changes: number };
}

interface Page {
  totalCount: number;
  pageInfo: { endCursor: string | null; hasNextPage: boolean };
  nodes: { __typename: string; seq: number }[];
}

async function measure(gw: Child, cookie: string, label: string, seeded: SeededTimeline, seedSeconds: number): Promise<Measured> {
  const spec = (id: number, first: number, after?: string): LoadSpec => ({
    url: `${gw.url}/graphql`,
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ query: TIMELINE, variables: { id, first, after } }),
    seconds: 5,
  });
  const page = async (s: LoadSpec): Promise<Page> => {
    const res = await fetch(s.url, { method: 'POST', headers: s.headers, body: s.body as string });
    const body = (await res.json()) as { data?: { ticket: { timeline: Page } }; errors?: unknown };
    if (body.errors || !body.data) throw new Error(`10: ${JSON.stringify(body.errors).slice(0, 300)}`);
    return body.data.ticket.timeline;
  };
  // Checked once: a full page of the 5,000, newest first, without gaps, with notes and changes.
  const firstSpec = spec(seeded.bigTicketId, 50);
  const first = await page(firstSpec);
  const seqs = first.nodes.map((n) => n.seq);
  if (first.totalCount !== BIG || first.nodes.length !== 50 || !first.pageInfo.hasNextPage || seqs.some((s, i) => s !== BIG - i))
    throw new Error(`10: expected entries ${BIG}..${BIG - 49} of ${BIG}, got ${first.totalCount} entries, seqs ${seqs.slice(0, 5).join(', ')}...`);
  const mix = {
    notes: first.nodes.filter((n) => n.__typename === 'TicketNote').length,
    changes: first.nodes.filter((n) => n.__typename === 'TicketChange').length,
  };
  const small = await page(spec(seeded.smallTicketId, 50));
  if (small.totalCount !== SMALL || small.nodes.length !== SMALL) throw new Error(`10: the small ticket has ${small.totalCount} entries, not ${SMALL}`);
  // A page in the middle, by the cursor of the entry before it (seq 2,501).
  let middle = first;
  const cursorOf = async (seq: number) => {
    // The cursor of an entry is only handed out by a page ending on it: page 50 at a time down to it.
    while (middle.nodes[middle.nodes.length - 1].seq > seq)
      middle = await page(spec(seeded.bigTicketId, Math.min(100, middle.nodes[middle.nodes.length - 1].seq - seq), middle.pageInfo.endCursor!));
    return middle.pageInfo.endCursor!;
  };
  const deepSpec = spec(seeded.bigTicketId, 50, await cursorOf(BIG / 2 + 1));
  const deepPage = await page(deepSpec);
  if (deepPage.nodes[0]?.seq !== BIG / 2) throw new Error(`10: the middle page starts at ${deepPage.nodes[0]?.seq}, not ${BIG / 2}`);

  const statements = async (s: LoadSpec) => (await statementsOf(gw, () => page(s))).length;
  const counted = {
    page5: await statements(spec(seeded.bigTicketId, 5)),
    page50: await statements(firstSpec),
    cursor: await statements(deepSpec),
    small: await statements(spec(seeded.smallTicketId, 50)),
  };
  const baselineChild = await startBaseline();
  const base = await latency('  baseline just before, 1 connection', { url: `${baselineChild.url}/` });
  await stop(baselineChild);
  const firstR = await latency(`10a. timeline first page (50 of ${fmtInt(BIG)}, ${fmtInt(seeded.events)} events)${label}`, firstSpec);
  const deepR = await latency(`10b. timeline page in the middle (cursor)${label}`, deepSpec);
  const seqOnly = await latency(`10. reference: the first page, seq only${label}`, {
    ...firstSpec,
    body: JSON.stringify({
      query: 'query($id: Int!) { ticket(id: $id) { timeline(first: 50) { totalCount nodes { ... on TicketNote { seq } ... on TicketChange { seq } } } } }',
      variables: { id: seeded.bigTicketId },
    }),
  });
  const floor = await latency(`10. reference: \`{ me { id } }\`${label}`, { ...firstSpec, body: JSON.stringify({ query: '{ me { id } }' }) });
  return { label, seeded, seedSeconds, first: firstR, deep: deepR, seqOnly, floor, base, statements: counted, mix };
}

function plan(users: { id: number; username: string }[], customerIds: number[]): TimelinePlan {
  return { total: TOTAL_EVENTS, big: { entries: BIG, owner: DEMO_ID }, small: { entries: SMALL, owner: DEMO_ID }, perTicket: 50, users, customerIds };
}

async function onSqlite(): Promise<Measured> {
  const dir = join(tmp, 'timeline');
  progress('10. timeline (SQLite): migrations and demo seed');
  const [demo] = await newWorkspace(dir, 0);
  const db = openDb(dir);
  const users = db.prepare('select id, username from users order by id').all() as { id: number; username: string }[];
  const customerIds = (db.prepare('select id from customers order by id').all() as { id: number }[]).map((r) => r.id);
  const existing = count(db, 'select count(*) as n from ticket_events');
  const t0 = performance.now();
  const seeded = await seedTimeline(sqliteSink(db), plan(users, customerIds), existing, 'timeline (SQLite)');
  const seedSeconds = (performance.now() - t0) / 1000;
  const inTable = count(db, 'select count(*) as n from ticket_events');
  db.close();
  log(`  10. SQLite: ${fmtInt(inTable)} events seeded in ${seedSeconds.toFixed(1)} s (${describe(seeded)})`);
  const gw = await gateway(dir, { demo: false });
  try {
    return await measure(gw, demo, '', { ...seeded, events: inTable }, seedSeconds);
  } finally {
    await stop(gw);
  }
}

async function onPostgres(): Promise<Measured> {
  progress('10. timeline (PostgreSQL + Redis): creating a database, migrations and demo seed');
  const database = await createPostgresDatabase();
  const dir = join(tmp, 'timeline-postgres');
  const env = { DATABASE_URL: database.url, REDIS_URL };
  try {
    let gw = await gateway(dir, { env });
    const demo = await login(gw.url, 0);
    await stop(gw);
    const orm = await openDatabase({ databaseUrl: database.url });
    let seeded: SeededTimeline;
    let seedSeconds: number;
    let inTable: number;
    try {
      const connection = orm.em.getConnection();
      const users = (await connection.execute<{ id: number; username: string }[]>('select id, username from users order by id')).map((u) => ({
        id: Number(u.id),
        username: u.username,
      }));
      const customerIds = (await connection.execute<{ id: number }[]>('select id from customers order by id')).map((r) => Number(r.id));
      const existing = Number((await connection.execute<{ n: string }[]>('select count(*) as n from ticket_events'))[0].n);
      const t0 = performance.now();
      const sink: Sink = postgresSink(orm);
      seeded = await seedTimeline(sink, plan(users, customerIds), existing, 'timeline (PostgreSQL)');
      seedSeconds = (performance.now() - t0) / 1000;
      inTable = Number((await connection.execute<{ n: string }[]>('select count(*) as n from ticket_events'))[0].n);
    } finally {
      await orm.close(true);
    }
    log(`  10. PostgreSQL: ${fmtInt(inTable)} events seeded in ${seedSeconds.toFixed(1)} s (${describe(seeded)})`);
    gw = await gateway(dir, { demo: false, env });
    try {
      return await measure(gw, demo, SUFFIX, { ...seeded, events: inTable }, seedSeconds);
    } finally {
      await stop(gw);
    }
  } finally {
    await database.drop().catch(() => undefined);
  }
}

const describe = (s: SeededTimeline) =>
  `${fmtInt(s.tickets)} tickets, ${fmtInt(s.notes)} notes with ${fmtInt(s.revisions)} revisions; the measured ticket has ${fmtInt(BIG)} entries, the small one ${SMALL}`;

function addRows(m: Measured, sqlite?: Measured): void {
  const s = m.statements;
  const constant = s.page5 === s.page50 && s.page50 === s.cursor && s.page50 === s.small;
  const versus = sqlite ? `; p50 ${(m.first.p50 / sqlite.first.p50).toFixed(2)}× the SQLite row's` : '';
  rows.push(
    {
      scenario: `10a. Timeline: first page (50) of \`Ticket.timeline\`, a ticket with ${fmtInt(BIG)} entries among ${fmtInt(m.seeded.events)} events (1 connection)${m.label}`,
      rps: m.first.rps,
      p50: m.first.p50,
      p99: m.first.p99,
      ratio: m.first.rps / m.base.rps,
      budget: 'p50 ≤ 5 ms; statements constant',
      met: m.first.p50 <= 5 && constant,
      note: `${s.page50} SQL statements (5 per page: ${s.page5}; a cursor page: ${s.cursor}; a ticket with ${SMALL} entries: ${s.small}), session read included; the page holds ${m.mix.notes} notes and ${m.mix.changes} changes; same run, p50 of the same page asking only each entry's seq ${fmt(m.seqOnly.p50, 2)} ms, of \`{ me { id } }\` ${fmt(m.floor.p50, 2)} ms${versus}`,
    },
    {
      scenario: `10b. Timeline: a page in the middle of the ${fmtInt(BIG)} entries (cursor, 1 connection)${m.label}`,
      rps: m.deep.rps,
      p50: m.deep.p50,
      p99: m.deep.p99,
      ratio: m.deep.rps / m.base.rps,
      budget: '—',
      met: null,
    },
    {
      scenario: `10. Timeline: seeding${m.label}`,
      value: `${fmtInt(m.seeded.events)} events over ${fmtInt(m.seeded.tickets)} tickets, ${fmtInt(m.seeded.notes)} notes and ${fmtInt(m.seeded.revisions)} revisions in ${fmt(m.seedSeconds)} s`,
      budget: '—',
      met: null,
      note: `ratios of 10a/10b: to a sequential 1-connection baseline just before (${fmtInt(m.base.rps)} req/s)`,
    },
  );
}

/** Scenario 10a/10b on SQLite and, when `postgres`, on PostgreSQL + Redis. */
export async function timeline(postgres: boolean): Promise<void> {
  const sqlite = await onSqlite();
  addRows(sqlite);
  if (!postgres) return;
  try {
    addRows(await onPostgres(), sqlite);
  } catch (error) {
    rows.push({ scenario: `10a. Timeline${SUFFIX}: failed`, value: (error as Error).message.split('\n')[0].slice(0, 300), budget: '—', met: false });
  }
}

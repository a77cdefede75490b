/**
 * The reports' folder (schema/src/services/reports/rollupQueue.ts) on two gateways sharing one database
 * (one SQLite file; or one PostgreSQL database and Redis): a write's queued entries are folded by its gateway without
 * any report being asked; one ticket's solves and reopens written through both gateways fold in the order they were
 * written while both folders run; and rows queued by someone else are folded by the gateways' polls, each exactly
 * once while both fold at the same time.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../../src/testing/harness.js';
import type { TestClient } from '../../src/testing/client.js';
import { PNG } from '../../src/testing/fixtures.js';

let one: TestGateway;
let two: TestGateway;
let admin: TestClient;

beforeAll(async () => {
  one = await startTestGateway({ admin: true });
  two = await startTestGateway({ admin: true, dataDir: one.dataDir, databaseUrl: one.options.databaseUrl });
  admin = await two.as(0);
}, 60_000);

afterAll(async () => {
  await two?.close();
  await one?.destroy();
});

async function rows<T>(sql: string, params: unknown[] = []): Promise<T[]> {
  return one.orm.em.fork().getConnection().execute<T[]>(sql, params);
}

const queued = async () => Number((await rows<{ n: number }>('select count(*) as n from report_rollup_queue'))[0].n);

/** Waits (bounded) until `done` holds. */
async function until(done: () => Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

it('a write on one gateway is folded into the rollups by that gateway, with no report asked', async () => {
  await until(async () => (await queued()) === 0, 'the seed to be folded');
  const created = await admin.gqlUpload<{ createTicket: { id: number } }>(
    'mutation($i: TicketInput!, $img: Upload) { createTicket(input: $i, image: $img) { id } }',
    { i: { title: 'Folded in the background', requesterId: 1, description: 'No report asks.' } },
    'img',
    { data: PNG },
  );
  expect(created.errors).toBeUndefined();
  const before = Number((await rows<{ n: number }>(`select coalesce(sum(created), 0) as n from report_rollups where grain = 'D' and dim = 'W'`))[0].n);
  await until(async () => (await queued()) === 0, 'the write to be folded');
  const after = Number((await rows<{ n: number }>(`select coalesce(sum(created), 0) as n from report_rollups where grain = 'D' and dim = 'W'`))[0].n);
  // Folded once: the day rows count the creation one more time than before the fold (or the fold came first).
  expect([before, before + 1]).toContain(after);
});

it("one ticket's solves and reopens written through both gateways fold in the order they were written", async () => {
  const first = await one.as(0);
  const created = await admin.gqlUpload<{ createTicket: { id: number } }>(
    'mutation($i: TicketInput!, $img: Upload) { createTicket(input: $i, image: $img) { id } }',
    { i: { title: 'Solved and reopened on two gateways', requesterId: 1, description: 'In order.' } },
    'img',
    { data: PNG },
  );
  const id = created.data!.createTicket.id;
  // 21 changes, each acknowledged before the next, alternating gateways: SOLVED, OPEN, ..., SOLVED.
  for (let i = 0; i < 21; i++) {
    const status = i % 2 === 0 ? 'SOLVED' : 'OPEN';
    const client = i % 2 === 0 ? first : admin;
    const r = await client.gql('mutation($id: Int!, $s: TicketStatus!) { setTicketStatus(id: $id, status: $s) { status } }', { id, s: status });
    expect(r.errors).toBeUndefined();
  }
  await until(async () => (await queued()) === 0, 'the writes to be folded');
  const facts = await rows<{ kind: string; final: unknown; at: unknown }>('select kind, final, at from report_facts where ticket_id = ? order by at, id', [id]);
  const solves = facts.filter((f) => f.kind === 'SOLVED');
  expect(solves).toHaveLength(11);
  expect(facts.filter((f) => f.kind === 'REOPENED')).toHaveLength(10);
  // Only the last solve is final: a reopen folded before its solve would have left another one final.
  const finals = solves.filter((f) => f.final === true || Number(f.final) === 1);
  expect(finals).toHaveLength(1);
  expect(Number(finals[0].at)).toBe(Math.max(...solves.map((f) => Number(f.at))));
  const [state] = await rows<{ status: string }>('select status from report_state where ticket_id = ?', [id]);
  expect(state.status).toBe('SOLVED');
});

it("rows queued elsewhere are folded by the gateways' polls, each exactly once while both fold", async () => {
  // A team id no real ticket has, in a cell of its own: 40 writes of one creation each.
  const team = 900_000 + Math.floor(Math.random() * 90_000);
  const cell = Date.UTC(2020, 0, 1);
  // One queued contribution in the form an earlier version queued (reportRollups.ts RollupDeltas.merge): a creation
  // fact of that team, +1, under that team.
  const delta = JSON.stringify([[team, null, 1, 0, 'CREATED', cell, 0, null, 0, 0, team, null, 'Low', 'Question', 'OPEN']]);
  await Promise.all(Array.from({ length: 40 }, () => rows('insert into report_rollup_queue (deltas) values (?)', [delta])));
  await until(async () => (await queued()) === 0, 'the polls to fold the queue');
  const [row] = await rows<{ created: number }>(`select created from report_rollups where grain = 'D' and dim = 'W' and team_id = ?`, [team]);
  expect(Number(row.created)).toBe(40);
});

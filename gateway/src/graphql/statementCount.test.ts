/**
 * No N+1 on the dashboard (and on a ticket's timeline): the SQL statements one dashboard request costs (session included) are counted on the
 * gateway's own knex client, and must not grow with the page size. Runs on SQLite and on PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, testDatabaseMode, type TestGateway } from '../testing/harness.js';
import type { TestClient } from '../testing/client.js';
import { PNG } from '../testing/fixtures.js';

const DASHBOARD = `query Dashboard($first: Int!, $after: String, $filter: TicketFilter, $orderBy: TicketOrder) {
  tickets(first: $first, after: $after, filter: $filter, orderBy: $orderBy) {
    totalCount
    statusCounts { open pending solved }
    nodes { id title type priority requester { id name } macro { id name } assignee { id username } image { id url } }
    pageInfo { endCursor hasNextPage }
  }
}`;

let gw: TestGateway;
let demo: TestClient;
const statements: string[] = [];

beforeAll(async () => {
  // The webhook engine runs on the same knex client: each write wakes it 10 ms after its commit, and on a loaded
  // machine that wake's statements landed in the next request's count (a fresh-clone CI run on PostgreSQL counted
  // 7 against 6). Nothing here delivers webhooks, so it is stopped: only requests' statements are counted. So is the
  // reports' rollup folder (woken by the set-up's writes, its fold landed in a timeline's count on PostgreSQL: 7
  // against 5); nothing here reads a report.
  gw = await startTestGateway();
  await gw.deps.webhooks?.stop();
  await gw.reportFolder.stop();
  const knex = gw.orm.em.fork().getConnection().getKnex() as unknown as { on(event: 'query', fn: (q: { sql: string }) => void): void };
  knex.on('query', (q) => statements.push(q.sql));
  // 60 more tickets for the demo agent, spread over every customer and macro (distinct relations per row).
  const em = gw.orm.em.fork();
  const connection = em.getConnection();
  const knexBuilder = connection.getKnex();
  const customerIds = (await connection.execute<{ id: number }[]>(knexBuilder.from('customers').select('id') as never)).map((r) => Number(r.id));
  const macroIds = (await connection.execute<{ id: number }[]>(knexBuilder.from('macros').select('id') as never)).map((r) => Number(r.id));
  const now = new Date();
  const rows = Array.from({ length: 60 }, (_, i) => ({
    title: `Count ${i}`,
    type: 'Task',
    priority: 'Low',
    assignee_id: 1,
    requester_id: customerIds[i % customerIds.length],
    macro_id: macroIds[i % macroIds.length],
    description: 'statement count row',
    created_at: now,
    updated_at: now,
  }));
  await connection.execute(knexBuilder.insert(rows).into('tickets') as never);
  demo = await gw.as(0);
});

afterAll(async () => {
  await gw?.destroy();
});

async function countDashboard(first: number, after?: string, list: { filter?: Record<string, unknown>; orderBy?: string } = {}) {
  await demo.gql(DASHBOARD, { first, ...list }); // warm: nothing first-time-only is counted
  statements.length = 0;
  const res = await demo.gql(DASHBOARD, { first, after, ...list });
  const count = statements.length;
  expect(res.errors).toBeUndefined();
  return { count, page: res.data!.tickets, sql: [...statements] };
}

describe('dashboard query SQL statements', () => {
  it('is a constant, small number whatever the page size', async () => {
    const small = await countDashboard(5);
    const large = await countDashboard(50);
    const capped = await countDashboard(100);
    if (process.env.FULCRUM_TEST_LOG === '1') console.log(small.sql);
    expect(small.page.nodes).toHaveLength(5);
    expect(large.page.nodes).toHaveLength(50);
    expect(new Set(large.page.nodes.map((n: { requester: { id: number } }) => n.requester.id)).size).toBeGreaterThan(1);
    expect(large.page.nodes.every((n: { requester: { name: string }; macro: { name: string } }) => n.requester.name && n.macro.name)).toBe(true);
    expect(large.count, large.sql.join('\n')).toBe(small.count);
    expect(capped.count).toBe(small.count);
    // Session read and touch, plus one statement for the page, its relations and its total.
    expect(small.count).toBeGreaterThanOrEqual(1);
    expect(small.count, small.sql.join('\n')).toBeLessThanOrEqual(3);
    // The next page (cursor) costs the same.
    const next = await countDashboard(50, small.page.pageInfo.endCursor);
    expect(next.count).toBe(small.count);
    expect(next.page.totalCount).toBe(small.page.totalCount);
  });

  it("reads the page's teams in a constant number of statements (not the team and its members per ticket)", async () => {
    const connection = gw.orm.em.fork().getConnection();
    const at = testDatabaseMode() === 'postgres' ? new Date() : Date.now();
    // Two teams with a member each, the page's tickets alternating between them.
    const teams: number[] = [];
    for (const name of ['Count team A', 'Count team B']) {
      const [row] = await connection.execute<{ id: number }[]>('insert into teams (name, created_at) values (?, ?) returning id', [name, at]);
      teams.push(Number(row.id));
      await connection.execute('insert into team_members (team_id, user_id, created_at) values (?, 2, ?)', [row.id, at]);
    }
    await connection.execute(`update tickets set team_id = case when id % 2 = 0 then ? else ? end where title like 'Count %'`, teams);
    const withTeam = DASHBOARD.replace('image { id url } }', 'image { id url } team { id name memberIds } }');
    const count = async (first: number) => {
      await demo.gql(withTeam, { first });
      statements.length = 0;
      const res = await demo.gql(withTeam, { first });
      expect(res.errors).toBeUndefined();
      const named = res.data!.tickets.nodes.filter((n: { team: { id: number; memberIds: number[] } | null }) => n.team && teams.includes(n.team.id));
      expect(named.length).toBeGreaterThan(first / 2);
      expect(named[0].team.memberIds).toEqual([2]);
      return statements.length;
    };
    const small = await count(5);
    expect(await count(50)).toBe(small);
    await connection.execute("update tickets set team_id = null where title like 'Count %'");
  });

  it('reads in the page statement exactly the relations the query selects, through aliases, fragments and directives', async () => {
    const query = `query($first: Int!, $withMacro: Boolean!) {
      tickets(first: $first) { list: nodes { ...Row macro @include(if: $withMacro) { name } } }
    }
    fragment Row on Ticket { id requesterId macroId who: requester { id } ... on Ticket { assignee { username } } }`;
    for (const withMacro of [true, false]) {
      await demo.gql(query, { first: 50, withMacro });
      statements.length = 0;
      const res = await demo.gql(query, { first: 50, withMacro });
      expect(res.errors).toBeUndefined();
      const page = statements.filter((sql) => /from counts k/.test(sql));
      // One statement for the page and every relation it shows: a relation not joined would be loaded apart.
      expect(statements.length, statements.join('\n')).toBe((await countDashboard(5)).count);
      expect(page).toHaveLength(1);
      expect(/join macros/.test(page[0])).toBe(withMacro);
      const rows = res.data!.tickets.list as {
        requesterId: number;
        macroId: number;
        who: { id: number };
        assignee: { username: string };
        macro?: { name: string };
      }[];
      expect(rows).toHaveLength(50);
      for (const row of rows) {
        expect(row.who.id).toBe(row.requesterId);
        expect(row.assignee.username).toBe('Demo');
        expect('macro' in row).toBe(withMacro);
        if (withMacro) expect(row.macro!.name).toBeTruthy();
      }
    }
    // Without any relation selected, none is joined, and the rows are the same tickets.
    statements.length = 0;
    const bare = await demo.gql('{ tickets(first: 50) { nodes { id title } } }');
    expect(bare.errors).toBeUndefined();
    const page = statements.find((sql) => /from counts k/.test(sql))!;
    expect(page).not.toMatch(/join (customers|macros|users)/);
    expect(bare.data!.tickets.nodes.map((n: { id: number }) => n.id)).toEqual((await countDashboard(50)).page.nodes.map((n: { id: number }) => n.id));
  });

  it('stays the same for the filtered, ordered and searched list', async () => {
    const plain = await countDashboard(5);
    const lists = [
      { filter: { status: ['OPEN', 'PENDING'] } },
      { filter: { status: ['OPEN'], priority: ['Low', 'High'], type: ['Task'] }, orderBy: 'PRIORITY' },
      { filter: { requesterId: 1 }, orderBy: 'UPDATED' },
      { filter: { search: 'statement count' } },
      { filter: { search: 'count row', status: ['OPEN', 'PENDING'], priority: ['Low'] }, orderBy: 'OLDEST' },
      { filter: { search: '#3' } },
    ];
    for (const list of lists) {
      const small = await countDashboard(5, undefined, list);
      const large = await countDashboard(50, undefined, list);
      expect(small.count, JSON.stringify(list)).toBe(plain.count);
      expect(large.count, JSON.stringify(list)).toBe(plain.count);
      if (small.page.pageInfo.hasNextPage) {
        const next = await countDashboard(5, small.page.pageInfo.endCursor, list);
        expect(next.count, JSON.stringify(list)).toBe(plain.count);
      }
    }
    const searched = await countDashboard(50, undefined, lists[3]);
    expect(searched.page.totalCount).toBe(60);
  });
});

const TIMELINE = `query Timeline($id: Int!, $first: Int!, $after: String) {
  ticket(id: $id) {
    timeline(first: $first, after: $after) {
      totalCount
      pageInfo { endCursor hasNextPage }
      nodes {
        ... on TicketNote { id seq at body author { id username } revisions { id body editor { id username } } }
        ... on TicketChange { seq at kind via actor { kind name user { id username } } changes { field from to } }
      }
    }
  }
}`;

describe('timeline query SQL statements', () => {
  it('is a constant, small number whatever the page size: the ticket with its total, the page with its notes and people, the revisions', async () => {
    const created = await demo.gqlUpload(
      'mutation ($input: TicketInput!, $image: Upload) { createTicket(input: $input, image: $image) { id } }',
      { input: { title: 'Counted timeline', requesterId: 1, description: 'Many entries.' } },
      'image',
      { data: PNG },
    );
    const id = (created.data!.createTicket as { id: number }).id;
    for (let i = 0; i < 30; i++) {
      const note = await demo.gql('mutation ($id: Int!, $body: String!) { addTicketNote(ticketId: $id, body: $body) { id } }', { id, body: `Note ${i}` });
      await demo.gql('mutation ($id: Int!) { editTicketNote(id: $id, body: "Edited") { id } }', { id: note.data!.addTicketNote.id });
    }
    const count = async (first: number, after?: string) => {
      await demo.gql(TIMELINE, { id, first });
      statements.length = 0;
      const res = await demo.gql(TIMELINE, { id, first, after });
      expect(res.errors).toBeUndefined();
      // The session's own statements are left out: its touch is written at most once a minute, so whether a request
      // carries it depends on the clock (a CI run on PostgreSQL counted 7 against 6), not on the timeline.
      const sql = statements.filter((statement) => !/\bsessions\b/.test(statement));
      return { count: sql.length, sql, page: res.data!.ticket.timeline };
    };
    const small = await count(5);
    const large = await count(50);
    expect(large.page.nodes).toHaveLength(50);
    expect(large.page.nodes.some((n: { revisions?: unknown[] }) => n.revisions?.length)).toBe(true);
    expect(large.count, large.sql.join('\n')).toBe(small.count);
    expect((await count(50, small.page.pageInfo.endCursor)).count).toBe(small.count);
    // The viewer's access scope (role and teams), the ticket read through the rule with its counter (the
    // total: the timeline does not check access a second time), the page with its authors and actors, the revisions.
    expect(small.count, small.sql.join('\n')).toBeLessThanOrEqual(4);
    expect(small.sql.filter((s) => /\bfrom users where\b/.test(s))).toEqual([]);
    expect(small.sql.filter((s) => /\bevent_seq\b/.test(s) && !/\bticket_events\b/.test(s))).toHaveLength(1);
  });
});

describe('write statements', () => {
  it('a note and a status change write only what they change: no loaded row is rewritten as it was', async () => {
    const id = (await demo.gql('{ tickets(first: 1) { nodes { id } } }')).data!.tickets.nodes[0].id as number;
    const writes = async (query: string, variables: Record<string, unknown>) => {
      await demo.gql(query, variables); // warm
      statements.length = 0;
      const res = await demo.gql(query, variables);
      expect(res.errors).toBeUndefined();
      // Rows updated by the write, the ticket's event counter aside (the change log's seq bump).
      return statements.filter((s) => /^\s*update\b/i.test(s) && !/event_seq = event_seq/.test(s) && !/\bsessions\b|webhook_|mail_outbox/.test(s));
    };
    // A note changes no row of the ticket, its image, its requester or its author (SQLite once rewrote each
    // loaded datetime: MikroORM's 'datetime' compared a Date with an epoch number and saw a change).
    expect(await writes('mutation ($id: Int!) { addTicketNote(ticketId: $id, body: "statement count") { id } }', { id })).toEqual([]);
    const status = await writes('mutation ($id: Int!, $s: TicketStatus!) { setTicketStatus(id: $id, status: $s) { id } }', { id, s: 'PENDING' });
    expect(status, status.join('\n')).toHaveLength(0); // the same status again: nothing to write
  });
});

/**
 * Scenario 8, the message center at scale: 1,000,000 messages among 1,001 agents, the demo agent with
 * 1,000 conversation partners (100 messages each, a third of the conversations with unread messages). Measured,
 * one connection, sequential: the picker's `conversations` page and `unreadMessageCount` (budget: p50 < 5 ms each,
 * and the same number of SQL statements as for an agent with 2 partners), and one conversation's newest page.
 *
 * Seeded straight into SQLite (as scenario 4 seeds tickets); the conversation rows are then built from the
 * messages with the same statement the migration and the demo seed use (services/conversations.ts).
 */
import { join } from 'node:path';
import { gateway, latency, newWorkspace, rows, statementsOf, stop, tmp } from '../context.js';
import { log, progress, type LoadSpec } from '../lib.js';
import { addAgents, count, openDb, rng, type Db } from '../seed.js';

/** BENCH_MESSAGES: the messages seeded (default 1,000,000). */
const TOTAL_MESSAGES = Number(process.env.BENCH_MESSAGES ?? 1_000_000);
const PARTNERS = 1_000;

const CONVERSATIONS = `query Conversations($first: Int) {
  conversations(first: $first) {
    totalCount
    nodes { partnerId unreadCount lastReadMessageId partner { id username online } lastMessage { id text senderId createdAt } }
    pageInfo { endCursor hasNextPage }
  }
}`;
const UNREAD = '{ unreadMessageCount }';
const PAGE =
  'query($with: Int!) { messages(withUserId: $with, first: 50) { totalCount nodes { id text senderId createdAt } pageInfo { endCursor hasNextPage } } }';

/** The same statement as rebuildConversations (schema/src/services/conversations.ts), everything read. */
function rebuildConversations(db: Db): void {
  db.exec('delete from conversations');
  db.exec(`insert into conversations (user_id, partner_id, last_message_id, last_read_message_id, unread_count)
    select user_id, partner_id, max(id), coalesce(max(case when incoming = 1 then id end), 0), 0
    from (select sender_id as user_id, receiver_id as partner_id, id, 0 as incoming from messages
          union all
          select receiver_id as user_id, sender_id as partner_id, id, 1 as incoming from messages) as m
    group by user_id, partner_id`);
}

function seedMessages(db: Db, demoId: number, partners: number[], agents: number[], total: number): void {
  const random = rng(13);
  const insert = db.prepare('insert into messages (sender_id, receiver_id, message, created_at, updated_at) values (?, ?, ?, ?, ?)');
  const perPartner = Math.floor(total / 10 / partners.length);
  const now = Date.now();
  let written = 0;
  const batch = db.transaction((rows: [number, number][]) => {
    for (const [from, to] of rows) {
      written += 1;
      insert.run(from, to, `Bench message ${written}`, now, now);
    }
  });
  // A tenth with the demo agent, both directions, spread over time; the rest between other agents.
  let rows: [number, number][] = [];
  const flush = () => {
    batch(rows);
    rows = [];
    if (written % 100_000 < 20_000) progress(`8. seeding messages: ${written.toLocaleString('en-US')}`);
  };
  for (let i = 0; i < perPartner * partners.length; i++) {
    const partner = partners[Math.floor(random() * partners.length)];
    rows.push(random() < 0.5 ? [demoId, partner] : [partner, demoId]);
    if (rows.length === 20_000) flush();
  }
  while (written + rows.length < total) {
    const a = agents[Math.floor(random() * agents.length)];
    let b = agents[Math.floor(random() * agents.length)];
    if (b === a) b = agents[(agents.indexOf(a) + 1) % agents.length];
    rows.push([a, b]);
    if (rows.length === 20_000) flush();
  }
  flush();
}

export async function messageCenter(): Promise<void> {
  const dir = join(tmp, 'message-center');
  const total = TOTAL_MESSAGES;
  const partnerCount = PARTNERS;
  progress('8. message center: migrations and demo seed');
  const [demoCookie, otherCookie] = await newWorkspace(dir, 0, 2);

  const db = openDb(dir);
  const demoId = 1;
  const partners = await addAgents(db, 'mc', partnerCount);
  const t0 = performance.now();
  seedMessages(db, demoId, partners, partners, total);
  rebuildConversations(db);
  // A third of the demo agent's conversations have unread messages again: read position 0, counted exactly.
  db.exec(`update conversations set last_read_message_id = 0 where user_id = ${demoId} and partner_id % 3 = 0`);
  db.exec(
    `update conversations set unread_count = (select count(*) from messages m where m.sender_id = conversations.partner_id and m.receiver_id = conversations.user_id and m.id > conversations.last_read_message_id) where user_id = ${demoId}`,
  );
  db.exec('analyze');
  const seedSeconds = (performance.now() - t0) / 1000;
  const messages = count(db, 'select count(*) as n from messages');
  const demoPartners = count(db, `select count(*) as n from conversations where user_id = ${demoId} and last_message_id is not null`);
  const otherPartners = count(db, 'select count(*) as n from conversations where user_id = 3 and last_message_id is not null');
  const unread = count(db, `select sum(unread_count) as n from conversations where user_id = ${demoId}`);
  const busiest = (
    db.prepare(`select partner_id as id from conversations where user_id = ${demoId} order by last_message_id desc limit 1`).get() as { id: number }
  ).id;
  db.close();
  log(
    `  8. ${messages.toLocaleString('en-US')} messages seeded in ${seedSeconds.toFixed(1)} s: demo agent with ${demoPartners.toLocaleString('en-US')} partners (${unread.toLocaleString('en-US')} unread), agent 3 with ${otherPartners}`,
  );

  const gw = await gateway(dir, { demo: false });
  try {
    const spec = (cookie: string, query: string, variables: Record<string, unknown> = {}): LoadSpec => ({
      url: `${gw.url}/graphql`,
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ query, variables }),
      seconds: 5,
    });
    const post = async (s: LoadSpec) => {
      const res = await fetch(s.url, { method: 'POST', headers: s.headers, body: s.body as string });
      const body = (await res.json()) as { data?: any; errors?: unknown };
      if (body.errors) throw new Error(`8: ${JSON.stringify(body.errors).slice(0, 300)}`);
      return body.data;
    };
    const demoList = spec(demoCookie, CONVERSATIONS, { first: 50 });
    const demoUnread = spec(demoCookie, UNREAD);
    const checked = await post(demoList);
    if (checked.conversations.totalCount !== demoPartners || checked.conversations.nodes.length !== 50)
      throw new Error(`8: expected 50 of ${demoPartners} conversations`);
    if ((await post(demoUnread)).unreadMessageCount !== unread) throw new Error(`8: expected ${unread} unread`);

    // SQL statements: the agent with 1,000 partners against one with a few (the session read included in both).
    const statements = async (s: LoadSpec) => (await statementsOf(gw, () => post(s))).length;
    const listMany = await statements(demoList);
    const listFew = await statements(spec(otherCookie, CONVERSATIONS, { first: 50 }));
    const unreadMany = await statements(demoUnread);
    const unreadFew = await statements(spec(otherCookie, UNREAD));

    const list = await latency(
      `8. conversations, first 50 of ${demoPartners.toLocaleString('en-US')} (${messages.toLocaleString('en-US')} messages)`,
      demoList,
    );
    const count_ = await latency(`8. unreadMessageCount over ${demoPartners.toLocaleString('en-US')} conversations`, demoUnread);
    const page = await latency('8. one conversation, newest 50 messages', spec(demoCookie, PAGE, { with: busiest }));
    // The floor on this machine right now: the smallest signed-in GraphQL request (session read, parse, execute).
    const floor = await latency('8. reference: `{ me { id } }`', spec(demoCookie, '{ me { id } }'));
    const scale = `${messages.toLocaleString('en-US')} messages, agent with ${demoPartners.toLocaleString('en-US')} partners`;
    rows.push(
      {
        scenario: `8a. Message center: \`conversations(first: 50)\`, ${scale} (1 connection)`,
        rps: list.rps,
        p50: list.p50,
        p99: list.p99,
        budget: 'p50 < 5 ms; statements constant',
        met: list.p50 < 5 && listMany === listFew,
        note: `${listMany} SQL statements (agent with ${otherPartners} partners: ${listFew}), session read included`,
      },
      {
        scenario: `8b. Message center: \`unreadMessageCount\` (${unread.toLocaleString('en-US')}), ${scale} (1 connection)`,
        rps: count_.rps,
        p50: count_.p50,
        p99: count_.p99,
        budget: 'p50 < 5 ms; statements constant',
        met: count_.p50 < 5 && unreadMany === unreadFew,
        note: `${unreadMany} SQL statements (agent with ${otherPartners} partners: ${unreadFew}), session read included`,
      },
      {
        scenario: "8c. Message center: one conversation's newest 50 messages (`messages(withUserId, first: 50)`, 1 connection)",
        rps: page.rps,
        p50: page.p50,
        p99: page.p99,
        budget: '—',
        met: null,
      },
      {
        scenario: '8d. Reference: the smallest signed-in GraphQL request, `{ me { id } }` (1 connection)',
        rps: floor.rps,
        p50: floor.p50,
        p99: floor.p99,
        budget: '—',
        met: null,
        note: `8a and 8b cost ${(list.p50 - floor.p50).toFixed(2)} ms and ${(count_.p50 - floor.p50).toFixed(2)} ms (p50) above it`,
      },
      {
        scenario: '8. Message center: seeding',
        value: `${messages.toLocaleString('en-US')} messages and their conversation rows in ${seedSeconds.toFixed(1)} s`,
        budget: '—',
        met: null,
      },
    );
  } finally {
    await stop(gw);
  }
}

/**
 * Part of scenario 4 (scale.ts): triage when every ticket has a conversation. At the last scale point,
 * after its plain rows, each ticket gets 5 timeline entries (agent replies, internal notes, requester messages)
 * written straight into SQLite in 20,000-row transactions; the triggers of migration 20261207160000 index each
 * entry in `ticket_search_parts` in the same transaction, as every product write does. Then the triage searches are
 * measured again against triage's budgets: a word that is only ever in a conversation (in about 0.5% of the tickets,
 * as triage's one word), and triage's one- and two-word searches, which now match in conversations too.
 *
 * The entries' text: four words of the tickets' vocabulary (the same Zipf-like spread, bench/scenarios/triage.ts)
 * and one word of a conversation vocabulary: the made-up words after the tickets' 2,000, which no title,
 * description or requester holds. The query is the web dashboard's (with the rows' `searchMatch` snippet, which
 * for a conversation match reads the page's conversation texts in one more statement).
 */
import { SECONDS, check, gateway, latency, notes, rows, startBaseline, stop } from '../context.js';
import type { LoadResult } from '../lib.js';
import { log, progress } from '../lib.js';
import { fmtInt } from '../report.js';
import { count, rng, type Db, openDb } from '../seed.js';
import { SEARCH_TERMS, VOCABULARY, madeUpWord, ownMatchQuery, triageSpec } from './triage.js';

export const ENTRIES_PER_TICKET = 5;
/** 744 words no ticket's own text holds (the made-up words after the tickets' vocabulary; all six letters, so none is a prefix of another). */
export const CONVERSATION_VOCABULARY: string[] = Array.from({ length: 744 }, (_, i) => madeUpWord(2000 + i));

/** The share of tickets whose conversation holds conversation word k: one draw per entry, index floor(N * u^2). */
function conversationShare(k: number): number {
  const n = CONVERSATION_VOCABULARY.length;
  const perDraw = Math.sqrt((k + 1) / n) - Math.sqrt(k / n);
  return 1 - Math.pow(1 - perDraw, ENTRIES_PER_TICKET);
}

/** The word searched for that matches only in conversations: in about 0.5% of the tickets. */
export const CONVERSATION_TERM = CONVERSATION_VOCABULARY[CONVERSATION_VOCABULARY.findIndex((_, k) => conversationShare(k) <= 0.005)];

const KINDS = ['REQUESTER_MESSAGE', 'REPLY', 'NOTE', 'REPLY', 'REQUESTER_MESSAGE'] as const;
const CHUNK_TICKETS = 4000; // 20,000 entries per transaction

/** Five entries for every ticket (those with none yet), in ticket order; returns the entries written. */
export function addConversations(db: Db, random: () => number): number {
  const word = () => VOCABULARY[Math.floor(VOCABULARY.length * Math.pow(random(), 2))];
  const talk = () => CONVERSATION_VOCABULARY[Math.floor(CONVERSATION_VOCABULARY.length * Math.pow(random(), 2))];
  const text = () => `${word()} ${word()} ${talk()} ${word()} ${word()}`;
  const reply = db.prepare(
    "insert into ticket_replies (id, ticket_id, author_id, body, to_email, mail_message_id, delivery_state, delivery_attempts, created_at) values (?, ?, ?, ?, ?, ?, 'SENT', 1, ?)",
  );
  const note = db.prepare('insert into ticket_notes (id, ticket_id, author_id, body, created_at) values (?, ?, ?, ?, ?)');
  const message = db.prepare("insert into requester_messages (id, ticket_id, from_email, body, via, held, created_at) values (?, ?, ?, ?, 'EMAIL', 0, ?)");
  // The index rows are written here, in the same transaction, exactly as the insert triggers of migration
  // 20261207160000 write them (rowid = id * 8 + kind): those triggers are set aside while seeding and put back as
  // they were. A trigger's insert runs in a statement savepoint, and FTS5 writes out its pending rows at every
  // savepoint: one tiny segment per entry, whose merges slowed the seeding from 2,300 to 50 rows/s by 160,000 entries.
  // One id sequence over the three tables (each keeps gaps) makes the rowids rise in insertion order, so FTS5 buffers
  // a transaction's rows (a rowid lower than the one before would make it write out what it holds first).
  const index = db.prepare('insert into ticket_search_parts (rowid, text, ticket_id) values (?, ?, ?)');
  const triggers = db
    .prepare(
      "select name, sql from sqlite_master where type = 'trigger' and name in ('ticket_replies_search_insert', 'ticket_notes_search_insert', 'requester_messages_search_insert')",
    )
    .all() as { name: string; sql: string }[];
  if (triggers.length !== 3) throw new Error('conversations: the search insert triggers of migration 20261207160000 are not all there');
  for (const t of triggers) db.exec(`drop trigger ${t.name}`);
  try {
    return seed();
  } finally {
    for (const t of triggers) db.exec(t.sql);
  }

  function seed(): number {
    let id = Math.max(...['ticket_replies', 'ticket_notes', 'requester_messages'].map((t) => count(db, `select coalesce(max(id), 0) as n from ${t}`)));
    const page = db.prepare('select id, assignee_id, requester_id, created_at from tickets where id > ? order by id limit ?');
    const total = count(db, 'select count(*) as n from tickets');
    const started = performance.now();
    let after = count(db, 'select coalesce(max(ticket_id), 0) as n from ticket_replies');
    let written = 0;
    for (;;) {
      const tickets = page.all(after, CHUNK_TICKETS) as { id: number; assignee_id: number; requester_id: number; created_at: number }[];
      if (!tickets.length) break;
      db.transaction(() => {
        for (const t of tickets) {
          const email = `requester.${t.requester_id}@example.com`;
          KINDS.forEach((kind, j) => {
            const at = Number(t.created_at) + (j + 1) * 60_000;
            id++;
            if (kind === 'REPLY') {
              const body = `Thanks for writing: ${text()}.`;
              reply.run(id, t.id, t.assignee_id, body, email, `<r${t.id}.${j}@bench.fulcrum>`, at);
              index.run(id * 8 + 1, body, t.id);
            } else if (kind === 'NOTE') {
              const body = `Checked the logs: ${text()}.`;
              note.run(id, t.id, t.assignee_id, body, at);
              index.run(id * 8 + 2, body, t.id);
            } else {
              const body = `Still broken here: ${text()}.`;
              message.run(id, t.id, email, body, at);
              index.run(id * 8 + 3, body, t.id);
            }
          });
        }
      })();
      after = tickets[tickets.length - 1].id;
      written += tickets.length * ENTRIES_PER_TICKET;
      const secs = (performance.now() - started) / 1000;
      progress(
        `  seeding conversations: ${written.toLocaleString('en-US')} / ${(total * ENTRIES_PER_TICKET).toLocaleString('en-US')} entries (${Math.round(written / Math.max(secs, 0.001)).toLocaleString('en-US')} rows/s)`,
      );
    }
    return written;
  }
}

const partsQuery = (words: string[]) => `text : (${words.map((w) => `"${w}"*`).join(' AND ')})`;

/** The agent's tickets a search finds, read from both indexes: its own texts, or one conversation text holding every word. */
function matchedWithConversations(db: Db, agentId: number, search: string): number {
  const words = search.split(' ');
  return count(
    db,
    `select count(*) as n from (
       select rowid as id from ticket_search where ticket_search match ?
       union
       select p.ticket_id from ticket_search_parts p join tickets t on t.id = p.ticket_id where ticket_search_parts match ? and t.assignee_id = ?)`,
    ownMatchQuery(agentId, words),
    partsQuery(words),
    agentId,
  );
}

interface Measured {
  key: 'conversation' | 'one' | 'two';
  search: string;
  matched: number;
  result: LoadResult;
}

/**
 * Seeds the conversations of every ticket in the stopped gateway's `dir`, starts it again and measures, for the
 * agent of `cookie` (Bobbie, user 3: 10% of the tickets), the three searches; adds their rows and a note.
 */
export async function conversationPoint(dir: string, cookie: string, agentTickets: number): Promise<void> {
  const db = openDb(dir);
  const t0 = performance.now();
  const entries = addConversations(db, rng(4343));
  db.exec('analyze');
  const seedSeconds = (performance.now() - t0) / 1000;
  const total = count(db, 'select count(*) as n from tickets');
  const searches = { conversation: CONVERSATION_TERM, one: SEARCH_TERMS.one, two: SEARCH_TERMS.two };
  const matched = Object.fromEntries(Object.entries(searches).map(([key, search]) => [key, matchedWithConversations(db, 3, search)])) as Record<
    keyof typeof searches,
    number
  >;
  const onlyInConversations = count(db, 'select count(*) as n from ticket_search where ticket_search match ?', ownMatchQuery(3, [CONVERSATION_TERM]));
  db.close();
  if (onlyInConversations) throw new Error(`conversations: "${CONVERSATION_TERM}" is in ${onlyInConversations} tickets' own texts`);
  log(`  4c. ${entries.toLocaleString('en-US')} conversation entries seeded for ${total.toLocaleString('en-US')} tickets in ${seedSeconds.toFixed(1)} s`);

  const baselineChild = await startBaseline();
  const base = await latency('  baseline just before, 1 connection', { url: `${baselineChild.url}/` });
  await stop(baselineChild);
  const gw = await gateway(dir, { demo: false });
  const seconds = Math.min(SECONDS, 5);
  const measured: Measured[] = [];
  try {
    for (const key of ['conversation', 'one', 'two'] as const) {
      const spec = { ...triageSpec(gw.url, cookie, { search: searches[key] }), seconds };
      await check(spec, (b) => {
        const tickets = b.data.tickets as { totalCount: number; nodes: { searchMatch: { in: string } | null }[] };
        if (tickets.totalCount !== matched[key])
          throw new Error(`conversations: "${searches[key]}" found ${tickets.totalCount}, the indexes hold ${matched[key]}`);
        if (key === 'conversation' && !tickets.nodes.every((n) => ['REPLY', 'NOTE', 'REQUESTER_MESSAGE'].includes(n.searchMatch?.in ?? '')))
          throw new Error(`conversations: a result of "${searches[key]}" did not say it matched in its conversation`);
      });
      const label = `4c. ${total.toLocaleString('en-US')} tickets × ${ENTRIES_PER_TICKET} entries, search "${searches[key]}", agent with ${agentTickets.toLocaleString('en-US')}`;
      measured.push({ key, search: searches[key], matched: matched[key], result: await latency(label, spec) });
    }
  } finally {
    await stop(gw);
  }
  const what = { conversation: 'a word only in conversations', one: 'one word', two: 'two words' };
  for (const m of measured) {
    rows.push({
      scenario: `4c. Triage with conversations: ${total.toLocaleString('en-US')} tickets × ${ENTRIES_PER_TICKET} entries, search, ${what[m.key]} ("${m.search}"), agent with ${agentTickets.toLocaleString('en-US')} (1 connection)`,
      rps: m.result.rps,
      p50: m.result.p50,
      p99: m.result.p99,
      ratio: m.result.rps / base.rps,
      budget: 'p50 ≤ 20 ms, p99 ≤ 60 ms',
      met: m.result.p50 <= 20 && m.result.p99 <= 60,
      note: `${m.matched.toLocaleString('en-US')} matching`,
    });
  }
  notes.push(
    `Conversation seeding (4c): ${entries.toLocaleString('en-US')} entries (replies, notes, requester messages; ${ENTRIES_PER_TICKET} per ticket) with their ticket_search_parts rows in ${seedSeconds.toFixed(1)} s; its rows' ratios are to a 1-connection baseline measured just before (${fmtInt(base.rps)} req/s).`,
  );
}

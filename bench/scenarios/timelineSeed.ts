/**
 * Scenario 10's event record in bulk: tickets, their `ticket_events`, the notes and note revisions those
 * events are about, written straight into the database of a stopped gateway (after its migrations and demo seed),
 * the same rows on SQLite (prepared statements in 20,000-row transactions) and on PostgreSQL (20,000 rows per
 * INSERT ... SELECT from json_to_recordset).
 *
 * The record is what the change log (schema/src/services/changeLog.ts) writes: per ticket, seqs 1, 2, 3... without
 * gaps, the first CREATED with every tracked field, then UPDATED entries with one or two field changes, notes
 * (NOTE_ADDED, the note row holding the text), their edits (NOTE_EDITED, a revision with the text before) and
 * deletions (NOTE_DELETED, a tombstone without text or revisions); `tickets.event_seq` is each ticket's last seq and
 * its status, priority, type and title are the ones its last events set. The tickets' events are interleaved
 * through the table as concurrent agents would write them (a shuffled stream), so a ticket's entries are found by
 * the (ticket_id, seq) index, never by being next to each other. The append-only trigger refuses UPDATE and
 * DELETE only: inserting is what every write does.
 */
import type { Orm } from '@fulcrum/schema';
import { progress } from '../lib.js';
import { rng, shuffle, type Db } from '../seed.js';

const CHUNK = 20_000;
const TYPES = ['Question', 'Incident', 'Problem', 'Task'];
const PRIORITIES = ['Low', 'Medium', 'High', 'Urgent'];
const STATUSES = ['OPEN', 'PENDING', 'SOLVED'];
const VIAS = ['WEB', 'WEB', 'WEB', 'WEB', 'WEB', 'WEB', 'WEB', 'WEB', 'REST', 'API_TOKEN'];

export interface TimelinePlan {
  /** Events in the table once seeded (those already there included). */
  total: number;
  /** The ticket measured, and its entries. */
  big: { entries: number; owner: number };
  /** A ticket of the same owner with few entries (the statement count's other side). */
  small: { entries: number; owner: number };
  /** Average entries of the other tickets. */
  perTicket: number;
  users: { id: number; username: string }[];
  customerIds: number[];
}

export interface SeededTimeline {
  bigTicketId: number;
  smallTicketId: number;
  tickets: number;
  events: number;
  notes: number;
  revisions: number;
}

interface TicketRow {
  id: number;
  title: string;
  type: string;
  priority: string;
  status: string;
  assignee_id: number;
  requester_id: number;
  macro_id: number;
  description: string;
  created_at: number;
  updated_at: number;
  event_seq: number;
}
interface EventRow {
  ticket_id: number;
  seq: number;
  at: number;
  actor_kind: string;
  actor_id: number;
  actor_name: string;
  via: string;
  kind: string;
  changes: string;
  note_id: number | null;
  assignee_id: number;
}
interface NoteRow {
  id: number;
  ticket_id: number;
  author_id: number;
  body: string | null;
  created_at: number;
  edited_at: number | null;
  deleted_at: number | null;
  revisions: { editor_id: number; body: string; created_at: number }[];
}

/** Where the rows go: the same rows on either database. */
export interface Sink {
  /** The highest ticket and note ids in use (new rows take explicit ids after them). */
  maxIds(): Promise<{ ticket: number; note: number }>;
  events(rows: EventRow[]): Promise<void>;
  tickets(rows: TicketRow[]): Promise<void>;
  notes(rows: NoteRow[]): Promise<void>;
  /** Sequences past the explicit ids, statistics (and on PostgreSQL the visibility map). */
  finish(): Promise<void>;
}

export function sqliteSink(db: Db): Sink {
  const event = db.prepare(
    'insert into ticket_events (ticket_id, seq, at, actor_kind, actor_id, actor_name, via, kind, changes, note_id, assignee_id) values (@ticket_id, @seq, @at, @actor_kind, @actor_id, @actor_name, @via, @kind, @changes, @note_id, @assignee_id)',
  );
  const ticket = db.prepare(
    'insert into tickets (id, title, type, priority, status, assignee_id, requester_id, macro_id, description, created_at, updated_at, event_seq) values (@id, @title, @type, @priority, @status, @assignee_id, @requester_id, @macro_id, @description, @created_at, @updated_at, @event_seq)',
  );
  const note = db.prepare(
    'insert into ticket_notes (id, ticket_id, author_id, body, created_at, edited_at, deleted_at) values (@id, @ticket_id, @author_id, @body, @created_at, @edited_at, @deleted_at)',
  );
  const revision = db.prepare('insert into ticket_note_revisions (note_id, editor_id, body, created_at) values (?, ?, ?, ?)');
  const max = (table: string) => Number((db.prepare(`select coalesce(max(id), 0) as n from ${table}`).get() as { n: number }).n);
  return {
    maxIds: async () => ({ ticket: max('tickets'), note: max('ticket_notes') }),
    events: async (rows) => db.transaction(() => rows.forEach((r) => event.run(r)))(),
    tickets: async (rows) => db.transaction(() => rows.forEach((r) => ticket.run(r)))(),
    notes: async (rows) =>
      db.transaction(() => {
        for (const { revisions, ...n } of rows) {
          note.run(n);
          for (const r of revisions) revision.run(n.id, r.editor_id, r.body, r.created_at);
        }
      })(),
    finish: async () => void db.exec('analyze'),
  };
}

const ts = (column: string) => `to_timestamp(${column} / 1000.0)`;

export function postgresSink(orm: Orm): Sink {
  const connection = orm.em.getConnection();
  const insert = (table: string, columns: [string, string][], select: string[], rows: object[]) =>
    connection.execute(
      `insert into ${table} (${columns.map(([c]) => c).join(', ')}) select ${select.join(', ')} from json_to_recordset(?::json) as x(${columns
        .map(([c, t]) => `${c} ${t}`)
        .join(', ')})`,
      [JSON.stringify(rows)],
    );
  const max = async (table: string) => Number((await connection.execute<{ n: number }[]>(`select coalesce(max(id), 0) as n from ${table}`))[0].n);
  return {
    maxIds: async () => ({ ticket: await max('tickets'), note: await max('ticket_notes') }),
    events: async (rows) =>
      void (await insert(
        'ticket_events',
        [
          ['ticket_id', 'int'],
          ['seq', 'int'],
          ['at', 'float8'],
          ['actor_kind', 'text'],
          ['actor_id', 'int'],
          ['actor_name', 'text'],
          ['via', 'text'],
          ['kind', 'text'],
          ['changes', 'text'],
          ['note_id', 'int'],
          ['assignee_id', 'int'],
        ],
        ['ticket_id', 'seq', ts('at'), 'actor_kind', 'actor_id', 'actor_name', 'via', 'kind', 'changes', 'note_id', 'assignee_id'],
        rows,
      )),
    tickets: async (rows) =>
      void (await insert(
        'tickets',
        [
          ['id', 'int'],
          ['title', 'text'],
          ['type', 'text'],
          ['priority', 'text'],
          ['status', 'text'],
          ['assignee_id', 'int'],
          ['requester_id', 'int'],
          ['macro_id', 'int'],
          ['description', 'text'],
          ['created_at', 'float8'],
          ['updated_at', 'float8'],
          ['event_seq', 'int'],
        ],
        [
          'id',
          'title',
          'type',
          'priority',
          'status',
          'assignee_id',
          'requester_id',
          'macro_id',
          'description',
          ts('created_at'),
          ts('updated_at'),
          'event_seq',
        ],
        rows,
      )),
    notes: async (rows) => {
      await insert(
        'ticket_notes',
        [
          ['id', 'int'],
          ['ticket_id', 'int'],
          ['author_id', 'int'],
          ['body', 'text'],
          ['created_at', 'float8'],
          ['edited_at', 'float8'],
          ['deleted_at', 'float8'],
        ],
        ['id', 'ticket_id', 'author_id', 'body', ts('created_at'), ts('edited_at'), ts('deleted_at')],
        rows.map(({ revisions: _, ...n }) => n),
      );
      const revisions = rows.flatMap((n) => n.revisions.map((r) => ({ note_id: n.id, ...r })));
      if (revisions.length)
        await insert(
          'ticket_note_revisions',
          [
            ['note_id', 'int'],
            ['editor_id', 'int'],
            ['body', 'text'],
            ['created_at', 'float8'],
          ],
          ['note_id', 'editor_id', 'body', ts('created_at')],
          revisions,
        );
    },
    finish: async () => {
      for (const table of ['tickets', 'ticket_notes'])
        await connection.execute(`select setval(pg_get_serial_sequence('${table}', 'id'), (select max(id) from ${table}))`);
      // VACUUM as well as ANALYZE: the state autovacuum leaves a bulk-loaded table in (its visibility map set), on
      // demand so a run does not depend on when the daemon gets to it. Before it, counting a ticket's 5,000 entries
      // visits each entry's heap page (they are interleaved: about 4,400 pages), about 9.5 ms warm against 0.9 ms
      // by the index alone after it (EXPLAIN ANALYZE on 1,000,000 events).
      await connection.execute('vacuum analyze');
    },
  };
}

const NOTE_TEXTS = [
  'Called the customer: the printer still shows **error 49.4C02** after the update.\n\n- cleared the queue\n- power-cycled it',
  'Asked for the *exact* firmware version and a photo of the panel. Waiting on the requester.',
  'Reproduced on the test unit with driver 6.2; 6.1 works. See the vendor note linked in the macro.',
  'Escalated to the network team: the device drops off the VLAN every ~40 minutes (`arp` shows it gone).',
  'Replacement part ordered, ETA Thursday. Told the customer; they are fine with a loaner meanwhile.',
];

/** How many entries each ticket gets: the big one, the small one, then the rest spread around `perTicket`. */
function entryCounts(toSeed: number, plan: TimelinePlan, random: () => number): number[] {
  const counts = [plan.big.entries, plan.small.entries];
  let left = toSeed - plan.big.entries - plan.small.entries;
  while (left > 0) {
    const n = Math.min(left, 1 + Math.floor(random() * (2 * plan.perTicket - 1)));
    counts.push(n);
    left -= n;
  }
  return counts;
}

/**
 * Seeds tickets with `plan.total` events in the table in all (at least the big and the small ticket's): the tickets'
 * entries interleaved in one time-ordered stream, written in chunks as generated.
 */
export async function seedTimeline(sink: Sink, plan: TimelinePlan, existing: number, label: string): Promise<SeededTimeline> {
  const random = rng(2424);
  const counts = entryCounts(Math.max(plan.total - existing, plan.big.entries + plan.small.entries), plan, random);
  const ticketCount = counts.length;
  const { ticket: maxTicket, note: maxNote } = await sink.maxIds();
  const ids = counts.map((_, i) => maxTicket + 1 + i);
  const others = plan.users.filter((u) => u.id !== plan.big.owner);
  const owner = (i: number) => (i < 2 ? plan.big.owner : [plan.big.owner, ...others.map((u) => u.id)][i % (others.length + 1)]);
  const names = new Map(plan.users.map((u) => [u.id, u.username]));
  // Every event in time order: ticket i appears counts[i] times, in a shuffled order.
  const events = counts.reduce((a, b) => a + b, 0);
  const stream = new Int32Array(events);
  let k = 0;
  counts.forEach((n, i) => stream.fill(i, k, (k += n)));
  shuffle(stream, random);

  const seq = new Int32Array(ticketCount);
  const type = new Uint8Array(ticketCount).map(() => Math.floor(random() * 4));
  const priority = new Uint8Array(ticketCount).map(() => Math.floor(random() * 4));
  const status = new Uint8Array(ticketCount);
  const retitled = new Uint8Array(ticketCount);
  const createdAt = new Float64Array(ticketCount);
  const updatedAt = new Float64Array(ticketCount);
  const openNote = new Map<number, NoteRow>();
  const notes: NoteRow[] = [];
  let nextNote = maxNote + 1;
  let revisions = 0;
  const title = (i: number) => `Timeline ticket ${i}${retitled[i] ? ' (revised)' : ''}`;
  const description = (i: number) => `Seeded for the timeline benchmark, ticket ${i}: the printer shows an error after the update.`;
  const start = Date.now() - events * 1000;
  const started = performance.now();
  let rows: EventRow[] = [];
  const flush = async () => {
    await sink.events(rows);
    rows = [];
  };
  for (let e = 0; e < events; e++) {
    const i = stream[e];
    const s = ++seq[i];
    const at = start + e * 1000;
    const assignee = owner(i);
    const actor = random() < 0.8 ? assignee : plan.users[Math.floor(random() * plan.users.length)].id;
    const via = VIAS[Math.floor(random() * VIAS.length)];
    let kind = 'UPDATED';
    let changes: { field: string; from: string | null; to: string | null }[] = [];
    let noteId: number | null = null;
    const open = openNote.get(i);
    const r = random();
    if (s === 1) {
      kind = 'CREATED';
      createdAt[i] = at;
      changes = [
        { field: 'title', from: null, to: title(i) },
        { field: 'type', from: null, to: TYPES[type[i]] },
        { field: 'priority', from: null, to: PRIORITIES[priority[i]] },
        { field: 'status', from: null, to: 'OPEN' },
        { field: 'requesterId', from: null, to: String(plan.customerIds[i % plan.customerIds.length]) },
        { field: 'macroId', from: null, to: '1' },
        { field: 'assigneeId', from: null, to: String(assignee) },
        { field: 'description', from: null, to: description(i) },
      ];
    } else if (r < 0.2) {
      kind = 'NOTE_ADDED';
      noteId = nextNote++;
      if (open) notes.push(open);
      openNote.set(i, {
        id: noteId,
        ticket_id: ids[i],
        author_id: actor,
        body: NOTE_TEXTS[noteId % NOTE_TEXTS.length],
        created_at: at,
        edited_at: null,
        deleted_at: null,
        revisions: [],
      });
    } else if (r < 0.24 && open && open.author_id === actor) {
      kind = 'NOTE_EDITED';
      noteId = open.id;
      open.revisions.push({ editor_id: actor, body: open.body!, created_at: at });
      open.body = `${open.body} (edit ${open.revisions.length})`;
      open.edited_at = at;
      revisions++;
    } else if (r < 0.25 && open && open.author_id === actor) {
      kind = 'NOTE_DELETED';
      noteId = open.id;
      revisions -= open.revisions.length;
      Object.assign(open, { body: null, deleted_at: at, revisions: [] });
      notes.push(open);
      openNote.delete(i);
    } else {
      const fields = random() < 0.3 ? ['priority', 'status'] : [['priority', 'status', 'type', 'title'][Math.floor(random() * 4)]];
      for (const field of fields) {
        if (field === 'priority') {
          const to = (priority[i] + 1 + Math.floor(random() * 3)) % 4;
          changes.push({ field, from: PRIORITIES[priority[i]], to: PRIORITIES[to] });
          priority[i] = to;
        } else if (field === 'status') {
          const to = (status[i] + 1) % 3;
          changes.push({ field, from: STATUSES[status[i]], to: STATUSES[to] });
          status[i] = to;
        } else if (field === 'type') {
          const to = (type[i] + 1) % 4;
          changes.push({ field, from: TYPES[type[i]], to: TYPES[to] });
          type[i] = to;
        } else {
          const from = title(i);
          retitled[i] ^= 1;
          changes.push({ field, from, to: title(i) });
        }
      }
      updatedAt[i] = at;
    }
    if (s === 1) updatedAt[i] = at;
    rows.push({
      ticket_id: ids[i],
      seq: s,
      at,
      actor_kind: 'AGENT',
      actor_id: actor,
      actor_name: names.get(actor)!,
      via,
      kind,
      changes: JSON.stringify(changes),
      note_id: noteId,
      assignee_id: assignee,
    });
    if (rows.length === CHUNK) {
      await flush();
      const secs = (performance.now() - started) / 1000;
      progress(
        `  seeding ${label}: ${(e + 1).toLocaleString('en-US')} / ${events.toLocaleString('en-US')} events (${Math.round((e + 1) / Math.max(secs, 0.001)).toLocaleString('en-US')} rows/s)`,
      );
    }
  }
  await flush();
  notes.push(...openNote.values());
  // The tickets as their events left them (the notes' foreign key needs them before the notes).
  for (let from = 0; from < ticketCount; from += CHUNK) {
    const batch: TicketRow[] = [];
    for (let i = from; i < Math.min(ticketCount, from + CHUNK); i++)
      batch.push({
        id: ids[i],
        title: title(i),
        type: TYPES[type[i]],
        priority: PRIORITIES[priority[i]],
        status: STATUSES[status[i]],
        assignee_id: owner(i),
        requester_id: plan.customerIds[i % plan.customerIds.length],
        macro_id: 1,
        description: description(i),
        created_at: createdAt[i],
        updated_at: updatedAt[i],
        event_seq: seq[i],
      });
    await sink.tickets(batch);
  }
  notes.sort((a, b) => a.id - b.id);
  for (let from = 0; from < notes.length; from += CHUNK) await sink.notes(notes.slice(from, from + CHUNK));
  progress(`  seeding ${label}: statistics`);
  await sink.finish();
  return { bigTicketId: ids[0], smallTicketId: ids[1], tickets: ticketCount, events, notes: notes.length, revisions };
}

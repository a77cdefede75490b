/**
 * The event record under SIGKILL: writers change tickets through every kind of ticket write (GraphQL
 * create, status, notes added and edited, REST edit and delete) while the real server (`main.ts`, bundled) is killed
 * with SIGKILL at random moments and restarted, 20 times. Afterwards the database holds no change without its event
 * and no event without its change: per ticket, seqs 1..n without gaps and the counter at n; a live ticket's fields
 * are those its last field changes set, its notes and revisions match its note events one for one; a ticket that is
 * gone ends with DELETED, and one that ends with DELETED is gone. SQLite, or PostgreSQL in the second pass.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { DEMO_ACCOUNTS } from '@fulcrum/schema';
import { TestClient } from '../../src/testing/client.js';
import { PNG } from '../../src/testing/fixtures.js';
import { createPostgresDatabase, testDatabaseMode } from '../../src/testing/harness.js';
import { figure, sleep } from '../../src/testing/measure.js';
import { bundleServer, startServerProcess, type StartedProcess } from '../../src/testing/processes.js';

const WRITES = Number(process.env.FULCRUM_TIMELINE_CRASH_WRITES ?? 1500);
const KILLS = Number(process.env.FULCRUM_TIMELINE_CRASH_KILLS ?? 20);
const WRITERS = 6;
const STATUSES = ['OPEN', 'PENDING', 'SOLVED'];

const dataDir = mkdtempSync(join(tmpdir(), 'fulcrum-timeline-crash-'));
let bundle: string | undefined;
let database: { url: string; drop(): Promise<void> } | undefined;
const children: ChildProcess[] = [];
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
  if (bundle) rmSync(dirname(bundle), { recursive: true, force: true });
  await database?.drop();
});

type Row = Record<string, unknown>;

describe('the event record under SIGKILL', () => {
  it(`no change without its event and no event without its change after ${KILLS} kills`, async () => {
    const postgres = testDatabaseMode() === 'postgres';
    if (postgres) database = await createPostgresDatabase();
    bundle = await bundleServer(`fulcrum-timeline-crash-${process.pid}`);
    const sessionSecret = randomBytes(32).toString('base64url');
    let server: StartedProcess;
    let client: TestClient;
    let cookie = '';
    let kills = 0;
    let acked = 0;
    let failed = 0;
    const boot = async () => {
      server = await startServerProcess(
        { DATA_DIR: dataDir, FULCRUM_DEMO: '1', DATABASE_URL: database?.url, SESSION_SECRET: sessionSecret, REDIS_URL: undefined },
        { bundle },
      );
      children.push(server.child);
      client = new TestClient(server.url);
      if (cookie) client.setCookieHeader(cookie);
      else {
        await client.login(DEMO_ACCOUNTS[0].email, DEMO_ACCOUNTS[0].password);
        cookie = client.cookieHeader;
      }
    };
    const kill = async () => {
      server.child.kill('SIGKILL');
      await server.exited;
    };
    let ready = boot();
    await ready;
    const tickets: number[] = [];
    const notes: number[] = [];
    const killAt = Array.from({ length: KILLS }, () => Math.floor(Math.random() * WRITES)).sort((a, b) => a - b);
    const ok = (r: { data?: Record<string, any> | null; errors?: unknown }) => {
      if (!r.data || r.errors) throw new Error(JSON.stringify(r.errors));
      return r.data;
    };
    const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)];

    const writeOnce = async (n: number) => {
      const c = client;
      const roll = n % 10;
      if (roll === 0 || tickets.length < 4) {
        const data = ok(
          await c.gqlUpload(
            'mutation ($i: TicketInput!, $img: Upload) { createTicket(input: $i, image: $img) { id } }',
            { i: { title: `tlcrash-${n}`, requesterId: 1, description: 'written under fire' } },
            'img',
            { data: PNG },
          ),
        );
        tickets.push(data.createTicket.id as number);
      } else if (roll <= 3) {
        ok(await c.gql(`mutation ($id: Int!) { setTicketStatus(id: $id, status: ${pick(STATUSES)}) { id } }`, { id: pick(tickets) }));
      } else if (roll <= 5) {
        const data = ok(
          await c.gql('mutation ($id: Int!, $b: String!) { addTicketNote(ticketId: $id, body: $b) { id } }', { id: pick(tickets), b: `note ${n}` }),
        );
        notes.push(data.addTicketNote.id as number);
      } else if (roll <= 6 && notes.length) {
        const r = await c.gql('mutation ($id: Int!, $b: String!) { editTicketNote(id: $id, body: $b) { id } }', { id: pick(notes), b: `edit ${n}` });
        if (r.errors && r.errors[0]?.extensions?.code !== 'NOT_FOUND') throw new Error(JSON.stringify(r.errors)); // its ticket may be gone
      } else if (roll <= 8) {
        const r = await c.put(`/api/tickets/${pick(tickets)}/edit`, {
          title: `tlcrash-e${n}`,
          requester: 1,
          priority: pick(['Low', 'High']),
          description: 'edited under fire',
        });
        if (r.status !== 200 && r.status !== 404) throw new Error(String(r.status));
      } else if (tickets.length > 8) {
        const id = tickets.splice(Math.floor(Math.random() * tickets.length), 1)[0];
        const r = await c.get(`/api/tickets/${id}/delete`);
        if (r.status !== 200 && r.status !== 404) throw new Error(String(r.status));
      } else return;
      acked++;
    };
    let seq = 0;
    const writer = async () => {
      while (acked < WRITES || kills < KILLS) {
        await ready;
        const n = ++seq;
        try {
          await writeOnce(n);
        } catch {
          failed++;
          await sleep(5);
        }
        if (kills < KILLS && acked >= killAt[kills]) {
          kills++;
          const previous = ready;
          const jitter = Math.random() * 20;
          ready = (async () => {
            await previous;
            await sleep(jitter);
            await kill();
            await boot();
          })();
        }
      }
    };
    await Promise.all(Array.from({ length: WRITERS }, writer));
    await ready;
    await kill();

    let query: (sql: string) => Promise<Row[]>;
    let close: () => Promise<void>;
    if (postgres) {
      const sql = new pg.Client({ connectionString: database!.url });
      await sql.connect();
      query = async (text) => (await sql.query(text)).rows as Row[];
      close = () => sql.end();
    } else {
      const db = new Database(join(dataDir, 'fulcrum.sqlite'), { readonly: true });
      query = (text) => Promise.resolve(db.prepare(text).all() as Row[]);
      close = () => {
        db.close();
        return Promise.resolve();
      };
    }
    try {
      const rows = await query("select id, title, priority, status, event_seq from tickets where title like 'tlcrash-%'");
      const live = new Map(rows.map((r) => [Number(r.id), r]));
      const events = await query('select ticket_id, seq, kind, changes, note_id from ticket_events order by ticket_id, seq');
      const byTicket = new Map<number, Row[]>();
      for (const e of events) byTicket.set(Number(e.ticket_id), [...(byTicket.get(Number(e.ticket_id)) ?? []), e]);
      const noteRows = await query(
        'select n.id, n.ticket_id, (select count(*) from ticket_note_revisions r where r.note_id = n.id) as revisions from ticket_notes n',
      );
      const problems: string[] = [];
      for (const [id, list] of byTicket) {
        const created = JSON.parse(String(list[0].changes)) as { field: string; to: string }[];
        if (!created.some((c) => c.field === 'title' && c.to.startsWith('tlcrash-'))) continue; // not this test's
        const seqs = list.map((e) => Number(e.seq));
        if (seqs.some((s, i) => s !== i + 1)) problems.push(`ticket ${id}: seqs ${seqs.join(',')}`);
        if (list[0].kind !== 'CREATED') problems.push(`ticket ${id}: starts with ${String(list[0].kind)}`);
        const deleted = list.at(-1)!.kind === 'DELETED';
        const row = live.get(id);
        if (deleted === Boolean(row)) problems.push(`ticket ${id}: ${deleted ? 'DELETED but still there' : 'gone without DELETED'}`);
        if (!row) continue;
        if (Number(row.event_seq) !== list.length) problems.push(`ticket ${id}: counter ${String(row.event_seq)}, ${list.length} events`);
        const last: Record<string, string> = {};
        for (const e of list) for (const c of JSON.parse(String(e.changes)) as { field: string; to: string }[]) last[c.field] = c.to;
        for (const field of ['title', 'priority', 'status'])
          if (last[field] !== row[field]) problems.push(`ticket ${id}: ${field} ${String(row[field])}, record says ${last[field]}`);
        const added = list.filter((e) => e.kind === 'NOTE_ADDED').map((e) => Number(e.note_id));
        const mine = noteRows.filter((n) => Number(n.ticket_id) === id);
        if (JSON.stringify(added.sort()) !== JSON.stringify(mine.map((n) => Number(n.id)).sort()))
          problems.push(`ticket ${id}: notes ${JSON.stringify(mine)} vs events ${added.join(',')}`);
        for (const note of mine) {
          const edits = list.filter((e) => e.kind === 'NOTE_EDITED' && Number(e.note_id) === Number(note.id)).length;
          if (edits !== Number(note.revisions)) problems.push(`note ${String(note.id)}: ${String(note.revisions)} revisions, ${edits} edit events`);
        }
      }
      figure(
        'timeline crash test',
        `${byTicket.size} tickets' records checked after ${kills} SIGKILLs (${acked} acknowledged writes, ${failed} cut off): ${problems.length} mismatches`,
      );
      expect(kills).toBe(KILLS);
      expect(problems).toEqual([]);
      expect(byTicket.size).toBeGreaterThan(20);
    } finally {
      await close();
    }
  }, 600_000);
});

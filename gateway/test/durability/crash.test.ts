/**
 * Crash test: a writer acknowledges writes through the API while the real server (`main.ts`) is killed
 * with SIGKILL at random moments and restarted. Every acknowledged write must be there afterwards, the SQLite
 * file must pass `PRAGMA integrity_check`, and no image may be left without its ticket.
 *
 * SQLite only: it tests the WAL + synchronous=NORMAL setting of schema/src/database.ts. On PostgreSQL the
 * durability of a commit is the database server's (fsync), which a gateway crash does not touch.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { DEMO_ACCOUNTS } from '@fulcrum/schema';
import { TestClient } from '../../src/testing/client.js';
import { PNG } from '../../src/testing/fixtures.js';
import { startTestGateway, testDatabaseMode } from '../../src/testing/harness.js';
import { checkImage } from '../../../schema/src/services/images.js';
import { figure, sleep } from '../../src/testing/measure.js';
import { bundleServer, startServerProcess, type StartedProcess as ServerProcess } from '../../src/testing/processes.js';

/**
 * The issue's size: 10,000 acknowledged writes and 20 kills. About 50 s on an idle 2-core machine, and up to
 * about 140 s when other suites load it (over 300 s seen with four other test runs on the machine: the limit is 600 s). FULCRUM_CRASH_WRITES / FULCRUM_CRASH_KILLS change it (a quick run, or a
 * longer soak).
 */
const WRITES = Number(process.env.FULCRUM_CRASH_WRITES ?? 10_000);
const KILLS = Number(process.env.FULCRUM_CRASH_KILLS ?? 20);
const WRITERS = 8;

const dataDir = mkdtempSync(join(tmpdir(), 'fulcrum-crash-'));
let bundle: string | undefined;
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
  if (bundle) rmSync(dirname(bundle), { recursive: true, force: true });
});

describe.skipIf(testDatabaseMode() !== 'sqlite')('crash test (SQLite WAL)', () => {
  it('the database runs in WAL mode with synchronous=NORMAL, as schema/src/database.ts documents', async () => {
    const gw = await startTestGateway();
    try {
      const conn = gw.orm.em.fork().getConnection();
      const [mode] = await conn.execute<{ journal_mode: string }[]>('pragma journal_mode');
      const [sync] = await conn.execute<{ synchronous: number }[]>('pragma synchronous');
      expect(mode.journal_mode).toBe('wal');
      expect(sync.synchronous).toBe(process.env.FULCRUM_SQLITE_SYNC === 'FULL' ? 2 : 1); // 1 = NORMAL, 2 = FULL
      figure(
        'SQLite',
        `journal_mode=${mode.journal_mode}, synchronous=${sync.synchronous === 1 ? 'NORMAL' : sync.synchronous === 2 ? 'FULL' : sync.synchronous}`,
      );
    } finally {
      await gw.destroy();
    }
  });

  it(`${WRITES} acknowledged writes survive ${KILLS} SIGKILLs`, async () => {
    bundle = await bundleServer();
    const started = Date.now();
    const acked = new Map<number, string>(); // message id -> text
    const ackedTickets = new Map<number, string>(); // ticket id -> title (created with an image, one transaction)
    const ackedDeletes = new Set<number>();
    const triedDeletes = new Set<number>();
    let seq = 0;
    let ackCount = 0;
    let attempted = 0;
    let failed = 0;
    const killAt = Array.from({ length: KILLS }, () => Math.floor(Math.random() * WRITES)).sort((a, b) => a - b);
    let kills = 0;
    let starts = 0;
    let server: ServerProcess;
    let client: TestClient;
    let cookie = '';
    let ready: Promise<void>;
    const outputs: string[] = [];

    let bootMs = 0;
    const boot = async () => {
      const t0 = Date.now();
      server = await startServerProcess({ DATA_DIR: dataDir, FULCRUM_DEMO: '1', DATABASE_URL: undefined, REDIS_URL: undefined }, { bundle });
      children.push(server.child);
      starts++;
      client = new TestClient(server.url);
      if (cookie) client.setCookieHeader(cookie);
      else {
        await client.login(DEMO_ACCOUNTS[0].email, DEMO_ACCOUNTS[0].password);
        cookie = client.cookieHeader;
      }
      bootMs += Date.now() - t0;
    };
    const kill = async () => {
      const s = server;
      outputs.push(s.output());
      s.child.kill('SIGKILL');
      await s.exited;
    };
    ready = boot();

    const writeOnce = async (n: number) => {
      const c = client;
      if (n % 25 === 0) {
        const title = `crash-${n}`;
        const r = await c.gqlUpload(
          'mutation($i: TicketInput!, $img: Upload) { createTicket(input: $i, image: $img) { id } }',
          { i: { title, requesterId: 1, description: 'written under fire' } },
          'img',
          { data: PNG },
        );
        if (r.data?.createTicket?.id) ackedTickets.set(r.data.createTicket.id, title);
        else throw new Error(JSON.stringify(r.errors));
        ackCount++;
      } else if (n % 40 === 0 && ackedTickets.size > triedDeletes.size + 3) {
        const id = [...ackedTickets.keys()].find((t) => !triedDeletes.has(t))!;
        triedDeletes.add(id); // from here on the ticket may be gone, acknowledged or not
        const r = await c.get(`/api/tickets/${id}/delete`);
        if (r.status === 200 || r.status === 404)
          ackedDeletes.add(id); // 404: an earlier, unacknowledged delete committed
        else throw new Error(String(r.status));
        ackCount++;
      } else if (n % 3 === 0) {
        const text = `w-${n}`;
        const r = await c.post('/api/messages/create/too/2', { message: text });
        if (r.status === 201) acked.set(r.body.id, text);
        else throw new Error(String(r.status));
        ackCount++;
      } else {
        // 25 sendMessage mutations in one document: 25 separate transactions, acknowledged together.
        const texts = Array.from({ length: 25 }, (_, k) => `w-${n}-${k}`);
        const r = await c.gql(`mutation { ${texts.map((t, k) => `m${k}: sendMessage(receiverId: 3, text: "${t}") { id }`).join(' ')} }`);
        if (!r.data || r.errors?.length) throw new Error(JSON.stringify(r.errors));
        texts.forEach((t, k) => acked.set(r.data![`m${k}`].id, t));
        ackCount += texts.length;
      }
    };

    const writer = async () => {
      while (ackCount < WRITES || kills < KILLS) {
        await ready;
        const n = ++seq;
        attempted++;
        try {
          await writeOnce(n);
        } catch {
          failed++; // killed mid-request: not acknowledged, may or may not be stored
          await sleep(5);
        }
        if (kills < KILLS && ackCount >= killAt[kills]) {
          kills++;
          // A random moment: now, or a few milliseconds later while the other writers are mid-request.
          const jitter = Math.random() * 20;
          const previous = ready; // one server at a time: a kill waits for the restart before it
          ready = (async () => {
            await previous;
            await sleep(jitter);
            await kill();
            await boot();
          })();
        }
      }
    };
    await ready;
    await Promise.all(Array.from({ length: WRITERS }, writer));
    await ready;
    // The last word is a crash too: check the files as a SIGKILL leaves them.
    await kill();

    const db = new Database(join(dataDir, 'fulcrum.sqlite'));
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      const integrity = db.pragma('integrity_check', { simple: true });
      expect(integrity).toBe('ok');
      const messages = new Map(
        (db.prepare("select id, message as text from messages where message like 'w-%'").all() as { id: number; text: string }[]).map((m) => [m.id, m.text]),
      );
      const lost = [...acked].filter(([id, text]) => messages.get(id) !== text);
      const tickets = new Map(
        (db.prepare("select id, title from tickets where title like 'crash-%'").all() as { id: number; title: string }[]).map((t) => [t.id, t.title]),
      );
      const lostTickets = [...ackedTickets].filter(([id, title]) => !triedDeletes.has(id) && tickets.get(id) !== title);
      const undeleted = [...ackedDeletes].filter((id) => tickets.has(id));
      const orphans = (
        db.prepare('select count(*) as n from ticket_images i left join tickets t on t.id = i.ticket_id where t.id is null').get() as { n: number }
      ).n;
      const imageless = (
        db
          .prepare("select count(*) as n from tickets t left join ticket_images i on i.ticket_id = t.id where t.title like 'crash-%' and i.id is null")
          .get() as { n: number }
      ).n;
      const images = db
        .prepare("select i.id, i.byte_size as size, i.data from ticket_images i join tickets t on t.id = i.ticket_id where t.title like 'crash-%'")
        .all() as { id: number; size: number; data: Buffer }[];
      let badImages = 0;
      for (const image of images) {
        if (image.data.length !== image.size) badImages++;
        else await checkImage(image.data).catch(() => badImages++);
      }
      const fk = db.pragma('foreign_key_check') as unknown[];
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      // Each acknowledged write is checked: a message, a ticket created with its image, or a delete. A ticket whose
      // delete was cut off by a kill may or may not exist; its creation is the one write that cannot be checked.
      const unverifiable = triedDeletes.size - ackedDeletes.size;
      const checked = acked.size + (ackedTickets.size - triedDeletes.size) + ackedDeletes.size;
      const problems = lost.length + lostTickets.length + undeleted.length;
      figure(
        'crash test',
        `${checked - problems} of ${checked} acknowledged writes present after ${kills} SIGKILLs and ${starts} starts (${ackCount} acknowledged in all, ${unverifiable} unverifiable; ${attempted} requests, ${failed} cut off by a kill; ${acked.size} messages, ${ackedTickets.size} tickets with images, ${ackedDeletes.size} deletes); integrity_check ${String(integrity)}; orphan images ${orphans}; tickets missing their image ${imageless}; damaged images ${badImages}; ${seconds} s, of which ${(bootMs / 1000).toFixed(1)} s restarting`,
      );
      expect(kills).toBe(KILLS);
      expect(ackCount).toBeGreaterThanOrEqual(WRITES);
      expect(lost).toEqual([]);
      expect(lostTickets).toEqual([]);
      expect(undeleted).toEqual([]);
      expect(orphans).toBe(0);
      expect(imageless).toBe(0);
      expect(badImages).toBe(0);
      expect(fk).toEqual([]);
    } finally {
      db.close();
    }
    // No password or hash reached the server's output in all those runs.
    expect(outputs.join('')).not.toMatch(/\$argon2|fulcrum-demo/);
  }, 600_000);
});

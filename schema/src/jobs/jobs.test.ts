/**
 * The job table on a real database (a temp SQLite file, or with FULCRUM_TEST_DATABASE=postgres a fresh PostgreSQL
 * database): idempotent enqueue, THE claim shared by two claimants (two ORM instances on PostgreSQL, as two gateways;
 * two forks of one on SQLite, its one gateway per file), an expired lease run again, a restart that resumes, the
 * runner's schedule, and a fast-check property over random enqueue/claim/complete/crash sequences: every job runs
 * at least once, never under two live leases at once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Em, type Orm } from '../database.js';
import { createPostgresDatabase } from '../testing/postgres.js';
import { claim, complete, enqueue, JobRunner, type ClaimedJob } from './index.js';

const POSTGRES = process.env.FULCRUM_TEST_DATABASE === 'postgres';
const HOUR = 3_600_000;

let orms: Orm[] = [];
let cleanup: () => Promise<void> = async () => {};
let kindSeq = 0;
/** A kind no other test uses, so each test sees only its own jobs. */
const freshKind = () => `test${++kindSeq}`;

/** Two claimants: two ORM instances on PostgreSQL; on SQLite, forks of one (one gateway per file). */
const em = (i = 0): Em => orms[POSTGRES ? i : 0].em.fork();
const rows = (sql: string, params: unknown[] = []) => em().getConnection().execute<Record<string, unknown>[]>(sql, params);

beforeAll(async () => {
  if (POSTGRES) {
    const db = await createPostgresDatabase();
    orms = [await openDatabase({ databaseUrl: db.url }), await openDatabase({ databaseUrl: db.url })];
    cleanup = async () => {
      for (const orm of orms) await orm.close(true);
      await db.drop();
    };
  } else {
    const dataDir = mkdtempSync(join(tmpdir(), 'fulcrum-jobs-'));
    orms = [await openDatabase({ dataDir })];
    cleanup = async () => {
      await orms[0].close(true);
      rmSync(dataDir, { recursive: true, force: true });
    };
  }
}, 60_000);

afterAll(() => cleanup());

/** Resolves once `check` is true (the test's own timeout bounds it). */
async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('the job table', () => {
  it('enqueues idempotently on kind and key, and schedules a finished job anew', async () => {
    const kind = freshKind();
    const first = await enqueue(em(), { kind, key: 'k', payload: { n: 1 } });
    const second = await enqueue(em(1), { kind, key: 'k', payload: { n: 2 } });
    expect(second).toBe(first);
    expect(await rows('select payload, state from jobs where kind = ?', [kind])).toEqual([{ payload: '{"n":1}', state: 'pending' }]);
    const [job] = await claim(em(), [kind], 10, HOUR);
    expect(job).toMatchObject({ id: first, key: 'k', payload: { n: 1 }, attempt: 1 });
    // Running: enqueueing it again changes nothing.
    await enqueue(em(), { kind, key: 'k', payload: { n: 3 } });
    expect(await claim(em(1), [kind], 10, HOUR)).toEqual([]);
    expect(await complete(em(), job)).toBe(true);
    // Done: enqueueing it again schedules the same row anew.
    expect(await enqueue(em(), { kind, key: 'k', payload: { n: 4 } })).toBe(first);
    expect(await claim(em(1), [kind], 10, HOUR)).toMatchObject([{ id: first, payload: { n: 4 }, attempt: 1 }]);
  });

  it('claims only due jobs of the asked kinds', async () => {
    const kind = freshKind();
    await enqueue(em(), { kind, key: 'later', dueAt: new Date(Date.now() + HOUR) });
    await enqueue(em(), { kind: freshKind(), key: 'other' });
    expect(await claim(em(), [kind], 10, HOUR)).toEqual([]);
    await enqueue(em(), { kind, key: 'now' });
    expect((await claim(em(), [kind], 10, HOUR)).map((j) => j.key)).toEqual(['now']);
  });

  it('never gives one job to two claimants claiming at once', async () => {
    const kind = freshKind();
    const count = 120;
    for (let i = 0; i < count; i += 1) await enqueue(em(i % 2), { kind, key: `j${i}` });
    const seen: number[][] = [[], []];
    const drain = async (who: number) => {
      for (;;) {
        const jobs = await claim(em(who), [kind], 7, HOUR);
        if (!jobs.length) return;
        seen[who].push(...jobs.map((j) => j.id));
      }
    };
    await Promise.all([drain(0), drain(1), drain(0), drain(1)]);
    const all = [...seen[0], ...seen[1]];
    expect(all.length).toBe(count);
    expect(new Set(all).size).toBe(count);
    if (POSTGRES) expect(seen[0].length * seen[1].length).toBeGreaterThan(0);
  });

  it('runs a job again once its lease has run out, and ignores the end written by the lapsed run', async () => {
    const kind = freshKind();
    await enqueue(em(), { kind, key: 'slow' });
    // (That a live lease is not claimed is the claimants' test above; here only its end, which no clock is needed to see.)
    const [lapsed] = await claim(em(), [kind], 1, 50);
    await new Promise((resolve) => setTimeout(resolve, 80));
    const [again] = await claim(em(1), [kind], 1, HOUR);
    expect(again).toMatchObject({ id: lapsed.id, attempt: 2 });
    expect(await complete(em(), lapsed)).toBe(false);
    expect(await complete(em(1), again)).toBe(true);
    expect(await rows('select state, attempts from jobs where id = ?', [lapsed.id])).toEqual([{ state: 'done', attempts: 2 }]);
  });

  it('resumes after a restart: a run left by a runner that died is run by the next one', async () => {
    const kind = freshKind();
    await enqueue(em(), { kind, key: 'orphan', payload: 'x' });
    // A runner claims it and dies (its lease is left; short on PostgreSQL, where it must run out; SQLite's next
    // gateway releases it at start).
    const [orphan] = await claim(em(), [kind], 1, POSTGRES ? 200 : HOUR);
    const ran: ClaimedJob[] = [];
    const runner = new JobRunner(orms[POSTGRES ? 1 : 0], { pollMs: 50 }).handle(kind, async (job) => void ran.push(job));
    await runner.start();
    try {
      await until(() => ran.length > 0);
      expect(ran).toMatchObject([{ id: orphan.id, payload: 'x', attempt: 2 }]);
      await until(async () => (await rows('select state from jobs where id = ?', [orphan.id]))[0].state === 'done');
    } finally {
      await runner.stop();
    }
  });

  it('runs due work when woken by an enqueue, re-runs a recurring job, retries a throwing one and then fails it', async () => {
    const kind = freshKind();
    const runs: string[] = [];
    let tick = 0;
    const runner = new JobRunner(orms[0], { pollMs: HOUR, log: () => {} }).handle(kind, async (job) => {
      runs.push(`${job.key}#${job.attempt}`);
      if (job.key === 'recurring' && ++tick < 3) return { again: new Date(Date.now() + 20) };
    });
    await runner.start();
    const brokenRunner = new JobRunner(orms[0], { pollMs: HOUR, log: () => {} }).handle(
      `${kind}b`,
      async () => {
        throw new Error('no luck');
      },
      { retryDelaysMs: [10, 10] },
    );
    await brokenRunner.start();
    try {
      // The loop sleeps for an hour unless woken: the enqueue wakes it.
      await enqueue(em(), { kind, key: 'now' });
      await until(() => runs.includes('now#1'));
      await enqueue(em(), { kind, key: 'recurring' });
      await until(() => tick === 3);
      expect(runs.filter((r) => r.startsWith('recurring'))).toEqual(['recurring#1', 'recurring#1', 'recurring#1']);
      await until(async () => (await rows('select state from jobs where kind = ? and key = ?', [kind, 'recurring']))[0].state === 'done');
      const broken = await enqueue(em(), { kind: `${kind}b`, key: 'broken' });
      await until(async () => (await rows('select state from jobs where id = ?', [broken]))[0].state === 'failed');
      expect(await rows('select attempts, last_error from jobs where id = ?', [broken])).toEqual([{ attempts: 3, last_error: 'no luck' }]);
    } finally {
      await runner.stop();
      await brokenRunner.stop();
    }
  });

  it('property: over random enqueue/claim/complete/crash sequences every job runs to completion and never under two live leases', async () => {
    type Op = { op: 'enqueue'; key: number } | { op: 'claim'; who: number; limit: number } | { op: 'complete'; who: number } | { op: 'crash'; who: number };
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({ op: fc.constant('enqueue' as const), key: fc.integer({ min: 0, max: 5 }) }),
      fc.record({ op: fc.constant('claim' as const), who: fc.integer({ min: 0, max: 1 }), limit: fc.integer({ min: 1, max: 3 }) }),
      fc.record({ op: fc.constant('complete' as const), who: fc.integer({ min: 0, max: 1 }) }),
      fc.record({ op: fc.constant('crash' as const), who: fc.integer({ min: 0, max: 1 }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 25 }), async (ops) => {
        const kind = freshKind();
        const enqueued = new Set<string>();
        const held: Map<number, ClaimedJob>[] = [new Map(), new Map()];
        const completed = new Set<string>();
        const take = async (who: number, limit: number) => {
          for (const job of await claim(em(who), [kind], limit, HOUR)) {
            // Never concurrently: no live lease of the other claimant (nor its own) holds this job.
            expect(held.some((h) => h.has(job.id))).toBe(false);
            held[who].set(job.id, job);
          }
        };
        const finish = async (who: number) => {
          for (const job of held[who].values()) {
            expect(await complete(em(who), job)).toBe(true);
            completed.add(job.key);
          }
          held[who].clear();
        };
        for (const step of ops) {
          if (step.op === 'enqueue') {
            await enqueue(em(), { kind, key: `k${step.key}` });
            enqueued.add(`k${step.key}`);
          } else if (step.op === 'claim') await take(step.who, step.limit);
          else if (step.op === 'complete') await finish(step.who);
          else {
            // The claimant dies: its leases run out (moved to the past, as time would).
            const ids = [...held[step.who].keys()];
            if (ids.length)
              await em()
                .getKnex()('jobs')
                .whereIn('id', ids)
                .update({ due_at: new Date(Date.now() - 1000) });
            held[step.who].clear();
          }
        }
        // Both claimants drain what is left.
        await finish(0);
        await finish(1);
        for (;;) {
          await take(0, 10);
          if (!held[0].size) break;
          await finish(0);
        }
        for (const key of enqueued) expect(completed.has(key), key).toBe(true);
        const states = await rows('select key, state from jobs where kind = ?', [kind]);
        expect(states.every((r) => r.state === 'done')).toBe(true);
        expect(states.length).toBe(enqueued.size);
      }),
      { numRuns: POSTGRES ? 25 : 50 },
    );
  }, 120_000);

  it('its migration goes down and up again', async () => {
    const db = POSTGRES ? await createPostgresDatabase() : null;
    const dataDir = db ? undefined : mkdtempSync(join(tmpdir(), 'fulcrum-jobs-'));
    const orm = await openDatabase({ databaseUrl: db?.url, dataDir });
    try {
      const tables = async () =>
        (
          await orm.em
            .fork()
            .getConnection()
            .execute<{ n: number | string }[]>(
              POSTGRES
                ? `select count(*) as n from information_schema.tables where table_name = 'jobs'`
                : `select count(*) as n from sqlite_master where name = 'jobs'`,
            )
        )[0].n;
      expect(Number(await tables())).toBe(1);
      await orm.getMigrator().down({ to: 'Migration20261207160000ConversationSearch' });
      expect(Number(await tables())).toBe(0);
      await orm.getMigrator().up();
      expect(Number(await tables())).toBe(1);
      expect(await enqueue(orm.em.fork(), { kind: 'k', key: 'k' })).toBeGreaterThan(0);
    } finally {
      await orm.close(true);
      await db?.drop();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

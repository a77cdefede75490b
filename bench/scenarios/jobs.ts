/**
 * Scenario 15 (the job table): due work on an idle gateway starts within a second of its time.
 *
 * A JobRunner (schema/src/jobs) with one handler, on a fresh database and otherwise idle, is given BENCH_JOBS jobs
 * (default 15) one after another, each due 200 to 900 ms after its enqueue; measured per job: the handler's start
 * minus the job's due time (its lateness). On SQLite the enqueue is this process's (it wakes the runner, which then
 * sleeps until the due time); on PostgreSQL also from a second ORM instance, as another gateway's enqueue, which
 * wakes nothing (the runner's 1 s poll and its sleep until the earliest due time find it). Budget: the worst
 * lateness < 1 s.
 */
import { join } from 'node:path';
import { jobs, JobRunner, openDatabase, type Orm } from '@fulcrum/schema';
import { createPostgresDatabase } from '@fulcrum/schema/testing';
import { percentile, sleep } from '../../gateway/src/testing/measure.js';
import { rows, tmp } from '../context.js';
import { log } from '../lib.js';

const COUNT = Number(process.env.BENCH_JOBS ?? 15);

/** Lateness (ms) of COUNT jobs enqueued through `enqueueOrm` and run by a runner on `runnerOrm`. */
async function lateness(runnerOrm: Orm, enqueueOrm: Orm): Promise<number[]> {
  const started = new Map<string, number>();
  const runner = new JobRunner(runnerOrm, { log: () => {} }).handle('bench.due', async (job) => void started.set(job.key, Date.now()));
  await runner.start();
  const late: number[] = [];
  try {
    for (let i = 0; i < COUNT; i += 1) {
      const key = `job${i}-${Date.now()}`;
      const dueAt = new Date(Date.now() + 200 + Math.floor(Math.random() * 700));
      await jobs.enqueue(enqueueOrm.em.fork(), { kind: 'bench.due', key, dueAt });
      const give = dueAt.getTime() + 5000;
      while (!started.has(key) && Date.now() < give) await sleep(5);
      late.push((started.get(key) ?? give) - dueAt.getTime());
    }
  } finally {
    await runner.stop();
  }
  return late;
}

function row(where: string, late: number[]): void {
  const worst = Math.max(...late);
  log(`  15. due jobs, ${where}: lateness p50 ${percentile(late, 50)} ms, worst ${worst} ms`);
  rows.push({
    scenario: `15. Jobs: due work on an idle gateway, ${where} (lateness of ${late.length} jobs)`,
    value: `p50 ${percentile(late, 50)} ms, worst ${worst} ms`,
    budget: '< 1 s',
    met: worst < 1000,
  });
}

export async function jobTable(postgres: boolean): Promise<void> {
  const sqlite = await openDatabase({ dataDir: join(tmp, 'jobs') });
  try {
    row('SQLite, enqueued by the same gateway', await lateness(sqlite, sqlite));
  } finally {
    await sqlite.close(true);
  }
  if (!postgres) return;
  const database = await createPostgresDatabase();
  const [a, b] = [await openDatabase({ databaseUrl: database.url }), await openDatabase({ databaseUrl: database.url })];
  try {
    row('PostgreSQL, enqueued by the same gateway', await lateness(a, a));
    row('PostgreSQL, enqueued by another gateway', await lateness(a, b));
  } finally {
    await a.close(true);
    await b.close(true);
    await database.drop();
  }
}

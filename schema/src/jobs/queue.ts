/**
 * The job table's verbs: enqueue, claim, and the three ends of a run (complete, retry, fail). Plain functions on an
 * entity manager, so a service can enqueue in its own transaction and any process can drain.
 *
 * - enqueue is idempotent on (kind, key): a job still pending or running is left as it is (the first enqueue wins);
 *   one that is done or failed is scheduled anew (a recurring job is one row, re-enqueued after each run).
 * - claim is THE claim-with-lease (./claim.ts) on this table, restricted to the kinds the caller handles.
 * - The ends of a run are written only while the run's lease is still the latest one (same attempt number): a run
 *   that outlived its lease, whose job another runner has claimed since, changes nothing.
 */
import type { Knex } from '@mikro-orm/knex';
import type { Em } from '../database.js';
import { toDate } from '../records/index.js';
import { claimLeased, nextDue, releaseLeases, type LeasedTable } from './claim.js';

export const JOBS_TABLE: LeasedTable = {
  table: 'jobs',
  due: 'due_at',
  state: 'state',
  waiting: 'pending',
  leased: 'running',
  attempts: 'attempts',
  leaseUntil: 'lease_until',
  updatedAt: 'updated_at',
};

export interface EnqueueInput {
  kind: string;
  key: string;
  dueAt?: Date;
  payload?: unknown;
}

/** A job claimed by this process: its lease is held until it completes, retries or fails. */
export interface ClaimedJob<P = unknown> {
  id: number;
  kind: string;
  key: string;
  payload: P;
  /** This run's number (1 for the first). */
  attempt: number;
  leaseUntil: Date;
}

// The job runners of this process, per database (keyed by the ORM's configuration, which every fork shares).
const runners = new WeakMap<object, Set<() => void>>();

/** A runner of this process listens for enqueues (JobRunner does); returns the unsubscribe. */
export function onEnqueue(em: Em, wake: () => void): () => void {
  let set = runners.get(em.config);
  if (!set) runners.set(em.config, (set = new Set()));
  set.add(wake);
  return () => set.delete(wake);
}

/** Wakes this process's runners: enqueue does; a caller that enqueued inside its transaction calls it after commit. */
export function wakeJobRunners(em: Em): void {
  for (const wake of runners.get(em.config) ?? []) wake();
}

/** Schedules a job (idempotent on kind and key, see above); its id. */
export async function enqueue(em: Em, input: EnqueueInput): Promise<number> {
  const knex = em.getKnex();
  const trx = em.getTransactionContext<Knex.Transaction>();
  const table = () => (trx ? knex('jobs').transacting(trx) : knex('jobs'));
  const now = new Date();
  const dueAt = input.dueAt ?? now;
  const payload = JSON.stringify(input.payload ?? null);
  await table()
    .insert({
      kind: input.kind,
      key: input.key,
      due_at: dueAt,
      payload,
      state: 'pending',
      attempts: 0,
      lease_until: null,
      last_error: null,
      created_at: now,
      updated_at: now,
    })
    .onConflict(['kind', 'key'])
    .ignore();
  // Already there: a finished job is scheduled anew; a pending or running one stays as it is.
  await table()
    .where({ kind: input.kind, key: input.key })
    .whereIn('state', ['done', 'failed'])
    .update({ due_at: dueAt, payload, state: 'pending', attempts: 0, lease_until: null, last_error: null, updated_at: now });
  const [row] = (await table().select('id').where({ kind: input.kind, key: input.key })) as { id: number | string }[];
  wakeJobRunners(em);
  return Number(row.id);
}

/** Claims up to `limit` due jobs of the given kinds for `leaseMs` (see ./claim.ts). */
export function claim(em: Em, kinds: readonly string[], limit: number, leaseMs: number): Promise<ClaimedJob[]> {
  if (!kinds.length || limit <= 0) return Promise.resolve([]);
  return claimLeased(em, JOBS_TABLE, {
    limit,
    leaseMs,
    where: (q) => void q.whereIn('kind', [...kinds]),
    load: async (knex, trx, ids) => {
      const rows: { id: number | string; kind: string; key: string; payload: string; attempts: number | string; lease_until: unknown }[] = await knex('jobs')
        .transacting(trx)
        .whereIn('id', ids)
        .orderBy('id')
        .select('id', 'kind', 'key', 'payload', 'attempts', 'lease_until');
      return rows.map((r) => ({
        id: Number(r.id),
        kind: r.kind,
        key: r.key,
        payload: JSON.parse(r.payload) as unknown,
        attempt: Number(r.attempts),
        leaseUntil: toDate(r.lease_until),
      }));
    },
  });
}

/** The row of a run whose lease is still the latest. */
function ownRun(em: Em, job: Pick<ClaimedJob, 'id' | 'attempt'>) {
  return em.fork().getKnex()('jobs').where({ id: job.id, state: 'running', attempts: job.attempt });
}

/** The run succeeded. With `again`, the job (one row) is due again then, as a fresh job; otherwise it is done. True while the lease was ours. */
export async function complete(em: Em, job: Pick<ClaimedJob, 'id' | 'attempt'>, again?: Date): Promise<boolean> {
  const now = new Date();
  const next = again
    ? { state: 'pending', due_at: again, attempts: 0, lease_until: null, last_error: null, updated_at: now }
    : { state: 'done', lease_until: null, last_error: null, updated_at: now };
  return (await ownRun(em, job).update(next)) > 0;
}

/** The run failed and the job is tried again at `at`. True while the lease was ours. */
export async function retry(em: Em, job: Pick<ClaimedJob, 'id' | 'attempt'>, at: Date, error: string): Promise<boolean> {
  return (await ownRun(em, job).update({ state: 'pending', due_at: at, lease_until: null, last_error: error.slice(0, 2000), updated_at: new Date() })) > 0;
}

/** The run failed for good. True while the lease was ours. */
export async function fail(em: Em, job: Pick<ClaimedJob, 'id' | 'attempt'>, error: string): Promise<boolean> {
  return (await ownRun(em, job).update({ state: 'failed', lease_until: null, last_error: error.slice(0, 2000), updated_at: new Date() })) > 0;
}

/** SQLite, at start: this file's previous gateway's runs are due again now (see ./claim.ts releaseLeases). */
export function releaseJobLeases(em: Em): Promise<void> {
  return releaseLeases(em, JOBS_TABLE);
}

/** The earliest due time of the given kinds' pending and running jobs (null: none). */
export function nextJobDue(em: Em, kinds: readonly string[]): Promise<unknown> {
  return nextDue(em, JOBS_TABLE, (q) => void q.whereIn('kind', [...kinds]));
}

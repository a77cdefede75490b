/**
 * The engine's record of attempts (webhooks/engine.ts): what a claimed job carries to its HTTP attempt, and how a
 * batch of attempt results is written back in one transaction: the attempts' log rows (webhook_deliveries), each
 * job's next state (delivered, retried at the next step of the schedule, or failed) and each endpoint's failure run,
 * which disables the endpoint after 410 Gone or after a long enough run of consecutive failures.
 */
import type { Knex } from '@mikro-orm/knex';
import type { Em } from '../database.js';
import { toDate } from '../records/index.js';
import type { AttemptOutcome } from './http.js';

/** A job reserved to this gateway, with what its attempt needs: the endpoint, its live secrets, the event. */
export interface ClaimedJob {
  id: number;
  webhookId: number;
  attempt: number;
  maxAttempts: number;
  url: string;
  secrets: string[];
  disabled: boolean;
  messageId: string;
  eventType: string;
  payload: string;
}

export interface AttemptResult {
  job: ClaimedJob;
  outcome: AttemptOutcome;
  at: Date;
}

/** When a failed attempt is retried, and when an endpoint's run of failures disables it. */
export interface FailurePolicy {
  disableAfterFailures: number;
  disableAfterMs: number;
  /** The delay before the retry that follows the given attempt. */
  nextDelay: (attempt: number) => number;
}

/** A succeeded attempt is a 2xx answer. */
export const isSuccess = (status: number | null) => status !== null && status >= 200 && status < 300;

/** Writes a batch of attempt results: log rows, job states, endpoint failure runs (and disabling). */
export async function recordResults(fork: () => Em, results: AttemptResult[], wantIds: boolean, policy: FailurePolicy): Promise<number[]> {
  if (!results.length) return [];
  return fork().transactional(async (em) => {
    const knex = em.getKnex();
    const trx = em.getTransactionContext<Knex.Transaction>()!;
    const ids: number[] = [];
    const rows = results.map(({ job, outcome, at }) => ({
      webhook_id: job.webhookId,
      job_id: job.id,
      event_type: job.eventType,
      message_id: job.messageId,
      attempt: job.attempt,
      status_code: outcome.statusCode,
      succeeded: isSuccess(outcome.statusCode),
      duration_ms: outcome.durationMs,
      error: outcome.error?.slice(0, 500) ?? null,
      response_excerpt: outcome.responseExcerpt,
      created_at: at,
    }));
    if (wantIds) {
      for (const row of rows) {
        const inserted: ({ id: number } | number)[] = await knex('webhook_deliveries').transacting(trx).insert(row).returning('id');
        ids.push(Number(typeof inserted[0] === 'object' ? inserted[0].id : inserted[0]));
      }
    } else {
      // The worker's batches need no ids: one insert per 50 rows instead of one per delivery.
      for (let i = 0; i < rows.length; i += 50)
        await knex('webhook_deliveries')
          .transacting(trx)
          .insert(rows.slice(i, i + 50));
    }
    const now = new Date();
    // Successes, the common case, in two statements for the whole batch: their jobs are delivered, and their
    // endpoints' failure runs end (written only where one was running).
    const delivered = results.filter(({ outcome }) => isSuccess(outcome.statusCode));
    if (delivered.length) {
      await knex('webhook_jobs')
        .transacting(trx)
        .whereIn(
          'id',
          delivered.map(({ job }) => job.id),
        )
        .update({ state: 'delivered', lease_until: null, updated_at: now });
      const endpoints = [...new Set(delivered.filter(({ job }) => !job.disabled).map(({ job }) => job.webhookId))];
      if (endpoints.length)
        await knex('webhooks')
          .transacting(trx)
          .whereIn('id', endpoints)
          .where((q) => void q.where('consecutive_failures', '<>', 0).orWhereNotNull('failing_since'))
          .update({ consecutive_failures: 0, failing_since: null });
    }
    for (const { job, outcome, at } of results) {
      if (isSuccess(outcome.statusCode)) continue;
      const gone = outcome.statusCode === 410;
      const jobs = knex('webhook_jobs').transacting(trx).where('id', job.id);
      if (gone || job.disabled || job.attempt >= job.maxAttempts) await jobs.update({ state: 'failed', lease_until: null, updated_at: now });
      else await jobs.update({ state: 'pending', next_attempt_at: new Date(at.getTime() + policy.nextDelay(job.attempt)), lease_until: null, updated_at: now });
      if (job.disabled) continue;
      const hook = knex('webhooks').transacting(trx).where('id', job.webhookId);
      await hook.clone().update({ consecutive_failures: knex.raw('consecutive_failures + 1'), failing_since: knex.raw('coalesce(failing_since, ?)', [at]) });
      const why = outcome.statusCode !== null ? `HTTP ${outcome.statusCode}` : (outcome.error ?? 'no response');
      if (gone) {
        await disable(knex, trx, job.webhookId, now, `The endpoint answered 410 Gone at ${at.toISOString()}: it asked to receive nothing more.`);
        continue;
      }
      const [state]: { consecutive_failures: number; failing_since: unknown; disabled_at: unknown }[] = await hook
        .clone()
        .select('consecutive_failures', 'failing_since', 'disabled_at');
      if (
        state &&
        state.disabled_at == null &&
        Number(state.consecutive_failures) >= policy.disableAfterFailures &&
        state.failing_since != null &&
        now.getTime() - toDate(state.failing_since).getTime() >= policy.disableAfterMs
      ) {
        await disable(
          knex,
          trx,
          job.webhookId,
          now,
          `Disabled after ${state.consecutive_failures} consecutive failed deliveries since ${toDate(state.failing_since).toISOString()} (last: ${why.slice(0, 200)}).`,
        );
      }
    }
    return ids;
  });
}

async function disable(knex: ReturnType<Em['getKnex']>, trx: unknown, webhookId: number, now: Date, reason: string): Promise<void> {
  await knex('webhooks')
    .transacting(trx as never)
    .where('id', webhookId)
    .whereNull('disabled_at')
    .update({ disabled_at: now, disabled_reason: reason, updated_at: now });
  await knex('webhook_jobs')
    .transacting(trx as never)
    .where('webhook_id', webhookId)
    .where('state', 'pending')
    .update({ state: 'failed', updated_at: now });
}

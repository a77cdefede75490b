/**
 * The engine's fan-out (webhooks/engine.ts): new outbox events (webhook_events) become delivery jobs (webhook_jobs),
 * one for every enabled endpoint whose owner may read the record (the event's audience), who subscribed to the
 * event's type and who registered before the event; events nobody listens to are deleted at once. On PostgreSQL the
 * events are taken FOR UPDATE SKIP LOCKED, so two gateways never fan out the same event.
 */
import type { Knex } from '@mikro-orm/knex';
import type { Em } from '../database.js';
import { toDate } from '../records/index.js';
import { disableWebhooksOfLapsedTokens } from './lapsedTokens.js';
import { parseAudience } from './outbox.js';

/** New outbox events become jobs for the endpoints that may and want to see them. */
export async function fanOutEvents(fork: () => Em, postgres: boolean, maxAttempts: number, limit: number): Promise<number> {
  // A probe outside any transaction first: an idle poll costs one statement.
  const outer = fork().getKnex();
  if (!(await outer('webhook_events').select('id').where('fanned_out', false).first())) return 0;
  // No endpoint registered (a help desk without integrations): every new event would be dropped below for want of
  // a target, so it is dropped here in one statement, the check included, instead of the fan-out transaction's
  // six. Exact: the statement reads the webhooks as that transaction would (at its own start on PostgreSQL, under
  // the writer lock on SQLite); with any endpoint enabled it deletes nothing and the pass goes on as before.
  const enabledEndpoint = outer('webhooks').select(outer.raw('1')).whereNull('disabled_at');
  if ((await outer('webhook_events').where('fanned_out', false).whereNotExists(enabledEndpoint).delete()) > 0) return 0;
  return fork().transactional(async (em) => {
    const knex = em.getKnex();
    const trx = em.getTransactionContext<Knex.Transaction>()!;
    let query = knex('webhook_events').transacting(trx).select('id', 'type', 'audience', 'created_at').where('fanned_out', false).orderBy('id').limit(limit);
    if (postgres) query = query.forUpdate().skipLocked();
    const events = (await query) as { id: number; type: string; audience: string; created_at: unknown }[];
    if (!events.length) return 0;
    // A webhook whose token has expired (or was revoked while this gateway missed it) gets no new jobs.
    await disableWebhooksOfLapsedTokens(knex, trx, new Date());
    const hooks = (
      (await knex('webhooks').transacting(trx).select('id', 'owner_id', 'events', 'created_at').whereNull('disabled_at')) as {
        id: number;
        owner_id: number;
        events: string;
        created_at: unknown;
      }[]
    ).map((h) => ({
      id: Number(h.id),
      ownerId: Number(h.owner_id),
      events: new Set(JSON.parse(h.events) as string[]),
      createdAt: toDate(h.created_at).getTime(),
    }));
    const now = new Date();
    const jobs: Record<string, unknown>[] = [];
    const kept: number[] = [];
    const dropped: number[] = [];
    for (const event of events) {
      const audience = parseAudience(event.audience);
      const createdAt = toDate(event.created_at).getTime();
      const targets = hooks.filter((h) => h.events.has(event.type) && h.createdAt <= createdAt && (audience === 'all' || audience.includes(h.ownerId)));
      for (const h of targets) {
        jobs.push({
          webhook_id: h.id,
          event_id: event.id,
          state: 'pending',
          attempts: 0,
          max_attempts: maxAttempts,
          next_attempt_at: now,
          lease_until: null,
          created_at: now,
          updated_at: now,
        });
      }
      (targets.length ? kept : dropped).push(Number(event.id));
    }
    for (let i = 0; i < jobs.length; i += 200)
      await knex('webhook_jobs')
        .transacting(trx)
        .insert(jobs.slice(i, i + 200));
    if (kept.length) await knex('webhook_events').transacting(trx).whereIn('id', kept).update({ fanned_out: true });
    if (dropped.length) await knex('webhook_events').transacting(trx).whereIn('id', dropped).delete();
    return events.length;
  });
}

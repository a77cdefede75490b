/**
 * THE claim-with-lease, written once for every durable table a gateway drains: the job table (./queue.ts), the
 * webhook deliveries (webhooks/engine.ts) and the mail outbox (mail/sender.ts).
 *
 * A leased table keeps, per row, a state (waiting or leased), an attempt count and one "due" column: when the row
 * is next to be looked at. A claim moves due rows to the leased state and sets their due column to the lease's end,
 * in one transaction; so a gateway that dies mid-run leaves a row that falls due again when its lease runs out and
 * is claimed again, by another gateway or by the same one restarted: at least once. The handler's own write
 * (done, retry at a later time, failed) ends the lease.
 *
 * - PostgreSQL: the due rows are selected FOR UPDATE SKIP LOCKED, so gateways claiming together never get one row
 *   twice and never wait on each other.
 * - SQLite: one writer per file; the transaction is the single writer's, so select and update are not interleaved
 *   with another claim. One gateway per file, which at start releases the leases of its previous life
 *   (releaseLeases) instead of waiting for them to expire.
 *
 * An idle poll costs one statement: a probe for a due row outside any transaction before the claiming one.
 */
import type { Knex } from '@mikro-orm/knex';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import type { Em } from '../database.js';

/** The columns of one leased table. */
export interface LeasedTable {
  table: string;
  /** When the row is next due: its run time while waiting, its lease's end while leased. */
  due: string;
  /** The state column, its waiting state (claimable when due) and its leased state (claimable once the lease ran out). */
  state: string;
  waiting: string;
  leased: string;
  /** Counted up by each claim. */
  attempts: string;
  /** Set to the lease's end on claim and cleared on release, where the table keeps it apart from `due`. */
  leaseUntil?: string;
  /** Set to the claim's time, where the table has one. */
  updatedAt?: string;
}

export interface ClaimOptions<T> {
  limit: number;
  leaseMs: number;
  /** Narrows the due rows (the job table: its kinds). */
  where?: (query: Knex.QueryBuilder) => void;
  /**
   * These rows only, due or not (a redelivery asked for now): any of them not under a running lease.
   */
  ids?: readonly number[];
  /** In the claim's transaction, before the rows are leased (ids: the rows about to be). */
  beforeLease?: (knex: Knex, trx: Knex.Transaction, ids: number[], now: Date) => Promise<void>;
  /** In the claim's transaction, after: what the caller needs of the claimed rows. */
  load: (knex: Knex, trx: Knex.Transaction, ids: number[], now: Date) => Promise<T[]>;
}

export function isPostgres(em: Em): boolean {
  return em.getDriver() instanceof PostgreSqlDriver;
}

/** Waiting or leased rows whose due time has come. */
function dueRows(query: Knex.QueryBuilder, t: LeasedTable, now: Date): Knex.QueryBuilder {
  return query.whereIn(t.state, [t.waiting, t.leased]).where(t.due, '<=', now);
}

/** Claims up to `limit` due rows (or the given ids) for `leaseMs`; what `load` made of them. */
export async function claimLeased<T>(em: Em, t: LeasedTable, options: ClaimOptions<T>): Promise<T[]> {
  if (!options.ids) {
    const probe = dueRows(em.fork().getKnex()(t.table).select('id'), t, new Date());
    if (options.where) probe.where(options.where);
    if (!(await probe.first())) return [];
  } else if (!options.ids.length) return [];
  const postgres = isPostgres(em);
  return em.fork().transactional(async (tem) => {
    const knex = tem.getKnex();
    const trx = tem.getTransactionContext<Knex.Transaction>()!;
    const now = new Date();
    let query: Knex.QueryBuilder = knex(t.table).transacting(trx).select('id');
    if (options.ids) query = query.whereIn('id', [...options.ids]).where((q) => void q.whereNot(t.state, t.leased).orWhere(t.due, '<=', now));
    else query = dueRows(query, t, now).orderBy(t.due).orderBy('id').limit(options.limit);
    if (options.where) query = query.where(options.where);
    if (postgres) query = query.forUpdate().skipLocked();
    const ids = ((await query) as { id: number | string }[]).map((r) => Number(r.id));
    if (!ids.length) return [];
    await options.beforeLease?.(knex, trx, ids, now);
    const leaseEnd = new Date(now.getTime() + options.leaseMs);
    const set: Record<string, unknown> = { [t.state]: t.leased, [t.attempts]: knex.raw('?? + 1', [t.attempts]), [t.due]: leaseEnd };
    if (t.leaseUntil) set[t.leaseUntil] = leaseEnd;
    if (t.updatedAt) set[t.updatedAt] = now;
    await knex(t.table).transacting(trx).whereIn('id', ids).update(set);
    return options.load(knex, trx, ids, now);
  });
}

/**
 * SQLite, at a gateway's start: the leases of this file's previous gateway (the only one) are released at once,
 * their rows due now. PostgreSQL: nothing (other gateways' leases are theirs until they run out).
 */
export async function releaseLeases(em: Em, t: LeasedTable): Promise<void> {
  if (isPostgres(em)) return;
  const set: Record<string, unknown> = { [t.state]: t.waiting, [t.due]: new Date() };
  if (t.leaseUntil) set[t.leaseUntil] = null;
  await em.fork().getKnex()(t.table).where(t.state, t.leased).update(set);
}

/** The earliest due time of the waiting and leased rows (null: none): how long a drainer may sleep. */
export async function nextDue(em: Em, t: LeasedTable, where?: (query: Knex.QueryBuilder) => void): Promise<unknown> {
  const query = em.fork().getKnex()(t.table).whereIn(t.state, [t.waiting, t.leased]).min({ next: t.due });
  if (where) query.where(where);
  const [row] = (await query) as { next: unknown }[];
  return row?.next ?? null;
}

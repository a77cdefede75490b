/**
 * The reports' queue ("write throughput with the rollups on ≥ 0.9× without"): a write's transaction does
 * not keep the report facts and rollups itself; it appends its entries that can change a report, one row of JSON, to
 * `report_rollup_queue` (facts.ts queueReportEvents), and folds take the queue in order, a batch at a time, and keep
 * the facts, the tickets' report state and the rollups in one transaction (facts.ts foldReportEvents, then
 * reportRollups.ts writeRollups):
 *
 *   write's transaction --> report_rollup_queue (one insert) --fold: claim in order, facts, state, sums--> report_rollups
 *
 * - Keeping them in the write cost a status change 4 to 5 statements and 15 rollup rows, and concurrent writes of one
 *   team's moment waited on each other's locks on the same rows. A fold reads and writes each ticket of its batch
 *   once and sums the rollup deltas of all of it: a burst of writes on one team and day becomes one upsert per row.
 * - A ticket's entries must fold in the order they were written (a reopen after a solve), so one fold runs at a time
 *   (on PostgreSQL a transaction-scoped advisory lock; SQLite has one writer) and claims the oldest rows by id. A
 *   ticket's writes queue in the order they commit: each holds the ticket's row lock (the record's counter) when it
 *   queues. The fold deletes the rows it takes in the transaction that keeps them; a fold that fails rolls back and
 *   leaves its rows queued.
 * - Who folds: every gateway's `ReportFolder` (a WorkerLoop), woken after this process's writes commit and polling
 *   every second for other gateways' rows; and every report, which folds what is queued before it reads
 *   (`foldQueuedRollups`), so a report counts every write acknowledged before it was asked, on any gateway.
 * - Rows queued by an earlier version hold rollup deltas: they are still summed (reportRollups.ts RollupDeltas.merge).
 */
import { preparedRead, transactionStatements, type Em, type Orm } from '../../database.js';
import { RollupDeltas, writeRollups } from '../../migrations/reportRollups.js';
import { foldReportEvents, queuedWriteOf } from './facts.js';
import { WorkerLoop } from '../../workerLoop.js';

/** Queued writes one fold takes at most. */
const FOLD_BATCH = 500;
/**
 * The shortest time between two background folds' starts unless the first was full: a burst's writes fold together.
 * A fold's cost depends on the rows it touches (a burst on one team and day touches the same few), not on the writes
 * it sums, so fewer folds cost the writes less; a report never waits for one (it folds what is queued itself).
 */
const GATHER_MS = 1000;

const CLAIM = 'delete from report_rollup_queue where id in (select id from report_rollup_queue order by id limit ?) returning id, deltas';
/** One fold at a time across the gateways that share a PostgreSQL database (the key is arbitrary and fixed). */
const FOLD_LOCK = 'select pg_advisory_xact_lock(7164029311)';

/**
 * One fold: claims the oldest `limit` queued writes, keeps their facts and state and upserts their rollups' sum, in
 * one transaction. Returns how many.
 */
async function foldOnce(em: Em, limit: number): Promise<number> {
  return em.fork().transactional(async (trx) => {
    const statements = await transactionStatements(trx);
    if (statements.postgres) await statements.all('report_fold_lock', FOLD_LOCK, []);
    const claimed = await statements.all<{ id: number | string; deltas: string }>('report_rollup_queue_claim', CLAIM, [limit]);
    if (!claimed.length) return 0;
    claimed.sort((a, b) => Number(a.id) - Number(b.id));
    const deltas = new RollupDeltas();
    const writes = [];
    for (const row of claimed) {
      const write = queuedWriteOf(row.deltas);
      if (write) writes.push(write);
      else deltas.merge(row.deltas);
    }
    await foldReportEvents(statements, writes, deltas);
    await writeRollups((name, sql, params) => statements.all(name, sql, params), deltas, statements.postgres);
    return claimed.length;
  });
}

/** Whether anything is queued (a prepared read outside any transaction: a report with nothing queued pays this only). */
async function anyQueued(em: Em): Promise<boolean> {
  return (await preparedRead(em, 'report_rollup_queue_any', 'select id from report_rollup_queue limit 1', [])).length > 0;
}

/**
 * Folds everything queued now (a report asks this before it reads the rollups; a fold under way elsewhere is waited
 * for, then what it left is folded).
 */
export async function foldQueuedRollups(em: Em): Promise<number> {
  let folded = 0;
  while (await anyQueued(em)) {
    const n = await foldOnce(em, FOLD_BATCH);
    folded += n;
    if (n < FOLD_BATCH) break;
  }
  return folded;
}

// The folders of this process, per database (keyed by the ORM's configuration, which every fork shares).
const folders = new WeakMap<object, Set<() => void>>();

/** Wakes this process's folders: call once a transaction that may have queued rollups has committed. */
export function wakeRollupFolders(em: Em): void {
  for (const wake of folders.get(em.config) ?? []) wake();
}

export interface ReportFolderOptions {
  /** How often the queue is looked at when nothing woke the folder (other gateways' writes). */
  pollMs?: number;
  log?: (error: unknown, where: string) => void;
}

/** The background fold of one gateway (see the top of this file). */
export class ReportFolder {
  private readonly loop: WorkerLoop;
  private lastPassAt = 0;
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly orm: Orm,
    options: ReportFolderOptions = {},
  ) {
    this.loop = new WorkerLoop({
      name: 'reports: rollup folder',
      tick: () => this.tick(),
      nextDue: async () => null,
      pollMs: options.pollMs ?? 1000,
      log: options.log ?? ((error, where) => console.error(`[fulcrum] ${where}:`, error)),
    });
  }

  start(): void {
    if (this.loop.isRunning) return;
    const em = this.orm.em.fork();
    let set = folders.get(em.config);
    if (!set) folders.set(em.config, (set = new Set()));
    const wake = () => this.loop.wake();
    set.add(wake);
    this.unsubscribe = () => set.delete(wake);
    this.loop.start();
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = null;
    await this.loop.stop();
  }

  /** One fold, at most every GATHER_MS unless the last was full. True when there may be more at once. */
  private async tick(): Promise<boolean> {
    // Waits first, then looks: woken by every commit of this process (most queue nothing: notes, or the reports' facts
    // switched off), the folder looks at the queue at most once per GATHER_MS.
    const since = Date.now() - this.lastPassAt;
    if (since < GATHER_MS) await new Promise((resolve) => setTimeout(resolve, GATHER_MS - since));
    this.lastPassAt = Date.now();
    const em = this.orm.em.fork();
    if (!(await anyQueued(em))) return false;
    const folded = await foldOnce(em, FOLD_BATCH);
    if (folded === FOLD_BATCH) this.lastPassAt = 0;
    return folded === FOLD_BATCH;
  }
}

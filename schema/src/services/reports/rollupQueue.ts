/**
 * The rollups' queue (issue 29, "write throughput with the rollups on ≥ 0.9× without"): a write's transaction does
 * not upsert the rollup rows itself; it appends its contributions (its facts with the key they count under and a
 * sign: reportRollups.ts RollupEntries), one row of JSON, to `report_rollup_queue`, and folds expand and sum queued
 * contributions into `report_rollups` in batches:
 *
 *   write's transaction --> report_rollup_queue (one insert) --fold: claim, sum, upsert--> report_rollups
 *
 * - Upserting in the write made every status change write 15 rollup rows, and concurrent writes of one team's
 *   moment wait on each other's locks on the same rows (the day's, the hour's, the quarter's). A fold sums the
 *   deltas of every write since the last fold first: a burst of writes on one team and day becomes one upsert per
 *   row it touches.
 * - Deltas add exactly and in any order (counts, sums, histogram bins: reportRollups.ts), so a fold needs no order
 *   beyond claiming each queued row once: it deletes the rows it folds in the transaction that adds them (on
 *   PostgreSQL selected FOR UPDATE SKIP LOCKED, so two gateways fold disjoint rows); a fold that fails rolls back
 *   and leaves its rows queued.
 * - Who folds: every gateway's `ReportFolder` (a WorkerLoop), woken after this process's writes commit and polling
 *   every second for other gateways' rows; and every report, which folds what is queued before it reads
 *   (`foldQueuedRollups`), so a report counts every write acknowledged before it was asked, on any gateway.
 */
import { hotRead, transactionStatements, type Em, type Orm, type TransactionStatements } from '../../database.js';
import { RollupDeltas, writeRollups, type RollupEntries } from '../../migrations/reportRollups.js';
import { WorkerLoop } from '../../workerLoop.js';

/** Queued writes one fold takes at most. */
const FOLD_BATCH = 500;
/**
 * The shortest time between two background folds' starts unless the first was full: a burst's writes fold together.
 * A fold's cost depends on the rows it touches (a burst on one team and day touches the same few), not on the writes
 * it sums, so fewer folds cost the writes less; a report never waits for one (it folds what is queued itself).
 */
const GATHER_MS = 1000;

/** The statement that appends a write's rollup deltas to the queue; null when they add nothing. */
export function rollupQueueInsert(deltas: RollupEntries): { name: string; sql: string; params: unknown[] } | null {
  const rows = deltas.serialize();
  if (rows === '[]') return null;
  return { name: 'report_rollup_queue_insert', sql: 'insert into report_rollup_queue (deltas) values (?)', params: [rows] };
}

/** Appends a write's rollup deltas to the queue, in the write's transaction (nothing when they add nothing). */
export async function queueRollups(statements: TransactionStatements, deltas: RollupEntries): Promise<void> {
  const insert = rollupQueueInsert(deltas);
  if (insert) await statements.all(insert.name, insert.sql, insert.params);
}

const CLAIM_SQLITE = 'delete from report_rollup_queue where id in (select id from report_rollup_queue order by id limit ?) returning deltas';
const CLAIM_POSTGRES =
  'delete from report_rollup_queue where id in (select id from report_rollup_queue order by id limit ? for update skip locked) returning deltas';

/** One fold: claims up to `limit` queued writes, sums them and upserts the sum, in one transaction. Returns how many. */
async function foldOnce(em: Em, limit: number): Promise<number> {
  return em.fork().transactional(async (trx) => {
    const statements = await transactionStatements(trx);
    const claimed = await statements.all<{ deltas: string }>('report_rollup_queue_claim', statements.postgres ? CLAIM_POSTGRES : CLAIM_SQLITE, [limit]);
    if (!claimed.length) return 0;
    const deltas = new RollupDeltas();
    for (const row of claimed) deltas.merge(row.deltas);
    await writeRollups((name, sql, params) => statements.all(name, sql, params), deltas, statements.postgres);
    return claimed.length;
  });
}

/** Whether anything is queued (a prepared read outside any transaction: a report with nothing queued pays this only). */
async function anyQueued(em: Em): Promise<boolean> {
  return (await hotRead(em, 'report_rollup_queue_any', 'select id from report_rollup_queue limit 1', [])).length > 0;
}

/**
 * Folds everything queued now (a report asks this before it reads the rollups). Rows another gateway is folding at
 * this moment are skipped: they are in the rollups once that fold commits, milliseconds later.
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

/**
 * The job runner: one per gateway, all of them sharing the job table. Handlers are registered per kind; the runner's
 * loop (workerLoop.ts) claims the due jobs of its kinds (./queue.ts claim, with a lease), runs them, and writes how
 * each run ended: done, due again (a recurring job's handler answers `{ again }`), retried after a delay, or failed
 * after its last attempt.
 *
 * When idle the loop sleeps until the earliest due time of its kinds (a running job's lease end included), at most
 * the poll interval, and an enqueue in this process wakes it: due work starts within a second of its time. Other
 * gateways' enqueues are seen at the next poll (1 s on PostgreSQL; SQLite has one gateway per file).
 */
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import type { Em, Orm } from '../database.js';
import { WorkerLoop } from '../workerLoop.js';
import { claim, complete, fail, nextJobDue, onEnqueue, releaseJobLeases, retry, type ClaimedJob } from './queue.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;

/** What a run may answer: nothing (done), or the time the job (the same row) is due again. */
export type JobResult = void | { again: Date };
export type JobHandler<P = unknown> = (job: ClaimedJob<P>, em: Em) => Promise<JobResult>;

export interface JobKindOptions {
  /** Delays before each retry of a run that threw; after the last one the job fails. Default: 10 s, 1 min, 10 min. */
  retryDelaysMs?: number[];
}

export interface JobRunnerOptions {
  /** How long a claimed job is reserved to this runner; a run must end within it, or it may run again elsewhere. */
  leaseMs?: number;
  /** The longest idle sleep (for other gateways' enqueues): 1 s on PostgreSQL, 1 min on SQLite. */
  pollMs?: number;
  /** Jobs claimed per pass (they run together). */
  batch?: number;
  log?: (error: unknown, where: string) => void;
}

export const DEFAULT_JOB_RETRY_DELAYS_MS = [10 * SECOND, MINUTE, 10 * MINUTE];

export class JobRunner {
  readonly leaseMs: number;
  private readonly batch: number;
  private readonly log: (error: unknown, where: string) => void;
  private readonly handlers = new Map<string, { handler: JobHandler; retryDelaysMs: number[] }>();
  private readonly loop: WorkerLoop;
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly orm: Orm,
    options: JobRunnerOptions = {},
  ) {
    this.leaseMs = options.leaseMs ?? 5 * MINUTE;
    this.batch = options.batch ?? 10;
    this.log = options.log ?? ((error, where) => console.error(`[fulcrum] ${where}:`, error));
    const postgres = orm.config.getDriver() instanceof PostgreSqlDriver;
    this.loop = new WorkerLoop({
      name: 'jobs: runner loop',
      tick: () => this.tick(),
      nextDue: () => (this.handlers.size ? nextJobDue(this.em(), this.kinds) : Promise.resolve(null)),
      pollMs: options.pollMs ?? (postgres ? SECOND : MINUTE),
      log: this.log,
    });
  }

  private em(): Em {
    return this.orm.em.fork();
  }

  private get kinds(): string[] {
    return [...this.handlers.keys()];
  }

  /** Registers the handler of one kind (before or after start). */
  handle<P = unknown>(kind: string, handler: JobHandler<P>, options: JobKindOptions = {}): this {
    this.handlers.set(kind, { handler: handler as JobHandler, retryDelaysMs: options.retryDelaysMs ?? DEFAULT_JOB_RETRY_DELAYS_MS });
    this.wake();
    return this;
  }

  get isRunning(): boolean {
    return this.loop.isRunning;
  }

  /** Starts the loop. SQLite: the runs of this file's previous gateway are released (due again now). */
  async start(): Promise<void> {
    if (this.loop.isRunning) return;
    await releaseJobLeases(this.em());
    this.unsubscribe = onEnqueue(this.em(), () => this.wake());
    this.loop.start();
  }

  /** Stops claiming; the pass in flight finishes (its runs recorded). */
  async stop(): Promise<void> {
    if (!this.loop.isRunning) return;
    this.unsubscribe?.();
    this.unsubscribe = null;
    await this.loop.stop();
  }

  wake(): void {
    this.loop.wake();
  }

  /** One pass: claim what is due, run it, record the ends. True when there may be more at once. */
  async tick(): Promise<boolean> {
    if (!this.handlers.size) return false;
    const jobs = await claim(this.em(), this.kinds, this.batch, this.leaseMs);
    await Promise.all(jobs.map((job) => this.run(job)));
    return jobs.length > 0;
  }

  private async run(job: ClaimedJob): Promise<void> {
    const kind = this.handlers.get(job.kind);
    if (!kind) return;
    let result: JobResult;
    try {
      result = await kind.handler(job, this.em());
    } catch (error) {
      const message = String((error as Error)?.message ?? error);
      this.log(error, `jobs: ${job.kind} ${job.key}`);
      const delay = kind.retryDelaysMs[job.attempt - 1];
      await (delay === undefined ? fail(this.em(), job, message) : retry(this.em(), job, new Date(Date.now() + delay), message)).catch((e) =>
        this.log(e, 'jobs: recording a failed run'),
      );
      return;
    }
    await complete(this.em(), job, result?.again).catch((e) => this.log(e, 'jobs: recording a run'));
  }
}

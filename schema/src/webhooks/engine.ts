/**
 * The delivery engine: one per gateway, all of them sharing the database (docs/webhooks.md).
 *
 *   outbox (webhook_events) --fan out--> webhook_jobs (one per endpoint and event) --claim--> HTTP --> log
 *
 * - Fan-out turns each new event into a job for every enabled endpoint whose owner may read the record and who
 *   subscribed to its type; events nobody listens to are deleted at once.
 * - Claiming (THE claim-with-lease, jobs/claim.ts) moves due jobs to `delivering` with a lease (next_attempt_at =
 *   lease end), in one transaction. On PostgreSQL the rows are selected FOR UPDATE SKIP LOCKED, so two gateways
 *   never claim the same job: each attempt happens once. A gateway that dies mid-attempt leaves a lease that expires, and another (or the same
 *   one, restarted) attempts again: at least once. SQLite has one gateway per file, which releases the leases of
 *   its previous life at start.
 * - Results are written back in batches: the attempt's log row, the job's next state (delivered, retry at the
 *   next step of the schedule with jitter, or failed), and the endpoint's failure run, which disables it after
 *   410 Gone or after a day of consecutive failures.
 * - Deliveries and events older than 14 days are pruned every hour.
 */
import type { Knex } from '@mikro-orm/knex';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import type { Em, Orm } from '../database.js';
import { toDate } from '../records/index.js';
import { claimLeased, nextDue, releaseLeases, type LeasedTable } from '../jobs/claim.js';
import { WorkerLoop } from '../workerLoop.js';
import { disableWebhooksOfLapsedTokens } from './lapsedTokens.js';
import { fanOutEvents } from './fanOut.js';
import { onOutboxWrite } from './outbox.js';
import { DEFAULT_HTTP_LIMITS, postJson, type AttemptOutcome, type HttpLimits } from './http.js';
import { isSuccess, recordResults, type AttemptResult, type ClaimedJob } from './results.js';
import { signatureHeader } from './signing.js';
import { checkDestination, parseAllowList, systemResolver, WebhookTargetError, type AllowList, type Resolver } from './ssrf.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
/** How long finished attempts wait to be recorded together (see flushSoon). */
const RECORD_BATCH_MS = 10;
const HOUR = 60 * MINUTE;

/**
 * Delays before each retry: the first attempt is immediate, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h
 * (8 attempts over about 27.6 hours), each delay varied by up to ±10 % so retries from many events spread out.
 */
export const DEFAULT_RETRY_DELAYS_MS = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR];
export const RETRY_JITTER = 0.1;

/** The jobs' lease columns (jobs/claim.ts): a job in `delivering` is leased until next_attempt_at (= lease_until). */
const WEBHOOK_JOBS: LeasedTable = {
  table: 'webhook_jobs',
  due: 'next_attempt_at',
  state: 'state',
  waiting: 'pending',
  leased: 'delivering',
  attempts: 'attempts',
  leaseUntil: 'lease_until',
  updatedAt: 'updated_at',
};

export interface WebhookEngineOptions {
  /** FULCRUM_WEBHOOK_ALLOW_HOSTS, parsed. */
  allowList?: AllowList;
  retryDelaysMs?: number[];
  /** How long a claimed attempt is reserved to one gateway; must exceed the 10 s request limit. */
  leaseMs?: number;
  /**
   * How often the outbox is polled when nothing woke the engine, for other gateways' writes: 1 s on PostgreSQL.
   * SQLite has one gateway per file, whose own writes wake it, so it only wakes for the next due retry (or a minute).
   */
  pollMs?: number;
  /** Attempts in flight at once, per gateway. */
  concurrency?: number;
  /** An endpoint whose attempts failed this many times in a row, the first at least disableAfterMs ago, is disabled. */
  disableAfterFailures?: number;
  disableAfterMs?: number;
  retentionMs?: number;
  http?: HttpLimits;
  resolve?: Resolver;
  log?: (error: unknown, where: string) => void;
}

export class WebhookEngine {
  readonly allowList: AllowList;
  readonly retryDelaysMs: number[];
  readonly leaseMs: number;
  private readonly concurrency: number;
  private readonly disableAfterFailures: number;
  private readonly disableAfterMs: number;
  private readonly retentionMs: number;
  private readonly httpLimits: HttpLimits;
  private readonly resolve: Resolver;
  private readonly log: (error: unknown, where: string) => void;
  private readonly postgres: boolean;

  private readonly loop: WorkerLoop;
  private inFlight = new Set<Promise<void>>();
  private results: AttemptResult[] = [];
  private recording: Promise<void> | null = null;
  private recordSoon: Promise<void> | null = null;
  private lastPrune = 0;
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly orm: Orm,
    options: WebhookEngineOptions = {},
  ) {
    this.allowList = options.allowList ?? parseAllowList(undefined);
    this.retryDelaysMs = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
    this.leaseMs = options.leaseMs ?? 60 * SECOND;
    this.postgres = orm.config.getDriver() instanceof PostgreSqlDriver;
    this.concurrency = options.concurrency ?? 16;
    this.disableAfterFailures = options.disableAfterFailures ?? this.retryDelaysMs.length + 1;
    this.disableAfterMs = options.disableAfterMs ?? 24 * HOUR;
    this.retentionMs = options.retentionMs ?? 14 * 24 * HOUR;
    this.httpLimits = options.http ?? DEFAULT_HTTP_LIMITS;
    this.resolve = options.resolve ?? systemResolver;
    this.log = options.log ?? ((error, where) => console.error(`[fulcrum] ${where}:`, error));
    this.loop = new WorkerLoop({
      name: 'webhooks: delivery loop',
      tick: () => this.tick(),
      nextDue: () => nextDue(this.em(), WEBHOOK_JOBS),
      pollMs: options.pollMs ?? (this.postgres ? SECOND : MINUTE),
      log: this.log,
    });
  }

  get maxAttempts(): number {
    return this.retryDelaysMs.length + 1;
  }

  /** Checks a URL for registration (the same check as before each delivery). */
  checkUrl(url: unknown) {
    return checkDestination(url, this.allowList, this.resolve);
  }

  private em(): Em {
    return this.orm.em.fork();
  }

  /** Starts the loop. SQLite: the leases of a previous life of this gateway are released (one gateway per file). */
  async start(): Promise<void> {
    if (this.loop.isRunning) return;
    await releaseLeases(this.em(), WEBHOOK_JOBS);
    this.unsubscribe = onOutboxWrite(this.em(), () => this.wake());
    this.loop.start();
  }

  /** Stops claiming, lets attempts in flight finish and records them. */
  async stop(): Promise<void> {
    if (!this.loop.isRunning) return;
    this.unsubscribe?.();
    await this.loop.stop();
    await Promise.allSettled([...this.inFlight]);
    await this.flushResults();
  }

  /** Look at the outbox now (a write of this process committed, or a test wants it). */
  wake(): void {
    this.loop.wake();
  }

  /** One pass: fan out new events, claim what is due and start it. True when there may be more to do at once. */
  async tick(): Promise<boolean> {
    const fannedOut = await this.fanOut();
    const room = this.concurrency - this.inFlight.size;
    let claimed = 0;
    if (room > 0) {
      const jobs = await this.claim(Math.min(room, 50));
      claimed = jobs.length;
      for (const job of jobs) this.startAttempt(job);
    } else {
      // Every slot is busy: wait for one to free up.
      await Promise.race(this.inFlight);
    }
    if (Date.now() - this.lastPrune > HOUR) {
      this.lastPrune = Date.now();
      await this.prune();
    }
    return fannedOut > 0 || claimed > 0 || room <= 0;
  }

  /** New outbox events become jobs for the endpoints that may and want to see them (webhooks/fanOut.ts). */
  async fanOut(limit = 500): Promise<number> {
    return fanOutEvents(() => this.em(), this.postgres, this.maxAttempts, limit);
  }

  /** Reserves up to `limit` due jobs (or the given ones) to this gateway (THE claim, jobs/claim.ts) and loads what their attempts need. */
  async claim(limit: number, onlyIds?: number[]): Promise<ClaimedJob[]> {
    return claimLeased(this.em(), WEBHOOK_JOBS, {
      limit,
      leaseMs: this.leaseMs,
      ids: onlyIds,
      // Nothing is sent for a webhook whose token expired since its jobs were made: it is disabled now, and the
      // attempts below find it so (job.disabled).
      beforeLease: async (knex, trx, ids, now) => void (await disableWebhooksOfLapsedTokens(knex, trx, now, { jobIds: ids })),
      load: (knex, trx, ids, now) => this.load(knex, trx, ids, now),
    });
  }

  /** What the attempts of claimed jobs need: the endpoint, its live secrets, the event. */
  private async load(knex: Knex, trx: Knex.Transaction, ids: number[], now: Date): Promise<ClaimedJob[]> {
    const rows: Record<string, unknown>[] = await knex('webhook_jobs as j')
      .transacting(trx)
      .join('webhooks as w', 'w.id', 'j.webhook_id')
      .join('webhook_events as e', 'e.id', 'j.event_id')
      .whereIn('j.id', ids)
      .select(
        'j.id',
        'j.webhook_id',
        'j.attempts',
        'j.max_attempts',
        'w.url',
        'w.secret',
        'w.previous_secret',
        'w.previous_secret_expires_at',
        'w.disabled_at',
        'e.message_id',
        'e.type',
        'e.payload',
      );
    return rows.map((r) => {
      const secrets = [String(r.secret)];
      if (r.previous_secret && r.previous_secret_expires_at && toDate(r.previous_secret_expires_at).getTime() > now.getTime())
        secrets.push(r.previous_secret as string);
      return {
        id: Number(r.id),
        webhookId: Number(r.webhook_id),
        attempt: Number(r.attempts),
        maxAttempts: Number(r.max_attempts),
        url: String(r.url),
        secrets,
        disabled: r.disabled_at != null,
        messageId: String(r.message_id),
        eventType: String(r.type),
        payload: String(r.payload),
      };
    });
  }

  private startAttempt(job: ClaimedJob): void {
    // After a failed attempt the loop looks again at once (its retry is now scheduled: the idle sleep is planned to
    // it). A delivered one leaves nothing to do: waking the loop for it ran a whole pass (about ten statements) per
    // delivery, more than the delivery itself. A loop waiting for a free slot wakes by itself (Promise.race).
    let delivered = false;
    const task = this.attempt(job)
      .then((outcome) => {
        delivered = isSuccess(outcome.statusCode);
        this.results.push({ job, outcome, at: new Date() });
        return this.flushSoon();
      })
      .catch((error) => this.log(error, 'webhooks: attempt'))
      .finally(() => {
        this.inFlight.delete(task);
        if (!delivered) this.wake();
      });
    this.inFlight.add(task);
  }

  /** The HTTP attempt: destination checked again (DNS may have changed), signed, sent to the checked address. */
  async attempt(job: ClaimedJob): Promise<AttemptOutcome> {
    if (job.disabled) return { statusCode: null, durationMs: 0, error: 'The endpoint is disabled.', responseExcerpt: null };
    const started = performance.now();
    try {
      const destination = await checkDestination(job.url, this.allowList, this.resolve);
      const timestamp = Math.floor(Date.now() / 1000);
      const headers = {
        'webhook-id': job.messageId,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signatureHeader(job.secrets, job.messageId, timestamp, job.payload),
      };
      return await postJson(destination, headers, job.payload, this.httpLimits);
    } catch (error) {
      const message = error instanceof WebhookTargetError ? error.message : `Delivery failed: ${String((error as Error)?.message ?? error).slice(0, 300)}`;
      return { statusCode: null, durationMs: Math.round(performance.now() - started), error: message, responseExcerpt: null };
    }
  }

  /** Claims the given jobs now (bypassing the schedule), attempts them and records the results; the log row ids. */
  async attemptNow(jobIds: number[]): Promise<number[]> {
    const jobs = await this.claim(jobIds.length, jobIds);
    const results = await Promise.all(jobs.map(async (job) => ({ job, outcome: await this.attempt(job), at: new Date() })));
    return this.record(results);
  }

  /**
   * Records the results gathered over the next few milliseconds in one transaction: recording each delivery on its
   * own (begin, insert, two updates, commit) cost more than the delivery. The attempt's slot is held until then.
   */
  private flushSoon(): Promise<void> {
    this.recordSoon ??= new Promise<void>((resolve) => setTimeout(resolve, RECORD_BATCH_MS)).then(() => {
      this.recordSoon = null;
      return this.flushResults();
    });
    return this.recordSoon;
  }

  private flushResults(): Promise<void> {
    if (this.recording) return this.recording.then(() => (this.results.length ? this.flushResults() : undefined));
    const batch = this.results.splice(0);
    if (!batch.length) return Promise.resolve();
    this.recording = this.record(batch, false)
      .then(
        () => undefined,
        (error) => this.log(error, 'webhooks: recording results'),
      )
      .finally(() => {
        this.recording = null;
      });
    return this.recording;
  }

  private nextDelay(attempt: number): number {
    const base = this.retryDelaysMs[Math.min(attempt - 1, this.retryDelaysMs.length - 1)];
    return Math.round(base * (1 - RETRY_JITTER + 2 * RETRY_JITTER * Math.random()));
  }

  /** Writes a batch of attempt results: log rows, job states, endpoint failure runs and disabling (webhooks/results.ts). */
  async record(results: AttemptResult[], wantIds = true): Promise<number[]> {
    return recordResults(() => this.em(), results, wantIds, {
      disableAfterFailures: this.disableAfterFailures,
      disableAfterMs: this.disableAfterMs,
      nextDelay: (attempt) => this.nextDelay(attempt),
    });
  }

  /** Deliveries and events (with their jobs) older than the retention period go. */
  async prune(now = new Date()): Promise<void> {
    const cutoff = new Date(now.getTime() - this.retentionMs);
    const knex = this.em().getKnex();
    await knex('webhook_deliveries').where('created_at', '<', cutoff).delete();
    await knex('webhook_events')
      .where('created_at', '<', cutoff)
      .whereNotExists(
        knex('webhook_jobs').select(knex.raw('1')).whereRaw('webhook_jobs.event_id = webhook_events.id').whereIn('state', ['pending', 'delivering']),
      )
      .delete();
  }
}

/**
 * The job table (docs/architecture.md "Background work"): one durable table of background work (kind, key, due
 * time, payload, lease) and one claim-with-lease (./claim.ts) that works on SQLite, on PostgreSQL (FOR UPDATE SKIP
 * LOCKED) and across gateways. The verbs are in ./queue.ts, the per-gateway loop that runs registered handlers in
 * ./runner.ts. The webhook deliveries and the mail outbox keep their own tables but claim through the same
 * primitive.
 */
export { Job, type JobState } from '../entities/index.js';
export { claimLeased, releaseLeases, nextDue, isPostgres, type LeasedTable, type ClaimOptions } from './claim.js';
export { enqueue, claim, complete, retry, fail, wakeJobRunners, type ClaimedJob, type EnqueueInput } from './queue.js';
export { JobRunner, DEFAULT_JOB_RETRY_DELAYS_MS, type JobHandler, type JobResult, type JobRunnerOptions, type JobKindOptions } from './runner.js';

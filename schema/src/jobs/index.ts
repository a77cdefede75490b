/**
 * The job table (docs/architecture.md "Background work"): one durable table of background work (kind, key, due
 * time, payload, lease) and one claim-with-lease (./claim.ts) that works on SQLite, on PostgreSQL (FOR UPDATE SKIP
 * LOCKED) and across gateways. The verbs are in ./queue.ts, the per-gateway loop that runs registered handlers in
 * ./runner.ts. The webhook deliveries and the mail outbox keep their own tables but claim through the same
 * primitive.
 */
export { enqueue, claim, complete, type ClaimedJob } from './queue.js';
export { JobRunner } from './runner.js';

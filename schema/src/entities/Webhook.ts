import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { User } from './User.js';

/**
 * An agent's webhook endpoint (docs/webhooks.md). The signing secret is stored as issued: it must be usable to
 * sign every delivery, so it cannot be hashed; it is shown to the agent once and never logged or returned again.
 */
@Entity({ tableName: 'webhooks' })
export class Webhook {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne(() => User, { fieldName: 'owner_id', deleteRule: 'cascade', index: 'webhooks_owner_id_index' })
  owner!: User;

  @Property({ type: 'string', length: 2048 })
  url!: string;

  /** JSON array of WebhookEventType names. */
  @Property({ type: 'text' })
  events!: string;

  @Property({ type: 'string', length: 128 })
  secret!: string;

  /** After a rotation the old secret signs too, until previousSecretExpiresAt. */
  @Property({ type: 'string', length: 128, nullable: true })
  previousSecret?: string | null;

  @Property({ type: 'Date', nullable: true })
  previousSecretExpiresAt?: Date | null;

  @Property({ type: 'Date', nullable: true })
  disabledAt?: Date | null;

  @Property({ type: 'string', length: 500, nullable: true })
  disabledReason?: string | null;

  /**
   * The API token that created the webhook, and the one that last changed it (null: the web app, signed in). While
   * either is set, the webhook is disabled when that token is revoked or expires; a change made signed in clears
   * both (services/webhooks.ts).
   */
  @Property({ type: 'integer', nullable: true })
  createdByTokenId?: number | null;

  @Property({ type: 'integer', nullable: true })
  changedByTokenId?: number | null;

  @Property({ type: 'integer' })
  consecutiveFailures!: number;

  @Property({ type: 'Date', nullable: true })
  failingSince?: Date | null;

  @Property({ type: 'Date' })
  createdAt: Date = new Date();

  @Property({ type: 'Date' })
  updatedAt: Date = new Date();
}

/** The outbox: one row per change, written in the same transaction as the change. */
@Entity({ tableName: 'webhook_events' })
@Index({ name: 'webhook_events_fanned_out_id_index', properties: ['fannedOut', 'id'] })
export class WebhookEvent {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  /** The `webhook-id` header: the same on every attempt and every endpoint. */
  @Property({ type: 'string', length: 40, unique: 'webhook_events_message_id_unique' })
  messageId!: string;

  @Property({ type: 'string', length: 32 })
  type!: string;

  /** Who may read the record: `*` (everyone) or a comma-separated list of user ids. */
  @Property({ type: 'string', length: 255 })
  audience!: string;

  /** The exact JSON body sent (signed as is). */
  @Property({ type: 'text' })
  payload!: string;

  @Property({ type: 'boolean' })
  fannedOut!: boolean;

  @Property({ type: 'Date', index: 'webhook_events_created_at_index' })
  createdAt: Date = new Date();
}

/** One event for one endpoint: its retry state. */
@Entity({ tableName: 'webhook_jobs' })
@Index({ name: 'webhook_jobs_state_next_attempt_at_index', properties: ['state', 'nextAttemptAt'] })
export class WebhookJob {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne(() => Webhook, { fieldName: 'webhook_id', deleteRule: 'cascade', index: 'webhook_jobs_webhook_id_index' })
  webhook!: Webhook;

  @ManyToOne(() => WebhookEvent, { fieldName: 'event_id', deleteRule: 'cascade', index: 'webhook_jobs_event_id_index' })
  event!: WebhookEvent;

  /** pending, delivering (claimed until leaseUntil), delivered or failed. */
  @Property({ type: 'string', length: 16 })
  state!: string;

  @Property({ type: 'integer' })
  attempts!: number;

  @Property({ type: 'integer' })
  maxAttempts!: number;

  @Property({ type: 'Date' })
  nextAttemptAt!: Date;

  @Property({ type: 'Date', nullable: true })
  leaseUntil?: Date | null;

  @Property({ type: 'Date' })
  createdAt: Date = new Date();

  @Property({ type: 'Date' })
  updatedAt: Date = new Date();
}

/** One HTTP attempt, kept 14 days: what the agent sees in the delivery log. */
@Entity({ tableName: 'webhook_deliveries' })
@Index({ name: 'webhook_deliveries_webhook_id_id_index', properties: ['webhook', 'id'] })
export class WebhookDelivery {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  // No single-column index: webhook_deliveries_webhook_id_id_index leads with webhook_id.
  @ManyToOne(() => Webhook, { fieldName: 'webhook_id', deleteRule: 'cascade', index: false })
  webhook!: Webhook;

  @ManyToOne(() => WebhookJob, { fieldName: 'job_id', deleteRule: 'cascade', index: 'webhook_deliveries_job_id_index' })
  job!: WebhookJob;

  @Property({ type: 'string', length: 32 })
  eventType!: string;

  @Property({ type: 'string', length: 40 })
  messageId!: string;

  @Property({ type: 'integer' })
  attempt!: number;

  @Property({ type: 'integer', nullable: true })
  statusCode?: number | null;

  @Property({ type: 'boolean' })
  succeeded!: boolean;

  @Property({ type: 'integer' })
  durationMs!: number;

  @Property({ type: 'string', length: 500, nullable: true })
  error?: string | null;

  @Property({ type: 'text', nullable: true })
  responseExcerpt?: string | null;

  @Property({ type: 'Date', index: 'webhook_deliveries_created_at_index' })
  createdAt: Date = new Date();
}

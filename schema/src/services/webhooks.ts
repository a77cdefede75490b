/**
 * Webhook endpoints (docs/webhooks.md): an agent registers, edits, tests, rotates and deletes their own; nobody
 * sees another agent's. Delivery itself is the engine's (webhooks/engine.ts); this module is the agent's side.
 *
 * Tokens and webhooks (docs/webhooks.md, "Tokens and webhooks"): managing webhooks with an API token needs the
 * WEBHOOKS scope. A webhook remembers the token that created it and the one that last changed it, and is disabled
 * (with the reason shown) when either is revoked or expires, so a leaked token cannot leave a feed behind that
 * outlives it. A change made in the web app, signed in, clears both: the agent has taken the webhook over.
 */
import type { Knex } from '@mikro-orm/knex';
import { AppError } from '../errors.js';
import { User, Webhook } from '../entities/index.js';
import { validateWebhook, WEBHOOK_EVENT_TYPES, WEBHOOK_LIMITS, WEBHOOK_MESSAGES, type FieldErrors, type WebhookEventTypeName } from '../validation/rules.js';
import { parseId, requireViewer, type ServiceContext } from './context.js';
import { decodeCursor, encodeCursor } from './connection.js';
import { toDate } from '../records/index.js';
import type { WebhookEngine } from '../webhooks/engine.js';
import { newMessageId } from '../webhooks/outbox.js';
import { newSecret } from '../webhooks/signing.js';
import { WebhookTargetError } from '../webhooks/ssrf.js';

/** After a rotation the previous secret keeps signing (a second signature) this long. */
export const PREVIOUS_SECRET_GRACE_MS = 24 * 60 * 60 * 1000;
export const MAX_DELIVERY_PAGE = 100;
/** The event type of sendTestWebhook's deliveries (not a WebhookEventType: nobody subscribes to it). */
export const TEST_EVENT_TYPE = 'WEBHOOK_TEST';

export interface WebhookRecord {
  id: number;
  url: string;
  events: WebhookEventTypeName[];
  enabled: boolean;
  disabledAt: Date | null;
  disabledReason: string | null;
  consecutiveFailures: number;
  previousSecretExpiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface WebhookDeliveryRecord {
  id: number;
  webhookId: number;
  event: string;
  messageId: string;
  attempt: number;
  statusCode: number | null;
  succeeded: boolean;
  durationMs: number;
  error: string | null;
  responseExcerpt: string | null;
  createdAt: Date;
}

export interface WebhookDeliveryPage {
  nodes: WebhookDeliveryRecord[];
  endCursor: string | null;
  hasNextPage: boolean;
}

export interface WebhookInput {
  url?: unknown;
  events?: unknown;
  enabled?: unknown;
}

function toRecord(w: Webhook): WebhookRecord {
  const expires = w.previousSecret && w.previousSecretExpiresAt && w.previousSecretExpiresAt.getTime() > Date.now() ? w.previousSecretExpiresAt : null;
  return {
    id: w.id,
    url: w.url,
    events: JSON.parse(w.events) as WebhookEventTypeName[],
    enabled: w.disabledAt == null,
    disabledAt: w.disabledAt ?? null,
    disabledReason: w.disabledReason ?? null,
    consecutiveFailures: w.consecutiveFailures,
    previousSecretExpiresAt: expires,
    createdAt: w.createdAt,
    updatedAt: w.updatedAt,
  };
}

/** Managing webhooks (every mutation here) with an API token needs its WEBHOOKS scope; reading them does not. */
function requireWebhookScope(ctx: ServiceContext): void {
  if (ctx.token && !ctx.token.scopes.includes('WEBHOOKS')) throw AppError.forbidden(WEBHOOK_MESSAGES.tokenScope);
}

/** Records who changed the webhook: the token, or (signed in) nobody's token any more. */
function stampChange(ctx: ServiceContext, webhook: Webhook): void {
  if (ctx.token) webhook.changedByTokenId = ctx.token.tokenId;
  else webhook.createdByTokenId = webhook.changedByTokenId = null;
}

function engineOf(ctx: ServiceContext): WebhookEngine {
  if (!ctx.deps.webhooks) throw new AppError('INTERNAL', WEBHOOK_MESSAGES.unavailable);
  return ctx.deps.webhooks;
}

/**
 * The fields of a create or an update: the checks shared with the web form (validateWebhook), then, for a URL that
 * passed them, every address its host resolves to. A field left out (null) is not checked and comes back null.
 */
async function checkedInput(
  ctx: ServiceContext,
  input: { url: unknown; events: unknown },
): Promise<{ fields: FieldErrors; url: string | null; events: WebhookEventTypeName[] | null }> {
  const fields = validateWebhook(input);
  const raw = input.events;
  const events = Array.isArray(raw) && !fields.events ? WEBHOOK_EVENT_TYPES.filter((e) => raw.includes(e)) : null;
  const url = input.url == null || fields.url ? null : await validUrl(ctx, input.url, fields);
  return { fields, url, events };
}

/**
 * The URL's shape and every address its host resolves to (webhooks/ssrf.ts); the normalised URL. WebhookTargetError
 * is not a second error type for clients: it is the SSRF check's signal inside the schema package, turned here into
 * a field of an AppError and by the delivery engine into a log entry's reason; it never reaches a transport.
 */
async function validUrl(ctx: ServiceContext, raw: unknown, fields: FieldErrors): Promise<string> {
  try {
    return (await engineOf(ctx).checkUrl(raw)).url.toString();
  } catch (error) {
    if (!(error instanceof WebhookTargetError)) throw error;
    fields.url = [error.message];
    return '';
  }
}

async function findOwn(ctx: ServiceContext, rawId: unknown): Promise<Webhook> {
  const viewerId = requireViewer(ctx);
  const id = parseId(rawId);
  const webhook = id ? await ctx.em.findOne(Webhook, { id, owner: viewerId }) : null;
  if (!webhook) throw AppError.notFound('Webhook');
  return webhook;
}

export async function listWebhooks(ctx: ServiceContext): Promise<WebhookRecord[]> {
  const viewerId = requireViewer(ctx);
  return (await ctx.em.find(Webhook, { owner: viewerId }, { orderBy: { id: 'asc' } })).map(toRecord);
}

export async function getWebhook(ctx: ServiceContext, rawId: unknown): Promise<WebhookRecord> {
  return toRecord(await findOwn(ctx, rawId));
}

/** Registers an endpoint; the secret is in the answer and never again. */
export async function createWebhook(ctx: ServiceContext, input: WebhookInput): Promise<{ secret: string; webhook: WebhookRecord }> {
  const viewerId = requireViewer(ctx);
  requireWebhookScope(ctx);
  // Both are required on a create: a missing one is checked as empty.
  const { fields, url, events } = await checkedInput(ctx, { url: input.url ?? '', events: input.events ?? [] });
  if (Object.keys(fields).length || url === null || events === null) throw AppError.validation(fields);
  if ((await ctx.em.count(Webhook, { owner: viewerId })) >= WEBHOOK_LIMITS.webhooksPerAgent) {
    throw new AppError('CONFLICT', WEBHOOK_MESSAGES.tooMany, { fields: { url: [WEBHOOK_MESSAGES.tooMany] } });
  }
  const secret = newSecret();
  const now = new Date();
  const webhook = ctx.em.create(Webhook, {
    owner: ctx.em.getReference(User, viewerId),
    url,
    events: JSON.stringify(events),
    secret,
    previousSecret: null,
    previousSecretExpiresAt: null,
    disabledAt: null,
    disabledReason: null,
    consecutiveFailures: 0,
    failingSince: null,
    createdByTokenId: ctx.token?.tokenId ?? null,
    changedByTokenId: ctx.token?.tokenId ?? null,
    createdAt: now,
    updatedAt: now,
  });
  await ctx.em.flush();
  return { secret, webhook: toRecord(webhook) };
}

/** Changes the URL or the events (each optional); `enabled: true` re-enables a disabled endpoint. */
export async function updateWebhook(ctx: ServiceContext, rawId: unknown, input: WebhookInput): Promise<WebhookRecord> {
  requireWebhookScope(ctx);
  const webhook = await findOwn(ctx, rawId);
  const { fields, url, events } = await checkedInput(ctx, { url: input.url, events: input.events });
  if (input.enabled != null && typeof input.enabled !== 'boolean') fields.enabled = [WEBHOOK_MESSAGES.enabled];
  if (Object.keys(fields).length) throw AppError.validation(fields);
  if (url !== null) webhook.url = url;
  if (events !== null) webhook.events = JSON.stringify(events);
  stampChange(ctx, webhook);
  if (input.enabled === true && webhook.disabledAt) {
    Object.assign(webhook, { disabledAt: null, disabledReason: null, consecutiveFailures: 0, failingSince: null });
    // A token that enables a webhook again answers for it alone, as if it had created it.
    if (ctx.token) webhook.createdByTokenId = ctx.token.tokenId;
  } else if (input.enabled === false && !webhook.disabledAt) {
    Object.assign(webhook, { disabledAt: new Date(), disabledReason: 'Disabled by its owner.' });
  }
  webhook.updatedAt = new Date();
  await ctx.em.flush();
  // Retries still scheduled for a disabled endpoint are dropped (redeliver them by hand once it is enabled).
  if (webhook.disabledAt)
    await ctx.em.getKnex()('webhook_jobs').where({ webhook_id: webhook.id, state: 'pending' }).update({ state: 'failed', updated_at: new Date() });
  return toRecord(webhook);
}

export async function deleteWebhook(ctx: ServiceContext, rawId: unknown): Promise<number> {
  requireWebhookScope(ctx);
  const webhook = await findOwn(ctx, rawId);
  const id = webhook.id;
  // Its jobs and delivery log go with it (ON DELETE CASCADE).
  await ctx.em.getKnex()('webhooks').where('id', id).delete();
  ctx.em.getUnitOfWork().unsetIdentity(webhook);
  return id;
}

/** A new secret, shown once; the old one keeps signing beside it for 24 hours. */
export async function rotateWebhookSecret(ctx: ServiceContext, rawId: unknown): Promise<{ secret: string; webhook: WebhookRecord }> {
  requireWebhookScope(ctx);
  const webhook = await findOwn(ctx, rawId);
  stampChange(ctx, webhook);
  const secret = newSecret();
  webhook.previousSecret = webhook.secret;
  webhook.previousSecretExpiresAt = new Date(Date.now() + PREVIOUS_SECRET_GRACE_MS);
  webhook.secret = secret;
  webhook.updatedAt = new Date();
  await ctx.em.flush();
  return { secret, webhook: toRecord(webhook) };
}

interface DeliveryRow {
  id: number;
  webhook_id: number;
  event_type: string;
  message_id: string;
  attempt: number;
  status_code: number | null;
  succeeded: unknown;
  duration_ms: number;
  error: string | null;
  response_excerpt: string | null;
  created_at: unknown;
}

function toDelivery(r: DeliveryRow): WebhookDeliveryRecord {
  return {
    id: Number(r.id),
    webhookId: Number(r.webhook_id),
    event: r.event_type,
    messageId: r.message_id,
    attempt: Number(r.attempt),
    statusCode: r.status_code == null ? null : Number(r.status_code),
    succeeded: r.succeeded === true || Number(r.succeeded) === 1,
    durationMs: Number(r.duration_ms),
    error: r.error,
    responseExcerpt: r.response_excerpt,
    createdAt: toDate(r.created_at),
  };
}

function deliveryQuery(ctx: ServiceContext, viewerId: number) {
  return ctx.em.getKnex()('webhook_deliveries as d').join('webhooks as w', 'w.id', 'd.webhook_id').where('w.owner_id', viewerId).select('d.*');
}

/** The endpoint's delivery attempts, newest first (kept 14 days). */
export async function listDeliveries(
  ctx: ServiceContext,
  rawWebhookId: unknown,
  page: { first?: number | null; after?: string | null } = {},
): Promise<WebhookDeliveryPage> {
  const viewerId = requireViewer(ctx);
  const webhookId = parseId(rawWebhookId);
  if (!webhookId) throw AppError.notFound('Webhook');
  const first = Math.min(Math.max(page.first ?? 20, 1), MAX_DELIVERY_PAGE);
  const after = decodeCursor('delivery', page.after, WEBHOOK_MESSAGES.deliveryCursor);
  const query = deliveryQuery(ctx, viewerId)
    .where('d.webhook_id', webhookId)
    .orderBy('d.id', 'desc')
    .limit(first + 1);
  if (after) query.where('d.id', '<', after);
  const rows = ((await query) as DeliveryRow[]).map(toDelivery);
  const nodes = rows.slice(0, first);
  return { nodes, hasNextPage: rows.length > first, endCursor: nodes.length ? encodeCursor('delivery', nodes[nodes.length - 1].id) : null };
}

async function deliveryById(ctx: ServiceContext, viewerId: number, id: number): Promise<WebhookDeliveryRecord> {
  const [row] = (await deliveryQuery(ctx, viewerId).where('d.id', id)) as DeliveryRow[];
  if (!row) throw AppError.notFound('Delivery');
  return toDelivery(row);
}

const enableFirst = () => new AppError('CONFLICT', WEBHOOK_MESSAGES.disabled, { fields: { id: [WEBHOOK_MESSAGES.disabled] } });

/**
 * Sends the event of a logged attempt again, now, with the same `webhook-id` (receivers deduplicate by it). One
 * attempt; the answer is its log entry. A job still inside its retry schedule keeps the rest of it.
 */
export async function redeliverWebhookDelivery(ctx: ServiceContext, rawDeliveryId: unknown): Promise<WebhookDeliveryRecord> {
  const viewerId = requireViewer(ctx);
  requireWebhookScope(ctx);
  const id = parseId(rawDeliveryId);
  const delivery = id ? await deliveryById(ctx, viewerId, id) : null;
  if (!delivery) throw AppError.notFound('Delivery');
  const webhook = await findOwn(ctx, delivery.webhookId);
  if (webhook.disabledAt) throw enableFirst();
  const [row]: { job_id: number }[] = await ctx.em.getKnex()('webhook_deliveries').where('id', delivery.id).select('job_id');
  const jobId = Number(row.job_id);
  const knex = ctx.em.getKnex();
  // One more attempt than made so far, unless the schedule still has some left.
  await knex('webhook_jobs')
    .where('id', jobId)
    .update({ max_attempts: knex.raw('case when max_attempts > attempts then max_attempts else attempts + 1 end') });
  const [logId] = await engineOf(ctx).attemptNow([jobId]);
  if (!logId) throw new AppError('CONFLICT', WEBHOOK_MESSAGES.attemptInProgress);
  return deliveryById(ctx, viewerId, logId);
}

/** Sends a signed WEBHOOK_TEST event to the endpoint now; the answer is the attempt's log entry. */
export async function sendTestWebhook(ctx: ServiceContext, rawId: unknown): Promise<WebhookDeliveryRecord> {
  const viewerId = requireViewer(ctx);
  requireWebhookScope(ctx);
  const webhook = await findOwn(ctx, rawId);
  if (webhook.disabledAt) throw enableFirst();
  const engine = engineOf(ctx);
  const now = new Date();
  const jobId = await ctx.em.transactional(async (em) => {
    const knex = em.getKnex();
    const trx = em.getTransactionContext<Knex.Transaction>()!;
    const payload = JSON.stringify({
      type: TEST_EVENT_TYPE,
      timestamp: now.toISOString(),
      data: { webhookId: webhook.id, message: 'A test delivery from Fulcrum: the endpoint is reachable and can verify signatures.' },
    });
    const [event]: ({ id: number } | number)[] = await knex('webhook_events')
      .transacting(trx)
      .insert({ message_id: newMessageId(), type: TEST_EVENT_TYPE, audience: String(viewerId), payload, fanned_out: true, created_at: now })
      .returning('id');
    const eventId = Number(typeof event === 'object' ? event.id : event);
    // Reserved (next attempt after the lease) so no worker picks it up before attemptNow claims it.
    const [job]: ({ id: number } | number)[] = await knex('webhook_jobs')
      .transacting(trx)
      .insert({
        webhook_id: webhook.id,
        event_id: eventId,
        state: 'pending',
        attempts: 0,
        max_attempts: 1,
        next_attempt_at: new Date(now.getTime() + engine.leaseMs),
        lease_until: null,
        created_at: now,
        updated_at: now,
      })
      .returning('id');
    return Number(typeof job === 'object' ? job.id : job);
  });
  const [logId] = await engine.attemptNow([jobId]);
  return deliveryById(ctx, viewerId, logId);
}

/**
 * Personal access tokens for integrators (docs/integrators.md, "Authentication").
 *
 * A secret is `fulcrum_pat_` + 32 random base62 characters (190 bits) + a 6-character base62 CRC32 of those 32,
 * like GitHub's tokens: a secret scanner (or this gateway, before any database read) can tell a real token from
 * a typo offline. Only the SHA-256 of the secret is stored: with 190 random bits nothing can be guessed, so a
 * slow or salted hash would add cost and no safety, and an exact hash lets a request find its token through a
 * unique index. The stored and computed hashes are then compared in constant time as well.
 */
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import type { Knex } from '@mikro-orm/knex';
import { crc32 } from 'node:zlib';
import { AppError } from '../errors.js';
import { ApiToken, User } from '../entities/index.js';
import { forkEm, preparedRead, type Em } from '../database.js';
import { API_SCOPES, API_TOKEN_LIMITS, API_TOKEN_MESSAGES, hasErrors, validateApiToken, type ApiScopeName, type ApiTokenFields } from '../validation/rules.js';
import { parseId, requireViewer, type ApiCredential, type ServiceContext, type ServiceDeps } from './context.js';

export type { ApiCredential };
import { toDate } from '../records/index.js';
import { disableWebhooksOfLapsedTokens } from '../webhooks/lapsedTokens.js';

export const SECRET_PREFIX = 'fulcrum_pat_';
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
/** What a secret scanner looks for: the prefix, 32 random characters and a 6-character checksum. */
export const SECRET_PATTERN = /^fulcrum_pat_[0-9A-Za-z]{38}$/;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const DAY_MS = 24 * 60 * 60 * 1000;
/** lastUsedAt is written at most this often per token, not on every request. */
export const LAST_USED_RESOLUTION_MS = 60_000;

export interface ApiTokenRecord {
  id: number;
  name: string;
  scopes: ApiScopeName[];
  hint: string;
  createdAt: Date;
  expiresAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

// Base62 is a dozen lines; the npm packages for it (base-x and friends) encode byte arrays, not this.
function base62(value: number, width: number): string {
  let out = '';
  for (let n = value; n > 0; n = Math.floor(n / 62)) out = BASE62[n % 62] + out;
  return out.padStart(width, '0');
}

function checksum(random: string): string {
  return base62(crc32(random), CHECKSUM_LENGTH);
}

/** A new secret: the prefix, 32 characters from crypto.randomInt (uniform over base62) and the checksum. */
export function generateSecret(): string {
  let random = '';
  for (let i = 0; i < RANDOM_LENGTH; i++) random += BASE62[randomInt(62)];
  return SECRET_PREFIX + random + checksum(random);
}

/** The offline check: right shape and a checksum that matches. No database read for anything else. */
export function isWellFormedSecret(secret: string): boolean {
  if (!SECRET_PATTERN.test(secret)) return false;
  const random = secret.slice(SECRET_PREFIX.length, SECRET_PREFIX.length + RANDOM_LENGTH);
  return checksum(random) === secret.slice(-CHECKSUM_LENGTH);
}

/** Hex SHA-256: what the api_tokens table stores instead of the secret. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

function parseScopes(stored: string): ApiScopeName[] {
  return stored.split(',').filter((s): s is ApiScopeName => (API_SCOPES as readonly string[]).includes(s));
}

export function toApiTokenRecord(token: ApiToken): ApiTokenRecord {
  return {
    id: token.id,
    name: token.name,
    scopes: parseScopes(token.scopes),
    hint: token.hint,
    createdAt: token.createdAt,
    expiresAt: token.expiresAt,
    lastUsedAt: token.lastUsedAt ?? null,
    revokedAt: token.revokedAt ?? null,
  };
}

/**
 * Managing tokens (and signing in or out) needs the browser session: a leaked token must not be able to mint
 * more tokens, outlive its own revocation or take over the account.
 */
export function requireSession(ctx: ServiceContext): void {
  if (ctx.token) throw AppError.forbidden(API_TOKEN_MESSAGES.sessionOnly);
}

/**
 * READ allows queries and subscriptions; WRITE adds mutations; WEBHOOKS adds managing webhooks (checked by
 * services/webhooks.ts). Sessions may do everything.
 */
export function assertScopeAllows(ctx: Pick<ServiceContext, 'token'>, operation: 'query' | 'mutation' | 'subscription'): void {
  if (!ctx.token || operation !== 'mutation' || ctx.token.scopes.includes('WRITE')) return;
  throw AppError.forbidden(API_TOKEN_MESSAGES.readScope);
}

export interface ApiTokenInput extends ApiTokenFields {
  name: unknown;
  scopes: unknown;
  expiresInDays?: unknown;
}

/** Creates a token for the signed-in agent; the secret is returned here once and never stored. */
export async function createApiToken(ctx: ServiceContext, input: ApiTokenInput): Promise<{ secret: string; token: ApiTokenRecord }> {
  const userId = requireViewer(ctx);
  requireSession(ctx);
  const fields = validateApiToken(input);
  if (hasErrors(fields)) throw AppError.validation(fields);
  const user = await ctx.em.findOne(User, userId);
  if (!user) throw AppError.unauthenticated();
  const requested = new Set(input.scopes as ApiScopeName[]);
  // WEBHOOKS includes WRITE and WRITE includes READ: a token that may change records may read them.
  if (requested.has('WEBHOOKS')) requested.add('WRITE');
  if (requested.has('WRITE')) requested.add('READ');
  const scopes = API_SCOPES.filter((s) => requested.has(s));
  const days = (input.expiresInDays as number | null | undefined) ?? API_TOKEN_LIMITS.expiresInDays.default;
  const secret = generateSecret();
  const now = new Date();
  const token = ctx.em.create(ApiToken, {
    user,
    name: String(input.name).trim(),
    scopes: scopes.join(','),
    tokenHash: hashSecret(secret),
    hint: secret.slice(-4),
    createdAt: now,
    expiresAt: new Date(now.getTime() + days * DAY_MS),
    lastUsedAt: null,
    revokedAt: null,
  });
  await ctx.em.flush();
  return { secret, token: toApiTokenRecord(token) };
}

/** The agent's tokens that are not revoked (expired ones included, so the agent sees they expired), newest first. */
export async function listApiTokens(ctx: ServiceContext): Promise<ApiTokenRecord[]> {
  const userId = requireViewer(ctx);
  requireSession(ctx);
  const tokens = await ctx.em.find(ApiToken, { user: userId, revokedAt: null }, { orderBy: { id: 'desc' } });
  return tokens.map(toApiTokenRecord);
}

/**
 * Revokes one of the agent's tokens: every gateway refuses it from the next request on (each request reads the
 * token), its open websockets close on every gateway (apiTokenRevoked on the event bus), and the webhooks it
 * created or last changed are disabled in the same transaction. Revoking twice is harmless; someone else's token is
 * NOT_FOUND.
 */
export async function revokeApiToken(ctx: ServiceContext, id: unknown): Promise<ApiTokenRecord> {
  const userId = requireViewer(ctx);
  requireSession(ctx);
  const tokenId = parseId(id);
  const token = tokenId == null ? null : await ctx.em.findOne(ApiToken, { id: tokenId, user: userId });
  if (!token) throw AppError.notFound('API token');
  if (!token.revokedAt) {
    const now = new Date();
    await ctx.em.transactional(async (em) => {
      await em.nativeUpdate(ApiToken, { id: token.id }, { revokedAt: now });
      // The webhooks it created or changed stop with it (docs/webhooks.md, "Tokens and webhooks").
      await disableWebhooksOfLapsedTokens(em.getKnex(), em.getTransactionContext<Knex.Transaction>()!, now, { tokenId: token.id });
    });
    token.revokedAt = now;
    ctx.deps.bus.publish('apiTokenRevoked', { tokenId: token.id });
  }
  return toApiTokenRecord(token);
}

/** One answer for unknown, malformed, expired and revoked tokens alike. */
export function invalidToken(): AppError {
  return new AppError('UNAUTHENTICATED', API_TOKEN_MESSAGES.invalid);
}

/**
 * The credential behind a bearer secret, or UNAUTHENTICATED (never saying why). The token is looked up first, and
 * only a refused one (unknown, malformed, expired or revoked) counts against the client address's guess budget:
 * past it the answer is RATE_LIMITED, with retryAfter, instead. A valid token is never refused by that budget, so a
 * client that shares its address with a misconfigured one keeps working (its own budgets still apply). Guessing
 * stays hopeless without the budget (190 random bits, docs/integrators.md); the budget bounds the lookups and the
 * noise one address can cause.
 */
export async function authenticateToken(deps: ServiceDeps, secret: string, clientIp: string, em: Em = forkEm(deps.orm)): Promise<ApiCredential> {
  const fail = async (): Promise<never> => {
    await deps.limiter.recordTokenFailure(clientIp); // RATE_LIMITED past the budget
    throw invalidToken();
  };
  if (!isWellFormedSecret(secret)) return fail();
  const hash = hashSecret(secret);
  // One indexed read through a prepared statement (no entity hydration), like the session read: every bearer
  // request starts here.
  const rows = await preparedRead<{
    id: number;
    user_id: number;
    scopes: string;
    token_hash: string;
    expires_at: unknown;
    last_used_at: unknown;
    revoked_at: unknown;
  }>(em, 'api_token_by_hash', 'select id, user_id, scopes, token_hash, expires_at, last_used_at, revoked_at from api_tokens where token_hash = ? limit 1', [
    hash,
  ]);
  const row = rows[0];
  const now = Date.now();
  if (
    !row ||
    !timingSafeEqual(Buffer.from(row.token_hash, 'hex'), Buffer.from(hash, 'hex')) ||
    row.revoked_at != null ||
    toDate(row.expires_at).getTime() <= now
  )
    return fail();
  if (row.last_used_at == null || now - toDate(row.last_used_at).getTime() >= LAST_USED_RESOLUTION_MS) {
    // Conditional, so gateways racing on the same token write once per minute between them.
    const stale = new Date(now - LAST_USED_RESOLUTION_MS);
    await em.nativeUpdate(ApiToken, { id: row.id, $or: [{ lastUsedAt: null }, { lastUsedAt: { $lte: stale } }] }, { lastUsedAt: new Date(now) });
  }
  return { tokenId: Number(row.id), userId: Number(row.user_id), scopes: parseScopes(row.scopes) };
}

/** Of these token ids, the ones still valid (not revoked, not expired, the agent still there): the websocket sweep. */
export async function stillValidTokens(deps: ServiceDeps, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const em = forkEm(deps.orm);
  const live = await em.find(ApiToken, { id: { $in: ids }, revokedAt: null, expiresAt: { $gt: new Date() } }, { fields: ['id'] });
  return new Set(live.map((t) => t.id));
}

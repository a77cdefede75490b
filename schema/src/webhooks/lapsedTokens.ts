/**
 * Tokens and webhooks (docs/webhooks.md): a webhook bound to a revoked or expired API token is disabled. Run by the
 * token service (revokeApiToken) and by the delivery engine, so it sits in webhooks/, below the services.
 */
import type { Knex } from '@mikro-orm/knex';
import { toDate } from '../records/index.js';

/** Why a webhook bound to a token was disabled; shown in the web app and as `Webhook.disabledReason`. */
function lapsedTokenReason(token: { name: string; revoked_at: unknown; expires_at: unknown }): string {
  const what = token.revoked_at != null ? `was revoked at ${toDate(token.revoked_at).toISOString()}` : `expired at ${toDate(token.expires_at).toISOString()}`;
  return `Disabled because the API token "${token.name}", which created or last changed this webhook, ${what}. Check its address, then enable it again signed in.`;
}

/**
 * Disables the enabled webhooks whose creating or last-changing token is revoked or expired, and drops their
 * scheduled retries; the ids disabled. Run by revokeApiToken (for that token, in its transaction) and by the
 * engine before it fans out events and before it sends claimed jobs (webhooks/engine.ts), which is where an expiry
 * takes effect: no clock wakes anyone when a token expires, but nothing is sent after it.
 */
export async function disableWebhooksOfLapsedTokens(
  knex: Knex,
  trx: Knex.Transaction,
  now: Date,
  only: { tokenId?: number; jobIds?: number[] } = {},
): Promise<number[]> {
  let query = knex('webhooks as w')
    .transacting(trx)
    .join('api_tokens as t', (on) => void on.on('t.id', 'w.created_by_token_id').orOn('t.id', 'w.changed_by_token_id'))
    .whereNull('w.disabled_at')
    .where((q) => void q.whereNotNull('t.revoked_at').orWhere('t.expires_at', '<=', now))
    .select('w.id', 't.name', 't.revoked_at', 't.expires_at')
    .orderBy('w.id');
  if (only.tokenId !== undefined) query = query.where('t.id', only.tokenId);
  if (only.jobIds) query = query.whereIn('w.id', knex('webhook_jobs').select('webhook_id').whereIn('id', only.jobIds));
  const rows = (await query) as { id: number; name: string; revoked_at: unknown; expires_at: unknown }[];
  const disabled = new Map<number, string>();
  for (const row of rows) if (!disabled.has(Number(row.id))) disabled.set(Number(row.id), lapsedTokenReason(row));
  for (const [id, reason] of disabled) {
    await knex('webhooks').transacting(trx).where('id', id).whereNull('disabled_at').update({ disabled_at: now, disabled_reason: reason, updated_at: now });
  }
  if (disabled.size)
    await knex('webhook_jobs')
      .transacting(trx)
      .whereIn('webhook_id', [...disabled.keys()])
      .where('state', 'pending')
      .update({ state: 'failed', updated_at: now });
  return [...disabled.keys()];
}

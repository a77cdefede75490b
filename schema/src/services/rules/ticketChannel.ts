/**
 * A ticket's channel: the door it was created through (a `ChangeSource`: WEB, API_TOKEN, REST, EMAIL …), the `via`
 * of its first event. Read for many tickets in one statement (the GraphQL layer batches a page's); the tickets are
 * ones the caller has already read under the access rule. The condition field `channel` reads the same column
 * (conditionSql.ts FIELD_SQL), so what a ticket shows and what a condition compares are one value. Also the
 * registry as the API shows it (signed-in agents only, like every read but `me`).
 */
import { TICKET_FIELDS, type TicketFieldDef } from '../../conditions/index.js';
import { requireViewer, type ServiceContext } from '../context.js';

/** The channel of each ticket id, in order (null: a ticket without a recorded creation). */
export async function ticketChannels(ctx: Pick<ServiceContext, 'em'>, ids: readonly number[]): Promise<(string | null)[]> {
  if (!ids.length) return [];
  const rows = await ctx.em
    .getConnection()
    .execute<{ ticket_id: number | string; via: string }[]>(
      `select ticket_id, via from ticket_events where seq = 1 and ticket_id in (${ids.map(() => '?').join(', ')})`,
      [...ids],
    );
  const found = new Map(rows.map((r) => [Number(r.ticket_id), r.via]));
  return ids.map((id) => found.get(id) ?? null);
}

/** The field registry as `ticketFields` shows it, to a signed-in agent (UNAUTHENTICATED otherwise). */
export function ticketFieldsFor(ctx: ServiceContext): readonly TicketFieldDef[] {
  requireViewer(ctx);
  return TICKET_FIELDS;
}

/**
 * The conversation texts of tickets that a search can match (ticket_search_parts indexes the same texts, migration
 * 20261207160000), for `Ticket.searchMatch`'s snippet: agent replies, notes not deleted, requester messages (held
 * ones too; a discarded one has no text) and attachment names, each ticket's in that order and then by id. Read only
 * for the rows of a page of search results, in one statement for the page; the caller has read those tickets through
 * the access rule (ticketAccess) already, so no ticket of another viewer is ever read here.
 */
import type { SearchMatchIn } from './searchMatch.js';
import type { ServiceContext } from './context.js';

export type ConversationText = [SearchMatchIn, string];

const KINDS: SearchMatchIn[] = ['REPLY', 'NOTE', 'REQUESTER_MESSAGE', 'ATTACHMENT'];

export async function conversationTexts(ctx: ServiceContext, ticketIds: readonly number[]): Promise<Map<number, ConversationText[]>> {
  const found = new Map<number, ConversationText[]>(ticketIds.map((id) => [id, []]));
  if (!ticketIds.length) return found;
  const ids = ticketIds.map(() => '?').join(', ');
  const sql = [
    `select ticket_id, 0 as kind, id, body as text from ticket_replies where ticket_id in (${ids})`,
    `select ticket_id, 1 as kind, id, body as text from ticket_notes where ticket_id in (${ids}) and body is not null`,
    `select ticket_id, 2 as kind, id, body as text from requester_messages where ticket_id in (${ids}) and discarded_at is null`,
    `select ticket_id, 3 as kind, id, filename as text from reply_attachments where ticket_id in (${ids})`,
  ].join(' union all ');
  const rows = await ctx.em
    .getConnection()
    .execute<{ ticket_id: number | string; kind: number | string; text: string }[]>(`${sql} order by ticket_id, kind, id`, [
      ...ticketIds,
      ...ticketIds,
      ...ticketIds,
      ...ticketIds,
    ]);
  for (const row of rows) found.get(Number(row.ticket_id))?.push([KINDS[Number(row.kind)], row.text]);
  return found;
}

/**
 * The message center's read state: one `conversations` row per agent and partner (entities/Conversation)
 * holds the newest message between them, the agent's read position and the exact number of unread messages. The
 * message writes (services/messages.ts) keep it in the same transaction, so a list of conversations and the unread
 * total are one statement each, however many messages there are.
 *
 * Exact under concurrent writes: every change to a row is one UPDATE (or upsert) whose new value is computed from the
 * row as it is when the row lock is held (PostgreSQL re-evaluates it on the newest version; SQLite has one writer).
 * A transaction touching both rows of a pair locks them in one order (lower user id first), so sends, deletes and
 * reads of the same pair cannot deadlock. Marking read takes the row lock first and only then reads the messages,
 * so it counts exactly what committed before it; a send still in flight increments after it.
 */
import { AppError } from '../errors.js';
import { MESSAGES } from '../validation/rules.js';
import type { Em } from '../database.js';
import { parseId, requireViewer, type ServiceContext } from './context.js';
import { toDate, type MessageRecord, type UserRecord } from '../records/index.js';
import type { UnreadReason } from '../realtime/events.js';

export interface ConversationRecord {
  partnerId: number;
  /** Null only for an agent the viewer has no row with (markConversationRead before any message). */
  partner: UserRecord | null;
  lastMessage: MessageRecord | null;
  /** The read position: messages from the partner with a larger id are unread (0: nothing read yet). */
  lastReadMessageId: number;
  unreadCount: number;
}

// Paging is the one connection helper every list uses (connection.ts); re-exported for messages.ts.
export { decodeCursor, encodeCursor, pageSize, type Page } from './connection.js';
import type { Page } from './connection.js';
import { decodeCursor, encodeCursor, pageSize } from './connection.js';

const run = (em: Em, sql: string, params: unknown[]) => em.execute(sql, params, 'run');
const all = <T>(em: Em, sql: string, params: unknown[]) => em.execute<T[]>(sql, params, 'all');

/**
 * Inside the transaction that inserted `m`: both rows of the pair get it as their newest message (if it is newer);
 * the receiver's unread count grows by one unless the receiver has already read past it.
 */
export async function recordSent(em: Em, m: { id: number; senderId: number; receiverId: number }): Promise<void> {
  const rows = [
    { user: m.senderId, partner: m.receiverId, incoming: 0 },
    { user: m.receiverId, partner: m.senderId, incoming: 1 },
  ].sort((a, b) => a.user - b.user);
  for (const row of rows) {
    await run(
      em,
      `insert into conversations (user_id, partner_id, last_message_id, last_read_message_id, unread_count) values (?, ?, ?, 0, ?)
       on conflict (user_id, partner_id) do update set
         last_message_id = case when conversations.last_message_id is null or conversations.last_message_id < excluded.last_message_id
                                then excluded.last_message_id else conversations.last_message_id end,
         unread_count = conversations.unread_count
           + case when excluded.unread_count = 1 and conversations.last_read_message_id < excluded.last_message_id then 1 else 0 end`,
      [row.user, row.partner, m.id, row.incoming],
    );
  }
}

/**
 * Inside the transaction that deleted `m`: the receiver's count drops if it was unread; a row whose newest message
 * it was falls back to the newest one left (null when none is). Returns true when the receiver's count changed.
 */
export async function recordDeleted(em: Em, m: { id: number; senderId: number; receiverId: number }): Promise<boolean> {
  const newest = `(select max(n) from (
      select max(id) as n from messages where sender_id = ? and receiver_id = ?
      union all
      select max(id) as n from messages where sender_id = ? and receiver_id = ?) as pair)`;
  const pair = [m.senderId, m.receiverId, m.receiverId, m.senderId];
  for (const user of [m.senderId, m.receiverId].sort((a, b) => a - b)) {
    const partner = user === m.senderId ? m.receiverId : m.senderId;
    const incoming = user === m.receiverId;
    // One statement per row: the condition and the new values are evaluated under the row lock.
    const unread = incoming ? 'unread_count - case when last_read_message_id < ? then 1 else 0 end' : 'unread_count';
    await run(
      em,
      `update conversations set
         unread_count = ${unread},
         last_message_id = case when last_message_id = ? then ${newest} else last_message_id end
       where user_id = ? and partner_id = ?`,
      [...(incoming ? [m.id] : []), m.id, ...pair, user, partner],
    );
  }
  // Whether it was unread is decided under the lock above; read it back the same way (the row is ours until commit).
  const [row] = await all<{ last_read_message_id: number | string }>(
    em,
    'select last_read_message_id from conversations where user_id = ? and partner_id = ?',
    [m.receiverId, m.senderId],
  );
  return !!row && Number(row.last_read_message_id) < m.id;
}

/** Rebuilds every row from the messages, everything counted as read (the demo seed; the migration does the same). */
export async function rebuildConversations(em: Em): Promise<void> {
  await run(em, 'delete from conversations', []);
  await run(
    em,
    `insert into conversations (user_id, partner_id, last_message_id, last_read_message_id, unread_count)
     select user_id, partner_id, max(id), coalesce(max(case when incoming = 1 then id end), 0), 0
     from (select sender_id as user_id, receiver_id as partner_id, id, 0 as incoming from messages
           union all
           select receiver_id as user_id, sender_id as partner_id, id, 1 as incoming from messages) as m
     group by user_id, partner_id`,
    [],
  );
}

interface ConversationRow {
  partner_id: number | string;
  last_message_id: number | string | null;
  last_read_message_id: number | string;
  unread_count: number | string;
  u_id: number | string | null;
  u_username: string;
  u_email: string;
  u_created_at: unknown;
  m_id: number | string | null;
  m_sender_id: number | string;
  m_receiver_id: number | string;
  m_text: string;
  m_created_at: unknown;
  m_updated_at: unknown;
}

const CONVERSATION_COLUMNS = `c.partner_id, c.last_message_id, c.last_read_message_id, c.unread_count,
  u.id as u_id, u.username as u_username, u.email as u_email, u.created_at as u_created_at,
  m.id as m_id, m.sender_id as m_sender_id, m.receiver_id as m_receiver_id, m.message as m_text, m.created_at as m_created_at, m.updated_at as m_updated_at`;

function toConversation(row: ConversationRow): ConversationRecord {
  return {
    partnerId: Number(row.partner_id),
    partner: row.u_id == null ? null : { id: Number(row.u_id), username: row.u_username, email: row.u_email, createdAt: toDate(row.u_created_at) },
    lastMessage:
      row.m_id == null
        ? null
        : {
            id: Number(row.m_id),
            senderId: Number(row.m_sender_id),
            receiverId: Number(row.m_receiver_id),
            text: row.m_text,
            createdAt: toDate(row.m_created_at),
            updatedAt: toDate(row.m_updated_at),
          },
    lastReadMessageId: Number(row.last_read_message_id),
    unreadCount: Number(row.unread_count),
  };
}

/**
 * The viewer's conversations, newest activity first (cursor = the last message id of the last entry). One
 * statement: a range of the (user_id, last_message_id) index, joined to each partner and last message by primary
 * key, and the total counted on the same index as a scalar subquery.
 */
export async function listConversations(ctx: ServiceContext, page: { first?: number | null; after?: string | null } = {}): Promise<Page<ConversationRecord>> {
  const viewerId = requireViewer(ctx);
  const first = pageSize(page.first);
  const afterId = decodeCursor('conversation', page.after);
  const rows = await all<ConversationRow & { total_count: number | string }>(
    ctx.em,
    `select ${CONVERSATION_COLUMNS},
       (select count(*) from conversations as t where t.user_id = ? and t.last_message_id is not null) as total_count
     from conversations as c
     join users as u on u.id = c.partner_id
     join messages as m on m.id = c.last_message_id
     where c.user_id = ? and c.last_message_id is not null${afterId ? ' and c.last_message_id < ?' : ''}
     order by c.last_message_id desc
     limit ?`,
    [viewerId, viewerId, ...(afterId ? [afterId] : []), first + 1],
  );
  const nodes = rows.slice(0, first).map(toConversation);
  let totalCount = rows.length ? Number(rows[0].total_count) : 0;
  if (!rows.length && afterId) {
    // Past the last page: no row carries the total.
    const [row] = await all<{ n: number | string }>(ctx.em, 'select count(*) as n from conversations where user_id = ? and last_message_id is not null', [
      viewerId,
    ]);
    totalCount = Number(row?.n ?? 0);
  }
  return {
    nodes,
    totalCount,
    hasNextPage: rows.length > first,
    endCursor: nodes.length ? encodeCursor('conversation', nodes[nodes.length - 1].lastMessage!.id) : null,
  };
}

/** All the viewer's unread messages: one statement over the viewer's rows (one per partner). */
export async function unreadMessageCount(ctx: ServiceContext): Promise<number> {
  const viewerId = requireViewer(ctx);
  const [row] = await all<{ n: number | string | null }>(ctx.em, 'select coalesce(sum(unread_count), 0) as n from conversations where user_id = ?', [viewerId]);
  return Number(row?.n ?? 0);
}

/** One conversation of the viewer and the viewer's unread total, in one statement (what the live event carries). */
export async function conversationWithTotal(ctx: ServiceContext, partnerId: number): Promise<{ conversation: ConversationRecord; unreadMessageCount: number }> {
  const viewerId = requireViewer(ctx);
  const rows = await all<ConversationRow & { total: number | string | null }>(
    ctx.em,
    `select ${CONVERSATION_COLUMNS}, (select coalesce(sum(unread_count), 0) from conversations as t where t.user_id = ?) as total
     from conversations as c
     left join users as u on u.id = c.partner_id
     left join messages as m on m.id = c.last_message_id
     where c.user_id = ? and c.partner_id = ?`,
    [viewerId, viewerId, partnerId],
  );
  if (rows.length) return { conversation: toConversation(rows[0]), unreadMessageCount: Number(rows[0].total ?? 0) };
  const partner = await findPartner(ctx, partnerId);
  return { conversation: emptyConversation(partner), unreadMessageCount: await unreadMessageCount(ctx) };
}

function emptyConversation(partner: UserRecord): ConversationRecord {
  return { partnerId: partner.id, partner, lastMessage: null, lastReadMessageId: 0, unreadCount: 0 };
}

async function findPartner(ctx: ServiceContext, partnerId: number): Promise<UserRecord> {
  const [row] = await all<{ id: number | string; username: string; email: string; created_at: unknown }>(
    ctx.em,
    'select id, username, email, created_at from users where id = ?',
    [partnerId],
  );
  if (!row) throw AppError.notFound('User');
  return { id: Number(row.id), username: row.username, email: row.email, createdAt: toDate(row.created_at) };
}

/** A partner id from a transport: a positive id other than the viewer's, of an agent that exists. */
export async function requirePartner(ctx: ServiceContext, rawPartnerId: unknown, field = 'partnerId'): Promise<UserRecord> {
  const viewerId = requireViewer(ctx);
  const partnerId = parseId(rawPartnerId);
  if (!partnerId) throw AppError.validation({ [field]: [MESSAGES.invalidUserId] });
  if (partnerId === viewerId) throw AppError.validation({ [field]: [MESSAGES.conversationWithSelf] });
  return findPartner(ctx, partnerId);
}

/**
 * Moves the viewer's read position in the conversation with `partnerId` forward to `upToMessageId` (default: the
 * newest message now), never past the newest message and never backwards, and recounts what is left unread. Other
 * sockets of the viewer hear of it (unreadCountEvents) when anything changed.
 */
export async function markConversationRead(ctx: ServiceContext, rawPartnerId: unknown, rawUpTo?: unknown): Promise<ConversationRecord> {
  const viewerId = requireViewer(ctx);
  const partner = await requirePartner(ctx, rawPartnerId);
  let upTo: number | null = null;
  if (rawUpTo !== undefined && rawUpTo !== null) {
    upTo = parseId(rawUpTo);
    if (!upTo) throw AppError.validation({ upToMessageId: [MESSAGES.invalidMessageId] });
  }
  const changed = await ctx.em.transactional(async (em) => {
    // Take the row lock first (a no-op update): what is read below is then everything committed before us.
    const key = [viewerId, partner.id];
    await run(em, 'update conversations set unread_count = unread_count where user_id = ? and partner_id = ?', key);
    const [row] = await all<{ last_message_id: number | string | null; last_read_message_id: number | string; unread_count: number | string }>(
      em,
      'select last_message_id, last_read_message_id, unread_count from conversations where user_id = ? and partner_id = ?',
      key,
    );
    if (!row || row.last_message_id == null) return false;
    const newest = Number(row.last_message_id);
    const before = Number(row.last_read_message_id);
    const position = Math.max(before, Math.min(upTo ?? newest, newest));
    await run(
      em,
      `update conversations set last_read_message_id = ?,
         unread_count = (select count(*) from messages where sender_id = ? and receiver_id = ? and id > ?)
       where user_id = ? and partner_id = ?`,
      [position, partner.id, viewerId, position, ...key],
    );
    const [after] = await all<{ unread_count: number | string }>(em, 'select unread_count from conversations where user_id = ? and partner_id = ?', key);
    return position !== before || Number(after.unread_count) !== Number(row.unread_count);
  });
  if (changed) publishUnread(ctx, viewerId, partner.id, 'READ');
  const { conversation } = await conversationWithTotal(ctx, partner.id);
  return conversation;
}

export function publishUnread(ctx: ServiceContext, userId: number, partnerId: number, reason: UnreadReason): void {
  ctx.deps.bus.publish('unread', userId, { partnerId, reason });
}

/**
 * "The viewer is typing to `partnerId`": forwarded to the partner's sockets only, at most once per 2 s per sender
 * (false when dropped by that throttle), never stored.
 */
export async function notifyTyping(ctx: ServiceContext, rawPartnerId: unknown): Promise<boolean> {
  const viewerId = requireViewer(ctx);
  const partner = await requirePartner(ctx, rawPartnerId);
  if (!(await ctx.deps.presence.allowTyping(viewerId))) return false;
  ctx.deps.bus.publish('typing', partner.id, { senderId: viewerId, receiverId: partner.id });
  return true;
}

/** Agents with an open socket now, on any gateway. */
export function onlineUserIds(ctx: ServiceContext): Promise<Set<number>> {
  requireViewer(ctx);
  return ctx.deps.presence.onlineUserIds();
}

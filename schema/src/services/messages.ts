import { AppError } from '../errors.js';
import { Message, User } from '../entities/index.js';
import { hasErrors, MESSAGES, validateMessage } from '../validation/rules.js';
import { preparedRead } from '../database.js';
import { parseId, requireViewer, type ServiceContext } from './context.js';
import { toDate, type MessageRecord } from '../records/index.js';
import type { ChangeKind } from '../realtime/events.js';
import { flushWithEvents, messageData, recordEvents, webhookEvent } from './changeLog.js';
import { decodeCursor, encodeCursor, pageSize, publishUnread, recordDeleted, recordSent, type Page } from './conversations.js';

export function toMessageRecord(m: Message): MessageRecord {
  return { id: m.id, senderId: m.sender.id, receiverId: m.receiver.id, text: m.text, createdAt: m.createdAt, updatedAt: m.updatedAt };
}

function validText(text: unknown): string {
  const fields = validateMessage({ message: text });
  if (hasErrors(fields)) throw AppError.validation(fields);
  return String(text);
}

/** Sender and receiver each get the event on their own topic; nobody else does. */
function publish(ctx: ServiceContext, kind: ChangeKind, m: { id: number; senderId: number; receiverId: number }, record?: MessageRecord): void {
  const change = { kind, id: m.id, senderId: m.senderId, receiverId: m.receiverId, record };
  ctx.deps.bus.publish('message', m.senderId, change);
  if (m.receiverId !== m.senderId) ctx.deps.bus.publish('message', m.receiverId, change);
}

/** Messages the caller sent or received, oldest first; with `withUserId`, only that conversation. */
export async function listMessages(ctx: ServiceContext, withUserId?: unknown): Promise<MessageRecord[]> {
  const viewerId = requireViewer(ctx);
  const partner = withUserId === undefined || withUserId === null ? null : parseId(withUserId);
  if (withUserId != null && !partner) throw AppError.validation({ withUserId: [MESSAGES.invalidUserId] });
  const where = partner
    ? {
        $or: [
          { sender: viewerId, receiver: partner },
          { sender: partner, receiver: viewerId },
        ],
      }
    : { $or: [{ sender: viewerId }, { receiver: viewerId }] };
  const messages = await ctx.em.find(Message, where, { orderBy: { id: 'asc' } });
  return messages.map(toMessageRecord);
}

interface MessageRow {
  id: number | string;
  sender_id: number | string;
  receiver_id: number | string;
  message: string;
  created_at: unknown;
  updated_at: unknown;
  total_count: number | string;
}

/**
 * One page of the viewer's conversation with `withUserId`, newest first (cursor = the oldest id on the page). One
 * statement: each direction is a backwards range of the (sender_id, receiver_id, id) index, limited to the page, and
 * the two are merged; the total is counted on the same index.
 */
export async function listConversationMessages(
  ctx: ServiceContext,
  withUserId: unknown,
  page: { first?: number | null; after?: string | null } = {},
): Promise<Page<MessageRecord>> {
  const viewerId = requireViewer(ctx);
  const partnerId = parseId(withUserId);
  if (!partnerId) throw AppError.validation({ withUserId: [MESSAGES.invalidUserId] });
  const first = pageSize(page.first);
  const beforeId = decodeCursor('message', page.after);
  const older = beforeId ? ' and id < ?' : '';
  const direction = (alias: string) =>
    `select * from (select id, sender_id, receiver_id, message, created_at, updated_at from messages
       where sender_id = ? and receiver_id = ?${older} order by id desc limit ?) as ${alias}`;
  const args = (from: number, to: number) => [from, to, ...(beforeId ? [beforeId] : []), first + 1];
  const rows = await ctx.em.execute<MessageRow[]>(
    `select pair.*,
       (select count(*) from messages where sender_id = ? and receiver_id = ?) + (select count(*) from messages where sender_id = ? and receiver_id = ?) as total_count
     from (${direction('outgoing')} union all ${direction('incoming')}) as pair
     order by pair.id desc limit ?`,
    [viewerId, partnerId, partnerId, viewerId, ...args(viewerId, partnerId), ...args(partnerId, viewerId), first + 1],
  );
  const nodes = rows.slice(0, first).map((row) => ({
    id: Number(row.id),
    senderId: Number(row.sender_id),
    receiverId: Number(row.receiver_id),
    text: row.message,
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
  }));
  let totalCount = rows.length ? Number(rows[0].total_count) : 0;
  if (!rows.length && beforeId) {
    const [row] = await ctx.em.execute<{ n: number | string }[]>(
      'select (select count(*) from messages where sender_id = ? and receiver_id = ?) + (select count(*) from messages where sender_id = ? and receiver_id = ?) as n',
      [viewerId, partnerId, partnerId, viewerId],
    );
    totalCount = Number(row?.n ?? 0);
  }
  return { nodes, totalCount, hasNextPage: rows.length > first, endCursor: nodes.length ? encodeCursor('message', nodes[nodes.length - 1].id) : null };
}

export async function sendMessage(ctx: ServiceContext, rawReceiverId: unknown, text: unknown): Promise<MessageRecord> {
  const viewerId = requireViewer(ctx);
  const receiverId = parseId(rawReceiverId);
  // One indexed read through a prepared statement (preparedRead). Not em.findOne: a User entity in the unit of work was
  // written back by the flush below (an `update users set created_at` per message) and cost a hydration.
  const receiver = receiverId
    ? (await preparedRead<{ id: number }>(ctx.em, 'user_exists', 'select id from users where id = ? limit 1', [receiverId]))[0]
    : undefined;
  if (!receiver) throw AppError.notFound('Receiver');
  if (receiverId === viewerId) throw AppError.validation({ receiver: [MESSAGES.messageToSelf] });
  const valid = validText(text);
  // The message and both conversation rows (entities/Conversation) commit together.
  const record = await ctx.em.transactional(async (em) => {
    const message = em.create(Message, {
      sender: em.getReference(User, viewerId),
      receiver: em.getReference(User, receiverId!),
      text: valid,
      createdAt: new Date(),
      updatedAt: new Date(),
    });
    await em.flush();
    const created = toMessageRecord(message);
    await recordSent(em, created);
    await recordEvents(ctx, em, [webhookEvent.message('CREATED', message)], () => {
      publish(ctx, 'CREATED', created, created);
      publishUnread(ctx, created.receiverId, created.senderId, 'MESSAGE_ARRIVED');
    });
    return created;
  });
  return record;
}

async function findOwnMessage(ctx: ServiceContext, rawId: unknown): Promise<Message> {
  const viewerId = requireViewer(ctx);
  const id = parseId(rawId);
  const message = id ? await ctx.em.findOne(Message, { id, $or: [{ sender: viewerId }, { receiver: viewerId }] }) : null;
  if (!message) throw AppError.notFound('Message');
  if (message.sender.id !== viewerId) throw AppError.forbidden();
  return message;
}

export async function editMessage(ctx: ServiceContext, rawId: unknown, text: unknown): Promise<MessageRecord> {
  const message = await findOwnMessage(ctx, rawId);
  const before = messageData(message);
  message.text = validText(text);
  message.updatedAt = new Date();
  let record!: MessageRecord;
  await flushWithEvents(
    ctx,
    () => webhookEvent.message('UPDATED', message, before),
    () => publish(ctx, 'UPDATED', (record = toMessageRecord(message)), record),
  );
  return record;
}

export async function deleteMessage(ctx: ServiceContext, rawId: unknown): Promise<number> {
  const message = await findOwnMessage(ctx, rawId);
  const record = toMessageRecord(message);
  const event = webhookEvent.message('DELETED', message);
  // The row, the conversation counts and the webhook event change together; a second, concurrent delete of it changes nothing.
  await ctx.em.transactional(async (em) => {
    const deleted = await em.nativeDelete(Message, { id: record.id });
    const unreadChanged = deleted > 0 && (await recordDeleted(em, record));
    await recordEvents(ctx, em, deleted > 0 ? [event] : [], () => {
      publish(ctx, 'DELETED', record);
      if (unreadChanged) publishUnread(ctx, record.receiverId, record.senderId, 'MESSAGE_DELETED');
    });
  });
  ctx.em.clear();
  return record.id;
}

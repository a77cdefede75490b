import { AppError } from '../errors.js';
import { Message, User } from '../entities/index.js';
import { hasErrors, validateMessage } from '../validation/rules.js';
import { parseId, requireViewer, type ServiceContext } from './context.js';
import type { MessageRecord } from './records.js';
import type { ChangeKind } from '../realtime/events.js';
import { flushWithEvents, messageData, webhookEvent } from '../webhooks/outbox.js';

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
  if (withUserId != null && !partner) throw AppError.validation({ withUserId: ['Invalid user id.'] });
  const where = partner
    ? { $or: [{ sender: viewerId, receiver: partner }, { sender: partner, receiver: viewerId }] }
    : { $or: [{ sender: viewerId }, { receiver: viewerId }] };
  const messages = await ctx.em.find(Message, where, { orderBy: { id: 'asc' } });
  return messages.map(toMessageRecord);
}

export async function sendMessage(ctx: ServiceContext, rawReceiverId: unknown, text: unknown): Promise<MessageRecord> {
  const viewerId = requireViewer(ctx);
  const receiverId = parseId(rawReceiverId);
  const receiver = receiverId ? await ctx.em.findOne(User, receiverId) : null;
  if (!receiver) throw AppError.notFound('Receiver');
  if (receiver.id === viewerId) throw AppError.validation({ receiver: ['You cannot send a message to yourself.'] });
  const message = ctx.em.create(Message, { sender: ctx.em.getReference(User, viewerId), receiver, text: validText(text), createdAt: new Date(), updatedAt: new Date() });
  await flushWithEvents(ctx, () => webhookEvent.message('CREATED', message));
  const record = toMessageRecord(message);
  publish(ctx, 'CREATED', record, record);
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
  await flushWithEvents(ctx, () => webhookEvent.message('UPDATED', message, before));
  const record = toMessageRecord(message);
  publish(ctx, 'UPDATED', record, record);
  return record;
}

export async function deleteMessage(ctx: ServiceContext, rawId: unknown): Promise<number> {
  const message = await findOwnMessage(ctx, rawId);
  const record = toMessageRecord(message);
  const event = webhookEvent.message('DELETED', message);
  ctx.em.remove(message);
  await flushWithEvents(ctx, () => event);
  publish(ctx, 'DELETED', record);
  return record.id;
}

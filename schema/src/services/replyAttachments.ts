/**
 * Files on the public conversation (docs/email.md "Limits"): an agent's reply to the requester carries up
 * to LIMITS.replyAttachments.max files, images (PNG, JPEG, GIF, WebP, checked as ticket images are) or PDF, each at
 * most LIMITS.imageBytes; a requester's answer carries images within the ticket's image limits. A note never has
 * one. Every file's type is detected from its bytes; the name is kept as the client gave it (a plain name only), without format or control characters (fileName.ts).
 *
 * Agents read a file through the ticket access rule (services/ticketAccess.ts: another agent's file is NOT_FOUND);
 * the requester side reads only through the requester's token (services/requesterView.ts).
 */
import { fileTypeFromBuffer } from 'file-type';
import type { Em } from '../database.js';
import { AppError } from '../errors.js';
import { LIMITS, MESSAGES, validAttachmentName } from '../validation/rules.js';
import { parseId, type ServiceContext } from './context.js';
import { storedFileName } from './fileName.js';
import { checkImage } from './images.js';
import * as ticketAccess from './ticketAccess.js';

/** A file as a transport received it: the client's name and the bytes. */
export interface IncomingFile {
  filename: unknown;
  data: Buffer | null | undefined;
}

export interface CheckedAttachment {
  filename: string;
  mimeType: string;
  byteSize: number;
  data: Buffer;
}

/** What the timeline shows of an attachment (no bytes). */
export interface AttachmentRecord {
  id: number;
  filename: string;
  mimeType: string;
  byteSize: number;
  /** The agent's address of the file: /attachments/<id> (served under the ticket access rule). */
  url: string;
}

const refuse = (field: string, message: string) => new AppError('BAD_USER_INPUT', message, { fields: { [field]: [message] } });

/**
 * Checks the files of one reply (or, with `imagesOnly`, one requester answer): how many, each one's name, size and
 * type by its bytes. Refusals are BAD_USER_INPUT naming `field`.
 */
export async function checkAttachments(
  files: readonly IncomingFile[] | null | undefined,
  field = 'attachments',
  imagesOnly = false,
): Promise<CheckedAttachment[]> {
  if (!files || files.length === 0) return [];
  if (files.length > LIMITS.replyAttachments.max) throw refuse(field, imagesOnly ? MESSAGES.imageCount : MESSAGES.attachmentCount);
  const checked: CheckedAttachment[] = [];
  for (const file of files) {
    if (!validAttachmentName(file.filename)) throw refuse(field, MESSAGES.attachmentName);
    // Stored without format characters (bidi overrides, zero-width): a name of nothing else is refused.
    const filename = storedFileName(file.filename as string);
    if (!validAttachmentName(filename)) throw refuse(field, MESSAGES.attachmentName);
    const data = file.data;
    if (!data || data.length === 0) throw refuse(field, imagesOnly ? MESSAGES.imageType : MESSAGES.attachmentType);
    if (data.length > LIMITS.imageBytes) throw refuse(field, imagesOnly ? MESSAGES.imageSize : MESSAGES.attachmentSize);
    const detected = await fileTypeFromBuffer(data);
    if (detected?.mime === 'application/pdf' && !imagesOnly) {
      checked.push({ filename, mimeType: 'application/pdf', byteSize: data.length, data });
      continue;
    }
    try {
      const image = await checkImage(data);
      checked.push({ filename, mimeType: image.mimeType, byteSize: data.length, data });
    } catch (error) {
      if (error instanceof AppError) {
        const message = error.message === MESSAGES.imageType && !imagesOnly ? MESSAGES.attachmentType : error.message;
        throw refuse(field, message);
      }
      throw error;
    }
  }
  return checked;
}

/** A reply_attachments row as the readers select it (the agent's timeline here, the requester page in requesterView.ts). */
export interface AttachmentRow {
  id: number | string;
  reply_id: number | string | null;
  requester_message_id: number | string | null;
  filename: string;
  mime_type: string;
  byte_size: number | string;
}

const toRecord = (r: AttachmentRow): AttachmentRecord => ({
  id: Number(r.id),
  filename: r.filename,
  mimeType: r.mime_type,
  byteSize: Number(r.byte_size),
  url: `/attachments/${Number(r.id)}`,
});

/**
 * The attachments of these replies and requester messages (ones the caller has read under the access rule), in
 * upload order; one statement for a page of the timeline.
 */
export async function attachmentsOf(
  em: Em,
  ids: { replyIds: readonly number[]; messageIds: readonly number[] },
): Promise<{ replies: Map<number, AttachmentRecord[]>; messages: Map<number, AttachmentRecord[]> }> {
  const replies = new Map<number, AttachmentRecord[]>();
  const messages = new Map<number, AttachmentRecord[]>();
  const parts: string[] = [];
  const bindings: number[] = [];
  if (ids.replyIds.length) {
    parts.push(`reply_id in (${ids.replyIds.map(() => '?').join(', ')})`);
    bindings.push(...ids.replyIds);
  }
  if (ids.messageIds.length) {
    parts.push(`requester_message_id in (${ids.messageIds.map(() => '?').join(', ')})`);
    bindings.push(...ids.messageIds);
  }
  if (!parts.length) return { replies, messages };
  const rows = await em
    .getConnection()
    .execute<AttachmentRow[]>(
      `select id, reply_id, requester_message_id, filename, mime_type, byte_size from reply_attachments where ${parts.join(' or ')} order by id`,
      bindings,
    );
  for (const r of rows) {
    const [map, key] = r.reply_id != null ? [replies, Number(r.reply_id)] : [messages, Number(r.requester_message_id)];
    const list = map.get(key) ?? [];
    list.push(toRecord(r));
    map.set(key, list);
  }
  return { replies, messages };
}

export interface AttachmentData {
  filename: string;
  mimeType: string;
  data: Buffer;
}

/** An attachment's bytes for an agent who may read its ticket (services/ticketAccess.ts); NOT_FOUND otherwise. */
export async function attachmentData(ctx: ServiceContext, rawId: unknown): Promise<AttachmentData> {
  const scope = await ticketAccess.scopeOf(ctx);
  const id = parseId(rawId);
  const access = ticketAccess.readSql(scope);
  const rows = id
    ? await ctx.em
        .getConnection()
        .execute<{ filename: string; mime_type: string; data: Buffer | Uint8Array }[]>(
          `select a.filename, a.mime_type, a.data from reply_attachments a join tickets t on t.id = a.ticket_id where a.id = ? and ${access.sql}`,
          [id, ...access.bindings],
        )
    : [];
  const row = rows[0];
  if (!row) throw AppError.notFound('Attachment');
  return { filename: row.filename, mimeType: row.mime_type, data: Buffer.from(row.data) };
}

import { Entity, Index, ManyToOne, PrimaryKey, Property, type Opt } from '@mikro-orm/core';
import { Ticket } from './Ticket.js';
import { User } from './User.js';

/**
 * An agent's public reply to the ticket's requester: a timeline entry (its REPLY_ADDED event) and one
 * mail. `deliveryState` is QUEUED (in the mail outbox), SENT, FAILED (retries exhausted) or NOT_CONFIGURED (no mail
 * server: kept, not emailed). `mailMessageId` is the mail's Message-ID (the thread's References use it).
 */
@Entity({ tableName: 'ticket_replies' })
@Index({ name: 'ticket_replies_ticket_id_id_index', properties: ['ticket', 'id'] })
export class TicketReply {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  // No single-column index: ticket_replies_ticket_id_id_index leads with ticket_id.
  @ManyToOne(() => Ticket, { fieldName: 'ticket_id', deleteRule: 'cascade', index: false })
  ticket!: Ticket;

  @ManyToOne(() => User, { fieldName: 'author_id', deleteRule: 'restrict', index: 'ticket_replies_author_id_index' })
  author!: User;

  @Property({ type: 'text' })
  body!: string;

  /** The requester's address when the reply was written. */
  @Property({ type: 'string', length: 255 })
  toEmail!: string;

  @Property({ type: 'string', length: 255 })
  mailMessageId!: string;

  @Property({ type: 'string', length: 16 })
  deliveryState!: string;

  @Property({ type: 'integer' })
  deliveryAttempts!: number;

  @Property({ type: 'text', nullable: true })
  deliveryLastResponse?: string | null;

  @Property({ type: 'Date' })
  createdAt: Opt<Date> = new Date();
}

/** What the requester sent: from the requester page (via REQUESTER_PAGE) or by mail (EMAIL, services/incomingMail.ts). */
@Entity({ tableName: 'requester_messages' })
export class RequesterMessage {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne(() => Ticket, { fieldName: 'ticket_id', deleteRule: 'cascade', index: 'requester_messages_ticket_id_index' })
  ticket!: Ticket;

  @Property({ type: 'string', length: 255 })
  fromEmail!: string;

  @Property({ type: 'text' })
  body!: string;

  @Property({ type: 'string', length: 16 })
  via!: string;

  /** Held for review (incoming mail from another sender, failing DMARC, or automatic); never from the requester page. */
  @Property({ type: 'boolean' })
  held!: boolean;

  /** A held message an agent discarded: a tombstone, its text and files removed. */
  @Property({ type: 'Date', nullable: true })
  discardedAt?: Date | null;

  @Property({ type: 'Date' })
  createdAt: Opt<Date> = new Date();
}

/**
 * A ticket's requester link: the token is HMAC(server secret, ticket id and `nonce`); only its SHA-256 is stored
 * (to find the ticket of a token). Revoking the link draws a new nonce.
 */
@Entity({ tableName: 'requester_links' })
export class RequesterLink {
  @ManyToOne(() => Ticket, { fieldName: 'ticket_id', deleteRule: 'cascade', primary: true, index: false })
  ticket!: Ticket;

  @Property({ type: 'string', length: 64 })
  nonce!: string;

  @Property({ type: 'string', length: 64, unique: 'requester_links_token_hash_unique' })
  tokenHash!: string;

  /** The page shows the ticket's public entries after this seq: 0, or where the ticket's requester last changed. */
  @Property({ type: 'integer', default: 0 })
  shownAfterSeq: Opt<number> = 0;

  @Property({ type: 'Date' })
  createdAt: Opt<Date> = new Date();
}

/** One mail to send (the mail outbox): written in the reply's transaction, drained once by mail/sender.ts. */
@Entity({ tableName: 'mail_outbox' })
@Index({ name: 'mail_outbox_state_next_attempt_at_index', properties: ['state', 'nextAttemptAt'] })
export class MailOutboxEntry {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne(() => TicketReply, { fieldName: 'reply_id', deleteRule: 'cascade', index: 'mail_outbox_reply_id_index' })
  reply!: TicketReply;

  /** JSON: the mail as nodemailer takes it (from, to, subject, text, html, messageId, inReplyTo, references). */
  @Property({ type: 'text' })
  message!: string;

  /** pending or sending (claimed until nextAttemptAt); the row is deleted once sent or given up. */
  @Property({ type: 'string', length: 16 })
  state!: string;

  @Property({ type: 'integer' })
  attempts!: number;

  @Property({ type: 'Date' })
  nextAttemptAt!: Date;

  @Property({ type: 'Date' })
  createdAt: Opt<Date> = new Date();
}

/**
 * A file on the public conversation: attached to an agent's reply (`reply`) or to a requester's answer
 * (`requesterMessage`), never to a note. The type is detected from the bytes at upload.
 */
@Entity({ tableName: 'reply_attachments' })
export class ReplyAttachment {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne(() => Ticket, { fieldName: 'ticket_id', deleteRule: 'cascade', index: 'reply_attachments_ticket_id_index' })
  ticket!: Ticket;

  @ManyToOne(() => TicketReply, { fieldName: 'reply_id', deleteRule: 'cascade', nullable: true, index: 'reply_attachments_reply_id_index' })
  reply?: TicketReply | null;

  @ManyToOne(() => RequesterMessage, {
    fieldName: 'requester_message_id',
    deleteRule: 'cascade',
    nullable: true,
    index: 'reply_attachments_requester_message_id_index',
  })
  requesterMessage?: RequesterMessage | null;

  @Property({ type: 'string', length: 255 })
  filename!: string;

  @Property({ type: 'string', length: 64 })
  mimeType!: string;

  @Property({ type: 'integer' })
  byteSize!: number;

  @Property({ type: 'blob', lazy: true })
  data!: Buffer;

  @Property({ type: 'Date' })
  createdAt: Opt<Date> = new Date();
}

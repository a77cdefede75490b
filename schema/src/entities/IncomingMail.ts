import { Entity, Index, ManyToOne, PrimaryKey, Property, Unique, type Opt } from '@mikro-orm/core';
import { RequesterMessage } from './RequesterReplies.js';
import { Ticket } from './Ticket.js';

/**
 * One mail the SMTP listener accepted (services/incomingMail.ts): kept whatever became of it (a new
 * ticket, a message on a thread, a held message, a loop recorded and not answered). `messageId` with `contentHash` is
 * unique: on several gateways each accepted mail becomes one entry once, and a different mail reusing a Message-ID is
 * an entry of its own (mail/messageId.ts). The full original is kept (`raw`) with its parsed
 * text and its sanitised HTML, "a click away" from the message; `auth` is the SPF/DKIM/DMARC result (JSON).
 */
@Entity({ tableName: 'incoming_mails' })
@Index({ name: 'incoming_mails_outcome_id_index', properties: ['outcome', 'id'] })
@Unique({ name: 'incoming_mails_message_id_content_hash_unique', properties: ['messageId', 'contentHash'] })
export class IncomingMail {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  /** The mail's Message-ID, or one derived from its content hash when it has no usable one. */
  @Property({ type: 'string', length: 255 })
  messageId!: string;

  /** SHA-256 (hex) of its From, Subject, Date and body (mail/messageId.ts); '' for mail recorded before it was kept. */
  @Property({ type: 'string', length: 64, default: '' })
  contentHash: Opt<string> = '';

  @ManyToOne(() => Ticket, { fieldName: 'ticket_id', deleteRule: 'set null', nullable: true, index: 'incoming_mails_ticket_id_index' })
  ticket?: Ticket | null;

  @ManyToOne(() => RequesterMessage, {
    fieldName: 'requester_message_id',
    deleteRule: 'set null',
    nullable: true,
    index: 'incoming_mails_requester_message_id_index',
  })
  requesterMessage?: RequesterMessage | null;

  /** TICKET (a new ticket), THREAD (a message on a ticket), HELD (held on a ticket) or LOOP (recorded only). */
  @Property({ type: 'string', length: 16 })
  outcome!: string;

  /** Why it is held or only recorded: SENDER (not the requester), DMARC (DMARC fail), LOOP (auto-reply, bounce). */
  @Property({ type: 'string', length: 16, nullable: true })
  reason?: string | null;

  /** Why an automatic mail is automatic (`Precedence: list`, `Auto-Submitted: auto-replied`...), else null. */
  @Property({ type: 'string', length: 200, nullable: true })
  cause?: string | null;

  @Property({ type: 'string', length: 255 })
  fromEmail!: string;

  @Property({ type: 'text' })
  subject!: string;

  /** JSON: { spf, dkim, dmarc } as mailauth judged them (null: not checked). */
  @Property({ type: 'text', nullable: true })
  auth?: string | null;

  /** The whole text of the mail (no quote stripping). */
  @Property({ type: 'text' })
  text!: string;

  /** The HTML part, sanitised (sanitize-html), or null. */
  @Property({ type: 'text', nullable: true })
  html?: string | null;

  @Property({ type: 'blob', lazy: true })
  raw!: Buffer;

  @Property({ type: 'Date' })
  createdAt: Opt<Date> = new Date();
}

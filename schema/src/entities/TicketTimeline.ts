import { Entity, Index, ManyToOne, PrimaryKey, Property, Unique, type Opt } from '@mikro-orm/core';
import { Ticket } from './Ticket.js';
import { User } from './User.js';

/**
 * One event of a ticket's record: append-only (a trigger refuses UPDATE and DELETE of its rows, see
 * Migration20261126130000TicketTimeline), written by services/changeLog.ts in the transaction of the change.
 * `ticket_id` is no foreign key: the record outlives the ticket. `seq` counts 1, 2, 3... per ticket without gaps
 * (allocated from `tickets.event_seq` under the ticket's row lock). `assignee_id` is the ticket's assignee at this
 * event: who may read the history once the ticket is gone (services/ticketAccess.ts). `changes` is JSON
 * `[{field, from, to}]` in GraphQL spelling; a note's event carries the note's id, never its text.
 */
@Entity({ tableName: 'ticket_events' })
@Unique({ name: 'ticket_events_ticket_id_seq_unique', properties: ['ticketId', 'seq'] })
export class TicketHistoryEvent {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @Property({ type: 'integer' })
  ticketId!: number;

  @Property({ type: 'integer' })
  seq!: number;

  @Property({ type: 'Date' })
  at!: Date;

  /** AGENT, API_TOKEN, SYSTEM or REQUESTER. */
  @Property({ type: 'string', length: 16 })
  actorKind!: string;

  /** The acting user (an API token's agent); null for the system. No foreign key: the record outlives the user. */
  @Property({ type: 'integer', nullable: true })
  actorId?: number | null;

  /** The actor's name, copied in. */
  @Property({ type: 'string', length: 255 })
  actorName!: string;

  /** The door: WEB, API_TOKEN, REST, SYSTEM, EMAIL or REQUESTER_PAGE. */
  @Property({ type: 'string', length: 16 })
  via!: string;

  /** CREATED, UPDATED, DELETED, NOTE_ADDED, NOTE_EDITED, NOTE_DELETED, REPLY_ADDED, MESSAGE_RECEIVED, HELD_ACCEPTED or HELD_DISCARDED. */
  @Property({ type: 'string', length: 16 })
  kind!: string;

  /** JSON: [{field, from, to}]. */
  @Property({ type: 'text' })
  changes!: string;

  @Property({ type: 'integer', nullable: true })
  noteId?: number | null;

  /** The reply a REPLY_ADDED event is about. */
  @Property({ type: 'integer', nullable: true })
  replyId?: number | null;

  /** The requester's message a MESSAGE_RECEIVED event is about. */
  @Property({ type: 'integer', nullable: true })
  requesterMessageId?: number | null;

  /** Who could read the ticket at this event: its assignee (0 for none)... */
  @Property({ type: 'integer' })
  assigneeId!: number;

  /** ...and its team's members (null: no team). */
  @Property({ type: 'integer', nullable: true })
  teamId?: number | null;
}

/**
 * An internal note on a ticket. Its body is null once deleted (the tombstone); its revisions go with the text. Its
 * place in the timeline is the seq of its NOTE_ADDED event (ticket_events.note_id).
 */
@Entity({ tableName: 'ticket_notes' })
export class TicketNote {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne(() => Ticket, { fieldName: 'ticket_id', deleteRule: 'cascade', index: 'ticket_notes_ticket_id_index' })
  ticket!: Ticket;

  @ManyToOne(() => User, { fieldName: 'author_id', deleteRule: 'restrict', index: 'ticket_notes_author_id_index' })
  author!: User;

  @Property({ type: 'text', nullable: true })
  body?: string | null;

  @Property({ type: 'Date' })
  createdAt: Opt<Date> = new Date();

  @Property({ type: 'Date', nullable: true })
  editedAt?: Date | null;

  @Property({ type: 'Date', nullable: true })
  deletedAt?: Date | null;
}

/** A note's text before one edit, by whom and when. Removed with the note's text when the note is deleted. */
@Entity({ tableName: 'ticket_note_revisions' })
@Index({ name: 'ticket_note_revisions_note_id_id_index', properties: ['note', 'id'] })
export class TicketNoteRevision {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne(() => TicketNote, { fieldName: 'note_id', deleteRule: 'cascade', index: false })
  note!: TicketNote;

  @ManyToOne(() => User, { fieldName: 'editor_id', deleteRule: 'restrict', index: 'ticket_note_revisions_editor_id_index' })
  editor!: User;

  /** The note's text before the edit. */
  @Property({ type: 'text' })
  body!: string;

  @Property({ type: 'Date' })
  createdAt: Opt<Date> = new Date();
}

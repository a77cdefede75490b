import { randomBytes } from 'node:crypto';
import { Entity, Enum, Index, ManyToOne, OneToOne, PrimaryKey, Property, type Opt } from '@mikro-orm/core';
import {
  DEFAULT_TICKET_PRIORITY,
  DEFAULT_TICKET_STATUS,
  DEFAULT_TICKET_TYPE,
  TICKET_PRIORITIES,
  TICKET_STATUSES,
  TICKET_TYPES,
  type TicketPriority,
  type TicketStatus,
  type TicketType,
} from '../validation/rules.js';
import { Customer } from './Customer.js';
import { Macro } from './Macro.js';
import { Team } from './Team.js';
import { User } from './User.js';
import type { TicketImage } from './TicketImage.js';

/** A new ticket's mail thread token (mail/threadRoot.ts): 128 random bits, 32 lower-case hex digits. */
export function newThreadToken(): string {
  return randomBytes(16).toString('hex');
}

@Entity({ tableName: 'tickets' })
/** The dashboard pages an agent's tickets newest first: (assignee_id, id) serves both the page and the count. */
@Index({ name: 'tickets_assignee_id_id_index', properties: ['assignee', 'id'] })
/** The filtered dashboard: one index range per (status, priority) for newest, oldest and priority order... */
@Index({ name: 'tickets_assignee_status_priority_id_index', properties: ['assignee', 'status', 'priority', 'id'] })
/** A status filter alone in id order (the web app's default, unsolved): one range per status... */
@Index({ name: 'tickets_assignee_status_id_index', properties: ['assignee', 'status', 'id'] })
/** ...and one per status for "last update" order (services/tickets.ts, listTickets). */
@Index({ name: 'tickets_assignee_status_updated_at_id_index', properties: ['assignee', 'status', 'updatedAt', 'id'] })
/** A team's tickets newest first (the "my teams" part of the access rule, services/ticketAccess.ts). */
@Index({ name: 'tickets_team_id_id_index', properties: ['team', 'id'] })
/** A team view (services/views.ts): one range per status in id, priority and "last update" order... */
@Index({ name: 'tickets_team_status_id_index', properties: ['team', 'status', 'id'] })
@Index({ name: 'tickets_team_status_priority_id_index', properties: ['team', 'status', 'priority', 'id'] })
@Index({ name: 'tickets_team_status_updated_at_id_index', properties: ['team', 'status', 'updatedAt', 'id'] })
/** ...and a team's unassigned tickets per status. */
@Index({ name: 'tickets_team_assignee_status_id_index', properties: ['team', 'assignee', 'status', 'id'] })
export class Ticket {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @Property({ type: 'string', length: 40 })
  title!: string;

  /** A mail's whole subject (up to 998 characters) as it came; null: the title is the subject (`Ticket.subject`). */
  @Property({ type: 'string', length: 998, nullable: true })
  subject?: string | null;

  /**
   * The held message that opened this ticket (a mail held for review on a new ticket), until an agent accepts it:
   * meanwhile the ticket has no requester side (no requester page, no reply mailed). Null for every other ticket.
   */
  @Property({ type: 'integer', nullable: true })
  heldOpeningMessageId?: number | null;

  @Enum({ items: () => [...TICKET_TYPES], type: 'string', length: 16, default: DEFAULT_TICKET_TYPE })
  type: TicketType = DEFAULT_TICKET_TYPE;

  @Enum({ items: () => [...TICKET_PRIORITIES], type: 'string', length: 16, default: DEFAULT_TICKET_PRIORITY })
  priority: TicketPriority = DEFAULT_TICKET_PRIORITY;

  @Enum({ items: () => [...TICKET_STATUSES], type: 'string', length: 16, default: DEFAULT_TICKET_STATUS })
  status: Opt<TicketStatus> = DEFAULT_TICKET_STATUS;

  // No single-column index: tickets_assignee_id_id_index leads with assignee_id.
  /** Null: an unassigned ticket of its team (a ticket without a team always has an assignee). */
  @ManyToOne(() => User, { fieldName: 'assignee_id', deleteRule: 'restrict', index: false, nullable: true })
  assignee?: User | null;

  /** Null: a private ticket of its assignee. */
  @ManyToOne(() => Team, { fieldName: 'team_id', deleteRule: 'restrict', nullable: true, index: false })
  team?: Team | null;

  @ManyToOne(() => Customer, { fieldName: 'requester_id', deleteRule: 'restrict', index: 'tickets_requester_id_index' })
  requester!: Customer;

  /** apply_macro; deleting a macro moves its tickets back to macro 1 (see MacroService). */
  @ManyToOne(() => Macro, { fieldName: 'macro_id', deleteRule: 'restrict', index: 'tickets_macro_id_index' })
  macro!: Macro;

  @Property({ type: 'text' })
  description!: string;

  @OneToOne('TicketImage', 'ticket', { nullable: true })
  image?: TicketImage | null;

  @Property({ type: 'Date', onCreate: () => new Date() })
  createdAt: Date = new Date();

  @Property({ type: 'Date', onCreate: () => new Date(), onUpdate: () => new Date() })
  updatedAt: Date = new Date();

  /**
   * The seq of the ticket's last event (ticket_events): services/changeLog.ts bumps it with UPDATE ... RETURNING in
   * the change's transaction, so concurrent writers of one ticket queue on its row lock and seqs have no gaps.
   */
  /**
   * Grows with every change of the ticket's own fields, status, team or assignee (not with notes): the
   * compare-and-set of assignTicket/takeTicket (services/assignment.ts).
   */
  @Property({ type: 'integer', default: 1 })
  version: Opt<number> = 1;

  @Property({ type: 'integer', default: 0 })
  eventSeq: Opt<number> = 0;

  /**
   * 128 random bits (32 hex digits) in the ticket's mail thread root `<ticket-<id>.<token>@host>` (mail/threadRoot.ts),
   * drawn when the ticket is created, so the root of a ticket is not a guess away. Null only for rows written
   * without the entity (the old sequential root, which only ever holds a mail).
   */
  @Property({ type: 'string', length: 32, nullable: true, onCreate: () => newThreadToken() })
  threadToken?: string | null;
}

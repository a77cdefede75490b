import { Field, Int, ObjectType, registerEnumType } from 'type-graphql';
import { GraphQLDateTime } from 'graphql-scalars';
import { MACRO_SHARINGS, ROLES, TICKET_ORDERS, TICKET_PRIORITIES, TICKET_STATUSES, TICKET_TYPES } from '../validation/rules.js';

export const TicketType = Object.fromEntries(TICKET_TYPES.map((t) => [t, t])) as { [K in (typeof TICKET_TYPES)[number]]: K };
export const TicketPriority = Object.fromEntries(TICKET_PRIORITIES.map((p) => [p, p])) as { [K in (typeof TICKET_PRIORITIES)[number]]: K };
export const TicketStatus = Object.fromEntries(TICKET_STATUSES.map((s) => [s, s])) as { [K in (typeof TICKET_STATUSES)[number]]: K };
export const TicketOrder = Object.fromEntries(TICKET_ORDERS.map((o) => [o, o])) as { [K in (typeof TICKET_ORDERS)[number]]: K };
export const Role = Object.fromEntries(ROLES.map((r) => [r, r])) as { [K in (typeof ROLES)[number]]: K };
export const MacroSharing = Object.fromEntries(MACRO_SHARINGS.map((s) => [s, s])) as { [K in (typeof MACRO_SHARINGS)[number]]: K };
export enum ChangeKind {
  CREATED = 'CREATED',
  UPDATED = 'UPDATED',
  DELETED = 'DELETED',
}

registerEnumType(TicketType, { name: 'TicketType', description: 'Question is the default.' });
registerEnumType(TicketPriority, { name: 'TicketPriority', description: 'Low is the default.' });
registerEnumType(ChangeKind, { name: 'ChangeKind' });
registerEnumType(Role, {
  name: 'Role',
  description: 'What an agent may do.',
  valuesConfig: {
    ADMIN: { description: 'Manages teams and roles; may read and change every ticket.' },
    AGENT: { description: 'Reads and changes the tickets assigned to them and those of their teams.' },
  },
});
registerEnumType(MacroSharing, {
  name: 'MacroSharing',
  description: 'Who may use a macro. Its author and admins edit and delete a shared macro; the others it is shared with use it.',
  valuesConfig: {
    PRIVATE: { description: 'Its author only.' },
    TEAM: { description: "The members of its team (`Macro.team`), one of the author's teams." },
    EVERYONE: { description: 'Every agent; set by an admin.' },
  },
});
registerEnumType(TicketStatus, {
  name: 'TicketStatus',
  description: 'Where a ticket stands. New tickets are OPEN.',
  valuesConfig: {
    OPEN: { description: 'Needs the agent.' },
    PENDING: { description: 'Waiting on the requester.' },
    SOLVED: { description: 'Done. Solved tickets leave the default (unsolved) dashboard list.' },
  },
});
registerEnumType(TicketOrder, {
  name: 'TicketOrder',
  description: 'The order of the ticket list. Ties are broken by id, newest first.',
  valuesConfig: {
    NEWEST: { description: 'Newest first (the default without a search).' },
    OLDEST: { description: 'Oldest first.' },
    PRIORITY: { description: 'Urgent, High, Medium, Low; newest first within each.' },
    UPDATED: { description: 'Most recently updated first.' },
    RELEVANCE: { description: 'Best match first (the default with a search); without a search it is NEWEST.' },
  },
});

// Every object type here is `simpleResolvers`: a plain field is read by graphql-js's default resolver instead of a
// type-graphql wrapper per field and row that only runs middlewares, and this schema has none (no global
// middlewares, no @UseMiddleware, no @Authorized). Field resolvers (@FieldResolver) are not affected.
@ObjectType({ simpleResolvers: true, description: 'A support agent. The password never appears in any response.' })
export class User {
  @Field(() => Int) id!: number;
  @Field(() => String) username!: string;
  @Field(() => String) email!: string;
}

@ObjectType({ simpleResolvers: true, description: 'A team of agents: every member may read and change the tickets of the team.' })
export class Team {
  @Field(() => Int) id!: number;
  @Field(() => String) name!: string;
  @Field(() => [Int], { description: "The members' user ids, ascending (their names: the users query)." }) memberIds!: number[];
  @Field(() => Boolean, {
    description:
      'Off by default. When on, each new ticket of the team created without an assignee goes to its member who is online with the fewest unsolved tickets of the team (ties: the lowest user id); nobody online leaves it unassigned. The assignment is a SYSTEM event of the ticket history.',
  })
  autoAssign!: boolean;
}

@ObjectType({ simpleResolvers: true, description: 'A ticket requester. The directory is shared: every agent sees every customer; only the owner changes one.' })
export class Customer {
  @Field(() => Int) id!: number;
  @Field(() => String) name!: string;
  @Field(() => String) email!: string;
  @Field(() => Int, { description: 'The id of the agent who created the customer; only they may edit or delete it.' }) ownerId!: number;
}

@ObjectType({ simpleResolvers: true, description: 'A canned-reply option. Macro 1, "No Macro", is built in, permanent and visible to all.' })
export class Macro {
  @Field(() => Int) id!: number;
  @Field(() => String) name!: string;
  @Field(() => String) description!: string;
  @Field(() => Int, { nullable: true, description: 'The owning agent; null for the built-in macro 1.' }) ownerId!: number | null;
  @Field(() => MacroSharing, { description: 'Who may use it: PRIVATE (its author), TEAM (the members of `team`) or EVERYONE.' })
  sharing!: string;
}

@ObjectType({ simpleResolvers: true, description: "A ticket's image, served by the app to the ticket's agent." })
export class TicketImage {
  @Field(() => Int) id!: number;
  @Field(() => Int) ticketId!: number;
  @Field(() => String, { description: 'Detected from the bytes: image/png, image/jpeg, image/gif or image/webp.' }) mimeType!: string;
  @Field(() => Int) byteSize!: number;
  @Field(() => Int) width!: number;
  @Field(() => Int) height!: number;
}

@ObjectType({
  simpleResolvers: true,
  description: 'A support ticket; an agent sees the tickets assigned to them and those of their teams, an admin every ticket.',
})
export class Ticket {
  @Field(() => Int) id!: number;
  @Field(() => String) title!: string;
  @Field(() => TicketType) type!: string;
  @Field(() => TicketPriority) priority!: string;
  @Field(() => TicketStatus, { description: 'OPEN, PENDING (waiting on the requester) or SOLVED; change it with setTicketStatus.' }) status!: string;
  @Field(() => String) description!: string;
  @Field(() => Int, { nullable: true, description: 'The assigned agent; null for an unassigned ticket of a team.' }) assigneeId!: number | null;
  @Field(() => Int, { nullable: true, description: 'The team; null for a private ticket of its assignee.' }) teamId!: number | null;
  @Field(() => Int, {
    description:
      "Grows with every change of the ticket's own fields, status, team or assignee (not notes): the expectedVersion of assignTicket and takeTicket.",
  })
  version!: number;
  @Field(() => Int) requesterId!: number;
  @Field(() => Int, { description: 'The id of the macro applied to the ticket; 1 is "No Macro".' }) macroId!: number;
  @Field(() => TicketImage, { nullable: true }) image!: TicketImage | null;
  @Field(() => GraphQLDateTime) createdAt!: Date;
  @Field(() => GraphQLDateTime) updatedAt!: Date;
}

@ObjectType({ simpleResolvers: true, description: 'How many of your tickets match the filter apart from its status part, per status.' })
export class TicketStatusCounts {
  @Field(() => Int, { description: 'OPEN tickets.' }) open!: number;
  @Field(() => Int, { description: 'PENDING tickets.' }) pending!: number;
  @Field(() => Int, { description: 'SOLVED tickets.' }) solved!: number;
}

@ObjectType({ simpleResolvers: true, description: 'A one-to-one message between two agents.' })
export class Message {
  @Field(() => Int) id!: number;
  @Field(() => Int) senderId!: number;
  @Field(() => Int) receiverId!: number;
  @Field(() => String) text!: string;
  @Field(() => GraphQLDateTime) createdAt!: Date;
  @Field(() => GraphQLDateTime) updatedAt!: Date;
}

@ObjectType({ simpleResolvers: true, description: 'A message was sent, edited or deleted in a conversation of yours.' })
export class MessageEvent {
  @Field(() => ChangeKind) kind!: ChangeKind;
  @Field(() => Int) id!: number;
  @Field(() => Int) senderId!: number;
  @Field(() => Int) receiverId!: number;
  @Field(() => Message, { nullable: true, description: 'Absent when deleted.' }) message!: Message | null;
}

@ObjectType({ simpleResolvers: true, description: 'The fields a ticket list filters and counts on, at one moment.' })
export class TicketFacets {
  @Field(() => TicketStatus, { description: 'The status at that moment.' }) status!: string;
  @Field(() => TicketPriority, { description: 'The priority at that moment.' }) priority!: string;
  @Field(() => TicketType, { description: 'The type at that moment.' }) type!: string;
  @Field(() => Int, { description: 'The requester (customer id) at that moment.' }) requesterId!: number;
}

@ObjectType({ simpleResolvers: true, description: 'One of your tickets was created, edited or deleted.' })
export class TicketEvent {
  @Field(() => ChangeKind) kind!: ChangeKind;
  @Field(() => Int) id!: number;
  @Field(() => Ticket, { nullable: true, description: 'Absent when deleted.' }) ticket!: Ticket | null;
  @Field(() => TicketFacets, {
    nullable: true,
    description:
      "Status, priority, type and requester before this change (UPDATED and DELETED; null when the change did not touch the ticket's own fields). With `current`, a client keeps filtered lists and per-status counts exact.",
  })
  previous!: TicketFacets | null;
  @Field(() => TicketFacets, {
    nullable: true,
    description: 'The same fields right after this change (null when deleted or unknown); `ticket` is read when the event is sent and may be newer.',
  })
  current!: TicketFacets | null;
}

@ObjectType({ simpleResolvers: true, description: 'A customer of the shared directory was created, edited or deleted.' })
export class CustomerEvent {
  @Field(() => ChangeKind) kind!: ChangeKind;
  @Field(() => Int) id!: number;
  @Field(() => Customer, { nullable: true, description: 'Absent when deleted.' }) customer!: Customer | null;
}

@ObjectType({ simpleResolvers: true, description: 'One of your macros was created, edited or deleted.' })
export class MacroEvent {
  @Field(() => ChangeKind) kind!: ChangeKind;
  @Field(() => Int) id!: number;
  @Field(() => Macro, { nullable: true, description: 'Absent when deleted.' }) macro!: Macro | null;
}

@ObjectType({ simpleResolvers: true, description: 'What deleting a macro changed: the macro gone, and the tickets that moved to macro 1.' })
export class DeletedMacro {
  @Field(() => Int) id!: number;
  @Field(() => [Int], { description: 'Tickets that used the macro and now use macro 1.' }) movedTicketIds!: number[];
}

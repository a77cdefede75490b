/**
 * The GraphQL types of a ticket's timeline: its enums (filter, change kind, actor, door, delivery state), the entry
 * object types (note, change, reply, requester message, with their parts), the TimelineEntry union and the page
 * types. Types only: the resolvers are in graphql/timeline.ts (the ticket's fields, queries and mutations) and
 * graphql/timelineEntries.ts (each entry type's own fields); the rules are in the services.
 */
import { ArgsType, Extensions, Field, Int, ObjectType, createUnionType, registerEnumType } from 'type-graphql';
import { GraphQLDateTime } from 'graphql-scalars';
import { TRACKED_FIELDS } from '../services/changeLog.js';
import { requesterReplies, ticketTimeline } from '../services/index.js';
import { ACTOR_KINDS, CHANGE_SOURCES } from '../services/context.js';
import type { TicketChangeRecord, TimelineEntryRecord } from '../services/ticketTimeline.js';
import { PageArgs, PageInfo } from './connection.js';

const enumOf = <T extends string>(values: readonly T[]) => Object.fromEntries(values.map((v) => [v, v])) as { [K in T]: K };

export const TimelineFilter = enumOf(ticketTimeline.TIMELINE_FILTERS);
export const TicketChangeKind = enumOf(['CREATED', 'UPDATED', 'DELETED', 'NOTE_EDITED', 'NOTE_DELETED', 'HELD_ACCEPTED', 'HELD_DISCARDED'] as const);
export const ActorKind = enumOf(ACTOR_KINDS);
export const ChangeSource = enumOf(CHANGE_SOURCES);
export const DeliveryState = enumOf(requesterReplies.DELIVERY_STATES);

registerEnumType(TimelineFilter, {
  name: 'TimelineFilter',
  description: 'Which entries of a timeline to list.',
  valuesConfig: {
    ALL: { description: 'Every entry: notes and changes (the default).' },
    NOTES: { description: 'The notes only.' },
    CHANGES: { description: 'The changes only.' },
    REPLIES: { description: "The public conversation only: the agents' replies and the requester's messages." },
  },
});
registerEnumType(TicketChangeKind, {
  name: 'TicketChangeKind',
  description: 'What a change did. A status change is UPDATED with a `status` field change. Later versions may add kinds.',
  valuesConfig: {
    CREATED: { description: "The ticket was created; `changes` holds every field's first value." },
    UPDATED: { description: 'Fields of the ticket changed (an edit, a status, a new image, its macro deleted); `changes` holds each one.' },
    DELETED: { description: "The ticket was deleted: its record's last entry." },
    NOTE_EDITED: { description: 'A note was edited (its text before is one of its `revisions`).' },
    NOTE_DELETED: { description: 'A note was deleted; its text is gone, the note stays as a tombstone.' },
    HELD_ACCEPTED: { description: 'An agent accepted a held mail: it joined the public conversation.' },
    HELD_DISCARDED: { description: 'An agent discarded a held mail: its text and files are gone, it stays as a tombstone.' },
  },
});
registerEnumType(ActorKind, {
  name: 'ActorKind',
  description: 'Who made a change.',
  valuesConfig: {
    AGENT: { description: 'An agent, signed in.' },
    API_TOKEN: { description: 'An API token, acting as its agent (`user`).' },
    SYSTEM: { description: 'The help desk itself.' },
    REQUESTER: { description: "The ticket's requester (through the requester page, or by mail in a later version)." },
  },
});
registerEnumType(ChangeSource, {
  name: 'ChangeSource',
  description: 'The door a change came through. New doors add values.',
  valuesConfig: {
    WEB: { description: 'GraphQL with a session cookie (the web app).' },
    API_TOKEN: { description: 'GraphQL with an API token (Authorization: Bearer).' },
    REST: { description: 'The legacy JSON facade of this server, whose routes and shapes never change.' },
    SYSTEM: { description: 'No caller: the help desk itself.' },
    EMAIL: { description: "The requester's mail (a later version receives mail)." },
    REQUESTER_PAGE: { description: "The requester's page (/r/<token>), reached from the link in every reply." },
  },
});
registerEnumType(DeliveryState, {
  name: 'DeliveryState',
  description: "Where a reply's mail is.",
  valuesConfig: {
    QUEUED: { description: 'In the mail outbox: being sent, or waiting for its next attempt.' },
    SENT: { description: 'The mail server accepted it (its answer is `lastResponse`).' },
    FAILED: { description: 'Every attempt failed; the last answer is `lastResponse`. The reply stays on the requester page.' },
    NOT_CONFIGURED: { description: 'Not emailed: no mail server is configured (SMTP_URL). The requester page still shows it.' },
    BOUNCED: {
      description:
        'Sent, then returned: a bounce of it came back (its Diagnostic-Code, else its Status, is `lastResponse`). The bounce is a held LOOP message on the ticket.',
    },
  },
});

@ObjectType({ simpleResolvers: true, description: "One field's change: its previous and new value, as this schema spells them." })
export class FieldChange {
  @Field(() => String, {
    description:
      "The GraphQL field name: `title`, `type`, `priority`, `status`, `requesterId`, `macroId`, `teamId`, `assigneeId`, `description` or `image`; or `requester.email`, a change of the requester's email (updateCustomer), in each of their tickets.",
  })
  field!: string;
  @Field(() => String, {
    nullable: true,
    description: 'The value before (enum values as the schema spells them, ids as decimal strings, `image` as its id); null when it had none.',
  })
  from!: string | null;
  @Field(() => String, { nullable: true, description: 'The value after, spelled the same way; null when it has none.' })
  to!: string | null;
}

@ObjectType({ simpleResolvers: true, description: 'Who made a change. The name is copied into the record: it survives the actor.' })
export class Actor {
  @Field(() => ActorKind, { description: 'An agent, an API token, the system or the requester.' })
  kind!: string;
  @Field(() => String, { description: "The actor's name when the change was made." })
  name!: string;
  userId!: number | null;
}

@ObjectType({ simpleResolvers: true, description: "A note's text before one edit: who edited it, when, and what it said." })
export class NoteRevision {
  @Field(() => Int, { description: 'The revision id.' })
  id!: number;
  @Field(() => String, { description: 'The note text before that edit, exactly as it was stored.' })
  body!: string;
  @Field(() => GraphQLDateTime, { description: 'When the edit was made.' })
  at!: Date;
  editorId!: number;
}

@ObjectType({ simpleResolvers: true, description: "An internal note on a ticket: only the ticket's agents read it; the requester never does." })
export class TicketNote {
  @Field(() => Int, { description: 'The note id.' })
  id!: number;
  @Field(() => Int, { description: "The note's place in the ticket's timeline: the seq of its creation." })
  seq!: number;
  @Field(() => GraphQLDateTime, { description: 'When the note was added (ISO time).' })
  at!: Date;
  @Field(() => String, { nullable: true, description: 'The text, exactly as written (Markdown; render it safely); null once the note is deleted.' })
  body!: string | null;
  @Field(() => GraphQLDateTime, { nullable: true, description: 'When the note was last edited; null if never.' })
  editedAt!: Date | null;
  @Field(() => GraphQLDateTime, { nullable: true, description: 'When the note was deleted; null while it is not.' })
  deletedAt!: Date | null;
  authorId!: number;
}

@ObjectType({ simpleResolvers: true, description: "One entry of a ticket's event record other than a note's creation." })
export class TicketChange {
  @Field(() => Int, { description: "The entry's number in the ticket's record: 1, 2, 3... without gaps." })
  seq!: number;
  @Field(() => GraphQLDateTime, { description: 'When the change was committed (ISO time).' })
  at!: Date;
  @Field(() => Actor, { description: 'Who made it.' })
  actor!: Actor;
  @Field(() => ChangeSource, { description: 'The door it came through.' })
  via!: string;
  @Field(() => TicketChangeKind, { description: 'What it did.' })
  kind!: string;
  // At most one change per tracked field: the cost model prices the list at that bound (`maxItems`).
  @Extensions({ maxItems: TRACKED_FIELDS.length })
  @Field(() => [FieldChange], {
    description: `Each field it changed, in a fixed order, at most ${TRACKED_FIELDS.length} (empty for a deletion and for note events).`,
  })
  changes!: FieldChange[];
  @Field(() => Int, { nullable: true, description: 'The note a NOTE_EDITED or NOTE_DELETED entry is about; null otherwise.' })
  noteId!: number | null;
  @Field(() => Int, {
    nullable: true,
    description: "The requester's message (RequesterMessage.id) a HELD_ACCEPTED or HELD_DISCARDED entry is about; null otherwise.",
  })
  requesterMessageId!: number | null;
}

@ObjectType({ simpleResolvers: true, description: "A reply's mail: its state, how many attempts were made and the mail server's last answer." })
export class ReplyDelivery {
  @Field(() => DeliveryState, { description: 'Queued, sent, failed, or not emailed (no mail server configured).' })
  state!: string;
  @Field(() => Int, { description: 'Attempts made so far.' })
  attempts!: number;
  @Field(() => String, { nullable: true, description: "The mail server's last answer (or the error), if any attempt was made." })
  lastResponse!: string | null;
}

@ObjectType({ simpleResolvers: true, description: "A file of the public conversation: on an agent's reply (mailed with it) or a requester's answer." })
export class ReplyAttachment {
  @Field(() => Int, { description: 'The attachment id.' })
  id!: number;
  @Field(() => String, { description: 'The file name, as uploaded.' })
  filename!: string;
  @Field(() => String, { description: 'The type, detected from the bytes: image/png, image/jpeg, image/gif, image/webp or application/pdf.' })
  mimeType!: string;
  @Field(() => Int, { description: 'The size in bytes (at most 5 MB).' })
  byteSize!: number;
  @Field(() => String, { description: "The file's address for the ticket's agents (/attachments/<id>; another agent gets 404)." })
  url!: string;
}

@ObjectType({ simpleResolvers: true, description: "An agent's public reply to the ticket's requester: emailed to them and shown on their page." })
export class TicketReply {
  @Field(() => Int, { description: 'The reply id.' })
  id!: number;
  @Field(() => Int, { description: "The reply's place in the ticket's timeline." })
  seq!: number;
  @Field(() => GraphQLDateTime, { description: 'When the reply was written (ISO time).' })
  at!: Date;
  @Field(() => String, { description: 'The text, exactly as written (sent as plain text and escaped HTML).' })
  body!: string;
  @Field(() => ReplyDelivery, { description: "Where the reply's mail is." })
  delivery!: ReplyDelivery;
  authorId!: number;
}

@ObjectType({
  simpleResolvers: true,
  description: 'What the requester sent: from the requester page, or by mail (then with its authentication and original).',
})
export class RequesterMessage {
  @Field(() => Int, { description: 'The message id.' })
  id!: number;
  @Field(() => Int, { description: "The message's place in the ticket's timeline." })
  seq!: number;
  @Field(() => GraphQLDateTime, { description: 'When it arrived (ISO time).' })
  at!: Date;
  @Field(() => String, { description: "The requester's address." })
  fromEmail!: string;
  @Field(() => String, { description: 'The text, exactly as sent (plain text).' })
  body!: string;
  @Field(() => ChangeSource, { description: 'How it came: REQUESTER_PAGE or EMAIL.' })
  via!: string;
  @Field(() => Boolean, {
    description: 'Held for an agent (mail from another sender, failing DMARC, or automatic: `heldReason`); never on the requester page until accepted.',
  })
  held!: boolean;
}

const ENTRY_TYPES = { note: 'TicketNote', change: 'TicketChange', reply: 'TicketReply', requesterMessage: 'RequesterMessage' } as const;

export const TimelineEntry = createUnionType({
  name: 'TimelineEntry',
  description: "One entry of a ticket's timeline: a note (its creation), a change, a public reply or a requester's message. Every entry has `seq` and `at`.",
  types: () => [TicketNote, TicketChange, TicketReply, RequesterMessage] as const,
  resolveType: (entry) => ENTRY_TYPES[(entry as unknown as TimelineEntryRecord).entry],
});

@ObjectType({ simpleResolvers: true, description: "One page of a ticket's timeline, newest entry first." })
export class TimelineEntryConnection {
  @Field(() => Int, { description: 'How many entries the whole timeline holds (after the filter), not just this page.' })
  totalCount!: number;
  @Field(() => [TimelineEntry], { description: "This page's entries, newest first." })
  nodes!: TimelineEntryRecord[];
  @Field(() => PageInfo, { description: 'Where this page ends, and whether another follows.' })
  pageInfo!: PageInfo;
}

@ObjectType({ simpleResolvers: true, description: "One page of a ticket's change history, newest first." })
export class TicketChangeConnection {
  @Field(() => Int, { description: 'How many changes the whole history holds, not just this page.' })
  totalCount!: number;
  @Field(() => [TicketChange], { description: "This page's changes, newest first." })
  nodes!: TicketChangeRecord[];
  @Field(() => PageInfo, { description: 'Where this page ends, and whether another follows.' })
  pageInfo!: PageInfo;
}

@ArgsType()
export class TimelineArgs extends PageArgs {
  @Field(() => TimelineFilter, {
    nullable: true,
    defaultValue: 'ALL',
    description: 'Every entry (default), the notes only, the changes only, or the public conversation only.',
  })
  filter!: ticketTimeline.TimelineFilter | null;
}

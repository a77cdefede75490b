/**
 * A ticket's timeline over GraphQL (issue 24): the entry types, `Ticket.timeline`, `ticketHistory`, the note
 * mutations and `ticketTimelineEvents`. Thin: every rule is in services/ticketTimeline.ts (reads, notes) and
 * services/changeLog.ts (the event record); who may read is services/ticketAccess.ts.
 */
import {
  Arg,
  Args,
  ArgsType,
  Ctx,
  Extensions,
  Field,
  FieldResolver,
  Int,
  Mutation,
  ObjectType,
  Query,
  Resolver,
  Root,
  Subscription,
  createUnionType,
  registerEnumType,
} from 'type-graphql';
import { GraphQLDateTime } from 'graphql-scalars';
import { GraphQLUpload, type FileUpload } from 'graphql-upload-minimal';
import { forkEm } from '../database.js';
import { TRACKED_FIELDS } from '../services/changeLog.js';
import { pageSize } from '../services/connection.js';
import { requesterLinks, requesterReplies, ticketAccess, ticketTimeline } from '../services/index.js';
import type { RequesterMessageRecord } from '../services/requesterReplies.js';
import { MAX_MAIL_ATTACHMENTS } from '../services/incomingMail.js';
import { LIMITS } from '../validation/rules.js';
import { readUploadFiles } from './upload.js';
import type { TicketReplyRecord } from '../services/requesterReplies.js';
import { requireViewer, ACTOR_KINDS, CHANGE_SOURCES, type ServiceContext } from '../services/context.js';
import type { NoteRevisionRecord, TicketChangeRecord, TicketNoteRecord, TimelineEntryRecord } from '../services/ticketTimeline.js';
import type { TicketRecord } from '../records/index.js';
import type { TimelineSignal } from '../realtime/events.js';
import type { GraphQLContext } from './context.js';
import { PageArgs, PageInfo, toConnection } from './connection.js';
import { Ticket, TicketStatus, User } from './types.js';

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
  },
});

@ObjectType({ simpleResolvers: true, description: "One field's change: its previous and new value, as this schema spells them." })
export class FieldChange {
  @Field(() => String, {
    description: 'The GraphQL field name: `title`, `type`, `priority`, `status`, `requesterId`, `macroId`, `assigneeId`, `description` or `image`.',
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
  description: 'What the requester sent: from the requester page, or by mail (issue 26: then with its authentication and original).',
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

@Resolver(() => Ticket)
export class TicketTimelineResolver {
  @FieldResolver(() => TimelineEntryConnection, {
    description: "The ticket's notes and changes, newest first, one page at a time; `after` pages to older entries.",
  })
  async timeline(@Root() ticket: TicketRecord, @Args(() => TimelineArgs) args: TimelineArgs, @Ctx() { service, loaders }: GraphQLContext) {
    const page = await ticketTimeline.ticketTimeline(service, ticket.id, args);
    loaders.primeUsers(page.people);
    return toConnection(page);
  }

  @FieldResolver(() => String, {
    description:
      "The address of this ticket's requester page (/r/<token>): the same every time until revoked (revokeRequesterLink). Anyone holding it sees the title, status and public conversation, and can answer.",
  })
  requesterLink(@Root() ticket: TicketRecord, @Ctx() { service }: GraphQLContext) {
    return requesterLinks.requesterLink(service, ticket.id);
  }

  @FieldResolver(() => Boolean, {
    description: "Whether the requester's last message is unanswered: the last entry of the public conversation is the requester's.",
  })
  awaitingReply(@Root() ticket: TicketRecord, @Ctx() { loaders }: GraphQLContext) {
    return loaders.awaitingReply.load(ticket.id);
  }

  @Mutation(() => TicketReply, {
    description:
      "Replies to the ticket's requester: a public timeline entry, emailed to them (its `delivery` follows the mail, its files as attachments) and shown on their page. 1 to 10,000 characters.",
  })
  async replyToRequester(
    @Arg('ticketId', () => Int, { description: 'One of your tickets.' }) ticketId: number,
    @Arg('body', () => String, { description: 'The text (plain), 1 to 10,000 characters.' }) body: string,
    @Arg('attachments', () => [GraphQLUpload], {
      nullable: true,
      description: `Files sent with the reply: at most ${LIMITS.replyAttachments.max}, each a PNG, JPEG, GIF, WebP or PDF file of at most 5 MB (the type is read from the bytes).`,
    })
    attachments: (Promise<FileUpload> | null)[] | null,
    @Arg('setStatus', () => TicketStatus, {
      nullable: true,
      description: "Send and set Pending/Solved: the ticket's new status, changed in the reply's transaction (one history entry each).",
    })
    setStatus: string | null,
    @Ctx() { service }: GraphQLContext,
  ) {
    const files = await readUploadFiles(attachments, 'attachments', LIMITS.replyAttachments.max);
    return requesterReplies.replyToRequester(service, ticketId, body, files, setStatus);
  }

  @Mutation(() => String, {
    description: "Revokes the ticket's requester link: the old address shows nothing from now on. Returns the new address (also `Ticket.requesterLink`).",
  })
  revokeRequesterLink(@Arg('ticketId', () => Int, { description: 'One of your tickets.' }) ticketId: number, @Ctx() { service }: GraphQLContext) {
    return requesterLinks.revokeRequesterLink(service, ticketId);
  }

  @Query(() => TicketChangeConnection, {
    description:
      "The change history of one of your tickets, newest first, one page at a time; also once the ticket is deleted. Another agent's ticket, or an unknown id, is NOT_FOUND.",
  })
  async ticketHistory(
    @Arg('ticketId', () => Int, { description: 'The ticket id (it may be deleted).' }) ticketId: number,
    @Args(() => PageArgs) page: PageArgs,
    @Ctx() { service, loaders }: GraphQLContext,
  ) {
    const history = await ticketTimeline.ticketHistory(service, ticketId, page);
    loaders.primeUsers(history.people);
    return toConnection(history);
  }

  @Mutation(() => TicketNote, { description: 'Adds an internal note to one of your tickets (1 to 10,000 characters, stored exactly as sent).' })
  addTicketNote(
    @Arg('ticketId', () => Int, { description: 'One of your tickets.' }) ticketId: number,
    @Arg('body', () => String, { description: 'The text (Markdown), 1 to 10,000 characters.' }) body: string,
    @Ctx() { service }: GraphQLContext,
  ) {
    return ticketTimeline.addTicketNote(service, ticketId, body);
  }

  @Mutation(() => TicketNote, { description: 'Edits one of your notes; the text before is kept as a revision.' })
  editTicketNote(
    @Arg('id', () => Int, { description: 'One of your notes (not deleted).' }) id: number,
    @Arg('body', () => String, { description: 'The new text, 1 to 10,000 characters.' }) body: string,
    @Ctx() { service }: GraphQLContext,
  ) {
    return ticketTimeline.editTicketNote(service, id, body);
  }

  @Mutation(() => TicketNote, { description: 'Deletes one of your notes: its text and revisions are removed, a tombstone stays in the timeline.' })
  deleteTicketNote(@Arg('id', () => Int, { description: 'One of your notes (not deleted).' }) id: number, @Ctx() { service }: GraphQLContext) {
    return ticketTimeline.deleteTicketNote(service, id);
  }

  @Subscription(() => TicketReply, {
    description:
      "The replies of one of your tickets whose mail changed state (sent, failed, retried), each with its `delivery` now. Another agent's ticket is NOT_FOUND.",
    subscribe: ({ args, context }) => replyDeliveryStream((context as GraphQLContext).service, args as { ticketId: number }),
  })
  replyDeliveryEvents(
    @Root() reply: TicketReplyRecord,
    @Arg('ticketId', () => Int, { description: 'One of your tickets.' }) _ticketId: number,
  ): TicketReplyRecord {
    return reply;
  }

  @Subscription(() => TimelineEntry, {
    description:
      "The entries of one of your tickets as they are committed, by any client and door. Pass the last `seq` you hold as `afterSeq` (after a reconnect): every later entry arrives once, in order, with no gap. Without it, only new entries. Another agent's ticket is NOT_FOUND.",
    subscribe: ({ args, context }) => timelineStream((context as GraphQLContext).service, args as { ticketId: number; afterSeq?: number | null }),
  })
  ticketTimelineEvents(
    @Root() entry: TimelineEntryRecord,
    @Arg('ticketId', () => Int, { description: 'One of your tickets.' }) _ticketId: number,
    @Arg('afterSeq', () => Int, { nullable: true, description: 'The last seq you hold; entries after it are sent first.' }) _afterSeq: number | null,
  ): TimelineEntryRecord {
    return entry;
  }
}

/** The revisions a note shows by default (priced at this many by the cost model). */
const REVISIONS_SHOWN = 10;

@Resolver(() => TicketNote)
export class TicketNoteResolver {
  @FieldResolver(() => User, { description: 'Who wrote the note.' })
  author(@Root() note: TicketNoteRecord, @Ctx() { loaders }: GraphQLContext) {
    return loaders.userNow(note.authorId);
  }

  @FieldResolver(() => [NoteRevision], { description: 'The texts before each edit, newest first; empty once the note is deleted.' })
  async revisions(
    @Root() note: TicketNoteRecord,
    @Arg('first', () => Int, {
      nullable: true,
      defaultValue: REVISIONS_SHOWN,
      description: `How many of the newest revisions to return, 1 to 100 (default ${REVISIONS_SHOWN}); every revision is kept.`,
    })
    first: number | null,
    @Ctx() { loaders }: GraphQLContext,
  ) {
    const n = pageSize(first ?? REVISIONS_SHOWN);
    return (await loaders.noteRevisions.load(note.id)).slice(0, n);
  }
}

@Resolver(() => TicketChange)
export class TicketChangeResolver {
  @FieldResolver(() => TicketNote, {
    nullable: true,
    description:
      'The note a NOTE_EDITED or NOTE_DELETED entry is about, as it is now (a deleted note as its tombstone): a live client takes the new text from here. Null for other kinds.',
  })
  note(@Root() change: TicketChangeRecord, @Ctx() { loaders }: GraphQLContext) {
    return change.noteId == null ? null : loaders.noteOfTicket.load({ ticketId: change.ticketId, noteId: change.noteId });
  }
}

@Resolver(() => TicketReply)
export class TicketReplyResolver {
  @FieldResolver(() => User, { description: 'The agent who wrote the reply.' })
  author(@Root() reply: TicketReplyRecord, @Ctx() { loaders }: GraphQLContext) {
    return loaders.userNow(reply.authorId);
  }

  @Extensions({ maxItems: LIMITS.replyAttachments.max })
  @FieldResolver(() => [ReplyAttachment], { description: `The files sent with the reply, in upload order (at most ${LIMITS.replyAttachments.max}).` })
  attachments(@Root() reply: TicketReplyRecord, @Ctx() { loaders }: GraphQLContext) {
    return loaders.replyAttachments.load(reply.id);
  }
}

@Resolver(() => RequesterMessage)
export class RequesterMessageResolver {
  // The cost model prices the list at its bound: a mailed message keeps more files than the requester page takes.
  @Extensions({ maxItems: Math.max(LIMITS.replyAttachments.max, MAX_MAIL_ATTACHMENTS) })
  @FieldResolver(() => [ReplyAttachment], {
    description: `The files the requester sent with the message, in upload order: at most ${LIMITS.replyAttachments.max} images from the requester page, ${MAX_MAIL_ATTACHMENTS} files by mail.`,
  })
  attachments(@Root() message: RequesterMessageRecord, @Ctx() { loaders }: GraphQLContext) {
    return loaders.messageAttachments.load(message.id);
  }
}

@Resolver(() => NoteRevision)
export class NoteRevisionResolver {
  @FieldResolver(() => User, { description: 'Who made the edit.' })
  editor(@Root() revision: NoteRevisionRecord, @Ctx() { loaders }: GraphQLContext) {
    return loaders.user.load(revision.editorId);
  }
}

@Resolver(() => Actor)
export class ActorResolver {
  @FieldResolver(() => User, { nullable: true, description: "The acting agent (an API token's agent); null for the system." })
  user(@Root() actor: TicketChangeRecord['actor'], @Ctx() { loaders }: GraphQLContext) {
    return actor.userId == null ? null : loaders.userNow(actor.userId);
  }
}

/** A context of its own for one read of a live stream (its own unit of work, the viewer's identity). */
function readerOf(service: ServiceContext, viewerId: number): () => ServiceContext {
  return () => ({ em: forkEm(service.deps.orm), viewerId, deps: service.deps, clientIp: service.clientIp, via: service.via, token: service.token });
}

/** The delivery changes of one ticket's replies, each reply re-read (with its state now) under the viewer's rights. */
async function replyDeliveryStream(service: ServiceContext, args: { ticketId: number }): Promise<AsyncIterable<TicketReplyRecord>> {
  const viewerId = requireViewer(service);
  const reader = readerOf(service, viewerId);
  const source = ticketAccess.subscribeReplyDelivery(service.deps.bus, viewerId);
  let pending = source.next();
  try {
    await ticketTimeline.lastTimelineSeq(reader(), args.ticketId); // the access check: NOT_FOUND before it starts
  } catch (error) {
    await source.return?.();
    throw error;
  }
  async function* replies(): AsyncGenerator<TicketReplyRecord> {
    try {
      for (;;) {
        const signal = await pending;
        if (signal.done) return;
        pending = source.next();
        if (signal.value.ticketId !== args.ticketId) continue;
        try {
          yield await requesterReplies.replyRecord(reader(), signal.value.replyId);
        } catch {
          // The ticket left the viewer (deleted, reassigned): nothing to send.
        }
      }
    } finally {
      await source.return?.();
    }
  }
  return replies();
}

/** At most this many entries per catch-up read. */
const CATCH_UP_BATCH = 100;

/**
 * The live timeline of one ticket: listens on the viewer's `timeline` topic first, then reads the entries after
 * `afterSeq` from the record, then follows the topic, reading the record after the last seq sent on each signal
 * (so an entry whose signal was lost or came out of order is still sent, and none twice). Ends after the ticket's
 * DELETED entry. Each read has its own unit of work, under the viewer's identity and the access policy.
 */
async function timelineStream(service: ServiceContext, args: { ticketId: number; afterSeq?: number | null }): Promise<AsyncIterable<TimelineEntryRecord>> {
  const viewerId = requireViewer(service);
  const reader = (): ServiceContext => ({
    em: forkEm(service.deps.orm),
    viewerId,
    deps: service.deps,
    clientIp: service.clientIp,
    via: service.via,
    token: service.token,
  });
  const source = ticketAccess.subscribeTimeline(service.deps.bus, viewerId);
  // Starts the listener now (the bus's iterator listens from its first `next`): nothing committed from here on is missed.
  let pending = source.next();
  let last: number;
  try {
    // Also the access check: another agent's ticket is NOT_FOUND before the subscription starts.
    const current = await ticketTimeline.lastTimelineSeq(reader(), args.ticketId);
    last = args.afterSeq ?? current;
  } catch (error) {
    await source.return?.();
    throw error;
  }
  async function* entries(): AsyncGenerator<TimelineEntryRecord> {
    try {
      for (;;) {
        let batch: TimelineEntryRecord[];
        do {
          batch = await ticketTimeline.timelineEntriesAfter(reader(), args.ticketId, last, CATCH_UP_BATCH);
          for (const entry of batch) {
            last = entry.seq;
            yield entry;
            if (entry.entry === 'change' && entry.kind === 'DELETED') return;
          }
        } while (batch.length === CATCH_UP_BATCH);
        let signal: IteratorResult<TimelineSignal>;
        do {
          signal = await pending;
          if (signal.done) return;
          pending = source.next();
        } while (signal.value.ticketId !== args.ticketId || signal.value.seq <= last);
      }
    } finally {
      await source.return?.();
    }
  }
  return entries();
}

export const TIMELINE_RESOLVERS = [
  TicketTimelineResolver,
  TicketNoteResolver,
  TicketChangeResolver,
  TicketReplyResolver,
  RequesterMessageResolver,
  NoteRevisionResolver,
  ActorResolver,
] as const;

/**
 * A ticket's timeline over GraphQL: `Ticket.timeline`, its requester link and `awaitingReply`, `ticketHistory`, the
 * note mutations, the reply to the requester, and the live subscriptions (`ticketTimelineEvents`,
 * `replyDeliveryEvents`). Thin: every rule is in services/ticketTimeline.ts (reads), services/ticketNotes.ts (notes),
 * services/requesterReplies.ts and services/changeLog.ts (the event record); who may read is
 * services/ticketAccess.ts. The types are in graphql/timelineTypes.ts, the entries' own fields in
 * graphql/timelineEntries.ts, the streams in graphql/timelineStreams.ts.
 */
import { Arg, Args, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import { GraphQLUpload, type FileUpload } from 'graphql-upload-minimal';
import { requesterLinks, requesterReplies, ticketNotes, ticketTimeline } from '../services/index.js';
import type { TicketReplyRecord } from '../services/requesterReplies.js';
import type { TimelineEntryRecord } from '../services/ticketTimeline.js';
import type { TicketRecord } from '../records/index.js';
import { LIMITS } from '../validation/rules.js';
import { readUploadFiles } from './upload.js';
import type { GraphQLContext } from './context.js';
import { PageArgs, toConnection } from './connection.js';
import { Ticket, TicketStatus } from './types.js';
import { TicketChangeConnection, TicketNote, TicketReply, TimelineArgs, TimelineEntry, TimelineEntryConnection } from './timelineTypes.js';
import {
  ActorResolver,
  NoteRevisionResolver,
  RequesterMessageResolver,
  TicketChangeResolver,
  TicketNoteResolver,
  TicketReplyResolver,
} from './timelineEntries.js';
import { replyDeliveryStream, timelineStream } from './timelineStreams.js';

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
    return ticketNotes.addTicketNote(service, ticketId, body);
  }

  @Mutation(() => TicketNote, { description: 'Edits one of your notes; the text before is kept as a revision.' })
  editTicketNote(
    @Arg('id', () => Int, { description: 'One of your notes (not deleted).' }) id: number,
    @Arg('body', () => String, { description: 'The new text, 1 to 10,000 characters.' }) body: string,
    @Ctx() { service }: GraphQLContext,
  ) {
    return ticketNotes.editTicketNote(service, id, body);
  }

  @Mutation(() => TicketNote, { description: 'Deletes one of your notes: its text and revisions are removed, a tombstone stays in the timeline.' })
  deleteTicketNote(@Arg('id', () => Int, { description: 'One of your notes (not deleted).' }) id: number, @Ctx() { service }: GraphQLContext) {
    return ticketNotes.deleteTicketNote(service, id);
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

export const TIMELINE_RESOLVERS = [
  TicketTimelineResolver,
  TicketNoteResolver,
  TicketChangeResolver,
  TicketReplyResolver,
  RequesterMessageResolver,
  NoteRevisionResolver,
  ActorResolver,
] as const;

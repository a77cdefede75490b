/**
 * The fields of each timeline entry type that are read on demand: a note's author and revisions, the note a note
 * event is about, a reply's author and files, a requester message's files, a revision's editor and an actor's
 * agent. Each goes through the request's loaders (one statement per kind and request, however many entries a page
 * holds); the types are in graphql/timelineTypes.ts.
 */
import { Arg, Ctx, Extensions, FieldResolver, Int, Resolver, Root } from 'type-graphql';
import { pageSize } from '../services/connection.js';
import type { RequesterMessageRecord, TicketReplyRecord } from '../services/requesterReplies.js';
import { MAX_MAIL_ATTACHMENTS } from '../services/incomingMail.js';
import type { NoteRevisionRecord, TicketChangeRecord, TicketNoteRecord } from '../services/ticketTimeline.js';
import { LIMITS } from '../validation/rules.js';
import type { GraphQLContext } from './context.js';
import { User } from './types.js';
import { Actor, NoteRevision, ReplyAttachment, RequesterMessage, TicketChange, TicketNote, TicketReply } from './timelineTypes.js';

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

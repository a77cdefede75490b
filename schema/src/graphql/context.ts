import DataLoader from 'dataloader';
import type { ServiceContext } from '../services/context.js';
import { customers, incomingMail, macros, replyAttachments, requesterReplies, teams, ticketTimeline, users } from '../services/index.js';
import type { CustomerRecord, MacroRecord, TeamRecord, UserRecord } from '../records/index.js';

/** Per-request batch loaders: a page of 50 tickets loads its requesters in one statement, not 50. */
export function createLoaders(service: ServiceContext) {
  const byIds = <T>(load: (ctx: ServiceContext, ids: readonly number[]) => Promise<Map<number, T>>) =>
    new DataLoader<number, T | null>(async (ids) => {
      const found = await load(service, ids);
      return ids.map((id) => found.get(id) ?? null);
    });
  // The users this request has loaded, by id: a field whose user is already here resolves without a promise, so
  // graphql-js completes its object synchronously (a timeline page of 50 entries preloads its authors and actors).
  const loadedUsers = new Map<number, UserRecord | null>();
  const user = new DataLoader<number, UserRecord | null>(async (ids) => {
    const found = await users.usersByIds(service, ids);
    return ids.map((id) => {
      const record = found.get(id) ?? null;
      loadedUsers.set(id, record);
      return record;
    });
  });
  return {
    user,
    /** Users read with something else (a timeline page's authors and actors): later fields take them at once. */
    primeUsers: (people: ReadonlyMap<number, UserRecord | null>) => {
      for (const [id, record] of people) {
        if (loadedUsers.has(id)) continue;
        loadedUsers.set(id, record);
        user.prime(id, record);
      }
    },
    /** The user, at once when this request has loaded it, else through `user`. */
    userNow: (id: number): UserRecord | null | Promise<UserRecord | null> => (loadedUsers.has(id) ? loadedUsers.get(id)! : user.load(id)),
    customer: byIds<CustomerRecord>(customers.customersByIds),
    macro: byIds<MacroRecord>(macros.macrosByIds),
    /** A page's tickets' teams (with their members) in two statements, not two per ticket. */
    team: byIds<TeamRecord>(teams.teamsByIds),
    /** The notes a page of change entries is about (key: ticket id and note id), one statement per ticket. */
    noteOfTicket: new DataLoader<{ ticketId: number; noteId: number }, ticketTimeline.TicketNoteRecord | null, string>(
      async (keys) => {
        const byTicket = new Map<number, number[]>();
        for (const k of keys) byTicket.set(k.ticketId, [...(byTicket.get(k.ticketId) ?? []), k.noteId]);
        const found = new Map<string, ticketTimeline.TicketNoteRecord>();
        for (const [ticketId, ids] of byTicket)
          for (const [id, note] of await ticketTimeline.notesOfTicket(service, ticketId, ids)) found.set(`${ticketId}:${id}`, note);
        return keys.map((k) => found.get(`${k.ticketId}:${k.noteId}`) ?? null);
      },
      { cacheKeyFn: (k) => `${k.ticketId}:${k.noteId}` },
    ),
    /** A page of timeline entries loads its notes' revisions in one statement. */
    /** A page of tickets learns which await a reply in one statement. */
    awaitingReply: new DataLoader<number, boolean>(async (ids) => {
      const found = await requesterReplies.awaitingReply(service, ids);
      return ids.map((id) => found.get(id) ?? false);
    }),
    /** The files of a page's replies, and of its requester messages, in one statement each. */
    replyAttachments: new DataLoader<number, replyAttachments.AttachmentRecord[]>(async (ids) => {
      const { replies } = await replyAttachments.attachmentsOf(service.em, { replyIds: ids, messageIds: [] });
      return ids.map((id) => replies.get(id) ?? []);
    }),
    messageAttachments: new DataLoader<number, replyAttachments.AttachmentRecord[]>(async (ids) => {
      const { messages } = await replyAttachments.attachmentsOf(service.em, { replyIds: [], messageIds: ids });
      return ids.map((id) => messages.get(id) ?? []);
    }),
    /** The mail details (authentication, held reason, subject) of a page's mailed messages, in one statement. */
    mailDetails: new DataLoader<number, incomingMail.MailDetailsRecord | null>(async (ids) => {
      const found = await incomingMail.mailDetailsOf(service.em, ids);
      return ids.map((id) => found.get(id) ?? null);
    }),
    noteRevisions: new DataLoader<number, ticketTimeline.NoteRevisionRecord[]>(async (ids) => {
      const found = await ticketTimeline.noteRevisions(service, ids);
      return ids.map((id) => found.get(id) ?? []);
    }),
  };
}

export interface GraphQLContext {
  service: ServiceContext;
  loaders: ReturnType<typeof createLoaders>;
}

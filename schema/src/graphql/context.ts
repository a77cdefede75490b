import DataLoader from 'dataloader';
import type { ServiceContext } from '../services/context.js';
import { customers, macros, requesterReplies, ticketTimeline, users } from '../services/index.js';
import type { CustomerRecord, MacroRecord, UserRecord } from '../records/index.js';

/** Per-request batch loaders: a page of 50 tickets loads its requesters in one statement, not 50. */
export function createLoaders(service: ServiceContext) {
  const byIds = <T>(load: (ctx: ServiceContext, ids: readonly number[]) => Promise<Map<number, T>>) =>
    new DataLoader<number, T | null>(async (ids) => {
      const found = await load(service, ids);
      return ids.map((id) => found.get(id) ?? null);
    });
  return {
    user: byIds<UserRecord>(users.usersByIds),
    customer: byIds<CustomerRecord>(customers.customersByIds),
    macro: byIds<MacroRecord>(macros.macrosByIds),
    /** A page of timeline entries loads its notes' revisions in one statement. */
    /** A page of tickets learns which await a reply in one statement. */
    awaitingReply: new DataLoader<number, boolean>(async (ids) => {
      const found = await requesterReplies.awaitingReply(service, ids);
      return ids.map((id) => found.get(id) ?? false);
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

/**
 * The live subscriptions of the records above (messages, tickets, customers, macros).
 */
import { Ctx, Resolver, Root, Subscription } from 'type-graphql';
import { filter, pipe } from '@graphql-yoga/subscription';
import { ticketAccess, tickets } from '../services/index.js';
import type { CustomerRecord, MacroRecord } from '../records/index.js';
import { requireViewer } from '../services/context.js';
import { reviveDates, type Change, type MessageChange, type TicketChange } from '../realtime/events.js';
import type { GraphQLContext } from './context.js';
import { ChangeKind, CustomerEvent, MacroEvent, MessageEvent, TicketEvent } from './types.js';

/**
 * Each subscription listens on the caller's own topic only, and every event is checked again against the
 * caller before it is sent (defence in depth: a wrong publish can never leak).
 */
@Resolver()
export class LiveResolver {
  @Subscription(() => MessageEvent, {
    description: 'Messages sent, edited or deleted in your conversations.',
    subscribe: ({ context }) => {
      const viewerId = requireViewer((context as GraphQLContext).service);
      return pipe(
        (context as GraphQLContext).service.deps.bus.subscribe('message', viewerId),
        filter((change: MessageChange) => change.senderId === viewerId || change.receiverId === viewerId),
      );
    },
  })
  messageEvents(@Root() change: MessageChange): MessageEvent {
    return {
      kind: change.kind as ChangeKind,
      id: change.id,
      senderId: change.senderId,
      receiverId: change.receiverId,
      message: change.record ? reviveDates(change.record) : null,
    };
  }

  @Subscription(() => TicketEvent, {
    description: 'Your tickets created, edited or deleted, by any client.',
    subscribe: ({ context }) => {
      const viewerId = requireViewer((context as GraphQLContext).service);
      return ticketAccess.subscribe((context as GraphQLContext).service.deps.bus, viewerId);
    },
  })
  async ticketEvents(@Root() change: TicketChange, @Ctx() { service }: GraphQLContext): Promise<TicketEvent> {
    const previous = change.previous ?? null;
    if (change.kind === 'DELETED') return { kind: ChangeKind.DELETED, id: change.id, ticket: null, previous, current: null };
    // Re-read through the service, which checks access again (the viewer's role and teams as they are now: each
    // delivered event has a context of its own, gateway/src/graphql/websockets.ts) and fills in what the event left out.
    service.em.clear();
    const ticket = await tickets.getTicket(service, change.id).catch(() => null);
    const record = change.record;
    const current = record ? { status: record.status, priority: record.priority, type: record.type, requesterId: record.requesterId } : null;
    // Gone since (deleted meanwhile): sent as the delete. It takes away what the client counted so far: the facets
    // before this update, or nothing for a ticket created and deleted before the client ever saw it. (The client
    // applies one delete per ticket, so the real DELETED event that follows changes nothing more.)
    if (!ticket) return { kind: ChangeKind.DELETED, id: change.id, ticket: null, previous: change.kind === 'UPDATED' ? previous : null, current: null };
    return { kind: change.kind as ChangeKind, id: change.id, ticket: ticket, previous: change.kind === 'UPDATED' ? previous : null, current };
  }

  @Subscription(() => CustomerEvent, {
    description: 'The shared customer directory changed.',
    subscribe: ({ context }) => {
      requireViewer((context as GraphQLContext).service);
      return (context as GraphQLContext).service.deps.bus.subscribe('customer');
    },
  })
  customerEvents(@Root() change: Change<CustomerRecord>): CustomerEvent {
    return { kind: change.kind as ChangeKind, id: change.id, customer: change.record ? reviveDates(change.record) : null };
  }

  @Subscription(() => MacroEvent, {
    description: 'Your macros created, edited or deleted.',
    subscribe: ({ context }) => {
      const viewerId = requireViewer((context as GraphQLContext).service);
      return pipe(
        (context as GraphQLContext).service.deps.bus.subscribe('macro', viewerId),
        filter((change: Change<MacroRecord>) => !change.record || change.record.ownerId === viewerId),
      );
    },
  })
  macroEvents(@Root() change: Change<MacroRecord>): MacroEvent {
    return { kind: change.kind as ChangeKind, id: change.id, macro: change.record ? reviveDates(change.record) : null };
  }
}

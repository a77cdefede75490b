import type { ApolloCache } from '@apollo/client';
import {
  addCustomerToList,
  addMacroToList,
  addMessageToLists,
  addTicketToList,
  isDeletingTicket,
  removeCustomer,
  removeMacro,
  removeMessage,
  moveTicketInLists,
  removeTicketFromList,
  syncMyTickets,
  type TicketFacets,
} from '../apollo/cachedLists';
import { graphql } from '../gql';
import type { ChangeKind } from '../gql/graphql';
import { clearTyping } from './presence';

/**
 * The four list subscriptions (unread counts: ./unread.tsx; presence and typing: ./presence.ts). Each selects the fragments of every screen that shows the entity, like the mutations
 * do, so Apollo normalizes a complete `Ticket:7` (an UPDATED event needs nothing more) and a list that gains it
 * can render it without a fetch.
 */
export const MESSAGE_EVENTS = graphql(`
  subscription LiveMessageEvents {
    messageEvents {
      kind
      id
      senderId
      receiverId
      message {
        id
        senderId
        receiverId
        ...MessageCard_message
      }
    }
  }
`);

export const TICKET_EVENTS = graphql(`
  subscription LiveTicketEvents {
    ticketEvents {
      kind
      id
      ticket {
        id
        ...TicketRow_ticket
        ...TicketDetail_ticket
        ...TicketForm_ticket
        ...TicketStatusControl_ticket
        ...TicketAssignment_ticket
        assigneeId
      }
      previous {
        status
        priority
        type
        requesterId
      }
      current {
        status
        priority
        type
        requesterId
      }
    }
  }
`);

export const CUSTOMER_EVENTS = graphql(`
  subscription LiveCustomerEvents {
    customerEvents {
      kind
      id
      customer {
        id
        ...CustomerRow_customer
        ...RequesterPicker_customer
      }
    }
  }
`);

export const MACRO_EVENTS = graphql(`
  subscription LiveMacroEvents {
    macroEvents {
      kind
      id
      macro {
        id
        ...MacroCard_macro
        ...TicketForm_macro
      }
    }
  }
`);

interface Change {
  kind: ChangeKind;
  id: number;
}

/**
 * Applying an event: the entity is already normalized (Apollo writes subscription results to the cache before
 * handing them on), so CREATED adds it to the cached lists and DELETED takes it out and evicts it, with the
 * helpers the mutations use. Repeats are harmless (the tab that made a change receives the event too).
 */
export function applyMessageEvent(cache: ApolloCache, event: Change & { senderId: number; receiverId: number }, meId: number): void {
  const parties = { id: event.id, senderId: event.senderId, receiverId: event.receiverId };
  if (event.kind === 'CREATED') {
    addMessageToLists(cache, parties);
    // Unread counts come from the server (unreadCountEvents); a sender whose message arrived has stopped typing it.
    if (event.receiverId === meId) clearTyping(event.senderId);
  } else if (event.kind === 'DELETED') {
    removeMessage(cache, event.id);
  }
}

/**
 * Tickets: CREATED joins the lists it matches; UPDATED moves the ticket between filtered lists and counts by its
 * facets before and after (a status change leaves the unsolved list in every tab); DELETED leaves them all.
 */
export function applyTicketEvent(
  cache: ApolloCache,
  event: Change & { previous?: TicketFacets | null; current?: TicketFacets | null; ticket?: { assigneeId?: number | null } | null },
  meId: number,
): void {
  if (event.kind === 'CREATED') addTicketToList(cache, event.id);
  else if (event.kind === 'UPDATED') {
    moveTicketInLists(cache, event.id, event.previous, event.current);
    // Taken or assigned (by anyone): the "My tickets" lists follow its assignee.
    if (event.ticket) syncMyTickets(cache, event.id, event.ticket.assigneeId === meId);
  }
  // The tab deleting it evicts it itself once it has left the ticket's screen.
  else if (event.kind === 'DELETED') removeTicketFromList(cache, event.id, { evict: !isDeletingTicket(event.id), previous: event.previous });
}

export function applyCustomerEvent(cache: ApolloCache, event: Change): void {
  if (event.kind === 'CREATED') addCustomerToList(cache, event.id);
  else if (event.kind === 'DELETED') removeCustomer(cache, event.id);
}

export function applyMacroEvent(cache: ApolloCache, event: Change): void {
  if (event.kind === 'CREATED') addMacroToList(cache, event.id);
  else if (event.kind === 'DELETED') removeMacro(cache, event.id);
}

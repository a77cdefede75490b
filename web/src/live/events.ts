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
  removeTicketFromList,
} from '../apollo/lists';
import { graphql } from '../gql';
import type { ChangeKind } from '../gql/graphql';
import { forgetMessage, noteIncoming } from './unread';

/**
 * The four subscriptions. Each selects the fragments of every screen that shows the entity, like the mutations
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
    if (event.receiverId === meId && event.senderId !== meId) noteIncoming(event.id, event.senderId);
  } else if (event.kind === 'DELETED') {
    removeMessage(cache, event.id);
    forgetMessage(event.id);
  }
}

export function applyTicketEvent(cache: ApolloCache, event: Change): void {
  if (event.kind === 'CREATED') addTicketToList(cache, event.id);
  // The tab deleting it evicts it itself once it has left the ticket's screen.
  else if (event.kind === 'DELETED') removeTicketFromList(cache, event.id, { evict: !isDeletingTicket(event.id) });
}

export function applyCustomerEvent(cache: ApolloCache, event: Change): void {
  if (event.kind === 'CREATED') addCustomerToList(cache, event.id);
  else if (event.kind === 'DELETED') removeCustomer(cache, event.id);
}

export function applyMacroEvent(cache: ApolloCache, event: Change): void {
  if (event.kind === 'CREATED') addMacroToList(cache, event.id);
  else if (event.kind === 'DELETED') removeMacro(cache, event.id);
}

import type { ApolloCache, Reference } from '@apollo/client';
import { NO_MACRO_ID } from '@fulcrum/schema/validation';

/**
 * The one way a change reaches the cached lists. A mutation's `update` and a live event (web/src/live/) call the
 * same helper after Apollo has normalized the entity (`Ticket:7`, ...), so edits need nothing here and a change
 * applied twice (the tab that made it gets its own event too) changes nothing the second time: every add checks
 * the id first, every remove is a filter.
 *
 * A list that is not cached yet (its screen was never opened) is left alone: `cache.modify` only visits fields
 * that exist, and the screen fetches the current list when it opens.
 */

type Refs = readonly Reference[];

/** A cached connection: its total and its nodes (pageInfo rides along untouched). */
interface ConnectionValue {
  totalCount: number;
  nodes: Refs;
}

const has = (list: Refs, ref: Reference) => list.some((item) => item.__ref === ref.__ref);

/** Query.tickets (newest first, one cursor-paginated connection): a new ticket goes on top and counts. */
export function addTicketToList(cache: ApolloCache, id: number): void {
  cache.modify<{ tickets: ConnectionValue }>({
    fields: {
      tickets(existing, { toReference }) {
        const connection = existing as ConnectionValue;
        const ref = toReference({ __typename: 'Ticket', id })!;
        if (has(connection.nodes, ref)) return existing;
        return { ...connection, totalCount: connection.totalCount + 1, nodes: [ref, ...connection.nodes] } as typeof existing;
      },
    },
  });
}

/**
 * Takes a deleted ticket out of Query.tickets (and the count). `evict` also drops `Ticket:{id}`; the detail screen
 * that deletes a ticket evicts only after it has left (a watched entity that vanishes is fetched again).
 */
export function removeTicketFromList(cache: ApolloCache, id: number, { evict }: { evict: boolean }): void {
  const ref = cache.identify({ __typename: 'Ticket', id });
  cache.modify<{ tickets: ConnectionValue }>({
    fields: {
      tickets(existing) {
        const connection = existing as ConnectionValue;
        const nodes = connection.nodes.filter((node) => node.__ref !== ref);
        if (nodes.length === connection.nodes.length) return existing;
        return { ...connection, totalCount: Math.max(0, connection.totalCount - 1), nodes } as typeof existing;
      },
    },
  });
  if (evict) evictEntity(cache, ref);
}

/** Tickets this tab is deleting right now: their detail screen evicts them itself, after navigating away. */
const ticketsBeingDeleted = new Set<number>();

export async function deletingTicket<T>(id: number, run: () => Promise<T>): Promise<T> {
  ticketsBeingDeleted.add(id);
  try {
    return await run();
  } finally {
    ticketsBeingDeleted.delete(id);
  }
}

export function isDeletingTicket(id: number): boolean {
  return ticketsBeingDeleted.has(id);
}

/**
 * Query.customers (the shared directory, newest first; one cached list per search): a new customer goes on top
 * of the directory and of each search it matches, and counts.
 */
export function addCustomerToList(cache: ApolloCache, id: number): void {
  prependToConnection(cache, 'customers', { __typename: 'Customer', id }, (search, readField, ref) => {
    const text = `${readField<string>('name', ref) ?? ''}\n${readField<string>('email', ref) ?? ''}`.toLowerCase();
    return text.includes(search.trim().toLowerCase());
  });
}

export function removeCustomer(cache: ApolloCache, id: number): void {
  const ref = cache.identify({ __typename: 'Customer', id });
  removeFromConnection(cache, 'customers', ref);
  evictEntity(cache, ref);
}

/** Query.macros (yours and macro 1, newest first). */
export function addMacroToList(cache: ApolloCache, id: number): void {
  prependToConnection(cache, 'macros', { __typename: 'Macro', id });
}

/**
 * A deleted macro leaves the list and the cache; the tickets that used it now use macro 1, "No Macro". The delete
 * mutation names those tickets; a live event does not, so then the cached tickets are searched for it.
 */
export function removeMacro(cache: ApolloCache, id: number, movedTicketIds: readonly number[] = cachedTicketsUsingMacro(cache, id)): void {
  const ref = cache.identify({ __typename: 'Macro', id });
  removeFromConnection(cache, 'macros', ref);
  for (const ticketId of movedTicketIds) {
    cache.modify({
      id: cache.identify({ __typename: 'Ticket', id: ticketId }),
      fields: {
        macroId: () => NO_MACRO_ID,
        macro: (_value, { toReference }) => toReference({ __typename: 'Macro', id: NO_MACRO_ID })!,
      },
    });
  }
  evictEntity(cache, ref);
}

function cachedTicketsUsingMacro(cache: ApolloCache, macroId: number): number[] {
  const macroRef = cache.identify({ __typename: 'Macro', id: macroId });
  const ids: number[] = [];
  for (const [key, value] of Object.entries(cache.extract() as Record<string, Record<string, unknown> | undefined>)) {
    if (!key.startsWith('Ticket:') || !value) continue;
    const macro = value.macro as Reference | undefined;
    if (value.macroId === macroId || macro?.__ref === macroRef) ids.push(value.id as number);
  }
  return ids;
}

export interface MessageParties {
  id: number;
  senderId: number;
  receiverId: number;
}

/**
 * Query.messages (oldest first): the whole list (`messages`) and any one-conversation list
 * (`messages({"withUserId":n})`) the message belongs to get it at the end.
 */
export function addMessageToLists(cache: ApolloCache, message: MessageParties): void {
  cache.modify<{ messages: Refs }>({
    fields: {
      messages(existing, { storeFieldName, toReference }) {
        const list = existing as Refs;
        const withUserId = conversationOf(storeFieldName);
        if (withUserId !== null && withUserId !== message.senderId && withUserId !== message.receiverId) return existing;
        const ref = toReference({ __typename: 'Message', id: message.id })!;
        if (has(list, ref)) return existing;
        return [...list, ref] as typeof existing;
      },
    },
  });
}

export function removeMessage(cache: ApolloCache, id: number): void {
  const ref = cache.identify({ __typename: 'Message', id });
  filterOut(cache, 'messages', ref);
  evictEntity(cache, ref);
}

/** `messages({"withUserId":2})` -> 2; plain `messages` -> null (every conversation). */
function conversationOf(storeFieldName: string): number | null {
  const open = storeFieldName.indexOf('(');
  if (open < 0) return null;
  try {
    const args = JSON.parse(storeFieldName.slice(open + 1, -1)) as { withUserId?: number | null };
    return args.withUserId ?? null;
  } catch {
    return null;
  }
}

type ReadField = <T>(field: string, from: Reference) => T | undefined;

/** The `search` a cached list was read with (`customers({"search":"ada"})`), or null. */
function searchOf(storeFieldName: string): string | null {
  const open = storeFieldName.indexOf('(');
  if (open < 0) return null;
  try {
    const args = JSON.parse(storeFieldName.slice(open + 1, -1)) as { search?: string | null };
    return args.search?.trim() ? args.search : null;
  } catch {
    return null;
  }
}

/** A new record on top of each cached list of a connection field (a searched list only when it matches). */
function prependToConnection(
  cache: ApolloCache,
  field: 'customers' | 'macros',
  entity: { __typename: string; id: number },
  matches?: (search: string, readField: ReadField, ref: Reference) => boolean,
): void {
  cache.modify({
    fields: {
      [field](existing: unknown, { toReference, storeFieldName, readField }: { toReference: (value: typeof entity) => Reference | undefined; storeFieldName: string; readField: ReadField }) {
        const connection = existing as ConnectionValue;
        const ref = toReference(entity)!;
        const search = searchOf(storeFieldName);
        if (has(connection.nodes, ref) || (search !== null && !matches?.(search, readField, ref))) return existing;
        return { ...connection, totalCount: connection.totalCount + 1, nodes: [ref, ...connection.nodes] };
      },
    },
  });
}

function removeFromConnection(cache: ApolloCache, field: 'customers' | 'macros', ref: string | undefined): void {
  cache.modify({
    fields: {
      [field](existing: unknown) {
        const connection = existing as ConnectionValue;
        const nodes = connection.nodes.filter((node) => node.__ref !== ref);
        if (nodes.length === connection.nodes.length) return existing;
        return { ...connection, totalCount: Math.max(0, connection.totalCount - 1), nodes };
      },
    },
  });
}

function filterOut(cache: ApolloCache, field: 'messages', ref: string | undefined): void {
  cache.modify<Record<string, Refs>>({
    fields: {
      [field](existing: Refs) {
        const kept = existing.filter((item) => item.__ref !== ref);
        return kept.length === existing.length ? existing : kept;
      },
    },
  });
}

function evictEntity(cache: ApolloCache, ref: string | undefined): void {
  if (!ref) return;
  if (cache.evict({ id: ref })) cache.gc();
}

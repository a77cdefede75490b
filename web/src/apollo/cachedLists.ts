import type { ApolloCache, Reference } from '@apollo/client';
import { NO_MACRO_ID } from '@fulcrum/schema/validation';
import { graphql } from '../gql';

/**
 * The one way a change reaches the cached lists. A mutation's `update` and a live event (web/src/live/) call the
 * same helper after Apollo has normalized the entity (`Ticket:7`, ...), so edits need nothing here and a change
 * applied twice (the tab that made it gets its own event too) changes nothing the second time: every add checks
 * the id first, every remove is a filter.
 *
 * A list that is not cached yet (its screen was never opened) is left alone: `cache.modify` only visits fields
 * that exist, and the screen fetches the current list when it opens.
 *
 * Nothing here re-implements the server's search or sort: where a record would join a searched list, or take a
 * place that only the server's order knows (priority, last update, relevance), the cached list is dropped instead
 * (`DELETE`), and a screen showing it fetches it again (Apollo refetches a watched query whose data went missing).
 * What stays local is what needs no server rule: taking a row out, the counts of the facets a list is keyed by
 * (equality on status, priority, type, requester), and a place in the number order (newest or oldest first).
 */

type Refs = readonly Reference[];

/** A cached connection: its total and its nodes (tickets also carry statusCounts). */
interface ConnectionValue {
  totalCount: number;
  statusCounts?: { open: number; pending: number; solved: number } & Record<string, unknown>;
  nodes: Refs;
  pageInfo?: { hasNextPage: boolean };
}

const has = (list: Refs, ref: Reference) => list.some((item) => item.__ref === ref.__ref);

/** What a ticket list filters and counts on (TicketFacets in the schema). */
export interface TicketFacets {
  status: string;
  priority: string;
  type: string;
  requesterId: number;
}

/** The key arguments of one cached `tickets` list (cache.ts: keyArgs filter and orderBy). */
interface ListArgs {
  filter?: {
    search?: string | null;
    status?: string[] | null;
    priority?: string[] | null;
    type?: string[] | null;
    requesterId?: number | null;
    assignedToMe?: boolean | null;
  } | null;
  orderBy?: string | null;
  /** A view's list: its scope is the server's. */
  viewId?: number | null;
}

/** `tickets:{"filter":{...},"orderBy":"NEWEST"}` -> its arguments; null when it cannot be read (left alone then). */
function listArgs(storeFieldName: string): ListArgs | null {
  const open = storeFieldName.indexOf('{');
  if (open < 0) return {};
  try {
    return JSON.parse(storeFieldName.slice(open)) as ListArgs;
  } catch {
    return null;
  }
}

const inList = (values: readonly string[] | null | undefined, value: string) => !values?.length || values.includes(value);

/** The list's filter apart from status and search. */
function matchesRest(facets: TicketFacets, filter: ListArgs['filter']): boolean {
  return (
    inList(filter?.priority, facets.priority) && inList(filter?.type, facets.type) && (filter?.requesterId == null || filter.requesterId === facets.requesterId)
  );
}

/** Orders by the ticket's number, where a row's place needs nothing but the ids the cache holds. */
const NUMBER_ORDERS = new Set(['NEWEST', 'OLDEST']);

/**
 * Moves one ticket between the cached ticket lists: out of those it stops matching, and the totals and per-status
 * counts follow from its facets before (`previous`) and after (`current`). Where it joins a list or may move in
 * it, the list keeps it only when its place is the number order's; a searched list, or one in another order, is
 * dropped and fetched again (see the top of this file).
 */
function moveTicket(cache: ApolloCache, id: number, previous: TicketFacets | null, current: TicketFacets | null): void {
  cache.modify<{ tickets: ConnectionValue }>({
    fields: {
      tickets(existing, { storeFieldName, toReference, DELETE }) {
        const args = listArgs(storeFieldName);
        if (!args) return existing;
        const connection = existing as ConnectionValue;
        const ref = toReference({ __typename: 'Ticket', id })!;
        const filter = args.filter;
        const searching = !!filter?.search?.trim();
        const order = args.orderBy ?? (searching ? 'RELEVANCE' : 'NEWEST');
        const present = has(connection.nodes, ref);
        // A view's list: whether a ticket is in its scope is the server's. One of its tickets changed: fetched again; a
        // ticket that joins it changes the view's live count, and the dashboard fetches the list again then.
        if (args.viewId != null) return present ? DELETE : existing;
        const restBefore = !!previous && matchesRest(previous, filter);
        const restAfter = !!current && matchesRest(current, filter);
        // Whether a search finds a ticket that is not in the list (to show, or to count by status) is the server's; so is
        // whether a ticket not in a "My tickets" list is assigned to the viewer (the event does not say).
        if ((searching || filter?.assignedToMe) && !present && (restBefore || restAfter)) return DELETE;
        const wasIn = restBefore && inList(filter?.status, previous.status);
        const isIn = restAfter && inList(filter?.status, current.status);
        // A place in an order other than the number's (priority, last update; relevance for a newcomer) is the server's.
        if (isIn && !NUMBER_ORDERS.has(order) && (!present || order !== 'RELEVANCE')) return DELETE;
        let nodes = connection.nodes;
        if (present && !isIn) nodes = nodes.filter((node) => node.__ref !== ref.__ref);
        if (isIn && !present) nodes = insertByNumber(nodes, ref, order === 'OLDEST', !!connection.pageInfo?.hasNextPage, id);
        let statusCounts = connection.statusCounts;
        if (statusCounts && (restBefore || restAfter)) {
          statusCounts = { ...statusCounts };
          if (restBefore) statusCounts[previous.status.toLowerCase() as 'open'] -= 1;
          if (restAfter) statusCounts[current.status.toLowerCase() as 'open'] += 1;
        }
        const totalCount = Math.max(0, connection.totalCount + (isIn ? 1 : 0) - (wasIn ? 1 : 0));
        if (nodes === connection.nodes && statusCounts === connection.statusCounts && totalCount === connection.totalCount) return existing;
        return { ...connection, nodes, statusCounts, totalCount };
      },
    },
  });
}

/** `Ticket:12` -> 12. */
const idOf = (ref: Reference) => Number(ref.__ref.slice(ref.__ref.indexOf(':') + 1));

/** Where the ticket goes by number; past the last loaded row of a list with more pages: not loaded yet. */
function insertByNumber(nodes: Refs, ref: Reference, oldestFirst: boolean, hasNextPage: boolean, id: number): Refs {
  const at = nodes.findIndex((node) => (oldestFirst ? idOf(node) > id : idOf(node) < id));
  if (at < 0) return hasNextPage ? nodes : [...nodes, ref];
  return [...nodes.slice(0, at), ref, ...nodes.slice(at)];
}

const LIST_FACETS = graphql(`
  fragment ListFacets_ticket on Ticket {
    status
    priority
    type
    requesterId
  }
`);

function facetsInCache(cache: ApolloCache, id: number): TicketFacets | null {
  try {
    const entity = cache.readFragment({ id: cache.identify({ __typename: 'Ticket', id }), fragment: LIST_FACETS });
    return entity ? { status: entity.status, priority: entity.priority, type: entity.type, requesterId: entity.requesterId } : null;
  } catch {
    return null; // not in the cache with all four fields
  }
}

/** Creates and deletes applied to the lists so far: the tab that made one gets its event too, and it must count once. */
const applied = new Set<string>();

/** A new ticket (normalized already, with its TicketRow fields) joins every cached list it matches, and their counts. */
export function addTicketToList(cache: ApolloCache, id: number): void {
  const facets = facetsInCache(cache, id);
  if (!facets || applied.has(`created:${id}`)) return;
  applied.add(`created:${id}`);
  moveTicket(cache, id, null, facets);
}

/** A ticket changed (live event): out of the lists it left, into those it joined, counts moved. */
export function moveTicketInLists(cache: ApolloCache, id: number, previous: TicketFacets | null | undefined, current: TicketFacets | null | undefined): void {
  if (!previous || !current || applied.has(`deleted:${id}`)) return;
  moveTicket(cache, id, previous, current);
}

/**
 * A ticket's assignee changed (a take or an assignment: its mutation's answer, or a live event): the "My tickets"
 * lists (`assignedToMe`) follow. One that holds it and it is no longer the viewer's loses the row and counts it no
 * more; one that does not hold it and it is now the viewer's is fetched again (its place and whether the search
 * finds it are the server's). Other lists keep it: the viewer may still read it (a ticket they may no longer read
 * arrives as a delete). Applied twice, the second time changes nothing.
 */
export function syncMyTickets(cache: ApolloCache, id: number, mine: boolean): void {
  const facets = facetsInCache(cache, id);
  if (!facets || applied.has(`deleted:${id}`)) return;
  cache.modify<{ tickets: ConnectionValue }>({
    fields: {
      tickets(existing, { storeFieldName, toReference, DELETE }) {
        const args = listArgs(storeFieldName);
        if (!args?.filter?.assignedToMe) return existing;
        const connection = existing as ConnectionValue;
        const ref = toReference({ __typename: 'Ticket', id })!;
        const present = has(connection.nodes, ref);
        const matches = matchesRest(facets, args.filter);
        if (!present) return mine && matches && inList(args.filter.status, facets.status) ? DELETE : existing;
        if (mine) return existing;
        const nodes = connection.nodes.filter((node) => node.__ref !== ref.__ref);
        const counted = matches && inList(args.filter.status, facets.status);
        let statusCounts = connection.statusCounts;
        if (statusCounts && matches) {
          statusCounts = { ...statusCounts };
          statusCounts[facets.status.toLowerCase() as 'open'] = Math.max(0, statusCounts[facets.status.toLowerCase() as 'open'] - 1);
        }
        return { ...connection, nodes, statusCounts, totalCount: Math.max(0, connection.totalCount - (counted ? 1 : 0)) };
      },
    },
  });
}

/**
 * Takes a deleted ticket out of every cached list and its counts (`previous`: its facets, from the live event, or
 * from the cache). `evict` also drops `Ticket:{id}`; the detail screen that deletes a ticket evicts only after it
 * has left (a watched entity that vanishes is fetched again).
 */
export function removeTicketFromList(cache: ApolloCache, id: number, { evict, previous }: { evict: boolean; previous?: TicketFacets | null }): void {
  const ref = cache.identify({ __typename: 'Ticket', id });
  if (!applied.has(`deleted:${id}`)) {
    const facets = previous ?? facetsInCache(cache, id);
    if (facets) {
      applied.add(`deleted:${id}`);
      moveTicket(cache, id, facets, null);
    } else {
      // Where it was counted is unknown here: the rows go now, the counts with the live event (it carries them).
      cache.modify<{ tickets: ConnectionValue }>({
        fields: {
          tickets(existing) {
            const connection = existing as ConnectionValue;
            const nodes = connection.nodes.filter((node) => node.__ref !== ref);
            return nodes.length === connection.nodes.length ? existing : { ...connection, nodes };
          },
        },
      });
    }
  }
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
 * Query.customers (the shared directory, newest first; one cached list per page size and search): a new customer
 * goes on top of the directory, and counts; the searched lists are fetched again.
 */
export function addCustomerToList(cache: ApolloCache, id: number): void {
  prependToConnection(cache, 'customers', { __typename: 'Customer', id });
}

export function removeCustomer(cache: ApolloCache, id: number): void {
  const ref = cache.identify({ __typename: 'Customer', id });
  removeFromConnection(cache, 'customers', ref);
  evictEntity(cache, ref);
}

/** Query.macros (yours and macro 1, newest first; one cached list per page size). */
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

interface MessageConnectionValue {
  totalCount: number;
  nodes: Refs;
}

/**
 * Query.messages(withUserId): one cursor connection per conversation, newest first. A new message goes on top of
 * the conversation it belongs to and counts; other conversations are left alone.
 */
export function addMessageToLists(cache: ApolloCache, message: MessageParties): void {
  cache.modify<{ messages: MessageConnectionValue }>({
    fields: {
      messages(existing, { storeFieldName, toReference }) {
        const connection = existing as MessageConnectionValue;
        const withUserId = conversationOf(storeFieldName);
        if (withUserId !== message.senderId && withUserId !== message.receiverId) return existing;
        const ref = toReference({ __typename: 'Message', id: message.id })!;
        if (has(connection.nodes, ref)) return existing;
        return { ...connection, totalCount: connection.totalCount + 1, nodes: [ref, ...connection.nodes] };
      },
    },
  });
}

export function removeMessage(cache: ApolloCache, id: number): void {
  const ref = cache.identify({ __typename: 'Message', id });
  cache.modify<{ messages: MessageConnectionValue }>({
    fields: {
      messages(existing) {
        const connection = existing as MessageConnectionValue;
        const nodes = connection.nodes.filter((node) => node.__ref !== ref);
        if (nodes.length === connection.nodes.length) return existing;
        return { ...connection, totalCount: Math.max(0, connection.totalCount - 1), nodes };
      },
    },
  });
  evictEntity(cache, ref);
}

/** `messages:{"withUserId":2}` (keyArgs) or `messages({"withUserId":2})` -> 2. */
function conversationOf(storeFieldName: string): number | null {
  const open = storeFieldName.indexOf('{');
  if (open < 0) return null;
  try {
    const args = JSON.parse(storeFieldName.slice(open, storeFieldName.lastIndexOf('}') + 1)) as { withUserId?: number | null };
    return args.withUserId ?? null;
  } catch {
    return null;
  }
}

/** The `search` a cached list was read with (`customers:{"first":20,"search":"ada"}`, keyArgs), or null. */
function searchOf(storeFieldName: string): string | null {
  const open = storeFieldName.indexOf('{');
  if (open < 0) return null;
  try {
    const args = JSON.parse(storeFieldName.slice(open)) as { search?: string | null };
    return args.search?.trim() ? args.search : null;
  } catch {
    return null;
  }
}

/**
 * A new record on top of each cached list of a connection field (newest first). A searched list is dropped instead
 * and fetched again when shown: whether the search finds the record is the server's rule.
 */
function prependToConnection(cache: ApolloCache, field: 'customers' | 'macros', entity: { __typename: string; id: number }): void {
  cache.modify({
    fields: {
      [field](
        existing: unknown,
        { toReference, storeFieldName, DELETE }: { toReference: (value: typeof entity) => Reference | undefined; storeFieldName: string; DELETE: unknown },
      ) {
        const connection = existing as ConnectionValue;
        const ref = toReference(entity)!;
        if (has(connection.nodes, ref)) return existing;
        if (searchOf(storeFieldName) !== null) return DELETE;
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

function evictEntity(cache: ApolloCache, ref: string | undefined): void {
  if (!ref) return;
  if (cache.evict({ id: ref })) cache.gc();
}

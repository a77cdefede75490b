import { InMemoryCache, type FieldPolicy, type Reference } from '@apollo/client';

interface ConnectionValue {
  nodes: readonly unknown[];
}

/**
 * A cursor connection (tickets, customers, macros, users) is one cached list per `keyArgs` (e.g. one per customer
 * search): `after` only selects a page of it. A first page replaces the list; a later page is appended.
 */
function connection(keyArgs: FieldPolicy['keyArgs'] = false): FieldPolicy<ConnectionValue> {
  return {
    keyArgs,
    merge(existing, incoming, { args }) {
      if (!existing || !args?.after) return incoming;
      return { ...incoming, nodes: [...existing.nodes, ...incoming.nodes] };
    },
  };
}

/**
 * The normalized cache. Entities are keyed by `__typename:id` (the default), so an edit returned by a
 * mutation updates every screen that shows it. List fields are changed by the mutations themselves
 * (see the `update` functions next to each mutation), never by a blanket refetch.
 */
export function createCache(): InMemoryCache {
  return new InMemoryCache({
    typePolicies: {
      // A delete's answer is not an entity: keep it inside the mutation result, not as DeletedMacro:{id}.
      DeletedMacro: { keyFields: false },
      // One per partner of the signed-in agent: the picker, the open conversation and unread events share it.
      Conversation: { keyFields: ['partnerId'] },
      Query: {
        fields: {
          // One cached list per filter and order (the dashboard's URL state), per page size and search (a screen's
          // list and a picker's list of the same records are separate: the macros page may have loaded 50 when the
          // ticket form asks for 100). Mutations and live events update every cached list of a field (apollo/lists.ts).
          tickets: connection(['filter', 'orderBy']),
          customers: connection(['first', 'search']),
          macros: connection(['first']),
          users: connection(['first']),
          // One conversation (newest first) per partner; `after` pages add older messages at the end.
          messages: {
            keyArgs: ['withUserId'],
            merge(existing: { nodes: Reference[] } | undefined, incoming: { nodes: Reference[] }, { args }) {
              if (!existing || !args?.after) return incoming;
              const seen = new Set(existing.nodes.map((node) => node.__ref));
              return { ...incoming, nodes: [...existing.nodes, ...incoming.nodes.filter((node) => !seen.has(node.__ref))] };
            },
          },
          // Reading a single entity first looks in the cache, so a ticket opened from the dashboard shows at once.
          ticket: {
            read(existing: Reference | undefined, { args, toReference }) {
              return existing ?? toReference({ __typename: 'Ticket', id: args?.id as string });
            },
          },
          customer: {
            read(existing: Reference | undefined, { args, toReference }) {
              return existing ?? toReference({ __typename: 'Customer', id: args?.id as string });
            },
          },
          macro: {
            read(existing: Reference | undefined, { args, toReference }) {
              return existing ?? toReference({ __typename: 'Macro', id: args?.id as string });
            },
          },
        },
      },
    },
  });
}

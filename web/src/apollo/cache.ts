import { InMemoryCache, type Reference } from '@apollo/client';

/** A cached page of a connection: its nodes are references to normalized entities. */
interface CachedPage {
  nodes: Reference[];
  [field: string]: unknown;
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
          // One cursor-paginated list per filter and order (the dashboard's URL state): `first`/`after` only select
          // a page of it. apollo/lists.ts keeps every cached list in step with changes.
          tickets: {
            keyArgs: ['filter', 'orderBy'],
            merge(existing: CachedPage | undefined, incoming: CachedPage, { args }) {
              if (!existing || !args?.after) return incoming;
              return {
                ...incoming,
                nodes: [...existing.nodes, ...incoming.nodes],
              };
            },
          },
          // One conversation (newest first) per partner; `after` pages add older messages at the end.
          messages: {
            keyArgs: ['withUserId'],
            merge(existing: CachedPage | undefined, incoming: CachedPage, { args }) {
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

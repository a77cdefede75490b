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

interface SeqConnection {
  nodes: readonly unknown[];
  pageInfo: { endCursor?: string | null; hasNextPage: boolean };
}

/**
 * A ticket's timeline: per filter, the first page (with the live entries put on top of it) is one cached list, and
 * each older page is a list of its own (by its `after`): a live entry then changes a list of about a page, and the
 * page's query reads that much again, not the 5,000 entries a long timeline may hold (the ticket page
 * watches the older pages it loaded: tickets/timeline/olderPages.ts). Entries newest first, each seq once. Nothing
 * leaves a timeline (a deleted note stays as its tombstone), so live entries and a first page fetched again (the
 * catch-up after a reconnect) are merged by seq; a first page that does not reach the entries held (more new
 * entries than a page) replaces them, and with its new end the older pages loaded after the old one are left.
 */
const timeline: FieldPolicy<SeqConnection> = {
  keyArgs: (args) => (args?.after ? ['filter', 'after'] : ['filter']),
  merge(existing, incoming, { args, readField }) {
    if (!existing) return incoming;
    const seqOf = (node: unknown) => readField<number>('seq', node as Reference) ?? 0;
    // One entry put into the list (tickets/timeline/cache.ts writes it as `first: 1`): no page, so neither the list's
    // end nor its start moves. The newest on top without a sort, anything else in seq order, each seq once.
    if (args?.first === 1 && !args.after && incoming.nodes.length === 1) {
      const [entry] = incoming.nodes;
      const seq = seqOf(entry);
      const existingSeqs = existing.nodes.map(seqOf);
      if (existingSeqs.includes(seq)) return existing;
      if (!existingSeqs.length || seq > existingSeqs[0]) return { ...existing, nodes: [entry, ...existing.nodes] };
      const at = existingSeqs.findIndex((s) => s < seq);
      return { ...existing, nodes: at < 0 ? [...existing.nodes, entry] : [...existing.nodes.slice(0, at), entry, ...existing.nodes.slice(at)] };
    }
    const incomingSeqs = incoming.nodes.map(seqOf);
    const existingSeqs = existing.nodes.map(seqOf);
    const olderPage = !!args?.after;
    const reaches = !incoming.pageInfo.hasNextPage || !existingSeqs.length || Math.min(...incomingSeqs) <= Math.max(...existingSeqs) + 1;
    if (!olderPage && !reaches) return incoming;
    const bySeq = new Map<number, unknown>();
    existing.nodes.forEach((node, index) => bySeq.set(existingSeqs[index], node));
    incoming.nodes.forEach((node, index) => bySeq.set(incomingSeqs[index], node));
    const nodes = [...bySeq.entries()].sort(([a], [b]) => b - a).map(([, node]) => node);
    // An older page ends the list where it ends; a first page leaves the end where the list had it.
    const pageInfo = olderPage || !incoming.pageInfo.hasNextPage ? incoming.pageInfo : existing.pageInfo;
    return { ...incoming, nodes, pageInfo };
  },
};

/**
 * `Ticket.searchMatch` belongs to the list that returned the ticket (its search), not to the ticket: it is kept per
 * list (the search and view of the query that wrote it), so another search of the same ticket, or a mutation's
 * answer (null: no search) does not overwrite the line a searched list shows. Absent for a list, it reads as none.
 */
const searchMatch: FieldPolicy = {
  keyArgs: (_args, { variables }) => {
    const filter = variables?.filter as { search?: string | null } | undefined;
    return `searchMatch:${JSON.stringify([filter?.search ?? null, variables?.viewId ?? null])}`;
  },
  read: (existing: unknown) => existing ?? null,
};

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
      Ticket: { fields: { timeline, searchMatch } },
      Query: {
        fields: {
          // One cached list per filter and order (the dashboard's URL state), per page size and search (a screen's
          // list and a picker's list of the same records are separate: the macros page may have loaded 50 when the
          // ticket form asks for 100). Mutations and live events update every cached list of a field (apollo/cachedLists.ts).
          tickets: connection(['filter', 'orderBy', 'viewId']),
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

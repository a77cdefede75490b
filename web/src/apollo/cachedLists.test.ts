import { describe, expect, it } from 'vitest';
import { gql, type TypedDocumentNode } from '@apollo/client';
import { createCache } from './cache';
import { syncMyTickets } from './cachedLists';

/** A cached `tickets` list as the dashboard holds it (one per filter), with the fields the list upkeep reads. */
interface List {
  tickets: {
    __typename: 'TicketConnection';
    totalCount: number;
    statusCounts: { __typename: 'TicketStatusCounts'; open: number; pending: number; solved: number };
    nodes: { __typename: 'Ticket'; id: number; status: string; priority: string; type: string; requesterId: number }[];
    pageInfo: { __typename: 'PageInfo'; hasNextPage: boolean; endCursor: string | null };
  };
}
const LIST: TypedDocumentNode<List, { filter: Record<string, unknown> }> = gql`
  query List($filter: TicketFilter) {
    tickets(first: 50, filter: $filter) {
      totalCount
      statusCounts {
        open
        pending
        solved
      }
      nodes {
        id
        status
        priority
        type
        requesterId
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`;

const MINE = { assignedToMe: true, status: ['OPEN', 'PENDING'] };
const EVERY = { status: ['OPEN', 'PENDING'] };
const ticket = (id: number) => ({ __typename: 'Ticket' as const, id, status: 'OPEN', priority: 'Low', type: 'Question', requesterId: 1 });
const list = (ids: number[]): List => ({
  tickets: {
    __typename: 'TicketConnection',
    totalCount: ids.length,
    statusCounts: { __typename: 'TicketStatusCounts', open: ids.length, pending: 0, solved: 0 },
    nodes: ids.map(ticket),
    pageInfo: { __typename: 'PageInfo', hasNextPage: false, endCursor: null },
  },
});

function cacheWith(mine: number[], every: number[]) {
  const cache = createCache();
  cache.writeQuery({ query: LIST, variables: { filter: MINE }, data: list(mine) });
  cache.writeQuery({ query: LIST, variables: { filter: EVERY }, data: list(every) });
  const read = (filter: Record<string, unknown>) => cache.readQuery({ query: LIST, variables: { filter } })?.tickets ?? null;
  return { cache, read };
}

describe('syncMyTickets: the "My tickets" lists follow a take or an assignment', () => {
  it('a ticket given to someone else leaves My tickets and its counts, once; the list of every ticket keeps it', () => {
    const { cache, read } = cacheWith([3, 2], [4, 3, 2]);
    syncMyTickets(cache, 3, false);
    const mine = read(MINE)!;
    expect(mine.nodes.map((n) => n.id)).toEqual([2]);
    expect(mine.totalCount).toBe(1);
    expect(mine.statusCounts.open).toBe(1);
    expect(read(EVERY)!.nodes.map((n) => n.id)).toEqual([4, 3, 2]);
    // The live event of the same change, after the mutation's answer: nothing more.
    syncMyTickets(cache, 3, false);
    expect(read(MINE)!.totalCount).toBe(1);
    expect(read(EVERY)!.totalCount).toBe(3);
  });

  it('a ticket the viewer took, not in My tickets, drops that list (fetched again where shown); one already there stays', () => {
    const { cache, read } = cacheWith([2], [4, 2]);
    syncMyTickets(cache, 2, true);
    expect(read(MINE)!.nodes.map((n) => n.id)).toEqual([2]);
    syncMyTickets(cache, 4, true);
    expect(read(MINE)).toBeNull();
    expect(read(EVERY)!.nodes.map((n) => n.id)).toEqual([4, 2]);
  });

  it('a ticket not in the cache changes nothing', () => {
    const { cache, read } = cacheWith([2], [2]);
    syncMyTickets(cache, 9, true);
    syncMyTickets(cache, 9, false);
    expect(read(MINE)!.nodes.map((n) => n.id)).toEqual([2]);
  });
});

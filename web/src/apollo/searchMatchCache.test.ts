/**
 * `Ticket.searchMatch` in the real cache (apollo/cache.ts): it is kept per list (search and view), so the same ticket
 * in two searched lists shows each list's match, a mutation's answer (null: no search) leaves them, and a list
 * that never asked for it reads none.
 */
import { describe, expect, it } from 'vitest';
import { gql, type TypedDocumentNode } from '@apollo/client';
import { createCache } from './cache';

interface Match {
  __typename: 'SearchMatch';
  in: string;
  snippet: string;
  highlights: { __typename: 'SearchHighlight'; start: number; length: number }[];
}
interface Row {
  __typename: 'Ticket';
  id: number;
  title: string;
  searchMatch: Match | null;
}
interface List {
  tickets: { __typename: 'TicketConnection'; nodes: Row[] };
}
const LIST: TypedDocumentNode<List, { filter?: Record<string, unknown>; viewId?: number | null }> = gql`
  query SearchMatchList($filter: TicketFilter, $viewId: Int) {
    tickets(first: 50, filter: $filter, viewId: $viewId) {
      nodes {
        id
        title
        searchMatch {
          in
          snippet
          highlights {
            start
            length
          }
        }
      }
    }
  }
`;
const TAKE: TypedDocumentNode<{ takeTicket: Row }, { id: number }> = gql`
  mutation Take($id: Int!) {
    takeTicket(id: $id, expectedVersion: 1) {
      id
      title
      searchMatch {
        in
        snippet
        highlights {
          start
          length
        }
      }
    }
  }
`;

const match = (where: string, word: string): Match => ({
  __typename: 'SearchMatch',
  in: where,
  snippet: `about ${word} here`,
  highlights: [{ __typename: 'SearchHighlight', start: 6, length: word.length }],
});
const row = (searchMatch: Match | null): Row => ({ __typename: 'Ticket', id: 7, title: 'Printer', searchMatch });
const listOf = (r: Row): List => ({ tickets: { __typename: 'TicketConnection', nodes: [r] } });

describe('searchMatch in the cache', () => {
  it("is each list's own: another search, a view and a mutation's answer leave it", () => {
    const cache = createCache();
    const read = (variables: { filter?: Record<string, unknown>; viewId?: number | null }) =>
      cache.readQuery({ query: LIST, variables })?.tickets.nodes[0].searchMatch ?? null;
    cache.writeQuery({ query: LIST, variables: { filter: { search: 'fuser' } }, data: listOf(row(match('NOTE', 'fuser'))) });
    cache.writeQuery({ query: LIST, variables: { filter: { search: 'toner' } }, data: listOf(row(match('REPLY', 'toner'))) });
    cache.writeQuery({ query: LIST, variables: { viewId: 3 }, data: listOf(row(match('TITLE', 'printer'))) });
    cache.writeQuery({ query: LIST, variables: {}, data: listOf(row(null)) });
    cache.writeQuery({ query: TAKE, variables: { id: 7 }, data: { takeTicket: { ...row(null), title: 'Printer (taken)' } } });

    expect(read({ filter: { search: 'fuser' } })).toMatchObject({ in: 'NOTE', snippet: 'about fuser here' });
    expect(read({ filter: { search: 'toner' } })).toMatchObject({ in: 'REPLY', snippet: 'about toner here' });
    expect(read({ viewId: 3 })).toMatchObject({ in: 'TITLE' });
    expect(read({})).toBeNull();
    // The rest of the ticket is one entity: the mutation's title is every list's.
    expect(cache.readQuery({ query: LIST, variables: { filter: { search: 'fuser' } } })?.tickets.nodes[0].title).toBe('Printer (taken)');
  });

  it('reads as none for a list that never asked for it', () => {
    const cache = createCache();
    cache.writeQuery({
      query: gql`
        query Plain($filter: TicketFilter) {
          tickets(first: 50, filter: $filter) {
            nodes {
              id
              title
            }
          }
        }
      `,
      variables: { filter: { search: 'drum' } },
      data: { tickets: { __typename: 'TicketConnection', nodes: [{ __typename: 'Ticket', id: 7, title: 'Printer' }] } },
    });
    expect(cache.readQuery({ query: LIST, variables: { filter: { search: 'drum' } } })?.tickets.nodes[0].searchMatch).toBeNull();
  });
});

import type { ApolloCache, ApolloClient } from '@apollo/client';
import { graphql, useFragment } from '../../gql';
import type { TicketTimelineEventsSubscription, TimelineEntryWriteQuery } from '../../gql/graphql';
import { FILTERS, filterHolds } from './entries';
import { entryView, TimelineEntry_note } from './documents';

/**
 * One entry written into a cached timeline list of one ticket and filter (read and written here only, never sent):
 * `first: 1` tells the list's merge (apollo/cache.ts) that this is one entry put into the list, not a page, so the
 * write touches that entry and the list's references only, whatever the length of the list (a long timeline is
 * neither read out nor written back: a timeline of 5,000 entries).
 */
const TIMELINE_ENTRY = graphql(`
  query TimelineEntryWrite($ticketId: Int!, $timelineFilter: TimelineFilter!) {
    ticket(id: $ticketId) {
      id
      timeline(first: 1, filter: $timelineFilter) {
        nodes {
          __typename
          ...TimelineEntry_note
          ...TimelineEntry_change
          ...TimelineEntry_reply
          ...TimelineEntry_requesterMessage
        }
        pageInfo {
          endCursor
          hasNextPage
        }
      }
    }
  }
`);

/** An entry as any timeline document holds it (a page's, a mutation's answer, a live event). */
type ListEntry = Parameters<typeof entryView>[0];
type Entry = TicketTimelineEventsSubscription['ticketTimelineEvents'];

/**
 * Puts one entry (a live event, or the answer of addTicketNote) into every cached timeline list of the ticket whose
 * filter holds it, in seq order, once. Lists not cached are left alone (their screen fetches them).
 */
export function insertTimelineEntry(cache: ApolloCache, ticketId: number, entry: ListEntry): void {
  const ticket = cache.identify({ __typename: 'Ticket', id: ticketId });
  for (const { value: filter } of FILTERS) {
    if (!filterHolds(filter, entry.__typename)) continue;
    // Only a list the cache holds: writing into none would make a one-entry list that a screen would take for a page.
    let held = false;
    cache.modify({
      id: ticket,
      fields: {
        timeline(value: unknown, { storeFieldName }): unknown {
          if (storeFieldName.includes(`"filter":"${filter}"`)) held = true;
          return value;
        },
      },
      broadcast: false,
    });
    if (!held) continue;
    // With the type names the cache keys and matches fragments by (the generated result types leave them out).
    const pageInfo = { __typename: 'PageInfo', endCursor: null, hasNextPage: true };
    const timeline = { __typename: 'TimelineEntryConnection', nodes: [entry], pageInfo };
    const ticketData = { __typename: 'Ticket', id: ticketId, timeline };
    const data: TimelineEntryWriteQuery = { ticket: ticketData };
    cache.writeQuery({ query: TIMELINE_ENTRY, variables: { ticketId, timelineFilter: filter }, data });
  }
}

/**
 * A live entry of `ticketTimelineEvents`: into the cached lists. A note's edit or deletion (from this tab or any
 * other, any door) carries the note as it is now (`TicketChange.note`), which Apollo normalizes as TicketNote:{id}:
 * every list that shows the note takes its new text, or its tombstone, without a fetch.
 */
export function applyTimelineEvent(client: ApolloClient, ticketId: number, entry: Entry): void {
  insertTimelineEntry(client.cache, ticketId, entry);
  if (entry.__typename !== 'TicketChange' || !entry.note) return;
  // graphql-codegen's `useFragment` is no React hook: it only reads a fragment's fields out of a result.
  // eslint-disable-next-line react-hooks/rules-of-hooks
  const note = useFragment(TimelineEntry_note, entry.note);
  client.cache.writeFragment({
    fragment: TimelineEntry_note,
    fragmentName: 'TimelineEntry_note',
    id: client.cache.identify({ __typename: 'TicketNote', id: note.id }),
    data: note,
  });
}

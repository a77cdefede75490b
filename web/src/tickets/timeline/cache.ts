import type { ApolloCache, ApolloClient } from '@apollo/client';
import { graphql, useFragment } from '../../gql';
import type { TicketTimelineEventsSubscription } from '../../gql/graphql';
import { FILTERS, filterHolds } from './entries';
import { entryView, TimelineEntry_note } from './documents';

/**
 * A cached timeline list of one ticket and filter, as the ticket page's query holds it (read and written here only,
 * never sent): a new entry is written through it, so Apollo normalizes it like a page (notes as TicketNote:{id}).
 */
const CACHED_TIMELINE = graphql(`
  query CachedTimeline($ticketId: Int!, $timelineFilter: TimelineFilter!) {
    ticket(id: $ticketId) {
      id
      timeline(first: 50, filter: $timelineFilter) {
        nodes {
          __typename
          ...TimelineEntry_note
          ...TimelineEntry_change
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
const seqOf = (entry: ListEntry): number => entryView(entry).seq;

/**
 * Puts one entry (a live event, or the answer of addTicketNote) into every cached timeline list of the ticket whose
 * filter holds it, in seq order, once. Lists not cached are left alone (their screen fetches them), and so is an
 * entry older than a list's oldest while older pages remain (it belongs to a page not loaded yet).
 */
export function insertTimelineEntry(cache: ApolloCache, ticketId: number, entry: ListEntry): void {
  const seq = seqOf(entry);
  for (const { value: filter } of FILTERS) {
    if (!filterHolds(filter, entry.__typename)) continue;
    cache.updateQuery({ query: CACHED_TIMELINE, variables: { ticketId, timelineFilter: filter } }, (data) => {
      const timeline = data?.ticket?.timeline;
      if (!data?.ticket || !timeline) return undefined;
      const seqs = timeline.nodes.map(seqOf);
      if (seqs.includes(seq)) return undefined;
      if (timeline.pageInfo.hasNextPage && seqs.length && seq < Math.min(...seqs)) return undefined;
      // A live entry is almost always the newest: put on top without sorting a long list.
      const nodes = !seqs.length || seq > seqs[0] ? [entry, ...timeline.nodes] : [...timeline.nodes, entry].sort((a, b) => seqOf(b) - seqOf(a));
      return { ...data, ticket: { ...data.ticket, timeline: { ...timeline, nodes } } };
    });
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

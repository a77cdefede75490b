import type { ApolloCache, ApolloClient } from '@apollo/client';
import { graphql } from '../../gql';
import type { TicketTimelineEventsSubscription, TicketTimelinePageQuery } from '../../gql/graphql';
import { FILTERS, filterHolds } from './entries';
import { entryView, TimelineEntry_note, TIMELINE_PAGE } from './documents';

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

type Entry = TicketTimelineEventsSubscription['ticketTimelineEvents'];
const seqOf = (entry: Entry): number => entryView(entry).seq;

/**
 * Puts one entry (a live event, or the answer of addTicketNote) into every cached timeline list of the ticket whose
 * filter holds it, in seq order, once. Lists not cached are left alone (their screen fetches them), and so is an
 * entry older than a list's oldest while older pages remain (it belongs to a page not loaded yet).
 */
export function insertTimelineEntry(cache: ApolloCache, ticketId: number, entry: Entry): void {
  const seq = seqOf(entry);
  for (const { value: filter } of FILTERS) {
    if (!filterHolds(filter, entry.__typename)) continue;
    cache.updateQuery({ query: CACHED_TIMELINE, variables: { ticketId, timelineFilter: filter } }, (data) => {
      const timeline = data?.ticket?.timeline;
      if (!data?.ticket || !timeline) return undefined;
      const seqs = timeline.nodes.map(seqOf);
      if (seqs.includes(seq)) return undefined;
      if (timeline.pageInfo.hasNextPage && seqs.length && seq < Math.min(...seqs)) return undefined;
      const nodes = [...timeline.nodes, entry].sort((a, b) => seqOf(b) - seqOf(a));
      return { ...data, ticket: { ...data.ticket, timeline: { ...timeline, nodes } } };
    });
  }
}

/** Notes this tab is editing: their NOTE_EDITED event needs no fetch (the mutation's answer has the text). */
const editedHere = new Set<number>();

/** The edit of this note is this tab's own (called before the mutation is sent); returns the undo for a failure. */
export function noteEditedHere(noteId: number): () => void {
  editedHere.add(noteId);
  return () => editedHere.delete(noteId);
}

/** Pages of notes fetched at most to find an edited note (its place is its creation: usually the first page). */
const NOTE_PAGES_SEARCHED = 5;

/**
 * The current text of a note another tab or door edited: events carry note ids, never text, and there is no query
 * for one note, so the notes list is read from the top until the note's page (writing each page to the cache,
 * where TicketNote:{id} takes the new text and revisions on every list). A note this tab does not hold is left
 * alone: the page that shows it later brings it current.
 */
async function refreshNote(client: ApolloClient, ticketId: number, noteId: number): Promise<void> {
  const held = client.cache.readFragment({
    fragment: TimelineEntry_note,
    fragmentName: 'TimelineEntry_note',
    id: client.cache.identify({ __typename: 'TicketNote', id: noteId }),
  });
  if (!held) return;
  let after: string | null = null;
  for (let page = 0; page < NOTE_PAGES_SEARCHED; page++) {
    const result: ApolloClient.QueryResult<TicketTimelinePageQuery> = await client.query({
      query: TIMELINE_PAGE,
      variables: { ticketId, timelineFilter: 'NOTES' as const, after },
      fetchPolicy: 'network-only',
    });
    const timeline = result.data?.ticket.timeline;
    if (!timeline || !timeline.pageInfo.hasNextPage || timeline.nodes.some((node) => seqOf(node) <= held.seq)) return;
    after = timeline.pageInfo.endCursor ?? null;
  }
}

/**
 * A live entry of `ticketTimelineEvents`: into the cached lists; a note's deletion also makes the note a tombstone
 * wherever it is shown, and an edit from elsewhere brings the note's new text.
 */
export function applyTimelineEvent(client: ApolloClient, ticketId: number, entry: Entry): void {
  insertTimelineEntry(client.cache, ticketId, entry);
  const change = entryView(entry);
  if (change.__typename !== 'TicketChange' || !change.noteId) return;
  const noteId = change.noteId;
  if (change.kind === 'NOTE_DELETED') {
    client.cache.modify({
      id: client.cache.identify({ __typename: 'TicketNote', id: noteId }),
      fields: { body: () => null, deletedAt: (deletedAt: string | null) => deletedAt ?? change.at, revisions: () => [] },
    });
  } else if (change.kind === 'NOTE_EDITED') {
    if (editedHere.delete(noteId)) return;
    refreshNote(client, ticketId, noteId).catch((error: unknown) => console.warn('edited note', error));
  }
}

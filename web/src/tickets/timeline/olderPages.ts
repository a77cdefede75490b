import type { ApolloClient } from '@apollo/client';
import { useEffect, useMemo, useState } from 'react';
import type { TicketTimelinePageQuery } from '../../gql/graphql';
import { TIMELINE_PAGE, type TimelinePage } from './documents';
import type { TimelineFilterValue } from './entries';

const NONE: readonly string[] = [];

/**
 * The older pages of a ticket's timeline that the agent loaded below the page's own first page. Each is a cached
 * list of its own (apollo/cache.ts) and each is watched on its own: a note edited or deleted in one of them shows
 * there, and a live entry, which changes the first page only, reads none of them again (a live entry on
 * a page of 5,000 entries). They are cache watches, not queries: nothing fetches them again after a reconnect (what
 * a page held stays true; the first page brings what is new). The pages hang off the first page's end: a first
 * page fetched again that replaced the list (it did not reach the entries held) has a new end and leaves them, and
 * so does another filter.
 */
export function useOlderPages(client: ApolloClient, ticketId: number, filter: TimelineFilterValue, first: TimelinePage) {
  const chainKey = `${filter} ${first.pageInfo.endCursor ?? ''}`;
  const [chain, setChain] = useState<{ key: string; cursors: readonly string[] }>({ key: chainKey, cursors: NONE });
  const cursors = chain.key === chainKey ? chain.cursors : NONE;
  // By filter and cursor (a cursor names a place in the timeline, whatever the filter).
  const [pages, setPages] = useState<ReadonlyMap<string, TimelinePage>>(() => new Map());

  useEffect(() => {
    const cancels = cursors.map((after) =>
      client.cache.watch<TicketTimelinePageQuery>({
        query: TIMELINE_PAGE,
        variables: { ticketId, timelineFilter: filter, after },
        optimistic: true,
        immediate: true,
        callback(diff) {
          if (!diff.complete || !diff.result) return;
          const page = diff.result.ticket.timeline;
          setPages((held) => (held.get(`${filter} ${after}`) === page ? held : new Map(held).set(`${filter} ${after}`, page)));
        },
      }),
    );
    return () => cancels.forEach((cancel) => cancel());
  }, [client, ticketId, filter, cursors]);

  // The pages in order, up to the first one not read yet.
  const loaded = useMemo(() => {
    const out: TimelinePage[] = [];
    for (const after of cursors) {
      const page = pages.get(`${filter} ${after}`);
      if (!page) break;
      out.push(page);
    }
    return out;
  }, [cursors, pages, filter]);

  const last = loaded.at(-1) ?? first;
  const hasOlder = loaded.length < cursors.length || last.pageInfo.hasNextPage;

  /** Fetches the page after the last one loaded; it joins the pages watched. */
  async function loadOlder(): Promise<void> {
    const after = last.pageInfo.endCursor;
    if (!after) return;
    const { data } = await client.query({ query: TIMELINE_PAGE, variables: { ticketId, timelineFilter: filter, after }, fetchPolicy: 'network-only' });
    if (data) setPages((held) => new Map(held).set(`${filter} ${after}`, data.ticket.timeline));
    setChain((held) => ({ key: chainKey, cursors: [...(held.key === chainKey ? held.cursors : NONE), after] }));
  }

  return { pages: loaded, hasOlder, loadOlder };
}

import type { ApolloCache, ApolloClient } from '@apollo/client';
import { graphql } from '../gql';

/**
 * The counts of the agent's views that changed (issue 28): at most a few batches a second, the first one all. When
 * the agent's set of views changes (a view made in another tab, shared with them or unshared, a team joined or
 * left) a gained view comes as an id the cache does not hold, a lost one with `removed`.
 */
export const VIEW_COUNT_EVENTS = graphql(`
  subscription LiveViewCountEvents {
    viewCountEvents {
      viewId
      count
      removed
    }
  }
`);

/** The views as the dashboard reads them (DashboardPage's `views`), read again when the agent gains one. */
const LIVE_VIEW_LIST = graphql(`
  query LiveViewList {
    views {
      id
      name
      count
      scope
      team {
        id
        name
      }
      ...ViewSidebar_view
    }
  }
`);

const LIVE_VIEW_ID = graphql(`
  fragment LiveView_id on TicketView {
    id
  }
`);

/**
 * Each count goes to its cached view (`TicketView:{id}`); a removed view leaves the cache (and so every list of
 * views); a view the cache does not hold, while it holds the list of views, is a gained one: the list is read
 * again. Returns whether it was (for the caller's fetch).
 */
export function applyViewCounts(cache: ApolloCache, counts: readonly { viewId: number; count: number; removed: boolean }[]): boolean {
  let evicted = false;
  let gained = false;
  for (const { viewId, count, removed } of counts) {
    const id = cache.identify({ __typename: 'TicketView', id: viewId });
    if (!id) continue;
    if (removed) evicted = cache.evict({ id }) || evicted;
    else if (cache.readFragment({ id, fragment: LIVE_VIEW_ID })) cache.modify({ id, fields: { count: () => count } });
    else gained = true;
  }
  if (evicted) cache.gc();
  if (!gained) return false;
  // Only when a screen holds the list (a page without views has nothing to show the new one in).
  let listed = false;
  cache.modify({
    id: 'ROOT_QUERY',
    fields: {
      views(value: unknown): unknown {
        listed = true;
        return value;
      },
    },
    broadcast: false,
  });
  return listed;
}

/** Reads the list of views again: the answer replaces the cached list, and the sidebar follows. */
export function refetchViewList(client: ApolloClient): void {
  client.query({ query: LIVE_VIEW_LIST, fetchPolicy: 'network-only' }).catch((error: unknown) => console.warn('views', error));
}

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

const LIVE_VIEW_ID = graphql(`
  fragment LiveView_id on TicketView {
    id
  }
`);

/**
 * Each count goes to its cached view (`TicketView:{id}`); a removed view leaves the cache (and so every list of
 * views). Returns whether a count named a view the cache does not hold while it holds the list of views: a view
 * gained, for the caller to read the list again.
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
  // Only when a screen holds the list (a page without views has nothing to show the new one in, and a list still
  // loading will come with it).
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

/**
 * Reads the list of views again through the screen that shows it: the dashboard's own query, when it is open (its
 * answer replaces the cached list and the sidebar follows); no second selection of what the dashboard reads.
 */
export function refetchViewList(client: ApolloClient): void {
  client.refetchQueries({ include: ['DashboardPage'] }).catch((error: unknown) => console.warn('views', error));
}

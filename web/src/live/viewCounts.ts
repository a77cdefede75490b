import type { ApolloCache, ApolloClient, Reference } from '@apollo/client';
import { graphql } from '../gql';

/**
 * The counts of the agent's views that changed: at most a few batches a second, the first one all. A
 * view comes whole (`view`) when it is new to the subscription (the first batch; a view made in another tab, shared
 * with the agent, a team joined) or was changed (a colleague renamed a shared view, changed its filter, ...); a
 * lost one comes with `removed`. `view` selects what the dashboard reads of each view (DashboardPage's `views`, the
 * sidebar's fragment among it), so a view added to the cached list is complete there.
 */
export const VIEW_COUNT_EVENTS = graphql(`
  subscription LiveViewCountEvents {
    viewCountEvents {
      viewId
      count
      removed
      view {
        id
        name
        count
        scope
        shared
        team {
          id
          name
        }
        filter {
          priority
          requesterId
          search
          status
          type
        }
        ...ViewSidebar_view
      }
    }
  }
`);

/**
 * Applies a batch to the cache. Apollo has already written the result into it, so a view sent whole is in
 * `TicketView:{id}` (its new name shows wherever it is listed); here each count goes to its cached view, a removed
 * view leaves the cache (and so every list of views), and a saved view the cached list of views does not hold is
 * put in it at its place (saved views follow the defaults, oldest first: by id). Returns whether a default view was
 * gained (a team joined) while a screen holds the list: its place is by team name as the server orders them, so
 * the caller reads the list again.
 */
export function applyViewCounts(
  cache: ApolloCache,
  counts: readonly { viewId: number; count: number; removed: boolean; view?: { id: number } | null }[],
): boolean {
  let evicted = false;
  const whole: number[] = [];
  for (const { viewId, count, removed, view } of counts) {
    const id = cache.identify({ __typename: 'TicketView', id: viewId });
    if (!id) continue;
    if (removed) evicted = cache.evict({ id }) || evicted;
    else if (view) whole.push(viewId);
    else cache.modify({ id, fields: { count: () => count } });
  }
  if (evicted) cache.gc();
  if (!whole.length) return false;
  let gainedDefault = false;
  // Only when a screen holds the list (a page without views has nothing to show the new one in, and a list still
  // loading will come with it): the modifier runs only for a cached field.
  cache.modify<{ views: readonly Reference[] }>({
    id: 'ROOT_QUERY',
    fields: {
      views(existing, { readField, toReference }) {
        const listed = new Set(existing.map((ref) => readField<number>('id', ref)));
        const gained = whole.filter((id) => !listed.has(id)).sort((a, b) => a - b);
        if (gained.some((id) => id < 1)) gainedDefault = true;
        let list = existing;
        for (const id of gained.filter((id) => id >= 1)) {
          const ref = toReference({ __typename: 'TicketView', id });
          if (!ref) continue;
          const at = list.findIndex((other) => (readField<number>('id', other) ?? 0) > id);
          list = at < 0 ? [...list, ref] : [...list.slice(0, at), ref, ...list.slice(at)];
        }
        return list;
      },
    },
  });
  return gainedDefault;
}

/**
 * Reads the list of views again through the screen that shows it: the dashboard's own query, when it is open (its
 * answer replaces the cached list and the sidebar follows); no second selection of what the dashboard reads.
 */
export function refetchViewList(client: ApolloClient): void {
  client.refetchQueries({ include: ['DashboardPage'] }).catch((error: unknown) => console.warn('views', error));
}

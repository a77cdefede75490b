import type { ApolloCache } from '@apollo/client';
import { graphql } from '../gql';

/** The counts of the agent's views that changed (issue 28): at most a few batches a second, the first one all. */
export const VIEW_COUNT_EVENTS = graphql(`
  subscription LiveViewCountEvents {
    viewCountEvents {
      viewId
      count
    }
  }
`);

/** Each count goes to its cached view (`TicketView:{id}`); a view not loaded yet is left alone. */
export function applyViewCounts(cache: ApolloCache, counts: readonly { viewId: number; count: number }[]): void {
  for (const { viewId, count } of counts) {
    const id = cache.identify({ __typename: 'TicketView', id: viewId });
    if (id) cache.modify({ id, fields: { count: () => count } });
  }
}

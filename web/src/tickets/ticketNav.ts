import { useApolloClient } from '@apollo/client/react';
import { useEffect, useState } from 'react';
import { graphql } from '../gql';
import type { TicketListIdsQuery } from '../gql/graphql';
import { readState, toVariables, viewIdOf } from './dashboardFilters';

/**
 * The list a ticket was opened from, kept in the ticket's address: `?from=<the dashboard's own parameters>` (a view,
 * a search, filters, an order; none for the plain dashboard, whose tickets keep their plain address). Next / Previous, j / k and "Back to the list" follow
 * that list, in its order.
 */
export const FROM_PARAM = 'from';

/** The longest `from` the page reads: a dashboard address is far shorter; anything longer is not one. */
const FROM_MAX = 1000;

/** A ticket's address opened from a list whose parameters are `listParams` (the dashboard's search string). */
export function ticketHref(id: number, listParams: string | null): string {
  return listParams ? `/view/ticket/${id}?${new URLSearchParams({ [FROM_PARAM]: listParams }).toString()}` : `/view/ticket/${id}`;
}

/** The list's parameters a ticket's `from` names (a missing or oversized one: the plain dashboard). */
export function listParamsOf(from: string | null): URLSearchParams {
  return new URLSearchParams(from && from.length <= FROM_MAX ? from : '');
}

/** The list's address ("Back to the list"). */
export function listHref(from: string | null): string {
  const params = listParamsOf(from).toString();
  return params ? `/view/tickets/all?${params}` : '/view/tickets/all';
}

/** The GraphQL variables of the list `from` names: the dashboard's, built by the dashboard's own functions. */
export function listVariables(from: string | null): ReturnType<typeof toVariables> & { viewId: number | null } {
  const params = listParamsOf(from);
  const viewId = viewIdOf(params);
  return { ...toVariables(readState(params), viewId), viewId };
}

/** The tickets before and after `id` in `ids` (null at either end, or when `id` is not in it). */
export function neighbours(ids: readonly number[], id: number): { previous: number | null; next: number | null } {
  const index = ids.indexOf(id);
  if (index < 0) return { previous: null, next: null };
  return { previous: ids[index - 1] ?? null, next: ids[index + 1] ?? null };
}

const LIST_IDS = graphql(`
  query TicketListIds($first: Int!, $after: String, $filter: TicketFilter, $orderBy: TicketOrder, $viewId: Int) {
    tickets(first: $first, after: $after, filter: $filter, orderBy: $orderBy, viewId: $viewId) {
      nodes {
        id
      }
      pageInfo {
        endCursor
        hasNextPage
      }
    }
  }
`);

const PAGE = 100;
/** Pages read at most to find the ticket in its list (500 tickets): past that the page offers only "Back to the list". */
const MAX_PAGES = 5;

/**
 * The ids of the list `from` names, as far as the ticket `id` and one more: read once per list (moving to the next
 * ticket keeps the list as it was when opened, so a ticket solved on the way does not reshuffle j / k), outside the
 * cache (the dashboard's cached pages hold more fields per ticket).
 */
export function useListIds(from: string | null, id: number): readonly number[] | null {
  const client = useApolloClient();
  const [list, setList] = useState<{ from: string | null; ids: number[]; complete: boolean } | null>(null);
  const index = list?.ids.indexOf(id) ?? -1;
  const known = !!list && list.from === from && (list.complete || (index >= 0 && index < list.ids.length - 1));

  useEffect(() => {
    if (known) return;
    let cancelled = false;
    const variables = listVariables(from);
    void (async () => {
      const ids: number[] = [];
      let after: string | null = null;
      // Without a `from` (a link from elsewhere), one page of the agent's own list: the ticket is often not in it.
      const pages = from === null ? 1 : MAX_PAGES;
      for (let page = 0; page < pages; page++) {
        const result: { data?: TicketListIdsQuery } | null = await client
          .query({ query: LIST_IDS, variables: { ...variables, first: PAGE, after }, fetchPolicy: 'no-cache' })
          .catch(() => null);
        if (cancelled || !result?.data) break;
        ids.push(...result.data.tickets.nodes.map((node) => node.id));
        after = result.data.tickets.pageInfo.endCursor ?? null;
        const done = !result.data.tickets.pageInfo.hasNextPage;
        if (done || (ids.includes(id) && ids.indexOf(id) < ids.length - 1)) {
          setList({ from, ids, complete: done });
          return;
        }
      }
      if (!cancelled) setList({ from, ids, complete: true });
    })();
    return () => {
      cancelled = true;
    };
  }, [client, from, id, known]);

  return list?.from === from ? list.ids : null;
}

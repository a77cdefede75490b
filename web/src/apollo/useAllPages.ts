import { useEffect } from 'react';

interface Paged {
  pageInfo: { hasNextPage: boolean; endCursor?: string | null };
}

/**
 * For a list a screen must hold whole (the ticket form's macro select, the message center's agents): while the
 * cached connection has a next page, fetch it (the cache's connection policy appends it). Returns true once the
 * last page is in. Each page is at most 100 records, so a list of a few hundred takes a few quick requests.
 */
export function useAllPages(list: Paged | undefined, fetchMore: (options: { variables: { after: string } }) => Promise<unknown>): boolean {
  const hasNextPage = list?.pageInfo.hasNextPage ?? false;
  const cursor = list?.pageInfo.endCursor ?? null;
  useEffect(() => {
    if (hasNextPage && cursor) void fetchMore({ variables: { after: cursor } });
  }, [hasNextPage, cursor, fetchMore]);
  return list !== undefined && !hasNextPage;
}

import type { ApolloCache, Reference } from '@apollo/client';

/** Query.apiTokens (newest first): a new token goes on top (once). */
export function addApiTokenToList(cache: ApolloCache, id: number): void {
  cache.modify<{ apiTokens: readonly Reference[] }>({
    fields: {
      apiTokens(existing, { toReference }) {
        const list = existing as readonly Reference[];
        const ref = toReference({ __typename: 'ApiToken', id })!;
        return list.some((item) => item.__ref === ref.__ref) ? list : [ref, ...list];
      },
    },
  });
}

/** A revoked token leaves Query.apiTokens (the list shows tokens that still work or have expired). */
export function removeApiTokenFromList(cache: ApolloCache, id: number): void {
  const ref = cache.identify({ __typename: 'ApiToken', id });
  cache.modify<{ apiTokens: readonly Reference[] }>({
    fields: {
      apiTokens(existing) {
        return (existing as readonly Reference[]).filter((item) => item.__ref !== ref);
      },
    },
  });
}

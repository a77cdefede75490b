import type { ApolloCache, Reference } from '@apollo/client';

/** Query.teams (by name): a new team takes its place by name (once). */
export function addTeamToList(cache: ApolloCache, id: number): void {
  cache.modify<{ teams: readonly Reference[] }>({
    fields: {
      teams(existing, { toReference, readField }) {
        const list = existing as readonly Reference[];
        const ref = toReference({ __typename: 'Team', id })!;
        if (list.some((item) => item.__ref === ref.__ref)) return list;
        const name = readField<string>('name', ref) ?? '';
        const at = list.findIndex((item) => (readField<string>('name', item) ?? '') > name);
        return at < 0 ? [...list, ref] : [...list.slice(0, at), ref, ...list.slice(at)];
      },
    },
  });
}

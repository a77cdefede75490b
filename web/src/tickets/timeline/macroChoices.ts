import { useQuery } from '@apollo/client/react';
import { graphql } from '../../gql';

/** Macro 1, the built-in "No Macro": nothing to insert, never offered in the picker. */
export const NO_MACRO_ID = 1;

const MACRO_CHOICES = graphql(`
  query MacroChoices {
    macros(first: 100) {
      nodes {
        id
        name
        description
        ownerId
      }
    }
  }
`);

export interface MacroChoice {
  id: number;
  name: string;
  description: string;
  ownerId?: number | null;
}

/** The macros the agent may use where replies are written and on the ticket's macro property. */
export function useMacroChoices(): { macros: readonly MacroChoice[] | null; error: unknown } {
  const { data, error } = useQuery(MACRO_CHOICES, { fetchPolicy: 'cache-and-network' });
  return { macros: data?.macros.nodes ?? null, error };
}

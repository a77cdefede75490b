import { useApolloClient, useQuery } from '@apollo/client/react';
import { graphql } from '../../gql';
import type { PickerMacro } from './macroGroups';

export { NO_MACRO_ID } from './macroGroups';

const MACRO_CHOICES = graphql(`
  query MacroChoices {
    macros(first: 100, includeShared: true) {
      nodes {
        id
        name
        description
        ownerId
        sharing
        team {
          id
          name
        }
      }
    }
  }
`);

const RENDER_MACRO = graphql(`
  query RenderMacro($macroId: Int!, $ticketId: Int!) {
    renderMacro(macroId: $macroId, ticketId: $ticketId)
  }
`);

/** A macro's text filled in for a ticket by the server (its placeholders: the requester's name, the ticket's id…). */
export function useRenderMacro(ticketId: number): (macroId: number) => Promise<string> {
  const client = useApolloClient();
  return async (macroId) => {
    const { data } = await client.query({ query: RENDER_MACRO, variables: { macroId, ticketId }, fetchPolicy: 'no-cache' });
    if (!data) throw new Error('The macro could not be filled in. Try again.');
    return data.renderMacro;
  };
}

/** The macros the agent may use (theirs, their teams' and everyone's) where replies are written and on the ticket's macro property. */
export function useMacroChoices(): { macros: readonly PickerMacro[] | null; error: unknown } {
  const { data, error } = useQuery(MACRO_CHOICES, { fetchPolicy: 'cache-and-network' });
  return { macros: data?.macros.nodes ?? null, error };
}

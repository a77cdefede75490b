import { createContext, useContext } from 'react';
import { graphql } from '../gql';
import type { RootQuery } from '../gql/graphql';

/** The shell's one query: who is signed in. Everything else waits for it. */
export const ROOT_QUERY = graphql(`
  query Root {
    me {
      id
      username
      email
      role
    }
  }
`);

export type SessionUser = NonNullable<RootQuery['me']>;

export const SessionContext = createContext<SessionUser | null>(null);

/** The signed-in agent, or null when signed out. */
export function useSession(): SessionUser | null {
  return useContext(SessionContext);
}

/** For screens only reachable when signed in (below the SignedInLayout route). */
export function useSignedInUser(): SessionUser {
  const me = useContext(SessionContext);
  if (!me) throw new Error('useSignedInUser outside SignedInLayout');
  return me;
}

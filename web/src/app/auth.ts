import { useApolloClient, useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { graphql } from '../gql';
import { DEMO_USER } from './demoAccounts';
import { beginSessionSwitch } from '../live/session';

export const LOGIN_MUTATION = graphql(`
  mutation Login($email: String!, $password: String!) {
    login(email: $email, password: $password) {
      id
      username
      email
    }
  }
`);

export const SIGNUP_MUTATION = graphql(`
  mutation Signup($input: SignupInput!) {
    signup(input: $input) {
      id
      username
      email
    }
  }
`);

const LOGOUT_MUTATION = graphql(`
  mutation Logout {
    logout
  }
`);

/**
 * Switching who is signed in: everything cached belongs to the previous agent, so the store is reset and
 * the active queries (the shell's `me` first of all) are fetched again as the new agent. The live socket is
 * closed meanwhile and opened again for the new session (see live/session.ts).
 */
export function useSessionSwitch(): () => Promise<void> {
  const client = useApolloClient();
  return useCallback(async () => {
    const end = beginSessionSwitch();
    // A screen that is unmounting may fail its refetch (e.g. signed out); the session itself is what matters.
    await client
      .resetStore()
      .catch((error: unknown) => {
        if ((error as Error)?.name !== 'AbortError') console.warn('resetStore', error);
      })
      .finally(end);
  }, [client]);
}

/** Logs in with the given credentials, switches the session and goes to `to`. Throws what the mutation threw. */
export function useLoginAs(): (email: string, password: string, to: string) => Promise<void> {
  const [login] = useMutation(LOGIN_MUTATION);
  const switchSession = useSessionSwitch();
  const navigate = useNavigate();
  return useCallback(
    async (email, password, to) => {
      // From here the old session's socket is of no use (a login renews the session cookie).
      const end = beginSessionSwitch();
      try {
        const { data } = await login({ variables: { email, password } });
        if (!data) throw new Error('login returned no data');
        await switchSession();
        void navigate(to);
      } finally {
        end();
      }
    },
    [login, switchSession, navigate],
  );
}

export function useDemoLogin(): () => Promise<void> {
  const loginAs = useLoginAs();
  return useCallback(() => loginAs(DEMO_USER.email, DEMO_USER.password, '/view/tickets/all'), [loginAs]);
}

export function useLogout(): () => Promise<void> {
  const [logout] = useMutation(LOGOUT_MUTATION);
  const switchSession = useSessionSwitch();
  const navigate = useNavigate();
  return useCallback(async () => {
    // Close the socket first: the server closes it too (4401), which is then nothing to react to.
    const end = beginSessionSwitch();
    try {
      await logout();
      await navigate('/');
      await switchSession();
    } finally {
      end();
    }
  }, [logout, switchSession, navigate]);
}

import { useId, useState } from 'react';
import { useMutation } from '@apollo/client/react';
import { ROLES, type Role } from '@fulcrum/schema/validation';
import { describeError } from '../apollo/errors';
import { graphql, useFragment, type FragmentType } from '../gql';

export const AgentRoleRow_user = graphql(`
  fragment AgentRoleRow_user on User {
    id
    username
    email
    role
  }
`);

/** The answer updates User:{id}'s role in the cache (the signed-in agent's own too: the shell follows). */
const SET_USER_ROLE = graphql(`
  mutation SetUserRole($userId: Int!, $role: Role!) {
    setUserRole(userId: $userId, role: $role) {
      id
      ...AgentRoleRow_user
    }
  }
`);

const ROLE_LABELS: Record<Role, string> = { ADMIN: 'Admin', AGENT: 'Agent' };

/** One agent and their role; a refusal (the last admin) is the server's message, under the select. */
export function AgentRoleRow(props: { user: FragmentType<typeof AgentRoleRow_user> }) {
  const user = useFragment(AgentRoleRow_user, props.user);
  const [setRole, { loading }] = useMutation(SET_USER_ROLE);
  const [error, setError] = useState<string | null>(null);
  const errorId = useId();

  async function choose(role: Role) {
    if (role === user.role) return;
    setError(null);
    try {
      await setRole({ variables: { userId: user.id, role } });
    } catch (caught) {
      const failure = describeError(caught);
      setError(failure.fields.role?.[0] ?? Object.values(failure.fields)[0]?.[0] ?? failure.message);
    }
  }

  return (
    <tr>
      <td data-label="Name">{user.username}</td>
      <td data-label="Email">{user.email}</td>
      <td data-label="Role">
        <select
          className="input"
          value={user.role}
          disabled={loading}
          aria-label={`Role of ${user.username}`}
          aria-invalid={!!error}
          aria-describedby={error ? errorId : undefined}
          onChange={(e) => void choose(e.target.value as Role)}
        >
          {ROLES.map((role) => (
            <option key={role} value={role}>
              {ROLE_LABELS[role]}
            </option>
          ))}
        </select>
        {error && (
          <p className="form-error" role="alert" id={errorId}>
            {error}
          </p>
        )}
      </td>
      <td />
    </tr>
  );
}

import { useId, useState } from 'react';
import { useMutation } from '@apollo/client/react';
import { describeError } from '../apollo/errors';
import { graphql, useFragment, type FragmentType } from '../gql';
import { ConfirmModal } from '../ui/ConfirmModal';
import './admin.css';

export const TeamCard_team = graphql(`
  fragment TeamCard_team on Team {
    id
    name
    memberIds
    autoAssign
  }
`);

/** The answer updates Team:{id}.autoAssign in the cache. */
const SET_AUTO_ASSIGN = graphql(`
  mutation SetTeamAutoAssign($teamId: Int!, $enabled: Boolean!) {
    setTeamAutoAssign(teamId: $teamId, enabled: $enabled) {
      id
      autoAssign
    }
  }
`);

/** The answers update Team:{id}'s members in the cache (every screen showing the team follows). */
const ADD_TEAM_MEMBER = graphql(`
  mutation AddTeamMember($teamId: Int!, $userId: Int!) {
    addTeamMember(teamId: $teamId, userId: $userId) {
      id
      ...TeamCard_team
    }
  }
`);

const REMOVE_TEAM_MEMBER = graphql(`
  mutation RemoveTeamMember($teamId: Int!, $userId: Int!) {
    removeTeamMember(teamId: $teamId, userId: $userId) {
      id
      ...TeamCard_team
    }
  }
`);

export interface Agent {
  id: number;
  username: string;
}

/** One team: its members (each with Remove, after a confirm) and a picker to add an agent who is not in it. */
export function TeamCard(props: { team: FragmentType<typeof TeamCard_team>; agents: readonly Agent[] }) {
  const team = useFragment(TeamCard_team, props.team);
  const headingId = useId();
  const pickerId = useId();
  const [choice, setChoice] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [removing, setRemoving] = useState<Agent | null>(null);
  const [addMember, { loading: adding }] = useMutation(ADD_TEAM_MEMBER);
  const [removeMember] = useMutation(REMOVE_TEAM_MEMBER);
  const [setAutoAssign, { loading: switching }] = useMutation(SET_AUTO_ASSIGN);
  const autoId = useId();
  const [autoError, setAutoError] = useState<string | null>(null);
  const name = (id: number) => props.agents.find((agent) => agent.id === id)?.username ?? `Agent ${id}`;
  const members = team.memberIds.map((id) => ({ id, username: name(id) })).sort((a, b) => a.username.localeCompare(b.username));
  const others = props.agents.filter((agent) => !team.memberIds.includes(agent.id));

  async function add(event: React.FormEvent) {
    event.preventDefault();
    if (!choice) {
      setError('Choose an agent to add.');
      return;
    }
    setError(null);
    try {
      await addMember({ variables: { teamId: team.id, userId: Number(choice) } });
      setChoice('');
    } catch (caught) {
      const failure = describeError(caught);
      setError(Object.values(failure.fields)[0]?.[0] ?? failure.message);
    }
  }

  return (
    <section className="card team-card" aria-labelledby={headingId}>
      <h3 id={headingId}>{team.name}</h3>
      {members.length ? (
        <ul className="team-members" aria-label={`Members of ${team.name}`}>
          {members.map((member) => (
            <li key={member.id}>
              <span>{member.username}</span>
              <button
                type="button"
                className="button button-secondary button-small"
                aria-label={`Remove ${member.username} from ${team.name}`}
                onClick={() => setRemoving(member)}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">No members yet.</p>
      )}
      <div className="team-auto">
        <input
          id={autoId}
          type="checkbox"
          checked={team.autoAssign}
          disabled={switching}
          aria-describedby={`${autoId}-hint`}
          onChange={async (event) => {
            setAutoError(null);
            try {
              await setAutoAssign({ variables: { teamId: team.id, enabled: event.target.checked } });
            } catch (caught) {
              setAutoError(describeError(caught).message);
            }
          }}
        />
        <label htmlFor={autoId}>Assign new tickets automatically</label>
        <p id={`${autoId}-hint`} className="muted">
          A new unassigned ticket of {team.name} goes to the member online with the fewest open tickets in it.
        </p>
        {autoError && (
          <p className="form-error" role="alert">
            {autoError}
          </p>
        )}
      </div>
      <form className="team-add" onSubmit={add} noValidate>
        <label htmlFor={pickerId}>Add a member to {team.name}</label>
        <div className="team-add-row">
          <select id={pickerId} className="input" value={choice} onChange={(e) => setChoice(e.target.value)} aria-invalid={!!error}>
            <option value="">Choose an agent</option>
            {others.map((agent) => (
              <option key={agent.id} value={agent.id}>
                {agent.username}
              </option>
            ))}
          </select>
          <button type="submit" className="button button-primary" disabled={adding}>
            {adding ? 'Adding…' : 'Add'}
          </button>
        </div>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
      </form>
      {removing && (
        <ConfirmModal
          title="Remove Member"
          question={`Remove ${removing.username} from ${team.name}? Their tickets of the team stay in it, unassigned.`}
          confirmLabel="Remove Member"
          onClose={() => setRemoving(null)}
          onConfirm={async () => {
            await removeMember({ variables: { teamId: team.id, userId: removing.id } });
            setRemoving(null);
          }}
        />
      )}
    </section>
  );
}

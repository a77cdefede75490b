import { useQuery } from '@apollo/client/react';
import { useAllPages } from '../apollo/useAllPages';
import { useSignedInUser } from '../app/session';
import { graphql } from '../gql';
import { DataTable } from '../ui/DataTable';
import { LoadFailed, PageLoading } from '../ui/PageStates';
import { AgentRoleRow } from './AgentRoleRow';
import { CreateTeamForm } from './CreateTeamForm';
import { TeamCard } from './TeamCard';
import './admin.css';

/** Every team (an admin's `teams`) and every agent (a workspace of more than 100 loads the rest in pages). */
const ADMIN_PAGE = graphql(`
  query AdminPage($after: String) {
    teams {
      id
      ...TeamCard_team
    }
    users(first: 100, after: $after) {
      nodes {
        id
        username
        ...AgentRoleRow_user
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`);

/** /admin: teams and their members, and the agents' roles. Admins only; an agent is told so. */
export default function AdminPage() {
  const me = useSignedInUser();
  if (me.role !== 'ADMIN')
    return (
      <section className="page page-narrow card" role="alert">
        <h1>Only admins can manage teams</h1>
        <p>Teams and roles are managed by an admin of this workspace. Ask an admin to add you to a team or to change your role.</p>
      </section>
    );
  return <AdminScreen />;
}

function AdminScreen() {
  const { data, error, refetch, fetchMore } = useQuery(ADMIN_PAGE);
  const complete = useAllPages(data?.users, fetchMore);
  if (!data) return error ? <LoadFailed what="teams and agents" error={error} retry={refetch} /> : <PageLoading />;
  const agents = data.users.nodes;

  return (
    <section className="page admin-page">
      <header className="page-header">
        <p className="eyebrow">Workspace</p>
        <h1>Admin</h1>
        <p className="page-subtitle">Teams share their tickets: every member may read, take and assign them. Admins may read every ticket.</p>
      </header>
      <h2 className="admin-heading">Teams</h2>
      <CreateTeamForm />
      {data.teams.length ? (
        <div className="team-grid">
          {data.teams.map((team) => (
            <TeamCard key={team.id} team={team} agents={agents} />
          ))}
        </div>
      ) : (
        <div className="card empty-state">
          <p>No teams yet.</p>
        </div>
      )}
      <h2 className="admin-heading">Agents</h2>
      {!complete && <p role="status">Loading more agents…</p>}
      <DataTable className="agent-table" caption="Agents and their roles" columns={['Name', 'Email', 'Role']}>
        {agents.map((user) => (
          <AgentRoleRow key={user.id} user={user} />
        ))}
      </DataTable>
    </section>
  );
}

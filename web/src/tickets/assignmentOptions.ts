import { useQuery } from '@apollo/client/react';
import { useAllPages } from '../apollo/useAllPages';
import { graphql } from '../gql';

/**
 * Where a ticket can go: the viewer's teams (an admin: every team) with their members, and every agent's name
 * (a workspace of more than 100 agents loads the rest in pages). The create form's and the ticket page's
 * assignment pickers share it, like the requester picker has its own search: it is the pickers' data, not the
 * screen's, and the ticket page loads it only when "Assign" is opened.
 */
const ASSIGNMENT_OPTIONS = graphql(`
  query AssignmentOptions($after: String) {
    teams {
      id
      name
      memberIds
    }
    users(first: 100, after: $after) {
      nodes {
        id
        username
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`);

export interface AssignmentTeam {
  id: number;
  name: string;
  memberIds: readonly number[];
}

export interface AssignmentOptions {
  teams: readonly AssignmentTeam[];
  /** Agent names by id. */
  names: ReadonlyMap<number, string>;
}

export function useAssignmentOptions() {
  const { data, error, refetch, fetchMore } = useQuery(ASSIGNMENT_OPTIONS);
  const complete = useAllPages(data?.users, fetchMore);
  const options: AssignmentOptions | null =
    data && complete ? { teams: data.teams, names: new Map(data.users.nodes.map((user) => [user.id, user.username])) } : null;
  return { options, error, refetch };
}

/** The members of a team as choices, the viewer first ("Me"), then by name. */
export function memberChoices(team: AssignmentTeam, names: ReadonlyMap<number, string>, meId: number): { id: number; label: string }[] {
  return team.memberIds
    .filter((id) => id !== meId)
    .map((id) => ({ id, label: names.get(id) ?? `Agent ${id}` }))
    .sort((a, b) => a.label.localeCompare(b.label));
}

/**
 * Teams: the caller's teams, and the admin's team management (members, auto-assignment).
 */
import { Arg, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import { teams } from '../services/index.js';
import type { GraphQLContext } from './context.js';
import { Team } from './types.js';

@Resolver(() => Team)
export class TeamResolver {
  @Query(() => [Team], { description: 'Your teams, by name (an admin: every team).' })
  teams(@Ctx() { service }: GraphQLContext) {
    return teams.listTeams(service);
  }

  @Mutation(() => Team, { description: 'Admins only: creates a team (a name of 1 to 50 characters, unique).' })
  createTeam(@Arg('name', () => String) name: string, @Ctx() { service }: GraphQLContext) {
    return teams.createTeam(service, name);
  }

  @Mutation(() => Team, { description: 'Admins only: adds an agent to a team (no change when already a member).' })
  addTeamMember(@Arg('teamId', () => Int) teamId: number, @Arg('userId', () => Int) userId: number, @Ctx() { service }: GraphQLContext) {
    return teams.addTeamMember(service, teamId, userId);
  }

  @Mutation(() => Team, {
    description: "Admins only: turns the team's auto-assignment on or off (new unassigned tickets of the team go to the least-loaded member online).",
  })
  setTeamAutoAssign(@Arg('teamId', () => Int) teamId: number, @Arg('enabled', () => Boolean) enabled: boolean, @Ctx() { service }: GraphQLContext) {
    return teams.setTeamAutoAssign(service, teamId, enabled);
  }

  @Mutation(() => Team, { description: 'Admins only: removes an agent from a team; their tickets of the team stay in it, unassigned.' })
  removeTeamMember(@Arg('teamId', () => Int) teamId: number, @Arg('userId', () => Int) userId: number, @Ctx() { service }: GraphQLContext) {
    return teams.removeTeamMember(service, teamId, userId);
  }
}

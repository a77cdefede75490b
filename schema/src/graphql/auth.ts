/**
 * Sign-up, sign-in and the signed-in agent (AuthResolver), and agents as others see them (UserResolver).
 */
import { Arg, Args, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { auth, teams, users } from '../services/index.js';
import type { UserRecord } from '../records/index.js';
import type { GraphQLContext } from './context.js';
import { SignupInput } from './inputs.js';
import { PageArgs, UserConnection, toConnection } from './connection.js';
import { Role, User } from './types.js';

@Resolver()
export class AuthResolver {
  @Query(() => User, { nullable: true, description: 'The signed-in agent, or null when signed out.' })
  async me(@Ctx() { service }: GraphQLContext) {
    return service.viewerId == null ? null : users.currentUser(service);
  }

  // Nullable on purpose: a refused login is null beside its error instead of ending the document, so every
  // aliased login in one mutation runs, and counts against the rate limit, one by one.
  @Mutation(() => User, { nullable: true, description: 'Signs in; the session cookie is renewed. Null (with an error) when refused.' })
  login(@Arg('email', () => String) email: string, @Arg('password', () => String) password: string, @Ctx() { service }: GraphQLContext) {
    return auth.login(service, { email, password });
  }

  @Mutation(() => User, { description: 'Creates an account and signs in.' })
  signup(@Arg('input', () => SignupInput) input: SignupInput, @Ctx() { service }: GraphQLContext) {
    return auth.signup(service, input);
  }

  @Mutation(() => Boolean, { description: 'Ends the session server-side and closes its websockets.' })
  async logout(@Ctx() { service }: GraphQLContext) {
    await auth.logout(service);
    return true;
  }
}

@Resolver(() => User)
export class UserResolver {
  @Query(() => UserConnection, { description: 'The agents of this workspace, oldest account first, one page at a time.' })
  async users(@Args(() => PageArgs) page: PageArgs, @Ctx() { service }: GraphQLContext) {
    return toConnection(await users.listUsersPage(service, page));
  }

  @FieldResolver(() => Role, { description: 'ADMIN or AGENT.' })
  async role(@Root() user: UserRecord, @Ctx() { loaders }: GraphQLContext) {
    return user.role ?? (await loaders.user.load(user.id))?.role ?? 'AGENT';
  }

  @Mutation(() => User, { description: "Admins only: sets an agent's role (the last admin cannot be demoted). Takes effect at the agent's next request." })
  setUserRole(@Arg('userId', () => Int) userId: number, @Arg('role', () => Role) role: string, @Ctx() { service }: GraphQLContext) {
    return teams.setUserRole(service, userId, role);
  }
}
